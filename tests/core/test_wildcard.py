"""Wildcard permission rules (wave_lsp/core/permissions/wildcard.py): the same answers as the regular
expression they replace, in a number of steps linear in rule and command (issue 35 item 3)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from wave_lsp.core.facts.toolrules import unescaped_positions
from wave_lsp.core.permissions.rules import make_rule
from wave_lsp.core.permissions.wildcard import Wildcard, matches, parse_wildcard


def reference(content: str) -> re.Pattern[str]:
    """The regular expression wave-lsp compiled a wildcard rule to before issue 35 (kept here
    only as the reference semantics: it backtracks exponentially on many stars)."""
    stars = unescaped_positions(content, "*")
    optional_tail = content.endswith(" *") and len(stars) == 1
    body = content[:-2] if optional_tail else content
    pattern, index = [], 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            pattern.append(re.escape(body[index + 1]))
            index += 2
            continue
        pattern.append(".*" if char == "*" else re.escape(char))
        index += 1
    return re.compile("".join(pattern) + ("( .*)?" if optional_tail else ""), re.S)


class CountingSearch:
    """A Knuth–Morris–Pratt `find` that counts its steps (character comparisons and failure-table
    moves): the matcher's work, measured without a clock."""

    def __init__(self) -> None:
        self.steps = 0

    def __call__(self, text: str, piece: str, start: int, end: int) -> int:
        if not piece:
            return start if start <= end else -1
        failure = self._failure(piece)
        matched = 0
        for index in range(start, end):
            self.steps += 1
            while matched and text[index] != piece[matched]:
                self.steps += 1
                matched = failure[matched - 1]
            if text[index] == piece[matched]:
                matched += 1
                if matched == len(piece):
                    return index - len(piece) + 1
        return -1

    def _failure(self, piece: str) -> list[int]:
        failure, length = [0] * len(piece), 0
        for index in range(1, len(piece)):
            self.steps += 1
            while length and piece[index] != piece[length]:
                self.steps += 1
                length = failure[length - 1]
            if piece[index] == piece[length]:
                length += 1
            failure[index] = length
        return failure


def counted(content: str, command: str) -> tuple[bool, int]:
    """(answer, steps): steps = the KMP searches' steps plus the characters the first and last
    pieces are compared with."""
    search = CountingSearch()
    pattern = parse_wildcard(content)
    answer = matches(pattern, command, search)
    return answer, search.steps + len(pattern.pieces[0]) + len(pattern.pieces[-1])


PARSE_CASES = [
    ("ls *", Wildcard(("ls",), optional_tail=True)),
    ("ls*", Wildcard(("ls", ""))),
    ("git * main", Wildcard(("git ", " main"))),
    ("a * b *", Wildcard(("a ", " b ", ""))),  # two stars: the trailing ` *` is a plain star
    ("echo a\\*b*", Wildcard(("echo a*b", ""))),  # an escaped star is literal
    ("x\\yz*", Wildcard(("xyz", ""))),  # a backslash makes any character literal
    ("end\\", Wildcard(("end\\",))),  # a backslash that ends the content is literal
    ("x\\ *", Wildcard(("x\\",), optional_tail=True)),
    ("**", Wildcard(("", "", ""))),
]


@pytest.mark.parametrize(("content", "expected"), PARSE_CASES)
def test_parse(content: str, expected: Wildcard) -> None:
    assert parse_wildcard(content) == expected


MATCH_CASES = [
    ("ls *", "ls", True),
    ("ls *", "ls -la", True),
    ("ls *", "lsof", False),
    ("ls*", "lsof", True),
    ("git * main", "git push origin main", True),
    ("git * main", "git  main", True),
    ("git * main", "git main", False),
    ("git * main", "git push origin dev", False),
    ("a*a", "a", False),  # the two pieces may not overlap
    ("a*a", "aa", True),
    ("*ab*ab*", "xabab", True),
    ("*ab*ab*", "xaba", False),
    ("echo *", "echo a\nb", True),  # a star matches new lines
    ("echo a\\*b *", "echo a*b c", True),
    ("echo a\\*b *", "echo axb c", False),
]


@pytest.mark.parametrize(("content", "command", "expected"), MATCH_CASES)
def test_matches(content: str, command: str, expected: bool) -> None:
    assert matches(parse_wildcard(content), command) is expected
    assert (reference(content).fullmatch(command) is not None) is expected


FIFTY_STARS = "echo " + "*a" * 50 + "*b"


@pytest.mark.parametrize(("command", "expected"), [
    ("echo " + "a" * 10_000, False),  # the regex took minutes on 60 characters
    ("echo " + "a" * 10_000 + "b", True),
    ("echo " + "a" * 49 + "b", False),
    ("echo " + "xa" * 50 + "yb", True),
])
def test_fifty_stars_answer(command: str, expected: bool) -> None:
    """A pathological rule answers (a hang fails the test's timeout), through the rule API too."""
    assert matches(parse_wildcard(FIFTY_STARS), command) is expected
    assert make_rule(f"Bash({FIFTY_STARS})", "allow", "user settings").matches(command) is expected
    answer, steps = counted(FIFTY_STARS, command)
    assert answer is expected
    assert steps <= 4 * (len(FIFTY_STARS) + len(command))


CHARACTERS = st.sampled_from("ab *\\\n")


@settings(max_examples=600, deadline=None)
@given(st.text(CHARACTERS, max_size=12), st.text(st.sampled_from("ab *\\\n"), max_size=14))
@example("ls *", "ls")
@example("x\\ *", "x\\ y")
@example("a\\", "a\\")
@example("*a\\*", "ba*")
def test_same_answer_as_the_regex(content: str, command: str) -> None:
    assert matches(parse_wildcard(content), command) is (
        reference(content).fullmatch(command) is not None)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from("ab*"), max_size=80), st.text(st.sampled_from("ab"), max_size=400))
@example("*a" * 40 + "*b", "a" * 400)
@example("*" + "a" * 40 + "b*", "a" * 400)
@example("*" + "ab" * 20 + "*" + "ab" * 20 + "*", "ab" * 199 + "b")
def test_steps_are_linear_in_rule_and_command(content: str, command: str) -> None:
    """Steps counted by an instrumented search, not time: at most 4 per character of rule and
    command, whatever the stars; and the same answer as `str.find`'s."""
    answer, steps = counted(content, command)
    assert answer is matches(parse_wildcard(content), command)
    assert steps <= 4 * (len(content) + len(command)) + 4
