"""The source line and the caret under a finding in `check`'s text output, as ruff's default
(`full`) output shows them (docs/design/product.md *Command line*; `--format concise` leaves them
out).

Positions are code points (the core's unit: wave_lsp/core/parsing/text.py); a terminal shows
columns. So each character of the line is shown as what a terminal draws, with its width: a tab
as spaces to the next stop of 4, a wide (East Asian wide or fullwidth) character as 2 columns, a
combining mark or variation selector as 0, a control character as its Unicode control picture
(␀, ␛, …) and an invisible or direction-changing format character (a bidirectional override, a
zero-width space) as `<U+202E>`, so that nothing in a skill can move the caret or rearrange the
line on screen. A line wider than `MAX_COLUMNS` is cut around the finding, `…` marking each cut.
Line terminators (`\\n`, `\\r\\n`, a lone `\\r`) are not part of a line (`LineIndex`), so a file
with Windows line endings is shown as one with Unix ones.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

#: tab stops, every 4 columns (ruff's default `tab-size`)
TAB_SIZE = 4
#: the widest line shown; a longer one is cut around the finding
MAX_COLUMNS = 120
_CUT = "…"


@dataclass(frozen=True, slots=True)
class Excerpt:
    """One line as shown (`text`) and where its caret goes: `column` (0-based display column in
    `text`) and `width` (at least 1)."""

    text: str
    column: int
    width: int

    @property
    def carets(self) -> str:
        return " " * self.column + "^" * self.width


def shown(character: str, column: int) -> tuple[str, int]:
    """What a terminal is given for `character` when it starts at display `column`, and how many
    columns that takes."""
    code = ord(character)
    if character == "\t":
        width = TAB_SIZE - column % TAB_SIZE
        return " " * width, width
    if code < 0x20:
        return chr(0x2400 + code), 1
    if code == 0x7F:
        return "\u2421", 1
    category = unicodedata.category(character)
    if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        text = f"<U+{code:04X}>"
        return text, len(text)
    if category in ("Mn", "Me") or unicodedata.combining(character):
        return character, 0
    return character, 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def excerpt(line: str, start: int, end: int, max_columns: int = MAX_COLUMNS) -> Excerpt:
    """`line` as shown, with the caret under its code points `[start, end)` (clamped into the
    line; an empty or out-of-line range gets one caret, at the end of the line when it starts
    there)."""
    start = max(0, min(start, len(line)))
    end = max(start, min(end, len(line)))
    pieces: list[tuple[str, int, int]] = []  # (text, column, width) per code point
    column = 0
    for character in line:
        text, width = shown(character, column)
        pieces.append((text, column, width))
        column += width
    total = column
    caret = pieces[start][1] if start < len(pieces) else total
    caret_end = pieces[end - 1][1] + pieces[end - 1][2] if end > start else caret
    full = "".join(text for text, _, _ in pieces)
    if total <= max_columns:
        return Excerpt(full, caret, max(1, caret_end - caret))
    return _cut(pieces, total, caret, caret_end, max_columns)


def _cut(pieces: list[tuple[str, int, int]], total: int, caret: int, caret_end: int,
         max_columns: int) -> Excerpt:
    """The part of a long line around the caret: a third of the room before it, whole
    characters only, `…` where something was left out."""
    room = max_columns - 2  # a `…` at each end
    low = max(0, min(caret - room // 3, total - room))
    high = low + room
    kept = [(text, column, width) for text, column, width in pieces
            if column >= low and column + width <= high]
    if not kept:  # one character wider than the room (a long <U+…>): show it alone
        kept = [piece for piece in pieces if piece[1] <= caret < piece[1] + max(piece[2], 1)][:1]
    first = kept[0][1] if kept else caret
    last = kept[-1][1] + kept[-1][2] if kept else caret
    before = _CUT if first > 0 else ""
    after = _CUT if last < total else ""
    offset = len(before) - first
    column = max(0, caret + offset) if caret >= first else len(before)
    width = max(1, min(caret_end, last) - max(caret, first))
    return Excerpt(before + "".join(text for text, _, _ in kept) + after, column, width)
