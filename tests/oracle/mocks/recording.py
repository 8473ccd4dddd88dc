"""What the OpenAI-shaped mocks share (tests/oracle/mocks): a threading HTTP server on the loopback
address that records every JSON request body per run, and a script of tool calls to answer with.

A run is addressed by a path prefix (`http://127.0.0.1:<port>/run/<id>/v1/…`), so one server can
serve runs that overlap; a request without the prefix belongs to the run `default`. Each API shape
(`openai_chat`, `openai_responses`) subclasses `RecordingServer` with its `answer`.
"""

from __future__ import annotations

import gzip
import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: what every text answer says
ANSWER = "ok"


@dataclass(frozen=True)
class ToolCall:
    """One scripted call: the model calls the tool `name` with `arguments`."""

    name: str
    arguments: dict[str, Any]


@dataclass
class Run:
    """What one runtime process sent, and how the mock answers it."""

    #: the calls to answer the first request offering every tool they name with
    tool_calls: list[ToolCall] = field(default_factory=list)
    answered: bool = False
    #: JSON bodies of the model requests, in arrival order
    requests: list[dict[str, Any]] = field(default_factory=list)
    #: every path requested (model requests and anything else), in arrival order
    paths: list[str] = field(default_factory=list)


@dataclass
class Reply:
    """An HTTP answer: the status, and either a JSON value or a server-sent event stream."""

    status: int
    json_body: Any = None
    events: str | None = None  #: the whole `text/event-stream` payload


class RecordingServer:
    """The server, its thread and its runs. Use as a context manager; `port=0` picks a free port."""

    def __init__(self, port: int = 0, host: str = "127.0.0.1") -> None:
        self._runs: dict[str, Run] = {"default": Run()}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server = ThreadingHTTPServer((host, port), _handler(self))
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
        """A fresh run id and its record; its base URL is `base_url(run_id)`."""
        with self._lock:
            run_id = f"r{next(self._ids)}"
            run = Run(tool_calls=list(tool_calls or []))
            self._runs[run_id] = run
        return run_id, run

    def run(self, run_id: str = "default") -> Run:
        return self._runs[run_id]

    def base_url(self, run_id: str | None = None) -> str:
        """The `…/v1` base URL of a run (`None`: the default run, no prefix)."""
        prefix = f"/run/{run_id}" if run_id else ""
        return f"http://127.0.0.1:{self.port}{prefix}/v1"

    def handle(self, method: str, path: str, body: Any) -> Reply:
        parts = path.split("?", 1)[0].strip("/").split("/")
        run = self._runs["default"]
        if len(parts) >= 2 and parts[0] == "run" and parts[1] in self._runs:
            run, parts = self._runs[parts[1]], parts[2:]
        endpoint = "/".join(parts)
        with self._lock:
            run.paths.append(f"{method} /{endpoint}")
            if method == "POST" and isinstance(body, dict) and self.is_model_request(endpoint):
                run.requests.append(body)
                calls = self._script(run, body)
                return self.answer(endpoint, body, calls)
        return self.other(method, endpoint)

    def _script(self, run: Run, body: dict[str, Any]) -> list[ToolCall]:
        """The scripted calls for this request: all of them, the first time every tool they name
        is offered; else none."""
        if run.answered or not run.tool_calls:
            return []
        offered = set(self.tool_names(body))
        if not all(call.name in offered for call in run.tool_calls):
            return []
        run.answered = True
        return list(run.tool_calls)

    # -- what each API shape defines ------------------------------------------------------------

    def is_model_request(self, endpoint: str) -> bool:
        raise NotImplementedError

    def tool_names(self, body: dict[str, Any]) -> list[str]:
        raise NotImplementedError

    def answer(self, endpoint: str, body: dict[str, Any], calls: list[ToolCall]) -> Reply:
        raise NotImplementedError

    def other(self, method: str, endpoint: str) -> Reply:
        """Anything else: `GET /v1/models` lists one model, the rest is 404."""
        if method == "GET" and endpoint == "v1/models":
            return Reply(200, {"object": "list", "data": [
                {"id": "mock-model", "object": "model", "created": 0, "owned_by": "mock"}]})
        return Reply(404, {"error": {"message": "not mocked", "type": "not_found"}})


def sse(events: list[tuple[str | None, Any]]) -> str:
    """A server-sent event stream: `event:` lines where a name is given, `data:` as JSON (or as
    written, for a string such as `[DONE]`)."""
    out = []
    for name, data in events:
        text = data if isinstance(data, str) else json.dumps(data)
        out.append((f"event: {name}\n" if name else "") + f"data: {text}\n\n")
    return "".join(out)


def _handler(server: RecordingServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the runs are recorded, not logged."""

        def _reply(self, method: str, body: Any) -> None:
            reply = server.handle(method, self.path, body)
            if reply.events is not None:
                payload, content_type = reply.events.encode(), "text/event-stream"
            else:
                payload, content_type = json.dumps(reply.json_body).encode(), "application/json"
            self.send_response(reply.status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _body(self) -> bytes:
            if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                raw = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return raw
                    raw += self.rfile.read(size)
                    self.rfile.readline()
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if (self.headers.get("Content-Encoding") or "").lower() == "gzip":
                raw = gzip.decompress(raw)
            return raw

        def do_POST(self) -> None:
            raw = self._body()
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            self._reply("POST", body)

        def do_GET(self) -> None:
            self._reply("GET", None)

    return Handler
