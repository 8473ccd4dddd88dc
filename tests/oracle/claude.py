"""Running the real Claude Code against the mock Messages API, and reading what it sent
(tests/oracle/README.md; the request shapes: docs/design/runtime-facts.md §3.5, §3.6, §3.9).

Every run gets a fresh HOME (a copy of the probe's `home/` plus `.claude.json` saying onboarding is
done), a dummy API key, the mock's address, and telemetry, auto-update and non-essential traffic
switched off. A run is one `claude -p <prompt>` in the probe's project: `/name args` for a user
invocation, or a plain prompt that the mock answers with `tool_use` calls of the Skill tool.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.oracle.install import Unavailable, find_claude
from tests.oracle.mock_api import MockApi
from tests.oracle.runtimes.common import patience

#: how long one `claude -p` may take (a run takes about a second; this only stops a hang)
RUN_TIMEOUT = 120
LISTING_HEADER = "The following skills are available for use with the Skill tool:\n\n"
_ENTRY = re.compile(r"- (\S+?)(?: \(([^)\n]*)\))?(?:: |$)")


@dataclass
class Observed:
    """What one Claude Code run did: the request bodies the mock received, and the output."""

    prompt: str
    requests: list[dict[str, Any]]
    stdout: str
    stderr: str
    returncode: int
    home: Path  #: the HOME of the run (removed after it), for `HOME_MARK`
    tool_name: str | None = None


@dataclass
class Outcome:
    """One invocation's result, as the model would receive it. `kind` is "rendered" (`text` is
    the skill as the model gets it), "refused" (`text` is the message) or "unknown" (no such
    skill: Claude Code sends `/name` on as an ordinary prompt)."""

    kind: str
    text: str
    #: False where wave-lsp gives the decision but not the text (a rendering it will not
    #: execute, a Skill-tool invocation it has no preview of): only the kind is compared
    exact: bool = True

    def describe(self) -> str:
        return f"{self.kind}: {self.text!r}" + ("" if self.exact else " (decision only)")


@dataclass
class Entry:
    """One line of the skill listing: the name, the label after it, and the whole line."""

    name: str
    label: str | None
    line: str


@dataclass
class ProbeRuns:
    """Every run of one probe."""

    listing: Observed
    slash: list[Observed] = field(default_factory=list)


def environment(home: Path, base_url: str) -> dict[str, str]:
    """The whole environment of a run: nothing inherited but PATH."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "LANG": "C.UTF-8", "TERM": "dumb",
            "ANTHROPIC_API_KEY": "sk-ant-oracle-dummy", "ANTHROPIC_BASE_URL": base_url,
            "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "CLAUDE_CODE_DISABLE_POLICY_SKILLS": "1"}


#: an address where nothing listens: commands that need no model (`claude plugin …`) get it, so
#: any request they tried would fail at once instead of leaving the machine
NO_API = "http://127.0.0.1:9"


def installed_or_skip() -> Path:
    """The pinned Claude Code for a test: skips the test, with the reason, when it is not
    installed, or fails it when `WAVE_LSP_REQUIRE_ORACLE=1` (as in `.ci/run`)."""
    import pytest  # only the tests need it; `python -m tests.oracle.show` runs without it

    try:
        return find_claude()
    except Unavailable as error:
        if os.environ.get("WAVE_LSP_REQUIRE_ORACLE") == "1":
            pytest.fail(f"WAVE_LSP_REQUIRE_ORACLE=1 but {error}")
        pytest.skip(str(error))


def fresh_home(template: Path | None) -> Path:
    """A new HOME: a copy of `template` (the probe's `home/`) with onboarding marked done."""
    home = Path(tempfile.mkdtemp(prefix="wave-lsp-oracle-home-")).resolve()
    if template is not None and template.is_dir():
        shutil.copytree(template, home, dirs_exist_ok=True, symlinks=True)
    config = home / ".claude.json"
    if not config.exists():
        config.write_text(json.dumps({"hasCompletedOnboarding": True}))
    return home


