"""Claude Code as a runtime adapter of the generic differential driver (tests/oracle/README.md).

A thin wrapper over the Claude Code harness (`tests/oracle/claude.py`, `install.py`,
`mock_api.py`): the same pinned version, install and request readers, run on the shared cases
of `tests/oracle/cases/` inside the network namespace (tests/oracle/netns.py) with the Anthropic
mock made inside it. The listing leaves out Claude Code's bundled skills (the entries of a run in
an empty project, made once). Claude Code's own probes stay in `tests/oracle/test_oracle.py`.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from tests.oracle.claude import (
    Observed,
    listing_entries,
    run_claude,
    slash_outcome,
    tool_outcomes,
)
from tests.oracle.install import CLAUDE_CODE_VERSION, Unavailable, find_claude
from tests.oracle.install import install as install_claude
from tests.oracle.mock_api import MockApi, tool_use_id
from tests.oracle.netns import isolation
from tests.oracle.runtimes.base import Invocation, Layout, Observation, Outcome

TOOL_PROMPT = "Use the skills."
Wrap = Callable[[list[str]], list[str]]
#: Claude Code's "unknown" (a `/name` it sends on as a prompt, `Unknown skill: …`)
_KINDS = {"unknown": "not-found"}


class ClaudeCode:
    name = "claude-code"
    target = "claude-code"
    version = CLAUDE_CODE_VERSION
    layout = Layout(project_skills=".claude/skills", personal_skills=".claude/skills")
    modes = ("slash", "tool")

    def __init__(self, version: str = CLAUDE_CODE_VERSION) -> None:
        self.version = version  #: the pinned one, or a new release (benchmarks/oracle.py)
        self._binary: Path | None = None
        self._bundled: dict[str, str] | None = None
        self._lock = threading.Lock()

    def executable(self) -> Path | None:
        if self._binary is None:
            try:
                self._binary = find_claude(self.version)
            except Unavailable:
                return None
        return self._binary

    def install(self) -> Path:
        self._binary = install_claude(self.version)
        return self._binary

    def observe(self, project: Path, home: Path, cwd: Path,
                invocations: list[Invocation]) -> Observation:
        binary = self.executable()
        if binary is None:
            return Observation(None, {}, [f"Claude Code {self.version} is not installed"])
        network = isolation()
        notes = [] if network.isolated else [network.reason]
        try:
            with network.call(MockApi) as api:
                bundled = self._bundled_entries(binary, api, network.wrap)
                return self._observe(binary, api, network.wrap, cwd, home, invocations,
                                     bundled, notes)
        finally:
            network.close()

    def _bundled_entries(self, binary: Path, api: MockApi, wrap: Wrap) -> dict[str, str]:
        with self._lock:
            if self._bundled is None:
                empty = Path(tempfile.mkdtemp(prefix="wave-lsp-oracle-empty-")).resolve()
                seen = run_claude(binary, api, empty, None, TOOL_PROMPT, wrap=wrap)
                self._bundled = ({entry.name: entry.line for entry in
                                  listing_entries(seen.requests[0])} if seen.requests else {})
            return self._bundled

    @staticmethod
    def _observe(binary: Path, api: MockApi, wrap: Wrap, cwd: Path, home: Path,
                 invocations: list[Invocation], bundled: dict[str, str],
                 notes: list[str]) -> Observation:
        outcomes: dict[str, Outcome] = {}
        runs: list[Observed] = []
        for number, invocation in enumerate(invocations):
            if invocation.mode == "tool":
                seen = run_claude(binary, api, cwd, home, TOOL_PROMPT,
                                  skill_calls=[(invocation.skill, invocation.args)],
                                  wrap=wrap)
                found = tool_outcomes(seen).get(tool_use_id(1))
                outcome = Outcome("missing", "no tool result") if found is None \
                    else Outcome(_KINDS.get(found.kind, found.kind), found.text)
            else:
                prompt = f"/{invocation.skill} {invocation.args}" if invocation.args \
                    else f"/{invocation.skill}"
                seen = run_claude(binary, api, cwd, home, prompt, wrap=wrap)
                found = slash_outcome(seen)
                outcome = Outcome(_KINDS.get(found.kind, found.kind), found.text)
            runs.append(seen)
            if seen.returncode != 0:
                notes.append(f"`claude -p {seen.prompt}` exited {seen.returncode}: "
                             f"{seen.stderr.strip()[:300]}")
            outcomes[f"{invocation.mode}#{number}"] = Outcome(
                outcome.kind, outcome.text.replace(str(seen.home), "~"), outcome.exact)
        listing_run = next((seen for seen in runs if seen.requests), None)
        if listing_run is None:
            listing_run = run_claude(binary, api, cwd, home, TOOL_PROMPT, wrap=wrap)
        listing = None
        if listing_run.requests:
            listing = {entry.name: entry.line.replace(str(listing_run.home), "~")
                       for entry in listing_entries(listing_run.requests[0])
                       if bundled.get(entry.name) != entry.line}
        return Observation(listing, outcomes, notes)


ADAPTER = ClaudeCode()
