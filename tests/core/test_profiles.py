"""Runtime profiles: a new target is one profile (plus its catalog column), nothing else.

The toy profile below borrows Wave's severity column and changes behaviour the rules, discovery,
the preview and the permission engine must take from the profile: its name in messages, its
skills roots, its settings folder, its argument base and its placeholders.
"""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path

from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings, settings_from_mapping
from wave_lsp.core.facts.profiles import CLAUDE_SHARED_VARIABLES, PROFILES, TARGETS, WAVE
from wave_lsp.core.invocation.preview import invoke
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate
from wave_lsp.core.workspace.runtime_view import runtime_skills

TOY = replace(
    WAVE, name="toy", runtime="Toy", reader_name="Toy", skills_roots=(".toy/skills",),
    settings_folder=".toy", argument_base=0, keeps_missing_indexed_argument=True,
    arguments_appended_after="\n\nARGS: ", variables=CLAUDE_SHARED_VARIABLES,
    arguments_file_variable=None, drops_unresolved_tool_rules=False,
    precedence="project > personal",
)

SKILL = """---
name: deploy
description: Deploys the service. Use when the user asks for a deploy.
colour: blue
---
Deploy $0 from ${CLAUDE_SKILL_DIR}. Run !`make check` first.
"""


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    skill = project / ".toy/skills/deploy/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL, "utf-8")
    (project / ".git").mkdir()
    return skill


def test_builtin_profiles_are_the_targets() -> None:
    assert TARGETS == ("wave", "claude-code", "agentskills", "portable", "codex", "copilot",
                       "cursor", "opencode", "gemini-cli", "copilot-cli")
    assert all(PROFILES[name].name == name for name in TARGETS)
    assert Settings.for_target("claude-code").profile is PROFILES["claude-code"]
    assert settings_from_mapping({"target": "agentskills"}).profile is PROFILES["agentskills"]


def test_a_toy_profile_is_checked_with_its_own_behaviour(tmp_path: Path) -> None:
    skill = _project(tmp_path)
    report = check_file(skill, Settings(profile=TOY, home=tmp_path / "home"), strict=True)
    messages = {f.code: f.message for f in report.findings}
    assert "Toy ignores it" in messages["SK070"]  # the runtime is named by the profile
    assert "SK002" not in messages  # `.toy/skills` is a skills root of this profile
    assert messages["SK115"].startswith("`$0` is argument 1 here")  # the profile counts from 0
    assert "SK123" in messages  # `make check` is allowed by no rule of `.toy/settings.json`


def test_a_toy_profile_discovers_and_previews(tmp_path: Path) -> None:
    skill = _project(tmp_path)
    project, home = skill.parents[3], tmp_path / "home"
    assert [s.name for s in runtime_skills(TOY, project, home)] == ["deploy"]
    assert runtime_skills(WAVE, project, home) == []  # Wave does not scan `.toy/skills`
    settings_dir = project / ".toy"
    (settings_dir / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(make check)"]}}), "utf-8")
    document = SkillDocument.from_text(SKILL)
    result = invoke(document, locate(skill, home=home), Settings(profile=TOY, home=home),
                    "prod extra")
    assert result.ok, result.error
    assert result.text is not None
    assert "Deploy prod from " in result.text  # `$0` is the first argument (base 0)
    assert str(skill.parent.as_posix()) in result.text  # ${CLAUDE_SKILL_DIR} resolved
    assert result.to_json()["target"] == "toy"


def test_no_target_name_is_compared_outside_the_profiles() -> None:
    """Behaviour comes from the profile: no `target == "…"`, no `"claude-code" in …` anywhere in
    the package except the profile modules themselves (and the catalog's column names)."""
    package = Path(__file__).resolve().parents[2] / "wave_lsp"
    names = set(TARGETS)
    allowed = {package / "core/facts/profiles.py", package / "core/facts/runtime_profile.py",
               package / "core/checking/catalog.py"}
    offenders = []
    for path in sorted(package.rglob("*.py")):
        if path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Compare):
                parts = [node.left, *node.comparators]
                if any(isinstance(p, ast.Constant) and p.value in names for p in parts) or any(
                        isinstance(p, ast.Tuple | ast.List | ast.Set) and any(
                            isinstance(e, ast.Constant) and e.value in names for e in p.elts)
                        for p in parts):
                    offenders.append(f"{path.relative_to(package)}:{node.lineno}")
            if isinstance(node, ast.Dict) and any(
                    isinstance(k, ast.Constant) and k.value in names for k in node.keys):
                offenders.append(f"{path.relative_to(package)}:{node.lineno} (table by name)")
    assert not offenders, offenders
