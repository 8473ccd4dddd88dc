"""Find-references and skill mentions outside SKILL.md through real clients' capabilities
(docs/features/references.md): `textDocument/references` from a skill's name, its heading and a
mention; SK152 in CLAUDE.md, AGENTS.md, agent and command files (pushed or pulled) with its quick
fix; hover and go-to-definition on a mention; a rename started in CLAUDE.md.

Once per client: VS Code (UTF-16, push, versioned document changes and file renames), Neovim 0.11
(UTF-8 negotiated, pull, plain `changes`: no folder move) and VS Code without `resourceOperations`
(document changes but no file renames: the text edits and a warning, no `RenameFile`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, capabilities_of, make_workspace, start
from tests.lsp.helpers import answer, diagnostics, encoding_of, open_document, position_of, pulls

pytestmark = pytest.mark.asyncio(loop_scope="module")

DEPLOY = "---\nname: deploy\ndescription: Deploys the app. Use when asked to deploy.\n---\n" \
         "# Deploy\n\nShip it.\n"
USER = "---\nname: user\ndescription: Uses deploy. Use when asked.\n---\nThen run /deploy.\n"
#: a byte-order mark, CRLF and non-ASCII text before the mentions: their columns differ per encoding
CLAUDE = "\ufeff# Project\r\n😀 Run /deploy, then `deploy`.\r\nNot /deplyo, /compact or /usr/bin.\r\n"
AGENTS = "Always /deploy from main.\n"
AGENT = "---\nname: shipper\ndescription: Ships.\n---\nUse the `deploy` skill.\n"
COMMAND = "Release: /deploy prod\n"
README = "Not scanned: /deplyo\n"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_workspace(tmp_path_factory.mktemp("refs"))
    files = {".claude/skills/deploy/SKILL.md": DEPLOY, ".claude/skills/user/SKILL.md": USER,
             "CLAUDE.md": CLAUDE, "AGENTS.md": AGENTS, ".claude/agents/shipper.md": AGENT,
             ".claude/commands/release.md": COMMAND, "README.md": README}
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(text.encode("utf-8"))
    return root


def without_file_renames() -> types.ClientCapabilities:
    capabilities = capabilities_of("visual-studio-code")
    assert capabilities.workspace is not None and capabilities.workspace.workspace_edit is not None
    capabilities.workspace.workspace_edit.resource_operations = [
        types.ResourceOperationKind.Create, types.ResourceOperationKind.Delete]
    return capabilities


PROFILES = ["visual-studio-code", "neovim-0.11", "vscode-without-resource-operations"]


@pytest_lsp.fixture(scope="module", params=PROFILES, config=SERVER)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest, workspace: Path):
    profile = (without_file_renames() if request.param == "vscode-without-resource-operations"
               else request.param)
    await start(lsp_client, profile, workspace)
    yield
    await lsp_client.shutdown_session()


def at(client: LanguageClient, text: str, needle: str, offset: int = 0) -> types.Position:
    """The client's position of `needle` in `text` as the client holds it (a BOM counted)."""
    return position_of(text, needle, offset, encoding_of(client))


def where(client: LanguageClient, text: str, needle: str, length: int | None = None,
          offset: int = 0) -> types.Range:
    start = at(client, text, needle, offset)
    size = len(needle) - offset if length is None else length
    end = at(client, text, needle, offset + size)
    return types.Range(start, end)


async def references(client: LanguageClient, uri: str, position: types.Position,
                     declaration: bool) -> list[types.Location]:
    return list(await answer(client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position,
        context=types.ReferenceContext(include_declaration=declaration))),
        "textDocument/references") or [])


async def test_references_are_advertised(client: LanguageClient) -> None:
    assert client.initialize_result.capabilities.references_provider
    general = client.declared.general
    offered = list(general.position_encodings or []) if general else []
    # Neovim 0.11 offers UTF-8 first and gets it; VS Code offers nothing and counts UTF-16
    assert encoding_of(client) == ("utf-8" if offered[:1] == ["utf-8"] else "utf-16")


async def test_references_from_the_name_list_every_mention(client: LanguageClient,
                                                            workspace: Path) -> None:
    skill = workspace / ".claude/skills/deploy/SKILL.md"
    uri = open_document(client, skill, DEPLOY)
    found = await references(client, uri, at(client, DEPLOY, "deploy", 2), declaration=True)
    shown = {(Path(location.uri.removeprefix("file://")).relative_to(workspace).as_posix(),
              location.range.start.line, location.range.start.character,
              location.range.end.character) for location in found}
    claude = where(client, CLAUDE, "/deploy")
    backticked = where(client, CLAUDE, "`deploy`", offset=1, length=6)
    assert shown == {
        (".claude/skills/deploy/SKILL.md", 1, 6, 12),  # the declaration
        (".claude/skills/user/SKILL.md", 4, 9, 16),
        ("CLAUDE.md", 1, claude.start.character, claude.end.character),
        ("CLAUDE.md", 1, backticked.start.character, backticked.end.character),
        ("AGENTS.md", 0, 7, 14),
        (".claude/agents/shipper.md", 4, 9, 15),
        (".claude/commands/release.md", 0, 9, 16),
    }
    encoding = encoding_of(client)
    # 😀 is 4 UTF-8 bytes, 2 UTF-16 units; the BOM is on line 0 only
    assert claude.start.character == {"utf-8": 9, "utf-16": 7, "utf-32": 6}[encoding]
    without = await references(client, uri, at(client, DEPLOY, "# Deploy", 3), declaration=False)
    assert len(without) == len(found) - 1
    assert all(location.range.start.line != 1 or "deploy/SKILL.md" not in location.uri
               for location in without)


