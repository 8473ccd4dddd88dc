"""Protocol robustness with a raw stdio client: malformed messages, unknown methods, unopened
documents, cancelled requests and a client that disappears. The server answers what it can, logs
the rest and keeps serving — or exits cleanly when its client is gone."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

SERVER = [sys.executable, "-m", "wave_lsp", "serve", "--stdio"]
#: deadline for one message: an answer takes well under a second on an idle machine, but a server
#: started while both cores are busy (a test loop beside a CI job) has been seen to need over 15 s
#: for its first; generous, so a failure means a hang, not a slow machine
RECEIVE_DEADLINE = 90
pytestmark = pytest.mark.timeout(300)


class RawClient:
    def __init__(self) -> None:
        self.process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.messages: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        # stderr is drained all along: a server that logs more than a pipe holds would otherwise
        # block on its next log line
        self._stderr = bytearray()
        self._stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_reader.start()

    def _drain_stderr(self) -> None:
        for chunk in iter(lambda: self.process.stderr.read1(65536), b""):
            self._stderr += chunk

    def stderr(self) -> bytes:
        """Everything the server wrote to stderr (call after it exited)."""
        self._stderr_reader.join(RECEIVE_DEADLINE)
        return bytes(self._stderr)

    def raw(self, body: bytes) -> None:
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        self.raw(json.dumps({"jsonrpc": "2.0", **message}).encode())

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                key, _, value = line.decode().partition(":")
                headers[key.lower()] = value.strip()
            self.messages.put(json.loads(stream.read(int(headers["content-length"]))))

    def receive(self) -> dict:
        try:
            return self.messages.get(timeout=RECEIVE_DEADLINE)
        except queue.Empty:
            raise AssertionError(f"nothing received within {RECEIVE_DEADLINE} s; the server "
                                 f"{'exited' if self.process.poll() is not None else 'is running'}"
                                 ) from None

    def reply_to(self, ident: int) -> dict:
        """The response to request `ident`, skipping notifications and server requests."""
        for _ in range(100):
            message = self.receive()
            if message.get("id") == ident and "method" not in message:
                return message
            if "method" in message and "id" in message:  # a server request: answer it
                self.send({"id": message["id"], "result": None})
        raise AssertionError(f"no response to {ident}")

    def initialize(self, root: Path) -> None:
        self.send({"id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": root.as_uri(), "capabilities": {}}})
        assert "result" in self.reply_to(1)
        self.send({"method": "initialized", "params": {}})

    def close(self) -> int:
        self.send({"id": 999, "method": "shutdown"})
        self.reply_to(999)
        self.send({"method": "exit"})
        return self.process.wait(RECEIVE_DEADLINE)


@pytest.fixture
def client(tmp_path: Path):
    raw = RawClient()
    raw.initialize(tmp_path)
    yield raw
    if raw.process.poll() is None:
        raw.process.kill()
    raw.process.wait(RECEIVE_DEADLINE)


def test_malformed_messages_and_unknown_methods(client: RawClient, tmp_path: Path) -> None:
    client.raw(b"{this is not json")
    client.raw(json.dumps({"jsonrpc": "2.0", "method": 42}).encode())
    client.send({"method": "wave/unknownNotification", "params": {"x": 1}})
    client.send({"id": 2, "method": "wave/unknownRequest", "params": {}})
    reply = client.reply_to(2)
    assert reply["error"]["code"] == -32601  # method not found
    # params that do not fit the method's type: answered with InvalidParams naming the method
    client.send({"id": 3, "method": "textDocument/hover", "params": {"nonsense": True}})
    invalid = client.reply_to(3)
    assert invalid["error"]["code"] == -32602
    assert "textDocument/hover" in invalid["error"]["message"]
    # a notification that cannot be read is dropped without an answer
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": 7}})
    # still serving: a real request gets a real answer
    client.send({"id": 4, "method": "textDocument/completion", "params": {
        "textDocument": {"uri": (tmp_path / "never-opened/SKILL.md").as_uri()},
        "position": {"line": 0, "character": 0}}})
    assert client.reply_to(4)["result"] == {"isIncomplete": False, "items": []}
    assert client.close() == 0


@pytest.mark.parametrize("arguments", [5, [], [5], [{"uri": 3}], [{"uri": "x", "mode": 1}], None,
                                       [{}, {}]])
def test_commands_name_what_they_expect(client: RawClient, arguments: object) -> None:
    """Any argument shape gets an answer that says what was expected: never silence, never
    Python internals."""
    params: dict[str, object] = {"command": "wave.previewInvocation"}
    if arguments is not None:
        params["arguments"] = arguments
    client.send({"id": 7, "method": "workspace/executeCommand", "params": params})
    reply = client.reply_to(7)
    if "error" in reply:  # `arguments` is not even a list: the request itself is invalid
        assert reply["error"]["code"] == -32602
        assert "workspace/executeCommand" in reply["error"]["message"]
    else:
        assert reply["result"]["ok"] is False
        assert reply["result"]["error"].startswith(("expected one object", "`mode` must be"))
    assert client.close() == 0
    assert b"Traceback" not in client.stderr()


def test_requests_for_unopened_or_odd_documents(client: RawClient, tmp_path: Path) -> None:
    skill = tmp_path / ".wave/skills/disk/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: disk\n---\n", "utf-8")
    requests = [
        ("textDocument/hover", skill.as_uri()),  # on disk, not open: read from disk
        ("textDocument/documentSymbol", "untitled:Untitled-1"),
        ("textDocument/documentLink", "https://example.com/SKILL.md"),
        ("textDocument/codeLens", (tmp_path / "missing/SKILL.md").as_uri()),
    ]
    for ident, (method, uri) in enumerate(requests, start=10):
        params = {"textDocument": {"uri": uri}}
        if method == "textDocument/hover":
            params["position"] = {"line": 1, "character": 1}
        client.send({"id": ident, "method": method, "params": params})
        reply = client.reply_to(ident)
        assert "error" not in reply, reply
    assert client.close() == 0


def test_cancelled_requests_are_answered_or_dropped(client: RawClient, tmp_path: Path) -> None:
    uri = (tmp_path / ".wave/skills/c/SKILL.md").as_uri()
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "markdown", "version": 1, "text": "---\nname: c\n---\n"}}})
    client.send({"id": 20, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": {"line": 1, "character": 1}}})
    client.send({"method": "$/cancelRequest", "params": {"id": 20}})
    client.send({"method": "$/cancelRequest", "params": {"id": 12345}})  # unknown id
    client.send({"id": 21, "method": "textDocument/documentSymbol", "params": {
        "textDocument": {"uri": uri}}})
    assert [s["name"] for s in client.reply_to(21)["result"]] == ["name"]
    assert client.close() == 0


def test_a_client_that_disappears(tmp_path: Path) -> None:
    raw = RawClient()
    raw.initialize(tmp_path)
    raw.process.stdin.close()  # the editor crashed
    try:  # it exits at once (about 0.1 s); 20 s is the suite's generous deadline for a wait
        raw.process.wait(20)
    except subprocess.TimeoutExpired:
        raw.process.kill()
        raise AssertionError("the server outlived its client by 20 s") from None
    # a clean exit; asyncio may still log the cancellation of pygls' own pending callbacks
    assert raw.process.returncode == 0
    assert b"wave_lsp/" not in raw.stderr()


def test_a_refused_rename_is_an_answer_not_a_fault(client: RawClient, tmp_path: Path) -> None:
    """A rename the server refuses is an error response with the reason, and the server logs no
    traceback for it (it is the user's answer, not a server fault)."""
    skill = tmp_path / ".wave/skills/disk/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: disk\n---\n", "utf-8")
    document = {"uri": skill.as_uri()}
    client.send({"id": 20, "method": "textDocument/rename", "params": {
        "textDocument": document, "position": {"line": 1, "character": 7}, "newName": "Bad Name"}})
    invalid = client.reply_to(20)["error"]
    assert invalid["code"] == -32602 and "(SK034)" in invalid["message"]
    client.send({"id": 21, "method": "textDocument/rename", "params": {
        "textDocument": document, "position": {"line": 0, "character": 0}, "newName": "fine"}})
    elsewhere = client.reply_to(21)["error"]
    assert elsewhere["code"] == -32803 and "Nothing to rename here" in elsewhere["message"]
    assert client.close() == 0
    assert b"Traceback" not in client.stderr()


