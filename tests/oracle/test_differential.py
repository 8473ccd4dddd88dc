"""Every shared case (tests/oracle/cases) run by every runtime adapter and compared, aspect by
aspect, with wave-lsp's prediction for the adapter's target (tests/oracle/differential.py,
README *Runtimes*). A runtime that is not installed is skipped with the reason (a failure with
`WAVE_LSP_REQUIRE_ORACLE=1`, as in `.ci/run`). A known disagreement is a strict xfail on exactly
its comparison, from the data tables `tests/oracle/known/<runtime>.toml`:

    [[known]]
    reason = "what the runtime does, and why wave-lsp does not model it (or: a wave-lsp bug)"
    aspects = ["case[aspect]", ...]
    strict = false   # only where the outcome depends on the machine (the reason says how)
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
import tomllib
import traceback
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.oracle.differential import (
    Prediction,
    adapters,
    cases,
    disagreement,
    gate_reason,
    parallel,
    predict,
)
from tests.oracle.runtimes.base import Invocation, Observation, RuntimeAdapter

ADAPTERS = adapters()
#: `WAVE_LSP_ORACLE_SUBSET=ci` (set by .ci/run): the shared cases of ci_subset.toml, plus every
#: runtime's own cases; unset, every case
SUBSET = os.environ.get("WAVE_LSP_ORACLE_SUBSET")


def _in_subset(name: str, only: str | None = SUBSET) -> bool:
    if only is None:
        return True
    chosen = tomllib.loads((Path(__file__).parent / f"{only}_subset.toml").read_text("utf-8"))
    shared = set(chosen["shared"])
    return name in shared or name.split("-", 1)[0] in ("cx", "oc", "gm", "cp")


CASES = {case.name: case for case in cases() if _in_subset(case.name)}
KNOWN_FOLDER = Path(__file__).parent / "known"


def known() -> dict[tuple[str, str, str], tuple[str, bool]]:
    """(runtime, case, aspect) → the reason of its xfail, and whether it is strict (an entry with
    `strict = false` is for an outcome that depends on the machine, its reason says how)."""
    found: dict[tuple[str, str, str], tuple[str, bool]] = {}
    for path in sorted(KNOWN_FOLDER.glob("*.toml")):
        for entry in tomllib.loads(path.read_text(encoding="utf-8")).get("known", []):
            for item in entry["aspects"]:
                case, aspect = item[:-1].split("[", 1)
                found[(path.stem, case, aspect)] = (str(entry["reason"]),
                                                    bool(entry.get("strict", True)))
    return found


KNOWN = known()


class Runs:
    """The observations and predictions of one session, made once per (runtime, case)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="wave-lsp-differential-")).resolve()
        self.pool = ThreadPoolExecutor(parallel())
        self.futures: dict[tuple[str, str], Future[tuple[Observation, Prediction]]] = {}
        self.lock = threading.Lock()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def submit(self, runtime: str, case: str) -> Future[tuple[Observation, Prediction]]:
        """The pair's result: wave-lsp's side made now, in this thread (it redirects the
        process's standard output, which pytest swaps between tests), the runtime's in the
        pool."""
        with self.lock:
            if (runtime, case) not in self.futures:
                adapter, found = ADAPTERS[runtime], CASES[case]
                into = self.folder / adapter.name / found.name
                project, home, cwd = found.build(into, adapter)
                invocations = found.invocations(adapter)
                predicted = predict(adapter.target, project, home, invocations, cwd)
                self.futures[(runtime, case)] = self.pool.submit(
                    _observe, adapter, project, home, cwd, invocations, predicted)
            return self.futures[(runtime, case)]


def _observe(adapter: RuntimeAdapter, project: Path, home: Path, cwd: Path,
             invocations: list[Invocation], predicted: Prediction,
             ) -> tuple[Observation, Prediction]:
    started = time.monotonic()
    try:
        seen = adapter.observe(project, home, cwd, invocations)
    except Exception as error:  # an adapter must not raise; say what happened if it does
        seen = Observation(None, {}, [f"observe raised {error!r}: {traceback.format_exc()}"])
    _log_time(adapter.name, project.parent.name, len(invocations), time.monotonic() - started)
    return seen, predicted


def _log_time(runtime: str, case: str, invocations: int, seconds: float) -> None:
    """`WAVE_LSP_ORACLE_TIMES=<file>`: one line per observation (runtime, case, invocations,
    seconds) appended to the file, for `benchmarks/oracle.py --times` (where the time goes)."""
    path = os.environ.get("WAVE_LSP_ORACLE_TIMES")
    if path:
        with open(path, "a", encoding="utf-8") as sink:
            sink.write(f"{runtime}\t{case}\t{invocations}\t{seconds:.2f}\n")


