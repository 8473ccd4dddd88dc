"""A local stand-in for the OpenAI Chat Completions API (`POST …/chat/completions`), for the
runtimes that speak it (Wave; tests/oracle/README.md). Standard library only.

Like the Anthropic mock (`tests/oracle/mock_api.py`), one server serves every run: a run's base
URL is `http://127.0.0.1:<port>/run/<id>/v1`, so its requests are recorded under its id. Each
request is answered streaming (`data:` chunks and `data: [DONE]`) when it asks for a stream,
else with one `chat.completion`. A run may carry a script of tool calls: each call answers the
first request, after the previous call's, whose `tools` offer a function of that name (the
model calling the skill tool, or `Bash` with an injected command); every other request gets the
text `ok`. The server's socket is made by the constructor, so `netns.Namespace.call(OpenAIChat)`
makes it inside the runtimes' network namespace.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: what every text answer says
ANSWER = "ok"


@dataclass(frozen=True)
class Call:
    """One scripted tool call: the function's name and its arguments."""

    tool: str
    arguments: dict[str, Any]


@dataclass
class Run:
    """What one runtime process sent, and the calls left to answer with."""

    script: list[Call] = field(default_factory=list)
    #: JSON bodies of the chat-completion requests, in arrival order
    requests: list[dict[str, Any]] = field(default_factory=list)
    #: every path requested, in arrival order (without the run prefix)
    paths: list[str] = field(default_factory=list)
    #: the index in `requests` of the request each scripted call answered
    answered: list[int] = field(default_factory=list)


def call_id(number: int) -> str:
    """The id of the `number`th (from 1) scripted call of a run."""
    return f"call_mock{number:04d}"


def offered(body: dict[str, Any]) -> list[str]:
    """The names of the functions a request offers."""
    names = []
    for tool in body.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            names.append(function["name"])
    return names


def tool_description(body: dict[str, Any], name: str) -> str | None:
    """The description of the function `name` a request offers (None: not offered)."""
    for tool in body.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and function.get("name") == name:
            return str(function.get("description") or "")
    return None


class OpenAIChat:
    """The server, its thread and the runs it records. Use as a context manager."""

    def __init__(self) -> None:
        self._runs: dict[str, Run] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> OpenAIChat:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def new_run(self, script: list[Call] | None = None) -> tuple[str, Run]:
        with self._lock:
            run_id = f"r{next(self._ids)}"
            self._runs[run_id] = Run(script=list(script or []))
        return run_id, self._runs[run_id]

    def base_url(self, run_id: str) -> str:
        return f"http://127.0.0.1:{self.port}/run/{run_id}/v1"

    def answer(self, path: str, body: dict[str, Any] | None) -> tuple[int, dict[str, Any]]:
        parts = path.split("?", 1)[0].strip("/").split("/")
        run = None
        if len(parts) >= 2 and parts[0] == "run":
            run = self._runs.get(parts[1])
            parts = parts[2:]
        endpoint = "/".join(parts)
        if run is not None:
            with self._lock:
                run.paths.append("/" + endpoint)
        if not endpoint.endswith("chat/completions") or body is None:
            return 404, {"error": {"message": "not mocked", "type": "invalid_request_error"}}
        message: dict[str, Any] = {"role": "assistant", "content": ANSWER}
        finish = "stop"
        if run is not None:
            with self._lock:
                run.requests.append(body)
                step = len(run.answered)
                if step < len(run.script) and run.script[step].tool in offered(body):
                    call = run.script[step]
                    run.answered.append(len(run.requests) - 1)
                    message = {"role": "assistant", "content": None, "tool_calls": [
                        {"id": call_id(step + 1), "type": "function",
                         "function": {"name": call.tool,
                                      "arguments": json.dumps(call.arguments)}}]}
                    finish = "tool_calls"
        return 200, _completion(body, message, finish)


def _completion(body: dict[str, Any], message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {"id": "chatcmpl-mock", "object": "chat.completion", "created": 0,
            "model": body.get("model") or "mock-model",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def chunks(completion: dict[str, Any]) -> list[dict[str, Any]]:
    """The streamed form of a completion: the role, the content or each tool call, the finish
    reason, then the usage."""
    choice = completion["choices"][0]
    message, base = choice["message"], {key: completion[key] for key in ("id", "created", "model")}
    base["object"] = "chat.completion.chunk"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    found = [chunk({"role": "assistant", "content": ""})]
    if message.get("content"):
        found.append(chunk({"content": message["content"]}))
    for index, call in enumerate(message.get("tool_calls") or []):
        found.append(chunk({"tool_calls": [{"index": index, **call}]}))
    found.append(chunk({}, choice["finish_reason"]))
    found.append({**base, "choices": [], "usage": completion["usage"]})
    return found


def _handler(api: OpenAIChat) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the runs are recorded, not logged."""

        def _reply(self, body: dict[str, Any] | None) -> None:
            status, message = api.answer(self.path, body)
            if status == 200 and body is not None and body.get("stream"):
                payload = "".join(f"data: {json.dumps(data)}\n\n"
                                  for data in chunks(message)).encode() + b"data: [DONE]\n\n"
                content_type = "text/event-stream"
            else:
                payload, content_type = json.dumps(message).encode(), "application/json"
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            self._reply(body if isinstance(body, dict) else None)

        def do_GET(self) -> None:
            self._reply(None)

    return Handler
