"""The resource limits of one contained command (docs/security.md *The sandbox*, limits).

In the child, before it becomes the sandbox: no core dumps, no file written past
`MAX_FILE_BYTES`, and — where the kernel lets wave-lsp make a control group (cgroup v2, or v1's
`pids` and `memory` controllers, usually as root) — at most `MAX_PROCESSES` processes and
`MAX_MEMORY_BYTES` of memory for the whole sandbox. Without a control group the same bounds come
from resource limits: `RLIMIT_NPROC` (not for root, whom the kernel exempts) and `RLIMIT_DATA`.
The caller's timeout kills the rest.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from wave_lsp.core.execution.sandbox import MAX_FILE_BYTES, MAX_MEMORY_BYTES, MAX_PROCESSES

try:  # imported here, not in the child: a forked child of a threaded server imports nothing
    import resource as _resource

    resource: ModuleType | None = _resource
except ImportError:  # Windows
    resource = None

CGROUP_ROOT = Path("/sys/fs/cgroup")


@dataclass(slots=True)
class ControlGroup:
    """The control-group folders one command joins (empty when none could be made)."""

    folders: list[Path] = field(default_factory=list)
    #: each folder's `cgroup.procs`, opened before the fork so the child only writes
    procs: list[int] = field(default_factory=list)

    def join(self) -> None:
        """In the child: move itself (and so everything it starts) into the groups."""
        for descriptor in self.procs:
            with contextlib.suppress(OSError):
                os.write(descriptor, b"0")

    def close(self) -> None:
        """Kill whatever is left in the groups and remove them (the kernel removes a group only
        once its last process has gone, which a dying PID namespace takes a moment for)."""
        for descriptor in self.procs:
            with contextlib.suppress(OSError):
                os.close(descriptor)
        self.procs.clear()
        for folder in self.folders:
            _kill_members(folder)
            try:
                folder.rmdir()
            except OSError:
                _LEFT_BEHIND.append(folder)
        self.folders.clear()

    @property
    def limits_processes(self) -> bool:
        return bool(self.folders)


#: groups whose processes were still leaving when their command ended: removed at the next
#: command or when wave-lsp exits
_LEFT_BEHIND: list[Path] = []


def remove_left_behind(wait: float = 0.0) -> None:
    """Remove the groups left behind (waiting up to `wait` seconds for their last processes)."""
    deadline = time.monotonic() + wait
    while _LEFT_BEHIND:
        for folder in list(_LEFT_BEHIND):
            _kill_members(folder)
            try:
                folder.rmdir()
            except FileNotFoundError:
                pass
            except OSError:
                continue
            _LEFT_BEHIND.remove(folder)
        if not _LEFT_BEHIND or time.monotonic() >= deadline:
            return
        time.sleep(0.01)


atexit.register(remove_left_behind, 1.0)


def _kill_members(folder: Path) -> None:
    with contextlib.suppress(OSError):
        for line in (folder / "cgroup.procs").read_text("utf-8").split():
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(line), signal.SIGKILL)


def make_control_group() -> ControlGroup:
    """A new control group below wave-lsp's own with the process and memory limits, or an empty
    one where the kernel does not let wave-lsp make it."""
    remove_left_behind()
    group = ControlGroup()
    name = f"wave-lsp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        if (CGROUP_ROOT / "cgroup.controllers").exists():
            _unified(group, name)
        else:
            _per_controller(group, name)
    except OSError:
        group.close()
        return ControlGroup()
    return group


def _own_path(controller: str) -> str:
    """This process's group in one hierarchy ("" for cgroup v2's)."""
    for line in Path("/proc/self/cgroup").read_text("utf-8").splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path
    raise OSError(f"no {controller} control group")


def _unified(group: ControlGroup, name: str) -> None:
    folder = CGROUP_ROOT / _own_path("").lstrip("/") / name
    folder.mkdir()
    group.folders.append(folder)
    (folder / "pids.max").write_text(str(MAX_PROCESSES), "utf-8")
    (folder / "memory.max").write_text(str(MAX_MEMORY_BYTES), "utf-8")
    group.procs.append(os.open(folder / "cgroup.procs", os.O_WRONLY))


def _per_controller(group: ControlGroup, name: str) -> None:
    for controller, setting, value in (("pids", "pids.max", MAX_PROCESSES),
                                       ("memory", "memory.limit_in_bytes", MAX_MEMORY_BYTES)):
        folder = CGROUP_ROOT / controller / _own_path(controller).lstrip("/") / name
        folder.mkdir()
        group.folders.append(folder)
        (folder / setting).write_text(str(value), "utf-8")
        group.procs.append(os.open(folder / "cgroup.procs", os.O_WRONLY))


@dataclass(frozen=True, slots=True)
class ChildLimits:
    """What the child applies before exec, all computed in the parent (a forked child of a
    threaded server should do no more than system calls)."""

    group: ControlGroup
    rlimits: tuple[tuple[int, int], ...]

    def apply(self) -> None:
        """In the child: join the group, then set each resource limit."""
        self.group.join()
        if resource is None:
            return
        for which, value in self.rlimits:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(which, (value, value))


def child_limits(group: ControlGroup) -> ChildLimits:
    """The limits of one command: the file size and no core dumps always; the memory and process
    bounds from resource limits where no control group holds them."""
    if resource is None:
        return ChildLimits(group, ())
    wanted = [(resource.RLIMIT_FSIZE, MAX_FILE_BYTES), (resource.RLIMIT_CORE, 0)]
    if not group.limits_processes:
        wanted.append((resource.RLIMIT_DATA, MAX_MEMORY_BYTES))
        if os.getuid() != 0:  # the kernel never limits root's processes this way
            wanted.append((resource.RLIMIT_NPROC, _processes_now() + MAX_PROCESSES))
    rlimits = []
    for which, value in wanted:
        with contextlib.suppress(ValueError, OSError):
            hard = resource.getrlimit(which)[1]
            rlimits.append((which, value if hard == resource.RLIM_INFINITY else min(value, hard)))
    return ChildLimits(group, tuple(rlimits))


def _processes_now() -> int:
    """About how many processes this user has (RLIMIT_NPROC counts them all)."""
    try:
        return sum(1 for entry in os.scandir("/proc") if entry.name.isdigit())
    except OSError:
        return 1024
