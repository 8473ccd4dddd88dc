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

#: the disagreements with Claude Code 2.1.332 that remain, each on exactly the comparisons it
#: breaks; each is a strict xfail, so that fixing one turns the run red until its mark goes
_REMAINING: list[tuple[str, list[tuple[str, str]]]] = [
    ("Claude Code in print mode refuses the model's Skill-tool call of a skill with a non-empty "
     "`allowed-tools`: 'Execute skill: <name>. The user can add the allow rule Skill(<name>) to "
     ".claude/settings.local.json to let it run without asking.' (the call needs permission, "
     "runtime-facts §3.9, and -p cannot ask); wave-lsp has no Skill-tool prediction and renders "
     "the skill (or gives the injection's refusal)",
     [("inv-allowed-tools", "tool#0"), ("inj-deny-beats-allowed-tools", "tool#0"),
      ("inj-expansion-allowed-tools", "tool#0"),
      ("real/Git-Fg__thecattoolkit/auditing-plugins", "tool#0"),
      ("real/terrylica__cc-skills/research", "tool#0")]),
]
#: (probe, aspect) → the disagreement, precisely
KNOWN: dict[tuple[str, str], str] = {case: reason for reason, cases in _REMAINING
                                     for case in cases}


#: Claude Code's probes are run in this many xdist groups (`-n N`: on as many workers), each
#: a share of the probes by name; the first test of a share runs all of that share's probes
#: (282 `claude -p` runs in all were the longest job of `.ci/run`'s slow step on one worker)
SHARES = 2
SHARE_OF = {probe.name: number % SHARES
            for number, probe in enumerate(sorted(PROBES, key=lambda probe: probe.name))}


def _group(share: int) -> str:
    return f"claude-code-probes-{share}"


def _cases() -> list[object]:
    cases: list[object] = []
    for probe in PROBES:
        for aspect in probe.aspects():
            reason = KNOWN.get((probe.name, aspect))
            # one xdist group per share: its first test runs the share's probes (tests/conftest.py)
            marks = [pytest.mark.xdist_group(_group(SHARE_OF[probe.name]))]
            if reason:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            cases.append(pytest.param(probe.name, aspect, marks=marks,
                                      id=f"{probe.name}[{aspect}]"))
    return cases


def _selected(request: pytest.FixtureRequest, share: int | None = None) -> list[Probe]:
    """The probes of every oracle test this session collected, of one share (None: all); they
    run together, two Claude Code processes at a time."""
    names = {item.callspec.params["probe"] for item in request.session.items
             if hasattr(item, "callspec") and "probe" in item.callspec.params}
    return [BY_NAME[name] for name in sorted(names)
            if name in BY_NAME and (share is None or SHARE_OF[name] == share)]


#: the first of these tests runs every probe the session collected: a few minutes on two cores,
#: several times that on a busy machine
@pytest.mark.slow  # it runs the real Claude Code: `--slow`, the second step of .ci/run
@pytest.mark.timeout(3600)
@pytest.mark.parametrize(("probe", "aspect"), _cases())
def test_claude_code_agrees(oracle: Oracle, request: pytest.FixtureRequest, probe: str,
                            aspect: str) -> None:
    oracle.run(_selected(request, SHARE_OF[probe]))
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


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("share", [pytest.param(share, marks=pytest.mark.xdist_group(_group(share)))
                                   for share in range(SHARES)])
def test_the_runs_saw_the_skills(oracle: Oracle, request: pytest.FixtureRequest,
                                 share: int) -> None:
    """The comparisons compare something: Claude Code listed the skills of most probes of each
    share, and rendered most invocations with their base-directory line (a broken mock or a
    changed request shape would otherwise make both sides agree on nothing)."""
    probes = _selected(request, share) or [probe for probe in PROBES
                                           if SHARE_OF[probe.name] == share]
    oracle.run(probes)
    listed = [probe for probe in probes if oracle.claude[probe.name].entries]
    outcomes = [outcome for probe in probes
                for outcome in oracle.claude[probe.name].outcomes.values()]
    rendered = [o for o in outcomes if o.kind == "rendered"]
    assert len(listed) >= len(probes) * 3 // 4
    assert len(rendered) >= len(outcomes) // 2
    # a legacy command (`.claude/commands`, probes disc-legacy-*) renders without that line
    skills = [outcome for probe in probes if not probe.name.startswith("disc-legacy")
              for outcome in oracle.claude[probe.name].outcomes.values()
              if outcome.kind == "rendered"]
    assert all(o.text.startswith("Base directory for this skill: ") for o in skills), [
        o.text[:80] for o in skills if not o.text.startswith("Base directory for this skill: ")]
