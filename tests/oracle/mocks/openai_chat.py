"""A local stand-in for the OpenAI Chat Completions API (`POST …/v1/chat/completions`), for the
runtimes that speak it: Wave (`runtimes/wave.py`), OpenCode (`runtimes/opencode.py`, through
`@ai-sdk/openai-compatible`) and Copilot CLI (`runtimes/copilot_cli.py`, a BYOK provider)
(tests/oracle/README.md; ../shared/reference/oracles.md). Standard library only.

A streaming request (`"stream": true`) gets `chat.completion.chunk` events ending in `data: [DONE]`:
the role, the text or each call (its name, then its arguments), the finish reason, and the usage
when `stream_options.include_usage` asks for it; any other gets one `chat.completion`. The scripted
tool calls (`recording.py`) answer with `finish_reason: "tool_calls"`, every other request with the
text `ok`. `GET …/v1/models` lists `MODELS`.
"""

from __future__ import annotations

import json
from typing import Any

from tests.oracle.mocks.recording import (
    ANSWER,
    Called,
    RecordingServer,
    Reply,
    Run,
    ToolCall,
    call_id,
    sse,
)

__all__ = ["ChatMock", "Run", "ToolCall", "call_id", "message_texts", "offered",
           "offered_tools", "tool_description", "tool_results"]

#: the models `GET /v1/models` lists (Copilot CLI asks for `gpt-4.1`)
MODELS = ("mock-model", "gpt-4.1")
_USAGE = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}


class ChatMock(RecordingServer):
    """The Chat Completions API: `POST …/v1/chat/completions`."""

    def is_model_request(self, endpoint: str) -> bool:
        return endpoint.endswith("chat/completions")

    def tool_schemas(self, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return offered_tools(body)

    def answer(self, endpoint: str, body: dict[str, Any], calls: list[Called]) -> Reply:
        model = str(body.get("model") or MODELS[0])
        tool_calls = [{"id": call.id, "type": "function",
                       "function": {"name": call.name, "arguments": json.dumps(call.arguments)}}
                      for call in calls]
        finish = "tool_calls" if tool_calls else "stop"
        if not body.get("stream"):
            message: dict[str, Any] = {"role": "assistant",
                                       "content": None if tool_calls else ANSWER}
            if tool_calls:
                message["tool_calls"] = tool_calls
            return Reply(200, {"id": "chatcmpl-mock", "object": "chat.completion", "created": 0,
                               "model": model, "usage": _USAGE,
                               "choices": [{"index": 0, "message": message,
                                            "finish_reason": finish}]})
        usage = bool((body.get("stream_options") or {}).get("include_usage"))
        return Reply(200, events=sse(_chunks(model, tool_calls, finish, usage)))

    def other(self, method: str, endpoint: str) -> Reply:
        if method == "GET" and endpoint.endswith("models"):
            return Reply(200, {"object": "list", "data": [
                {"id": model, "object": "model", "created": 0, "owned_by": "mock"}
                for model in MODELS]})
        return super().other(method, endpoint)


def _chunk(model: str, delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
    return {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0,
            "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _chunks(model: str, tool_calls: list[dict[str, Any]], finish: str,
            usage: bool) -> list[tuple[str | None, Any]]:
    """The stream: the role, then the text or each call (its name, then its arguments), then the
    finish reason, the usage where asked, and `[DONE]`."""
    chunks: list[tuple[str | None, Any]] = [(None, _chunk(model, {"role": "assistant",
                                                                  "content": ""}, None))]
    if not tool_calls:
        chunks.append((None, _chunk(model, {"content": ANSWER}, None)))
    for index, call in enumerate(tool_calls):
        head = {"index": index, "id": call["id"], "type": "function",
                "function": {"name": call["function"]["name"], "arguments": ""}}
        rest = {"index": index, "function": {"arguments": call["function"]["arguments"]}}
        chunks += [(None, _chunk(model, {"tool_calls": [head]}, None)),
                   (None, _chunk(model, {"tool_calls": [rest]}, None))]
    chunks.append((None, _chunk(model, {}, finish)))
    if usage:
        chunks.append((None, {"id": "chatcmpl-mock", "object": "chat.completion.chunk",
                              "created": 0, "model": model, "choices": [], "usage": _USAGE}))
    chunks.append((None, "[DONE]"))
    return chunks


# -- reading the requests -------------------------------------------------------------------------

def offered_tools(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The functions a request offers: name -> its parameters' schema."""
    found: dict[str, dict[str, Any]] = {}
    for tool in body.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            schema = function.get("parameters") or {}
            found[function["name"]] = schema if isinstance(schema, dict) else {}
    return found


def offered(body: dict[str, Any]) -> list[str]:
    """The names of the functions a request offers."""
    return list(offered_tools(body))


def tool_description(body: dict[str, Any], name: str) -> str | None:
    """The description of the function `name` a request offers (None: not offered)."""
    for tool in body.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and function.get("name") == name:
            return str(function.get("description") or "")
    return None


def content_text(content: object) -> str:
    """A message's `content` as text: the string, or its parts' texts joined (any part type)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def message_texts(body: dict[str, Any], role: str) -> list[str]:
    """The texts of the request's `messages` of `role` (each message's text parts joined)."""
    found = []
    for message in body.get("messages") or []:
        if not isinstance(message, dict) or message.get("role") != role:
            continue
        content = message.get("content")
        if isinstance(content, str):
            found.append(content)
        elif isinstance(content, list):
            found.append("".join(str(part.get("text", "")) for part in content
                                 if isinstance(part, dict) and part.get("type") == "text"))
    return found


def tool_results(body: dict[str, Any]) -> dict[str, str]:
    """The `role: "tool"` messages of a request, by `tool_call_id`."""
    found = {}
    for message in body.get("messages") or []:
        if isinstance(message, dict) and message.get("role") == "tool":
            content = message.get("content")
            if isinstance(content, list):
                content = "".join(str(part.get("text", "")) for part in content
                                  if isinstance(part, dict))
            found[str(message.get("tool_call_id"))] = str(content)
    return found
