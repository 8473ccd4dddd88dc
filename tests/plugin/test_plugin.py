"""The Claude Code plugin in this repository (docs/agents.md *Claude Code plugin*): the marketplace and the
plugin manifest are what Claude Code reads, the server they declare is started exactly as declared
and driven like Claude Code drives it (push diagnostics only, no workspace folders: the project
root comes from the file), and our own checks pass on the plugin (dogfooding)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.helpers import (
    answer,
    change_document,
    diagnostics,
    make_client,
    open_document,
    published,
)
from wave_lsp import __version__
from wave_lsp.cli import build_parser, main
from wave_lsp.core.facts.profiles import TARGETS

REPO = Path(__file__).resolve().parents[2]
MARKETPLACE = REPO / ".claude-plugin" / "marketplace.json"


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text("utf-8"))


def plugin_root() -> Path:
    (entry,) = load(MARKETPLACE)["plugins"]
    return (REPO / entry["source"]).resolve()


def manifest() -> dict[str, Any]:
    return load(plugin_root() / ".claude-plugin" / "plugin.json")


def declared_command(server: dict[str, Any]) -> list[str]:
    """The command line of a declared server as Claude Code runs it: `command` from PATH (here the
    environment the tests run in, so the console script of this checkout) and `args`."""
    bin_dir = str(Path(sys.executable).parent)
    found = shutil.which(server["command"], path=os.pathsep.join([bin_dir, os.environ.get("PATH", "")]))
    assert found, f"{server['command']} is not installed next to {sys.executable}"
    return [found, *server.get("args", [])]


# -- the files Claude Code reads ----------------------------------------------------------------------
def test_the_repository_is_a_marketplace_with_the_plugin() -> None:
    marketplace = load(MARKETPLACE)
    assert marketplace["name"] == "wave-lsp" and marketplace["owner"]["name"]
    (entry,) = marketplace["plugins"]
    assert entry["source"].startswith("./")  # relative to the marketplace root, the repository
    root = plugin_root()
    assert root.is_relative_to(REPO) and (root / ".claude-plugin" / "plugin.json").is_file()
    plugin = manifest()
    assert plugin["name"] == entry["name"] == "wave-lsp"
    assert plugin["version"] == entry["version"] == __version__
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("SKILL.md")) == [
        "skills/writing-skills/SKILL.md"]


def test_the_manifest_declares_the_language_server_and_the_mcp_server() -> None:
    plugin = manifest()
    (lsp,) = plugin["lspServers"].values()
    assert lsp["command"] == "wave-lsp" and lsp["args"] == ["serve"]
    assert lsp["extensionToLanguage"] == {".md": "markdown"}
    # the MCP server in the plugin's .mcp.json, where `claude plugin details` counts it (not in
    # plugin.json's mcpServers); no link to an address that cannot be reached
    assert "mcpServers" not in plugin
    assert not any("http" in json.dumps(plugin.get(key, "")) for key in ("author", "homepage",
                                                                          "repository"))
    (mcp,) = load(plugin_root() / ".mcp.json")["mcpServers"].values()
    assert mcp["command"] == "wave-lsp" and mcp["args"] == ["mcp"]
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    assert pyproject["project"]["scripts"]["wave-lsp"] == "wave_lsp.cli:main"
    assert "mcp" in pyproject["project"]["optional-dependencies"]
    parser = build_parser()
    assert parser.parse_args(lsp["args"]).command == "serve"
    assert parser.parse_args(mcp["args"]).command == "mcp"


@pytest.mark.parametrize("target", TARGETS)
def test_our_checks_pass_on_the_plugin(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(plugin_root()), "--target", target, "--no-personal",
                 "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert [f["path"] for f in report["files"]] == [
        (plugin_root() / "skills/writing-skills/SKILL.md").relative_to(Path.cwd()).as_posix()
        if plugin_root().is_relative_to(Path.cwd())
        else (plugin_root() / "skills/writing-skills/SKILL.md").as_posix()]
    findings = [(f["code"], f["severity"], f["message"]) for f in report["files"][0]["findings"]]
    assert code == 0 and report["summary"]["error"] == 0, findings
    if target == "claude-code":
        assert findings == []
        assert report["files"][0]["skill"] == "writing-skills"


def test_the_writing_skill_names_the_mcp_tools() -> None:
    text = (plugin_root() / "skills/writing-skills/SKILL.md").read_text("utf-8")
    for tool in ("`check`", "`preview`", "`list_skills`", "`explain_rule`"):
        assert tool in text


# -- the language server as the plugin starts it -------------------------------------------------------
BROKEN_SKILL = "---\nname: demo\ndescription: \"unterminated\n---\n# Demo\n"
#: markdown that would have findings if it were read as a skill
NOT_A_SKILL = "---\nname: Not A Skill\ndescription: [unclosed\n---\n# Read me\n\nRun !`ls`.\n"

#: what a push-only client such as Claude Code declares: document sync and published
#: diagnostics; no `textDocument.diagnostic` (pull), no workspace folders or configuration
PUSH_ONLY = types.ClientCapabilities(
    text_document=types.TextDocumentClientCapabilities(
        synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True)),
    general=types.GeneralClientCapabilities(position_encodings=["utf-16"]))

PLUGIN_SERVER = ClientServerConfig(
    server_command=declared_command(manifest()["lspServers"]["wave-lsp"]), client_factory=make_client)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    (root / ".git").mkdir()
    for relative, text in {".claude/skills/demo/SKILL.md": BROKEN_SKILL,
                           "README.md": NOT_A_SKILL, "docs/notes.md": NOT_A_SKILL,
                           ".claude/skills/demo/references/guide.md": NOT_A_SKILL}.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, "utf-8")
    return root


@pytest_lsp.fixture(scope="module", config=PLUGIN_SERVER)
async def plugin_client(lsp_client: LanguageClient):
    lsp_client.declared = PUSH_ONLY
    lsp_client.initialize_result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=PUSH_ONLY, process_id=os.getpid(), root_uri=None, workspace_folders=None,
        client_info=types.ClientInfo(name="push-only")))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")  # the loop of the module-scoped client
async def test_push_only_client_without_folders_gets_skill_diagnostics_only(
        plugin_client: LanguageClient, project: Path) -> None:
    client = plugin_client  # pytest-lsp hands the test the fixture's client
    assert client.initialize_result.capabilities.diagnostic_provider is None  # push, not pull
    others = [project / "README.md", project / "docs/notes.md",
              project / ".claude/skills/demo/references/guide.md"]
    other_uris = [open_document(client, path, NOT_A_SKILL) for path in others]
    for uri in other_uris:
        change_document(client, uri, NOT_A_SKILL + "\nMore.\n", 2)
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
    skill = project / ".claude/skills/demo/SKILL.md"
    skill_uri = open_document(client, skill, BROKEN_SKILL)
    found = await diagnostics(client, skill_uri)
    assert "SK020" in {d.code for d in found}, [(d.code, d.message) for d in found]
    for uri in other_uris:
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
    # a request answered after start-up and after every notification above was handled
    status = await answer(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.indexStatus", arguments=[{"wait": True}])), "wave.indexStatus")
    assert status["ready"] is True
    # the skill's project root came from the file: the index found its skill without folders
    assert status["skills"] >= 1
    for uri in other_uris:
        assert published(client, uri) == [], uri
    # and no answers about them: the LSP tool of Claude Code may ask about any markdown file
    readme = open_document(client, project / "README.md", NOT_A_SKILL, version=3)
    document = types.TextDocumentIdentifier(uri=readme)
    position = types.Position(1, 7)
    assert not await answer(client.text_document_hover_async(
        types.HoverParams(document, position)), "hover")
    assert not await answer(client.text_document_document_symbol_async(
        types.DocumentSymbolParams(document)), "documentSymbol")
    assert not await answer(client.text_document_definition_async(
        types.DefinitionParams(document, position)), "definition")
    assert not await answer(client.text_document_code_lens_async(
        types.CodeLensParams(document)), "codeLens")
    assert published(client, readme) == []
