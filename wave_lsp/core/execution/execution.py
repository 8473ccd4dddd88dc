"""Running one injected command inside the OS sandbox (docs/design/product.md *Preview* step 4,
docs/security.md *The sandbox*).

Only the preview's execute mode calls this, and only for commands the runtime is predicted to run
and wave-lsp's guard lets through. Every command runs contained (`wave_lsp.core.execution.sandbox`:
bubblewrap on Linux, sandbox-exec on macOS) with `bash -c` (`sh -c` when bash is missing), stdin
closed, cwd = the project root (read-only), in its own process group, under the limits of
`wave_lsp.core.execution.limits` and a timeout after which the whole sandbox is killed. Where no
sandbox can start, `SandboxUnavailable` is raised and nothing runs: there is no fallback to the
host. Output is collected in anonymous temporary files (bounded memory) and at most `MAX_CAPTURE`
bytes are read back. Long output is saved to a new private file (`O_EXCL`, mode 0600, never through
a symbolic link) whose path the rendered text names; that file outlives the invocation.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from wave_lsp.core.execution.limits import child_limits, make_control_group
from wave_lsp.core.execution.sandbox import (
    MAX_FILE_BYTES,
    SandboxUnavailable,
    View,
    contain,
)

__all__ = [
    "ArgumentsFile",
    "Outcome",
    "SandboxUnavailable",
    "read_only_environment",
    "run_command",
    "shown_output",
]

TIMEOUT_SECONDS = 30.0
MAX_OUTPUT_CHARS = 30_000  #: Wave's SKILL_BASH_MAX_OUTPUT_CHARS
PREVIEW_CHARS = 2_048
MAX_CAPTURE = MAX_FILE_BYTES
TIMEOUT_EXIT_CODE = 124
#: the shell's code for a command it could not execute
CANNOT_START_EXIT_CODE = 126


@dataclass(frozen=True, slots=True)
class Outcome:
    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool = False


#: git settings a read-only command runs with: whatever the repository's configuration says, git
#: runs no program it names (docs/security.md *The read-only auto-allow*)
READ_ONLY_GIT = (("safe.bareRepository", "explicit"), ("core.fsmonitor", "false"),
                 ("core.hooksPath", "/dev/null"), ("diff.external", ""),
                 ("core.pager", "cat"), ("gpg.program", "false"), ("gpg.ssh.program", "false"),
                 ("gpg.x509.program", "false"), ("protocol.allow", "never"),
                 ("core.sshCommand", "false"), ("credential.helper", ""),
                 ("diff.noprefix", "false"), ("core.alternateRefsCommand", ""))


def read_only_environment() -> dict[str, str]:
    """The variables a command the runtime runs as read-only gets on top of the sandbox's: git
    configured by `READ_ONLY_GIT` (passed as GIT_CONFIG_COUNT/KEY/VALUE, which override every
    file)."""
    environment = {"GIT_CONFIG_COUNT": str(len(READ_ONLY_GIT))}
    for index, (key, value) in enumerate(READ_ONLY_GIT):
        environment[f"GIT_CONFIG_KEY_{index}"] = key
        environment[f"GIT_CONFIG_VALUE_{index}"] = value
    return environment


def run_command(command: str, cwd: Path, timeout: float = TIMEOUT_SECONDS,
                environment: dict[str, str] | None = None, merge_stderr: bool = False,
                visible: Sequence[Path] = ()) -> Outcome:
    """Run `command` in the sandbox, in `cwd`, seeing `visible` (read-only) besides the system.
    `environment` adds variables to the sandbox's minimal set. With `merge_stderr` its stderr
    shares one file with its stdout (the child's descriptors 1 and 2 are the same open file, as
    `2>&1` makes them), so `stdout` holds both in the order written and `stderr` is empty.
    Raises `SandboxUnavailable` (before anything runs) when no sandbox can start."""
    view = View(cwd.resolve(), tuple(visible), Path.home(),
                tuple((environment or {}).items()))
    contained = contain(command, view)
    group = make_control_group()
    limits = child_limits(group)
    try:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            try:
                process = subprocess.Popen(contained.argv, cwd=view.cwd,
                                           stdin=subprocess.DEVNULL, stdout=out,
                                           stderr=out if merge_stderr else err,
                                           start_new_session=True, preexec_fn=limits.apply,
                                           env=contained.environment)
            except OSError as error:  # e.g. E2BIG: a command over the kernel's 128 KiB argument
                return Outcome(CANNOT_START_EXIT_CODE, "",
                               f"the command could not be started: {error.strerror or error}")
            timed_out = not _finished_within(process, timeout)
            # a command past its time, and background children left behind, are not ours to keep
            _kill_group(process)
            exit_code = TIMEOUT_EXIT_CODE if timed_out else process.returncode
            return Outcome(exit_code, _read(out), _read(err), timed_out)
    finally:
        group.close()
        if contained.scratch is not None:
            shutil.rmtree(contained.scratch, ignore_errors=True)


def _finished_within(process: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait for the process, waking the moment it exits (a pidfd where the kernel has them;
    `Popen.wait` polls, which costs a short command up to its polling interval)."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is not None:
        try:
            descriptor = pidfd_open(process.pid)
        except OSError:
            descriptor = None
        if descriptor is not None:
            try:
                ready, _, _ = select.select([descriptor], [], [], timeout)
            finally:
                os.close(descriptor)
            if not ready:
                return False
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return True


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the sandbox: its outer process's group (the sandbox's own processes die with it:
    `--die-with-parent` and the PID namespace)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _read(handle: IO[bytes]) -> str:
    handle.seek(0)
    return handle.read(MAX_CAPTURE).decode("utf-8", errors="replace")


def save_output(text: str, attempts: int = 5) -> Path:
    """Write `text` to a new private file and return its absolute path. The file is created
    exclusively (`O_EXCL | O_NOFOLLOW`) in a fresh private folder: a file or symbolic link planted
    at that path makes the attempt fail (nothing is written through it) and another folder is
    used."""
    last: OSError | None = None
    for _ in range(attempts):
        folder = Path(tempfile.mkdtemp(prefix="wave-skill-bash-"))
        path = folder / "output.txt"
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                                 | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except OSError as error:
            last = error
            continue
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        return path.resolve()
    raise OSError(f"could not create a private output file: {last}")


def shown_output(text: str) -> tuple[str, Path | None]:
    """What replaces the pattern: the output, or a preview and the file holding all of it."""
    if len(text) <= MAX_OUTPUT_CHARS:
        return text, None
    try:
        path = save_output(text)
    except OSError as error:
        return (f"{text[:PREVIEW_CHARS]}\n\n[Output truncated ({len(text):,} chars); the full output "
                f"could not be saved: {error}]", None)
    return (f"{text[:PREVIEW_CHARS]}\n\n[Output truncated ({len(text):,} chars). Full output saved "
            f"to: {path}]", path)


class ArgumentsFile:
    """A private temporary file holding the raw arguments (`${WAVE_ARGUMENTS_FILE}`), removed with
    the invocation."""

    def __init__(self, arguments: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="wave-lsp-invocation-"))
        self.path = (self.folder / "arguments").resolve()
        descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                             | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(arguments)

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
