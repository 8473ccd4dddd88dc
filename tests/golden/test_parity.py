"""Every rule under every target (issue 36 item 2, *Done when*): the one-rule cases of `cases/`,
each placed where the target's runtime finds it (`parity.py`), give

- a reviewed snapshot per rule, `targets/SKxxx.json`, with a section per target (the load verdict
  as `check --format json` shows it, and every finding): a changed runtime sentence is a diff
  (`pytest tests/golden --update-golden` rewrites them);
- `stoppedBy` is an error finding of a rule that stops loading under the target, and no such
  error leaves the skill loaded;
- three consistency checks per case and target, on the same run:
    - `loads`: no message says the target's runtime does not load the skill (rejects, skips,
      drops, cannot load, never finds it) while `loads` is true, nor that it loads it while it is
      false; under an aggregate, each of its runtimes against `droppedBy` (`consequences.py`);
    - `severity`: each finding's level is the catalog column for the target capped by the
      finding's confidence, unless the rule gave that instance its own level (`Finding.level`,
      docs/design/rules.md *How the engine applies severities*);
    - `names`: no message names another runtime than the target's own as the one that does
      something without comparing it with the target (naming the target's runtime too).

Known false messages are strict xfails in `KNOWN_FALSE`, each with the false sentence: when the
message is fixed the xfail passes, which fails the run, and its line is deleted.
"""

from __future__ import annotations

import json
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.golden import consequences
from tests.golden.parity import SNAPSHOTS, check_placed, record
from tests.golden.test_golden import _case_codes
from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.checker import STOPS_AT_ANY_LEVEL, FileReport
from wave_lsp.core.checking.loading import stopping_codes
from wave_lsp.core.facts.profiles import PROFILES, TARGETS, RuntimeProfile

CODES = _case_codes()

#: (check, code, target) -> the false sentence of today's message (issue 36: the wording tables
#: of `core/rules` are being replaced by facts). Delete a line when its test passes (strict: an
#: XPASS fails the run). `loads`: the sentence contradicts the verdict shown after it; `names`: the
#: sentence says what another runtime does, and nothing of the target's.
KNOWN_FALSE: dict[tuple[str, str, str], str] = {
}


@dataclass(frozen=True)
class Run:
    report: FileReport
    profile: RuntimeProfile  #: the profile the file was checked with (`parity.Placed`)
    found: bool
    section: dict[str, Any]


@cache
def runs(code: str) -> dict[str, Run]:
    """Case `code` checked under every target, once per test session."""
    result = {}
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as monkeypatch:
        for target in TARGETS:
            tmp = Path(folder) / target
            tmp.mkdir()
            placed = check_placed(code, target, tmp, monkeypatch)
            result[target] = Run(placed.report, placed.profile, placed.found,
                                 record(placed.report, placed.shown))
    return result


def _params(check: str) -> list[Any]:
    params = []
    for code in CODES:
        for target in TARGETS:
            reason = KNOWN_FALSE.get((check, code, target))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(code, target, marks=marks, id=f"{code}-{target}"))
    return params


def snapshot_text(code: str) -> str:
    sections = {target: run.section for target, run in runs(code).items()}
    return json.dumps(sections, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("code", CODES)
def test_snapshot_under_every_target(code: str, update_golden: bool) -> None:
    path = SNAPSHOTS / f"{code}.json"
    text = snapshot_text(code)
    if update_golden:
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, "utf-8")
        return
    assert path.exists(), f"{path} is missing: run pytest tests/golden --update-golden"
    assert path.read_text("utf-8") == text, (
        f"findings of {code} under some target changed; review the diff and run "
        "pytest tests/golden --update-golden")


def test_no_snapshot_without_a_case() -> None:
    stale = sorted(p.stem for p in SNAPSHOTS.glob("*.json")) if SNAPSHOTS.is_dir() else []
    assert sorted(set(stale) - set(CODES)) == []


def test_the_snapshots_have_a_section_per_target() -> None:
    for path in sorted(SNAPSHOTS.glob("*.json")):
        assert list(json.loads(path.read_text("utf-8"))) == list(TARGETS), path.name


@pytest.mark.parametrize(("code", "target"), _params("loads"))
def test_loads_agrees_with_every_message(code: str, target: str) -> None:
    run = runs(code)[target]
    verdict = run.report.verdict
    assert verdict is not None
    dropped = frozenset(p.name for p in PROFILES.values() if p.runtime in verdict.dropped_by)
    wrong = [f"{f['code']}: {problem}" for f in run.section["findings"]
             for problem in consequences.contradictions(f["message"], run.profile,
                                                        verdict.loads, dropped)]
    assert wrong == [], f"loads={verdict.loads} stoppedBy={run.section['stoppedBy']}: {wrong}"


#: findings that stop loading at any level: the target does not find the file (SK002), another
#: skill of the name wins (SK130), the runtime skips a git-ignored skills root (SK133)
#: (`checker._check_and_decide`)
STOP_AT_ANY_LEVEL = STOPS_AT_ANY_LEVEL


