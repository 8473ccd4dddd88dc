"""LineIndex: offsets and positions with LF, CRLF, lone CR and non-ASCII text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wave_lsp.core.parsing.text import LineIndex, Position, Span


@pytest.mark.parametrize(
    ("text", "offset", "expected"),
    [
        ("ab\ncd", 3, Position(1, 0)),
        ("ab\r\ncd", 4, Position(1, 0)),
        ("ab\r\ncd", 3, Position(0, 2)),  # inside the CRLF pair: end of line 0
        ("ab\rcd", 3, Position(1, 0)),
        ("技能😀x", 3, Position(0, 3)),
        ("", 0, Position(0, 0)),
        ("abc", 99, Position(0, 3)),
    ],
)
def test_position(text: str, offset: int, expected: Position) -> None:
    assert LineIndex(text).position(offset) == expected


def test_offset_clamps_to_line_end() -> None:
    lines = LineIndex("ab\r\ncd\n")
    assert lines.offset(Position(0, 99)) == 2
    assert lines.offset(Position(9, 0)) == len("ab\r\ncd\n")
    assert lines.line_text(1) == "cd"
    assert lines.line_count == 3


def test_span_rejects_reversed_range() -> None:
    with pytest.raises(ValueError):
        Span(3, 1)


@given(st.text(alphabet=st.sampled_from(list("ab\r\n技😀\t "))))
def test_offset_position_round_trip(text: str) -> None:
    lines = LineIndex(text)
    for offset in range(len(text) + 1):
        position = lines.position(offset)
        back = lines.offset(position)
        # offsets inside a CRLF pair map to the end of the line; all others round-trip
        assert back == offset or text[back : offset + 1].startswith("\r")
