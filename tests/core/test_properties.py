"""Property tests: whatever the text, the core never raises and every range lies in the document."""

from __future__ import annotations

import re
from collections.abc import Iterable

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.engine import check_document
from wave_lsp.core.facts.profiles import TARGETS
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.text import LineIndex
from wave_lsp.core.workspace.location import locate

PIECES = [
    "---\n", "---\r\n", "name: my-skill\n", "name: My_Skill\n", "description: x\n",
    "description: >-\n  folded\n", "description: |\n  kept\n", "description: a: b\n",
    "allowed-tools: Read Grep\n", "allowed-tools:\n  - Bash(git:*)\n  - Bsh\n",
    "metadata:\n  v: 1.0\n", "  - item\n", "key: &a [1, *a]\n", "t: !!str 5\n", "\t", "# c\n",
    "# wave-lsp: ignore SK070\n", "x: [1, {2: 3}]\n", "!`cmd`\n", "技能😀", "\ufeff", "\r",
    "context: forked\n", "paths: **/*.ts\n", "hooks:\n  Stop: []\n", "'", '"', ":", "\n",
]


def check_all_targets(text: str) -> None:
    document = SkillDocument.from_text(text)
    lines = LineIndex(document.text)
    end = lines.position(len(document.text))
    for target in TARGETS:
        findings = check_document(document, locate(None), Settings.for_target(target), strict=True)
        for finding in findings:
            assert finding.range is not None
            for point in (finding.range.start, finding.range.end):
                assert 0 <= point.line < lines.line_count
                assert (point.line, point.character) <= (end.line, end.character)
                assert point.character <= len(lines.line_text(point.line))
            assert finding.range.start <= finding.range.end
            assert finding.message
        again = check_document(document, locate(None), Settings.for_target(target), strict=True)
        assert [(f.code, f.range) for f in again] == [(f.code, f.range) for f in findings]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=25).map("".join))
def test_generated_skills_never_raise(text: str) -> None:
    check_all_targets(text)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text: str) -> None:
    check_all_targets(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_frontmatter_never_raises(text: str) -> None:
    check_all_targets("---\nname: my-skill\n" + text + "\n---\nbody\n")


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["!`", "!", "`", " ", "a", "\n", "\u2000", "\ufeff", "\u0085"]),
                max_size=30).map("".join),
       st.integers(min_value=0, max_value=5))
@example("a!`x !`y`", 0)  # a rejected candidate holds a real injection
@example(" !`x` a!`y !`z`", 0)
@example("x!`a`", 1)  # the character before `start` still decides
def test_inline_injection_scan_matches_the_runtime_patterns(text: str, start: int) -> None:
    """The scan for `!`cmd`` finds exactly what the runtimes' look-behind patterns find."""
    from wave_lsp.core.parsing.injections import (
        AFTER_WORD_PATTERN,
        INLINE_PATTERN,
        _inline_matches,
    )

    def spans(matches: Iterable[re.Match[str]]) -> list[tuple[int, int]]:
        return [match.span() for match in matches]

    assert spans(_inline_matches(text, start, after_word=False)) == spans(
        INLINE_PATTERN.finditer(text, start))
    assert spans(_inline_matches(text, start, after_word=True)) == spans(
        AFTER_WORD_PATTERN.finditer(text, start))


def test_the_space_characters_are_the_space_class() -> None:
    from wave_lsp.core.parsing.injections import JS_SPACE, JS_SPACE_CHARACTERS

    space = re.compile(f"[{JS_SPACE}]")
    assert {chr(c) for c in range(0x110000) if space.match(chr(c))} == JS_SPACE_CHARACTERS
