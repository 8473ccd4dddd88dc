"""`check --fix` never writes through a symbolic link to a file outside the project (issue 35
item 3): a cloned repository can ship `.claude/skills/x/SKILL.md` linked to any file of the user's
(`~/.bashrc`, another repository's skill); fixing the clone must not rewrite it. Files inside,
links that stay inside included, are still fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from wave_lsp.cli import main

#: a description with `: ` unquoted: SK021's safe fix quotes it
FIXABLE = "---\nname: {name}\ndescription: Drafts notes. Use when: asked\n---\n# Body\n"
FIXED = '---\nname: {name}\ndescription: "Drafts notes. Use when: asked"\n---\n# Body\n'


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    skills = root / ".claude/skills"
    write(skills / "real/SKILL.md", FIXABLE.format(name="real"))
    write(tmp_path / "outside/victim.md", FIXABLE.format(name="linked"))
    write(tmp_path / "outside/folder/SKILL.md", FIXABLE.format(name="folder"))
    (skills / "linked").mkdir()
    (skills / "linked/SKILL.md").symlink_to(tmp_path / "outside/victim.md")
    (skills / "folder").symlink_to(tmp_path / "outside/folder", target_is_directory=True)
    write(root / "docs/inner/SKILL.md", FIXABLE.format(name="inner"))
    (skills / "inner").symlink_to(root / "docs/inner", target_is_directory=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return root


@pytest.mark.parametrize("target", [".", ".claude/skills/linked/SKILL.md",
                                    ".claude/skills/folder"])
def test_fix_leaves_files_outside_the_project_alone(project: Path, target: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    outside = project.parent / "outside"
    before = {path: path.read_bytes() for path in outside.rglob("*.md")}
    main(["check", target, "--fix", "--no-personal"])
    err = capsys.readouterr().err
    assert {path: path.read_bytes() for path in outside.rglob("*.md")} == before
    assert (project / ".claude/skills/linked/SKILL.md").is_symlink()
    if target != ".claude/skills/folder":
        assert "not fixed: it is a link to" in err and "outside the project" in err
    if target == ".":
        assert (project / ".claude/skills/real/SKILL.md").read_text("utf-8") == \
            FIXED.format(name="real")
        assert (project / "docs/inner/SKILL.md").read_text("utf-8") == FIXED.format(name="inner")
