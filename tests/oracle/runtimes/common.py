"""What the runtime adapters share (tests/oracle/README.md *Runtimes*): a fresh HOME per run, an
environment with nothing inherited but PATH, a bounded subprocess run, reading `<tag>…</tag>`
elements out of a prompt, and `run_steps`: processes run one after the other beside one mock,
inside the harness's network namespace (tests/oracle/netns.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tests.oracle.mocks.recording import RecordingServer, ToolCall
from tests.oracle.netns import isolation

#: how long one headless run may take (a run takes a few seconds; this only stops a hang)
RUN_TIMEOUT = 120.0
#: how many runtime processes one observation runs at once: one, since the driver already runs
#: `differential.parallel()` observations at a time (one per core)
PARALLEL = 1

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class Ran:
    """One finished (or timed out) process."""

    returncode: int | None
    stdout: str
    stderr: str

    def note(self, what: str) -> str:
        tail = (self.stderr.strip() or self.stdout.strip())[-300:]
        return f"{what}: exit {self.returncode}: {tail}"


def fresh_home(template: Path | None) -> Path:
    """A new HOME: a copy of `template` (the probe's home)."""
    home = Path(tempfile.mkdtemp(prefix="wave-lsp-oracle-home-")).resolve()
    if template is not None and template.is_dir():
        shutil.copytree(template, home, dirs_exist_ok=True, symlinks=True)
    return home


def base_environment(home: Path, **extra: str) -> dict[str, str]:
    """Nothing inherited but PATH."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "LANG": "C.UTF-8", **extra}


def run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = RUN_TIMEOUT,
        stdout_file: Path | None = None) -> Ran:
    """`argv` to its end (or `timeout`); its standard output through `stdout_file` when given (a
    pipe can cut long output)."""
    try:
        with open(stdout_file or os.devnull, "w") as sink:
            done = subprocess.run(argv, cwd=cwd, env=env, timeout=timeout,
                                  stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  stdout=sink if stdout_file else subprocess.PIPE)
    except subprocess.TimeoutExpired as error:
        return Ran(None, _text(error.stdout), _text(error.stderr) + f"\n(timed out after "
                                                                   f"{timeout:.0f} s)")
    except OSError as error:
        return Ran(None, "", f"could not start: {error}")
    stdout = stdout_file.read_text(errors="replace") if stdout_file else _text(done.stdout)
    return Ran(done.returncode, stdout, _text(done.stderr))


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    return value if isinstance(value, str) else ""


def in_parallel(function: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """`function` of each item, `PARALLEL` at a time, in the items' order."""
    if len(items) <= 1 or PARALLEL <= 1:
        return [function(item) for item in items]
    with ThreadPoolExecutor(PARALLEL) as pool:
        return list(pool.map(function, items))


def with_home_as_tilde(text: str, home: Path) -> str:
    """Paths under the run's HOME written `~` (the harness's rule for outcome texts)."""
    return homeless(text, home)


def ready_or_settled(ready: Callable[[str], bool], shown: str,
                     grace: float = 15.0) -> Callable[[str], bool]:
    """`ready(screen)`, or `shown` on the screen for `grace` seconds: an interactive UI that waits
    for its skills count (`ui_ready`) would otherwise wait its whole timeout in a case where no
    skill loads."""
    first: list[float] = []

    def check(screen: str) -> bool:
        if ready(screen):
            return True
        if shown not in screen:
            return False
        first[:] = first or [time.monotonic()]
        return time.monotonic() - first[0] >= grace

    return check


def elements(text: str, tag: str) -> list[str]:
    """Every `<tag>…</tag>` element of `text`, whole (the tags included), in order."""
    return re.findall(rf"<{tag}>.*?</{tag}>", text, re.S)


def inner(element: str, tag: str) -> str | None:
    """The text of the first `<tag>…</tag>` inside `element`."""
    found = re.search(rf"<{tag}>(.*?)</{tag}>", element, re.S)
    return found.group(1) if found else None


def homeless(text: str, home: Path) -> str:
    """Paths under the run's HOME written `~` (the harness's rule for outcome texts)."""
    return text.replace(str(home), "~")


# -- processes beside one mock ----------------------------------------------------------------------

@dataclass
class Step:
    """One process to run beside the mock."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    timeout: float = RUN_TIMEOUT
    #: read the standard output through a file (a pipe can cut long output)
    through_file: bool = False


@dataclass
class StepResult:
    returncode: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    paths: list[str]


def run_steps(mock: Callable[[], RecordingServer],
              steps: Callable[[str], list[Step]]) -> tuple[list[StepResult], str | None]:
    """Make the mock inside a network namespace with only loopback (`netns.isolation()`), give
    `steps` its base URL (the default run, e.g. `http://127.0.0.1:<port>/v1`), and run each step
    there, one after the other, the default run started afresh with the step's tool calls. Each
    step's result, and a note (the isolation's fallback, or why nothing ran)."""
    try:
        network = isolation()
    except Exception as error:  # `WAVE_LSP_REQUIRE_NETNS=1` and no namespace: a note
        return [], f"no network namespace: {error}"
    note = None if network.isolated else network.reason
    results: list[StepResult] = []
    folder = Path(tempfile.mkdtemp(prefix="wave-lsp-steps-"))
    try:
        with network.call(mock) as server:
            for number, step in enumerate(steps(server.base_url())):
                record = server.reset(step.tool_calls)
                sink = folder / f"out{number}" if step.through_file else None
                done = run(network.wrap(step.argv), Path(step.cwd), step.env, step.timeout, sink)
                results.append(StepResult(-9 if done.returncode is None else done.returncode,
                                          done.stdout, done.stderr, list(record.requests),
                                          list(record.paths)))
    except Exception as error:  # reported to the adapter as a note, never raised there
        return results, f"running beside the mock: {error!r}"
    finally:
        network.close()
        shutil.rmtree(folder, ignore_errors=True)
    return results, note
