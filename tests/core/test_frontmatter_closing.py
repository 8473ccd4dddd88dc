"""Where each runtime ends the frontmatter and starts the body (`RuntimeProfile.frontmatter_closing`,
`source.cut_as`; docs/design/runtime-facts.md §12), fact by fact, as the differential harness saw
it (tests/oracle/cases fm-closing-dashes, fm-unclosed: Wave 469391bb, Codex 0.171.0, Gemini CLI
0.61.0, OpenCode 1.18.33, Copilot CLI 1.0.102, Claude Code 2.1.332), and what `check` says."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wave_lsp.core.checking.checker import FileReport, check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.facts.profiles import PROFILES
from wave_lsp.core.facts.reads import read_as
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.source import ClosingRule, cut_as, split

FOUR = "---\nname: four-dashes\ndescription: Closed by four dashes.\n----\nThe body.\n"
SPACED = "---\nname: spaced\ndescription: d\n---  \nThe body.\n"
WORD = "---\nname: worded\ndescription: d\n--- x\nThe body.\n"
PLAIN = "---\nname: plain\ndescription: d\n---\n\nThe body.\n"
INDENTED = "---\nname: indented\ndescription: d\n  ---\nThe body.\n"
LATER = "---\nname: later\ndescription: d\n----\nOne.\n---\nTwo.\n"
NO_NEWLINE = "---\nname: last\ndescription: d\n---"

def _check(text: str, target: str, code: str) -> tuple[FileReport, Finding]:
    """`check` of `text` as a project skill under `target`, and its one finding `code`."""
    root = ".claude/skills" if target == "claude-code" else ".agents/skills"  # where it looks
    path = Path(f"/nowhere/project/{root}/skill/SKILL.md")
    report = check_file(path, Settings(profile=PROFILES[target], home=Path("/nowhere/home")),
                        text=text)
    (finding,) = [f for f in report.findings if f.code == code]
    return report, finding


CLEAN = ClosingRule()
TRIMMED = ClosingRule("trimmed-line")
GRAY_MATTER = ClosingRule("dashes-line", "after-dashes")
GEMINI = ClosingRule("dashes-line", "next-line-if-bare")
WAVE_BODY = ClosingRule("dashes-line", "after-bare-line-else-file")
CLAUDE = ClosingRule("dashes-anywhere", "after-blanks")


@pytest.mark.parametrize(("text", "rule", "body"), [
    # a line of `---` alone: every rule agrees (Claude Code's skips the blank line too)
    (PLAIN, CLEAN, "\nThe body.\n"),
    (PLAIN, TRIMMED, "\nThe body.\n"),
    (PLAIN, GRAY_MATTER, "\nThe body.\n"),
    (PLAIN, GEMINI, "\nThe body.\n"),
    (PLAIN, WAVE_BODY, "\nThe body.\n"),
    (PLAIN, CLAUDE, "The body.\n"),
    # `----`: unclosed for Codex and Copilot CLI; gray-matter's body starts with the fourth `-`;
    # Gemini CLI sends no body; Wave the whole file
    (FOUR, CLEAN, None),
    (FOUR, TRIMMED, None),
    (FOUR, GRAY_MATTER, "-\nThe body.\n"),
    (FOUR, GEMINI, ""),
    (FOUR, WAVE_BODY, FOUR),
    (FOUR, CLAUDE, "-\nThe body.\n"),
    # `---` and blanks: a closing line for Copilot CLI and Codex; Gemini CLI and Wave need it bare
    (SPACED, CLEAN, "The body.\n"),
    (SPACED, TRIMMED, "The body.\n"),
    (SPACED, GRAY_MATTER, "  \nThe body.\n"),
    (SPACED, GEMINI, ""),
    (SPACED, WAVE_BODY, SPACED),
    (WORD, CLEAN, None),
    (WORD, GRAY_MATTER, " x\nThe body.\n"),
    (WORD, CLAUDE, "x\nThe body.\n"),
    # an indented `---`: Codex trims the line (`line.trim() == "---"`); the others do not close
    (INDENTED, TRIMMED, "The body.\n"),
    (INDENTED, CLEAN, None),
    (INDENTED, GEMINI, None),
    # Wave's body regex takes the first line of `---` alone, even in the body
    (LATER, WAVE_BODY, "Two.\n"),
    (LATER, GEMINI, ""),
    # a closing `---` at the very end: no body; Wave's body regex needs the line break
    (NO_NEWLINE, CLEAN, ""),
    (NO_NEWLINE, GEMINI, ""),
    (NO_NEWLINE, WAVE_BODY, NO_NEWLINE),
])
def test_cut(text: str, rule: ClosingRule, body: str | None) -> None:
    cut = cut_as(split(text), rule)
    if body is None:
        assert cut is None
        return
    assert cut is not None
    assert text[cut.body_offset:] == body


@pytest.mark.parametrize(("target", "loads", "body", "fields"), [
    ("wave", True, FOUR, True),
    ("codex", False, None, False),
    ("copilot-cli", False, None, False),
    ("gemini-cli", True, "", True),
    ("opencode", True, "-\nThe body.\n", True),
    ("claude-code", True, "-\nThe body.\n", True),
])
def test_four_dashes_per_target(target: str, loads: bool, body: str | None,
                                fields: bool) -> None:
    """The case fm-closing-dashes under each harness runtime: its fields, the body it sends, and
    whether `check` lets it load (SK007 is an error where the runtime drops it)."""
    profile = PROFILES[target]
    document = SkillDocument.from_text(FOUR)
    reading = read_as(document, profile)
    assert reading.loaded_fields is fields
    if fields:
        assert reading.values.value("description") == "Closed by four dashes."
    if body is not None:
        assert document.text[reading.body_offset:] == body
    report, finding = _check(FOUR, target, "SK007")
    assert report.verdict is not None and report.verdict.loads is loads
    assert profile.runtime in finding.message


@pytest.mark.parametrize(("target", "words"), [
    ("wave", "sends the whole file, frontmatter included, as the body"),
    ("codex", "does not take `----` as the closing line, so it does not load the skill"),
    ("copilot-cli", "does not take `----` as the closing line, so it does not load the skill"),
    ("gemini-cli", "sends no body at all"),
    ("opencode", "so the body starts with `-`"),
    ("portable", "Codex and Copilot CLI do not take `----` as the closing line, so they do not "
                 "load the skill"),
])
def test_sk007_says_what_the_runtime_does(target: str, words: str) -> None:
    assert words in _check(FOUR, target, "SK007")[1].message


@pytest.mark.parametrize(("target", "loads", "words"), [
    ("copilot-cli", False, "Copilot CLI does not load the skill"),
    ("codex", False, "Codex does not load the skill"),
    ("claude-code", True, "Claude Code reads the whole file as the body"),
    ("opencode", False, "OpenCode reads the rest of the file as the frontmatter"),
])
def test_unclosed_per_target(target: str, loads: bool, words: str) -> None:
    """The case fm-unclosed: Copilot CLI 1.0.102 does not load it (SK006 stops loading)."""
    text = "---\nname: unclosed\ndescription: Never closed.\n\nThe body.\n"
    report, finding = _check(text, target, "SK006")
    assert report.verdict is not None and report.verdict.loads is loads
    assert words in finding.message


_LINES = st.sampled_from(["---", "----", "--- x", "---  ", "  ---", "name: a", "description: b",
                          "body text", "", "a --- b", "---\t", "\t"])
_RULES = [ClosingRule(fields, body) for fields in ("clean-line", "trimmed-line", "dashes-line",
                                                   "dashes-anywhere")
          for body in ("next-line", "after-dashes", "after-blanks", "next-line-if-bare",
                       "after-bare-line-else-file")]


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_LINES, max_size=8), ending=st.sampled_from(["\n", "\r\n"]),
       last=st.booleans(), rule=st.sampled_from(_RULES))
def test_any_cut_lies_inside_the_text(lines: list[str], ending: str, last: bool,
                                      rule: ClosingRule) -> None:
    """Whatever the text and the rule, a cut never raises and its offsets are in order: the
    frontmatter lies before the body, or the body is the whole file (Wave's body regex)."""
    text = ending.join(lines) + (ending if last and lines else "")
    cut = cut_as(split(text), rule)
    if cut is None:
        return
    assert 0 <= cut.frontmatter_offset <= cut.frontmatter_end <= len(text)
    assert 0 <= cut.body_offset <= len(text)
    assert cut.body_offset == 0 or cut.body_offset >= cut.frontmatter_end


@pytest.mark.parametrize("target", ["wave", "claude-code", "portable", "codex"])
def test_a_closing_line_with_braces_is_quoted_not_formatted(target: str) -> None:
    """SK007 quotes the closing line the skill wrote; braces in it are text (the fuzz test found
    `---\\ragent: ${WAVE_SKILL_DIR}/x.mjs` raising KeyError from `str.format`)."""
    text = "---\nname: x\ndescription: Does x. Use when asked.\n--- {s} ${WAVE_SKILL_DIR}\nBody.\n"
    _, closing = _check(text, target, "SK007")
    assert "--- {s} ${WAVE_SKILL_DIR}" in closing.message
