"""Client-side helpers for the end-to-end tests: a client that records what it receives, open,
edit, get diagnostics (push or pull), wait for the workspace index.

No helper waits for "the next" message: a burst that arrives before the wait starts would be
missed and the test would hang. The client keeps everything it received (`client.received`, every
notification in order, next to pytest-lsp's `diagnostics`, `progress_reports` and `log_messages`),
and a wait is a condition over all of that, re-checked every few milliseconds until it holds or
the deadline passes; then the test fails with what was received.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pytest_lsp.protocol import LanguageClientProtocol

T = TypeVar("T")

#: How long any wait for the server may take before the test fails. Every wait here is over in
#: well under a second on an idle machine (start-up and indexing of the small test workspace take
#: about 0.5 s, a publish after an edit about 10-50 ms): 20 s is more than 10x that on a loaded
#: two-core machine, and below the 60 s per-test timeout, so a stuck wait fails with its own message.
DEADLINE = 20.0
#: how often a condition is re-checked (each check is a scan of a short list)
POLL = 0.01
#: the work-done progress token of the server's indexing
INDEX_TOKEN = "wave-lsp-index"


class RecordingProtocol(LanguageClientProtocol):
    """pytest-lsp's client protocol, keeping every notification it receives in order."""

    def _handle_notification(self, method_name: str, params: Any) -> None:
        cast(RecordingClient, self._server).received.append((method_name, params))
        super()._handle_notification(method_name, params)


class RecordingClient(LanguageClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, protocol_cls=RecordingProtocol, **kwargs)
        #: every notification received, in order: (method, params)
        self.received: list[tuple[str, Any]] = []
        #: dynamic registrations the server asked for
        self.registrations: list[types.Registration] = []
        #: how often the server asked to re-request inlay hints and semantic tokens
        self.decoration_refreshes: dict[str, int] = {}
        #: the capabilities this client declared, and the server's answer to `initialize`
        self.declared: types.ClientCapabilities | None = None
        self.initialize_result: types.InitializeResult | None = None


def make_client(features: dict[str, Callable[..., Any]] | None = None) -> RecordingClient:
    """A test client (`ClientServerConfig.client_factory`) with pytest-lsp's handlers for what the
    server sends (configuration, progress, diagnostics, logs), some of them replaced by `features`."""
    client = RecordingClient(converter_factory=default_converter)
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, **(features or {})})

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    @client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
    def on_inlay_refresh(params: None) -> None:
        refreshes = client.decoration_refreshes
        refreshes["inlay"] = refreshes.get("inlay", 0) + 1

    @client.feature(types.WORKSPACE_SEMANTIC_TOKENS_REFRESH)
    def on_tokens_refresh(params: None) -> None:
        refreshes = client.decoration_refreshes
        refreshes["tokens"] = refreshes.get("tokens", 0) + 1

    return client