def run_claude(binary: Path, api: MockApi, project: Path, home_template: Path | None,
               prompt: str, *, skill_calls: list[tuple[str, str | None]] | None = None,
               plugin_dirs: list[Path] | None = None,
               wrap: Callable[[list[str]], list[str]] = list) -> Observed:
    """One `claude -p prompt` in `project` (`wrap`: how to start it, e.g. inside the network
    namespace, tests/oracle/netns.py)."""
    run_id, run = api.new_run(skill_calls)
    home = fresh_home(home_template)
    command = [str(binary), "-p", "--no-session-persistence"]
    for folder in plugin_dirs or []:
        command += ["--plugin-dir", str(folder)]
    command += ["--", prompt]
    try:
        done = subprocess.run(wrap(command), cwd=project, env=environment(home, api.base_url(run_id)),
                              capture_output=True, text=True, timeout=RUN_TIMEOUT * patience(),
                              stdin=subprocess.DEVNULL)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return Observed(prompt, list(run.requests), done.stdout, done.stderr, done.returncode, home,
                    run.tool_name)


# -- reading the requests -----------------------------------------------------------------------

def _texts(content: object) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [block["text"] for block in content
                if isinstance(block, dict) and isinstance(block.get("text"), str)]
    return []


def listing_text(request: dict[str, Any]) -> str | None:
    """The skill listing block of a request (None if it has none): from the header to the end of
    the last entry."""
    texts = _texts(request.get("system"))
    for message in request.get("messages") or []:
        texts += _texts(message.get("content"))
    for text in texts:
        start = text.find(LISTING_HEADER)
        if start < 0:
            continue
        lines = text[start + len(LISTING_HEADER):].split("\n")
        block: list[str] = []
        for number, line in enumerate(lines):
            # an entry's description may run on over several lines; a blank line followed by
            # something other than an entry ends the listing
            if line == "" and not (number + 1 < len(lines) and lines[number + 1].startswith("- ")):
                break
            block.append(line)
        return "\n".join(block)
    return None


def listing_entries(request: dict[str, Any]) -> list[Entry]:
    """The listing's entries, in order (a description's continuation lines kept in its line)."""
    block = listing_text(request)
    if block is None:
        return []
    entries: list[Entry] = []
    for line in block.split("\n"):
        match = _ENTRY.match(line) if line.startswith("- ") else None
        if match:
            entries.append(Entry(match.group(1), match.group(2), line))
        elif entries:
            entries[-1].line += "\n" + line
    return entries


def slash_outcome(observed: Observed) -> Outcome:
    """What `/name args` gave the model: the blocks of the first user turn after the
    `<command-args>` block, or (no request at all) the refusal Claude Code printed."""
    if not observed.requests:
        return Outcome("refused", observed.stdout.strip() or observed.stderr.strip())
    messages = observed.requests[0].get("messages") or []
    user = [m for m in messages if m.get("role") == "user"]
    blocks = _texts(user[0]["content"]) if user else []
    for index, text in enumerate(blocks):
        if "<command-name>" in text:
            return Outcome("rendered", "".join(blocks[index + 1:index + 2]))
    return Outcome("unknown", blocks[-1] if blocks else "")


def tool_outcomes(observed: Observed) -> dict[str, Outcome]:
    """What each Skill-tool call gave the model, by the call's id: from the follow-up request,
    each `tool_result` and the text blocks after it (until the next result)."""
    if len(observed.requests) < 2:
        return {}
    last_user = [m for m in observed.requests[1].get("messages") or [] if m.get("role") == "user"]
    content = last_user[-1].get("content") if last_user else None
    results: dict[str, Outcome] = {}
    current: str | None = None
    for block in content if isinstance(content, list) else []:
        if block.get("type") == "tool_result":
            current = str(block.get("tool_use_id"))
            text = "".join(_texts(block.get("content")))
            unknown = re.fullmatch(r"Unknown skill: (.*)", _unwrap(text), re.S)
            if block.get("is_error") and unknown:
                results[current] = Outcome("unknown", unknown.group(1))
            elif block.get("is_error"):
                results[current] = Outcome("refused", _unwrap(text))
            else:
                results[current] = Outcome("rendered", "")
        elif block.get("type") == "text" and current is not None \
                and results[current].kind == "rendered":
            results[current].text += block["text"]
    return results


def _unwrap(text: str) -> str:
    """A tool error's message without its `<tool_use_error>` wrapper."""
    match = re.fullmatch(r"<tool_use_error>(.*)</tool_use_error>", text, re.S)
    return match.group(1) if match else text
