"""The Markdown structure of a SKILL.md body: fenced code blocks, inline code spans and headings.

Just enough CommonMark for the features that need it: document symbols (ATX headings), references
and links (which must not be taken from code), placeholder and injection rules (which need to know
whether text sits in code). All spans are offsets into the whole document text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

from wave_lsp.core.parsing.text import Span


@dataclass(frozen=True, slots=True)
class Fence:
    """A fenced code block: the whole block, its content and its info string (`python`, `!`)."""

    span: Span
    content: Span
    info: str
    info_span: Span
    closed: bool


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str
    span: Span  #: the whole heading line
    text_span: Span


@dataclass(slots=True)
class MarkdownBody:
    """The fences and headings of a body, and every code region (fence contents and inline code
    spans) as offsets in document order (a long body has thousands of code spans: they are kept
    as two lists of integers and a `Span` is made only for one asked about). Headings are found
    when first asked for (only document symbols want them)."""

    text: str = ""
    prose_start: int = 0  #: where the body's first line starts
    fences: list[Fence] = field(default_factory=list)
    _inline: list[tuple[int, int]] = field(default_factory=list)
    _code_starts: list[int] = field(default_factory=list)
    _code_ends: list[int] = field(default_factory=list)
    _headings: list[Heading] | None = None

    @property
    def headings(self) -> list[Heading]:
        """The ATX headings outside fences, in document order."""
        if self._headings is None:
            self._headings = _find_headings(self.text, self.prose_start, self.fences)
        return self._headings

    def sections_at(self, offset: int) -> list[Heading]:
        """The headings whose sections hold `offset`, innermost first: the last heading before it,
        then each earlier heading of a lower level (`## Optional Helpers` over `### Script`)."""
        headings = self.headings
        index = bisect.bisect_right(headings, offset, key=lambda heading: heading.span.start) - 1
        found: list[Heading] = []
        while index >= 0:
            heading = headings[index]
            if not found or heading.level < found[-1].level:
                found.append(heading)
                if heading.level == 1:
                    break
            index -= 1
        return found

    @property
    def code_spans(self) -> list[Span]:
        """The inline code spans (their content, without the backticks), in document order."""
        return [Span(start, end) for start, end in self._inline]

    def in_code(self, offset: int) -> bool:
        """Whether `offset` lies inside a fenced block's content or an inline code span."""
        index = bisect.bisect_right(self._code_starts, offset) - 1
        return index >= 0 and offset < self._code_ends[index]

    def code_at(self, offset: int) -> Span | None:
        """The code region (fence content or inline code span) around `offset`."""
        index = bisect.bisect_right(self._code_starts, offset) - 1
        if index >= 0 and offset < self._code_ends[index]:
            return Span(self._code_starts[index], self._code_ends[index])
        return None

    def _add_code(self, start: int, end: int) -> None:
        """Record a code region; regions come in document order and do not overlap."""
        self._code_starts.append(start)
        self._code_ends.append(end)

    def fence_at(self, offset: int) -> Fence | None:
        """The fence around `offset` (fences are in document order and do not overlap)."""
        index = bisect.bisect_right(self.fences, offset, key=lambda fence: fence.span.start) - 1
        if index >= 0 and offset < self.fences[index].span.end:
            return self.fences[index]
        return None


def parse_body(text: str, body_offset: int) -> MarkdownBody:
    """The structure of the body that starts at `body_offset` of `text` (cached by content)."""
    return _parse(text, body_offset)


#: a line that opens a fence: up to three spaces (group 1), the marker (group 2), the info string
#: (group 3); found with the line break before it (a literal first character lets the regex engine
#: skip ahead at C speed instead of trying every offset)
_FENCE_SHAPE = r"( {0,3})(`{3,}|~{3,})([^\r\n]*)"
_FENCE_AFTER_LF = re.compile(r"\n" + _FENCE_SHAPE)
_FENCE_AFTER_ANY = re.compile(r"(?:\r\n?|\n)" + _FENCE_SHAPE)
_FENCE_AT = re.compile(_FENCE_SHAPE)
#: an ATX heading line: up to three spaces (group 1), the `#`s (group 2), the title (group 3; the
#: closing `#`s and spaces left out)
_HEADING_SHAPE = r"( {0,3})(#{1,6})(?:[ \t]+([^\r\n]*?))?(?:[ \t]+#+)?[ \t]*(?=[\r\n]|\Z)"
_HEADING_AFTER_LF = re.compile(r"\n" + _HEADING_SHAPE)
_HEADING_AFTER_ANY = re.compile(r"(?:\r\n?|\n)" + _HEADING_SHAPE)
_HEADING_AT = re.compile(_HEADING_SHAPE)
_TERMINATOR = re.compile(r"\r\n?|\n")


@lru_cache(maxsize=64)
def _parse(text: str, body_offset: int) -> MarkdownBody:
    """Only the lines that open a fence matter here: one regex finds the next one (all other lines
    are skipped at C speed), another the fence's closing line."""
    scan = _LineScan(text)
    prose_start = scan.line_start_of(body_offset)
    result = MarkdownBody(text, prose_start)
    line = scan.first_fence(prose_start)
    while line is not None:
        marker = line.group(2)
        if marker[0] == "`" and "`" in line.group(3):  # not a fence
            line = scan.next_fence(line.end())
            continue
        _inline_code(text, prose_start, line.start(1), result)
        prose_start = _fence(scan, line, result)
        line = scan.first_fence(prose_start)
    _inline_code(text, prose_start, len(text), result)
    return result


