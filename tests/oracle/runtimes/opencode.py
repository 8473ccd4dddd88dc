"""The OpenCode adapter of the differential harness (tests/oracle/README.md;
/work/shared/reference/oracles.md "OpenCode"; docs/design/runtime-facts.md §9).

OpenCode runs headless as `opencode run --title t --format json --command=NAME WORDS…` (a user's
`/NAME args`) or `opencode run … go` answered by the mock with a call of the `skill` tool (the
model loading a skill), against the mock Chat Completions API (`tests.oracle.mocks.openai_chat`)
configured through `OPENCODE_CONFIG_CONTENT`, with auto-update, the models fetch, sharing and LSP
downloads off. ripgrep must be on PATH (the skill tool lists the skill's files with it; without
it OpenCode tries to download it). Each `observe` runs its processes one after the other in the
harness's loopback-only network namespace (tests/oracle/netns.py) beside one mock
(`common.run_steps`), each with the same fresh HOME.

What is read:
- the listing: the `<available_skills>` block of the system prompt, each `<skill>` element by its
  `<name>` (OpenCode's built-in skills, location `<built-in>`, left out); when no invocation
  made a request (every command unknown), one more run (`run go`) shows it;
- `slash` (`--command`): the first request's user message, the rendered template exactly; no
  request and an error is `not-found` (no such command) with OpenCode's message;
- `tool` (the `skill` tool): the `role: "tool"` message of the second request, the
  `<skill_content name="N">…</skill_content>` text exactly (`rendered`), else its error.
`run` re-quotes every word holding a space (`"…"`, inner quotes escaped): the arguments are split
back into the words that give exactly the typed text (`command_words`); a text that no split
gives is `unsupported`. Paths under the run's HOME are written `~`.
"""

from __future__ import annotations

import html
import json
import os
import platform
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.oracle.mocks.openai_chat import ChatMock, message_texts, tool_results
from tests.oracle.mocks.recording import ToolCall
from tests.oracle.runtimes._npm import NpmRuntime
from tests.oracle.runtimes.base import Invocation, Layout, Observation, Outcome
from tests.oracle.runtimes.common import (
    Step,
    StepResult,
    base_environment,
    fresh_home,
    homeless,
    run_steps,
)

VERSION = "1.18.33"
PACKAGE = "opencode-ai"
#: what a tool-mode run asks (one word: `run` would re-quote a prompt with spaces)
TOOL_PROMPT = "go"
RUN_TIMEOUT = 180.0
BUILT_IN = "<built-in>"

_SKILL = re.compile(r"<skill>\s*<name>(.*?)</name>\s*<description>(.*?)</description>\s*"
                    r"<location>(.*?)</location>\s*</skill>", re.S)
_QUOTED_WORD = re.compile(r'"[^"\\]* [^"\\]*"')


def binary_in(folder: Path) -> Path | None:
    """The native `opencode` of an install folder (the platform package's binary)."""
    arch = "arm64" if platform.machine().lower() in ("aarch64", "arm64") else "x64"
    for package in (f"opencode-linux-{arch}", f"opencode-linux-{arch}-baseline"):
        candidate = folder / "node_modules" / package / "bin" / "opencode"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def config_content(base_url: str) -> str:
    """`OPENCODE_CONFIG_CONTENT`: the mock (`base_url`, its `…/v1`) as the only provider and
    model."""
    return json.dumps({
        "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
                              "options": {"baseURL": base_url,
                                          "apiKey": "dummy"},
                              "models": {"mock-model": {"name": "Mock Model",
                                                        "tool_call": True}}}},
        "model": "mock/mock-model", "small_model": "mock/mock-model", "autoupdate": False,
        "share": "disabled"})


def environment(home: Path, base_url: str) -> dict[str, str]:
    return base_environment(home, TERM="dumb", OPENCODE_DISABLE_AUTOUPDATE="1",
                            OPENCODE_DISABLE_MODELS_FETCH="1", OPENCODE_DISABLE_SHARE="1",
                            OPENCODE_DISABLE_LSP_DOWNLOAD="1",
                            OPENCODE_CONFIG_CONTENT=config_content(base_url))


def joined(words: list[str]) -> str:
    """How `opencode run` joins its message words: a word with a space is quoted, its `"`
    escaped."""
    return " ".join('"' + word.replace('"', '\\"') + '"' if " " in word else word
                    for word in words)


def command_words(args: str) -> list[str] | None:
    """The words to pass `run` so that it sends exactly `args`: split at each space, except that
    a `"…"` holding spaces (and no other quote or backslash) becomes one word without its quotes;
    None when the words would not give `args` back."""
    pieces, words = args.split(" "), []
    while pieces:
        piece = pieces.pop(0)
        if piece.startswith('"') and not (len(piece) > 1 and piece.endswith('"')):
            group = [piece]
            text = piece
            while pieces and not (len(text) > 1 and text.endswith('"')):
                group.append(pieces.pop(0))
                text = " ".join(group)
            if _QUOTED_WORD.fullmatch(text):
                words.append(text[1:-1])
                continue
            words += group
            continue
        words.append(piece)
    return words if joined(words) == args else None


# -- reading the requests ---------------------------------------------------------------------------

