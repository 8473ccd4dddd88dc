"""Reading a SKILL.md: bytes to text, and text to frontmatter and body with exact offsets.

Implements docs/design/rules.md *File and delimiters*: the decoding (SK003, SK004) and the delimiter
grammar that SK005-SK008 report on. The split follows what the runtimes do
(docs/design/runtime-facts.md §2.3, §3.1, §4.1): the opener must be `---` at offset 0; the closer is
the first later line that is `---` (trailing blanks
tolerated). Lines that merely start with `---` (`----`, `--- x`) are recognised as delimiters so that
the rest of the file can still be analysed, and reported as SK007.

That split is wave-lsp's own, for positions. Where each runtime ends the frontmatter and starts the
body is a fact of its profile (`ClosingRule`, runtime-facts.md §12), and `cut_as` is the one
function that applies such a rule to a split text: `wave_lsp.core.facts.reads` asks it for the
fields and the body the runtime reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from wave_lsp.core.parsing.injections import JS_SPACE
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


# -- each runtime's cut (docs/design/runtime-facts.md §12) ---------------------------------------

#: which line after the opener ends a runtime's frontmatter: "clean-line", the first that is `---`
#: followed only by spaces or tabs (wave-lsp's own closer; Copilot CLI); "trimmed-line", the first
#: that is `---` once trimmed at both ends (Codex's `line.trim() == "---"`); "dashes-line", the
#: first that starts with `---` (the `\n---` of Wave's and Gemini CLI's regular expressions and of
#: gray-matter); "dashes-anywhere", the first `---` anywhere after the opener, even mid-line (Claude
#: Code's lazy `/^---\s*\n([\s\S]*?)---\s*\n?/`, anchored at offset 0)
FieldsEnd = Literal["clean-line", "trimmed-line", "dashes-line", "dashes-anywhere"]
#: where the body starts: "next-line", the line after the closing line; "after-dashes", right after
#: its three dashes, less one `\r` and then one `\n` (gray-matter: `----` leaves `-`);
#: "after-blanks", after the dashes and all the white space that follows (Claude Code's `\s*\n?`);
#: "next-line-if-bare", the next line when the closing line is `---` and a line break, else no body
#: at all (Gemini CLI's `---(?:\r?\n([\s\S]*))?`); "after-bare-line-else-file", after the first
#: line that is `---` and a line break, else the whole file, frontmatter included (Wave's body
#: regex `/^---\r?\n[\s\S]*?\r?\n---\r?\n([\s\S]*)$/`)
BodyStart = Literal["next-line", "after-dashes", "after-blanks", "next-line-if-bare",
                    "after-bare-line-else-file"]


@dataclass(frozen=True, slots=True)
class ClosingRule:
    """How one runtime ends the frontmatter and where its body starts (a profile fact)."""

    fields_end: FieldsEnd = "clean-line"
    body_start: BodyStart = "next-line"


@dataclass(frozen=True, slots=True)
class Cut:
    """Where a runtime's frontmatter text lies in the file, and where its body starts."""

    frontmatter_offset: int
    frontmatter_end: int
    body_offset: int
    closer_line: int | None = None  #: the closing line (None: Claude Code's mid-line `---`)


#: wave-lsp's own closer: a line of `---` and blanks, the body from the next line
LINE_CLOSER = ClosingRule()
#: Claude Code's `FRONTMATTER_REGEX` (JavaScript's `\s`)
CLAUDE_CODE_FRONTMATTER = re.compile(rf"---[{JS_SPACE}]*\n([\s\S]*?)---[{JS_SPACE}]*\n?")
_BARE_CLOSER = re.compile(r"---\r?\n")


def own_cut(source: SkillSource) -> Cut | None:
    """wave-lsp's own split as a `Cut` (None: no frontmatter, or never closed)."""
    if source.frontmatter is None or source.closer is None:
        return None
    start = source.frontmatter_offset
    return Cut(start, start + len(source.frontmatter), source.body_offset, source.closer.line)


def cut_as(source: SkillSource, rule: ClosingRule) -> Cut | None:
    """Where the runtime whose closing rule is `rule` ends the frontmatter of `source`, and where
    its body starts; None when it finds no frontmatter or no closing line (for it the
    frontmatter is never closed)."""
    text = source.text
    if rule.fields_end == "dashes-anywhere":
        found = CLAUDE_CODE_FRONTMATTER.match(text) if text.find("---", 3) >= 0 else None
        return None if found is None else Cut(found.start(1), found.end(1), found.end())
    opener = source.opener
    if opener is None:
        return None
    if rule == LINE_CLOSER and source.closer is not None \
            and _CLEAN_DELIMITER.fullmatch(source.lines.line_text(source.closer.line)):
        return own_cut(source)  # the usual file: wave-lsp's own closer is this rule's
    lines = source.lines
    closer = _closing_line(lines, opener.line + 1, rule.fields_end)
    if closer is None:
        return None
    start = lines.line_start(opener.line + 1) if opener.line + 1 < lines.line_count else len(text)
    end = max(start, lines.line_start(closer))
    return Cut(start, end, _body_start(lines, opener.line, closer, rule.body_start), closer)


#: whether a line (without its line break) ends the fields, by `FieldsEnd`
_CLOSES: dict[str, Callable[[str], bool]] = {
    "clean-line": lambda content: _CLEAN_DELIMITER.fullmatch(content) is not None,
    "trimmed-line": lambda content: content.strip() == "---",
    "dashes-line": lambda content: content.startswith("---"),
}


def _closing_line(lines: LineIndex, first: int, fields_end: FieldsEnd) -> int | None:
    closes = _CLOSES[fields_end]
    for line in range(first, lines.line_count):
        if closes(lines.line_text(line)):
            return line
    return None


def _next_line(lines: LineIndex, line: int) -> int:
    return lines.line_start(line + 1) if line + 1 < lines.line_count else len(lines.text)


def _body_start(lines: LineIndex, opener: int, closer: int, body_start: BodyStart) -> int:
    text = lines.text
    dashes = lines.line_start(closer) + 3
    if body_start == "after-dashes":
        dashes += text.startswith("\r", dashes)
        return dashes + text.startswith("\n", dashes)
    if body_start == "next-line-if-bare":
        found = _BARE_CLOSER.match(text, dashes - 3)
        return found.end() if found else len(text)
    if body_start == "after-bare-line-else-file":
        for line in range(opener + 1, lines.line_count):
            start = lines.line_start(line)
            if (found := _BARE_CLOSER.match(text, start)) and lines.line_end(line) == start + 3:
                return found.end()
        return 0
    return _next_line(lines, closer)
