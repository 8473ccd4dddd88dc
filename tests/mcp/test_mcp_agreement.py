"""`wave-lsp mcp` with no target configured agrees with `wave-lsp check` and `wave-lsp list` on
what loads in a `.claude/skills` project (issue 36 item 4: one default target, the one that fits
where each skill lives), and says when the runtime does not run a skill under its name (issue 39
item 4), through the MCP SDK's stdio client."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.applies_cases import LOADS, NOT_FOUND, write_claude_project, write_codex_project
from tests.mcp.test_mcp_server import call, connect
from wave_lsp.cli import main

pytestmark = pytest.mark.timeout(180)


def command_line(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                 *argv: str) -> dict:
    monkeypatch.chdir(root)
    monkeypatch.setenv("HOME", str(root.parent / "home"))
    main(list(argv))
    return json.loads(capsys.readouterr().out)


async def test_mcp_list_check_and_the_command_line_agree_on_what_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "project"
    write_claude_project(root, tmp_path / "home")
    async with connect(root) as session:
        checked = await call(session, "check", {})
        listed = await call(session, "list_skills", {})
        shadowed = await call(session, "preview", {"path": ".claude/skills/shared"})
    cli_checked = command_line(root, monkeypatch, capsys, "check", ".", "--format", "json")
    cli_listed = command_line(root, monkeypatch, capsys, "list", ".", "--format", "json")

    def loads_checked(report: dict) -> dict:
        return {f["path"]: (f["loads"], f["stoppedBy"]) for f in report["files"]}

    def loads_listed(report: dict) -> dict:
        return {row["path"]: (row["loads"], row["stoppedBy"]) for row in report["skills"]
                if row["scope"] == "project"}

    assert loads_checked(checked) == loads_checked(cli_checked) == LOADS
    assert loads_listed(listed) == loads_listed(cli_listed) == {
        path: loads for path, loads in LOADS.items() if path != NOT_FOUND}
    assert listed["target"] == checked["target"] == "claude-code"
    assert listed["skills"] == cli_listed["skills"]
    assert (shadowed["ok"], shadowed["unavailable"]) == (False, "shadowed")


async def test_mcp_check_with_claude_code_says_nothing_of_codex_skills(tmp_path: Path) -> None:
    root = tmp_path / "project"
    codex = write_codex_project(root)
    async with connect(root) as session:
        checked = await call(session, "check", {"target": "claude-code", "personal": False})
    files = {f["path"]: f for f in checked["files"]}
    first = min(path.parent.name for path in codex)  # a fact of the root: said once
    for path in codex:
        entry = files[path.relative_to(root).as_posix()]
        assert (entry["loads"], entry["stoppedBy"]) == (False, "SK002")
        assert [f["code"] for f in entry["findings"]] == (
            ["SK002"] if path.parent.name == first else [])


async def test_mcp_check_reports_unknown_mentions_as_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """SK152 in the files that mention skills (`CLAUDE.md`, agent files) comes out of the MCP
    `check` tool as out of `wave-lsp check --format json` (issue 38)."""
    root = tmp_path / "project"
    write_claude_project(root, tmp_path / "home")
    (root / "CLAUDE.md").write_text("Run /no-such-skill before a release.\n", "utf-8")
    async with connect(root) as session:
        checked = await call(session, "check", {"personal": False})
    cli_checked = command_line(root, monkeypatch, capsys, "check", ".", "--no-personal",
                               "--format", "json")

    def mentions(report: dict) -> list[tuple[str, str, int]]:
        return [(f["path"], finding["code"], finding["range"]["start"]["character"])
                for f in report["files"] for finding in f["findings"]
                if finding["code"] == "SK152"]

    assert mentions(checked) == mentions(cli_checked) == [("CLAUDE.md", "SK152", 4)]
