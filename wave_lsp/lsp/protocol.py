"""The JSON-RPC protocol of the server: pygls' `LanguageServerProtocol`, except that a request
whose params cannot be read is answered (docs/design/lsp.md).

pygls turns each message into lsprotocol types while decoding the JSON; when a request's params do
not fit the method's type, it raises before it knows the message is a request, so no answer is
sent and the client waits for ever. Here such a request becomes a `RejectedRequest` that is
answered with `InvalidParams` (-32602), naming the method; a notification that cannot be read is
logged as a warning and dropped, as the protocol wants. A handler that refuses a request for the
user's sake (an invalid new name) raises `RequestRefused`: an error answer without a traceback.

When the client goes away, the first write that finds the pipe closed logs one line and ends the
session; later writes are dropped (pygls would log a traceback for each of them, and a push client
leaves hundreds of diagnostics behind). A `$/cancelRequest` for a request already answered is the
normal race of a client that cancels what it no longer needs: logged at debug level, not as a
warning (Neovim shows every line of the server's stderr as an error). So is a message that
arrives between `shutdown` and `exit` (Neovim 0.7 sends some as it quits): a request is answered
with `InvalidRequest`, as the protocol wants, anything else is dropped, and neither is a warning
(pygls would warn "Server shutting down. No more requests!" and leave a request unanswered).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lsprotocol.types import EXIT
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest

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


class _SkipBrokenPipeTraceback(logging.Filter):
    """pygls logs a traceback before it re-raises a BrokenPipeError; WaveProtocol catches it and
    logs one line itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Error sending data. BrokenPipeError")


#: what writing to a client that has gone raises (a closed pipe, a reset socket, a closed file)
_GONE = (BrokenPipeError, ConnectionResetError)


class WaveProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the client closed the connection: nothing more is sent
        self.client_gone = False
        #: requests the client cancelled (`$/cancelRequest`) while their handler ran; each is
        #: dropped when its request ends
        self.cancelled_requests: set[Any] = set()
        pygls_log = logging.getLogger("pygls.protocol.json_rpc")
        for kind in (_SkipDeserializeTraceback, _SkipRefusalTraceback, _SkipBrokenPipeTraceback):
            if not any(isinstance(f, kind) for f in pygls_log.filters):
                pygls_log.addFilter(kind())

    def _send_data(self, data: Any) -> None:
        if self.client_gone:
            return
        try:
            super()._send_data(data)
        except _GONE:
            self.client_gone = True
            log.info("the client closed the connection: shutting down")
            shutdown: Callable[[], None] = self._server.shutdown  # pygls: untyped
            shutdown()  # ends the read loop: the session is over

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        future = self._request_futures.get(msg_id)
        if future is None:
            log.debug("cancel for request %s, which is already answered", msg_id)
            return
        self.cancelled_requests.add(msg_id)  # `server.safe` answers it as cancelled
        # forgotten once the request is over, however it ends: `safe` never sees a task
        # cancelled before it started, a thread or generator handler, or one already done
        future.add_done_callback(lambda _: self.cancelled_requests.discard(msg_id))
        super()._handle_cancel_notification(msg_id)

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
        method = getattr(message, "method", None)
        if self._shutdown and method != EXIT:
            if isinstance(message, RPCRequest):
                refusal = JsonRpcInvalidRequest(f"the server is shutting down: {method} not served")
                self._send_response(message.id, None, refusal.to_response_error())
            log.debug("after shutdown: dropped %s", method or "a response")
            return
        super().handle_message(message)
