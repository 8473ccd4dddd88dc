"""The end of a session the client did not end: a push client that vanishes while the server
still has diagnostics to send leaves one log line and a server that exits, not a traceback per
unsent message (there were hundreds); a `$/cancelRequest` for a request already answered (Neovim
sends them) is no warning; a request between `shutdown` and `exit` is answered with
InvalidRequest, and a notification there is dropped, without pygls' warning (Neovim 0.7 sends
them as it quits and logs the warning as an error). Driven over raw stdio, as an editor's process
would."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

CAPABILITIES = json.loads((Path(__file__).parent / "capabilities" / "push-only.json")
                          .read_text("utf-8"))["capabilities"]


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_a_vanished_client_leaves_one_line_and_a_server_that_exits(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    skills = []
    for index in range(120):
        skill = root / ".wave" / "skills" / f"s{index}" / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(f"---\nname: s{index}\ndescription: Use when: asked\n---\n"
                         f"See [x](missing{index}.md)\n", "utf-8")
        skills.append(skill)
    server = subprocess.Popen([sys.executable, "-m", "wave_lsp", "serve", "--log-level", "info"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=root, env={"HOME": str(tmp_path),
                                                                     "PATH": "/usr/bin:/bin"})
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": root.as_uri(), "capabilities": CAPABILITIES,
            "clientInfo": {"name": "Neovim", "version": "0.10.0"},
            "workspaceFolders": [{"uri": root.as_uri(), "name": "project"}]}}))
        server.stdin.flush()
        assert b"Content-Length" in server.stdout.read1(64)  # the answer to initialize
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        # the request is answered: cancelling it now is the race every client runs into
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "$/cancelRequest",
                                  "params": {"id": 1}}))
        for skill in skills:
            server.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                      "params": {"textDocument": {
                                          "uri": skill.as_uri(), "languageId": "markdown",
                                          "version": 1, "text": skill.read_text("utf-8")}}}))
        server.stdin.flush()
        time.sleep(0.2)
        server.stdout.close()  # the client is gone: nothing reads what the server sends
        server.stdin.close()
        assert server.wait(timeout=60) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.stderr is not None
    log = server.stderr.read().decode("utf-8", "replace")
    server.stderr.close()
    assert "Traceback" not in log and "BrokenPipeError" not in log, log[-3000:]
    assert log.count("the client closed the connection: shutting down") == 1, log[-3000:]
    assert "Cancel notification for unknown message id" not in log


def read_message(stream) -> dict:
    """One framed JSON-RPC message from the server's stdout."""
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    loaded: dict = json.loads(stream.read(length))
    return loaded


def test_messages_after_shutdown_are_answered_or_dropped_quietly(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    server = subprocess.Popen([sys.executable, "-m", "wave_lsp", "serve"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=root, env={"HOME": str(tmp_path),
                                                                     "PATH": "/usr/bin:/bin"})
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    skill = (root / ".wave/skills/demo/SKILL.md").as_uri()
    try:
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": root.as_uri(), "capabilities": CAPABILITIES,
            "clientInfo": {"name": "Neovim", "version": "0.7.2"}}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        server.stdin.flush()
        answers = {}
        while 2 not in answers:
            message = read_message(server.stdout)
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didClose",
                                  "params": {"textDocument": {"uri": skill}}}))
        server.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
                                  "params": {"textDocument": {"uri": skill},
                                             "position": {"line": 0, "character": 0}}}))
        server.stdin.flush()
        while 3 not in answers:
            message = read_message(server.stdout)
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        server.stdin.flush()
        server.stdin.close()
        assert server.wait(timeout=60) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    log = server.stderr.read().decode("utf-8", "replace")
    server.stderr.close()
    server.stdout.close()
    assert answers[2]["result"] is None
    assert answers[3]["error"]["code"] == -32600  # InvalidRequest
    assert "shutting down" in answers[3]["error"]["message"]
    assert "No more requests" not in log and "Traceback" not in log, log
