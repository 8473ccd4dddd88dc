"""`wave-lsp check`, `list` and `preview` speak of what the target loads (issue 36 items 3 and 4,
issue 39 item 4; docs/design/rules.md *A target speaks of what it loads*, *The default target*):
an explicit target is not applied to files its runtime never finds, `list` with no target picks
each skill's target as `check` does, and `preview` says when the runtime does not run the skill
under its name instead of rendering it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.applies_cases import (
    LOADS,
    NOT_FOUND,
    write,
    write_claude_project,
    write_codex_project,
)
from wave_lsp.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


@pytest.fixture
def codex_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    write_codex_project(root)
    monkeypatch.chdir(root)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return root


@pytest.mark.parametrize("fmt", ["json", "sarif", "text"])
def test_claude_code_says_nothing_of_codex_skills_but_that(
        fmt: str, codex_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The repository of the issue: `check . --target claude-code` reported Claude Code's
    "unknown tool" (SK083) on every Codex skill under `.codex/skills`, with `loads: true`."""
    code, out = run(capsys, "check", ".", "--target", "claude-code", "--format", fmt,
                    "--no-personal")
    assert code == 0
    assert "SK083" not in out
    if fmt == "json":
        files = {f["path"]: f for f in json.loads(out)["files"]}
        assert files[".claude/skills/good/SKILL.md"]["loads"] is True
        for index in range(3):
            entry = files[f".codex/skills/fix{index}/SKILL.md"]
            assert (entry["loads"], entry["stoppedBy"]) == (False, "SK002")
        # a fact of the root (Claude Code never looks in `.codex/skills`): said once, on its
        # first skill folder by name (sample 4)
        assert files[".codex/skills/fix1/SKILL.md"]["findings"] == []
        assert files[".codex/skills/fix2/SKILL.md"]["findings"] == []
        [finding] = files[".codex/skills/fix0/SKILL.md"]["findings"]
        assert finding["severity"] == "information"
        assert finding["message"] == (
            "Not discovered by Claude Code: put a copy in a skills root it reads if it should "
            "load there. It does not look for it in `.codex/skills`. Codex and Cursor find it "
            "here (target `codex`); Claude Code's rules are not applied to it. Said once for "
            "`.codex/skills`: its 2 other skills are not discovered either.")
    elif fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        assert {(r["ruleId"], r["level"]) for r in results} == {("SK002", "note")}
        assert len(results) == 1
    else:
        assert "3 skills are not loaded by Claude Code: .codex/skills/fix0/SKILL.md (SK002)" in out


def test_codex_checks_its_own_skills(codex_project: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "check", ".", "--target", "codex", "--format", "json", "--no-personal")
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert all(files[f".codex/skills/fix{i}/SKILL.md"]["loads"] for i in range(3))
    assert not any(f["code"] == "SK002" for i in range(3)
                   for f in files[f".codex/skills/fix{i}/SKILL.md"]["findings"])
    # the Claude Code skill is the one Codex does not find
    [finding] = files[".claude/skills/good/SKILL.md"]["findings"]
    assert finding["code"] == "SK002" and "target `claude-code`" in finding["message"]


