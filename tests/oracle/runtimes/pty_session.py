"""Typing one line into a runtime's interactive UI through a pseudo-terminal, for the runtimes whose
`/name args` exists only there (Gemini CLI, Copilot CLI; tests/oracle/README.md, the recipe in
`../shared/reference/oracles.md`).

`type_line` starts the program on a new pseudo-terminal (the `pty` module, a fixed window size),
reads its screen output until a ready text appears (ANSI sequences removed; or a test of the
screen says so), waits until the screen has been still for a moment (`quiet`, at most `settle`
seconds: the UI has finished drawing), writes the line at once, then Enter, and waits until `done()` says the
effect was observed (the mock received the request) or the time runs out; then it ends the
program's whole process group. Every wait is bounded; the output seen is returned for notes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass

_ANSI = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


@dataclass
class Typed:
    """What happened: the UI became ready, the line was typed, `done()` became true, and the
    screen output (ANSI removed, the last part)."""

    ready: bool
    typed: bool
    done: bool
    screen: str
    exit_status: int | None


def screen_text(raw: bytes) -> str:
    """Terminal output as text: escape sequences removed."""
    return _ANSI.sub(b"", raw).decode("utf-8", errors="replace")


def _set_size(fd: int, rows: int = 40, columns: int = 160) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def _read(fd: int, output: bytearray, wait: float) -> bool:
    """Read what is there within `wait` seconds; False once the terminal is closed."""
    readable, _, _ = select.select([fd], [], [], wait)
    if not readable:
        return True
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        return False
    if not chunk:
        return False
    output += chunk
    return True


def _wait_for(fd: int, output: bytearray, until: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if until():
            return True
        if not _read(fd, output, 0.2):
            return until()
    return until()


def _settle(fd: int, output: bytearray, longest: float, quiet: float) -> None:
    """Wait until the screen has shown nothing new for `quiet` seconds (the UI has drawn what
    being ready changed and waits for input), at most `longest` seconds (a UI that keeps drawing,
    a spinner, gets the whole of it)."""
    deadline = time.monotonic() + longest
    last, seen = time.monotonic(), len(output)
    while True:
        now = time.monotonic()
        if now - last >= quiet or now >= deadline:
            return
        if not _read(fd, output, min(0.1, deadline - now)):
            return
        if len(output) != seen:
            last, seen = time.monotonic(), len(output)


def type_line(argv: list[str], env: dict[str, str], cwd: str,
              ready_text: str | Callable[[str], bool], line: str,
              done: Callable[[], bool], *, ready_timeout: float = 60.0, settle: float = 2.0,
              quiet: float = 0.6, done_timeout: float = 60.0,
              answer: Callable[[str], bytes | None] | None = None,
              answered_on_screen: Callable[[str], bool] | None = None) -> Typed:
    """Run `argv` on a pseudo-terminal and type `line` into it (see the module docstring).
    `answer(screen)` may return bytes to write while waiting for the ready text (a prompt to
    dismiss, such as a trust question), or None. `ready_text` is a text the screen shows when the
    UI is ready, or a test of the whole screen. `answered_on_screen(text)` ends the wait early
    when what the screen shows after the line was typed is already the answer (an unknown
    command is refused on screen and never reaches the model, so `done` alone would wait the
    whole `done_timeout`)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the program, in its own session (pty.fork made it the leader)
        try:
            os.chdir(cwd)
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    output = bytearray()
    answered: set[bytes] = set()

    def is_ready() -> bool:
        text = screen_text(bytes(output))
        if answer is not None:
            reply = answer(text)
            if reply is not None and reply not in answered:
                answered.add(reply)
                os.write(fd, reply)
        return ready_text(text) if callable(ready_text) else ready_text in text

    typed = finished = False
    try:
        _set_size(fd)
        ready = _wait_for(fd, output, is_ready, ready_timeout)
        if ready:
            _settle(fd, output, settle, quiet)
            os.write(fd, line.encode())
            _wait_for(fd, output, lambda: False, 0.5)
            os.write(fd, b"\r")
            typed = True
            start = len(output)

            def answered() -> bool:
                return done() or (answered_on_screen is not None and answered_on_screen(
                    screen_text(bytes(output[start:]))))

            finished = _wait_for(fd, output, answered, done_timeout)
            _wait_for(fd, output, lambda: False, 0.3)
    except OSError:
        pass
    finally:
        status = _end(pid)
        with contextlib.suppress(OSError):
            os.close(fd)
    return Typed(ready, typed, finished, screen_text(bytes(output))[-4000:], status)


def _end(pid: int) -> int | None:
    """End the program's process group: SIGTERM, then SIGKILL after 3 seconds."""
    for sig, grace in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, sig)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                return None
            if done:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
    return None
