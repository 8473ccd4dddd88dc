"""The catalog equals RULES.md, the docs equal the catalog, the schema names real rules, and the
core never imports the LSP libraries."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wave_lsp import docs
from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import CATALOG_COLUMNS, rules
from wave_lsp.core.runtime.profiles import AGENTSKILLS

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT.parent / "shared" / "spec" / "RULES.md"
LETTER = {"E": 1, "W": 2, "I": 3, "H": 4, "–": None, "-": None}


def rules_md_rows() -> dict[str, tuple[str, list[str]]]:
    rows = {}
    for line in RULES_MD.read_text("utf-8").splitlines():
        match = re.match(r"\| (SK\d{3}) \| ([\w-]+) \| (.+?) \| (.+?) \| (.+?) \| (.+?) \|", line)
        if match:
            rows[match.group(1)] = (match.group(2), [match.group(i).strip() for i in range(3, 7)])
    return rows


def departures() -> dict[tuple[str, int], tuple[str, str]]:
    """docs/design/rules.md *Departures from the original catalog*: (code, column) -> (letter in
    RULES.md, letter now)."""
    text = (ROOT / "docs" / "design" / "rules.md").read_text("utf-8")
    section = text.split("### Departures from the original catalog", 1)[1].split("\n### ", 1)[0]
    changed = {}
    for match in re.finditer(r"^\| (SK\d{3}) \| ([\w-]+) \| (\S) \| (\S) \|", section, re.M):
        code, target, was, now = match.groups()
        changed[code, CATALOG_COLUMNS.index(target)] = (was, now)
    return changed


@pytest.mark.skipif(not RULES_MD.exists(), reason="shared/spec/RULES.md is not beside the repo")
def test_catalog_matches_rules_md() -> None:
    """The catalog equals RULES.md except for the departures docs/design/rules.md lists and
    justifies (each one checked: RULES.md must still say what the table says it said)."""
    expected = rules_md_rows()
    assert list(expected) == list(rules())
    changed = departures()
    for (code, column), (was, _) in changed.items():
        assert LETTER[expected[code][1][column]] == LETTER[was], (code, column)
    for code, (name, letters) in expected.items():
        letters = [changed.get((code, column), (letter, letter))[1]
                   for column, letter in enumerate(letters)]
        item = rules()[code]
        assert item.name == name, code
        got = [int(item.severities[t]) if item.severities[t] else None for t in CATALOG_COLUMNS]
        assert got == [LETTER[letter] for letter in letters], code


def test_docs_are_generated_from_the_catalog() -> None:
    folder = ROOT / "docs" / "rules"
    for name, content in docs.pages().items():
        assert (folder / name).read_text("utf-8") == content, (
            f"docs/rules/{name} is stale: run `python -m wave_lsp.docs`")
    assert {p.name for p in folder.glob("*.md")} == set(docs.pages())


def test_schema_rules_exist_and_targets_are_known() -> None:
    for spec in schema.fields().values():
        rule = spec.rule
        codes = [rule] if isinstance(rule, str) else list((rule or {}).values())
        assert all(code in rules() for code in codes), spec.name
        assert set(spec.targets) <= set(CATALOG_COLUMNS), spec.name
        assert spec.description, spec.name


def test_agentskills_fields_are_the_six_spec_fields() -> None:
    assert {f.name for f in schema.fields_for(AGENTSKILLS)} == {
        "name", "description", "license", "compatibility", "metadata", "allowed-tools"}


def test_core_does_not_import_the_lsp_libraries() -> None:
    offenders = []
    for path in (ROOT / "wave_lsp" / "core").rglob("*.py"):
        text = path.read_text("utf-8")
        if re.search(r"^\s*(from|import)\s+(pygls|lsprotocol)\b", text, re.M):
            offenders.append(path.name)
    assert offenders == []


def test_every_rule_has_documentation_fields() -> None:
    for item in rules().values():
        assert item.summary and item.why and item.example and item.fix, item.code
