"""Running the probes on both sides and comparing (tests/oracle/README.md).

`Oracle.run` builds each probe's tree, runs Claude Code on it (two processes at a time, one mock
server for all) and wave-lsp beside it; `disagreement` compares one aspect of a probe and says
precisely how the two differ (None when they agree). Paths under a run's temporary HOME are written
`~` on both sides, so that Claude Code's fresh HOME and wave-lsp's template compare equal.
"""

from __future__ import annotations

import shutil
import tempfile
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.oracle.claude import (
    Entry,
    Observed,
    Outcome,
    listing_entries,
    run_claude,
    slash_outcome,
    tool_outcomes,
)
from tests.oracle.mock_api import MockApi, tool_use_id
from tests.oracle.predict import listed, wave_outcome, wave_rows
from tests.oracle.probes import Probe
from tests.oracle.runtimes.common import homeless

#: Claude Code processes at a time (the CI machine has two cores)
PARALLEL = 2
#: what the tool-mode run asks (the mock answers it with the Skill-tool calls)
TOOL_PROMPT = "Use the skills."


@dataclass
class ClaudeSide:
    """What Claude Code did with a probe."""

    entries: dict[str, Entry]  #: the probe's listing entries (bundled skills left out)
    outcomes: dict[str, Outcome]  #: by aspect (`slash#0`, `tool#0`, …)
    notes: list[str] = field(default_factory=list)


@dataclass
class WaveSide:
    """What wave-lsp says about the same tree."""

    rows: list[dict[str, Any]]
    outcomes: dict[str, Outcome]


@dataclass
class Built:
    probe: Probe
    project: Path
    home: Path


def slash_prompt(skill: str, args: str | None) -> str:
    return f"/{skill} {args}" if args else f"/{skill}"


class Oracle:
    """One mock server and one scratch folder for a whole test session."""

    def __init__(self, binary: Path, api: MockApi,
                 wrap: Callable[[list[str]], list[str]] = list) -> None:
        self.binary, self.api, self.wrap = binary, api, wrap
        self.folder = Path(tempfile.mkdtemp(prefix="wave-lsp-oracle-")).resolve()
        self.built: dict[str, Built] = {}
        self.claude: dict[str, ClaudeSide] = {}
        self.wave: dict[str, WaveSide] = {}
        self.bundled: dict[str, str] = {}
        #: every Claude Code run of each probe (for `tests.oracle.show`)
        self.observed: dict[str, list[Observed]] = {}

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def build(self, probe: Probe) -> Built:
        if probe.name not in self.built:
            into = self.folder / f"p{len(self.built):03d}"
            project, home = probe.build(into)
            self.built[probe.name] = Built(probe, project, home)
        return self.built[probe.name]

    def run(self, probes: list[Probe]) -> None:
        """Both sides of every probe not run yet."""
        todo = [probe for probe in probes if probe.name not in self.claude]
        if not todo:
            return
        with ThreadPoolExecutor(PARALLEL) as pool:
            baseline = None
            if not self.bundled:
                empty = Path(tempfile.mkdtemp(dir=self.folder)).resolve()
                baseline = pool.submit(run_claude, self.binary, self.api, empty, None,
                                       TOOL_PROMPT, wrap=self.wrap)
            submitted = [(self.build(probe), self._submit(pool, self.build(probe)))
                         for probe in todo]
            for built, _ in submitted:
                self.wave[built.probe.name] = predict(built)
            if baseline is not None:
                requests = baseline.result().requests
                self.bundled = ({entry.name: entry.line
                                 for entry in listing_entries(requests[0])} if requests else {})
            for built, futures in submitted:
                try:
                    self.claude[built.probe.name] = self._read(built, futures)
                except Exception as error:  # one broken probe must not stop the others
                    self.claude[built.probe.name] = ClaudeSide(
                        {}, {}, [f"reading its runs failed: {error!r}\n"
                                 + traceback.format_exc()])

    def _submit(self, pool: ThreadPoolExecutor, built: Built) -> dict[str, Future[Observed]]:
        """One run per invocation and mode (the results of several Skill-tool calls in one turn
        cannot be told apart)."""
        probe, plugins = built.probe, self._plugins(built)
        futures: dict[str, Future[Observed]] = {}
        for number, invoke in enumerate(probe.invocations):
            for mode in invoke.modes:
                if mode == "tool":
                    futures[f"tool#{number}"] = pool.submit(
                        run_claude, self.binary, self.api, built.project, built.home,
                        TOOL_PROMPT, skill_calls=[(invoke.skill, invoke.args)],
                        plugin_dirs=plugins, wrap=self.wrap)
                else:
                    futures[f"slash#{number}"] = pool.submit(
                        run_claude, self.binary, self.api, built.project, built.home,
                        slash_prompt(invoke.skill, invoke.args), plugin_dirs=plugins, wrap=self.wrap)
        return futures

    @staticmethod
    def _plugins(built: Built) -> list[Path]:
        """The probe's `--plugin-dir` folders (relative to the project's root, not the working
        directory)."""
        probe = built.probe
        root = built.project.parents[len(Path(probe.cwd).parts) - 1] if probe.cwd \
            else built.project
        return [root / folder for folder in probe.plugin_dirs]

    def _listing_run(self, built: Built, runs: list[Observed]) -> Observed:
        """A run whose first request shows the listing: any run that sent one (every request
        of a session starts with the listing), else a plain prompt run now."""
        for observed in runs:
            if observed.requests:
                return observed
        extra = run_claude(self.binary, self.api, built.project, built.home, TOOL_PROMPT,
                           plugin_dirs=self._plugins(built), wrap=self.wrap)
        runs.append(extra)
        return extra

    def _read(self, built: Built, futures: dict[str, Future[Observed]]) -> ClaudeSide:
        self.observed[built.probe.name] = [future.result() for future in futures.values()]
        listing_run = self._listing_run(built, self.observed[built.probe.name])
        notes = []
        for observed in self.observed[built.probe.name]:
            if observed.returncode != 0:
                notes.append(f"`claude -p {observed.prompt}` exited {observed.returncode}: "
                             f"{observed.stderr.strip()[:300]}")
        entries = {}
        if listing_run.requests:
            for entry in listing_entries(listing_run.requests[0]):
                if self.bundled.get(entry.name) != entry.line:
                    entry.line = homeless(entry.line, listing_run.home)
                    entries[entry.name] = entry
        else:
            notes.append("the listing run sent no request: " + listing_run.stdout.strip()[:300])
        outcomes: dict[str, Outcome] = {}
        for aspect, future in futures.items():
            observed = future.result()
            if aspect.startswith("slash#"):
                found = slash_outcome(observed)
            elif aspect.startswith("tool#"):
                found = tool_outcomes(observed).get(tool_use_id(1),
                                                    Outcome("missing", "no tool result"))
            else:
                continue
            outcomes[aspect] = Outcome(found.kind, homeless(found.text, observed.home),
                                       found.exact)
        return ClaudeSide(entries, outcomes, notes)


