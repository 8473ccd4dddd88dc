"""Work on a long list in two processes: the second half in a forked copy of this process, the
first half here, the results in the list's order (docs/design/product.md *Indexing speed*).

Only where `os.fork` exists and the machine has two cores or more; anywhere else, or when the copy
fails in any way (it cannot be forked, it dies, its answer cannot be read back), the work is done
here, so the result is the same list whatever happens. A fork copies the process without its
other threads: the copy runs only `work` (pure computation and file reads, every module already
imported), sends its results through a pipe and leaves with `os._exit`, so that it never runs the
parent's exit handlers nor flushes the parent's buffered output (the language server's stdout).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
import warnings
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def patience(count: int) -> float:
    """How long the copy may take for `count` items: far more than reading that many skills
    takes on a loaded machine (~0.2 ms each)."""
    return 30.0 + 0.01 * count


def can_fork() -> bool:
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2


def in_two_processes(items: Sequence[T], work: Callable[[Sequence[T]], list[R]]) -> list[R]:
    """`work(items)`, computed as `work(first half)` here and `work(second half)` in a forked
    copy; `work` must give one result per item, in order, and its results must pickle."""
    half = (len(items) + 1) // 2
    first, second = items[:half], items[half:]
    if not second or not can_fork():
        return work(items)
    child = _start(second, work)
    results = work(first)
    rest: list[R] | None = _collect(child, len(second)) if child is not None else None
    return results + (rest if rest is not None else work(second))


def _start(items: Sequence[T], work: Callable[[Sequence[T]], list[R]]) -> tuple[int, int] | None:
    """Fork a copy that computes `work(items)`: (its pid, the pipe's read end), or None."""
    reading, writing = os.pipe()
    try:
        with warnings.catch_warnings():  # Python 3.12+ warns of forking a threaded process
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(reading)
        os.close(writing)
        return None
    if pid == 0:  # the copy
        status = 1
        try:
            os.close(reading)
            data = pickle.dumps(work(items), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(writing, "wb") as pipe:
                pipe.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(writing)
    return pid, reading


def _collect(child: tuple[int, int], count: int) -> list[R] | None:
    """The copy's results, or None when it did not deliver `count` of them in time (a copy
    stuck on a lock another thread held when it was forked is stopped after `patience`)."""
    pid, reading = child
    deadline = time.monotonic() + patience(count)
    chunks: list[bytes] = []
    with os.fdopen(reading, "rb", buffering=0) as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([pipe], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            chunk = pipe.read(1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    _pid, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    data = b"".join(chunks)
    try:
        results = pickle.loads(data)
    except Exception:  # a truncated or unreadable answer: the work is done here instead
        return None
    return results if isinstance(results, list) and len(results) == count else None
