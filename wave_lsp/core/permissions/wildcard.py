"""Wildcard permission rules matched in time linear in the rule and the command (issue 35 item 3,
*Bounded everywhere*; the rule grammar: docs/design/runtime-facts.md §3.8).

A wildcard rule's content (`Bash(git * main)`, `Bash(echo *a*a*b)`) is a sequence of literal
pieces separated by unescaped `*`; a star matches any text, new lines included. The escapes are
the ones `toolrules.unescaped_positions` defines: a backslash makes the next character literal
(`\\*` is a star, `\\a` an `a`), a backslash that ends the content is itself literal. A content
whose only star is a trailing ` *` (`Bash(ls *)`) also matches the bare command (`ls`): it is
`ls` alone or `ls ` followed by anything, never `lsof`.

The rule used to be compiled to a regular expression (`.*` per star): with 50 stars and a command
that almost matches, the regex engine backtracks for minutes. Here the pieces are matched the way
a `*`-only glob can be: the first piece must start the command, the last must end it, and every
piece between is searched for leftmost, after the previous one. Taking the leftmost occurrence is
never wrong (any later match of the same piece leaves less room, not more), so nothing is ever
retried: the command is scanned once from left to right. `find` does the searching; with
`str.find` (CPython's two-way / Horspool search) each search is linear in the text it scans for
long texts and at worst a few million C-level comparisons for texts under 2,500 characters
(CPython's `fastsearch` thresholds). Tests pass an instrumented Knuth–Morris–Pratt search
instead and count its steps (tests/core/test_wildcard.py).

The `:*` prefix form (`Bash(git log:*)`) and exact rules are not wildcards: `rules._matcher`
decides the kind and handles those two itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

#: `find(text, piece, start, end)`: the lowest index >= start where `piece` occurs in
#: `text[start:end]`, or -1 (the signature of `str.find`)
Find = Callable[[str, str, int, int], int]


@dataclass(frozen=True, slots=True)
class Wildcard:
    """A wildcard rule's content, parsed: the literal pieces around its unescaped stars."""

    #: the literal text between stars (one more piece than stars; empty pieces kept)
    pieces: tuple[str, ...]
    #: the content's only star is a trailing ` *`: `pieces[0]` alone or followed by a space
    optional_tail: bool = False


def parse_wildcard(content: str) -> Wildcard:
    """The pieces of a rule's content (as `parse_rule` left it: `\\(`, `\\)`, `\\\\` resolved)."""
    optional_tail = content.endswith(" *") and _star_count(content) == 1
    body = content[:-2] if optional_tail else content
    pieces: list[str] = []
    current: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            current.append(body[index + 1])
            index += 2
            continue
        if char == "*":
            pieces.append("".join(current))
            current = []
        else:
            current.append(char)
        index += 1
    pieces.append("".join(current))
    return Wildcard(tuple(pieces), optional_tail)


def _star_count(content: str) -> int:
    """How many stars of `content` are not escaped (`toolrules.unescaped_positions` semantics)."""
    count, escaped = 0, False
    for char in content:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "*":
            count += 1
    return count


def matches(pattern: Wildcard, text: str, find: Find = str.find) -> bool:
    """Whether `text` matches the whole pattern; one left-to-right pass over `text`."""
    pieces = pattern.pieces
    head = pieces[0]
    if pattern.optional_tail:
        return text == head or text.startswith(head + " ")
    if len(pieces) == 1:
        return text == head
    tail = pieces[-1]
    if len(head) + len(tail) > len(text) or not text.startswith(head) or not text.endswith(tail):
        return False
    position, end = len(head), len(text) - len(tail)
    for piece in pieces[1:-1]:
        found = find(text, piece, position, end)
        if found < 0:
            return False
        position = found + len(piece)
    return True


@lru_cache(maxsize=1024)
def wildcard_matcher(content: str) -> Callable[[str], bool]:
    """The test of one wildcard rule's content against a command (parsed once per content)."""
    pattern = parse_wildcard(content)
    return lambda command: matches(pattern, command)
