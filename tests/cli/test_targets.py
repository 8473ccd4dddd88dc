"""`wave-lsp check|list|preview --target T` on the command line for each target of issue 28, each
asserting the finding only that target gives (tests/target_cases.py), and an unknown target
refused with exit 2 and the valid ones by every command that takes one
(docs/design/targets-facts.md *Every surface*)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.target_cases import (
    COLON_CHARACTER,
    COLON_FINDING,
    COLON_LINE,
    CURSOR_RELPATH,
    EXPECTED,
    NEW_TARGETS,
    RELPATH,
    relpath_for,
    write_colon_project,
)
from wave_lsp.cli import main
from wave_lsp.core.facts.profiles import PROFILES, TARGETS


@pytest.mark.parametrize("target", NEW_TARGETS)
def test_check_reports_what_the_target_does_with_the_skill(
        target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    write_colon_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    code = main(["check", relpath_for(target), "--target", target, "--no-personal",
                 "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    expected = EXPECTED[target]
    assert report["target"] == target
    [checked] = report["files"]
    assert checked["loads"] is expected.loads
    found = [f for f in checked["findings"] if f["code"] == COLON_FINDING]
    assert [(f["severity"], f["range"]["start"]) for f in found] == [
        (expected.severity, {"line": COLON_LINE, "character": COLON_CHARACTER})]
    assert expected.says in found[0]["message"]
    # every other target's phrase is absent: the message is this target's own
    assert not [t for t, other in EXPECTED.items() if t != target and other.says in
                found[0]["message"]]
    assert code == (1 if expected.severity == "error" else 0)


@pytest.mark.parametrize("target", NEW_TARGETS)
def test_list_answers_under_each_target(target: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    write_colon_project(tmp_path)
    assert main(["list", str(tmp_path), "--target", target, "--no-personal",
                 "--format", "json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["target"] == target
    paths = [skill["path"] for skill in listing["skills"]]
    # Cursor never scans `.agents/skills` (runtime-facts.md §9.1), the four others never
    # `.cursor/skills`: each lists the one copy it finds
    assert [Path(path).relative_to(tmp_path).as_posix() for path in paths] == [relpath_for(target)]


@pytest.mark.parametrize("target", NEW_TARGETS)
def test_check_of_a_file_the_target_does_not_find_says_only_that(
        target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/design/rules.md *A target speaks of what it loads*: the copy in the root the target
    does not scan gets one SK002 finding naming who finds it, not the target's field rules, and
    `loads` is false."""
    write_colon_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    other = next(path for path in (RELPATH, CURSOR_RELPATH) if path != relpath_for(target))
    assert main(["check", other, "--target", target, "--no-personal", "--format", "json"]) == 0
    [checked] = json.loads(capsys.readouterr().out)["files"]
    assert (checked["loads"], checked["stoppedBy"]) == (False, "SK002")
    [finding] = checked["findings"]
    assert (finding["code"], finding["severity"]) == ("SK002", "information")
    assert finding["message"].startswith(f"Not discovered by {PROFILES[target].runtime}: ")
    finder = "Cursor" if other == CURSOR_RELPATH else "Codex"
    assert f"{finder}" in finding["message"].split(". ", 2)[-1]


@pytest.mark.parametrize("argv", [
    ["check", ".", "--target", "nope"],
    ["list", ".", "--target", "nope"],
    ["list", ".", "--targets", "codex,nope"],
    ["preview", ".", "--target", "nope"],
], ids=lambda argv: " ".join(argv[:1] + argv[2:]))
def test_an_unknown_target_exits_2_naming_the_valid_ones(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "nope" in error
    assert all(name in error for name in TARGETS), error
