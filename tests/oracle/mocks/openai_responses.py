"""A local stand-in for the OpenAI Responses API (`POST /v1/responses`), as Codex CLI speaks it
(tests/oracle/runtimes/codex.py; /work/shared/reference/oracles.md "Codex CLI").

Every answer is a server-sent event stream: `response.created`, then per output item
`response.output_item.added`, its deltas (`response.output_text.delta` for a message,
`response.function_call_arguments.delta` for a call) and `response.output_item.done`, then
`response.completed` with the usage. A run's scripted tool calls answer the first request that
offers every tool they name (`tools[].name`); every other request gets the text `ok`.
"""

from __future__ import annotations

import json
from typing import Any

from tests.oracle.mocks.recording import ANSWER, Called, RecordingServer, Reply, sse


class ResponsesMock(RecordingServer):
    """The Responses API: `POST …/v1/responses`."""

    def is_model_request(self, endpoint: str) -> bool:
        return endpoint.endswith("responses")

    def tool_schemas(self, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {str(tool["name"]): tool.get("parameters") or {} for tool in body.get("tools") or []
                if isinstance(tool, dict) and tool.get("name")}

    def answer(self, endpoint: str, body: dict[str, Any], calls: list[Called]) -> Reply:
        items: list[dict[str, Any]]
        if calls:
            items = [{"type": "function_call", "id": f"fc_mock{n:04d}", "call_id": call.id,
                      "name": call.name, "arguments": json.dumps(call.arguments),
                      "status": "completed"} for n, call in enumerate(calls, 1)]
        else:
            items = [{"type": "message", "id": "msg_mock", "role": "assistant",
                      "status": "completed",
                      "content": [{"type": "output_text", "text": ANSWER, "annotations": []}]}]
        return Reply(200, events=sse(_events(body, items)))


def _events(body: dict[str, Any], items: list[dict[str, Any]]) -> list[tuple[str | None, Any]]:
    response = {"id": "resp_mock", "object": "response", "created_at": 0, "status": "in_progress",
                "model": body.get("model") or "mock-model", "output": []}
    events: list[tuple[str | None, Any]] = [
        ("response.created", {"type": "response.created", "response": response})]
    for index, item in enumerate(items):
        start = {**item, "status": "in_progress"}
        if item["type"] == "message":
            start["content"] = []
            delta = {"type": "response.output_text.delta", "item_id": item["id"],
                     "output_index": index, "content_index": 0,
                     "delta": item["content"][0]["text"]}
        else:
            start["arguments"] = ""
            delta = {"type": "response.function_call_arguments.delta", "item_id": item["id"],
                     "output_index": index, "delta": item["arguments"]}
        events += [("response.output_item.added", {"type": "response.output_item.added",
                                                   "output_index": index, "item": start}),
                   (str(delta["type"]), delta),
                   ("response.output_item.done", {"type": "response.output_item.done",
                                                  "output_index": index, "item": item})]
    done = {**response, "status": "completed", "output": items,
            "usage": {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": 2}}
    events.append(("response.completed", {"type": "response.completed", "response": done}))
    return events


# -- reading the requests -------------------------------------------------------------------------

def input_messages(body: dict[str, Any], role: str) -> list[str]:
    """The texts of the request's `input` messages of `role` (each message's text parts joined)."""
    found = []
    for item in body.get("input") or []:
        if isinstance(item, dict) and item.get("type", "message") == "message" \
                and item.get("role") == role:
            content = item.get("content")
            if isinstance(content, str):
                found.append(content)
            elif isinstance(content, list):
                found.append("".join(str(part.get("text", "")) for part in content
                                     if isinstance(part, dict)))
    return found
