"""Codex CLI and OpenCode against wave-lsp's `codex` and `opencode` predictions, one test per case
and aspect (tests/oracle/README.md; the cases `tests/oracle/cases/cx-*`, `oc-*`). A runtime that
is not installed skips its tests, saying how to install it, or fails them under
`WAVE_LSP_REQUIRE_ORACLE=1`. A known disagreement that wave-lsp does not model is a strict xfail
on exactly its comparison, with the runtime behaviour as its reason.

Until the shared driver (`differential.py`, not merged yet) lands, `tests.oracle.runtimes._local`
drives the runs: every case of a runtime runs on the first test of that runtime, two runtime
processes at a time."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.oracle.runtimes import codex, opencode
from tests.oracle.runtimes._local import CaseRun, cases_for, disagreement, run_cases
from tests.oracle.runtimes._npm import installed_or_skip
from tests.oracle.runtimes.base import RuntimeAdapter

ADAPTERS: dict[str, RuntimeAdapter] = {"codex": codex.ADAPTER, "opencode": opencode.ADAPTER}

#: (runtime, case, aspect) → the disagreement wave-lsp deliberately does not model
KNOWN: dict[tuple[str, str, str], str] = {}


def _params() -> list[object]:
    params: list[object] = []
    for runtime, adapter in ADAPTERS.items():
        for case in cases_for(runtime):
            for aspect in case.aspects(adapter):
                reason = KNOWN.get((runtime, case.name, aspect))
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                params.append(pytest.param(runtime, case.name, aspect, marks=marks,
                                           id=f"{runtime}:{case.name}[{aspect}]"))
    return params


class Runs:
    """Every case of each runtime, run once per session."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="wave-lsp-cx-oc-")).resolve()
        self.done: dict[str, dict[str, CaseRun]] = {}

    def of(self, runtime: str) -> dict[str, CaseRun]:
        if runtime not in self.done:
            adapter = ADAPTERS[runtime]
            installed_or_skip(adapter.executable,
                              f"{runtime} {adapter.version} is not installed; run `python -c "
                              f"'from tests.oracle.runtimes import {runtime}; "
                              f"{runtime}.ADAPTER.install()'` (needs npm and the npm registry)")
            if runtime == "opencode" and shutil.which("rg") is None:
                installed_or_skip(lambda: None, "OpenCode needs ripgrep (`rg`) on PATH")
            self.done[runtime] = run_cases(adapter, cases_for(runtime), self.folder / runtime)
        return self.done[runtime]


@pytest.fixture(scope="module")
def runs() -> Iterator[Runs]:
    found = Runs()
    try:
        yield found
    finally:
        shutil.rmtree(found.folder, ignore_errors=True)


@pytest.mark.slow  # it runs the real Codex CLI and OpenCode: `--slow`, the second step of .ci/run
@pytest.mark.timeout(1800)
@pytest.mark.parametrize(("runtime", "case", "aspect"), _params())
def test_runtime_agrees(runs: Runs, runtime: str, case: str, aspect: str) -> None:
    problem = disagreement(runtime, aspect, runs.of(runtime)[case])
    assert problem is None, f"{runtime} {case} [{aspect}]: {problem}"


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("runtime", sorted(ADAPTERS))
def test_the_runs_saw_the_skills(runs: Runs, runtime: str) -> None:
    """The comparisons compare something: the runtime listed skills in most cases and rendered
    most invocations (a broken mock or a changed request shape would make both sides agree on
    nothing)."""
    done = runs.of(runtime)
    listed = [run for run in done.values() if run.observation.listing]
    outcomes = [o for run in done.values() for o in run.observation.outcomes.values()]
    assert len(listed) >= len(done) * 3 // 4, {n: r.observation.notes for n, r in done.items()}
    assert len([o for o in outcomes if o.kind == "rendered"]) >= len(outcomes) // 2


def test_known_disagreements_name_real_comparisons() -> None:
    """Every xfail mark names a runtime, a case and an aspect that exist."""
    for runtime, case, aspect in KNOWN:
        found = {c.name: c for c in cases_for(runtime)}
        assert case in found, (runtime, case)
        assert aspect in found[case].aspects(ADAPTERS[runtime]), (runtime, case, aspect)
