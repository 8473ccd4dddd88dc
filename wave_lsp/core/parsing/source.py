"""Reading a SKILL.md: bytes to text, and text to frontmatter and body with exact offsets.

Implements docs/design/rules.md *File and delimiters*: the decoding (SK003, SK004) and the delimiter
grammar that SK005-SK008 report on. The split follows what the runtimes do
(docs/design/runtime-facts.md §2.3, §3.1, §4.1): the opener must be `---` at offset 0; the closer is
the first later line that is `---` (trailing blanks
tolerated). Lines that merely start with `---` (`----`, `--- x`) are recognised as delimiters so that
the rest of the file can still be analysed, and reported as SK007.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from wave_lsp.core.parsing.text import LONE_CR, LineIndex, Span, line_index

BOM = "\ufeff"
_CLEAN_DELIMITER = re.compile(r"---[ \t]*")
_LOOSE_DELIMITER = re.compile(r"---.*")


@dataclass(slots=True)
class DecodeResult:
    """A file's bytes as text, with its byte-order mark and first invalid byte."""

    text: str
    bom: bool = False
    #: byte offset of the first byte that is not valid UTF-8, if any
    invalid_byte_offset: int | None = None
    #: text offset where that byte was replaced by U+FFFD
    invalid_text_offset: int | None = None


def decode(data: bytes) -> DecodeResult:
    """Decode UTF-8, replacing invalid bytes so that the rest can still be analysed."""
    try:
        text = data.decode("utf-8")
        bad_byte = bad_text = None
    except UnicodeDecodeError as error:
        bad_byte = error.start
        text = data.decode("utf-8", errors="replace")
        bad_text = len(data[:bad_byte].decode("utf-8", errors="replace"))
    result = DecodeResult(text=text, invalid_byte_offset=bad_byte, invalid_text_offset=bad_text)
    return strip_bom(result)


def strip_bom(result: DecodeResult) -> DecodeResult:
    """Remove a leading U+FEFF: editors do not count it, so neither do our positions."""
    if result.text.startswith(BOM):
        result.text = result.text[1:]
        result.bom = True
        if result.invalid_text_offset is not None:
            result.invalid_text_offset = max(0, result.invalid_text_offset - 1)
    return result


@dataclass(slots=True)
class Delimiter:
    """A frontmatter delimiter line (`---` or a near miss)."""

    line: int
    span: Span  #: the delimiter line's characters
    exact: bool  #: the line is exactly `---`


@dataclass(slots=True)
class SkillSource:
    """A SKILL.md text split into frontmatter and body."""

    text: str
    lines: LineIndex
    bom: bool = False
    opener: Delimiter | None = None
    closer: Delimiter | None = None
    #: blank lines before an opener (SK005: the runtimes do not see a frontmatter)
    leading_blank_lines: int = 0
    #: the YAML text between the delimiters and where it starts in `text`
    frontmatter: str | None = None
    frontmatter_offset: int = 0
    body: str = ""
    body_offset: int = 0
    #: `---` found inside the frontmatter text before the closer (SK008)
    inner_dashes: list[Span] = field(default_factory=list)


def split(text: str, *, bom: bool = False) -> SkillSource:
    """Split a SKILL.md text into frontmatter and body."""
    lines = line_index(text)
    source = SkillSource(text=text, lines=lines, bom=bom, body=text)
    first = _first_content_line(lines)
    if first is None:
        return source
    opener = _delimiter_at(lines, first)
    if opener is None:
        return source
    source.leading_blank_lines = first
    source.opener = opener
    closer = _find_closer(lines, first + 1)
    if closer is None:
        return source
    source.closer = closer
    start = lines.line_start(first + 1) if first + 1 < lines.line_count else len(text)
    end = lines.line_start(closer.line)
    source.frontmatter = text[start:end] if end > start else ""
    source.frontmatter_offset = start
    body_start = lines.line_start(closer.line + 1) if closer.line + 1 < lines.line_count else len(text)
    source.body = text[body_start:]
    source.body_offset = body_start
    source.inner_dashes = [
        Span(start + m.start(), start + m.end()) for m in re.finditer("---", source.frontmatter)
    ]
    return source


_CLEAN_CLOSER = re.compile(r"^---[ \t]*\r?$", re.M)


def quick_frontmatter(text: str) -> str | None:
    """`split(text).frontmatter` for the usual shape, found without indexing the lines: the text
    starts with `---`, its lines end with `\n` or `\r\n` (no lone `\r`) and a later line is a clean
    closer. None when the text is not of that shape (`split` then decides; it may find no
    frontmatter, or a loose closer)."""
    if not text.startswith("---"):
        return None
    start = text.find("\n") + 1
    if start == 0 or ("\r" in text and LONE_CR.search(text)):
        return None
    closer = _CLEAN_CLOSER.search(text, start)
    return None if closer is None else text[start:closer.start()]



def _first_content_line(lines: LineIndex) -> int | None:
    for line in range(lines.line_count):
        if lines.line_text(line).strip():
            return line
    return None


def _delimiter_at(lines: LineIndex, line: int) -> Delimiter | None:
    content = lines.line_text(line)
    stripped = content.lstrip(" \t")
    if not stripped.startswith("---"):
        return None
    exact = content == "---"
    return Delimiter(line=line, span=lines.span_of_line(line), exact=exact)


def _find_closer(lines: LineIndex, first: int) -> Delimiter | None:
    """The first later line that is `---` (blanks after it allowed), else the first `---…` line."""
    loose: Delimiter | None = None
    for line in range(first, lines.line_count):
        content = lines.line_text(line)
        if _CLEAN_DELIMITER.fullmatch(content):
            return Delimiter(line=line, span=lines.span_of_line(line), exact=content == "---")
        if loose is None and _LOOSE_DELIMITER.fullmatch(content):
            loose = Delimiter(line=line, span=lines.span_of_line(line), exact=False)
    return loose
