"""Offsets, spans and the line index: the one place that knows what a line and a character are.

All positions in the core are offsets into the document text counted in Unicode code points (Python
`str` indexes). A line ends at `\\n`, `\\r\\n` or a lone `\\r` (the three terminators LSP accepts); the
terminator is not part of the line's characters. `LineIndex` converts between offsets and
`Position(line, character)` (0-based, code points) in O(log n) per conversion.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, repeat
from operator import add

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: a carriage return that is a line break of its own (not the first half of `\r\n`)
LONE_CR = re.compile("\r(?!\n)")


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A half-open range `[start, end)` of code-point offsets into one document's text."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"span end {self.end} before start {self.start}")

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True, order=True)
class Position:
    """A 0-based line and a 0-based character (code points) within that line."""

    line: int
    character: int


@dataclass(frozen=True, slots=True)
class Range:
    start: Position
    end: Position

    def to_json(self) -> dict[str, dict[str, int]]:
        return {
            "start": {"line": self.start.line, "character": self.start.character},
            "end": {"line": self.end.line, "character": self.end.character},
        }


class LineIndex:
    """Line starts of a text, for offset <-> position conversion. Never changed once built, so
    the scans of one text share one (`line_index`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        # content_ends[i] is the offset where line i's characters end (its terminator starts).
        if "\r" in text:
            starts = [0]
            content_ends: list[int] = []
            for match in _LINE_BREAK.finditer(text):
                content_ends.append(match.start())
                starts.append(match.end())
        else:  # only `\n`: the line lengths from one split, summed at C speed
            line_lengths = map(len, text.split("\n"))
            starts = list(accumulate(map(add, line_lengths, repeat(1)), initial=0))
            starts.pop()
            content_ends = [start - 1 for start in starts[1:]]
        content_ends.append(len(text))
        self._starts = starts
        self._content_ends = content_ends

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        return self._starts[line]

    def line_end(self, line: int) -> int:
        """Offset just after the last character of `line` (before its terminator)."""
        return self._content_ends[line]

    def line_text(self, line: int) -> str:
        return self.text[self._starts[line] : self._content_ends[line]]

    def line_of(self, offset: int) -> int:
        offset = max(0, min(offset, len(self.text)))
        return bisect.bisect_right(self._starts, offset) - 1

    def position(self, offset: int) -> Position:
        """The position of `offset`; an offset inside a `\\r\\n` pair maps to the end of its line."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        character = min(offset, self._content_ends[line]) - self._starts[line]
        return Position(line, character)

    def range(self, span: Span) -> Range:
        return Range(self.position(span.start), self.position(span.end))

    def offset(self, position: Position) -> int:
        """The offset of `position`, clamped into the document (as LSP asks of servers)."""
        if position.line < 0:
            return 0
        if position.line >= len(self._starts):
            return len(self.text)
        start = self._starts[position.line]
        return min(start + max(position.character, 0), self._content_ends[position.line])

    def span_of_line(self, line: int) -> Span:
        return Span(self._starts[line], self._content_ends[line])


@lru_cache(maxsize=64)
def line_index(text: str) -> LineIndex:
    """The line index of `text`, built once for the document's split and the scans of its body
    (cached by content, as those scans are)."""
    return LineIndex(text)
