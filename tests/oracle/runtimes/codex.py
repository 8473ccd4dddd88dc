"""The Codex CLI adapter of the differential harness (tests/oracle/README.md;
/work/shared/reference/oracles.md "Codex CLI"; docs/design/runtime-facts.md §9).

Codex runs headless as `codex exec --skip-git-repo-check '$name args'` against the mock Responses
API (`tests.oracle.mocks.openai_responses`), in a fresh HOME whose `~/.codex/config.toml` names the
mock provider, trusts the project and switches analytics, metrics and plugins off (with those three
keys it makes no other request). Each run is inside the harness's loopback-only network namespace
(tests/oracle/netns.py) beside the mock (`common.run_steps`): the runs of one `observe` share one
namespace and one mock, one after the other.

What is read from the first request of each run:
- the listing: the `developer` message's `### Available skills` lines, `- name: description (file:
  rN/<folder>/SKILL.md)`, with the short path expanded through the `### Skill roots` table
  (`rN` = the root's path) and Codex's own system skills (`$CODEX_HOME/skills/.system`) left out;
- a `$name args` mention: the user message `<skill>\\n<name>…</name>\\n<path>…</path>\\n` + the
  whole file + `\\n</skill>` that Codex adds when the mention selects exactly one skill
  (`rendered`); no such message is `not-found` (no skill of that name, or two of them).
Codex has no skill tool (the model reads SKILL.md with its shell), so the only mode is "slash",
the `$name` mention. Paths under the run's HOME are written `~`.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
from pathlib import Path
from typing import Any

from tests.oracle.mocks.openai_responses import ResponsesMock, input_messages
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

VERSION = "0.171.0"
PACKAGE = "@openai/codex"
#: what a run asks when the probe has no invocation (only the listing is read)
LISTING_PROMPT = "hello"
RUN_TIMEOUT = 120.0

_ROOT = re.compile(r"^- `(r\d+)` = `(.*)`$")
_ENTRY = re.compile(r"^- (.+?): (.*) \(file: (r\d+)/(.*)\)$", re.S)
_SKILL_MESSAGE = re.compile(r"<skill>\n<name>(.*?)</name>\n<path>(.*?)</path>\n", re.S)


def _triple() -> str:
    machine = platform.machine().lower()
    arch = "aarch64" if machine in ("aarch64", "arm64") else "x86_64"
    return f"{arch}-unknown-linux-musl"


def binary_in(folder: Path) -> Path | None:
    """The native `codex` of an install folder (the platform package's vendored binary)."""
    for candidate in sorted((folder / "node_modules" / "@openai").glob(
            f"codex*/vendor/{_triple()}/bin/codex")) if folder.is_dir() else []:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def config_toml(project: Path, base_url: str) -> str:
    """`~/.codex/config.toml` of a run: the mock provider (`base_url`, its `…/v1`), the project
    trusted, and no analytics, metrics or plugin lookups."""
    return (f'model = "mock-model"\nmodel_provider = "mock"\n'
            f'check_for_update_on_startup = false\n\n'
            f'[projects."{project}"]\ntrust_level = "trusted"\n\n'
            f'[analytics]\nenabled = false\n\n[otel]\nmetrics_exporter = "none"\n\n'
            f'[features]\nplugins = false\n\n'
            f'[model_providers.mock]\nname = "Mock"\n'
            f'base_url = "{base_url}"\nenv_key = "MOCK_API_KEY"\n'
            f'wire_api = "responses"\n')


def mention(invocation: Invocation) -> str:
    """The prompt: `$name`, then the arguments as typed."""
    return f"${invocation.skill} {invocation.args}" if invocation.args else f"${invocation.skill}"


# -- reading the requests ---------------------------------------------------------------------------

def skills_block(body: dict[str, Any]) -> str | None:
    """The developer message's skills section (None when no message has one)."""
    for text in input_messages(body, "developer"):
        start = text.find("### Skill roots")
        if start >= 0:
            end = text.find("</skills_instructions>", start)
            return text[start:end if end >= 0 else len(text)]
    return None


def listing_entries(body: dict[str, Any], system_root: str | None) -> dict[str, str]:
    """The listing's lines by name, each with its `rN/` short path expanded to the root's path;
    the skills under `system_root` (Codex's own) left out. A name listed twice keeps the first
    line under its name and the second under `name#2`."""
    block = skills_block(body)
    if block is None:
        return {}
    roots: dict[str, str] = {}
    lines: list[str] = []
    in_list = False
    for line in block.split("\n"):
        if found := _ROOT.match(line):
            roots[found.group(1)] = found.group(2)
        elif line.startswith("### Available skills"):
            in_list = True
        elif in_list and line.startswith("- "):
            lines.append(line)
        elif in_list and lines and line and not line.startswith(("#", "<")):
            lines[-1] += "\n" + line  # a description over several lines
        elif in_list and lines:
            break
    entries: dict[str, str] = {}
    for line in lines:
        found = _ENTRY.match(line)
        if found is None:
            continue
        name, description, root, rest = found.groups()
        path = roots.get(root, root)
        if system_root is not None and path == system_root:
            continue
        key = name if name not in entries else _next_key(entries, name)
        entries[key] = f"- {name}: {description} (file: {path}/{rest})"
    return entries


def _next_key(entries: dict[str, str], name: str) -> str:
    number = 2
    while f"{name}#{number}" in entries:
        number += 1
    return f"{name}#{number}"


def skill_messages(body: dict[str, Any]) -> list[str]:
    """The `<skill>` user messages of a request (what `$name` mentions injected)."""
    return [text for text in input_messages(body, "user") if _SKILL_MESSAGE.match(text)]


def mention_outcome(result: StepResult, skill: str, home: Path) -> Outcome:
    """What `$skill args` gave the model: its `<skill>` message, or `not-found`."""
    if not result.requests:
        return Outcome("missing", f"codex exec exited {result.returncode} with no request: "
                       f"{result.stderr.strip()[-300:]}", exact=False)
    for text in skill_messages(result.requests[0]):
        found = _SKILL_MESSAGE.match(text)
        if found and found.group(1) == skill:
            return Outcome("rendered", homeless(text, home))
    return Outcome("not-found", "")


class CodexAdapter(NpmRuntime):
    """Codex CLI against the mock Responses API (`tests.oracle.runtimes.base.RuntimeAdapter`)."""

    name = "codex"
    target = "codex"
    version = VERSION
    package = PACKAGE
    layout = Layout(project_skills=".agents/skills", personal_skills=".agents/skills")
    modes: tuple[str, ...] = ("slash",)

    def find(self, folder: Path) -> Path | None:
        return binary_in(folder)

    def observe(self, project: Path, home: Path, cwd: Path,
                invocations: list[Invocation]) -> Observation:
        binary = self.executable()
        if binary is None:
            return Observation(None, {}, [f"Codex {self.version} is not installed in "
                                          f"{self.folder()}"])
        run_home = fresh_home(home)
        try:
            (run_home / ".codex").mkdir(exist_ok=True)
            env = base_environment(run_home, TERM="dumb", MOCK_API_KEY="dummy",
                                   CODEX_HOME=str(run_home / ".codex"))
            prompts = [mention(i) for i in invocations if i.mode == "slash"] or [LISTING_PROMPT]

            def steps(base_url: str) -> list[Step]:
                (run_home / ".codex" / "config.toml").write_text(config_toml(project, base_url))
                return [Step([str(binary), "exec", "--skip-git-repo-check", prompt], env,
                             str(cwd), timeout=RUN_TIMEOUT) for prompt in prompts]

            results, error = run_steps(ResponsesMock, steps)
            return self._read(invocations, results, error, run_home)
        finally:
            shutil.rmtree(run_home, ignore_errors=True)

    def _read(self, invocations: list[Invocation], results: list[StepResult], error: str | None,
              home: Path) -> Observation:
        notes = [error] if error else []
        for result in results:
            if result.returncode != 0:
                notes.append(f"codex exec exited {result.returncode}: "
                             f"{result.stderr.strip()[-300:]}")
        listing = None
        first = next((r for r in results if r.requests), None)
        if first is not None:
            system = str(home / ".codex" / "skills" / ".system")
            listing = {name: homeless(line, home)
                       for name, line in listing_entries(first.requests[0], system).items()}
        outcomes: dict[str, Outcome] = {}
        slash = iter(results)
        for number, invocation in enumerate(invocations):
            key = f"{invocation.mode}#{number}"
            if invocation.mode != "slash":
                outcomes[key] = Outcome("unsupported", "Codex has no skill tool", exact=False)
                continue
            result = next(slash, None)
            outcomes[key] = (mention_outcome(result, invocation.skill, home) if result
                             else Outcome("missing", error or "no run", exact=False))
        return Observation(listing, outcomes, notes)


ADAPTER = CodexAdapter()
