"""Running one allowed injected command, safely (docs/design/product.md *Preview* step 4).

Only the preview's execute mode calls this, and only for commands the permission engine allowed.
The command runs with `bash -c` (`sh -c` when bash is missing) in its own process group, stdin
closed, cwd = the project root, and a 30 s timeout after which the whole group is killed. Output is
collected in anonymous temporary files (bounded memory), at most `MAX_CAPTURE` bytes are read back,
and no file the command writes may grow past that size (RLIMIT_FSIZE).
Long output is saved to a new private file (`O_EXCL`, mode 0600, never through a symlink) whose
path the rendered text names; that file outlives the invocation.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import IO

try:  # imported here, not in the child: a forked child of a threaded server imports nothing
    import resource as _resource

    resource: ModuleType | None = _resource
except ImportError:  # Windows
    resource = None

TIMEOUT_SECONDS = 30.0
MAX_OUTPUT_CHARS = 30_000  #: Wave's SKILL_BASH_MAX_OUTPUT_CHARS
PREVIEW_CHARS = 2_048
MAX_CAPTURE = 16 * 1024 * 1024
TIMEOUT_EXIT_CODE = 124


@dataclass(frozen=True, slots=True)
class Outcome:
    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool = False


def shell() -> list[str]:
    found = shutil.which("bash")
    return [found, "-c"] if found else ["/bin/sh", "-c"]


#: git settings a read-only command runs with: whatever the repository's configuration says, git
#: runs no program it names (docs/security.md *The read-only auto-allow*)
READ_ONLY_GIT = (("safe.bareRepository", "explicit"), ("core.fsmonitor", "false"),
                 ("core.hooksPath", "/dev/null"), ("diff.external", ""),
                 ("core.pager", "cat"), ("gpg.program", "false"), ("gpg.ssh.program", "false"),
                 ("gpg.x509.program", "false"), ("protocol.allow", "never"),
                 ("core.sshCommand", "false"), ("credential.helper", ""),
                 ("diff.noprefix", "false"), ("core.alternateRefsCommand", ""))


def read_only_environment() -> dict[str, str]:
    """The environment a command the runtime runs as read-only gets: git configured by
    `READ_ONLY_GIT` (passed as GIT_CONFIG_COUNT/KEY/VALUE, which override every file)."""
    environment = dict(os.environ)
    environment["GIT_CONFIG_COUNT"] = str(len(READ_ONLY_GIT))
    for index, (key, value) in enumerate(READ_ONLY_GIT):
        environment[f"GIT_CONFIG_KEY_{index}"] = key
        environment[f"GIT_CONFIG_VALUE_{index}"] = value
    return environment


def run_command(command: str, cwd: Path, timeout: float = TIMEOUT_SECONDS,
                environment: dict[str, str] | None = None, merge_stderr: bool = False) -> Outcome:
    """Run `command` in the runtime's shell. With `merge_stderr` its stderr shares one file with
    its stdout (the child's descriptors 1 and 2 are the same open file, as `2>&1` makes them), so
    `stdout` holds both in the order written and `stderr` is empty."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen([*shell(), command], cwd=cwd, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=out if merge_stderr else err,
                                   start_new_session=True,
                                   preexec_fn=_limit_file_size, env=environment)
        timed_out = False
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(process)
        _kill_group(process)  # background children left behind are not ours to keep
        exit_code = TIMEOUT_EXIT_CODE if timed_out else process.returncode
        return Outcome(exit_code, _read(out), _read(err), timed_out)


def _limit_file_size() -> None:
    """In the child: no file it writes (its captured output included) grows past MAX_CAPTURE, so
    a command that never stops writing (`cat /dev/zero`) is stopped by the kernel (SIGXFSZ)
    instead of filling the disk until the timeout."""
    if resource is None:  # not on Windows
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_CAPTURE, MAX_CAPTURE))


def _kill_group(process: subprocess.Popen[bytes]) -> None:
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
