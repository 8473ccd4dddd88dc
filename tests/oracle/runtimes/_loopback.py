"""Running a runtime and its mock model API together in a network namespace with only loopback
(tests/oracle/README.md; the contract's rule "run every runtime process inside a network
namespace"). A minimal stand-in for the shared `netns.py` (not merged yet), used by the Codex and
OpenCode adapters until that lands.

How: `isolated(spec)` starts `unshare -n` (as root) or `unshare -rn` (a user namespace) around
`python -m tests.oracle.runtimes._loopback SPEC OUT`. Inside, that process brings `lo` up (the
`SIOCSIFFLAGS` ioctl: no `ip` needed), starts the mock named by the spec on 127.0.0.1 at the
spec's fixed port (every namespace has its own ports, so the adapters write the port into their
config files before the run), runs the spec's steps one after the other (each with its own run of
the mock: its scripted tool calls and its recorded requests) and writes what each step did to OUT
as JSON. Nothing inside can reach anything but the mock.
"""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.oracle.mocks.recording import RecordingServer, ToolCall

#: the port the mock listens on inside every namespace
PORT = 18080
REPOSITORY = Path(__file__).resolve().parents[3]
#: the mocks by API shape: module, class
MOCKS = {"openai_responses": ("tests.oracle.mocks.openai_responses", "ResponsesMock"),
         "openai_chat": ("tests.oracle.mocks.openai_chat", "ChatMock")}

_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1


@dataclass
class Step:
    """One process to run inside the namespace."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    timeout: float = 120.0
    #: write stdout to this file and read it back (a pipe can cut long output)
    stdout_file: str | None = None


@dataclass
class StepResult:
    returncode: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    paths: list[str]


def isolated(mock: str, steps: list[Step], timeout: float = 600.0,
             ) -> tuple[list[StepResult], str | None]:
    """Run `steps` in a fresh loopback-only namespace beside the mock `mock` (a key of `MOCKS`):
    each step's result, and why the whole run failed (None when it ran)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return [], "`unshare` (util-linux) is not installed: no network namespace"
    folder = Path(tempfile.mkdtemp(prefix="wave-lsp-netns-"))
    try:
        spec, out = folder / "spec.json", folder / "out.json"
        spec.write_text(json.dumps({"mock": mock, "steps": [_step_json(s) for s in steps]}))
        flags = "-n" if os.geteuid() == 0 else "-rn"
        env = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
        try:
            done = subprocess.run([unshare, flags, sys.executable, "-m", __name__, str(spec),
                                   str(out)], capture_output=True, text=True, timeout=timeout,
                                  env=env, stdin=subprocess.DEVNULL, cwd=REPOSITORY)
        except subprocess.TimeoutExpired:
            return [], f"the isolated run took more than {timeout:.0f} s"
        if not out.is_file():
            return [], (f"`unshare {flags}` exited {done.returncode}: "
                        f"{(done.stderr or done.stdout).strip()[-500:]}")
        data = json.loads(out.read_text())
        results = [StepResult(**item) for item in data["steps"]]
        return results, data.get("error")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _step_json(step: Step) -> dict[str, Any]:
    return {"argv": step.argv, "env": step.env, "cwd": step.cwd, "timeout": step.timeout,
            "stdout_file": step.stdout_file,
            "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in step.tool_calls]}


# -- inside the namespace -------------------------------------------------------------------------

def loopback_up() -> None:
    """Bring the namespace's `lo` up (`ip link set lo up`)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14s", b"lo", 0, b"")
        flags = struct.unpack("16sH14s", fcntl.ioctl(sock, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", flags | _IFF_UP, b""))


def _run_step(server: RecordingServer, item: dict[str, Any]) -> dict[str, Any]:
    calls = [ToolCall(c["name"], c["arguments"]) for c in item["tool_calls"]]
    run = server.run()
    run.tool_calls, run.answered, run.requests, run.paths = calls, False, [], []
    stdout_file = item.get("stdout_file")
    try:
        with open(stdout_file or os.devnull, "w") as sink:
            done = subprocess.run(item["argv"], cwd=item["cwd"], env=item["env"],
                                  stdout=sink if stdout_file else subprocess.PIPE,
                                  stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                  timeout=item["timeout"])
        stdout = Path(stdout_file).read_text(errors="replace") if stdout_file \
            else done.stdout.decode(errors="replace")
        code, stderr = done.returncode, done.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired as error:
        code, stdout = -9, (error.stdout or b"").decode(errors="replace")
        stderr = f"timed out after {item['timeout']} s"
    except OSError as error:
        code, stdout, stderr = -1, "", f"could not start: {error}"
    return {"returncode": code, "stdout": stdout, "stderr": stderr,
            "requests": list(run.requests), "paths": list(run.paths)}


def main(argv: list[str]) -> int:
    spec = json.loads(Path(argv[0]).read_text())
    result: dict[str, Any] = {"steps": [], "error": None}
    try:
        loopback_up()
        module, name = MOCKS[spec["mock"]]
        server: RecordingServer = getattr(importlib.import_module(module), name)(PORT)
        with server:
            for item in spec["steps"]:
                result["steps"].append(_run_step(server, item))
    except Exception as error:  # reported to the adapter as a note, never raised there
        result["error"] = f"inside the namespace: {error!r}"
    Path(argv[1]).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
