"""The JSON-RPC protocol of the server: pygls' `LanguageServerProtocol`, except that a request
whose params cannot be read is answered (docs/design/lsp.md).

pygls turns each message into lsprotocol types while decoding the JSON; when a request's params do
not fit the method's type, it raises before it knows the message is a request, so no answer is
sent and the client waits for ever. Here such a request becomes a `RejectedRequest` that is
answered with `InvalidParams` (-32602), naming the method; a notification that cannot be read is
logged as a warning and dropped, as the protocol wants. A handler that refuses a request for the
user's sake (an invalid new name) raises `RequestRefused`: an error answer without a traceback.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol

log = logging.getLogger("wave_lsp")


@dataclass(frozen=True, slots=True)
class RejectedRequest:
    """A request whose params could not be structured."""

    id: int | str
    method: str
    jsonrpc: str = "2.0"


class RequestRefused(JsonRpcException):
    """A request answered with an error the user is meant to read, such as a rename the core
    refuses (`RequestFailed`, -32803, unless another code is given): not a fault of the server, so
    neither logged as one nor with a traceback."""

    CODE = -32803  # LSPErrorCodes.RequestFailed


class _SkipRefusalTraceback(logging.Filter):
    """pygls logs every exception a request handler raises with its traceback; a refusal is an
    answer, not a fault."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], RequestRefused))


class _SkipDeserializeTraceback(logging.Filter):
    """pygls logs a traceback for every message it cannot structure; WaveProtocol answers or drops
    such a message and logs one line itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Unable to deserialize message")


class WaveProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pygls_log = logging.getLogger("pygls.protocol.json_rpc")
        for kind in (_SkipDeserializeTraceback, _SkipRefusalTraceback):
            if not any(isinstance(f, kind) for f in pygls_log.filters):
                pygls_log.addFilter(kind())

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException:
            method = data.get("method")
            if "id" in data and isinstance(method, str) and isinstance(data["id"], int | str):
                return RejectedRequest(data["id"], method)
            log.warning("dropped a message that cannot be read: %s", str(data)[:200])
            return {"jsonrpc": "invalid"}  # handle_message ignores it as an unknown message

    def notify_json(self, method: str, params: dict[str, Any]) -> None:
        """Send a notification whose params are already the JSON the client reads (plain dicts,
        lists, strings and numbers): encoded by `json.dumps` alone, without pygls' converter."""
        self._send_data({"jsonrpc": self.VERSION, "method": method, "params": params})

    def handle_message(self, message: Any) -> None:
        if isinstance(message, RejectedRequest):
            log.warning("invalid params for %s (request %s)", message.method, message.id)
            error = JsonRpcInvalidParams(f"invalid params for {message.method}")
            self._send_response(message.id, None, error.to_response_error())
            return
        if isinstance(message, dict):  # an unreadable notification: nothing to answer
            return
        super().handle_message(message)
