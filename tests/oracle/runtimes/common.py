"""What the Gemini CLI and Copilot CLI adapters share (tests/oracle/README.md): a fresh HOME per run,
an environment with nothing inherited but PATH, a bounded subprocess run, running several runs two
at a time, and reading `<tag>…</tag>` elements out of a prompt.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

#: how many runtime processes run at once (the machine has two cores)
PARALLEL = 2
#: how long one headless run may take (a run takes a few seconds; this only stops a hang)
RUN_TIMEOUT = 90.0

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


def run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = RUN_TIMEOUT) -> Ran:
    try:
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as error:
        return Ran(None, _text(error.stdout), _text(error.stderr) + f"\n(timed out after "
                                                                   f"{timeout:.0f} s)")
    except OSError as error:
        return Ran(None, "", str(error))
    return Ran(done.returncode, done.stdout, done.stderr)


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    return value if isinstance(value, str) else ""


def in_parallel(function: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """`function` of each item, `PARALLEL` at a time, in the items' order."""
    if len(items) <= 1:
        return [function(item) for item in items]
    with ThreadPoolExecutor(PARALLEL) as pool:
        return list(pool.map(function, items))


def elements(text: str, tag: str) -> list[str]:
    """Every `<tag>…</tag>` element of `text`, whole (the tags included), in order."""
    return re.findall(rf"<{tag}>.*?</{tag}>", text, re.S)


def inner(element: str, tag: str) -> str | None:
    """The text of the first `<tag>…</tag>` inside `element`."""
    found = re.search(rf"<{tag}>(.*?)</{tag}>", element, re.S)
    return found.group(1) if found else None


def with_home_as_tilde(text: str, home: Path) -> str:
    """Paths under the run's HOME written `~` (the harness's rule for outcome texts)."""
    return text.replace(str(home), "~")
