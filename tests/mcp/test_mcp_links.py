"""The MCP tools never read through a link out of the project root (issue 35 item 3; a red-team
regression: `list_skills` showed the description of a SKILL.md linked from outside). Skills found
under the root whose file, or a folder above it, is a link out of the root are left out of
`list_skills` (both forms) unread; skills really inside, and personal skills, stay listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_lsp.core.workspace import runtime_view
from wave_lsp.mcp.handlers import ProjectTools

SECRET = "TOP-SECRET"


def skill(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description} Use when asked.\n---\nBody\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one real skill, a SKILL.md linked from outside, a skill folder linked from
    outside, and a link inside the project (kept: it stays in the root); a personal skill."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    skills = root / ".claude/skills"
    write(skills / "real/SKILL.md", skill("real", "Formats notes."))
    outside = tmp_path / "outside"
    write(outside / "SKILL.md", skill("leak", f"{SECRET}-FILE."))
    write(outside / "folder/SKILL.md", skill("folder", f"{SECRET}-FOLDER."))
    (skills / "leak").mkdir()
    (skills / "leak/SKILL.md").symlink_to(outside / "SKILL.md")
    (skills / "folder").symlink_to(outside / "folder", target_is_directory=True)
    write(root / "docs/alias/SKILL.md", skill("alias", "Links inside."))
    (skills / "alias").symlink_to(root / "docs/alias", target_is_directory=True)
    write(tmp_path / "home/.claude/skills/mine/SKILL.md", skill("mine", "Personal."))
    return root


@pytest.mark.parametrize("every_runtime", [False, True])
def test_list_skills_leaves_out_links_out_of_the_root(project: Path, every_runtime: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(project.parent / "home"))
    read: list[Path] = []
    original = runtime_view.read_summary

    def spy(path: Path, *args: object, **kwargs: object) -> object:
        read.append(path)
        return original(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runtime_view, "read_summary", spy)
    tools = ProjectTools(project)
    answer = tools.list_skills(".", target="claude-code", every_runtime=every_runtime)
    text = json.dumps(answer)
    assert SECRET not in text
    names = {row["name"] for row in answer["skills"]}
    assert {"real", "alias"} <= names and not names & {"leak", "folder"}
    if not every_runtime:
        assert "mine" in names  # the user's own personal skills are not the project's links
    outside = str(project.parent / "outside")
    assert not [path for path in read if str(path.resolve()).startswith(outside)], read


def test_the_confinement_is_only_for_paths_written_under_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "in").mkdir(parents=True)
    (tmp_path / "out").mkdir()
    (root / "up").symlink_to(tmp_path / "out", target_is_directory=True)
    assert runtime_view.leaves(root / "up" / "SKILL.md", root)
    assert not runtime_view.leaves(root / "in" / "SKILL.md", root)
    assert not runtime_view.leaves(tmp_path / "out" / "SKILL.md", root)  # never under it


@pytest.mark.parametrize("every_runtime", [False, True])
@pytest.mark.parametrize("written", [".", "alias", "real"])
def test_a_link_to_the_root_does_not_bypass_the_confinement(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str,
        every_runtime: bool) -> None:
    """The root is `real`; `alias` is a link to it; `real/.claude/skills/evil` leads outside.
    However the folder is written (`.`, `/…/alias`, `/…/real`), `evil` is left out unread: the
    start folder and each skill's folders are compared by their real paths."""
    root = tmp_path / "real"
    (root / ".git").mkdir(parents=True)
    write(root / ".claude/skills/good/SKILL.md", skill("good", "Formats notes."))
    write(tmp_path / "outside/evil/SKILL.md", skill("evil", f"{SECRET}-ALIAS."))
    (root / ".claude/skills/evil").symlink_to(tmp_path / "outside/evil",
                                              target_is_directory=True)
    (tmp_path / "alias").symlink_to(root, target_is_directory=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    read: list[Path] = []
    original = runtime_view.read_summary

    def spy(path: Path, *args: object, **kwargs: object) -> object:
        read.append(path)
        return original(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runtime_view, "read_summary", spy)
    directory = "." if written == "." else str(tmp_path / written)
    answer = ProjectTools(root).list_skills(directory, target="claude-code",
                                            every_runtime=every_runtime)
    assert SECRET not in json.dumps(answer)
    names = {row["name"] for row in answer["skills"]}
    assert "good" in names and "evil" not in names, names
    outside = str(tmp_path / "outside")
    assert not [path for path in read if str(path.resolve()).startswith(outside)], read


def test_the_confinement_compares_real_paths(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "in").mkdir(parents=True)
    (tmp_path / "out").mkdir()
    (root / "up").symlink_to(tmp_path / "out", target_is_directory=True)
    (tmp_path / "alias").symlink_to(root, target_is_directory=True)
    assert runtime_view.leaves(tmp_path / "alias" / "up" / "SKILL.md", root)
    assert runtime_view.leaves(root / "up" / "SKILL.md", tmp_path / "alias")
    assert not runtime_view.leaves(tmp_path / "alias" / "in" / "SKILL.md", root)
    memo: dict[str, bool] = {}
    assert [runtime_view.leaves(tmp_path / "alias" / name / "SKILL.md", root, memo)
            for name in ("up", "in", "up")] == [True, False, True]
