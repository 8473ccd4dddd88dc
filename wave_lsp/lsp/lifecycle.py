"""Session life cycle: initialize, settings, document sync, diagnostics and file watching.

- `initialize`: pull diagnostics are registered only for clients that declare
  `textDocument.diagnostic`; everybody else gets pushed diagnostics.
- `initialized`: settings are pulled from `workspace/configuration` (section `wave`), over the
  settings the client pushed (`workspace/didChangeConfiguration`) and its `initializationOptions`
  (the only way Neovim 0.7 gives them); `workspace/didChangeConfiguration` and file watchers are registered
  dynamically when the client allows it; the skill index is built off the event loop, with
  work-done progress (token `wave-lsp-index`) for clients that declare `window.workDoneProgress`.
  Then open documents are re-checked and `index_ready` is set: the readiness signal for clients
  without progress (`wave.indexStatus`). Requests that come earlier answer with what is known
  (the documents opened so far, built-in agents), never with an error.
- `workspace/diagnostic` (pull clients) reports the skill files that are not open: name
  collisions, the listing budget and resource findings reach the client without opening the file;
  push clients get the same findings published after indexing, file events, saves and settings
  changes (docs/design/lsp.md *Findings on files that are not open*).
- file events (and saves, for clients that watch files) update the index and the project snapshots
  incrementally and re-check only the open documents that depend on the change
  (docs/design/product.md *Incremental re-indexing*).
- open/change/save publish (push clients); close clears a skill file's diagnostics, or replaces
  them by its findings on disk. Markdown that is not a skill (a README) gets no diagnostics and no
  work: clients such as Claude Code hand the server every `.md` file. The exceptions are the
  files that mention skills (`CLAUDE.md`, `AGENTS.md`, `.claude/agents`, `.claude/commands`):
  their unknown `/name` mentions (SK152) while they are open (`wave_lsp.lsp.mention_files`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.uris import to_fs_path

from wave_lsp.core.workspace.discovery import is_skill_file
from wave_lsp.lsp.server import CONFIG_SECTION, WaveLanguageServer, safe

if TYPE_CHECKING:  # imported where used: the snapshot module brings the YAML parser, which the
    # server does not need before its first skill (start-up, issue 18)
    from wave_lsp.core.workspace.snapshot import FileChange

#: files whose content matters (every change) and files whose existence matters (create/delete,
#: which is also how editors report renames: SK112 depends on them)
WATCHED_CHANGES = ["**/SKILL.md", "**/skill.md", "**/*.md", "**/settings.json",
                   "**/settings.local.json", "**/plugin.json", "**/pyproject.toml", "**/.gitignore"]
WATCHED_EXISTENCE = ["**/*"]


def register(server: WaveLanguageServer) -> None:
    @server.feature(types.INITIALIZE)
    def on_initialize(ls: WaveLanguageServer, params: types.InitializeParams) -> None:
        ls.client_info = params.client_info
        options = params.initialization_options
        if isinstance(options, Mapping):
            section = options.get(CONFIG_SECTION, options)
            ls.initial_settings = dict(section) if isinstance(section, Mapping) else {}
        # pull only for clients that can also be told to pull again (after file events, settings
        # changes and indexing); a client that cannot would keep stale diagnostics: push to it
        if (ls.client_supports("text_document.diagnostic", None) is not None
                and ls.client_supports("workspace.diagnostics.refresh_support", False)):
            ls.pull_diagnostics = True
            ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(
                identifier="wave-lsp", inter_file_dependencies=True,
                workspace_diagnostics=True))(pull_diagnostics)
            # pygls advertises `workspaceDiagnostics` from this registration
            ls.feature(types.WORKSPACE_DIAGNOSTIC)(workspace_diagnostics)

    @server.feature(types.INITIALIZED)
    @safe(lambda: None)
    async def on_initialized(ls: WaveLanguageServer, params: types.InitializedParams) -> None:
        try:
            _apply_settings(ls, {})
            await _pull_settings(ls)
            await _register_dynamic(ls)
            await _index_workspace(ls)
            if ls.watching_files:  # the workspace's changes arrive as file events
                ls.state.session.watch(_workspace_folders(ls))
            ls.state.invalidate()
            ls.refresh_all()
            ls.schedule_unopened()
        finally:
            ls.index_ready.set()  # after a failure too: requests answer with what is known

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @safe(lambda: None)
    async def on_configuration(ls: WaveLanguageServer,
                               params: types.DidChangeConfigurationParams) -> None:
        pushed = params.settings
        if isinstance(pushed, Mapping) and isinstance(pushed.get(CONFIG_SECTION), Mapping):
            ls.pushed_settings = dict(pushed[CONFIG_SECTION])
            _apply_settings(ls, {})
        else:
            await _pull_settings(ls)
        ls.refresh_all()
        ls.schedule_unopened()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @safe(lambda: None)
    def on_watched(ls: WaveLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        from wave_lsp.core.workspace.snapshot import FileChange

        changes = [(Path(path), FileChange(int(event.type))) for event in params.changes
                   if (path := to_fs_path(event.uri))]
        _follow_files(ls, changes)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @safe(lambda: None)
    def on_open(ls: WaveLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule_publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @safe(lambda: None)
    def on_change(ls: WaveLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule_publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @safe(lambda: None)
    def on_save(ls: WaveLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        path = to_fs_path(params.text_document.uri)
        if ls.watching_files and path:  # other files' changes come as file events
            from wave_lsp.core.workspace.snapshot import FileChange

            _follow_files(ls, [(Path(path), FileChange.CHANGED)])
            return
        # files next to the skill may have appeared (SK112): re-check everything open
        ls.state.invalidate()
        ls.refresh_all()
        ls.schedule_unopened()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @safe(lambda: None)
    def on_close(ls: WaveLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.forget(uri)
        path = to_fs_path(uri)
        from wave_lsp.lsp import mention_files

        if mention_files.is_mention_uri(uri):  # its SK152 findings are for the open text only
            if not ls.pull_diagnostics:
                ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=uri, diagnostics=[]))
            return
        # only a skill file ever had diagnostics: other markdown (a README) stays silent
        if not path or not is_skill_file(Path(path)):
            return
        if ls.pull_diagnostics:  # its findings on disk now come with the workspace report
            ls.refresh([])
            return
        # cleared, or replaced by its findings on disk (a name collision stays visible)
        ls.schedule_unopened(closed=uri)


def _follow_files(ls: WaveLanguageServer, changes: list[tuple[Path, FileChange]]) -> None:
    """Files changed on disk: update the index and snapshots incrementally, check again the open
    documents that depend on the change and, when they may have changed, the unopened ones."""
    affected, unopened = ls.state.file_events(changes, list(ls.workspace.text_documents))
    if affected or unopened:
        from wave_lsp.lsp import mention_files

        # an open CLAUDE.md, AGENTS.md, agent or command file names skills that may have changed
        mentioning = [uri for uri in ls.workspace.text_documents
                      if uri not in affected and mention_files.is_mention_uri(uri)]
        ls.refresh(affected + mentioning)  # a pull client is asked to pull again, workspace included
        ls.schedule_unopened()


async def _index_workspace(ls: WaveLanguageServer) -> None:
    """Build the skill index off the event loop, with work-done progress when the client shows it."""
    folders = _workspace_folders(ls)
    settings = ls.state.settings_for(folders[0] / "SKILL.md" if folders else None)
    ls.state.home = settings.home
    token = None
    if ls.client_supports("window.work_done_progress", False):
        token = "wave-lsp-index"
        try:
            await ls.work_done_progress.create_async(token)
            ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
                title="wave-lsp: indexing skills", percentage=0, cancellable=False))
        except Exception as error:
            ls.log_problem(f"no progress reporting: {error}", level=types.MessageType.Info)
            token = None
    try:
        await asyncio.to_thread(ls.state.index.rebuild, folders, settings)
    except Exception:
        if token is not None:  # a progress that never ends would spin in the editor forever
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="indexing failed"))
        raise
    if token is not None:
        count = len(ls.state.index.skills())
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(
            message=f"{count} skill{'s' if count != 1 else ''} indexed"))


@safe(lambda: types.RelatedFullDocumentDiagnosticReport(items=[]))
async def pull_diagnostics(ls: WaveLanguageServer, params: types.DocumentDiagnosticParams
                           ) -> types.DocumentDiagnosticReport:
    """`textDocument/diagnostic` answers a `DocumentDiagnosticReport`: the *related* full or
    unchanged report (the plain `Full…`/`Unchanged…` reports are the per-document parts of it).
    The check runs a slice at a time: other requests are answered meanwhile, and the request can
    be cancelled (`analysis_in_slices`)."""
    from wave_lsp.core.checking.disk_findings import result_id as findings_id

    analysis = await ls.analysis_in_slices(params.text_document.uri)
    if analysis is None:  # a file that mentions skills (SK152), or none of ours
        from wave_lsp.lsp import mention_files

        return types.RelatedFullDocumentDiagnosticReport(
            items=mention_files.diagnostics(ls, params.text_document.uri) or [])
    # the findings themselves, not a generation: a file event re-checks only the documents that
    # depend on it, so the others keep their ids
    result_id = (f"{analysis.version}:{hash(analysis.context.document.text)}:"
                 f"{findings_id(analysis.report.findings)}{':cut' if analysis.cut_short else ''}")
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=ls.diagnostics(analysis),
                                                     result_id=result_id)


@safe(lambda: types.WorkspaceDiagnosticReport(items=[]))
async def workspace_diagnostics(ls: WaveLanguageServer, params: types.WorkspaceDiagnosticParams
                                ) -> types.WorkspaceDiagnosticReport:
    """`workspace/diagnostic`: a full report per file that is not open and has findings (a
    skill's SKILL.md, its resources), `unchanged` when the client already has that result id, and
    an empty full report for a file the client knows whose findings went away. Open documents are
    answered by `textDocument/diagnostic` and left out."""
    from wave_lsp.core.checking.disk_findings import result_id

    previous = {item.uri: item.value for item in params.previous_result_ids}
    reports = await ls.unopened_reports(open_resources=True)
    items: list[types.WorkspaceDocumentDiagnosticReport] = []
    for uri, (current, found) in reports.items():
        if previous.get(uri) == current:
            items.append(types.WorkspaceUnchangedDocumentDiagnosticReport(
                uri=uri, result_id=current, version=None))
        else:
            items.append(types.WorkspaceFullDocumentDiagnosticReport(
                uri=uri, items=found, result_id=current, version=None))
    cleared = result_id(())
    for uri in sorted(set(previous) - set(reports) - set(ls.workspace.text_documents)):
        if previous[uri] == cleared:
            items.append(types.WorkspaceUnchangedDocumentDiagnosticReport(
                uri=uri, result_id=cleared, version=None))
        else:
            items.append(types.WorkspaceFullDocumentDiagnosticReport(
                uri=uri, items=[], result_id=cleared, version=None))
    return types.WorkspaceDiagnosticReport(items=items)


def _apply_settings(ls: WaveLanguageServer, raw: Any) -> None:
    """Use `raw` (the client's `wave` section) on top of the pushed settings, on top of the
    `initializationOptions`."""
    if isinstance(raw, Mapping):
        raw = {**ls.initial_settings, **ls.pushed_settings, **raw}
    for problem in ls.state.set_client_settings(raw):
        ls.log_problem(f"{problem}; using the default", level=types.MessageType.Warning)


async def _pull_settings(ls: WaveLanguageServer) -> None:
    if not ls.client_supports("workspace.configuration", False):
        return
    answer = await ls.workspace_configuration_async(types.ConfigurationParams(
        items=[types.ConfigurationItem(section=CONFIG_SECTION)]))
    raw = answer[0] if answer else None
    _apply_settings(ls, raw if raw is not None else {})


async def _register_dynamic(ls: WaveLanguageServer) -> None:
    registrations = []
    if ls.client_supports("workspace.did_change_configuration.dynamic_registration", False):
        registrations.append(types.Registration(
            id="wave-configuration", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
            register_options=types.DidChangeConfigurationRegistrationOptions(
                section=CONFIG_SECTION)))
    if ls.client_supports("workspace.did_change_watched_files.dynamic_registration", False):
        registrations.append(types.Registration(
            id="wave-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                *(types.FileSystemWatcher(glob_pattern=pattern) for pattern in WATCHED_CHANGES),
                *(types.FileSystemWatcher(glob_pattern=pattern,
                                          kind=types.WatchKind.Create | types.WatchKind.Delete)
                  for pattern in WATCHED_EXISTENCE)])))
    if not registrations:
        return
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations))
        ls.watching_files = any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
                                for r in registrations)
    except Exception as error:
        ls.log_problem(f"the client refused dynamic registration ({error}); changes to files "
                       "are picked up on open and save instead", level=types.MessageType.Warning)


def _workspace_folders(ls: WaveLanguageServer) -> list[Path]:
    folders = [to_fs_path(folder.uri) for folder in ls.workspace.folders.values()]
    if not folders and ls.workspace.root_path:
        folders = [ls.workspace.root_path]
    return [Path(folder) for folder in folders if folder]