async def test_references_from_a_mention_in_claude_md(client: LanguageClient,
                                                      workspace: Path) -> None:
    uri = open_document(client, workspace / "CLAUDE.md", CLAUDE)
    found = await references(client, uri, at(client, CLAUDE, "/deploy", 3), declaration=False)
    assert len(found) == 6 and uri in {location.uri for location in found}
    assert await references(client, uri, at(client, CLAUDE, "Project"), declaration=True) == []


async def test_an_unknown_slash_name_is_reported_with_a_quick_fix(client: LanguageClient,
                                                                  workspace: Path) -> None:
    uri = open_document(client, workspace / "CLAUDE.md", CLAUDE, version=2)
    found = await diagnostics(client, uri, version=2)
    assert [(d.code, d.range) for d in found] == [("SK152", where(client, CLAUDE, "/deplyo"))]
    assert "Did you mean `/deploy`?" in found[0].message
    actions = await answer(client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=found[0].range,
        context=types.CodeActionContext(diagnostics=found))), "textDocument/codeAction")
    assert [action.title for action in actions] == ["Replace with `/deploy`"]
    edit = actions[0].edit
    edits = (edit.document_changes[0].edits if edit.document_changes
             else edit.changes[uri])
    assert [(e.range, e.new_text) for e in edits] == [
        (where(client, CLAUDE, "deplyo"), "deploy")]


async def test_other_mention_files_and_not_a_readme(client: LanguageClient,
                                                    workspace: Path) -> None:
    command = open_document(client, workspace / ".claude/commands/typo.md",
                            "Release: /deplyo prod\n")
    assert [d.code for d in await diagnostics(client, command)] == ["SK152"]
    agents = open_document(client, workspace / "AGENTS.md", AGENTS)
    assert await diagnostics(client, agents) == []
    readme = open_document(client, workspace / "README.md", README)
    if pulls(client):
        assert await diagnostics(client, readme) == []
    hover = await answer(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=readme), position=types.Position(0, 15))),
        "textDocument/hover")
    assert hover is None


async def test_hover_and_definition_on_a_mention(client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, workspace / "CLAUDE.md", CLAUDE, version=3)
    position = at(client, CLAUDE, "`deploy`", 2)
    hover = await answer(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position)),
        "textDocument/hover")
    assert hover is not None and "Deploys the app." in hover.contents.value
    assert hover.range == where(client, CLAUDE, "`deploy`", offset=1, length=6)
    found = await answer(client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=at(client, CLAUDE, "/deploy", 1))), "textDocument/definition")
    assert [location.uri for location in found] == [
        (workspace / ".claude/skills/deploy/SKILL.md").as_uri()]


async def test_a_rename_started_in_claude_md(client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, workspace / "CLAUDE.md", CLAUDE, version=4)
    position = at(client, CLAUDE, "/deploy", 2)
    prepared = await answer(client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position)),
        "textDocument/prepareRename")
    assert prepared == types.PrepareRenamePlaceholder(range=where(client, CLAUDE, "deploy"),
                                                      placeholder="deploy")
    edit = await answer(client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position,
        new_name="ship")), "textDocument/rename")
    if edit.document_changes is None:
        changed = {key: list(value) for key, value in (edit.changes or {}).items()}
        renames = []
    else:
        changed = {change.text_document.uri: list(change.edits)
                   for change in edit.document_changes
                   if isinstance(change, types.TextDocumentEdit)}
        renames = [c for c in edit.document_changes if isinstance(c, types.RenameFile)]
    relative = {Path(key.removeprefix("file://")).relative_to(workspace).as_posix()
                for key in changed}
    assert relative == {".claude/skills/deploy/SKILL.md", ".claude/skills/user/SKILL.md",
                        "CLAUDE.md", "AGENTS.md", ".claude/agents/shipper.md",
                        ".claude/commands/release.md"}
    assert [(e.range, e.new_text) for e in changed[uri]] == [
        (where(client, CLAUDE, "deploy"), "ship"),
        (where(client, CLAUDE, "`deploy`", offset=1, length=6), "ship")]
    declared = client.declared.workspace.workspace_edit
    moves = bool(declared.document_changes) and types.ResourceOperationKind.Rename in (
        declared.resource_operations or ())
    folder = workspace / ".claude/skills/deploy"
    if moves:
        assert [(r.old_uri, r.new_uri) for r in renames] == [
            (folder.as_uri(), folder.with_name("ship").as_uri())]
    else:
        assert renames == []
        warnings = [params.message for method, params in client.received
                    if method == types.WINDOW_SHOW_MESSAGE
                    and params.type == types.MessageType.Warning]
        assert any("rename the folder" in message for message in warnings)


async def test_definition_of_a_backticked_name_in_a_skill(client: LanguageClient,
                                                          workspace: Path) -> None:
    """Last in the module: the opened skill joins the index (its text is the editor's)."""
    text = "---\nname: third\ndescription: Third. Use when asked.\n---\nAfter `deploy`, rest.\n"
    uri = open_document(client, workspace / ".claude/skills/third/SKILL.md", text)
    found = await answer(client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=at(client, text, "`deploy`", 2))), "textDocument/definition")
    assert [location.uri for location in found] == [
        (workspace / ".claude/skills/deploy/SKILL.md").as_uri()]
    nothing = await answer(client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=at(client, text, "rest"))), "textDocument/definition")
    assert list(nothing or []) == []
