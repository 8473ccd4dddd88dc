"""A local stand-in for the Anthropic Messages API, for the differential harness (tests/oracle,
docs/design/runtime-facts.md §3.5, §3.6, §3.9).

Claude Code is pointed at it with `ANTHROPIC_BASE_URL=http://127.0.0.1:<port>/run/<id>`: every run
gets its own path prefix, so one server serves runs that overlap. The server listens on the loopback
address only, records the JSON body of every request under the run's id, and answers `POST
…/v1/messages` streaming (server-sent events) or not, as the request asks. A run can be told to
answer the first request that offers the Skill tool with a `tool_use` of it (the model invoking a
skill); every other request gets a short text answer. Nothing but the standard library (the
server itself is `mocks.recording.LoopbackServer`, as the other APIs' mocks').
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.oracle.mocks.recording import LoopbackServer

#: what every text answer says
ANSWER = "ok"


@dataclass
class Run:
    """What one Claude Code process sent, and how the mock answers it."""

    #: `(skill, args)` calls of the Skill tool to answer the first main-loop request with
    skill_calls: list[tuple[str, str | None]] = field(default_factory=list)
    #: the name of the tool the calls went to (the tool whose input schema has a `skill`
    #: property, found in the request's `tools`)
    tool_name: str | None = None
    #: JSON bodies of the `/v1/messages` requests, in arrival order
    requests: list[dict[str, Any]] = field(default_factory=list)
    #: every path requested (messages and anything else), in arrival order
    paths: list[str] = field(default_factory=list)
    answered_tool_use: bool = False


class MockApi(LoopbackServer):
    """The server, its thread and the runs it records. Use as a context manager."""

    def __init__(self) -> None:
        self._runs: dict[str, Run] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        super().__init__(_handler(self))

    def new_run(self, skill_calls: list[tuple[str, str | None]] | None = None,
                ) -> tuple[str, Run]:
        """A fresh run id and its record; the base URL is `base_url(run_id)`."""
        with self._lock:
            run_id = f"r{next(self._ids)}"
            run = Run(skill_calls=list(skill_calls or []))
            self._runs[run_id] = run
        return run_id, run

    def base_url(self, run_id: str) -> str:
        return f"http://127.0.0.1:{self.port}/run/{run_id}"

    def run(self, run_id: str) -> Run:
        return self._runs[run_id]

    # -- answering ------------------------------------------------------------------------------

    def answer(self, path: str, body: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        """The status and the message (None: an empty JSON object) for a request to `path`."""
        parts = path.split("?", 1)[0].strip("/").split("/")
        run = None
        if len(parts) >= 2 and parts[0] == "run":
            run = self._runs.get(parts[1])
            parts = parts[2:]
        if run is not None:
            with self._lock:
                run.paths.append("/" + "/".join(parts))
        endpoint = "/".join(parts)
        if endpoint == "v1/messages/count_tokens":
            return 200, {"input_tokens": 1}
        if endpoint != "v1/messages" or body is None:
            return 404, {"type": "error",
                         "error": {"type": "not_found_error", "message": "not mocked"}}
        content: list[dict[str, Any]] = [{"type": "text", "text": ANSWER}]
        stop = "end_turn"
        if run is not None:
            with self._lock:
                run.requests.append(body)
                tool = skill_tool(body)
                if run.skill_calls and not run.answered_tool_use and tool is not None:
                    run.answered_tool_use, run.tool_name = True, tool
                    content = [_tool_use(tool, skill, args, number)
                               for number, (skill, args) in enumerate(run.skill_calls, 1)]
                    stop = "tool_use"
        return 200, _message(body, content, stop)


def skill_tool(body: dict[str, Any]) -> str | None:
    """The name of the Skill tool among a request's `tools`: the one whose input schema has a
    `skill` property (the name itself may change between versions)."""
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            schema = tool.get("input_schema") or {}
            if isinstance(schema, dict) and "skill" in (schema.get("properties") or {}):
                return str(tool.get("name"))
    return None


def tool_use_id(number: int) -> str:
    """The id of the `number`th (from 1) Skill-tool call of a run."""
    return f"toolu_mock{number:04d}"


def _tool_use(tool: str, skill: str, args: str | None, number: int) -> dict[str, Any]:
    arguments: dict[str, Any] = {"skill": skill}
    if args is not None:
        arguments["args"] = args
    return {"type": "tool_use", "id": tool_use_id(number), "name": tool, "input": arguments}


def _message(body: dict[str, Any], content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {"id": "msg_mock", "type": "message", "role": "assistant",
            "model": body.get("model") or "claude-mock", "content": content,
            "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}


def _events(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The server-sent events of `message`: message_start, the content blocks (start, one delta,
    stop), message_delta, message_stop."""
    start = {**message, "content": [], "stop_reason": None}
    events: list[tuple[str, dict[str, Any]]] = [("message_start",
                                                 {"type": "message_start", "message": start})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            empty: dict[str, Any] = {"type": "text", "text": ""}
            delta: dict[str, Any] = {"type": "text_delta", "text": block["text"]}
        else:
            empty = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [("content_block_start",
                    {"type": "content_block_start", "index": index, "content_block": empty}),
                   ("content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": delta}),
                   ("content_block_stop", {"type": "content_block_stop", "index": index})]
    events += [("message_delta", {"type": "message_delta",
                                  "delta": {"stop_reason": message["stop_reason"],
                                            "stop_sequence": None},
                                  "usage": {"output_tokens": 1}}),
               ("message_stop", {"type": "message_stop"})]
    return events


def _handler(api: MockApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the runs are recorded, not logged."""

        def _reply(self, body: dict[str, Any] | None) -> None:
            status, message = api.answer(self.path, body)
            if status == 200 and body is not None and body.get("stream") and message is not None \
                    and message.get("type") == "message":
                payload = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n"
                                  for name, data in _events(message)).encode()
                content_type = "text/event-stream"
            else:
                payload = json.dumps(message or {}).encode()
                content_type = "application/json"
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("request-id", "req_mock")
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

        def do_HEAD(self) -> None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler
