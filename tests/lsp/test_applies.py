"""The language server speaks of what the target loads (issue 36 items 3 and 4), through
pytest-lsp: with `wave.target` set to `claude-code`, a Codex skill under `.codex/skills` gets one
diagnostic that says Claude Code does not find it (and who does), never Claude Code's field rules;
switching the target to `codex` gives Codex's findings; and with no target configured,
`wave.listSkills` and the diagnostics choose the same target (where the skill lives), as
`wave-lsp list` does."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stdout
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.applies_cases import CODEX_SKILL, write_claude_project, write_codex_project
from tests.lsp.conftest import SERVER, start
from tests.lsp.helpers import diagnostics, diagnostics_until, open_document
from wave_lsp.cli import main


@pytest_lsp.fixture(config=SERVER)
async def codex(lsp_client: LanguageClient, tmp_path: Path):
    write_codex_project(tmp_path)
    await start(lsp_client, "visual-studio-code", tmp_path, settings={"target": "claude-code"})
    yield
    await lsp_client.shutdown_session()


async def test_claude_code_says_only_that_it_does_not_find_a_codex_skill(
        codex: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / ".codex/skills/fix0/SKILL.md"
    text = CODEX_SKILL.format(name="fix0")
    uri = open_document(codex, path, text)
    [only] = await diagnostics(codex, uri)
    assert (only.code, only.severity) == ("SK002", types.DiagnosticSeverity.Information)
    assert only.message.startswith("Not discovered by Claude Code: ")
    assert "Codex and Cursor find it here (target `codex`)" in only.message
    codex.set_configuration({"target": "codex", "personalSkills": False}, section="wave")
    codex.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    found = await diagnostics_until(codex, uri, lambda found: all(d.code != "SK002"
                                                                  for d in found))
    # Codex reads the file: its own findings (it ignores `allowed-tools`), none of Claude Code's
    assert [d.code for d in found] == ["SK070"]
    assert "Codex ignores it" in found[0].message


async def test_the_preview_says_claude_code_does_not_find_a_codex_skill(
        codex: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / ".codex/skills/fix1/SKILL.md"
    uri = open_document(codex, path, CODEX_SKILL.format(name="fix1"))
    result = await codex.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.previewInvocation", arguments=[{"uri": uri, "arguments": "x"}]))
    assert (result["ok"], result["text"], result["unavailable"]) == (False, None, "not-found")
    assert result["error"].startswith("Claude Code does not find this skill where it lies "
                                      "(SK002): Not discovered by Claude Code: ")


@pytest_lsp.fixture(config=SERVER)
async def unconfigured(lsp_client: LanguageClient, tmp_path: Path):
    write_claude_project(tmp_path / "project", tmp_path / "home")
    await start(lsp_client, "visual-studio-code", tmp_path / "project", settings={})
    yield
    await lsp_client.shutdown_session()


async def test_list_skills_picks_the_target_the_diagnostics_use(
        unconfigured: LanguageClient, tmp_path: Path) -> None:
    root = tmp_path / "project"
    listed = await unconfigured.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.listSkills", arguments=[{"uri": root.as_uri()}]))
    assert listed["target"] == "claude-code"
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(root)
    try:
        with redirect_stdout(out):
            main(["list", ".", "--format", "json", "--no-personal"])
    finally:
        os.chdir(cwd)
    assert listed["skills"] == json.loads(out.getvalue())["skills"]
    # the listing the model sees is Claude Code's (`- name: description`), not Wave's bullets
    rendered = await unconfigured.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.renderListing", arguments=[{"uri": root.as_uri()}]))
    assert rendered["target"] == "claude-code"
    assert "- good: Does good things. Use when asked." in rendered["text"].splitlines()
    # the diagnostics of a skill Wave would not load are Claude Code's, which loads it
    colon = root / ".claude/skills/colon/SKILL.md"
    found = await diagnostics(unconfigured, open_document(unconfigured, colon,
                                                          colon.read_text("utf-8")))
    assert not [d for d in found if d.severity == types.DiagnosticSeverity.Error]
