"""A network namespace with only loopback for the runtimes under test, with the mock model API
inside it (tests/oracle/README.md *Isolation*).

How (as root, which CI and this machine are): a holder process `unshare --net` brings `lo` up and
waits on its standard input, so the namespace lives exactly as long as the session that made it
(a killed session closes the pipe and the holder exits). The mock server's listening socket is
created by a short thread that first joins the namespace with `setns(2)` (a network namespace is
per thread in Linux; a socket stays in the namespace it was made in), so the mock serves from this
process, recording requests in memory, while it is reachable only from inside the namespace.
Each runtime process is started through `nsenter --net=/proc/<holder>/ns/net`: it sees `lo` and
nothing else, so no request can leave the machine (not even to another local service).

Elsewhere (not root, no `unshare`/`nsenter`/`ip`): `isolation()` returns `Host`, which runs the
processes unwrapped with the mock on the host's loopback, and says why in `reason`; every
observation of a run without isolation carries that note. `WAVE_LSP_REQUIRE_NETNS=1` turns the
fallback into an error (`Unavailable`).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: `setns(2)`'s flag for a network namespace
CLONE_NEWNET = 0x40000000
REQUIRE_VARIABLE = "WAVE_LSP_REQUIRE_NETNS"


class Unavailable(Exception):
    """Why no namespace could be made."""


class Host:
    """No isolation: the processes run as they are, the mock on the host's loopback."""

    isolated = False

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def wrap(self, argv: list[str]) -> list[str]:
        return list(argv)

    def call(self, factory: Callable[[], T]) -> T:
        return factory()

    def close(self) -> None:
        pass


class Namespace:
    """A network namespace with only `lo` (up), held by a child process."""

    isolated = True
    reason = ""

    def __init__(self) -> None:
        for tool in ("unshare", "nsenter", "ip"):
            if shutil.which(tool) is None:
                raise Unavailable(f"`{tool}` is not installed (util-linux, iproute2)")
        self._holder = subprocess.Popen(
            ["unshare", "--net", "--", "sh", "-c",
             "ip link set lo up && echo ready && exec cat >/dev/null"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self._holder.stdout is not None
        line = self._holder.stdout.readline().strip()
        if line != "ready":
            error = self._holder.stderr.read() if self._holder.stderr else ""
            self.close()
            raise Unavailable(f"`unshare --net` failed: {error.strip()[:300] or 'no namespace'}")
        self.path = f"/proc/{self._holder.pid}/ns/net"

    def wrap(self, argv: list[str]) -> list[str]:
        """`argv` run inside the namespace."""
        return ["nsenter", f"--net={self.path}", "--", *argv]

    def call(self, factory: Callable[[], T]) -> T:
        """`factory()` called on a thread that has joined the namespace: sockets it creates (a
        server's listening socket) belong to the namespace."""
        result: list[T] = []
        failure: list[BaseException] = []

        def inside() -> None:
            try:
                _setns(self.path)
                result.append(factory())
            except BaseException as error:  # handed to the caller
                failure.append(error)

        thread = threading.Thread(target=inside, name="netns-call")
        thread.start()
        thread.join()
        if failure:
            raise failure[0]
        return result[0]

    def close(self) -> None:
        if self._holder.poll() is None:
            assert self._holder.stdin is not None
            self._holder.stdin.close()
            try:
                self._holder.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._holder.kill()
                self._holder.wait()
        for stream in (self._holder.stdout, self._holder.stderr, self._holder.stdin):
            if stream is not None and not stream.closed:
                stream.close()


def _setns(path: str) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(descriptor, CLONE_NEWNET) != 0:
            number = ctypes.get_errno()
            raise Unavailable(f"setns({path}) failed: {os.strerror(number)}")
    finally:
        os.close(descriptor)


def isolation() -> Namespace | Host:
    """A namespace where one can be made here; else `Host` with the reason (or `Unavailable` when
    `WAVE_LSP_REQUIRE_NETNS=1`)."""
    try:
        if os.geteuid() != 0:
            raise Unavailable("not root: `unshare --net` and `setns` need CAP_SYS_ADMIN")
        return Namespace()
    except Unavailable as error:
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            raise
        return Host(f"no network namespace ({error}): the runtimes run with the host's network")