@pytest.mark.parametrize("code", CODES)
def test_the_verdict_is_the_findings(code: str) -> None:
    """`stoppedBy` is an error finding of the file, of a rule that stops loading under the
    target; and no such error leaves the skill loaded."""
    wrong = []
    for target, run in runs(code).items():
        verdict, findings = run.report.verdict, run.report.findings
        assert verdict is not None
        stopping = stopping_codes(run.profile)
        if verdict.loads:
            wrong += [f"{target}: loads, but {f.code} is an error that stops loading"
                      for f in findings if f.code in stopping and f.severity == Severity.ERROR]
            continue
        stopped = verdict.stopped_by
        if stopped is None or not any(f.code == stopped.code for f in findings):
            wrong.append(f"{target}: does not load, and no finding of the file says why")
        elif stopped.code not in STOP_AT_ANY_LEVEL and stopped.severity != Severity.ERROR:
            wrong.append(f"{target}: stopped by {stopped.code}, a {stopped.severity.label}")
    assert wrong == []


@pytest.mark.parametrize(("code", "target"), _params("severity"))
def test_severity_is_the_catalog_column(code: str, target: str) -> None:
    run = runs(code)[target]
    profile = run.profile
    wrong = []
    for finding in run.report.findings:
        column = rule(finding.code).severity(profile)
        if column is None:
            wrong.append(f"{finding.code} is reported, but the catalog says `-` for {target}")
            continue
        if finding.level is not None:
            continue  # an instance level the rule gives (docs/design/rules.md)
        expected = finding.certainty.cap(column)
        if finding.severity != expected:
            wrong.append(f"{finding.code} is {finding.severity.label}, the catalog "
                         f"{expected.label}: {finding.message}")
    assert wrong == []


@pytest.mark.parametrize(("code", "target"), _params("names"))
def test_messages_name_only_the_targets_runtime(code: str, target: str) -> None:
    run = runs(code)[target]
    profile = run.profile
    wrong = [(f["code"], sorted(others), f["message"]) for f in run.section["findings"]
             if (others := consequences.foreign_runtimes(f["message"], profile))]
    assert wrong == []


#: cases placed where a target does not find them, on purpose: SK002 is the finding of a file its
#: target does not find
NOT_FOUND_ON_PURPOSE = frozenset({"SK002"})


@pytest.mark.parametrize("code", CODES)
def test_every_target_speaks_of_the_case(code: str) -> None:
    """Each case lies where each target's runtime finds it, so each target's rules apply."""
    missed = [target for target, run in runs(code).items() if not run.found]
    assert missed == [] or code in NOT_FOUND_ON_PURPOSE, missed


# -- pairs whose rule cannot fire (`silent.toml`) ------------------------------------------------
SILENT_FILE = Path(__file__).with_name("silent.toml")


def _reads_no_field_typed_by(code: str, profile: RuntimeProfile) -> bool:
    """No field the target reads has `code` as its schema type rule, and the target is no
    aggregate (SK027's YAML 1.1 readings are reported under an aggregate only)."""
    typed = [name for name in schema.fields() if (spec := schema.field_spec(name)) is not None
             and spec.rule_for("type") == code and spec.read_by(profile)]
    return typed == [] and profile.kind != "aggregate"


#: the reasons `silent.toml` may give, each a check of the facts
REASONS: dict[str, Callable[[str, RuntimeProfile], bool]] = {
    "reads-no-field-typed-by-the-rule": _reads_no_field_typed_by,
}


def silent_pairs() -> dict[tuple[str, str], str]:
    """(code, target) -> the reason the rule cannot fire there."""
    data = tomllib.loads(SILENT_FILE.read_text("utf-8"))
    return {(entry["code"], target): entry["reason"]
            for entry in data["silent"] for target in entry["targets"]}


@pytest.mark.parametrize(("code", "target"), sorted(silent_pairs()))
def test_silent_pairs_are_silent_for_their_reason(code: str, target: str) -> None:
    reason = silent_pairs()[(code, target)]
    profile = PROFILES[target]
    assert rule(code).severity(profile) is not None, "a `-` column needs no entry"
    assert REASONS[reason](code, profile), f"{code} under {target}: {reason} does not hold"
    assert [f for f in runs(code)[target].section["findings"] if f["code"] == code] == []


def test_every_pair_with_a_level_fires_or_says_why_not() -> None:
    """Each rule fires in its snapshot under every target whose catalog column is not `-`,
    unless `silent.toml` says why it cannot (SK002 fires where the target does not find it)."""
    silent = silent_pairs()
    quiet = []
    for path in sorted(SNAPSHOTS.glob("*.json")):
        code = path.stem
        for target, section in json.loads(path.read_text("utf-8")).items():
            fires = any(f["code"] == code for f in section["findings"])
            if rule(code).severity(PROFILES[target]) is not None and not fires \
                    and (code, target) not in silent:
                quiet.append(f"{code}-{target}")
    assert quiet == []
