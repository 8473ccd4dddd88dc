"""Settings from `workspace/configuration` (section `wave`), re-read on change; bad settings are
logged and replaced by defaults; older clients (Neovim 0.7, Emacs) are served too; a failing
handler answers empty and the server keeps serving."""

from __future__ import annotations

from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, capabilities_of, make_workspace, start
from tests.lsp.helpers import (
    change_document,
    diagnostics,
    diagnostics_until,
    open_document,
    wait_for_index,
)

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


@pytest_lsp.fixture(config=SERVER)
async def lsp_mode(lsp_client: LanguageClient, tmp_path: Path):
    """Emacs's lsp-mode with the snippet of docs/editors.md: it pushes the `wave` settings once it is
    initialized (`lsp--set-configuration`) and answers `workspace/configuration` with an empty
    object (no setting registered with `lsp-register-custom-settings`)."""
    root = make_workspace(tmp_path)
    await start(lsp_client, "emacs", root, ready=False)
    lsp_client.set_configuration({}, section="wave")
    lsp_client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"wave": {"target": "claude-code", "personalSkills": False}}))
    yield
    await lsp_client.shutdown_session()


async def test_pushed_settings_survive_an_empty_configuration_answer(lsp_mode: LanguageClient,
                                                                    tmp_path: Path) -> None:
    uri = open_document(lsp_mode, tmp_path / ".wave/skills/cfg/SKILL.md", TEXT)
    # `version` is SK070 under the default target of `.wave/skills` (wave), not under claude-code;
    # the pull after the push (the server's own, at `initialized`) answers {} and changes nothing
    assert not any(d.code == "SK070" for d in await diagnostics(lsp_mode, uri))
    # a later pull with a value overrides the push, one without keeps it
    lsp_mode.set_configuration({"target": "wave"}, section="wave")
    lsp_mode.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await diagnostics_until(lsp_mode, uri, lambda found: any(d.code == "SK070" for d in found))
    lsp_mode.set_configuration({}, section="wave")
    lsp_mode.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await diagnostics_until(lsp_mode, uri, lambda found: not any(d.code == "SK070" for d in found))


@pytest_lsp.fixture(config=SERVER)
async def neovim_0_7(lsp_client: LanguageClient, tmp_path: Path):
    """Neovim 0.7 with the snippet of docs/editors.md: it neither declares `workspace/configuration` nor
    pushes settings; the snippet gives them as `init_options` (initializationOptions)."""
    root = make_workspace(tmp_path)
    lsp_client.declared = capabilities_of("neovim@v0.7.0")
    lsp_client.initialize_result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=lsp_client.declared, root_uri=root.as_uri(),
        initialization_options={"wave": {"target": "claude-code", "personalSkills": False}},
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")]))
    await wait_for_index(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_initialization_options_are_the_settings_of_a_client_that_sends_no_other(
        neovim_0_7: LanguageClient, tmp_path: Path) -> None:
    workspace = capabilities_of("neovim@v0.7.0").workspace
    assert workspace is not None and not workspace.configuration  # the profile is as Neovim 0.7 is
    uri = open_document(neovim_0_7, tmp_path / ".wave/skills/cfg/SKILL.md", TEXT)
    assert not any(d.code == "SK070" for d in await diagnostics(neovim_0_7, uri))