def predict(built: Built) -> WaveSide:
    """wave-lsp's side of a probe."""
    rows = wave_rows(built.project, built.home)
    outcomes = {}
    for number, invoke in enumerate(built.probe.invocations):
        for mode in invoke.modes:
            found = wave_outcome(rows, invoke.skill, invoke.args, mode, built.project, built.home)
            outcomes[f"{mode}#{number}"] = Outcome(found.kind, homeless(found.text, built.home),
                                                   found.exact)
    for row in rows:
        if isinstance(row.get("listingLine"), str):
            row["listingLine"] = homeless(row["listingLine"], built.home)
    return WaveSide(rows, outcomes)


def disagreement(probe: Probe, aspect: str, claude: ClaudeSide, wave: WaveSide) -> str | None:
    """How Claude Code and wave-lsp differ on one aspect of a probe (None: they agree)."""
    prefix = f"{probe.name} [{aspect}]"
    if claude.notes and (aspect == "listed" or aspect not in claude.outcomes):
        return f"{prefix}: " + "; ".join(claude.notes)
    expected = listed(wave.rows)
    if aspect == "listed":
        theirs, ours = sorted(claude.entries), sorted(expected)
        if theirs != ours:
            return (f"{prefix}: Claude Code lists {theirs}, wave-lsp `list` says {ours}")
        return None
    if aspect == "listing-text":
        problems = []
        for name in sorted(set(claude.entries) & set(expected)):
            line, row = claude.entries[name].line, expected[name]
            if isinstance(row.get("listingLine"), str):
                if row["listingLine"] != line:
                    problems.append(f"{name}: Claude Code {line!r}, wave-lsp {row['listingLine']!r}")
            elif row["listingChars"] != len(line):
                problems.append(f"{name}: Claude Code {line!r} ({len(line)} characters), "
                                f"wave-lsp listingChars {row['listingChars']}")
        return f"{prefix}: " + "; ".join(problems) if problems else None
    theirs_outcome, ours_outcome = claude.outcomes[aspect], wave.outcomes[aspect]
    if theirs_outcome.kind != ours_outcome.kind:
        return (f"{prefix}: Claude Code {theirs_outcome.describe()}, "
                f"wave-lsp {ours_outcome.describe()}")
    if theirs_outcome.kind == "unknown" or not ours_outcome.exact:
        return None  # the decision agrees, and wave-lsp gives no text to compare
    if theirs_outcome.text != ours_outcome.text:
        return (f"{prefix}: Claude Code {theirs_outcome.describe()}, "
                f"wave-lsp {ours_outcome.describe()}")
    return None
