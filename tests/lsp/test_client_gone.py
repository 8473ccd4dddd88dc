"""The end of a session the client did not end: a push client that vanishes while the server
still has diagnostics to send leaves one log line and a server that exits, not a traceback per
unsent message (there were hundreds); a `$/cancelRequest` for a request already answered (Neovim
sends them) is no warning. Driven over raw stdio, as an editor's process would."""

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