# -- the cancelled requests' bookkeeping, in process ---------------------------------------------


class _Written:
    """A writer that keeps what the protocol sends."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass


def test_cancelled_request_ids_are_forgotten_when_their_requests_end() -> None:
    """`$/cancelRequest` records the id so `safe` answers the request as cancelled; the id goes
    once the request ends, however it ends (the set leaked every id `safe` did not see)."""
    import asyncio
    import concurrent.futures
    from functools import partial

    from wave_lsp.lsp.server import WaveLanguageServer, safe

    server = WaveLanguageServer()
    protocol = server.protocol
    written = _Written()
    protocol.set_writer(written)
    seen_cancelled: list[bool] = []

    @safe(list)
    async def slow(ls: WaveLanguageServer, params: object) -> list[int]:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            seen_cancelled.append(ls.protocol.msg_id in protocol.cancelled_requests)
            raise
        return [1]

    def start(msg_id: str) -> None:  # what pygls' _handle_request does for a request
        protocol._ctx_msg_id.set(msg_id)
        protocol._execute_handler(msg_id, slow, partial(protocol._send_handler_result,
                                                        msg_id=msg_id), args=(server, None))

    async def scenario() -> None:
        start("running")
        await asyncio.sleep(0.01)  # the handler is awaiting
        start("not-started")  # cancelled before its first step: `safe` never runs
        protocol._handle_cancel_notification("running")
        protocol._handle_cancel_notification("not-started")
        done = asyncio.get_running_loop().create_future()  # done, its answer not yet sent
        done.set_result(None)
        protocol._request_futures["done"] = done
        protocol._handle_cancel_notification("done")
        thread = concurrent.futures.Future[None]()  # a thread handler already running
        thread.set_running_or_notify_cancel()
        protocol._request_futures["thread"] = thread
        protocol._handle_cancel_notification("thread")
        assert protocol.cancelled_requests == {"running", "not-started", "done", "thread"}
        thread.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)

    asyncio.run(scenario())
    assert seen_cancelled == [True]  # `safe` still saw the cancel while the handler ran
    assert protocol.cancelled_requests == set()
    assert b'"running"' in written.data and b"-32800" in written.data  # RequestCancelled
