"""How the `claude-code` target reads a SKILL.md, fact by fact, as Claude Code 2.1.332 does
(issue 26 measurements; docs/design/runtime-facts.md §3.1, §3.2, §3.5): the lenient YAML
readings, the frontmatter cut at the first `---`, the body's first line as the description,
and the listing line."""

from __future__ import annotations

from pathlib import Path

import pytest

from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE
from wave_lsp.core.facts.reads import body_description, read_as
from wave_lsp.core.invocation.listing import display_label, runtime_listing_entry
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.yamltree import BUN, QUOTE_RETRY, TAB_RETRY, parse_frontmatter
from wave_lsp.core.workspace.location import locate

LOCATION = locate(Path("/project/.claude/skills/folder/SKILL.md"))


@pytest.mark.parametrize(("frontmatter", "readings", "description"), [
    # Bun's parser takes a value that starts with `,`, and characters YAML does not allow
    ("description: , it might predict\n", {BUN, QUOTE_RETRY, TAB_RETRY}, ", it might predict"),
    ("description: caf\u0080 menu\n", {BUN, QUOTE_RETRY, TAB_RETRY}, "caf\u0080 menu"),
    # the quoting retry rewrites LF lines only: its `(\S.*)$` never matches a line ending in CR
    ("description: Use when: x\n", {QUOTE_RETRY, TAB_RETRY}, "Use when: x"),
    ("description: Use when: x\r\nname: n\r\n", set(), "Use when: x"),
    # the retry of 2.1.332 turns each leading tab into two spaces
    ("metadata:\n\tversion: \"1\"\ndescription: tabbed\n", {TAB_RETRY}, "tabbed"),
])
def test_lenient_readings(frontmatter: str, readings: set[str], description: str) -> None:
    """The readings under which a frontmatter strict YAML rejects still parses; the analysis
    tree (`recovered`) holds the fields either way."""
    document = parse_frontmatter(frontmatter)
    assert document.problem is not None and document.recovered
    assert document.readings == readings
    assert document.mapping is not None
    assert document.mapping.value()["description"] == description


@pytest.mark.parametrize(("text", "description", "from_body", "body"), [
    # no description: the body's first non-blank line, a heading's `#`s removed
    ("---\nname: folder\n---\n\n\n# Title here\nbody\n", "Title here", True, "# Title here\nbody\n"),
    ("no frontmatter at all\n", "no frontmatter at all", True, "no frontmatter at all\n"),
    ("---\nname: folder\n---\n", "Skill", True, ""),
    # CRLF and a colon: the retry does not rescue it, the listing falls back to the body
    ("---\r\ndescription: Use when: x\r\n---\r\n# From body\r\n", "From body", True,
     "# From body\r\n"),
    ("---\ndescription: Use when: x\n---\n# From body\n", "Use when: x", False, "# From body\n"),
    # a byte-order mark is removed first; tab indentation is re-indented by the retry
    ("\ufeff---\ndescription: bom ok\n---\nx", "bom ok", False, "x"),
    ("---\nmetadata:\n\tv: 1\ndescription: tabbed\n---\n", "tabbed", False, ""),
    # `---` mid-line ends the frontmatter: the rest of the line and the fields after it are body
    ("---\ndescription: a --- b\nname: zz\n---\nbody", "a", False, "b\nname: zz\n---\nbody"),
    # numbers and booleans become text, lists are dropped
    ("---\ndescription: 1.0\n---\n", "1", False, ""),
    ("---\ndescription: [a, b]\n---\nFirst line\n", "First line", True, "First line\n"),
])
def test_claude_code_reading(text: str, description: str, from_body: bool, body: str) -> None:
    document = SkillDocument.from_text(text)
    reading = read_as(document, CLAUDE_CODE)
    assert reading.description == description
    assert reading.described_from_body is from_body
    assert document.text[reading.body_offset:] == body


def test_wave_reads_the_document_as_parsed() -> None:
    document = SkillDocument.from_text("---\ndescription: a --- b\n---\n\n# Title\n")
    reading = read_as(document, WAVE)
    assert reading.same_fields and reading.values is document
    assert reading.description == "a --- b" and not reading.described_from_body
    assert reading.body_offset == document.body_offset


@pytest.mark.parametrize(("body", "expected"), [
    ("\n  \n## Heading  \n", "Heading"),
    ("#hashtag\n", "#hashtag"),
    ("x" * 101 + "\n", "x" * 97 + "..."),
    ("x" * 100, "x" * 100),
    ("\n\n", "Skill"),
])
def test_body_description(body: str, expected: str) -> None:
    assert body_description(body, "Skill") == expected


@pytest.mark.parametrize(("name", "command", "label"), [
    ("other-name", "folder", "other-name"),
    ("folder", "folder", None),
    ("Bad Name!", "folder", None),  # a space and `!` are not allowed: not shown
    ("café_2.x", "folder", "café_2.x"),  # any script's letters, `_` and `.`
    ("x" * 257, "folder", None),
    ("review", "plugin:review", None),  # the command's own last segment
    (None, "folder", None),
    (["a"], "folder", None),
])
def test_display_label(name: object, command: str, label: str | None) -> None:
    assert display_label(name, command) == label


