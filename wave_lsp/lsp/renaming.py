"""`textDocument/prepareRename` and `textDocument/rename` of a skill (docs/design/lsp.md *Renaming a
skill*).

The core (`wave_lsp.core.features.rename`) finds what is renamed and plans the edits in file
offsets; this module converts the plan into one `WorkspaceEdit` in the form the client declared:
versioned `documentChanges` with the folder's `RenameFile` last (every text edit, also those of
files inside the renamed folder, uses the URIs from before the rename), or plain `changes`. A client
that cannot rename files gets the text edits only and a warning (`window/showMessage`) that the
folder must be renamed by hand. A rename the core refuses is answered with an error the editor
shows: `InvalidParams` for an invalid new name, `RequestFailed` for the rest.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from wave_lsp.lsp.protocol import RequestRefused
from wave_lsp.lsp.server import WaveLanguageServer

if TYPE_CHECKING:
    from wave_lsp.core.features.rename import FileEdits, RenameError, RenamePlan, RenameTarget

NOTHING_TO_RENAME = "Nothing to rename here: put the cursor on the `name:` value of a SKILL.md " \
                    "or on a mention of a skill (`/skill-name`, also in CLAUDE.md or AGENTS.md)."


def register(server: WaveLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    def on_prepare_rename(ls: WaveLanguageServer, params: types.PrepareRenameParams
                          ) -> types.PrepareRenamePlaceholder | None:
        from wave_lsp.core.features.rename import RenameError, rename_target

        analysis = ls.analysis(params.text_document.uri)
        target: RenameTarget | None
        try:
            if analysis is None:  # a mention in CLAUDE.md, AGENTS.md, an agent or command file
                from wave_lsp.lsp import mention_files

                found = mention_files.rename_target(ls, params.text_document.uri,
                                                    params.position)
                if found is None:
                    return None
                target, positions = found
            else:
                positions = analysis.positions
                target = rename_target(analysis.context, positions.offset(params.position))
        except RenameError as error:
            raise refusal(error) from None
        if target is None:
            return None
        return types.PrepareRenamePlaceholder(range=positions.range(target.span),
                                              placeholder=target.name)

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    def on_rename(ls: WaveLanguageServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        from wave_lsp.core.features.rename import RenameError, plan_rename, rename_target

        analysis = ls.analysis(params.text_document.uri)
        open_documents = _open_documents(ls)
        try:
            if analysis is None:  # a mention in CLAUDE.md, AGENTS.md, an agent or command file
                from wave_lsp.lsp import mention_files

                found = mention_files.rename_target(ls, params.text_document.uri,
                                                    params.position)
                target = found[0] if found is not None else None
                settings = ls.state.settings_for(target.skill_file if target else None)
            else:
                target = rename_target(analysis.context, analysis.positions.offset(params.position))
                settings = analysis.context.settings
            if target is None:
                raise RequestRefused(NOTHING_TO_RENAME)
            plan = plan_rename(target, params.new_name, ls.state.index, settings=settings,
                               read=lambda path: _read(open_documents, path))
        except RenameError as error:
            raise refusal(error) from None
        return _workspace_edit(ls, plan, open_documents)


def refusal(error: RenameError) -> RequestRefused:
    """The JSON-RPC error for a rename the core refused: the editor shows its message."""
    if error.invalid_name:
        return RequestRefused(error.message, code=JsonRpcInvalidParams.CODE)
    return RequestRefused(error.message)


def _open_documents(ls: WaveLanguageServer) -> dict[Path, TextDocument]:
    """The open documents by real file path (their text and version win over the disk). Real
    paths: the index resolves the workspace folders, while the editor's URIs may go through a
    symbolic link."""
    found = {}
    for uri, document in ls.workspace.text_documents.items():
        path = to_fs_path(uri)
        if path is not None:
            found[Path(os.path.realpath(path))] = document
    return found


def _opened(open_documents: dict[Path, TextDocument], path: Path) -> TextDocument | None:
    """The open document of `path`, if any (see `_open_documents`)."""
    return open_documents.get(Path(os.path.realpath(path)))


def _read(open_documents: dict[Path, TextDocument], path: Path) -> str | None:
    from wave_lsp.core.features.skill_references import read_from_disk

    document = _opened(open_documents, path)
    return document.source if document is not None else read_from_disk(path)


def applies_document_changes(client: types.ClientInfo | None) -> bool:
    """Whether the client applies `documentChanges` (with a folder's RenameFile) though it does
    not declare them: Neovim 0.10 and later. Every Neovim declares `resourceOperations: rename`
    and none declares `documentChanges`; before 0.10 it fails on a folder's rename, so it is told
    apart by its clientInfo (name `Neovim`, version `0.10.0` …)."""
    if client is None or client.name != "Neovim":
        return False
    numbers = re.match(r"v?(\d+)\.(\d+)", client.version or "")
    return numbers is not None and (int(numbers[1]), int(numbers[2])) >= (0, 10)


def _workspace_edit(ls: WaveLanguageServer, plan: RenamePlan,
                    open_documents: dict[Path, TextDocument]) -> types.WorkspaceEdit:
    document_changes = (bool(ls.client_supports("workspace.workspace_edit.document_changes", False))
                        or applies_document_changes(ls.client_info))
    operations = ls.client_supports("workspace.workspace_edit.resource_operations", None) or ()
    renames_files = document_changes and types.ResourceOperationKind.Rename in operations
    edits = [_file_edit(ls, item, _opened(open_documents, item.path)) for item in plan.files]
    _tell_the_user(ls, plan, renames_files)
    if not document_changes:
        return types.WorkspaceEdit(changes={file.uri: text_edits
                                            for file, text_edits in edits})
    changes: list[types.TextDocumentEdit | types.CreateFile | types.RenameFile
                  | types.DeleteFile] = [types.TextDocumentEdit(text_document=file, edits=text_edits)
                                         for file, text_edits in edits]
    if plan.folder is not None and renames_files:
        changes.append(types.RenameFile(
            old_uri=plan.folder.old.as_uri(), new_uri=plan.folder.new.as_uri(),
            options=types.RenameFileOptions(overwrite=False, ignore_if_exists=False)))
    return types.WorkspaceEdit(document_changes=changes)


def _file_edit(ls: WaveLanguageServer, item: FileEdits, document: TextDocument | None
               ) -> tuple[types.OptionalVersionedTextDocumentIdentifier, list[types.TextEdit]]:
    """One file's edits, with the version of the open document (None for a file on disk)."""
    from wave_lsp.lsp import convert

    positions = convert.Positions(item.lines, ls.encoding, item.bom)
    uri = document.uri if document is not None else item.path.as_uri()
    version = document.version if document is not None else None
    return (types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
            convert.text_edits(item.edits, positions))


def _tell_the_user(ls: WaveLanguageServer, plan: RenamePlan, renames_files: bool) -> None:
    """A warning when the folder must be renamed by hand; what the rename left alone."""
    if plan.folder is not None and not renames_files:
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Warning,
            message=f"Renamed the skill `{plan.old_name}` to `{plan.new_name}`, but this editor "
                    f"cannot rename folders through the language server: rename the folder "
                    f"{plan.folder.old} to {plan.folder.new.name} yourself (the runtime requires "
                    "the folder to carry the skill's name; links into it already use the new "
                    "name)."))
    for note in plan.notes:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=note))
