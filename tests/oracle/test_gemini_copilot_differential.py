"""Gemini CLI 0.61.0 and Copilot CLI 1.0.102 against wave-lsp's `gemini-cli` and `copilot-cli`
predictions, one test per case and aspect (tests/oracle/README.md, docs/design/runtime-facts.md
§11), through the local runner (`tests/oracle/runtimes/local_runner.py`) until the shared driver
is merged. Each runtime runs every case once (two processes at a time, about a minute for Gemini
CLI and two for Copilot CLI); the tests are marked slow, skip with the reason when a runtime (or
the network namespace) is not available, and fail instead when `WAVE_LSP_REQUIRE_ORACLE=1`.

A known disagreement is a strict xfail on exactly its comparison, with the runtime behaviour as its
reason, so that fixing it turns the run red until the mark goes.
"""

from __future__ import annotations

import os
from functools import cache

import pytest

from tests.oracle.runtimes._netns import LoopbackNamespace, NamespaceUnavailable
from tests.oracle.runtimes.local_runner import Case, CaseRun, adapter_named, cases, run_case

RUNTIMES = ("gemini-cli", "copilot-cli")
CASES = {case.name: case for case in cases()}

#: (runtime, case, aspect) -> why the runtime and wave-lsp disagree
KNOWN: dict[tuple[str, str, str], str] = {}


def _aspects(case: Case) -> list[str]:
    return ["listed", "listing-text",
            *(f"{invocation.mode}#{index}" for index, invocation in enumerate(case.invocations))]


def _params() -> list[object]:
    found = []
    for runtime in RUNTIMES:
        for case in CASES.values():
            if case.runtimes is not None and runtime not in case.runtimes:
                continue
            for aspect in _aspects(case):
                reason = KNOWN.get((runtime, case.name, aspect))
                marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
                found.append(pytest.param(runtime, case.name, aspect, marks=marks,
                                          id=f"{runtime}:{case.name}:{aspect}"))
    return found


def _unavailable(reason: str) -> None:
    if os.environ.get("WAVE_LSP_REQUIRE_ORACLE") == "1":
        pytest.fail(f"WAVE_LSP_REQUIRE_ORACLE=1 but {reason}")
    pytest.skip(reason)


@cache
def _namespace_problem() -> str | None:
    try:
        with LoopbackNamespace():
            return None
    except NamespaceUnavailable as error:
        return f"no loopback-only network namespace here: {error}"


@cache
def _run(runtime: str, case_name: str) -> CaseRun:
    return run_case(CASES[case_name], adapter_named(runtime))


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize(("runtime", "case_name", "aspect"), _params())
def test_the_runtime_agrees(runtime: str, case_name: str, aspect: str) -> None:
    adapter = adapter_named(runtime)
    if adapter.executable() is None:
        _unavailable(f"{runtime} {adapter.version} is not installed; run "
                     f"`python -c 'from tests.oracle.runtimes.local_runner import adapter_named; "
                     f"adapter_named(\"{runtime}\").install()'` (needs npm and the registry)")
    problem = _namespace_problem()
    if problem is not None:
        _unavailable(problem)
    result = _run(runtime, case_name)
    comparison = result.comparisons.get(aspect)
    if comparison is None:
        pytest.fail(f"{aspect} was not observed: {result.observation.notes}")
    assert comparison.agrees, comparison.describe()
