"""The runtimes' network namespace (tests/oracle/netns.py): a process inside reaches the mock
served from this process, and nothing else — not a server on the host's loopback, not another
interface."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.oracle.netns import Host, Namespace, isolation

#: connects to 127.0.0.1:<port> and prints "ok" or the error's class
_CONNECT = """
import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5).close()
    print("ok")
except OSError as error:
    print(type(error).__name__)
"""


def _listener() -> socket.socket:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    return server


@pytest.fixture(scope="module")
def namespace() -> Iterator[Namespace]:
    found = isolation()
    if isinstance(found, Host):
        pytest.skip(found.reason)
    yield found
    found.close()


def _connect(namespace: Namespace, port: int) -> str:
    done = subprocess.run(namespace.wrap([sys.executable, "-c", _CONNECT, str(port)]),
                          capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.strip()


def test_a_server_made_inside_is_reachable_from_inside(namespace: Namespace) -> None:
    inside = namespace.call(_listener)
    try:
        assert _connect(namespace, inside.getsockname()[1]) == "ok"
    finally:
        inside.close()


def test_the_host_s_loopback_is_not_reachable(namespace: Namespace) -> None:
    outside = _listener()
    try:
        assert _connect(namespace, outside.getsockname()[1]) == "ConnectionRefusedError"
    finally:
        outside.close()


def test_a_server_made_inside_is_not_reachable_from_the_host(namespace: Namespace) -> None:
    inside = namespace.call(_listener)
    try:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", inside.getsockname()[1]), timeout=5)
    finally:
        inside.close()


def test_only_loopback_is_there(namespace: Namespace) -> None:
    done = subprocess.run(namespace.wrap(["ip", "-o", "link"]), capture_output=True, text=True,
                          timeout=30, check=True)
    names = [line.split(":")[1].strip() for line in done.stdout.splitlines()]
    assert names == ["lo"]
    assert "UP" in done.stdout.split("lo:", 1)[1]


def test_the_namespace_ends_with_its_holder() -> None:
    found = isolation()
    if isinstance(found, Host):
        pytest.skip(found.reason)
    path = found.path
    found.close()
    done = subprocess.run(["nsenter", f"--net={path}", "true"], capture_output=True, timeout=30)
    assert done.returncode != 0


def test_the_fallback_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    monkeypatch.delenv("WAVE_LSP_REQUIRE_NETNS", raising=False)
    found = isolation()
    assert isinstance(found, Host)
    assert "not root" in found.reason
    assert found.wrap(["x"]) == ["x"]
    monkeypatch.setenv("WAVE_LSP_REQUIRE_NETNS", "1")
    with pytest.raises(Exception, match="not root"):
        isolation()
