"""Evidence per rule (docs/design/rules.md *Evidence*, issue 27 item 5): every rule says, for each
target that reports it, what fact it rests on, where that is seen and what it was verified
against; the sources it cites exist in this repository; a fact verified against the pinned Claude
Code names the oracle probes that check it; and every surface shows the same rows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.oracle.install import CLAUDE_CODE_VERSION
from wave_lsp.cli import main
from wave_lsp.core.checking.catalog import (
    ADVICE_VERIFIED,
    CATALOG_COLUMNS,
    UNVERIFIED_VERIFIED,
    Evidence,
    Rule,
    _evidence,
    rules,
)
from wave_lsp.docs import describe_rule, evidence_line, rule_json, rule_page

ROOT = Path(__file__).resolve().parents[2]
PROBES = ROOT / "tests" / "oracle" / "probes"
#: how the pinned Claude Code is named in `evidence-verified` where an oracle probe checked it
ORACLE_VERIFIED = f"Claude Code {CLAUDE_CODE_VERSION} (oracle)"
#: a version, a date or a commit: what a verified row names
_VERSIONED = re.compile(r"\d+\.\d+|\d{4}-\d{2}-\d{2}|\b[0-9a-f]{8,40}\b|\(undated\)")
#: a section of runtime-facts.md: the only document the sources cite by `§`
_CITED_SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
_CITED_PROBES = re.compile(r"oracle \[([^\]]+)\]")
#: a repository path in backticks (a file the source names)
_CITED_PATH = re.compile(r"`((?:docs|tests|wave_lsp|benchmarks)/[^`\s]+)`|\b(docs/design/[\w.-]+\.md)\b")


def _sections() -> set[str]:
    """The § numbers of runtime-facts.md: its index names the file of each runtime."""
    from tests.core.test_citations import facts_sections

    return facts_sections()


def _rows() -> list[tuple[Rule, Evidence]]:
    return [(item, row) for item in rules().values() for row in item.evidence]


def _reported_columns(item: Rule) -> list[str]:
    return [column for column, level in item.severities.items() if level is not None]


def test_every_target_that_reports_a_rule_has_its_evidence() -> None:
    """A rule reported under a target rests on a fact about that target (or on the project's
    advice, which says so). `portable`, the strictest reading of every target, inherits the facts
    of the targets it is made of; a rule only `portable` reports needs a row of its own."""
    for item in rules().values():
        assert item.evidence, f"{item.code} has no evidence"
        for column in _reported_columns(item):
            covered = any(row.covers(column) for row in item.evidence)
            if column == "portable" and not covered:
                covered = any(row.covers(other) for row in item.evidence
                              for other in _reported_columns(item) if other != "portable")
            assert covered, f"{item.code}: no evidence for the `{column}` target that reports it"


def test_each_row_says_what_it_was_verified_against() -> None:
    """A runtime fact names the version, date or commit it was verified against; the project's
    own judgement starts `advice: ` and a fact no source confirmed starts `unverified: `, and
    each says so instead of a version."""
    for item, row in _rows():
        assert row.fact and row.source and row.verified, item.code
        if row.is_advice:
            assert row.verified == ADVICE_VERIFIED, (item.code, row.fact)
        elif row.is_unverified:
            assert row.verified == UNVERIFIED_VERIFIED, (item.code, row.fact)
        else:
            assert row.verified not in (ADVICE_VERIFIED, UNVERIFIED_VERIFIED), (item.code, row.fact)
            assert _VERSIONED.search(row.verified), (item.code, row.verified)


def test_sources_cite_what_exists_in_the_repository() -> None:
    """Each source cites at least one thing in this repository: a section of runtime-facts.md,
    an oracle probe, or a file; each one it cites exists."""
    sections = _sections()
    for item, row in _rows():
        cited_sections = _CITED_SECTION.findall(row.source)
        assert not cited_sections or "runtime-facts.md §" in row.source, (item.code, row.source)
        cited_probes = [name.strip() for group in _CITED_PROBES.findall(row.source)
                        for name in group.split(",")]
        cited_paths = [a or b for a, b in _CITED_PATH.findall(row.source)]
        assert cited_sections or cited_probes or cited_paths, (item.code, row.source)
        for number in cited_sections:
            assert number in sections, (item.code, number)
        for name in cited_probes:
            assert (PROBES / name / "probe.toml").is_file(), (item.code, name)
        for cited in cited_paths:
            assert (ROOT / cited).exists(), (item.code, cited)


def test_a_fact_verified_by_the_oracle_names_its_probes_and_the_pinned_version() -> None:
    """`verified against 2.1.332` is written only where a probe of the harness checks the fact,
    and a row that cites probes was verified against the version the harness pins."""
    for item, row in _rows():
        cites_probes = bool(_CITED_PROBES.search(row.source))
        claims_oracle = "(oracle)" in row.verified
        assert cites_probes == claims_oracle, (item.code, row.fact)
        if claims_oracle:
            assert ORACLE_VERIFIED in row.verified, (item.code, row.verified)


def test_every_surface_shows_every_row() -> None:
    """The rule page, `wave-lsp rule CODE` (text and JSON) show each row with its targets."""
    for item in rules().values():
        page, text, described = rule_page(item), describe_rule(item), rule_json(item)
        assert described["evidence"] == [row.to_json() for row in item.evidence]
        for row in item.evidence:
            assert f"| {row.target_label} | {row.fact.replace('|', chr(92) + '|')} |" in page
            assert evidence_line(row) in text, item.code


def test_rule_command_prints_the_evidence(capsys: pytest.CaptureFixture[str]) -> None:
    item = rules()["SK004"]
    assert main(["rule", "SK004"]) == 0
    text = capsys.readouterr().out
    assert all(evidence_line(row) in text for row in item.evidence)
    assert main(["rule", "SK004", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    rows = printed[0]["evidence"] if isinstance(printed, list) else printed["evidence"]
    assert rows == [row.to_json() for row in item.evidence]
    assert {"fact", "source", "verified", "targets"} <= set(rows[0])


@pytest.mark.parametrize(("entry", "expected"), [
    ({}, ()),
    ({"evidence": ["f"], "evidence-source": ["s"], "evidence-verified": ["v 1.0"],
      "evidence-target": ["all"]}, (Evidence("f", "s", "v 1.0", ()),)),
    ({"evidence": ["f"], "evidence-source": ["s"], "evidence-verified": ["v 1.0"],
      "evidence-target": ["wave claude-code"]}, (Evidence("f", "s", "v 1.0", ("wave", "claude-code")),)),
])
def test_the_reader_pairs_the_four_arrays(entry: dict[str, list[str]],
                                          expected: tuple[Evidence, ...]) -> None:
    assert _evidence("SK999", entry) == expected


@pytest.mark.parametrize("entry", [
    {"evidence": ["f"], "evidence-source": ["s"], "evidence-verified": ["v"]},
    {"evidence": ["f"], "evidence-source": ["s"], "evidence-verified": ["v"],
     "evidence-target": ["claude"]},
    {"evidence": ["f"], "evidence-source": ["s"], "evidence-verified": ["v"],
     "evidence-target": [""]},
    {"evidence": ["f"], "evidence-source": ["s"], "evidence-verified": ["v"],
     "evidence-target": ["all wave"]},
])
def test_the_reader_rejects_rows_that_do_not_pair(entry: dict[str, list[str]]) -> None:
    with pytest.raises(ValueError, match="SK999"):
        _evidence("SK999", entry)


@pytest.mark.parametrize(("targets", "column", "covered"), [
    ((), "gemini-cli", True),
    (("wave", "codex"), "codex", True),
    (("wave", "codex"), "claude-code", False),
])
def test_a_row_covers_its_targets(targets: tuple[str, ...], column: str, covered: bool) -> None:
    assert column in CATALOG_COLUMNS
    assert Evidence("f", "s", "v", targets).covers(column) is covered


#: errors that rest on no verified fact about their target yet (the target's rows are
#: `unverified:`), each pair (code, column) with why; like the oracle's strict xfails, verifying
#: one makes the test below fail until its entry goes. Cursor is left out: its profile is known
#: from its documentation only, and its messages say so (`RuntimeProfile.evidence_note`).
UNVERIFIED_ERRORS: dict[tuple[str, str], str] = {
    **{("SK003", column): "what the loader does with an invalid UTF-8 byte was not run (Claude "
                          "Code 2.1.332 replaces it with U+FFFD and loads: oracle fm-invalid-utf8)"
       for column in ("wave", "codex", "copilot", "opencode", "gemini-cli")},
    ("SK024", "wave"): "the Wave specification's YAML reader was not run on a custom tag",
    ("SK024", "codex"): "Codex's serde_yaml was not run on a custom tag",
}


def test_an_error_rests_on_a_verified_fact_about_its_target() -> None:
    """An error says the runtime really fails (docs/design/rules.md *Severity policy*): each
    target that reports a rule as an error has a row about it that is neither advice nor
    unverified, but for the known gaps above."""
    from wave_lsp.core.checking.catalog import Severity
    from wave_lsp.core.facts.profiles import PROFILES

    documented_only = {p.catalog_column for p in PROFILES.values() if p.evidence == "docs"}
    gaps = {(item.code, column) for item in rules().values()
            for column, level in item.severities.items()
            if level == Severity.ERROR and column != "portable" and column not in documented_only
            and not any(row.covers(column) and not row.is_advice and not row.is_unverified
                        for row in item.evidence)}
    assert gaps == set(UNVERIFIED_ERRORS)