@pytest.mark.parametrize(("text", "claude", "wave"), [
    ("---\nname: other-name\ndescription: d\n---\nx", "- folder (other-name): d",
     "• **other-name** (project): d"),
    ("---\nname: Bad Name!\ndescription: d\n---\nx", "- folder: d", "• **Bad Name!** (project): d"),
    ("---\nname: folder\n---\n\n# Title here\n", "- folder: Title here",
     "• **folder** (project): "),
    # Wave lists `description` alone, uncut (469391bb; tests/oracle cases fm-basic, desc-long)
    ("---\ndescription: d\nwhen_to_use: on Fridays\n---\n", "- folder: d - on Fridays",
     "• **folder** (project): d"),
    ("---\ndescription: d\ndisable-model-invocation: true\n---\n", "", ""),
    # each run of control characters is one space in Claude Code's line (tests/oracle probes
    # fm-block-literal, fm-control-characters, fm-u0080); a no-break space is kept
    ("---\ndescription: |\n  Line one\n\n  line two\n---\n", "- folder: Line one line two",
     "• **folder** (project): Line one\n\nline two"),
    ('---\ndescription: "a\\tb\\r\\nc  d\\u0080e\\u00a0f"\n---\n',
     "- folder: a b c  d e\u00a0f",
     "• **folder** (project): a\tb\r\nc  d\u0080e\u00a0f"),
])
def test_listing_line(text: str, claude: str, wave: str) -> None:
    """The line `list --format json` gives as `listingLine`, per target; its length is what the
    listing costs (`listingChars`), so an invalid `name` the listing does not show is not counted."""
    document = SkillDocument.from_text(text)
    entry = runtime_listing_entry(document, LOCATION, CLAUDE_CODE)
    assert entry.text == claude and entry.chars == len(claude)
    assert runtime_listing_entry(document, LOCATION, WAVE).text == wave


def test_list_rows_and_rendered_listing_give_the_runtime_lines(tmp_path: Path) -> None:
    """`list --format json` (`skill_rows`) and the editor's rendered listing (`runtime_listing`)
    give each skill's line as Claude Code writes it, and measure that line."""
    from wave_lsp.core.checking.loading import runtime_listing, skill_rows
    from wave_lsp.core.invocation.listing import render_listing

    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    skills = {"labelled": "---\nname: other-name\ndescription: Labelled.\n---\n",
              "bare": "---\nname: Not Valid!\n---\n\n# Bare title\n",
              "hidden": "---\ndescription: h\ndisable-model-invocation: true\n---\n"}
    for folder, text in skills.items():
        path = project / ".claude/skills" / folder / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(text, "utf-8")
    rows = {row["name"]: row for row in skill_rows(CLAUDE_CODE, project, home, False, project)}
    expected = {"labelled": "- labelled (other-name): Labelled.", "bare": "- bare: Bare title",
                "hidden": None}
    assert {name: row["listingLine"] for name, row in rows.items()} == expected
    assert rows["bare"]["listingChars"] == len("- bare: Bare title")
    listing = render_listing(runtime_listing(CLAUDE_CODE, project, home, False))
    assert sorted(listing.text.split("\n")) == sorted(line for line in expected.values() if line)


def test_fact_versions_name_profile_fields() -> None:
    """Each dated fact is a field of the profile, and dated with a version number."""
    import dataclasses
    import re

    fields = {item.name for item in dataclasses.fields(CLAUDE_CODE)}
    assert CLAUDE_CODE.fact_versions
    for name, version in CLAUDE_CODE.fact_versions.items():
        assert name in fields, name
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), (name, version)


@pytest.mark.parametrize(("value", "wave", "claude"), [
    (True, True, True), ("true", True, True), ('"false"', None, None), ("False", False, False),
    ("yes", None, True), ("YES", None, True), ("on", None, True), ("1", None, True), (1, None, True),
    ("no", None, False), ("Off", None, False), ("0", None, False), (0, None, False),
    ("y", None, None), ("enabled", None, None), (None, None, None),
])
def test_boolean_words(value: object, wave: bool | None, claude: bool | None) -> None:
    """Claude Code (since 2.1.218; probes inv-dmi-yes, inv-user-invocable-no) reads the words
    yes/no/on/off/1/0 in any case; Wave only true and false."""
    from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE
    from wave_lsp.core.invocation.listing import truthy

    assert truthy(value, WAVE.reads_boolean_words) is wave
    assert truthy(value, CLAUDE_CODE.reads_boolean_words) is claude


@pytest.mark.parametrize(("target", "text"), [
    ("opencode", "---\nname: s\ndescription: d\n"),  # unclosed: read to the end (unclosed_values)
    ("codex", "---\nname: s\ndescription: a: b\n---\nBody\n"),  # codex_reading
    ("claude-code", "---\nname: s\n---\n# Title\n"),  # the body's first line
    ("wave", "---\nname: s\ndescription: d\n---\nBody\n"),
])
def test_a_document_is_read_once_per_profile(monkeypatch: pytest.MonkeyPatch, target: str,
                                             text: str) -> None:
    """`read_as` is kept in the document's memo: the rules, the listing and the preview ask for
    it many times per check, and each asking gives the very reading of the first."""
    from wave_lsp.core.facts import reads
    from wave_lsp.core.facts.profiles import PROFILES

    calls: list[str] = []
    original = reads._read_as
    monkeypatch.setattr(reads, "_read_as",
                        lambda document, profile: calls.append(profile.name)
                        or original(document, profile))
    document = SkillDocument.from_text(text + "\n<!-- unique to this test -->\n" + target)
    profile = PROFILES[target]
    first = read_as(document, profile)
    assert read_as(document, profile) is first and calls == [target]
    assert first == original(document, profile)  # the memo changes nothing
    other = WAVE if profile is not WAVE else CLAUDE_CODE
    assert read_as(document, other) is not first and calls == [target, other.name]