def test_portable_applies_each_runtime_only_to_the_files_it_loads(
        codex_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`.codex/skills` is read by Codex and Cursor only: Wave's and Claude Code's "unknown tool"
    does not apply there; the file is still told who does not find it."""
    _, out = run(capsys, "check", ".codex/skills/fix0", "--target", "portable", "--format",
                 "json", "--no-personal")
    [entry] = json.loads(out)["files"]
    codes = [f["code"] for f in entry["findings"]]
    assert "SK083" not in codes
    [located] = [f for f in entry["findings"] if f["code"] == "SK002"]
    assert located["message"].startswith("Not discovered by Wave, Claude Code, Copilot, OpenCode, "
                                         "Gemini CLI and Copilot CLI: they do not look for it in "
                                         "`.codex/skills`")
    assert entry["loads"] is True


@pytest.fixture
def claude_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    write_claude_project(root, tmp_path / "home")
    monkeypatch.chdir(root)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return root


def test_list_and_check_agree_on_what_loads_with_no_configuration(
        claude_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36: "In a `.claude/skills` project `list` says '2 not loaded (see wave-lsp check)'
    and `check` says they load." One default, the target that fits where the skill lives."""
    _, out = run(capsys, "check", ".", "--format", "json")
    checked = {f["path"]: (f["loads"], f["stoppedBy"]) for f in json.loads(out)["files"]}
    _, out = run(capsys, "list", ".", "--format", "json")
    listing = json.loads(out)
    listed = {row["path"]: (row["loads"], row["stoppedBy"]) for row in listing["skills"]
              if row["scope"] == "project"}
    assert checked == LOADS
    assert listed == {path: loads for path, loads in LOADS.items() if path != NOT_FOUND}
    assert listing["target"] == "claude-code"
    assert {row["target"] for row in listing["skills"]} == {"claude-code"}
    _, out = run(capsys, "list", ".")
    assert "6 skills (claude-code); 5 in the model's listing; 1 not loaded" in out


def test_list_says_which_skills_the_name_does_not_run(
        claude_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 39 item 4: a shadowed skill and one the user cannot type have no command."""
    _, out = run(capsys, "list", ".", "--format", "json")
    rows = {row["path"]: row for row in json.loads(out)["skills"]}
    shown = {path: (row["command"], row["unavailable"]) for path, row in rows.items()
             if row["scope"] == "project"}
    assert shown == {
        ".claude/skills/colon/SKILL.md": ("/colon", None),
        ".claude/skills/good/SKILL.md": ("/good", None),
        ".claude/skills/manual/SKILL.md": (None, "no-command"),
        ".claude/skills/shared/SKILL.md": (None, "shadowed"),
        ".claude/skills/unclosed/SKILL.md": ("/unclosed", None),
    }


@pytest.mark.parametrize(("skill", "argv", "unavailable", "says"), [
    # the personal `shared` wins (Claude Code: personal > project)
    ("shared", [], "shadowed", "Claude Code does not run this skill as `/shared` (SK130): "
                               "Another skill is also named `shared` and wins"),
    ("team/nested", [], "not-found", "Claude Code does not find this skill where it lies "
                                     "(SK002): This SKILL.md is nested 2 folders deep"),
    # Wave does not load a frontmatter that is never closed (Claude Code reads it as the body)
    ("unclosed", ["--target", "wave"], "not-loaded", "Wave does not load this skill (SK006, "
                                                     "line 1)"),
    # Claude Code answers `/manual` with its own refusal (not an unavailability of wave-lsp's)
    ("manual", [], None, "This skill can only be invoked by Claude, not directly by users."),
    # Codex does not scan `.claude/skills`
    ("good", ["--target", "codex"], "not-found",
     "Codex does not find this skill where it lies (SK002): Not discovered by Codex"),
    # Wave does: `user-invocable: false` leaves it to the model, and Wave has no refusal text
    ("manual", ["--target", "wave"], "no-command",
     "Wave offers no `/manual` command for this skill: `user-invocable: false`"),
    ("good", [], None, None),
])
def test_preview_says_when_the_runtime_does_not_run_the_skill(
        skill: str, argv: list[str], unavailable: str | None, says: str | None,
        claude_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "preview", f".claude/skills/{skill}", "--format", "json", *argv)
    result = json.loads(out)
    assert result["unavailable"] == unavailable
    if says is None:
        assert (code, result["ok"], result["error"]) == (0, True, None)
        assert result["text"].startswith("Base directory for this skill: ")
        return
    assert (code, result["ok"], result["text"]) == (1, False, None)
    assert result["error"].startswith(says), result["error"]


def test_preview_of_a_name_two_codex_skills_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Codex loads both skills of a name, and a plain `$name` selects neither (case
    cx-duplicate-name): `preview` renders neither, `list` gives neither a command."""
    (tmp_path / ".git").mkdir()
    text = "---\nname: twin\ndescription: Twin. Use when asked.\n---\nBody\n"
    write(tmp_path / ".agents/skills/a/SKILL.md", text)
    write(tmp_path / ".codex/skills/b/SKILL.md", text)
    monkeypatch.chdir(tmp_path)
    code, out = run(capsys, "preview", ".agents/skills/a", "--target", "codex", "--format",
                    "json", "--no-personal")
    result = json.loads(out)
    assert (code, result["ok"], result["unavailable"]) == (1, False, "ambiguous")
    assert "a plain `$twin` selects none of them" in result["error"]
    _, out = run(capsys, "list", ".", "--target", "codex", "--format", "json", "--no-personal")
    assert [(row["command"], row["unavailable"], row["loads"])
            for row in json.loads(out)["skills"]] == [(None, "ambiguous", True)] * 2