@pytest.fixture(scope="session")
def runs() -> Iterator[Runs]:
    found = Runs()
    try:
        yield found
    finally:
        found.close()


def _params() -> list[object]:
    params: list[object] = []
    for runtime, adapter in ADAPTERS.items():
        for case in CASES.values():
            if not case.applies_to(runtime):
                continue
            for aspect in case.aspects(adapter):
                mark = KNOWN.get((runtime, case.name, aspect))
                marks = [pytest.mark.xdist_group(runtime)]
                if mark:
                    marks.append(pytest.mark.xfail(strict=mark[1], reason=mark[0]))
                params.append(pytest.param(runtime, case.name, aspect, marks=marks,
                                           id=f"{runtime}/{case.name}[{aspect}]"))
    return params


def _prefetch(runs: Runs, request: pytest.FixtureRequest, runtime: str) -> None:
    """Start every (runtime, case) the session collected, `parallel()` at a time. Under xdist
    only `runtime`'s: each runtime's tests are one `xdist_group`, all on this worker
    (tests/conftest.py makes `-n N` distribute by group), while every worker collects every
    test."""
    worker = bool(os.environ.get("PYTEST_XDIST_WORKER"))
    for item in request.session.items:
        params = getattr(item, "callspec", None)
        if params is None or not {"runtime", "case"} <= set(params.params):
            continue
        name = params.params["runtime"]
        if name in ADAPTERS and (not worker or name == runtime) \
                and gate_reason(ADAPTERS[name]) is None:
            runs.submit(name, params.params["case"])


def _gate(adapter: RuntimeAdapter) -> None:
    """Skip (fail with `WAVE_LSP_REQUIRE_ORACLE=1`) when the runtime is not installed; skip
    anyway when the checkout cannot have it (`unavailable_here`: Wave without ../shared)."""
    here = getattr(adapter, "unavailable_here", None)
    why = here() if callable(here) else None
    if why:
        pytest.skip(why)
    reason = gate_reason(adapter)
    if reason is None:
        return
    if os.environ.get("WAVE_LSP_REQUIRE_ORACLE") == "1":
        pytest.fail(f"WAVE_LSP_REQUIRE_ORACLE=1 but {reason}")
    pytest.skip(reason)


@pytest.mark.slow  # it runs the real runtimes: `--slow`, the second step of .ci/run
@pytest.mark.timeout(3600)
@pytest.mark.parametrize(("runtime", "case", "aspect"), _params())
def test_runtime_agrees(runs: Runs, request: pytest.FixtureRequest, runtime: str, case: str,
                        aspect: str) -> None:
    _gate(ADAPTERS[runtime])
    _prefetch(runs, request, runtime)
    seen, predicted = runs.submit(runtime, case).result()
    problem = disagreement(runtime, case, aspect, seen, predicted)
    assert problem is None, problem


def test_known_disagreements_name_real_comparisons() -> None:
    """Every xfail names a runtime, a case and an aspect that exist (a typo would mark nothing);
    a runtime whose adapter is not merged yet is left out."""
    for runtime, case, aspect in KNOWN:
        if runtime not in ADAPTERS:
            continue
        assert case in CASES, (runtime, case)
        assert aspect in CASES[case].aspects(ADAPTERS[runtime]), (runtime, case, aspect)


def test_each_case_tests_one_invocable_tree() -> None:
    """Every case has skills, an `about`, and invocations (if any: a case may test only the
    listing) in modes some runtime supports."""
    assert len(CASES) >= 10
    for case in CASES.values():
        assert (case.folder / "skills").is_dir(), case.name
        assert case.about.strip(), case.name
        for invoke in case.invokes:
            assert set(invoke.modes) <= {"slash", "tool"}, (case.name, invoke)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("runtime", [pytest.param(name, marks=pytest.mark.xdist_group(name))
                                     for name in sorted(ADAPTERS)])
def test_the_runs_saw_the_skills(runs: Runs, runtime: str) -> None:
    """The comparisons compare something: the runtime listed the skills of most cases and
    rendered most invocations (a broken mock or a changed request shape would otherwise make
    both sides agree on nothing)."""
    adapter = ADAPTERS[runtime]
    _gate(adapter)
    chosen = [case for case in CASES.values() if case.applies_to(runtime)]
    observed = [runs.submit(runtime, case.name).result()[0] for case in chosen]
    with_listing = [seen for seen in observed if seen.listing]
    outcomes = [outcome for seen in observed for outcome in seen.outcomes.values()]
    assert len(with_listing) >= len(chosen) * 3 // 4, [seen.notes for seen in observed]
    assert sum(outcome.kind == "rendered" for outcome in outcomes) >= len(outcomes) // 2
