"""The plain versions of the body scans, kept as oracles: the scans in `wave_lsp.core.parsing`
(docs/design/README.md *Scanning a body*) find the same things with regexes that start with a literal
character and skip whole regions, and `test_scan_equality.py` proves the answers equal.

These are the implementations the project shipped before 2026-12-01: a line-by-line Markdown scan,
the reference, placeholder and line-break patterns that start with an optional part or a
look-behind. Slow, but simple enough to read as the definition.
"""

from __future__ import annotations

import re

from wave_lsp.core.parsing.text import Span

# -- the line index ------------------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def line_bounds(text: str) -> tuple[list[int], list[int]]:
    """Where each line starts, and where its characters end (before its terminator)."""
    starts, ends = [0], []
    for match in _LINE_BREAK.finditer(text):
        ends.append(match.start())
        starts.append(match.end())
    ends.append(len(text))
    return starts, ends


# -- the Markdown structure ----------------------------------------------------------------------

_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")

#: (span, content, info, info_span, closed) of a fence; (level, text, span, text_span) of a heading
FenceTuple = tuple[Span, Span, str, Span, bool]
HeadingTuple = tuple[int, str, Span, Span]


def markdown(text: str, body_offset: int) -> tuple[list[FenceTuple], list[Span], list[HeadingTuple]]:
    """Fences, inline code spans and ATX headings of the body, one line at a time."""
    starts, ends = line_bounds(text)
    fences: list[FenceTuple] = []
    spans: list[Span] = []
    headings: list[HeadingTuple] = []
    count = len(starts)
    line = max(i for i, start in enumerate(starts) if start <= body_offset) \
        if body_offset < len(text) else count
    prose_start = starts[line] if line < count else len(text)
    while line < count:
        content = text[starts[line]:ends[line]]
        opener = _FENCE_OPEN.match(content)
        if opener and not (opener.group(2)[0] == "`" and "`" in opener.group(3)):
            spans += _inline_code(text, prose_start, starts[line])
            line = _fence(text, starts, ends, line, opener, fences)
            prose_start = starts[line] if line < count else len(text)
            continue
        heading = _ATX_HEADING.match(content)
        if heading:
            title = heading.group(2) or ""
            title_start = starts[line] + (heading.start(2) if heading.group(2) is not None
                                          else heading.end(1))
            headings.append((len(heading.group(1)), title.strip(), Span(starts[line], ends[line]),
                             Span(title_start, title_start + len(title))))
        line += 1
    spans += _inline_code(text, prose_start, len(text))
    return fences, spans, headings


def _fence(text: str, starts: list[int], ends: list[int], line: int, opener: re.Match[str],
           fences: list[FenceTuple]) -> int:
    marker = opener.group(2)
    closing = re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
    info_start = starts[line] + opener.start(3)
    info = opener.group(3)
    info_span = Span(info_start, info_start + len(info))
    content_start = starts[line + 1] if line + 1 < len(starts) else ends[line]
    for end_line in range(line + 1, len(starts)):
        if closing.match(text[starts[end_line]:ends[end_line]]):
            fences.append((Span(starts[line], ends[end_line]),
                           Span(content_start, starts[end_line]), info.strip(), info_span, True))
            return end_line + 1
    fences.append((Span(starts[line], len(text)), Span(content_start, len(text)), info.strip(),
                   info_span, False))
    return len(starts)


def _inline_code(text: str, start: int, end: int) -> list[Span]:
    """Backtick runs paired with the next run of the same length before a blank line."""
    found: list[Span] = []
    position = start
    while (opener := text.find("`", position, end)) >= 0:
        run = opener
        while run < end and text[run] == "`":
            run += 1
        closer = _closing_run(text, run, end, run - opener)
        if closer is None:
            position = run
            continue
        found.append(Span(run, closer))
        position = closer + run - opener
    return found


def _closing_run(text: str, start: int, end: int, width: int) -> int | None:
    position = start
    while (found := text.find("`", position, end)) >= 0:
        if "\n\n" in text[position:found] or "\r\n\r\n" in text[position:found]:
            return None
        run = found
        while run < end and text[run] == "`":
            run += 1
        if run - found == width:
            return found
        position = run
    return None


# -- references and placeholders -----------------------------------------------------------------

LINK = re.compile(r"!?\[(?:[^\[\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)", re.M)
SKILL_DIR_PATH = re.compile(
    r"(?:\$\{(?:WAVE_SKILL_DIR|CLAUDE_SKILL_DIR)\}|\{baseDir\})/([^\s`'\"()<>\[\]{},;|&]+)")
BARE_PATH = re.compile(r"(?<![\w./$}-])((?:\./)?(?:scripts|references|assets)/[\w./@+-]*[\w@+-])")
ARGUMENT = re.compile(r"(\\)?\$(?:ARGUMENTS\[(\d+)\]|(ARGUMENTS)(?![\w\[])|(\d+)(?!\w)|"
                      r"([A-Za-z_]\w*)(?!\[))")
