"""Codex's reading of a frontmatter strict YAML rejects (`wave_lsp.core.facts.loaders`,
docs/design/runtime-facts.md §9.6): the line splitter `codex_line` stays linear and reads every
line as the pattern it replaced did (a lazy `.*?` before `[ \\t]*(\\r?)$`, quadratic in the blanks
of a line: `"k: x" + " " * 20000 + "y "` took 8 s under `check --target codex`)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.engine import check_document
from wave_lsp.core.facts.loaders import codex_line, codex_repaired
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate

#: the pattern `codex_line` replaced, kept as the reference reading
_REFERENCE = re.compile(r"^([ \t]*)([A-Za-z0-9_-]+):([ \t]+)([^\s\"'|>].*?)[ \t]*(\r?)$")

#: characters that matter to the pattern: blanks, `\r`, other white space, quotes, indicators
_LINE = st.text(alphabet=st.sampled_from(list("k-_9: \t\r\f\v\xa0\"'|>[{ax")), max_size=24)


def _reference(line: str) -> tuple[str, ...] | None:
    found = _REFERENCE.match(line)
    return None if found is None else tuple(found.groups())


@given(_LINE)
@settings(max_examples=2000, deadline=None)
@example("k: x \r")
@example("k: x\r\r")
@example("k: x \t\r \t")
@example("k: x\xa0")
@example("k: x\f")
@example("k:\t\"x")
@example("  key-1:  a: b  ")
def test_codex_line_reads_as_the_reference_pattern(line: str) -> None:
    assert codex_line(line) == _reference(line)


@pytest.mark.parametrize(("line", "expected"), [
    ("description: Does a: b  ", ("", "description", " ", "Does a: b", "")),
    ("  name:\tx\r", ("  ", "name", "\t", "x", "\r")),
    ("k: |", None),
    ("k: 'quoted: text'", None),
    ("- k: v", None),
    ("k:", None),
])
def test_codex_line(line: str, expected: tuple[str, ...] | None) -> None:
    assert codex_line(line) == expected


@pytest.mark.timeout(10)  # the quadratic pattern took 30 s on this line; the check takes < 1 s
def test_a_line_of_blanks_is_repaired_and_checked_in_linear_time() -> None:
    blanks = " " * 40_000
    frontmatter = f"name: s\ndescription: Does s: well. Use when asked.\nk: x{blanks}y \n"
    assert codex_repaired(frontmatter) == (
        f'name: s\ndescription: "Does s: well. Use when asked."\nk: x{blanks}y \n')
    document = SkillDocument.from_text(f"---\n{frontmatter}---\nBody\n")
    findings = check_document(document, locate(None), Settings.for_target("codex"), strict=True)
    assert "SK021" in {finding.code for finding in findings}
