"""A test's side of the mocks (tests/oracle/README.md *Runtimes*): post a JSON body to a mock and
read the `data:` lines of a server-sent event stream it answers with. Standard library only."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def post_json(url: str, body: dict[str, Any]) -> tuple[str, bytes]:
    """POST `body` as JSON: the answer's Content-Type and its payload."""
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers["Content-Type"], answer.read()


def sse_data(payload: bytes) -> list[Any]:
    """The `data:` of each event of a stream, as JSON (`[DONE]` as that string)."""
    return [json.loads(line[len("data: "):]) if line != "data: [DONE]" else "[DONE]"
            for line in payload.decode().split("\n") if line.startswith("data: ")]
