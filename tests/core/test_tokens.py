"""Semantic tokens of the pure core (`wave_lsp.core.features.tokens`): kinds, modifiers and exact
spans of injections, `${…}` and argument placeholders, per target — table-driven, in document
offsets, one line per token, never overlapping."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.features.tokens import Token, semantic_tokens
from wave_lsp.core.parsing.text import Span

HEAD = "---\nname: x\ndescription: D. Use when asked.\narguments: [issue]\n---\n"
PATH = Path("/project/.wave/skills/x/SKILL.md")


def tokens(text: str, target: str = "wave", within: Span | None = None) -> list[Token]:
    return semantic_tokens(FeatureContext.for_text(text, PATH, Settings.for_target(target)), within)


def shown(text: str, found: list[Token]) -> list[tuple[str, str, str]]:
    """Each token as (its text, its kind, its modifiers joined)."""
    return [(text[t.span.start:t.span.end], t.kind, ",".join(sorted(t.modifiers))) for t in found]


@pytest.mark.parametrize(("target", "body", "expected"), [
    ("wave", "Read ${WAVE_SKILL_DIR}/a and ${CLAUDE_SESSION_ID}.\n",
     [("${WAVE_SKILL_DIR}", "variable", "builtin,readonly"),
      ("${CLAUDE_SESSION_ID}", "variable", "builtin,readonly")]),
    # what the target leaves literal gets no token
    ("wave", "${NOPE} ${CLAUDE_PROJECT_DIR} ${WAVE_ARGUMENTS_FILE} $HOME $name\n", []),
    ("claude-code", "${NOPE} \\$1 $HOME $name\n", []),
    # Wave has no escape: `\\$1` is substituted (the backslash stays before the word)
    ("wave", "costs \\$1\n", [("$1", "argument", "builtin")]),
    ("claude-code", "${WAVE_SKILL_DIR} ${CLAUDE_PROJECT_DIR} ${user_config.key}\n",
     [("${CLAUDE_PROJECT_DIR}", "variable", "builtin,readonly"),
      ("${user_config.key}", "variable", "readonly")]),
    ("claude-code", "Fix $1, $ARGUMENTS[2], $issue and $ARGUMENTS.\n",
     [("$1", "argument", "builtin"), ("$ARGUMENTS[2]", "argument", "builtin"),
      ("$issue", "argument", ""), ("$ARGUMENTS", "argument", "builtin")]),
    # Wave: no `$ARGUMENTS[N]` (its `$ARGUMENTS` is everything, `[2]` text) and no names
    ("wave", "Fix $1, $ARGUMENTS[2], $issue and $ARGUMENTS.\n",
     [("$1", "argument", "builtin"), ("$ARGUMENTS", "argument", "builtin"),
      ("$ARGUMENTS", "argument", "builtin")]),
    ("wave", "Now: !`date -u`\n",
     [("!`", "marker", ""), ("date -u", "command", ""), ("`", "marker", "")]),
    # a block: the fences are markers, each command line its own token
    ("wave", "```!\ngit status\ngit log -1\n```\n",
     [("```!", "marker", ""), ("git status", "command", ""), ("git log -1", "command", ""),
      ("```", "marker", "")]),
    # a placeholder cuts the command; arguments count only where the target splices them
    ("wave", "!`cat ${WAVE_ARGUMENTS_FILE} $1`\n",
     [("!`", "marker", ""), ("cat ", "command", ""),
      ("${WAVE_ARGUMENTS_FILE}", "variable", "builtin,readonly"), (" $1", "command", ""),
      ("`", "marker", "")]),
    ("claude-code", "!`echo $0 ${CLAUDE_SKILL_DIR}`\n",
     [("!`", "marker", ""), ("echo ", "command", ""), ("$0", "argument", "builtin"),
      (" ", "command", ""), ("${CLAUDE_SKILL_DIR}", "variable", "builtin,readonly"),
      ("`", "marker", "")]),
    # an inline injection inside a block is the block's text
    ("wave", "```!\necho !`x`\n```\n",
     [("```!", "marker", ""), ("echo !`x`", "command", ""), ("```", "marker", "")]),
])
def test_tokens(target: str, body: str, expected: list[tuple[str, str, str]]) -> None:
    text = HEAD + body
    assert shown(text, tokens(text, target)) == expected


def test_frontmatter_has_no_tokens() -> None:
    text = "---\nname: x\ndescription: $1 ${WAVE_SKILL_DIR} !`ls`\n---\nBody\n"
    assert tokens(text) == []


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_spans_are_exact_after_non_ascii_and_tabs_and_never_cross_a_line(newline: str) -> None:
    # the block's command is trimmed: its leading tab is no part of the token
    body = ("中文😀\t${WAVE_SKILL_DIR}\t$1" + newline + "```!" + newline + "\tls 😀" + newline
            + "pwd" + newline + "```" + newline)
    text = HEAD.replace("\n", newline) + body
    found = tokens(text)
    starts = [text.index("${WAVE"), text.index("$1"), text.index("```!"), text.index("ls 😀"),
              text.index("pwd"), text.rindex("```")]
    ends = [starts[0] + len("${WAVE_SKILL_DIR}"), starts[1] + 2, starts[2] + 4,
            starts[3] + len("ls 😀"), starts[4] + 3, starts[5] + 3]
    assert [(t.span.start, t.span.end) for t in found] == list(zip(starts, ends, strict=True))
    for token in found:
        assert "\n" not in text[token.span.start:token.span.end]
        assert "\r" not in text[token.span.start:token.span.end]
    assert all(a.span.end <= b.span.start for a, b in pairwise(found))


def test_range_keeps_the_tokens_it_overlaps() -> None:
    text = HEAD + "A $1\nB ${WAVE_SKILL_DIR} !`ls`\nC $ARGUMENTS\n"
    line = Span(text.index("B "), text.index("\nC"))
    assert [t[0] for t in shown(text, tokens(text, within=line))] == [
        "${WAVE_SKILL_DIR}", "!`", "ls", "`"]
    # a range that starts inside a token still returns it (whole)
    inside = Span(text.index("SKILL_DIR"), text.index("SKILL_DIR") + 1)
    assert [t[0] for t in shown(text, tokens(text, within=inside))] == ["${WAVE_SKILL_DIR}"]


def test_an_inline_command_across_lines_is_cut_per_line() -> None:
    text = HEAD + "Run !`echo a\necho b` now\n"
    assert shown(text, tokens(text)) == [("!`", "marker", ""), ("echo a", "command", ""),
                                         ("echo b", "command", ""), ("`", "marker", "")]


@pytest.mark.timeout(60)  # linear: about a second on a loaded two-core machine
def test_many_tokens_on_one_long_line() -> None:
    unit = "😀 $1 ${WAVE_SKILL_DIR} !`echo ${WAVE_SESSION_ID} x` "
    text = HEAD + unit * 5000 + "\n"
    found = tokens(text)
    assert len(found) == 5000 * 7
    last = found[-1]
    assert (last.kind, last.span.end) == ("marker", len(text) - 2)
