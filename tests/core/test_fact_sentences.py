"""The sentences of SK020/SK021/SK026 and SK131 are derived from each target's facts (issue 36):
who loads a frontmatter strict YAML rejects comes from each runtime's loader, an unverified drop
is said as such, the `wave` target says both the specification and Wave's code, and what happens
past the listing budget comes from the profile (`listing_budget_percent`,
`omits_skills_past_budget`, `lists_least_used_by_name`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.facts.profiles import PROFILES
from wave_lsp.core.rules.workspace import _past_budget

ROOTS = {"wave": ".wave/skills", "claude-code": ".claude/skills", "agentskills": "",
         "cursor": ".cursor/skills", "copilot-cli": ".github/skills", "codex": ".codex/skills"}
COLON = "---\nname: my-skill\ndescription: Use when: a thing happens\n---\nBody.\n"
QUOTE = '---\nname: my-skill\ndescription: "Use when asked.\n---\nBody.\n'
TAB = "---\nname: my-skill\ndescription: Does x. Use when asked.\nmetadata:\n\tauthor: me\n---\n"

#: (target, text, code, loads, words the message has, words it must not have)
CASES = [
    ("claude-code", COLON, "SK021", True, "Wave and Copilot CLI do not load the skill", "Codex"),
    ("agentskills", COLON, "SK021", False,
     "(Claude Code, Codex, OpenCode and Gemini CLI load it anyway)", "only Claude Code"),
    ("cursor", COLON, "SK021", True,
     "unverified (from its documentation only): Cursor may not load the skill", "cannot load"),
    ("cursor", QUOTE, "SK020", True,
     "unverified (from its documentation only): Cursor may not load the skill", "cannot load"),
    ("copilot-cli", TAB, "SK026", True,
     "unverified (not run): Copilot CLI may not load the skill", "every parser"),
    ("wave", COLON, "SK021", False,
     "the `wave` target follows it (the skill does not load here); Wave 469391bb's code differs",
     "loads it"),
    ("wave", TAB, "SK026", False, "Wave 469391bb's code differs: its line parser never fails",
     "loads it"),
]


@pytest.mark.parametrize(("target", "text", "code", "loads", "words", "absent"), CASES)
def test_yaml_sentences_follow_the_facts(tmp_path: Path, target: str, text: str, code: str,
                                         loads: bool, words: str, absent: str) -> None:
    (tmp_path / ".git").mkdir()
    root = ROOTS[target]
    report = run(tmp_path, text, target=target,
                 relpath=f"{root}/my-skill/SKILL.md" if root else "my-skill/SKILL.md")
    messages = [f.message for f in report.findings if f.code == code]
    assert messages, [(f.code, f.message) for f in report.findings]
    assert report.verdict is not None and report.verdict.loads is loads
    assert words in messages[0] and absent not in messages[0]


@pytest.mark.parametrize(("target", "words"), [
    ("claude-code", "Past the budget Claude Code lists the skills invoked least by name only"),
    ("codex", "Past the budget Codex shortens the descriptions, then leaves skills out of the "
              "listing (its budget is 2 % of the model's context window when it knows it)"),
    ("wave", "Wave lists every skill with its whole description (it has no budget), but Claude "
             "Code and Codex cut descriptions"),
])
def test_past_the_listing_budget_is_the_profiles(target: str, words: str) -> None:
    assert words in _past_budget(PROFILES[target])


@pytest.mark.parametrize(("field", "words"), [
    # no runtime that reads `background` takes only booleans: no "read as false by …" (it used to
    # raise IndexError naming an empty list of runtimes: tests/fuzz found it)
    ("background", "`background: yes` is a YAML 1.1 word: Claude Code reads it as `true`"),
    ("user-invocable", "`user-invocable: yes` is read as `false` by "),
])
def test_sk090_under_portable_names_only_runtimes_that_read_the_field(
        tmp_path: Path, field: str, words: str) -> None:
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, f"---\nname: my-skill\ndescription: Does x.\n{field}: yes\n---\n",
                 target="portable", relpath="skills/my-skill/SKILL.md")
    messages = [f.message for f in report.findings if f.code == "SK090"]
    assert messages and words in messages[0], [(f.code, f.message) for f in report.findings]
