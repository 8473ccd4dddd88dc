"""`wave-lsp check` reports SK152 (an unknown `/name`) in the files that mention skills inside the
paths it checks: `CLAUDE.md`, `CLAUDE.local.md`, `AGENTS.md`, `.claude/agents/*.md` and
`.claude/commands/*.md` (issue 38; the core computes it, `skill_references.check_mentions`, as it
does for the language server). Text (with the source line and a caret), JSON, SARIF and GitHub
output; the quick fix under `--fix --unsafe-fixes`; off under the targets without a list of
their built-in commands, with a warning when such a file is named."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wave_lsp.api import find_files
from wave_lsp.cli import main
from wave_lsp.core.features.skill_references import workspace_of
from wave_lsp.core.workspace.discovery import is_diagnosed, is_mention_path

SKILL = "---\nname: {name}\ndescription: Does X. Use when asked.\n---\nBody\n"


def make_project(root: Path, git: bool = True) -> Path:
    """A project with the skill `deploy`, a command file `ship` and mention files that name
    `/deplyo` (misspelt), `/nothing-here` (unknown) and names that exist."""
    if git:
        (root / ".git").mkdir(parents=True)
    skill = root / ".claude/skills/deploy/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL.format(name="deploy"), "utf-8")
    (root / ".claude/commands").mkdir()
    (root / ".claude/commands/ship.md").write_text("Run /deploy.\n", "utf-8")
    (root / ".claude/agents").mkdir()
    (root / ".claude/agents/releaser.md").write_text("Use /ship, then /nothing-here.\n", "utf-8")
    (root / "CLAUDE.md").write_text("Before a release, run /deplyo staging.\n"
                                    "Then /compact and /deploy.\n", "utf-8")
    (root / "docs").mkdir()
    (root / "docs/AGENTS.md").write_text("Run /deploy and /ship; see /usr/bin.\n", "utf-8")
    (root / "README.md").write_text("Run /nothing-here.\n", "utf-8")  # no mention file
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(make_project(tmp_path / "project"))
    return tmp_path / "project"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", *args, "--no-personal"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def findings(out: str) -> list[tuple[str, str, str]]:
    """(file, code, the mentioned name) of each SK152 finding of a JSON report."""
    return [(entry["path"], finding["code"], _mentioned(finding["message"]))
            for entry in json.loads(out)["files"] for finding in entry["findings"]
            if finding["code"] == "SK152"]


def _mentioned(message: str) -> str:
    match = re.search(r"provides `/([^`]+)`", message)
    assert match, message
    return match[1]


def test_a_folder_s_mention_files_are_checked_with_its_skills(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "--format", "json")
    assert code == 0  # warnings only
    assert findings(out) == [("CLAUDE.md", "SK152", "deplyo"),
                             (".claude/agents/releaser.md", "SK152", "nothing-here")]
    paths = [entry["path"] for entry in json.loads(out)["files"]]
    # every mention file checked is listed, with or without findings; a README is none
    assert sorted(paths) == sorted([".claude/skills/deploy/SKILL.md", "CLAUDE.md",
                                    ".claude/agents/releaser.md", ".claude/commands/ship.md",
                                    "docs/AGENTS.md"])


def test_the_text_output_quotes_the_line_with_a_caret(project: Path, capsys) -> None:
    _, out, _ = run(capsys, "CLAUDE.md")
    assert out.splitlines()[:5] == [
        "CLAUDE.md:1:23: SK152 [warning] No skill, command file or built-in command provides "
        "`/deplyo`: replace it with `/deploy`, the nearest name, or create the skill. Did you "
        "mean `/deploy`? Otherwise the model looks for a command that does not exist.",
        "  |",
        "1 | Before a release, run /deplyo staging.",
        "  |                       ^^^^^^^",
        "  |"]
    assert "Checked 1 file: 0 errors, 1 warning" in out


@pytest.mark.parametrize(("fmt", "expected"), [
    ("sarif", [("SK152", "CLAUDE.md", 1, 23), ("SK152", ".claude/agents/releaser.md", 1, 17)]),
    ("github", [("SK152", "CLAUDE.md", 1, 23), ("SK152", ".claude/agents/releaser.md", 1, 17)]),
])
def test_sarif_and_github_output(project: Path, capsys, fmt: str,
                                 expected: list[tuple[str, str, int, int]]) -> None:
    _, out, _ = run(capsys, "--format", fmt)
    if fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        found = [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                  r["locations"][0]["physicalLocation"]["region"]["startLine"],
                  r["locations"][0]["physicalLocation"]["region"]["startColumn"])
                 for r in results]
    else:
        found = []
        for line in out.splitlines():
            if line.startswith(("::warning", "::notice")):
                fields = dict(part.split("=", 1) for part in line.split(" ", 1)[1]
                              .split("::", 1)[0].split(","))
                found.append((fields["title"].split()[0], fields["file"], int(fields["line"]),
                              int(fields["col"])))
    assert found == expected


@pytest.mark.parametrize(("args", "reported", "warned"), [
    (["CLAUDE.md"], ["deplyo"], False),
    (["CLAUDE.md", "--target", "claude-code"], ["deplyo"], False),
    (["CLAUDE.md", "--target", "portable"], ["deplyo"], False),
    # no list of the built-in commands of these runtimes: every one would look unknown
    (["CLAUDE.md", "--target", "codex"], [], True),
    (["CLAUDE.md", "--target", "gemini-cli"], [], True),
    (["CLAUDE.md", "--target", "agentskills"], [], True),
    # ignored on purpose: no warning
    (["CLAUDE.md", "--ignore", "SK152"], [], False),
    (["CLAUDE.md", "--select", "SK001"], [], False),
    # a folder under a target that does not report it: nothing said per file
    ([".", "--target", "codex"], [], False),
])
def test_the_targets_that_report_it(project: Path, capsys, args: list[str], reported: list[str],
                                    warned: bool) -> None:
    _, out, err = run(capsys, *args, "--format", "json")
    assert [name for _, _, name in findings(out)] == reported
    said = "CLAUDE.md is not a skill, and the target" in err
    assert said == warned, err
    if warned:
        assert "reports no unknown `/name` in it (SK152: wave-lsp has no list of its built-in " \
               "commands); skipped" in err


def test_the_fix_writes_the_nearest_name(project: Path, capsys) -> None:
    (project / "CLAUDE.md").write_bytes("\ufeffRun /deplyo now.\r\n".encode())
    code, _, err = run(capsys, "CLAUDE.md", "--fix")
    assert "Fixed 0 findings in 0 files (1 more with --unsafe-fixes)." in err
    code, out, err = run(capsys, "CLAUDE.md", "--fix", "--unsafe-fixes")
    assert code == 0 and "Fixed 1 finding in 1 file." in err
    assert (project / "CLAUDE.md").read_bytes() == "\ufeffRun /deploy now.\r\n".encode()
    assert "Checked 1 file: 0 errors, 0 warnings" in out


def test_gitignored_and_skipped_folders_are_not_walked(project: Path, capsys) -> None:
    (project / ".gitignore").write_text("build/\n", "utf-8")
    for folder in ("build", "node_modules/pkg"):
        (project / folder).mkdir(parents=True)
        (project / folder / "CLAUDE.md").write_text("Run /nothing-here.\n", "utf-8")
    _, out, _ = run(capsys, "--format", "json")
    paths = {entry["path"] for entry in json.loads(out)["files"]}
    assert "build/CLAUDE.md" not in paths and "node_modules/pkg/CLAUDE.md" not in paths
    assert "CLAUDE.md" in paths


def test_a_suppression_comment_silences_it(project: Path, capsys) -> None:
    (project / "CLAUDE.md").write_text("Run /deplyo now. <!-- wave-lsp: ignore SK152 -->\n",
                                       "utf-8")
    _, out, _ = run(capsys, "CLAUDE.md", "--format", "json")
    assert findings(out) == []


def test_the_workspace_of_a_mention_file(tmp_path: Path) -> None:
    """The skills a mention may name are those of its git project, else of the folder that
    holds its `.claude` folder, else of its own folder."""
    plain = make_project(tmp_path / "plain", git=False)
    repository = make_project(tmp_path / "repository")
    cases = [
        (repository / "docs/AGENTS.md", repository),
        (repository / ".claude/agents/releaser.md", repository),
        (plain / ".claude/agents/releaser.md", plain),
        (plain / ".claude/commands/ship.md", plain),
        (plain / "docs/AGENTS.md", plain / "docs"),
        (plain / "CLAUDE.md", plain),
    ]
    assert [(path, workspace_of(path)) for path, _ in cases] == cases


def test_outside_git_an_agent_file_sees_the_skills_beside_its_claude_folder(
        tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(make_project(tmp_path / "plain", git=False))
    _, out, _ = run(capsys, ".claude/agents/releaser.md", "--format", "json")
    assert findings(out) == [(".claude/agents/releaser.md", "SK152", "nothing-here")]


def test_one_walk_finds_the_skills_and_the_mention_files(project: Path) -> None:
    skills, mentions = find_files([Path(".")])
    assert [p.relative_to(project).as_posix() for p in skills] == [
        ".claude/skills/deploy/SKILL.md"]
    assert sorted(p.relative_to(project).as_posix() for p in mentions) == [
        ".claude/agents/releaser.md", ".claude/commands/ship.md", "CLAUDE.md", "docs/AGENTS.md"]
    # a file named is one or the other; a README is neither (the caller warns about it)
    assert find_files([Path("CLAUDE.md"), Path(".claude/skills/deploy/SKILL.md")]) == (
        [Path(".claude/skills/deploy/SKILL.md")], [Path("CLAUDE.md")])


def test_with_no_target_claude_code_s_own_files_are_checked_for_claude_code(
        project: Path, capsys) -> None:
    """`CLAUDE.md` and the files under `.claude/` are Claude Code's: with no target configured
    they are checked for it; `AGENTS.md`, read by other runtimes, for the target its place gives
    (as a SKILL.md there would be)."""
    _, out, _ = run(capsys, "--format", "json")
    targets = {entry["path"]: entry["target"] for entry in json.loads(out)["files"]}
    assert {path: targets[path] for path in ("CLAUDE.md", ".claude/agents/releaser.md",
                                             ".claude/commands/ship.md")} == {
        "CLAUDE.md": "claude-code", ".claude/agents/releaser.md": "claude-code",
        ".claude/commands/ship.md": "claude-code"}
    assert targets["docs/AGENTS.md"] == "wave"
    # a target configured is every file's
    _, out, _ = run(capsys, "--format", "json", "--target", "wave")
    assert json.loads(out)["target"] == "wave"


@pytest.mark.parametrize("relative", [
    "CLAUDE.md", "sub/AGENTS.md", "CLAUDE.local.md", "claude.md", "README.md", "docs/guide.md",
    ".claude/agents/reviewer.md", ".claude/commands/group/ship.md", ".claude/skills/x/SKILL.md",
    ".claude/skills/x/notes.md", ".claude/settings.md", "a/.Claude/Commands/x.MD",
    "a/.claude/agents/.claude/skills/x.md", "x.claude/agents/y.md", ".claude-plugin/plugin.json",
])
def test_the_walk_s_cheap_test_agrees_with_the_file_kinds(relative: str) -> None:
    path = Path("/w") / relative
    assert is_mention_path(str(path)) is is_diagnosed(path)


@pytest.mark.parametrize(("target", "level", "shared"), [
    ((), "information", True),  # no target: Codex & co. read AGENTS.md, their built-ins unknown
    (("--target", "claude-code"), "warning", False),  # the user's target: its list decides
])
def test_agents_md_with_no_target_is_information(project: Path, capsys, target: tuple[str, ...],
                                                 level: str, shared: bool) -> None:
    # a near miss of the skill `deploy` (a name with none near it is information everywhere)
    (project / "docs/AGENTS.md").write_text("Run /deplyo, then /deploy.\n", "utf-8")
    _, out, _ = run(capsys, ".", "--format", "json", *target)
    report = json.loads(out)
    found = [(f["severity"], f["message"]) for file in report["files"]
             if file["path"].endswith("docs/AGENTS.md")
             for f in file["findings"] if f["code"] == "SK152"]
    assert [severity for severity, _ in found] == [level]
    assert ("other runtimes read `AGENTS.md` too" in found[0][1]) is shared


def test_a_name_with_no_known_name_near_it_is_information(project: Path, capsys) -> None:
    """`/nothing-here` has no skill or command near it: more often a plugin's or a personal skill
    the check does not see than a typo, so it is information and says why; `/deplyo` (one letter
    from `deploy`) keeps the rule's level (sample 7: a CLAUDE.md naming its plugin's skills)."""
    _, out, _ = run(capsys, "--format", "json")
    levels = {_mentioned(f["message"]): (f["severity"], f["message"])
              for entry in json.loads(out)["files"] for f in entry["findings"]
              if f["code"] == "SK152"}
    assert levels["deplyo"][0] == "warning"
    assert levels["nothing-here"][0] == "information"
    assert "a plugin or a personal skill this check does not see" in levels["nothing-here"][1]
