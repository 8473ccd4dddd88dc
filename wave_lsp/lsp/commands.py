"""`workspace/executeCommand` handlers (docs/design/product.md *Language server*, commands).

`wave.previewInvocation` takes one object `{"uri", "arguments", "mode", "sessionId"?}` and returns
what `wave-lsp preview --format json` prints for the same input (the editor's unsaved text is used).
It also shows the preview in any client (docs/design/lsp.md *Preview in any client*): a read-only
document opened with `window/showDocument` when the client supports it, else a `window/showMessage`
with the first lines; either way the answer names that document (`"document"`, a file URI), so a
client's own command can open it (docs/editors.md: the lsp-mode and ALE snippets do). `"show": false` asks
for the answer alone (the VS Code extension shows the answer in its own view).
Execute mode runs commands only when the user enabled `wave.preview.allowExecution`; otherwise the
answer is a refusal with `ok: false` and nothing runs. The handler runs in a worker thread, so a
30-second command does not block the server.

`wave.indexStatus` answers `{"version": 1, "ready", "skills"}`: whether start-up (settings, the
workspace index, re-checking open documents) is over, and how many skills the index holds. With
`{"wait": true}` it answers once start-up is over. It is the readiness signal for clients that do
not declare `window.workDoneProgress` (the others see the `wave-lsp-index` progress end).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wave_lsp.lsp.server import WaveLanguageServer

if TYPE_CHECKING:
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.invocation.preview import Invocation

PREVIEW = "wave.previewInvocation"
LIST_SKILLS = "wave.listSkills"
RENDER_LISTING = "wave.renderListing"
INDEX_STATUS = "wave.indexStatus"


def refusal(message: str, **extra: Any) -> dict[str, Any]:
    return {"version": 1, "ok": False, "text": None, "error": message, **extra}


def _answer(ls: WaveLanguageServer, name: str, work: Callable[[WaveLanguageServer, Any],
                                                             dict[str, Any]], params: Any) -> dict[str, Any]:
    """Run a command; an exception is logged and answered with a refusal."""
    try:
        return work(ls, params)
    except Exception as error:
        ls.log_problem(f"{name} failed: {error!r}", error)
        return refusal(f"internal error: {error}")


def register(server: WaveLanguageServer) -> None:
    @server.thread()
    @server.command(LIST_SKILLS)
    def list_skills(ls: WaveLanguageServer, *params: Any) -> dict[str, Any]:
        return _answer(ls, LIST_SKILLS, _list_skills, params[0] if params else None)

    @server.thread()
    @server.command(RENDER_LISTING)
    def render_listing(ls: WaveLanguageServer, *params: Any) -> dict[str, Any]:
        return _answer(ls, RENDER_LISTING, _render_listing, params[0] if params else None)

    @server.command(PREVIEW)
    async def preview_invocation(ls: WaveLanguageServer, *params: Any) -> dict[str, Any]:
        # untyped on purpose: pygls would structure a typed argument itself and answer a wrong
        # shape with Python internals; `_preview` names what it expects instead
        options = params[0] if len(params) == 1 else None
        invocation: list[Invocation] = []
        # the request is read and the document analysed here, on the event loop that owns the
        # analysis runs; only rendering (and, when allowed, running commands) goes to a thread
        request = _answer(ls, PREVIEW, _preview_request, options)
        if "ok" in request:  # a refusal
            return request
        answer = await asyncio.to_thread(
            _answer, ls, PREVIEW, lambda ls, request: _preview(request, invocation), request)
        if invocation and not (isinstance(options, Mapping) and options.get("show") is False):
            try:
                answer = {**answer, "document": show_preview(ls, invocation[0]).as_uri()}
            except Exception as error:  # the answer still goes out
                ls.log_problem(f"showing the preview failed: {error!r}", error)
        return answer

    @server.command(INDEX_STATUS)
    async def index_status(ls: WaveLanguageServer, *params: Any) -> dict[str, Any]:
        options = params[0] if params else None
        if isinstance(options, Mapping) and options.get("wait") is True:
            await ls.index_ready.wait()
        return {"version": 1, "ready": ls.index_ready.is_set(),
                "skills": len(ls.state.index.skills())}


#: the longest URI a command accepts (a path of Linux's PATH_MAX, percent-encoded): longer ones are
#: refused before any path is looked at, so no path check's cost grows with the input
MAX_URI_CHARS = 3 * 4096


def _project(ls: WaveLanguageServer, params: Any,
             per_file: bool = True) -> tuple[Path | None, Settings]:
    """The project a listing command is about: the folder of `uri`'s skill project, else the first
    workspace folder; and the settings that apply there: with no target configured, those of
    `uri`'s file (`per_file`), else `auto_target` left for the caller, as `list` does."""
    from pygls.uris import to_fs_path

    uri = params.get("uri") if isinstance(params, Mapping) else None
    if isinstance(uri, str) and len(uri) > MAX_URI_CHARS:
        raise ValueError(f"`uri` is {len(uri):,} characters long; URIs are limited to "
                         f"{MAX_URI_CHARS:,} characters")
    uri_path = to_fs_path(uri) if isinstance(uri, str) else None
    path = Path(uri_path) if uri_path else None
    if path is None:
        folders = [to_fs_path(f.uri) for f in ls.workspace.folders.values()]
        path = Path(folders[0]) if folders and folders[0] else (
            Path(ls.workspace.root_path) if ls.workspace.root_path else None)
    if path is None:
        return None, ls.state.settings_for(None)
    folder = path.is_dir()  # a folder is no file: its settings keep `auto_target`
    settings = ls.state.settings_for(path / "SKILL.md" if folder else path, per_file and not folder)
    if path.is_file() or path.suffix.lower() == ".md":
        from wave_lsp.core.workspace.location import locate

        location = locate(path, home=settings.home)
        path = location.project_root or path.parent
    return path, settings


