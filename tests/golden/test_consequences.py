"""The detector of `consequences.py` on its own table: which clauses say a runtime loads the skill
or does not, which say nothing about loading, and which runtimes a message names beside the
target's (issue 36 item 2). Each row is a sentence of the kind the rules write."""

from __future__ import annotations

import pytest

from tests.golden.consequences import SELF_ACTOR, claims, contradictions, foreign_runtimes
from wave_lsp.core.runtime.profiles import PROFILES

SELF = frozenset({SELF_ACTOR})


@pytest.mark.parametrize(("message", "expected"), [
    # does not load: the target itself
    ("The frontmatter has no `name`. The runtime requires a name and rejects the skill.",
     [(SELF, False)]),
    ("The runtime finds no name and no description and does not load the skill.", [(SELF, False)]),
    ("`vendor/` is ignored by `.gitignore`, so this skill is never loaded: move it out.",
     [(SELF, False)]),
    # does not load: named runtimes, `Copilot` apart from `Copilot CLI`, VS Code for Copilot
    ("Codex requires the name to equal the folder `release-notes`.", [({"codex"}, False)]),
    ("skills-ref, VS Code and the claude.ai upload reject it.",
     [({"agentskills", "copilot"}, False)]),
    ("Dropped by Wave, Codex and Copilot CLI; rejected by skills-ref.",
     [({"wave", "codex", "copilot-cli"}, False), ({"agentskills"}, False)]),
    ("Dropped by Copilot.", [({"copilot"}, False)]),
    ("YAML forbids it (a strict loader, as Cursor's is assumed to be, cannot load this skill).",
     [({"cursor"}, False)]),
    ("Not discovered by Codex: move the skill out of `.hidden` if it should load there.",
     [({"codex"}, False)]),
    ("OpenCode's colon retry skips hyphenated keys, so the skill vanishes without a message.",
     [({"opencode"}, False)]),
    ("so the Wave specification rejects the skill with a message", [({"wave"}, False)]),
    ("Gemini CLI never loads it.", [({"gemini-cli"}, False)]),
    ("Codex does not take `----` as the closing line, so it does not load the skill.",
     [({"codex"}, False)]),
    ("Copilot CLI takes only a boolean: it does not load the skill.", [({"copilot-cli"}, False)]),
    ("Codex reads an alias (`*…` unquoted) as an error and skips the skill.", [({"codex"}, False)]),
    ("Another skill is also named `x` and wins, so this one is never loaded: rename one.",
     [(SELF, False)]),
    # loads
    ("Codex reads the value as text and loads the skill.", [({"codex"}, True)]),
    ("Claude Code's quoting retry quotes the value and loads it as text; strict parsers reject "
     "the file.", [({"claude-code"}, True)]),
    ("Wave 469391bb's line parser never fails and loads it anyway.", [({"wave"}, True)]),
    ("OpenCode still loads it as a command, but leaves it out of the model's listing.",
     [({"opencode"}, True)]),
    ("Codex loads the skill but lists only the first 1,021 characters; skills-ref rejects it.",
     [({"codex"}, True), ({"agentskills"}, False)]),
    # take the loading for granted: only a loaded skill is chosen by the model or not
    ("The model decides whether to use a skill from its description alone, so this skill is "
     "never chosen.", [(SELF, True)]),
    ("The model has nothing to match against and never chooses the skill.", [(SELF, True)]),
    ("Codex ignores it, so its model may still pick this skill by itself.", [({"codex"}, True)]),
    # no claim about loading the skill: a field, a rule, a block, an unnamed someone
    ("`allowed-tools` is a mapping. Runtimes drop it, so nothing is pre-approved.", []),
    ("Wave will not substitute it and drops the rule with a notice.", []),
    ("An invalid `hooks` block is dropped as a whole: none of its hooks run.", []),
    ("Argument name `2` is numeric and is dropped: remove it.", []),
    ("`license` is not read here. Claude Code ignores it.", []),
    ("`name` is an integer. Validators reject it.", []),
    ("Claude Code skips a nested skills folder that git ignores.", []),
    ("the spec requires them to match", []),
])
def test_claims(message: str, expected: list[tuple[set[str], bool]]) -> None:
    assert [(set(c.actors), c.loads) for c in claims(message)] == [
        (set(actors), loads) for actors, loads in expected]


@pytest.mark.parametrize(("message", "target", "loads", "dropped", "wrong"), [
    ("The runtime requires a name and rejects the skill.", "codex", True, (), 1),
    ("The runtime requires a name and rejects the skill.", "gemini-cli", False, (), 0),
    ("Codex loads the skill but lists only the first 1,021 characters.", "codex", True, (), 0),
    ("Codex loads the skill but lists only the first 1,021 characters.", "codex", False, (), 1),
    ("The model has nothing to match against and never chooses the skill.", "wave", False, (), 1),
    ("The model has nothing to match against and never chooses the skill.", "claude-code", True,
     (), 0),
    # another runtime's verdict is not the target's (`names` judges whether it may be said)
    ("skills-ref, VS Code and the claude.ai upload reject it.", "claude-code", True, (), 0),
    ("skills-ref, VS Code and the claude.ai upload reject it.", "copilot", True, (), 1),
    ("Claude Code keeps the text, but skills-ref rejects tags.", "claude-code", True, (), 0),
    # an aggregate: each named runtime against `droppedBy`; a validator's rejection is no drop
    ("Dropped by Copilot CLI; rejected by skills-ref.", "portable", False, ("copilot-cli",), 0),
    ("skills-ref, VS Code and the claude.ai upload reject it.", "portable", False,
     ("copilot-cli",), 1),
    ("Rejected by skills-ref.", "portable", True, (), 0),
    ("Codex reads the value as text and loads the skill.", "portable", False, ("codex",), 1),
])
def test_contradictions(message: str, target: str, loads: bool, dropped: tuple[str, ...],
                        wrong: int) -> None:
    found = contradictions(message, PROFILES[target], loads, frozenset(dropped))
    assert len(found) == wrong, found


@pytest.mark.parametrize(("message", "target", "others"), [
    ("Claude Code skips a nested skills folder that git ignores.", "codex", {"claude-code"}),
    ("`allowed-tools` is read by Wave, Claude Code and the open spec.", "gemini-cli",
     {"wave", "claude-code"}),
    ("`$1` is argument 2 here (Claude Code counts from 0).", "copilot-cli", {"claude-code"}),
    ("`$1` is argument 2 here (Copilot CLI counts from 0).", "copilot", {"copilot-cli"}),
    ("`$1` is argument 2 here (Copilot CLI counts from 0).", "copilot-cli", set()),
    # comparing with the target is allowed
    ("Codex loads it, but Claude Code drops it.", "codex", set()),
    ("The runtime keeps it as text, while Claude Code quotes it.", "opencode", set()),
    ("Wave has no limit, but skills-ref, VS Code and the claude.ai upload reject it.", "wave",
     set()),
    # the target's reader name, a validator, an aggregate's members
    ("VS Code truncates the description.", "copilot", set()),
    ("skills-ref rejects tags.", "codex", set()),
    ("Claude Code and Codex drop the skill.", "portable", set()),
])
def test_foreign_runtimes(message: str, target: str, others: set[str]) -> None:
    assert set(foreign_runtimes(message, PROFILES[target])) == others