async def wait_until(client: LanguageClient, condition: Callable[[], T | None], waiting_for: str,
                     deadline: float = DEADLINE) -> T:
    """The first non-None value of `condition()` (a look at what the client has received so far),
    re-checked until `deadline` seconds have passed; then an AssertionError with what was received."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while True:
        result = condition()
        if result is not None:
            return result
        server = getattr(client, "_server", None)
        returncode = server.returncode if server is not None else None
        if returncode is not None or loop.time() >= end:
            why = (f"the server exited ({returncode})" if returncode is not None
                   else f"nothing after {deadline:g} s")
            raise AssertionError(f"waiting for {waiting_for}: {why}. Received:\n"
                                 + received_summary(client))
        await asyncio.sleep(POLL)


async def answer(request: Any, what: str, deadline: float = DEADLINE) -> Any:
    """The response to a request (an awaitable), or an AssertionError after `deadline` seconds."""
    try:
        return await asyncio.wait_for(request, deadline)
    except TimeoutError:
        raise AssertionError(f"no answer to {what} after {deadline:g} s") from None


def received_summary(client: LanguageClient, last: int = 40) -> str:
    """The last notifications received, one line each (for failure messages)."""
    lines = []
    for method, params in getattr(client, "received", [])[-last:]:
        if method == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            detail = (f"{params.uri.rsplit('/', 3)[-3:]} version {params.version}: "
                      f"{[d.code for d in params.diagnostics]}")
        elif method == types.PROGRESS:
            detail = f"{params.token} {params.value}"
        elif method == types.WINDOW_LOG_MESSAGE:
            detail = params.message[:200]
        else:
            detail = repr(params)[:200]
        lines.append(f"  {method} {detail}")
    return "\n".join(lines) or "  (no notification)"


def pulls(client: LanguageClient) -> bool:
    """The server offered pull diagnostics to this client (so it pushes none)."""
    return client.initialize_result.capabilities.diagnostic_provider is not None


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1,
                  language_id: str = "markdown") -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id=language_id, version=version, text=text)))
    return uri


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def published(client: LanguageClient, uri: str) -> list[types.PublishDiagnosticsParams]:
    """Every publish for `uri` received so far, in order."""
    return [params for method, params in getattr(client, "received", [])
            if method == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and params.uri == uri]


def _current(client: LanguageClient, uri: str, version: int | None) -> list[types.Diagnostic] | None:
    """The diagnostics the client shows for `uri` now, if they are for `version` or later (None
    asks for the latest publish, whatever its version)."""
    found = published(client, uri)
    if not found:
        return None
    latest = found[-1]
    if version is not None and (latest.version is None or latest.version < version):
        return None
    return list(latest.diagnostics)


async def pull(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    report = await answer(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri))), f"textDocument/diagnostic {uri}")
    assert report.kind == "full", report
    return list(report.items)


async def diagnostics(client: LanguageClient, uri: str, version: int = 1) -> list[types.Diagnostic]:
    """The document's diagnostics, pulled, or the latest pushed for `version` or later.

    A URI opened twice in one session: wait for a version the first session never reached (a
    publish from the first one may still be on its way)."""
    if pulls(client):
        return await pull(client, uri)
    return await wait_until(client, lambda: _current(client, uri, version),
                            f"diagnostics for {uri} at version >= {version}")


async def diagnostics_until(client: LanguageClient, uri: str,
                            predicate: Callable[[list[types.Diagnostic]], bool],
                            version: int = 1) -> list[types.Diagnostic]:
    """Diagnostics of `uri` once they satisfy `predicate`: a change of settings or files is
    published after the notification that caused it, and a pull sent right after such a
    notification may be answered before the server has applied it (applying settings waits for
    `workspace/configuration`). Push: the latest publish is re-checked; pull: pulled again."""
    if not pulls(client):
        def satisfied() -> list[types.Diagnostic] | None:
            found = _current(client, uri, version)
            return found if found is not None and predicate(found) else None
        return await wait_until(client, satisfied, f"diagnostics for {uri} satisfying the condition")
    pulled: list[types.Diagnostic] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + DEADLINE
    while True:
        pulled = await pull(client, uri)
        if predicate(pulled):
            return pulled
        if loop.time() >= end:
            raise AssertionError(f"pulled diagnostics of {uri} never satisfied the condition in "
                                 f"{DEADLINE:g} s; last: {[(d.code, d.message) for d in pulled]}")
        await asyncio.sleep(POLL * 5)


def index_reports(client: LanguageClient) -> list[Any]:
    """The indexing progress received so far (begin, report…, end)."""
    return list(client.progress_reports.get(INDEX_TOKEN, []))


async def wait_for_index(client: LanguageClient) -> None:
    """Until the server has indexed the workspace and re-checked what is open: the end of its
    work-done progress for clients that declare `window.workDoneProgress`, else the answer to
    `wave.indexStatus` with `wait`."""
    declared = getattr(client, "declared", None) or client.capabilities
    window = declared.window if declared else None
    if window is not None and window.work_done_progress:
        def ended() -> list[Any] | None:
            reports = index_reports(client)
            return reports if reports and isinstance(reports[-1], types.WorkDoneProgressEnd) else None
        await wait_until(client, ended, f"the end of the {INDEX_TOKEN} progress")
        return
    status = await answer(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.indexStatus", arguments=[{"wait": True}])), "wave.indexStatus")
    assert status["ready"] is True, status


def position_of(text: str, needle: str, offset: int = 0, encoding: str = "utf-16") -> types.Position:
    """The LSP position of `needle` (+ `offset` code points) in `text`, in `encoding` units."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    prefix = text[start:index]
    if encoding == "utf-8":
        units = len(prefix.encode("utf-8"))
    elif encoding == "utf-32":
        units = len(prefix)
    else:
        units = len(prefix.encode("utf-16-le")) // 2
    return types.Position(line, units)


def encoding_of(client: LanguageClient) -> str:
    """The position encoding the server chose for this client."""
    return str(client.initialize_result.capabilities.position_encoding or "utf-16")