def _find_headings(text: str, start: int, fences: list[Fence]) -> list[Heading]:
    """The heading lines from the line at `start` on that no fence holds."""
    after = _HEADING_AFTER_ANY if "\r" in text else _HEADING_AFTER_LF
    fence_starts = [fence.span.start for fence in fences]
    headings: list[Heading] = []
    line = _HEADING_AT.match(text, start) or after.search(text, start)
    while line is not None:
        line_start = line.start(1)
        index = bisect.bisect_right(fence_starts, line_start) - 1
        if index >= 0 and line_start < fences[index].span.end:  # inside a fence: skip it
            line = after.search(text, fences[index].span.end)
            continue
        title = line.group(3)
        title_start = line.start(3) if title is not None else line.end(2)
        title = title or ""
        headings.append(Heading(len(line.group(2)), title.strip(), Span(line_start, line.end()),
                                Span(title_start, title_start + len(title))))
        line = after.search(text, line.end())
    return headings


class _LineScan:
    """Line boundaries of one text by regex search (a line ends at `\\n`, `\\r\\n` or a lone
    `\\r`, as in `LineIndex`); texts without `\\r` take the faster `\\n`-only searches."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.crlf = "\r" in text
        self.fence_lines = _FENCE_AFTER_ANY if self.crlf else _FENCE_AFTER_LF

    def line_start_of(self, offset: int) -> int:
        """The start of the line holding `offset` (the text's end when `offset` is at or past it)."""
        text = self.text
        if offset >= len(text):
            return len(text)
        if not self.crlf:
            return text.rfind("\n", 0, offset) + 1
        start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
        if text[start - 1:start + 1] == "\r\n":  # `offset` is the `\n` of a pair
            start = max(text.rfind("\n", 0, start - 1), text.rfind("\r", 0, start - 1)) + 1
        return start

    def after_line(self, line_end: int) -> int:
        """The start of the line after the one ending at `line_end` (the text's end if none)."""
        found = _TERMINATOR.match(self.text, line_end)
        return found.end() if found else len(self.text)

    def first_fence(self, line_start: int) -> re.Match[str] | None:
        """The first fence-opening line at or after the line starting at `line_start`."""
        return _FENCE_AT.match(self.text, line_start) or self.next_fence(line_start)

    def next_fence(self, position: int) -> re.Match[str] | None:
        """The first fence-opening line after the line that starts or ends at `position`."""
        return self.fence_lines.search(self.text, position)

    def closing_line(self, fence_char: str, width: int, position: int) -> tuple[int, int] | None:
        """The first line after `position` (a line end) that closes a fence of `width` `fence_char`
        characters: its start and the end of its characters."""
        pattern = _closing(fence_char, width, self.crlf)
        found = pattern.search(self.text, position)
        return (found.start(1), found.end(1)) if found else None


@lru_cache(maxsize=32)
def _closing(fence_char: str, width: int, crlf: bool) -> re.Pattern[str]:
    breaks = r"(?:\r\n?|\n)" if crlf else r"\n"
    ends = r"(?=[\r\n]|\Z)" if crlf else r"(?=\n|\Z)"
    return re.compile(rf"{breaks}( {{0,3}}{re.escape(fence_char)}{{{width},}}[ \t]*){ends}")


def _fence(scan: _LineScan, opener: re.Match[str], result: MarkdownBody) -> int:
    """Record the fence opened by the `opener` line; return where the text after it starts."""
    start, line_end = opener.start(1), opener.end()
    marker, info, info_start = opener.group(2), opener.group(3), opener.start(3)
    info_span = Span(info_start, info_start + len(info))
    content_start = scan.after_line(line_end) if line_end < len(scan.text) else line_end
    closing = scan.closing_line(marker[0], len(marker), line_end)
    if closing is not None:
        closing_start, closing_end = closing
        result.fences.append(Fence(Span(start, closing_end), Span(content_start, closing_start),
                                   info.strip(), info_span, closed=True))
        result._add_code(content_start, closing_start)
        return scan.after_line(closing_end)
    end = len(scan.text)
    result.fences.append(Fence(Span(start, end), Span(content_start, end), info.strip(), info_span,
                               closed=False))
    result._add_code(content_start, end)
    return end


#: an inline code span (CommonMark): a run of backticks, then text and runs of other lengths, up
#: to a run of the same length, with no blank line (`\\n\\n`, `\\r\\n\\r\\n`) before it. The
#: pattern starts with a literal backtick (the regex engine skips to the next one at C speed), the
#: look-behind after it keeps the run whole, and the possessive loop never backtracks: an opener
#: without a closer costs one pass up to the next blank line.
_CODE_SPAN = re.compile(r"(`(?<!``)`*)(?!`)"
                        r"((?:[^`\n]++|\n(?!\n)(?!(?<=\r\n)\r\n)|(?!\1(?!`))`++)*+)"
                        r"\1(?!`)")


def _inline_code(text: str, start: int, end: int, result: MarkdownBody) -> None:
    """Inline code spans between `start` (a line start) and `end` (a line start or the text's
    end)."""
    inline, starts, ends = result._inline, result._code_starts, result._code_ends
    for found in _CODE_SPAN.finditer(text, start, end):
        span = found.span(2)
        inline.append(span)
        starts.append(span[0])
        ends.append(span[1])
