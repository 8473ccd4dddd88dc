"""Every probe compared aspect by aspect with the real Claude Code (tests/oracle/README.md,
docs/design/runtime-facts.md §3). A known disagreement that is not this harness's to fix is
marked on exactly its comparison with a strict xfail, so that fixing it turns the run red until
the mark is removed."""

from __future__ import annotations

import pytest

from tests.oracle.oracle import Oracle, disagreement
from tests.oracle.probes import CORPUS, Probe, real_probes, repository_probes

PROBES = repository_probes() + real_probes()
BY_NAME = {probe.name: probe for probe in PROBES}

#: (probe, aspect) → the disagreement, precisely; each is a strict xfail
KNOWN: dict[tuple[str, str], str] = {}


def _cases() -> list[object]:
    cases: list[object] = []
    for probe in PROBES:
        for aspect in probe.aspects():
            reason = KNOWN.get((probe.name, aspect))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            cases.append(pytest.param(probe.name, aspect, marks=marks,
                                      id=f"{probe.name}[{aspect}]"))
    return cases


def _selected(request: pytest.FixtureRequest) -> list[Probe]:
    """The probes of every oracle test this session collected (they run together, two Claude
    Code processes at a time)."""
    names = {item.callspec.params["probe"] for item in request.session.items
             if hasattr(item, "callspec") and "probe" in item.callspec.params}
    return [BY_NAME[name] for name in sorted(names) if name in BY_NAME]


#: the first of these tests runs every probe the session collected: a few minutes on two cores,
#: several times that on a busy machine
@pytest.mark.timeout(3600)
@pytest.mark.parametrize(("probe", "aspect"), _cases())
def test_claude_code_agrees(oracle: Oracle, request: pytest.FixtureRequest, probe: str,
                            aspect: str) -> None:
    oracle.run(_selected(request))
    found = BY_NAME[probe]
    problem = disagreement(found, aspect, oracle.claude[probe], oracle.wave[probe])
    assert problem is None, problem


def test_known_disagreements_name_real_comparisons() -> None:
    """Every xfail mark names a probe and an aspect that exist (a typo would mark nothing)."""
    for probe, aspect in KNOWN:
        if probe.startswith("real/") and not CORPUS.is_dir():
            continue
        assert probe in BY_NAME, probe
        assert aspect in BY_NAME[probe].aspects(), (probe, aspect)


def test_real_sample() -> None:
    """The sample of real skills is there, and is 30 skills, when ../shared is."""
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is absent (a plain clone has no ../shared)")
    sample = real_probes()
    assert len(sample) == 30
    assert len({probe.name for probe in sample}) == 30
