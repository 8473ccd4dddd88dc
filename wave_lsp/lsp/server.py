"""The language server: registers every LSP method once and converts between core and protocol.

No analysis happens here. Each handler gets the document's `Analysis` (findings plus a feature
context, computed by the core), asks the core feature module and converts the answer. Diagnostics
are pushed (`textDocument/publishDiagnostics`, with the document version) or pulled
(`textDocument/diagnostic`), never both: pull is offered only to clients that declare it. The
findings of skill files that are not open are pushed too, or pulled with `workspace/diagnostic`
(docs/design/lsp.md *Findings on files that are not open*).
An exception inside a handler is logged (stderr and the client's log) and answered with an empty
result; the server keeps serving.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Collection, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Concatenate, ParamSpec, Protocol, TypeVar, overload

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from wave_lsp import __version__
from wave_lsp.lsp.previews import PreviewFiles
from wave_lsp.lsp.protocol import RequestRefused, WaveProtocol

if TYPE_CHECKING:
    from wave_lsp.lsp.state import Analysis, AnalysisRun, ServerState

log = logging.getLogger("wave_lsp")
CONFIG_SECTION = "wave"
#: how long an analysis of an edited document runs before the event loop reads the messages that
#: arrived meanwhile (a newer version abandons it; a request is answered)
ANALYSIS_SLICE = 0.005
#: test seam: seconds an analysis of an edited document waits at its first checkpoint, for a
#: newer version or a request (`_hold`); unset (0) outside tests/lsp/test_edit_coalescing.py
ANALYSIS_HOLD_ENV = "WAVE_LSP_TEST_ANALYSIS_HOLD"
#: how long the findings of unopened files wait for more file events before they are computed
UNOPENED_DELAY = 0.05
COMPLETION_TRIGGERS = [":", " ", "$", "{", "/", "(", "-", "[", ","]
P = ParamSpec("P")
T = TypeVar("T")  #: what the default answer is
T_co = TypeVar("T_co", covariant=True)
R = TypeVar("R")  #: what the handler answers


class WaveLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("wave-lsp", __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=WaveProtocol)
        self._state: ServerState | None = None
        self.pull_diagnostics = False
        #: who the client says it is (`initialize`'s clientInfo), for the quirks capabilities hide
        self.client_info: types.ClientInfo | None = None
        #: the client accepted our file watchers: changes on disk arrive as file events
        self.watching_files = False
        #: the `wave` part of `initializationOptions`; `workspace/configuration` answers override it
        self.initial_settings: dict[str, Any] = {}
        #: the `wave` object of the last `workspace/didChangeConfiguration` that carried one, over
        #: the initial settings and under `workspace/configuration` answers: a client that pushes
        #: its settings and answers the pull with nothing (lsp-mode without registered settings)
        #: keeps what it pushed
        self.pushed_settings: dict[str, Any] = {}
        #: the task that publishes each edited document's newest version, and what was last
        #: published per document (so that an analysis is never pushed twice)
        self._publishing: dict[str, asyncio.Task[None]] = {}
        self._published: dict[str, Analysis] = {}
        self.analysis_hold = _seconds(os.environ.get(ANALYSIS_HOLD_ENV))
        #: SKILL.md URI -> the resource URIs it published findings to (push clients)
        self.resource_uris: dict[str, set[str]] = {}
        #: URI -> result id of what was last pushed for files that are not open (push clients)
        self.unopened_published: dict[str, str] = {}
        self._unopened_run: asyncio.Future[None] | None = None
        self._unopened_again = False
        self._closed_since: set[str] = set()
        #: set once start-up is over: settings read, the workspace indexed, open documents
        #: re-checked (also after a failure). `wave.indexStatus` reports and awaits it.
        self.index_ready = asyncio.Event()
        #: the read-only preview documents of this process (`wave.previewInvocation`)
        self.preview_files = PreviewFiles()
        #: publishes the diagnostics of an open document that is not a skill file, True when
        #: it did (set by `wave_lsp.lsp.mention_files.register`: the files that mention skills)
        self.publish_other: Callable[[WaveLanguageServer, str], bool] | None = None
        #: fire-and-forget tasks, kept referenced until they end
        self.background_tasks: set[asyncio.Future[None]] = set()

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio. pygls' own loop, with stdin read by the event loop where possible
        (`wave_lsp.lsp.stdio`: messages that arrive during an analysis are read at its next
        checkpoint, not one line per thread round trip)."""
        from pygls.io_ import StdoutWriter, run_async

        from wave_lsp.lsp.stdio import LoopReader, loop_can_read

        source = stdin or sys.stdin.buffer
        sink = stdout or sys.stdout.buffer
        if not loop_can_read(source, sink):
            super().start_io(stdin, stdout)
            return
        self._stop_event = threading.Event()  # what pygls' `shutdown` sets to end the loop
        self.protocol.set_writer(StdoutWriter(sink))
        try:
            asyncio.run(run_async(stop_event=self._stop_event, reader=LoopReader(source),
                                  protocol=self.protocol, logger=log,
                                  error_handler=self.report_server_error))
        except BrokenPipeError:
            log.error("the connection to the client is lost: shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]  # pygls leaves it unannotated
            if getattr(self.protocol, "client_gone", False):
                _silence(sink)

    @property
    def state(self) -> ServerState:
        """Created on first use: the core is imported after the `initialize` response."""
        if self._state is None:
            from wave_lsp.lsp.state import ServerState

            self._state = ServerState()
        return self._state

    # -- errors -------------------------------------------------------------------------------
    def report_server_error(self, error: Exception, source: Any) -> None:
        """Log instead of pygls' default pop-up: a bad document must not nag the user. Requests
        for methods we do not implement and unreadable messages are the client's business:
        a one-line warning, no traceback."""
        from pygls.exceptions import JsonRpcMethodNotFound

        if isinstance(error, RequestRefused):
            log.info("refused: %s", error)
            return
        if isinstance(error, JsonRpcMethodNotFound | ValueError):
            log.warning("ignored: %s", error)
            return
        self.log_problem(f"internal error: {error!r}", error)

    def log_problem(self, message: str, error: BaseException | None = None,
                    level: types.MessageType = types.MessageType.Error) -> None:
        detail = "".join(traceback.format_exception(error)) if error else ""
        log.log(logging.ERROR if level == types.MessageType.Error else logging.WARNING,
                "%s\n%s", message, detail)
        try:
            self.window_log_message(types.LogMessageParams(type=level, message=f"wave-lsp: {message}"))
        except Exception:
            log.debug("could not send a log message", exc_info=True)

    # -- documents ----------------------------------------------------------------------------
    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    def analysis(self, uri: str) -> Analysis | None:
        document = self.workspace.text_documents.get(uri)
        path_text = to_fs_path(uri)
        if path_text is None:
            return None
        path = Path(path_text)
        if document is None:
            try:
                text = path.read_text("utf-8", errors="replace")
            except OSError:
                return None
            return self.state.analyse(uri, path, text, None, self.encoding)
        return self.state.analyse(uri, path, document.source, document.version, self.encoding)

    async def analysis_in_slices(self, uri: str) -> Analysis | None:
        """`analysis` for a request that may wait: the run advances a slice at a time and the
        event loop reads messages in between, so other requests are answered meanwhile and a
        `$/cancelRequest` cancels this one (pygls cancels the handler's task at its next
        `await`; the work done so far is kept for the next request or publish)."""
        run = self.start_analysis(uri)
        while run is not None and not run.done:
            slice_end = time.monotonic() + ANALYSIS_SLICE
            while not run.advance() and time.monotonic() < slice_end:
                pass
            if not run.done:
                await asyncio.sleep(0)
                run = self.start_analysis(uri)  # the same run, or one for a newer text
        return self.analysis(uri)

    def diagnostics(self, analysis: Analysis) -> list[types.Diagnostic]:
        """The document's own diagnostics (findings about its resources go to their own files),
        and the note of a check cut short by its time budget."""
        from wave_lsp.lsp import convert

        found = [convert.diagnostic(finding, analysis.positions, analysis.uri)
                 for finding in analysis.report.findings if finding.path is None]
        if analysis.cut_short:
            found.append(cut_short_note(analysis.cut_short))
        return found

    def publish_resources(self, analysis: Analysis) -> None:
        """Push the findings about the skill's other files (SK140) to those files' URIs, and
        clear the files that no longer have any."""
        from wave_lsp.core.parsing.text import LineIndex
        from wave_lsp.lsp import convert

        by_uri: dict[str, list[types.Diagnostic]] = {}
        empty = convert.Positions(LineIndex(""), self.encoding)
        for finding in analysis.report.findings:
            if finding.path is not None:
                uri = Path(finding.path).as_uri()
                by_uri.setdefault(uri, []).append(convert.diagnostic(finding, empty, uri))
        previous = self.resource_uris.get(analysis.uri, set())
        for uri in previous - set(by_uri):
            by_uri[uri] = []
        self.resource_uris[analysis.uri] = {uri for uri, found in by_uri.items() if found}
        for uri, found in by_uri.items():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=uri, diagnostics=found))

    async def unopened_reports(self, open_resources: bool
                               ) -> dict[str, tuple[str, list[types.Diagnostic]]]:
        """URI -> (result id, diagnostics) of the workspace's skill files that are not open and
        have findings, with their resources; with `open_resources`, also the resources of the
        open skills (whose own findings `textDocument/diagnostic` answers). The unopened files are
        checked in a worker thread: the event loop keeps serving the open documents."""
        from wave_lsp.core.checking.disk_findings import split_report
        from wave_lsp.lsp import convert

        files = await asyncio.to_thread(self.state.unopened_findings,
                                        list(self.workspace.text_documents))
        open_uris = set(self.workspace.text_documents)
        reports: dict[str, tuple[str, list[types.Diagnostic]]] = {}
        for found in files:
            uri = found.path.as_uri()
            if uri in open_uris and found.lines.text:
                continue  # opened while it was being checked: its own report is the document's
            positions = convert.Positions(found.lines, self.encoding)
            reports[uri] = (found.result_id, [convert.diagnostic(finding, positions, uri)
                                              for finding in found.findings])
        if open_resources:
            for uri in open_uris:
                analysis = self.analysis(uri)
                if analysis is None:
                    continue
                for found in split_report(analysis.report)[1:]:
                    positions = convert.Positions(found.lines, self.encoding)
                    resource = found.path.as_uri()
                    reports[resource] = (found.result_id, [
                        convert.diagnostic(finding, positions, resource)
                        for finding in found.findings])
        return reports

    async def publish_unopened(self, closed: Collection[str] = ()) -> None:
        """Push the findings of the files that are not open (push clients): publish what changed,
        clear what went away; a `closed` document gets its findings on disk, or is cleared."""
        if self.pull_diagnostics:
            return
        reports = await self.unopened_reports(open_resources=False)
        gone = (set(self.unopened_published) | set(closed)) - set(reports)
        for uri in gone:
            self.unopened_published.pop(uri, None)
            if uri not in self.workspace.text_documents:  # an open one has its own publish
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=uri, diagnostics=[]))
        for uri, (result_id, found) in reports.items():
            if self.unopened_published.get(uri) != result_id or uri in closed:
                self.unopened_published[uri] = result_id
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=uri, diagnostics=found))

    def schedule_unopened(self, closed: str | None = None) -> None:
        """`publish_unopened` soon (push clients): once for a burst of events, one run at a time;
        an event during a run makes it run once more."""
        if self.pull_diagnostics:
            return
        if closed is not None:
            self._closed_since.add(closed)
        if self._unopened_run is not None and not self._unopened_run.done():
            self._unopened_again = True
            return
        self._unopened_run = asyncio.ensure_future(self._run_unopened())

    async def _run_unopened(self) -> None:
        while True:
            self._unopened_again = False
            await asyncio.sleep(UNOPENED_DELAY)  # let a burst of events arrive
            closed, self._closed_since = self._closed_since, set()
            try:
                await self.publish_unopened(closed)
            except Exception as error:  # a task has no handler to answer for it
                self.log_problem(f"publishing diagnostics of unopened files failed: {error!r}",
                                 error)
            if not self._unopened_again:
                return

    def publish(self, uri: str) -> None:
        """Push the findings of an open document (push clients only), tagged with its version."""
        if self.pull_diagnostics:
            return
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return
        analysis = self.analysis(uri)
        if analysis is None:
            return
        if document.version is not None and analysis.version != document.version:
            return  # a newer version has arrived since: its own publish follows
        self._published[uri] = analysis
        from wave_lsp.lsp import convert

        params: dict[str, Any] = {"uri": uri, "diagnostics": [
            convert.diagnostic_json(finding, analysis.positions, uri)
            for finding in analysis.report.findings if finding.path is None]}
        if analysis.cut_short:
            params["diagnostics"].append(cut_short_note_json(analysis.cut_short))
        if document.version is not None:
            params["version"] = document.version
        protocol = self.protocol
        assert isinstance(protocol, WaveProtocol)  # created with protocol_cls=WaveProtocol
        protocol.notify_json(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)
        self.publish_resources(analysis)

    def schedule_publish(self, uri: str) -> None:
        """Publish the findings of an opened or edited document once its newest version is
        analysed. One task per document does it (`_publish_latest`): while it runs, a newer
        version is picked up at its next checkpoint and the older analysis is abandoned, so of ten
        quick edits only the last version is published (docs/design/lsp.md *Edits coalesce*)."""
        if self.pull_diagnostics:
            return
        if self.publish_other is not None and self.publish_other(self, uri):
            return  # CLAUDE.md, AGENTS.md, agents, commands: SK152 (`mention_files.publish`)
        running = self._publishing.get(uri)
        if running is not None and not running.done():
            return  # it reads the document's newest version at its next checkpoint
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a direct call): publish now
            self.publish(uri)
            return
        task = self._publishing[uri] = loop.create_task(self._publish_latest(uri))
        self.background_tasks.add(task)
        task.add_done_callback(self.background_tasks.discard)

    def forget(self, uri: str) -> None:
        """The document was closed: its analysis (cached or in progress) is dropped."""
        self.state.forget(uri)
        self._published.pop(uri, None)

    def start_analysis(self, uri: str) -> AnalysisRun | None:
        """The run that analyses the open document's current text (the one in progress when it
        is for the same text; see `ServerState.start`); None when it is not an open skill file."""
        document = self.workspace.text_documents.get(uri)
        path_text = to_fs_path(uri)
        if document is None or path_text is None:
            return None
        return self.state.start(uri, Path(path_text), document.source, document.version,
                                self.encoding)

    async def _publish_latest(self, uri: str) -> None:
        """Analyse the document a slice at a time, letting the event loop read messages between
        slices; when a newer version (or new settings) arrived meanwhile, continue with a run for
        it (`start_analysis` abandoned the older one); publish once a run of the current text is
        complete. Requests finish the same run if they need it first."""
        try:
            run = self.start_analysis(uri)
            held: AnalysisRun | None = None
            while run is not None:
                if self.analysis_hold and run is not held and not run.done:
                    held = run
                    run.advance()  # started (the document parsed), paused before the first rule
                    await self._hold(uri, run)
                else:
                    slice_end = time.monotonic() + ANALYSIS_SLICE
                    while not run.advance() and time.monotonic() < slice_end:
                        pass
                    if not run.done:
                        await asyncio.sleep(0)  # read the messages that arrived during the slice
                latest = self.start_analysis(uri)
                if latest is not None and latest.key == run.key and run.result is not None:
                    if self._published.get(uri) is not run.result:
                        self.publish(uri)  # the run's own result, from the cache
                    return
                run = latest  # the same run, or one for a newer text (the older one abandoned)
        except Exception as error:  # a task has no handler to answer for it
            self.log_problem(f"publishing diagnostics for {uri} failed: {error!r}", error)
        finally:
            if self._publishing.get(uri) is asyncio.current_task():
                del self._publishing[uri]

    async def _hold(self, uri: str, run: AnalysisRun) -> None:
        """Test seam (`ANALYSIS_HOLD_ENV`): with `run` started and paused at its first checkpoint,
        wait until a newer text of the document arrives, a request finishes the run, or
        `analysis_hold` seconds pass; so a test can send edits and requests *during* an analysis
        without racing it."""
        end = time.monotonic() + self.analysis_hold
        while time.monotonic() < end and not run.done and self._current_key(uri) == run.key:
            await asyncio.sleep(0.005)

    def _current_key(self, uri: str) -> tuple[Any, ...] | None:
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None
        return self.state.key(document.source, document.version, self.encoding)

    def refresh_all(self) -> None:
        """Settings or the index changed: re-check every open document."""
        self.refresh(list(self.workspace.text_documents))

    def refresh(self, uris: list[str]) -> None:
        """Re-check these open documents: push their diagnostics, or ask a pulling client to pull."""
        self.refresh_decorations(uris)
        if self.pull_diagnostics:
            if get_capability(self.client_capabilities, "workspace.diagnostics.refresh_support",
                              False):
                self.workspace_diagnostic_refresh(None)
            return
        for uri in uris:  # analysed a slice at a time, as edits are: requests keep being answered
            self.schedule_publish(uri)

    def refresh_decorations(self, uris: list[str]) -> None:
        """Inlay hints and semantic tokens depend on more than the text (the target, permission
        rules, the skill's folder): ask a client that allows it to request them again."""
        if not uris:
            return
        if self.client_supports("workspace.inlay_hint.refresh_support", False):
            self.workspace_inlay_hint_refresh(None)
        if self.client_supports("workspace.semantic_tokens.refresh_support", False):
            self.workspace_semantic_tokens_refresh(None)

    def client_supports(self, path: str, default: Any = False) -> Any:
        return get_capability(self.client_capabilities, path, default)


