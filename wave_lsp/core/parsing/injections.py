"""Shell injections in a SKILL.md body (docs/design/runtime-facts.md §3.7 and §8.7).

Exactly Claude Code's patterns, which Wave adopts (docs/design/runtime-facts.md §8.7): a block is ```` ```!
```` up to the next
```` ``` ```` (`/```!\\s*\\n?([\\s\\S]*?)\\n?```/`), an inline injection is `` !`cmd` `` where the `!`
stands at the start of a line or after white space (`/(?<=^|\\s)!`([^`]+)`/m`), so `` `#REF!` ``,
`format!` and `KEY=!`x`` are text. Patterns run over the raw body, code fences included. The
command is the captured text, trimmed; an empty command is skipped by the runtimes.

OpenCode (docs/design/runtime-facts.md §9.7) has one pattern only, `` /!`([^`]+)`/g `` over the
whole template: no look-behind (so `` format!`x` `` is a command), no ```` ```! ```` blocks, no
code-span rule (`find_unanchored_injections`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from wave_lsp.core.parsing.text import Span

#: JavaScript's white space and line terminators: what `\s` matches and `String.prototype.trim`
#: removes (ECMA-262 WhiteSpace + LineTerminator; the runtimes' patterns are JavaScript). Unlike
#: Python's `\s` it includes U+FEFF and excludes U+001C–U+001F and U+0085, so an injection after
#: a byte-order mark is still found. The one definition, for every module that models a
#: JavaScript runtime's pattern or `trim()`
JS_SPACE_TEXT = ("\t\n\v\f\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
                 + "\u2028\u2029\u202f\u205f\u3000\ufeff")
#: the same, as the inside of a regular expression's character class (`[{JS_SPACE}]`)
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
BLOCK_PATTERN = re.compile(rf"```![{JS_SPACE}]*\n?([\s\S]*?)\n?```")
INLINE_PATTERN = re.compile(rf"(?<![^{JS_SPACE}])!`([^`]+)`", re.M)
#: `!`x`` right after a non-space character: not an injection in current runtimes (SK122)
AFTER_WORD_PATTERN = re.compile(rf"(?<=[^{JS_SPACE}])!`([^`]+)`")
BLOCK_OPENER = re.compile(r"```!")
#: `!`x`` wherever it stands; `_inline_matches` then looks at the character before it, which is
#: what the two patterns above decide with a look-behind (a pattern that starts with a
#: look-behind is tried at every offset; one that starts with `!` is found by a fast scan)
_INLINE_CANDIDATE = re.compile(r"!`([^`]+)`")
#: the characters of `JS_SPACE`, for a membership test
JS_SPACE_CHARACTERS = frozenset(JS_SPACE_TEXT)


@dataclass(frozen=True, slots=True)
class Injection:
    kind: str  #: "inline" or "block"
    pattern: str  #: the matched text, markers included (what error messages quote)
    command: str  #: trimmed
    span: Span  #: the whole match, in document offsets
    command_span: Span  #: the trimmed command

    @property
    def empty(self) -> bool:
        return not self.command


@dataclass(frozen=True, slots=True)
class Injections:
    items: tuple[Injection, ...]
    unclosed: tuple[Span, ...]  #: ```` ```! ```` openers that no closing fence ends
    after_word: tuple[Span, ...]  #: `!`x`` glued to a word (not injections)


def find_injections(text: str, start: int = 0, *, skip_code_spans: bool = False) -> Injections:
    """Injections of `text[start:]` (the body), in document order. `skip_code_spans`: inline
    injections are looked for in the text with its single-backtick code spans blanked
    (`mask_code_spans`), as Claude Code 2.1.332 does; blocks are found either way."""
    return _find(text, start, skip_code_spans)


#: a single-backtick code span on one line (Claude Code's `` /`[^`\n]+`/g ``)
CODE_SPAN = re.compile(r"`[^`\n]+`")


def mask_code_spans(text: str) -> str:
    """`text` with the inside of each code span replaced by spaces (same length), unless the span
    follows `!` or a backtick (`` !`cmd` `` itself, a double-backtick span's inner half): what
    Claude Code 2.1.332 scans for inline injections, so `` `see !`x` here` `` runs nothing."""
    def blank(match: re.Match[str]) -> str:
        before = text[match.start() - 1] if match.start() > 0 else ""
        if before in ("!", "`"):
            return match.group(0)
        return "`" + " " * (len(match.group(0)) - 2) + "`"

    return CODE_SPAN.sub(blank, text) if "`" in text else text


@lru_cache(maxsize=64)
def _find(text: str, start: int, skip_code_spans: bool = False) -> Injections:
    found: list[Injection] = []
    taken: list[Span] = []
    for match in BLOCK_PATTERN.finditer(text, start):
        found.append(_injection("block", match))
        taken.append(Span(match.start(), match.end()))
    scanned = mask_code_spans(text) if skip_code_spans and "!`" in text else text
    for match in _inline_matches(scanned, start, after_word=False):
        found.append(_injection("inline", _Original(match, text)))
    unclosed = tuple(Span(m.start(), m.end()) for m in BLOCK_OPENER.finditer(text, start)
                     if not any(s.start <= m.start() < s.end for s in taken))
    after_word = tuple(Span(m.start(), m.end())
                       for m in _inline_matches(text, start, after_word=True)
                       if not any(s.start <= m.start() < s.end for s in taken))
    found.sort(key=lambda item: item.span.start)
    return Injections(tuple(found), unclosed, after_word)


@lru_cache(maxsize=64)
def find_unanchored_injections(text: str, start: int = 0) -> tuple[Injection, ...]:
    """Every `` !`cmd` `` of `text[start:]` wherever it stands, as OpenCode's `` /!`([^`]+)`/g ``
    finds them (left to right, without overlap), in document order."""
    return tuple(_injection("inline", match) for match in _INLINE_CANDIDATE.finditer(text, start))


def injections_as_read(text: str, start: int = 0, *, needs_lookbehind: bool = True,
                       skip_code_spans: bool = False) -> tuple[Injection, ...]:
    """The injections of `text[start:]` as a runtime finds them, given its facts
    (`RuntimeProfile.injection_needs_lookbehind`, `skips_injections_in_code_spans`): OpenCode's
    unanchored pattern, or Claude Code's and Wave's."""
    if not needs_lookbehind:
        return find_unanchored_injections(text, start)
    return find_injections(text, start, skip_code_spans=skip_code_spans).items


def _inline_matches(text: str, start: int, *, after_word: bool) -> Iterator[re.Match[str]]:
    """The matches `INLINE_PATTERN.finditer(text, start)` yields (`after_word`: those of
    `AFTER_WORD_PATTERN`), found by scanning for `!`` and looking at the character before it: a
    rejected candidate is skipped by one character, as the regular expression engine does, so a
    later `!`` inside it can still match."""
    position = start
    while (match := _INLINE_CANDIDATE.search(text, position)) is not None:
        at = match.start()
        after_space = at == 0 or text[at - 1] in JS_SPACE_CHARACTERS
        if after_space != after_word:
            yield match
            position = match.end()
        else:
            position = at + 1


class _Original:
    """A match in the masked text, read from the original one (the two have the same length)."""

    def __init__(self, match: re.Match[str], text: str) -> None:
        self._match, self._text = match, text

    def start(self, group: int = 0) -> int:
        return self._match.start(group)

    def end(self, group: int = 0) -> int:
        return self._match.end(group)

    def group(self, group: int = 0) -> str:
        return self._text[self._match.start(group) : self._match.end(group)]


def _injection(kind: str, match: re.Match[str] | _Original) -> Injection:
    raw = match.group(1)
    leading = len(raw) - len(raw.lstrip())
    command = raw.strip()
    command_start = match.start(1) + leading
    return Injection(kind, match.group(0), command, Span(match.start(), match.end()),
                     Span(command_start, command_start + len(command)))


class CommandSpans:
    """Whether an offset lies inside an injected command, in O(log n) (the command spans merged:
    an inline injection may sit inside a block's command)."""

    def __init__(self, injections: Iterable[Injection]) -> None:
        merged: list[list[int]] = []
        for span in sorted(injection.command_span for injection in injections):
            if merged and span.start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], span.end)
            elif span.end > span.start:
                merged.append([span.start, span.end])
        self._starts = [start for start, _ in merged]
        self._ends = [end for _, end in merged]

    def __contains__(self, offset: int) -> bool:
        index = bisect.bisect_right(self._starts, offset) - 1
        return index >= 0 and offset < self._ends[index]
