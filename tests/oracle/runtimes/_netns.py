"""A network namespace with only loopback, for the runtime adapters of the differential harness
(tests/oracle/README.md, issue 39: "run each inside a network namespace with only loopback").

A minimal stand-in for the shared netns module of the harness (written by another helper; until it is
merged, the Gemini CLI and Copilot CLI adapters use this one). The approach: a small holder process
is started with `unshare -n` (as root) or `unshare -rn` (unprivileged, in a user namespace), brings
`lo` up inside, and creates the listening sockets there on request; each socket is handed to this
process over a Unix socket pair (`SCM_RIGHTS`). A socket keeps the namespace it was created in, so
the mock server runs in this process (its recorded requests are plain Python objects) while it is
reachable only from inside the namespace. Each runtime is started with `nsenter` into the holder's
namespace (`wrap`), so it sees only loopback and the mock. The holder ends when this process closes
its side of the pair (or exits).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

#: the holder: brings `lo` up, then answers each byte it reads with a new listening socket on
#: 127.0.0.1 (port chosen by the kernel), until its side of the pair closes
_HOLDER = r"""
import socket, subprocess, sys
control = socket.socket(fileno=int(sys.argv[1]))
up = subprocess.run(["ip", "link", "set", "lo", "up"], capture_output=True, text=True)
if up.returncode != 0:
    control.sendall(b"E" + up.stderr.encode()[:500])
    sys.exit(1)
control.sendall(b"R")
while control.recv(1):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    socket.send_fds(control, [b"S"], [listener.fileno()])
    listener.close()
"""


class NamespaceUnavailable(Exception):
    """Why no loopback-only network namespace could be made here (the reason a test skips)."""


class LoopbackNamespace:
    """The holder process and its namespace. Use as a context manager."""

    def __init__(self) -> None:
        self._holder: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self.unprivileged = os.geteuid() != 0

    def __enter__(self) -> LoopbackNamespace:
        for tool in ("unshare", "nsenter", "ip"):
            if shutil.which(tool) is None:
                raise NamespaceUnavailable(f"`{tool}` is not installed (util-linux, iproute2)")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        unshare = ["unshare", "-rn"] if self.unprivileged else ["unshare", "-n"]
        self._holder = subprocess.Popen(
            [*unshare, sys.executable, "-c", _HOLDER, str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
        theirs.close()
        self._control = ours
        ours.settimeout(30)
        try:
            ready = ours.recv(600)
        except OSError:
            ready = b""
        if ready[:1] != b"R":
            self.__exit__()
            raise NamespaceUnavailable(f"`{' '.join(unshare)}` failed: "
                                       f"{ready[1:].decode(errors='replace').strip()}")
        return self

    def __exit__(self, *_: object) -> None:
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._holder is not None:
            try:
                self._holder.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._holder.kill()
                self._holder.wait()
            if self._holder.stderr is not None:
                self._holder.stderr.close()
            self._holder = None

    def listen(self) -> socket.socket:
        """A new listening TCP socket on 127.0.0.1 inside the namespace."""
        if self._control is None:
            raise RuntimeError("the namespace is not entered")
        self._control.sendall(b"L")
        _, fds, _, _ = socket.recv_fds(self._control, 1, 1)
        if not fds:
            raise NamespaceUnavailable("the namespace holder sent no socket")
        return socket.socket(fileno=fds[0])

    def wrap(self, argv: list[str]) -> list[str]:
        """`argv` run inside the namespace."""
        if self._holder is None:
            raise RuntimeError("the namespace is not entered")
        proc = Path("/proc") / str(self._holder.pid) / "ns"
        if self.unprivileged:
            return ["nsenter", "--preserve-credentials", f"--user={proc / 'user'}",
                    f"--net={proc / 'net'}", "--", *argv]
        return ["nsenter", f"--net={proc / 'net'}", "--", *argv]