#: the code of the note a check cut short by its time budget adds (at the document's start)
CUT_SHORT_CODE = "check-cut-short"


def cut_short_note(message: str) -> types.Diagnostic:
    """The note for a pull (`diagnostics`)."""
    start = types.Position(line=0, character=0)
    return types.Diagnostic(range=types.Range(start=start, end=start), message=message,
                            severity=types.DiagnosticSeverity.Information, code=CUT_SHORT_CODE,
                            source="wave-lsp")


def cut_short_note_json(message: str) -> dict[str, Any]:
    """`cut_short_note` as the JSON a push sends, built directly (as `convert.diagnostic_json`;
    tests/lsp/test_adapter.py holds the two equal)."""
    start = {"line": 0, "character": 0}
    return {"range": {"start": start, "end": dict(start)}, "message": message,
            "severity": types.DiagnosticSeverity.Information.value, "code": CUT_SHORT_CODE,
            "source": "wave-lsp"}


def _seconds(text: str | None) -> float:
    try:
        return max(0.0, float(text or 0))
    except ValueError:
        return 0.0


class SafeHandler(Protocol[T_co]):
    """What `safe(default)` returns: a decorator that keeps the handler's parameters and answers
    what the handler answers or the default (awaited, for a coroutine handler)."""

    @overload
    def __call__(self, handler: Callable[Concatenate[WaveLanguageServer, P], Coroutine[Any, Any, R]]
                 ) -> Callable[Concatenate[WaveLanguageServer, P], Coroutine[Any, Any, R | T_co]]: ...

    @overload
    def __call__(self, handler: Callable[Concatenate[WaveLanguageServer, P], R]
                 ) -> Callable[Concatenate[WaveLanguageServer, P], R | T_co]: ...