def listing_entries(body: dict[str, Any]) -> dict[str, str]:
    """The `<available_skills>` entries of the system prompt, each `<skill>…</skill>` element as
    sent, by its (unescaped) name; the built-in skills left out."""
    entries: dict[str, str] = {}
    for text in message_texts(body, "system"):
        start = text.find("<available_skills>")
        end = text.find("</available_skills>", start)
        if start < 0:
            continue
        for found in _SKILL.finditer(text[start:end if end >= 0 else len(text)]):
            if html.unescape(found.group(3)) == BUILT_IN:
                continue
            name = html.unescape(found.group(1))
            entries[name if name not in entries else f"{name}#2"] = found.group()
    return entries


def slash_outcome(result: StepResult, home: Path) -> Outcome:
    """What `--command NAME WORDS` gave the model: the first request's last user message. With no
    request, `run` failed: 1.18.33 reports a command it does not have as an `UnknownError`
    ("Unexpected server error"), which is read as `not-found` (its text is not compared)."""
    if not result.requests:
        message = _error_text(result)
        kind = "not-found" if re.search(r"not found|UnknownError", message, re.I) else "refused"
        return Outcome(kind, homeless(message, home), exact=False)
    users = message_texts(result.requests[0], "user")
    return Outcome("rendered", homeless(users[-1] if users else "", home))


def tool_outcome(result: StepResult, home: Path) -> Outcome:
    """What the `skill` tool returned to the model (the tool message of the second request)."""
    if len(result.requests) < 2:
        return Outcome("missing", "the skill tool was not called: "
                       + _error_text(result), exact=False)
    results = list(tool_results(result.requests[1]).values())
    text = homeless(results[0] if results else "", home)
    if text.startswith("<skill_content"):
        return Outcome("rendered", text)
    kind = "not-found" if re.search(r"not found", text, re.I) else "refused"
    return Outcome(kind, text)


def _error_text(result: StepResult) -> str:
    """OpenCode's error of a run: the `error` events of its JSON output, else stderr."""
    messages = []
    for line in result.stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("type") == "error":
            messages.append(json.dumps(event.get("error"))[:400])
    return "; ".join(messages) or f"exit {result.returncode}: {result.stderr.strip()[-400:]}"


class OpenCodeAdapter(NpmRuntime):
    """OpenCode against the mock Chat Completions API (`base.RuntimeAdapter`)."""

    name = "opencode"
    target = "opencode"
    version = VERSION
    package = PACKAGE
    layout = Layout(project_skills=".opencode/skills",
                    personal_skills=".config/opencode/skills")
    modes: tuple[str, ...] = ("slash", "tool")

    def find(self, folder: Path) -> Path | None:
        return binary_in(folder)

    def observe(self, project: Path, home: Path, cwd: Path,
                invocations: list[Invocation]) -> Observation:
        binary = self.executable()
        if binary is None:
            return Observation(None, {}, [f"OpenCode {self.version} is not installed in "
                                          f"{self.folder()}"])
        if shutil.which("rg") is None:
            return Observation(None, {}, ["ripgrep (`rg`) is not on PATH: OpenCode's skill "
                                          "tool needs it (Debian `ripgrep`)"])
        run_home = fresh_home(home)
        try:
            return self._observe(binary, run_home, cwd, invocations)
        finally:
            shutil.rmtree(run_home, ignore_errors=True)

    def _observe(self, binary: Path, home: Path, cwd: Path,
                 invocations: list[Invocation]) -> Observation:
        run = [str(binary), "run", "--title", "t", "--format", "json"]
        planned: dict[str, tuple[list[str], list[ToolCall]]] = {}
        outcomes: dict[str, Outcome] = {}
        for number, invocation in enumerate(invocations):
            key = f"{invocation.mode}#{number}"
            if invocation.mode == "tool":
                planned[key] = ([*run, TOOL_PROMPT],
                                [ToolCall("skill", {"name": invocation.skill})])
                continue
            words = command_words(invocation.args) if invocation.args else []
            if words is None:
                outcomes[key] = Outcome("unsupported", f"`opencode run` cannot send the "
                                        f"arguments {invocation.args!r} as typed", exact=False)
                continue
            # `--command=NAME`: a name starting with `-` stays the option's value
            planned[key] = ([*run, f"--command={invocation.skill}", *words], [])
        if not planned:
            planned["listing"] = ([*run, TOOL_PROMPT], [])

        def steps(keys: list[str]) -> Callable[[str], list[Step]]:
            return lambda base_url: [Step(planned[key][0], environment(home, base_url), str(cwd),
                                          planned[key][1], RUN_TIMEOUT) for key in keys]

        results, error = run_steps(ChatMock, steps(list(planned)))
        if not any(result.requests for result in results):  # the listing needs one request
            planned["listing"] = ([*run, TOOL_PROMPT], [])
            more, error = run_steps(ChatMock, steps(["listing"]))
            results += more
        notes = [error] if error else []
        by_key = dict(zip(planned, results, strict=False))
        for key, result in by_key.items():
            if result.returncode != 0:
                notes.append(f"{key}: opencode run exited {result.returncode}: "
                             f"{result.stderr.strip()[-300:]}")
            if key.startswith("slash#"):
                outcomes[key] = slash_outcome(result, home)
            elif key.startswith("tool#"):
                outcomes[key] = tool_outcome(result, home)
        for key in planned:
            outcomes.setdefault(key, Outcome("missing", error or "no run", exact=False))
        first = next((r for r in results if r.requests), None)
        listing = None if first is None else {
            name: homeless(entry, home) for name, entry in listing_entries(first.requests[0]).items()}
        return Observation(listing, outcomes, notes)


ADAPTER = OpenCodeAdapter()
