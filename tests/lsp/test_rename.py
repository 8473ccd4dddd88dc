"""Renaming a skill through a real client (`textDocument/prepareRename`, `textDocument/rename`),
once per client profile: VS Code declares versioned document changes and file renames, so its edit
ends with the folder's `RenameFile`; the Neovim capture declares no document changes, so it gets
plain text edits and a warning that the folder must be renamed by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from tests.lsp.conftest import make_workspace, start
from tests.lsp.helpers import answer, make_client, open_document, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

OLD = "---\nname: old-name\ndescription: The old one. Use when asked.\n---\n# Old\n"
#: a mention and a link after non-ASCII text: their columns differ per position encoding
USER = ("---\nname: user\ndescription: Uses the old one. Use when asked.\n---\n"
        "😀 Run /old-name, then read [it](../old-name/SKILL.md).\n")
LABELLED = "---\nname: labelled\ndescription: Folder named otherwise. Use when asked.\n---\n"
LABELLED_USER = "---\nname: labelled-user\ndescription: Mentions. Use when asked.\n---\n" \
                "Call /labelled and [x](../the-folder/SKILL.md).\n"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared test workspace plus the skills these tests rename."""
    root = make_workspace(tmp_path_factory.mktemp("ws"))
    files = {".wave/skills/old-name/SKILL.md": OLD,
             ".wave/skills/old-name/references/guide.md": "# Guide\n",
             ".wave/skills/user/SKILL.md": USER,
             ".wave/skills/the-folder/SKILL.md": LABELLED,
             ".wave/skills/labelled-user/SKILL.md": LABELLED_USER}
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, "utf-8")
    return root


def units(text: str, encoding: str | None) -> int:
    """How many units the client counts for `text` in its negotiated encoding."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def encoding_of(client: LanguageClient) -> str | None:
    return client.initialize_result.capabilities.position_encoding


def column(client: LanguageClient, line: str, before: str) -> int:
    """The client's column of `before` (its first occurrence) on `line`."""
    return units(line[: line.index(before)], encoding_of(client))


def renames_files(client: LanguageClient) -> bool:
    edit = client.declared.workspace.workspace_edit
    return bool(edit.document_changes) and types.ResourceOperationKind.Rename in (
        edit.resource_operations or ())


async def prepare(client: LanguageClient, uri: str, line: int, character: int):
    return await answer(client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line, character))), "textDocument/prepareRename")


async def rename(client: LanguageClient, uri: str, line: int, character: int, new_name: str):
    return await answer(client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line, character), new_name=new_name)), "textDocument/rename")


def text_edits(edit: types.WorkspaceEdit) -> dict[str, tuple[int | None, list[types.TextEdit]]]:
    """uri -> (version, edits), from either form of the edit."""
    if edit.document_changes is None:
        return {uri: (None, list(edits)) for uri, edits in (edit.changes or {}).items()}
    return {change.text_document.uri: (change.text_document.version, list(change.edits))
            for change in edit.document_changes if isinstance(change, types.TextDocumentEdit)}


def span(line: int, start: int, end: int) -> types.Range:
    return types.Range(types.Position(line, start), types.Position(line, end))


def messages(client: LanguageClient, kind: types.MessageType) -> list[str]:
    return [params.message for method, params in client.received
            if method == types.WINDOW_SHOW_MESSAGE and params.type == kind]


async def test_rename_is_advertised_with_prepare(client: LanguageClient) -> None:
    provider = client.initialize_result.capabilities.rename_provider
    assert isinstance(provider, types.RenameOptions) and provider.prepare_provider is True


async def test_prepare_answers_the_name_on_the_name_value_and_on_a_mention(
        client: LanguageClient, workspace: Path) -> None:
    own = open_document(client, workspace / ".wave/skills/old-name/SKILL.md", OLD)
    found = await prepare(client, own, 1, 8)
    assert found == types.PrepareRenamePlaceholder(range=span(1, 6, 14), placeholder="old-name")

    user = open_document(client, workspace / ".wave/skills/user/SKILL.md", USER)
    line = USER.splitlines()[4]
    start = column(client, line, "old-name")
    found = await prepare(client, user, 4, start + 2)
    assert found == types.PrepareRenamePlaceholder(range=span(4, start, start + 8),
                                                   placeholder="old-name")
    assert start == {"utf-8": 10, "utf-16": 8, "utf-32": 7}[encoding_of(client)]

    assert await prepare(client, own, 2, 3) is None  # the description: nothing to rename
    assert await prepare(client, own, 1, 2) is None  # the key


async def test_rename_edits_the_name_mentions_links_and_the_folder(client: LanguageClient,
                                                                   workspace: Path) -> None:
    folder = workspace / ".wave/skills/old-name"
    own = open_document(client, folder / "SKILL.md", OLD, version=3)
    user = open_document(client, workspace / ".wave/skills/user/SKILL.md", USER, version=2)
    edit = await rename(client, own, 1, 8, "new-name")
    found = text_edits(edit)
    assert set(found) == {own, user}  # the own file under its URI from before the rename
    line = USER.splitlines()[4]
    mention, link = column(client, line, "old-name"), column(client, line, "old-name/")
    assert [e.range for e in found[user][1]] == [span(4, mention, mention + 8),
                                                 span(4, link, link + 8)]
    assert {e.new_text for e in found[user][1] + found[own][1]} == {"new-name"}
    assert found[own][1][0].range == span(1, 6, 14)
    if renames_files(client):
        assert (found[own][0], found[user][0]) == (3, 2)  # the versions of the open documents
        last = edit.document_changes[-1]
        assert isinstance(last, types.RenameFile)  # after every text edit
        assert (last.old_uri, last.new_uri) == (folder.as_uri(),
                                                folder.with_name("new-name").as_uri())
        assert last.options.overwrite is False
        assert not any(isinstance(c, types.RenameFile) for c in edit.document_changes[:-1])
    else:
        assert edit.document_changes is None or not any(
            isinstance(c, types.RenameFile) for c in edit.document_changes)
        warning = await wait_until(client, lambda: next(iter(
            m for m in messages(client, types.MessageType.Warning) if "new-name" in m), None),
            "a warning that the folder must be renamed")
        assert str(folder) in warning and "rename the folder" in warning