def safe(default: Callable[[], T]) -> SafeHandler[T]:
    """Handler wrapper: an exception is logged and answered with `default()`."""

    def wrap_async(handler: Callable[Concatenate[WaveLanguageServer, P], Coroutine[Any, Any, R]]
                   ) -> Callable[Concatenate[WaveLanguageServer, P], Coroutine[Any, Any, R | T]]:
        @functools.wraps(handler)
        async def run_async(ls: WaveLanguageServer, /, *args: P.args, **kwargs: P.kwargs) -> R | T:
            try:
                return await handler(ls, *args, **kwargs)
            except asyncio.CancelledError:
                log.debug("%s cancelled", handler.__name__)
                cancelled: set[Any] = getattr(ls.protocol, "cancelled_requests", set())
                if ls.protocol.msg_id not in cancelled:
                    return default()  # the session is ending: nothing to report
                # `$/cancelRequest`: pygls answers with the RequestCancelled error, not with a
                # default the client would take for a result (an empty diagnostic report
                # clears the document's findings)
                cancelled.discard(ls.protocol.msg_id)
                raise
            except Exception as error:
                ls.log_problem(f"{handler.__name__} failed: {error!r}", error)
                return default()
        return run_async

    def wrap(handler: Callable[Concatenate[WaveLanguageServer, P], R]
             ) -> Callable[Concatenate[WaveLanguageServer, P], R | T]:
        @functools.wraps(handler)
        def run(ls: WaveLanguageServer, /, *args: P.args, **kwargs: P.kwargs) -> R | T:
            try:
                return handler(ls, *args, **kwargs)
            except Exception as error:
                ls.log_problem(f"{handler.__name__} failed: {error!r}", error)
                return default()
        return run

    # The implementation behind `SafeHandler`'s two overloads, which give callers the precise types
    def choose(handler: Callable[..., Any]) -> Callable[..., Any]:
        return wrap_async(handler) if asyncio.iscoroutinefunction(handler) else wrap(handler)

    return choose


def _silence(sink: BinaryIO) -> None:
    """Point the closed pipe `sink` at /dev/null, so that flushing it at exit raises nothing
    (Python would print "Exception ignored … BrokenPipeError" and exit with 120)."""
    try:
        fd = sink.fileno()
    except (OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
