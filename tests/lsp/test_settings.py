"""Settings from `workspace/configuration` (section `wave`), re-read on change; bad settings are
logged and replaced by defaults; older clients (Neovim 0.7, Emacs) are served too; a failing
handler answers empty and the server keeps serving."""

from __future__ import annotations

from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, make_workspace, start
from tests.lsp.helpers import change_document, diagnostics, diagnostics_until, open_document

TEXT = "---\nname: cfg\ndescription: Configured. Use when asked.\nversion: 1.0.0\n---\nBody\n"


@pytest_lsp.fixture(config=SERVER)
async def vscode(lsp_client: LanguageClient, tmp_path: Path):
    await start(lsp_client, "visual-studio-code", make_workspace(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def test_target_setting_is_re_read_on_change(vscode: LanguageClient, tmp_path: Path) -> None:
    uri = open_document(vscode, tmp_path / ".wave/skills/cfg/SKILL.md", TEXT)
    assert any(d.code == "SK070" for d in await diagnostics(vscode, uri))  # `version` under wave
    vscode.set_configuration({"target": "claude-code", "personalSkills": False}, section="wave")
    vscode.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await diagnostics_until(vscode, uri, lambda found: not any(d.code == "SK070" for d in found))
    # severity overrides and pushed settings objects work too
    vscode.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"wave": {"target": "wave", "rules": {"SK070": "off"}}}))
    await diagnostics_until(vscode, uri, lambda found: not any(d.code == "SK070" for d in found))


async def test_bad_settings_are_logged_and_ignored(vscode: LanguageClient, tmp_path: Path) -> None:
    vscode.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"wave": {"target": "nonsense", "rules": {"SK999": "loud"}, "select": 5}}))
    uri = open_document(vscode, tmp_path / ".wave/skills/cfg/SKILL.md", TEXT)
    assert any(d.code == "SK070" for d in await diagnostics(vscode, uri))  # defaults: wave
    logged = " ".join(m.message for m in vscode.log_messages)
    assert "wave.target" in logged and "wave.rules" in logged and "using the default" in logged


async def test_a_settings_section_that_is_not_an_object(vscode: LanguageClient,
                                                        tmp_path: Path) -> None:
    vscode.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"wave": None}))
    vscode.set_configuration(None, section="wave")
    uri = open_document(vscode, tmp_path / ".wave/skills/cfg/SKILL.md", TEXT)
    assert any(d.code == "SK070" for d in await diagnostics(vscode, uri))


async def test_edits_after_errors_keep_being_served(vscode: LanguageClient, tmp_path: Path) -> None:
    uri = open_document(vscode, tmp_path / ".wave/skills/cfg/SKILL.md", "\x00" * 10)
    await diagnostics(vscode, uri)
    change_document(vscode, uri, TEXT, 2)
    assert any(d.code == "SK070" for d in await diagnostics(vscode, uri, 2))


@pytest_lsp.fixture(params=["neovim@v0.7.0", "emacs"], config=SERVER)
async def older(lsp_client: LanguageClient, request, tmp_path: Path):
    await start(lsp_client, request.param, make_workspace(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def test_older_clients_get_pushed_diagnostics(older: LanguageClient, tmp_path: Path) -> None:
    uri = open_document(older, tmp_path / ".wave/skills/cfg/SKILL.md", TEXT)
    assert any(d.code == "SK070" for d in await diagnostics(older, uri))
    assert older.initialize_result.capabilities.diagnostic_provider is None
