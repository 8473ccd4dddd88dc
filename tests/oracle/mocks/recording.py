"""What every mock model API of the harness shares (tests/oracle/README.md): a threaded HTTP server
on 127.0.0.1 that records the JSON body of every request per run, and answers through the API
shape's own module (`gemini.py`, `openai_chat.py`). Standard library only.

Each runtime process gets its own path prefix (`…/run/<id>/…` in its base URL), so one server serves
runs that overlap. A run may be scripted with tool calls: the first request that offers the tool is
answered with the calls (the model invoking a skill), every other request with a short text.
The server may be given a listening socket made elsewhere (inside a network namespace,
`tests/oracle/runtimes/_netns.py`); otherwise it binds 127.0.0.1 itself.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: what every text answer says
ANSWER = "ok"


@dataclass(frozen=True)
class ToolCall:
    """One scripted call: of the tool named `tool`, or (no name) of the tool whose parameters have
    the property `property`; with these arguments."""

    arguments: dict[str, Any]
    tool: str | None = None
    property: str | None = None


@dataclass
class Run:
    """What one runtime process sent, and how the mock answers it."""

    tool_calls: list[ToolCall] = field(default_factory=list)
    #: the JSON bodies of the model requests, in arrival order
    requests: list[dict[str, Any]] = field(default_factory=list)
    #: every path requested (without the run prefix and the query), in arrival order
    paths: list[str] = field(default_factory=list)
    #: the tool names the scripted calls went to (empty until they are answered)
    called: list[str] = field(default_factory=list)


@dataclass
class Reply:
    status: int
    content_type: str
    payload: bytes


#: an API shape: (server, run or None, endpoint path, query, body or None) -> the reply
Shape = Callable[["RecordingServer", "Run | None", str, str, "dict[str, Any] | None"], Reply]


def json_reply(data: object, status: int = 200) -> Reply:
    return Reply(status, "application/json", json.dumps(data).encode())


def sse_reply(events: list[str]) -> Reply:
    """Server-sent events, each given as its full text (`data: …`), separated by blank lines."""
    return Reply(200, "text/event-stream", "".join(f"{event}\n\n" for event in events).encode())


class RecordingServer:
    """The server, its thread and the runs it records. Use as a context manager."""

    def __init__(self, shape: Shape, listener: socket.socket | None = None) -> None:
        self.shape = shape
        self._runs: dict[str, Run] = {}
        self.lock = threading.Lock()
        self._ids = itertools.count(1)
        if listener is None:
            self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        else:
            self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self),
                                               bind_and_activate=False)
            self._server.socket.close()
            self._server.socket = listener
            self._server.server_address = listener.getsockname()
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> RecordingServer:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def new_run(self, tool_calls: list[ToolCall] | None = None) -> tuple[str, Run]:
        with self.lock:
            run_id = f"r{next(self._ids)}"
            run = Run(tool_calls=list(tool_calls or []))
            self._runs[run_id] = run
        return run_id, run

    def base_url(self, run_id: str) -> str:
        """The run's base URL (append the API's own path, e.g. `/v1`)."""
        return f"http://127.0.0.1:{self.port}/run/{run_id}"

    def answer(self, path: str, body: dict[str, Any] | None) -> Reply:
        route, _, query = path.partition("?")
        parts = route.strip("/").split("/")
        run = None
        if len(parts) >= 2 and parts[0] == "run":
            run = self._runs.get(parts[1])
            parts = parts[2:]
        endpoint = "/" + "/".join(parts)
        if run is not None:
            with self.lock:
                run.paths.append(endpoint)
        return self.shape(self, run, endpoint, query, body)

    def take_tool_calls(self, run: Run | None, offered: dict[str, dict[str, Any]],
                        ) -> list[tuple[str, dict[str, Any]]]:
        """The scripted calls to answer now, as (tool name, arguments): all of them, on the first
        request that offers every tool they need (`offered`: name -> parameter schema)."""
        if run is None or not run.tool_calls or run.called:
            return []
        names = []
        for call in run.tool_calls:
            name = call.tool if call.tool in offered else _tool_with(offered, call.property)
            if name is None:
                return []
            names.append(name)
        with self.lock:
            if run.called:
                return []
            run.called = names
        return [(name, call.arguments) for name, call in zip(names, run.tool_calls, strict=True)]


def _tool_with(offered: dict[str, dict[str, Any]], prop: str | None) -> str | None:
    if prop is None:
        return None
    for name, schema in offered.items():
        if isinstance(schema, dict) and prop in (schema.get("properties") or {}):
            return name
    return None


def _handler(server: RecordingServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the runs are recorded, not logged."""

        def _send(self, reply: Reply) -> None:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.payload)))
            self.end_headers()
            self.wfile.write(reply.payload)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            self._send(server.answer(self.path, body if isinstance(body, dict) else None))

        def do_GET(self) -> None:
            self._send(server.answer(self.path, None))

    return Handler
