"""What every mock model API of the harness shares (tests/oracle/README.md *Runtimes*): a threaded
HTTP server on 127.0.0.1 that records the JSON body of every model request per run, and a script of
tool calls to answer with. Standard library only. Each API shape (`openai_chat`, `openai_responses`,
`gemini`) subclasses `RecordingServer`; the Anthropic mock is `tests/oracle/mock_api.py`.

A run is addressed by a path prefix (`http://127.0.0.1:<port>/run/<id>/…`, `base_url(run_id)`), so
one server can serve runs that overlap; a request without the prefix belongs to the run `default`
(`reset()` starts it afresh: an adapter whose config file names the URL once runs its processes one
after the other on it). The socket is made by the constructor, so `netns.Namespace.call(Mock)` makes
it inside the runtimes' network namespace (tests/oracle/netns.py).

A run's script is a list of steps, each a list of tool calls: a step answers the first request
(after the previous step's) that offers every tool its calls need, with all its calls at once; a
call names its tool, or (`tool=None`) the property the tool's parameters must have. The calls are
numbered through the run (`call_id`: `call_mock0001`, …). Every other request gets the text `ok`.
"""

from __future__ import annotations

import gzip
import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

#: what every text answer says
ANSWER = "ok"


def call_id(number: int) -> str:
    """The id of the `number`th (from 1) scripted call of a run."""
    return f"call_mock{number:04d}"


@dataclass(frozen=True)
class ToolCall:
    """One scripted call: of the tool `tool`, or (None) of the tool whose parameters have the
    property `property`; with these arguments."""

    tool: str | None
    arguments: dict[str, Any]
    property: str | None = None


@dataclass(frozen=True)
class Called:
    """A scripted call as answered: its id, the tool it went to, its arguments."""

    id: str
    name: str
    arguments: dict[str, Any]


@dataclass
class Run:
    """What one runtime process sent, and how the mock answers it."""

    #: the scripted steps, each answered by one request with all its calls
    steps: list[list[ToolCall]] = field(default_factory=list)
    #: JSON bodies of the model requests, in arrival order
    requests: list[dict[str, Any]] = field(default_factory=list)
    #: every request as `METHOD /endpoint` (without the run prefix and the query), in order
    paths: list[str] = field(default_factory=list)
    #: the index in `requests` of the request each step answered
    answered: list[int] = field(default_factory=list)
    #: the tools the scripted calls went to, in order
    called: list[str] = field(default_factory=list)


@dataclass
class Reply:
    """An HTTP answer: the status, and either a JSON value or a server-sent event stream."""

    status: int
    json_body: Any = None
    events: str | None = None  #: the whole `text/event-stream` payload


class LoopbackServer:
    """A threaded HTTP server on 127.0.0.1 (a free port, its socket made by the constructor) and
    its thread: serving from `__enter__` to `__exit__`. The base of every mock, the Anthropic one
    (`tests/oracle/mock_api.py`) included."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])


class RecordingServer(LoopbackServer):
    """The server, its thread and its runs. Use as a context manager."""

    #: what `base_url` appends after the run prefix (the API's own path: `/v1` for OpenAI's)
    api_path = "/v1"

    def __init__(self) -> None:
        self._runs: dict[str, Run] = {"default": Run()}
        self.lock = threading.Lock()
        self._ids = itertools.count(1)
        super().__init__(_handler(self))

    def new_run(self, tool_calls: list[ToolCall] | None = None, *,
                steps: list[list[ToolCall]] | None = None) -> tuple[str, Run]:
        """A fresh run id and its record: `tool_calls` as one step, or `steps`."""
        with self.lock:
            run_id = f"r{next(self._ids)}"
            self._runs[run_id] = Run(steps=_steps(tool_calls, steps))
        return run_id, self._runs[run_id]

    def reset(self, tool_calls: list[ToolCall] | None = None, *,
              steps: list[list[ToolCall]] | None = None) -> Run:
        """The run `default` started afresh (the requests without a run prefix)."""
        with self.lock:
            self._runs["default"] = Run(steps=_steps(tool_calls, steps))
            return self._runs["default"]

    def run(self, run_id: str = "default") -> Run:
        return self._runs[run_id]

    def base_url(self, run_id: str | None = None) -> str:
        """A run's base URL, the API's path included (None: the default run, no prefix)."""
        prefix = f"/run/{run_id}" if run_id else ""
        return f"http://127.0.0.1:{self.port}{prefix}{self.api_path}"

    def handle(self, method: str, path: str, body: Any) -> Reply:
        parts = path.split("?", 1)[0].strip("/").split("/")
        with self.lock:
            run = self._runs["default"]
            if len(parts) >= 2 and parts[0] == "run" and parts[1] in self._runs:
                run, parts = self._runs[parts[1]], parts[2:]
            endpoint = "/".join(parts)
            run.paths.append(f"{method} /{endpoint}")
            if method != "POST" or not isinstance(body, dict) \
                    or not self.is_model_request(endpoint):
                calls = None
            else:
                run.requests.append(body)
                calls = self._script(run, body)
        if calls is None:
            return self.other(method, endpoint)
        return self.answer(endpoint, body, calls)

    def _script(self, run: Run, body: dict[str, Any]) -> list[Called]:
        """The calls of the run's next step, when this request offers every tool they need."""
        step = len(run.answered)
        if step >= len(run.steps):
            return []
        offered = self.tool_schemas(body)
        names = []
        for call in run.steps[step]:
            name = call.tool if call.tool in offered else _tool_with(offered, call.property)
            if name is None:
                return []
            names.append(name)
        run.answered.append(len(run.requests) - 1)
        run.called += names
        first = sum(len(calls) for calls in run.steps[:step]) + 1
        return [Called(call_id(first + number), name, call.arguments)
                for number, (name, call) in enumerate(zip(names, run.steps[step], strict=True))]

    # -- what each API shape defines ------------------------------------------------------------

    def is_model_request(self, endpoint: str) -> bool:
        raise NotImplementedError

    def tool_schemas(self, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """The tools a request offers: name -> its parameters' JSON schema."""
        raise NotImplementedError

    def answer(self, endpoint: str, body: dict[str, Any], calls: list[Called]) -> Reply:
        raise NotImplementedError

    def other(self, method: str, endpoint: str) -> Reply:
        """Anything else: 404."""
        return Reply(404, {"error": {"message": "not mocked", "type": "not_found"}})


def _steps(tool_calls: list[ToolCall] | None,
           steps: list[list[ToolCall]] | None) -> list[list[ToolCall]]:
    if steps is not None:
        return [list(step) for step in steps]
    return [list(tool_calls)] if tool_calls else []


def _tool_with(offered: dict[str, dict[str, Any]], prop: str | None) -> str | None:
    if prop is None:
        return None
    for name, schema in offered.items():
        if isinstance(schema, dict) and prop in (schema.get("properties") or {}):
            return name
    return None


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