async def test_a_folder_named_otherwise_is_not_renamed(client: LanguageClient,
                                                       workspace: Path) -> None:
    own = open_document(client, workspace / ".wave/skills/the-folder/SKILL.md", LABELLED)
    before = len(messages(client, types.MessageType.Warning))
    edit = await rename(client, own, 1, 7, "relabelled")
    found = text_edits(edit)
    other = (workspace / ".wave/skills/labelled-user/SKILL.md").as_uri()
    assert [(e.range, e.new_text) for e in found[other][1]] == [(span(4, 6, 14), "relabelled")]
    assert found[other][0] is None  # a file that is not open: no version
    assert not any(isinstance(c, types.RenameFile) for c in edit.document_changes or [])
    assert len(messages(client, types.MessageType.Warning)) == before  # nothing to do by hand


async def test_an_invalid_new_name_is_an_error_naming_the_problem(client: LanguageClient,
                                                                  workspace: Path) -> None:
    own = open_document(client, workspace / ".wave/skills/old-name/SKILL.md", OLD, version=5)
    with pytest.raises(JsonRpcException) as raised:
        await rename(client, own, 1, 8, "New Name")
    assert raised.value.code == types.ErrorCodes.InvalidParams
    assert "`New Name` is not a valid skill name" in raised.value.message
    assert "(SK034)" in raised.value.message and "(SK037)" in raised.value.message


async def test_a_rename_elsewhere_is_refused(client: LanguageClient, workspace: Path) -> None:
    own = open_document(client, workspace / ".wave/skills/old-name/SKILL.md", OLD, version=7)
    with pytest.raises(JsonRpcException) as raised:
        await rename(client, own, 2, 3, "new-name")
    assert raised.value.code == types.LSPErrorCodes.RequestFailed
    assert "Nothing to rename here" in raised.value.message


async def test_open_documents_are_found_through_a_symbolic_link(tmp_path: Path) -> None:
    """The index resolves its folders, the editor's URIs may go through a link: the plan must
    still read the editor's unsaved text and address the open document (its URI and version)."""
    from types import SimpleNamespace

    from pygls.workspace import TextDocument

    from wave_lsp.lsp import renaming

    real = tmp_path / "real/.wave/skills/user/SKILL.md"
    real.parent.mkdir(parents=True)
    real.write_text(USER, "utf-8")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    shown = tmp_path / "link/.wave/skills/user/SKILL.md"
    unsaved = USER + "Unsaved line.\n"
    document = TextDocument(shown.as_uri(), unsaved, version=7)
    ls = SimpleNamespace(workspace=SimpleNamespace(text_documents={document.uri: document}))
    opened = renaming._open_documents(ls)  # type: ignore[arg-type]  # only .workspace is used
    assert renaming._read(opened, real) == unsaved
    assert renaming._opened(opened, real) is document


@pytest.mark.parametrize(("version", "folder_renamed"), [("0.7.2", False), ("0.9.5", False),
                                                         ("0.10.0", True), ("0.12.0-dev", True)])
async def test_neovim_gets_the_folder_rename_from_0_10(tmp_path: Path, version: str,
                                                       folder_renamed: bool) -> None:
    """Every Neovim declares `resourceOperations: rename` and no `documentChanges` (the captured
    0.7 set, as 0.7.2 and 0.12 declare them); 0.10 and later apply a folder's RenameFile, 0.7
    fails on it. The server tells them apart by clientInfo: the folder rename for 0.10+, text
    edits and a warning for the others."""
    root = make_workspace(tmp_path / "ws")
    (root / ".wave/skills/old-name").mkdir(parents=True)
    (root / ".wave/skills/old-name/SKILL.md").write_text(OLD, "utf-8")
    client = make_client()
    await client.start_io(sys.executable, "-m", "wave_lsp", "serve")
    try:
        await start(client, "neovim@v0.7.0", root,
                    client_info=types.ClientInfo(name="Neovim", version=version))
        folder = root / ".wave/skills/old-name"
        own = open_document(client, folder / "SKILL.md", OLD, version=3)
        edit = await rename(client, own, 1, 8, "new-name")
        renames = [c for c in edit.document_changes or [] if isinstance(c, types.RenameFile)]
        assert [(c.old_uri, c.new_uri) for c in renames] == (
            [(folder.as_uri(), folder.with_name("new-name").as_uri())] if folder_renamed else [])
        assert own in text_edits(edit)
        if not folder_renamed:
            assert edit.changes is not None
            await wait_until(client, lambda: next(iter(
                m for m in messages(client, types.MessageType.Warning) if "new-name" in m), None),
                "a warning that the folder must be renamed")
        await client.shutdown_session()
    finally:
        await client.stop()
