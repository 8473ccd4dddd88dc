"""A local stand-in for the Gemini API (`generativelanguage.googleapis.com`), for the differential
harness (tests/oracle/README.md; the recipe: `../shared/reference/oracles.md`, Gemini CLI).

Gemini CLI is pointed at it with `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port>/run/<id>`. It
answers `POST …/models/<model>:streamGenerateContent?alt=sse` with server-sent events, each a
`GenerateContentResponse` (`data: {…}`), `…:generateContent` with one JSON response, and
`…:countTokens` with a token count; it records the body of every model request. A run scripted
with tool calls answers the first request that declares the tools with `functionCall` parts (the
model calling `activate_skill`), every other request with the text `ok` (`recording.py`). Standard
library only.
"""

from __future__ import annotations

from typing import Any

from tests.oracle.mocks.recording import ANSWER, Called, RecordingServer, Reply, sse

MODEL = "gemini-2.5-flash"


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


def response(parts: list[dict[str, Any]], model: str = MODEL) -> dict[str, Any]:
    """One `GenerateContentResponse` with these parts, finished."""
    return {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
                              "totalTokenCount": 2},
            "modelVersion": model}


def _method(endpoint: str) -> str:
    return endpoint.rsplit(":", 1)[-1] if ":" in endpoint else ""


class GeminiMock(RecordingServer):
    """The Gemini API: `POST …/models/<model>:streamGenerateContent` (or `:generateContent`)."""

    api_path = ""

    def is_model_request(self, endpoint: str) -> bool:
        return _method(endpoint) in ("streamGenerateContent", "generateContent")

    def tool_schemas(self, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return declared_tools(body)

    def answer(self, endpoint: str, body: dict[str, Any], calls: list[Called]) -> Reply:
        model = endpoint.rsplit("/", 1)[-1].split(":", 1)[0] or MODEL
        parts: list[dict[str, Any]] = [{"functionCall": {"name": call.name,
                                                         "args": call.arguments}}
                                       for call in calls] or [{"text": ANSWER}]
        answer = response(parts, model)
        if _method(endpoint) == "generateContent":
            return Reply(200, answer)
        return Reply(200, events=sse([(None, answer)]))

    def other(self, method: str, endpoint: str) -> Reply:
        if _method(endpoint) == "countTokens":
            return Reply(200, {"totalTokens": 1})
        return Reply(404, {"error": {"code": 404, "message": "not mocked",
                                     "status": "NOT_FOUND"}})

