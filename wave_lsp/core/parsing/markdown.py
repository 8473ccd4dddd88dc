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

from wave_lsp.core.parsing.text import LineIndex, Span, line_index

_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")


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
    fences: list[Fence] = field(default_factory=list)
    code_spans: list[Span] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    _code_starts: list[int] = field(default_factory=list)
    _code: list[Span] = field(default_factory=list)

    def in_code(self, offset: int) -> bool:
        """Whether `offset` lies inside a fenced block's content or an inline code span."""
        return self.code_at(offset) is not None

    def code_at(self, offset: int) -> Span | None:
        if not self._code:
            self._code = sorted([f.content for f in self.fences] + self.code_spans)
            self._code_starts = [s.start for s in self._code]
        index = bisect.bisect_right(self._code_starts, offset) - 1
        if index >= 0 and self._code[index].start <= offset < self._code[index].end:
            return self._code[index]
        return None

    def fence_at(self, offset: int) -> Fence | None:
        """The fence around `offset` (fences are in document order and do not overlap)."""
        index = bisect.bisect_right(self.fences, offset, key=lambda fence: fence.span.start) - 1
        if index >= 0 and offset < self.fences[index].span.end:
            return self.fences[index]
        return None


def parse_body(text: str, body_offset: int) -> MarkdownBody:
    """The structure of the body that starts at `body_offset` of `text` (cached by content)."""
    return _parse(text, body_offset)


@lru_cache(maxsize=64)
def _parse(text: str, body_offset: int) -> MarkdownBody:
    lines = line_index(text)
    result = MarkdownBody()
    first = lines.line_of(body_offset) if body_offset < len(text) else lines.line_count
    prose_start = lines.line_start(first) if first < lines.line_count else len(text)
    line = first
    while line < lines.line_count:
        content = lines.line_text(line)
        opener = _FENCE_OPEN.match(content)
        if opener and not (opener.group(2)[0] == "`" and "`" in opener.group(3)):
            _inline_code(text, prose_start, lines.line_start(line), result)
            line = _fence(lines, line, opener, result)
            prose_start = lines.line_start(line) if line < lines.line_count else len(text)
            continue
        heading = _ATX_HEADING.match(content)
        if heading:
            start = lines.line_start(line)
            title = heading.group(2) or ""
            title_start = start + (heading.start(2) if heading.group(2) is not None else heading.end(1))
            result.headings.append(Heading(len(heading.group(1)), title.strip(),
                                           lines.span_of_line(line),
                                           Span(title_start, title_start + len(title))))
        line += 1
    _inline_code(text, prose_start, len(text), result)
    return result


def _fence(lines: LineIndex, line: int, opener: re.Match[str], result: MarkdownBody) -> int:
    """Record the fence opened at `line`; return the line after it."""
    marker = opener.group(2)
    closing = re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
    start = lines.line_start(line)
    info_start = start + opener.start(3)
    info = opener.group(3)
    content_start = lines.line_start(line + 1) if line + 1 < lines.line_count else lines.line_end(line)
    for end_line in range(line + 1, lines.line_count):
        if closing.match(lines.line_text(end_line)):
            content_end = lines.line_start(end_line)
            result.fences.append(Fence(Span(start, lines.line_end(end_line)),
                                       Span(content_start, content_end), info.strip(),
                                       Span(info_start, info_start + len(info)), closed=True))
            return end_line + 1
    end = len(lines.text)
    result.fences.append(Fence(Span(start, end), Span(content_start, end), info.strip(),
                               Span(info_start, info_start + len(info)), closed=False))
    return lines.line_count


def _inline_code(text: str, start: int, end: int, result: MarkdownBody) -> None:
    """Inline code spans between `start` and `end` (backtick runs of equal length, no blank line)."""
    position = start
    while True:
        opener = text.find("`", position, end)
        if opener < 0:
            return
        run = opener
        while run < end and text[run] == "`":
            run += 1
        width = run - opener
        closer = _closing_run(text, run, end, width)
        if closer is None:
            position = run
            continue
        result.code_spans.append(Span(run, closer))
        position = closer + width


def _closing_run(text: str, start: int, end: int, width: int) -> int | None:
    position = start
    while True:
        found = text.find("`", position, end)
        if found < 0:
            return None
        if "\n\n" in text[position:found] or "\r\n\r\n" in text[position:found]:
            return None
        run = found
        while run < end and text[run] == "`":
            run += 1
        if run - found == width:
            return found
        position = run
