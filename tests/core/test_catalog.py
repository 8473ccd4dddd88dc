"""The catalog equals RULES.md, the docs equal the catalog, the schema names real rules, the
core never imports the LSP libraries, and the catalog's fast reader reads what tomllib reads."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from wave_lsp import docs
from wave_lsp.core.checking import catalog, schema
from wave_lsp.core.checking.catalog import CATALOG_COLUMNS, Severity, rules
from wave_lsp.core.facts.profiles import AGENTSKILLS, PROFILES, TARGETS

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


def added_codes() -> dict[str, str]:
    """docs/design/rules.md *Codes added to the original catalog*: code -> name."""
    text = (ROOT / "docs" / "design" / "rules.md").read_text("utf-8")
    section = text.split("### Codes added to the original catalog", 1)[1].split("\n### ", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| (SK\d{3}) \| ([\w-]+) \|", section,
                                                        re.M)}


@pytest.mark.skipif(not RULES_MD.exists(), reason="shared/spec/RULES.md is not beside the repo")
def test_catalog_matches_rules_md() -> None:
    """The catalog equals RULES.md except for the departures docs/design/rules.md lists and
    justifies (each one checked: RULES.md must still say what the table says it said), plus the
    codes it lists as added (each a new code, never one RULES.md has)."""
    expected = rules_md_rows()
    added = added_codes()
    assert not set(added) & set(expected)
    assert [code for code in rules() if code not in added] == list(expected)
    assert {code: rules()[code].name for code in added} == added
    changed = departures()
    for (code, column), (was, _) in changed.items():
        assert LETTER[expected[code][1][column]] == LETTER[was], (code, column)
    for code, (name, letters) in expected.items():
        letters = [changed.get((code, column), (letter, letter))[1]
                   for column, letter in enumerate(letters)]
        item = rules()[code]
        assert item.name == name, code
        got = [int(item.severities[t]) if item.severities[t] else None
               for t in CATALOG_COLUMNS[:len(letters)]]  # RULES.md has the first four columns
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


def test_the_catalog_file_is_read_by_the_fast_reader_as_tomllib_reads_it() -> None:
    """rules.toml keeps to the subset `parse_catalog` reads without tomllib, and reads the same."""
    text = catalog._catalog_text()
    fast = catalog._parse_simple_toml(text)
    assert fast is not None, "rules.toml left the fast reader's subset: see catalog.parse_catalog"
    assert fast == tomllib.loads(text)


SIMPLE_TOML = [  # (text, whether the fast reader takes it)
    ('[SK001]\nname = "a"\nseverity = ["E", "-", "W", "H"]\n', True),
    ('# comment\n\n[A]\n  key\t=  "x"  \r\n[B]\nkey = "y"\n', True),
    ('[A]\nx = "quote \\" backslash \\\\ ( tab \\t line \\n \\u00e9 \\u2028"\n', True),
    ('[A]\nx = "é – ✓ \u2028 ok"\n', True),
    ('[A]\nx = ["a", "b\\"c"]\ny = []\n', True),
    ("[A]\nx = 'literal'\n", False),
    ('[A]\nx = """multi\nline"""\n', False),
    ('[A]\nx = "a" # trailing comment\n', False),
    ('[A]\nx = "escape \\U0001F600"\n', False),
    ('[A]\nx = "tab\tinside"\n', True),
    ('[A]\nx = "tab\tand \\" escape"\n', False),
    ('[A]\nx = ["a", 1]\n', False),
    ('[A]\nx = [\n  "a",\n]\n', False),
    ('[A]\nx = ["a", "b",]\n', False),
    ('[A]\nx = 1\ny = true\n', False),
    ('[A]\na.b = "dotted"\n', False),
    ('[ A ]\nx = "spaced header"\n', False),
    ('[A.B]\nx = "nested"\n', False),
    ('top = "before any table"\n[A]\n', False),
    ('[A]\n"quoted key" = "x"\n', False),
]


@pytest.mark.parametrize(("text", "fast"), SIMPLE_TOML)
def test_parse_catalog_reads_what_tomllib_reads(text: str, fast: bool) -> None:
    assert (catalog._parse_simple_toml(text) is not None) == fast
    assert catalog.parse_catalog(text) == tomllib.loads(text)


INVALID_TOML = [
    '[A]\nx = "a"\nx = "b"\n',  # a key twice
    '[A]\nx = "a"\n[A]\ny = "b"\n',  # a table twice
    '[A]\nx = "control \x01"\n',
    '[A]\nx = "a"\n# control \x7f in a comment\n',
    '[A]\nx = "json escape \\/"\n',
    '[A]\nx = "surrogate \\ud83d\\ude00"\n',
    '[A]\nx = "unclosed\n',
    '[A]\nx = "TOML 1.1 escape \\e"\n',
    '[A]\nx = \n',
    '[A]\nx = "cr \r inside"\n',
]


@pytest.mark.parametrize("text", INVALID_TOML)
def test_parse_catalog_rejects_what_tomllib_rejects(text: str) -> None:
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)  # the table's premise
    assert catalog._parse_simple_toml(text) is None
    with pytest.raises(tomllib.TOMLDecodeError):
        catalog.parse_catalog(text)


LEVEL_ORDER = {None: 0, Severity.HINT: 1, Severity.INFORMATION: 2, Severity.WARNING: 3,
               Severity.ERROR: 4}


def test_portable_is_the_strictest_reading_of_every_target() -> None:
    """docs/design/rules.md *Targets*: `portable` reports each rule at least as severely as any
    of the eight runtimes it stands for, and a rule that stops one of them from loading a skill
    stops `portable` too."""
    portable = PROFILES["portable"]
    assert {p.name for p in portable.members} == set(TARGETS) - {"portable"}
    for code, item in rules().items():
        strictest = max((item.severity(member) for member in portable.members),
                        key=LEVEL_ORDER.__getitem__)
        assert LEVEL_ORDER[item.severity(portable)] >= LEVEL_ORDER[strictest], code
        if item.stops_loading - {"portable"}:
            assert "portable" in item.stops_loading, code


def test_rule_links_work_offline(monkeypatch) -> None:
    """With no public address configured, no rule has a `url`; every rule links (editor
    `codeDescription`) to its page on this machine, which is that rule's page; `rule --format json`
    names the page and carries no `url`. With an address configured, the link is built from it."""
    assert catalog.PUBLIC_DOCS_URL is None and catalog.PUBLIC_HOME_URL is None
    for code, item in rules().items():
        assert item.url is None
        assert item.page is not None and item.page.read_text("utf-8").startswith(f"# {code} ")
        assert item.link == item.page.as_uri()
        described = docs.rule_json(item)
        assert "url" not in described and described["page"] == str(item.page)
    monkeypatch.setattr(catalog, "PUBLIC_DOCS_URL", "https://docs.example/rules/")
    assert rules()["SK021"].link == rules()["SK021"].url == "https://docs.example/rules/SK021.md"
    assert docs.rule_json(rules()["SK021"])["url"] == "https://docs.example/rules/SK021.md"