def _list_skills(ls: WaveLanguageServer, params: Any) -> dict[str, Any]:
    """`list --format json` of the project: with no target configured, each skill as the target
    its diagnostics are checked for sees it (docs/design/rules.md *The default target*)."""
    from wave_lsp.core.checking.loading import default_skill_rows, skill_rows

    project, settings = _project(ls, params, per_file=False)
    home = settings.home or Path.home()
    if settings.auto_target:
        target, rows = default_skill_rows(project, home, settings.personal, project,
                                          trust=settings.workspace_trust)
        return {"version": 1, "target": target, "skills": rows}
    return {"version": 1, "target": settings.target,
            "skills": skill_rows(settings.profile, project, home, settings.personal, project)}


def _render_listing(ls: WaveLanguageServer, params: Any) -> dict[str, Any]:
    from wave_lsp.core.checking.loading import runtime_listing
    from wave_lsp.core.invocation.listing import LISTING_HEADER, render_listing

    project, settings = _project(ls, params)
    home = settings.home or Path.home()
    profile = settings.profile
    if settings.auto_target:  # a folder: the runtime most of its skills are checked for
        from collections import Counter

        from wave_lsp.core.checking.loading import default_skill_rows
        from wave_lsp.core.facts.profiles import PROFILES, with_workspace_trust

        _, rows = default_skill_rows(project, home, settings.personal, project,
                                     trust=settings.workspace_trust)
        counted = Counter(str(row["target"]) for row in rows)
        if counted:
            profile = with_workspace_trust(PROFILES[counted.most_common(1)[0][0]],
                                           settings.workspace_trust)
    listing = render_listing(runtime_listing(profile, project, home, settings.personal))
    return {"version": 1, "target": profile.name, "text": LISTING_HEADER + listing.text,
            "budget": listing.budget, "fullChars": listing.full_chars, "cut": listing.cut,
            "namesOnly": listing.names_only}


def show_preview(ls: WaveLanguageServer, result: Invocation) -> Path:
    """Show the preview: as a read-only document (`window/showDocument`) when the client can open
    one, else as a message with the first lines of the prompt and the path of the same read-only
    document; the path of that document (the command's answer names it as `document`, so a
    client's own command can open it)."""
    from lsprotocol import types

    from wave_lsp.core.invocation.listing import skill_name
    from wave_lsp.core.invocation.preview import preview_markdown, preview_summary

    path = ls.preview_files.write(skill_name(result.document, result.location),
                                  preview_markdown(result))
    if not ls.client_supports("window.show_document.support", False):
        # no document to open for the user: the message names the read-only file, which any
        # editor opens as a buffer (`:e`, `C-x C-f`)
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Info,
            message=f"{preview_summary(result)}\nThe whole preview, with every decision: {path}"))
        return path
    shown = ls.window_show_document_async(types.ShowDocumentParams(
        uri=path.as_uri(), external=False, take_focus=True))

    async def report(request: Awaitable[types.ShowDocumentResult]) -> None:
        try:
            answer = await request
        except Exception as error:
            ls.log_problem(f"the client did not show the preview: {error!r}",
                           level=types.MessageType.Warning)
            return
        if not answer.success:
            ls.log_problem(f"the client did not show the preview {path}",
                           level=types.MessageType.Warning)

    ls.background_tasks.add(task := asyncio.ensure_future(report(shown)))
    task.add_done_callback(ls.background_tasks.discard)
    return path


def _preview_request(ls: WaveLanguageServer, params: Any) -> dict[str, Any]:
    """The preview asked for, checked, with the document's analysis (`{"analysis": …}`), or a
    refusal (`{"ok": False, …}`)."""
    if not isinstance(params, Mapping) or not isinstance(params.get("uri"), str):
        return refusal('expected one object {"uri": <SKILL.md URI>, "arguments": <string>, '
                       '"mode": "dry-run"|"execute"}')
    mode = params.get("mode", "dry-run")
    arguments = params.get("arguments", "")
    session = params.get("sessionId")
    if mode not in ("dry-run", "execute") or not isinstance(arguments, str) or (
            session is not None and not isinstance(session, str)):
        return refusal("`mode` must be dry-run or execute, `arguments` and `sessionId` strings")
    if len(params["uri"]) > MAX_URI_CHARS:
        return refusal(f"`uri` is {len(params['uri']):,} characters long; URIs are limited to "
                       f"{MAX_URI_CHARS:,} characters")
    if mode == "execute" and not ls.state.client.allow_execution:
        return refusal("Execution is disabled: set `wave.preview.allowExecution` to true to run "
                       "allowed commands from the editor. Nothing was run.", mode=mode)
    analysis = ls.analysis(params["uri"])
    if analysis is None:
        return refusal(f"{params['uri']} is not a skill file the server can read")
    return {"analysis": analysis, "mode": mode, "arguments": arguments, "session": session}


def _preview(request: Mapping[str, Any],
             invocation: list[Invocation] | None = None) -> dict[str, Any]:
    """Render the invocation `_preview_request` accepted (in a worker thread: it may run commands)."""
    from wave_lsp.core.checking.availability import invoke_loaded

    context = request["analysis"].context
    result = invoke_loaded(context.document, context.location, context.settings,
                           request["arguments"], request["mode"], request["session"])
    if invocation is not None:
        invocation.append(result)
    return result.to_json()
