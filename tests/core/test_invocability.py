"""Who may invoke a skill, decided once (`listing.invocation_flags`) and read by every surface
that asks: the listing, `where`'s command (`listing.user_command`), SK091 (nobody can run it) and the
preview's refusal of `/name` (`preview.not_user_invocable`). Table-driven: each row is a target,
the two frontmatter fields as written, and whether the model and the user may invoke the skill."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.checking.catalog import rules
from wave_lsp.core.facts.profiles import PROFILES
from wave_lsp.core.invocation.listing import invocation_flags, user_command
from wave_lsp.core.invocation.preview import not_user_invocable
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate

RELPATH = ".agents/skills/my-skill/SKILL.md"


def skill(user: str | None, model: str | None) -> str:
    lines = ["name: my-skill", "description: Does X. Use when Y."]
    lines += [f"user-invocable: {user}"] if user is not None else []
    lines += [f"disable-model-invocation: {model}"] if model is not None else []
    return "---\n" + "\n".join(lines) + "\n---\nBody\n"


@pytest.mark.parametrize(("target", "user_field", "model_field", "model", "user"), [
    ("claude-code", None, None, True, True),
    ("claude-code", "false", "true", False, False),
    ("claude-code", "no", "yes", False, False),  # Claude Code reads yes/no words
    ("claude-code", "'false'", None, True, False),
    ("wave", "false", "true", False, False),
    # Wave 469391bb: `user-invocable` is true only when absent or `true`; `yes` is no boolean
    ("wave", "no", "true", False, False),
    ("wave", "yes", None, True, False),
    ("wave", "true", "yes", True, True),  # `disable-model-invocation: yes` is not `true`
    ("copilot", "false", "true", False, False),
    ("copilot-cli", "false", None, True, False),
    ("cursor", "false", "true", False, True),  # Cursor reads only `disable-model-invocation`
    ("codex", "false", "true", True, True),  # Codex, OpenCode, Gemini CLI read neither
    ("opencode", "false", "true", True, True),
    ("gemini-cli", "false", "true", True, True),
    ("portable", "false", "true", False, False),
])
def test_every_surface_reads_one_decision(tmp_path: Path, target: str, user_field: str | None,
                                          model_field: str | None, model: bool,
                                          user: bool) -> None:
    profile = PROFILES[target]
    text = skill(user_field, model_field)
    document = SkillDocument.from_text(text)
    # in a root the target scans: Claude Code and Cursor do not scan `.agents/skills`, and a
    # target's rules say nothing of a file it does not find (docs/design/rules.md *A target
    # speaks of what it loads*)
    relpath = RELPATH.replace(".agents", {"claude-code": ".claude", "cursor": ".cursor"}.get(
        target, ".agents"))
    location = locate(tmp_path / relpath, home=tmp_path / "home")
    assert invocation_flags(document, profile) == (model, user)
    assert (user_command(document, location, profile) is not None) is user
    refusal = not_user_invocable(document, location, profile)
    assert (refusal is not None) is (not user and profile.not_user_invocable_message is not None)
    report = run(tmp_path, text, target=target, relpath=relpath)
    enabled = rules()["SK091"].severity(profile) is not None
    unreachable = [f for f in report.findings if f.code == "SK091"]
    assert bool(unreachable) is (enabled and not model and not user), \
        [f.message for f in report.findings]
