"""A small stdio LSP client for benchmarks: spawns a server, frames JSON-RPC, answers the server's
requests (configuration, registration, progress) and records when each notification arrives.

Not a test harness (pytest-lsp is): it adds as little as possible between the server and the clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


class LspClient:
    def __init__(self, command: list[str], *, settings: dict[str, Any] | None = None,
                 cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
        self.spawned_at = time.perf_counter()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=cwd,
                                        env={**os.environ, **(env or {})})
        self.settings = settings or {}
        self._next_id = 0
        self._lock = threading.Lock()
        self._responses: dict[int, tuple[threading.Event, list[Any]]] = {}
        self._waiters: list[tuple[Callable[[dict[str, Any]], bool], threading.Event, list[Any]]] = []
        self.notifications: list[tuple[float, dict[str, Any]]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -- transport ------------------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        with self._lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers: dict[str, str] = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                key, _, value = line.decode().partition(":")
                headers[key.lower()] = value.strip()
            message = json.loads(stream.read(int(headers["content-length"])))
            self._dispatch(message, time.perf_counter())

    def _dispatch(self, message: dict[str, Any], at: float) -> None:
        if "id" in message and "method" in message:
            self._answer(message)
            return
        if "id" in message:
            event, box = self._responses.pop(message["id"], (None, None))
            if event is not None:
                box.append(message)
                event.set()
            return
        self.notifications.append((at, message))
        for predicate, event, box in list(self._waiters):
            if predicate(message):
                box.append((at, message))
                self._waiters.remove((predicate, event, box))
                event.set()

    def _answer(self, request: dict[str, Any]) -> None:
        method, params = request["method"], request.get("params") or {}
        result: Any = None
        if method == "workspace/configuration":
            result = [self._section(item.get("section")) for item in params.get("items", [])]
        self._send({"id": request["id"], "result": result})

    def _section(self, section: str | None) -> Any:
        value: Any = self.settings
        for part in (section or "").split("."):
            if part:
                value = value.get(part) if isinstance(value, dict) else None
        return value

    # -- API ------------------------------------------------------------------------------------
    def request(self, method: str, params: Any, timeout: float = 60) -> tuple[Any, float]:
        """The result and the seconds it took."""
        self._next_id += 1
        ident = self._next_id
        event: threading.Event = threading.Event()
        box: list[Any] = []
        self._responses[ident] = (event, box)
        start = time.perf_counter()
        self._send({"id": ident, "method": method, "params": params})
        if not event.wait(timeout):
            raise TimeoutError(method)
        elapsed = time.perf_counter() - start
        reply = box[0]
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result"), elapsed

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def expect(self, predicate: Callable[[dict[str, Any]], bool]) -> tuple[threading.Event, list[Any]]:
        """Register interest in a notification *before* causing it; wait with `wait`."""
        event: threading.Event = threading.Event()
        box: list[Any] = []
        self._waiters.append((predicate, event, box))
        return event, box

    @staticmethod
    def wait(expected: tuple[threading.Event, list[Any]], timeout: float = 60) -> float:
        event, box = expected
        if not event.wait(timeout):
            raise TimeoutError("notification")
        return box[0][0]

    def initialize(self, root: Path, capabilities: dict[str, Any] | None = None,
                   options: Any = None) -> float:
        """Seconds from spawn to the `initialize` answer."""
        self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": capabilities or DEFAULT_CAPABILITIES,
            "initializationOptions": options})
        answered = time.perf_counter() - self.spawned_at
        self.notify("initialized", {})
        return answered

    def peak_rss_mib(self) -> float:
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (user + system, from /proc; NaN elsewhere)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return float("nan")

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(10)
        except Exception:
            self.process.kill()


def publish_for(uri: str, version: int | None = None) -> Callable[[dict[str, Any]], bool]:
    def match(message: dict[str, Any]) -> bool:
        if message.get("method") != "textDocument/publishDiagnostics":
            return False
        params = message["params"]
        return params["uri"] == uri and (version is None or params.get("version") in (version, None))
    return match


#: what VS Code declares for the features benchmarked (push diagnostics, UTF-16, snippets)
DEFAULT_CAPABILITIES: dict[str, Any] = {
    "textDocument": {
        "synchronization": {"didSave": True, "dynamicRegistration": False},
        "completion": {"completionItem": {"snippetSupport": True,
                                          "documentationFormat": ["markdown", "plaintext"]}},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                               "codeDescriptionSupport": True, "dataSupport": True},
    },
    "workspace": {"configuration": True, "workspaceFolders": True,
                  "didChangeWatchedFiles": {"dynamicRegistration": True}},
    "window": {"workDoneProgress": True},
}


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max, in milliseconds."""
    ordered = sorted(samples)
    if not ordered:
        return float("nan"), float("nan"), float("nan")
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[max(0, round(len(ordered) * 0.95) - 1)]
    return p50 * 1000, p95 * 1000, ordered[-1] * 1000
