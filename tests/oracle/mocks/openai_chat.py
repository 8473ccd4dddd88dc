"""A local stand-in for the OpenAI Chat Completions API, for the differential harness
(tests/oracle/README.md; the recipe: `../shared/reference/oracles.md`, Copilot CLI and OpenCode).

A runtime is pointed at `http://127.0.0.1:<port>/run/<id>/v1`. The mock answers `POST
…/chat/completions` with streaming chunks (`data: {chat.completion.chunk}` … `data: [DONE]`) when
the request says `"stream": true`, else with one `chat.completion`; `GET …/models` lists the
requested models. It records the body of every completion request. A run scripted with tool calls
answers the first request that offers the tools with `tool_calls` (the model invoking a skill), every
other request with the text `ok`. Standard library only.
"""

from __future__ import annotations

import json
import socket
from typing import Any

from tests.oracle.mocks.recording import ANSWER, RecordingServer, Reply, Run, json_reply, sse_reply

MODELS = ("gpt-4.1", "mock-model")


def offered_tools(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The functions a request offers: name -> its parameter schema."""
    found: dict[str, dict[str, Any]] = {}
    for tool in body.get("tools") or []:
        function = (tool or {}).get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            schema = function.get("parameters") or {}
            found[function["name"]] = schema if isinstance(schema, dict) else {}
    return found


def tool_call_id(number: int) -> str:
    """The id of the `number`th (from 1) scripted call of a run."""
    return f"call_mock{number:04d}"


def _calls(calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [{"index": index, "id": tool_call_id(index + 1), "type": "function",
             "function": {"name": name, "arguments": json.dumps(arguments)}}
            for index, (name, arguments) in enumerate(calls)]


def chunks(model: str, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The streamed chunks of one answer: the role and content (or the tool calls), the finish
    reason, then the usage."""
    base = {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0,
            "model": model}
    delta: dict[str, Any] = {"role": "assistant", "content": None if calls else ANSWER}
    if calls:
        delta["tool_calls"] = _calls(calls)
    finish = "tool_calls" if calls else "stop"
    return [{**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
            {**base, "choices": [], "usage": _usage()}]


def completion(model: str, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None if calls else ANSWER}
    if calls:
        message["tool_calls"] = [{key: value for key, value in call.items() if key != "index"}
                                 for call in _calls(calls)]
    return {"id": "chatcmpl-mock", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": _usage()}


def _usage() -> dict[str, int]:
    return {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}


def shape(server: RecordingServer, run: Run | None, endpoint: str, query: str,
          body: dict[str, Any] | None) -> Reply:
    """The Chat Completions API's answer to one request."""
    if endpoint.endswith("/models"):
        return json_reply({"object": "list", "data": [
            {"id": model, "object": "model", "created": 0, "owned_by": "mock"}
            for model in MODELS]})
    if not endpoint.endswith("/chat/completions") or body is None:
        return json_reply({"error": {"message": "not mocked", "type": "not_found"}}, 404)
    if run is not None:
        with server.lock:
            run.requests.append(body)
    calls = server.take_tool_calls(run, offered_tools(body))
    model = str(body.get("model") or MODELS[0])
    if not body.get("stream"):
        return json_reply(completion(model, calls))
    events = [f"data: {json.dumps(chunk)}" for chunk in chunks(model, calls)]
    return sse_reply([*events, "data: [DONE]"])


def mock(listener: socket.socket | None = None) -> RecordingServer:
    """A Chat Completions mock (on `listener` when given)."""
    return RecordingServer(shape, listener)
