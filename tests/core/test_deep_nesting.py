"""Configuration and settings nested without end are a clear error or finding, never a
`RecursionError` (issue 35 item 3): pyproject `[tool.wave-lsp]`, runtime config files, Claude
Code settings, YAML frontmatter; through the core and the `check` command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wave_lsp.core.checking.config import Settings, SettingsError, load_pyproject, settings_from_mapping
from wave_lsp.core.checking.engine import check_document
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.permissions.settings import load_settings
from wave_lsp.core.workspace.location import locate
from wave_lsp.core.workspace.runtime_config import read_config

DEEP = 100_000
SKILL = "---\nname: s\ndescription: Does s. Use when testing.\n---\nRun !`ls -la`\n"


def nested_tables(depth: int) -> str:
    return "{a = " * depth + "1" + "}" * depth


@pytest.mark.parametrize("value", ["[" * DEEP + "]" * DEEP, nested_tables(DEEP)])
def test_pyproject_nested_too_deeply_is_a_settings_error(tmp_path: Path, value: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.wave-lsp]\ntarget = {value}\n", "utf-8")
    with pytest.raises(SettingsError, match="nests arrays or tables too deeply"):
        load_pyproject(tmp_path)


def test_a_64_level_pyproject_table_is_read(tmp_path: Path) -> None:
    """64 levels is deep but legal TOML: read, and its one setting understood."""
    dotted = ".".join(["a"] * 64)
    (tmp_path / "pyproject.toml").write_text(
        f"[tool.wave-lsp]\ntarget = 'claude-code'\n[tool.wave-lsp.{dotted}]\nx = 1\n"
        f"[tool.wave-lsp.b]\nc = {nested_tables(64)}\n", "utf-8")
    section, found = load_pyproject(tmp_path)
    assert found == tmp_path / "pyproject.toml"
    assert settings_from_mapping(section).target == "claude-code"


@pytest.mark.parametrize("name", ["opencode.json", "config.toml"])
def test_a_runtime_config_nested_too_deeply_counts_as_broken(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    body = "[" * DEEP + "]" * DEEP
    path.write_text(f"x = {body}\n" if name.endswith(".toml") else body, "utf-8")
    assert read_config(path) is None


def test_claude_settings_nested_too_deeply_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"permissions": {"allow": ' + "[" * DEEP + "]" * DEEP + "}}", "utf-8")
    result = load_settings("project settings", path, False)
    assert result.rules == [] and len(result.problems) == 1
    assert "cannot be read as JSON" in result.problems[0]


@pytest.mark.parametrize("value", ["[" * DEEP + "]" * DEEP, "{a: " * DEEP + "1" + "}" * DEEP,
                                   "".join("\n" + " " * i + f"k{i}:" for i in range(1, 400))])
def test_frontmatter_nested_too_deeply_is_a_finding(value: str) -> None:
    text = f"---\nname: s\ndescription: Does s. Use when testing.\nmetadata: {value}\n---\nx\n"
    findings = check_document(SkillDocument.from_text(text), locate(None),
                              Settings.for_target("wave"), strict=True)
    assert any(f.code == "SK020" and "nests more than" in f.message for f in findings)


def test_check_reports_a_deep_pyproject_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.wave-lsp]\ntarget = " + "[" * DEEP + "]" * DEEP + "\n", "utf-8")
    skill = tmp_path / ".claude" / "skills" / "s" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL, "utf-8")
    done = subprocess.run([sys.executable, "-m", "wave_lsp", "check", str(skill)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert "nests arrays or tables too deeply" in done.stderr
    assert done.returncode == 2
