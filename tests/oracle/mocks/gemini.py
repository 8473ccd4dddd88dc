"""A local stand-in for the Gemini API (`generativelanguage.googleapis.com`), for the differential
harness (tests/oracle/README.md; the recipe: `../shared/reference/oracles.md`, Gemini CLI).

Gemini CLI is pointed at it with `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port>/run/<id>`. It
answers `POST …/models/<model>:streamGenerateContent?alt=sse` with server-sent events, each a
`GenerateContentResponse` (`data: {…}`), `…:generateContent` with one JSON response, and
`…:countTokens` with a token count; it records the body of every model request. A run scripted
with tool calls answers the first request that declares the tools with `functionCall` parts (the
model calling `activate_skill`), every other request with the text `ok`. Standard library only.
"""

from __future__ import annotations

import json
import socket
from typing import Any

from tests.oracle.mocks.recording import ANSWER, RecordingServer, Reply, Run, json_reply, sse_reply


def declared_tools(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The function declarations a request offers: name -> its parameter schema."""
    found: dict[str, dict[str, Any]] = {}
    for tool in body.get("tools") or []:
        for declaration in (tool or {}).get("functionDeclarations") or []:
            if isinstance(declaration, dict) and isinstance(declaration.get("name"), str):
                schema = declaration.get("parametersJsonSchema") or declaration.get(
                    "parameters") or {}
                found[declaration["name"]] = schema if isinstance(schema, dict) else {}
    return found


def response(parts: list[dict[str, Any]], model: str = "gemini-2.5-flash") -> dict[str, Any]:
    """One `GenerateContentResponse` with these parts, finished."""
    return {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
                              "totalTokenCount": 2},
            "modelVersion": model}


def shape(server: RecordingServer, run: Run | None, endpoint: str, query: str,
          body: dict[str, Any] | None) -> Reply:
    """The Gemini API's answer to one request."""
    method = endpoint.rsplit(":", 1)[-1] if ":" in endpoint else ""
    model = endpoint.rsplit("/", 1)[-1].split(":", 1)[0] or "gemini-2.5-flash"
    if method == "countTokens":
        return json_reply({"totalTokens": 1})
    if method not in ("streamGenerateContent", "generateContent") or body is None:
        return json_reply({"error": {"code": 404, "message": "not mocked", "status": "NOT_FOUND"}},
                          404)
    if run is not None:
        with server.lock:
            run.requests.append(body)
    calls = server.take_tool_calls(run, declared_tools(body))
    parts: list[dict[str, Any]] = [{"functionCall": {"name": name, "args": arguments}}
                                   for name, arguments in calls] or [{"text": ANSWER}]
    answer = response(parts, model)
    if method == "generateContent":
        return json_reply(answer)
    return sse_reply([f"data: {json.dumps(answer)}"])


def mock(listener: socket.socket | None = None) -> RecordingServer:
    """A Gemini API mock (on `listener` when given)."""
    return RecordingServer(shape, listener)
