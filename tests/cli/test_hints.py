"""What `check` and `list` say when a path holds no skill the way the user expected
(wave_lsp/cli_hints.py): a README named to `check` is not taken for a skill whose folder is the
whole repository (issue 38: 148 files, 147 SK140 notes on `.pyc` files); a file of a skill is
checked as part of its skill; `list` on a folder where the target discovers nothing says why and
what would list the skills there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_lsp.cli import main

SKILL = "---\nname: {name}\ndescription: Does X. Use when asked.\n---\nBody\n"


def make_repository(root: Path) -> Path:
    """A repository like wave-lsp's own: a README at the root, compiled files, skills in a folder
    that is not a skills root, and one in `.claude/skills`."""
    (root / ".git").mkdir(parents=True)
    (root / "README.md").write_text("# A project\n", "utf-8")
    (root / "pkg/__pycache__").mkdir(parents=True)
    (root / "pkg/__pycache__/mod.cpython-311.pyc").write_bytes(b"\x00\x01binary")
    for name in ("alpha", "beta", "gamma", "delta"):
        skill = root / "examples/skills" / name / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(SKILL.format(name=name), "utf-8")
    (root / "examples/skills/alpha/reference.md").write_text("# Reference\n\nSee [x](missing.md).\n",
                                                             "utf-8")
    return root


def test_a_readme_is_not_checked_as_a_skill(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(make_repository(tmp_path))
    assert main(["check", "README.md", "--no-personal"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        "wave-lsp: warning: README.md is not a skill: a skill is a folder's SKILL.md (or a stray "
        "*.md directly in a skills root such as .claude/skills/), and no skill folder holds it; "
        "skipped"]
    assert "SK140" not in captured.out and captured.out.startswith("Checked 0 files")


def test_a_file_of_a_skill_is_checked_as_part_of_its_skill(tmp_path: Path, capsys,
                                                            monkeypatch) -> None:
    monkeypatch.chdir(make_repository(tmp_path))
    assert main(["check", "examples/skills/alpha/reference.md", "--no-personal",
                 "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert ("it is a file of the skill examples/skills/alpha/SKILL.md, which is checked instead"
            in captured.err)
    report = json.loads(captured.out)
    assert [entry["path"] for entry in report["files"]] == ["examples/skills/alpha/SKILL.md"]


@pytest.mark.parametrize("name", ["SKILL.md", "skill.md", "Skill.md"])
def test_a_skill_file_is_checked_whatever_its_case(tmp_path: Path, capsys, monkeypatch,
                                                   name: str) -> None:
    monkeypatch.chdir(tmp_path)
    skill = tmp_path / "demo" / name
    skill.parent.mkdir()
    skill.write_text(SKILL.format(name="demo"), "utf-8")
    main(["check", f"demo/{name}", "--no-personal", "--format", "concise"])
    captured = capsys.readouterr()
    assert "is not a skill" not in captured.err
    assert "Checked 1 file" in captured.out


def test_a_stray_file_in_a_skills_root_is_still_checked(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    stray = tmp_path / ".claude/skills/notes.md"
    stray.parent.mkdir(parents=True)
    stray.write_text(SKILL.format(name="notes"), "utf-8")
    assert main(["check", ".claude/skills/notes.md", "--no-personal", "--format", "concise"]) == 0
    captured = capsys.readouterr()
    assert "is not a skill" not in captured.err
    assert ".claude/skills/notes.md:1:1: SK002" in captured.out


def test_list_says_why_a_folder_of_skill_folders_lists_nothing(tmp_path: Path, capsys,
                                                               monkeypatch) -> None:
    monkeypatch.chdir(make_repository(tmp_path))
    assert main(["list", "examples/skills", "--no-personal", "--target", "claude-code"]) == 0
    captured = capsys.readouterr()
    assert "0 skills (claude-code)" in captured.out
    (hint,) = captured.err.splitlines()
    assert hint.startswith("wave-lsp: no skills: Claude Code discovers a project's skills in "
                           ".claude/skills/ of the folder it is given")
    assert ("examples/skills/alpha/SKILL.md, examples/skills/beta/SKILL.md, "
            "examples/skills/delta/SKILL.md and more") in hint
    assert "`wave-lsp check examples/skills` checks them" in hint
    assert "examples/skills/.claude/skills/NAME/SKILL.md" in hint


def test_list_json_stays_a_document_and_the_reason_goes_to_stderr(tmp_path: Path, capsys,
                                                                  monkeypatch) -> None:
    monkeypatch.chdir(make_repository(tmp_path))
    assert main(["list", "examples/skills", "--no-personal", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["skills"] == []
    assert captured.err.startswith("wave-lsp: no skills: Wave discovers")


def test_list_on_a_skills_root_names_its_project(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    skill = tmp_path / "project/.claude/skills/a/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL.format(name="a"), "utf-8")
    main(["list", "project/.claude/skills", "--no-personal", "--target", "wave"])
    err = capsys.readouterr().err
    assert "project/.claude/skills is itself the skills root .claude/skills/" in err
    assert "`wave-lsp list project`" in err
    main(["list", "project/.claude/skills", "--no-personal", "--target", "codex"])
    err = capsys.readouterr().err
    assert "is .claude/skills/, which Codex does not read" in err
    assert "`wave-lsp list project --targets all`" in err
    assert main(["list", "project", "--no-personal", "--target", "wave"]) == 0
    captured = capsys.readouterr()
    assert "1 skills (wave)" in captured.out and captured.err == ""


def test_list_on_a_folder_without_skills(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty/node_modules/x").mkdir(parents=True)
    (tmp_path / "empty/node_modules/x/SKILL.md").write_text(SKILL.format(name="x"), "utf-8")
    main(["list", "empty", "--no-personal"])
    assert capsys.readouterr().err.rstrip().endswith("and empty has no SKILL.md anywhere below it")
