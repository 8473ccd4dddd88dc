"""Installing a runtime into the oracle cache (tests/oracle/README.md *Runtimes*):
`~/.cache/wave-lsp/oracle/<name>-<version>` (`cache_root()`; `$WAVE_LSP_ORACLE_CACHE` overrides
it). `staged` fills a temporary folder beside the install and renames it into place when complete,
under a file lock, so that an interrupted install never leaves a half cache and two processes never
install at once; `npm_install` fills it with a pinned npm package (Claude Code, Codex, OpenCode,
Gemini CLI, Copilot CLI) and `NpmRuntime` is an npm-installed adapter's `executable`/`install`.
Wave, built from source, stages its build the same way.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["NpmRuntime", "Unavailable", "cache_root", "install_dir", "locked", "npm_install",
           "staged"]

#: how long one `npm install` may take (it only stops a hang)
NPM_TIMEOUT = 1200


class Unavailable(Exception):
    """Why a runtime cannot be had (the reason a test is skipped with)."""


def cache_root() -> Path:
    explicit = os.environ.get("WAVE_LSP_ORACLE_CACHE")
    if explicit:
        return Path(explicit)
    # the account's home, not $HOME: the harness points HOME at a probe's home while it predicts
    base = os.environ.get("XDG_CACHE_HOME") or str(Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache")
    return Path(base) / "wave-lsp" / "oracle"


def install_dir(name: str, version: str) -> Path:
    """Where the runtime `name` at `version` is installed."""
    return cache_root() / f"{name}-{version}"


@contextlib.contextmanager
def locked(name: str) -> Iterator[None]:
    """An exclusive lock on `<cache>/.<name>.lock` while the block runs (an adapter's own
    install step after npm's, such as Copilot CLI's first-run cache)."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f".{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def staged(folder: Path, find: Callable[[Path], Path | None],
           fill: Callable[[Path], None]) -> Path | None:
    """`find(folder)`; when it finds nothing, `fill` a temporary folder beside `folder` and rename
    it into place, under the lock `<parent>/.<folder name>.lock` (looking again once it holds the
    lock). What `find(folder)` gives in the end; `fill`'s exception leaves no folder behind."""
    found = find(folder)
    if found is not None:
        return found
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = find(folder)
        if found is not None:
            return found
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
        try:
            fill(staging)
            shutil.rmtree(folder, ignore_errors=True)
            staging.rename(folder)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return find(folder)


def npm_install(package: str, version: str, folder: Path,
                find: Callable[[Path], Path | None], platform: str = "this platform") -> Path:
    """`npm install --prefix folder package@version` unless `find(folder)` already finds the
    executable, `staged`. Returns the executable; raises `Unavailable` (`platform` names the
    platform in the error when the package installs no executable for it)."""
    found = find(folder)
    if found is not None:
        return found
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed")

    def fill(staging: Path) -> None:
        done = subprocess.run(
            [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund",
             "--loglevel=error", f"{package}@{version}"],
            capture_output=True, text=True, timeout=NPM_TIMEOUT)
        if done.returncode != 0:
            raise Unavailable(f"npm install {package}@{version} failed: "
                              f"{(done.stderr or done.stdout).strip()[-500:]}")
        if find(staging) is None:
            raise Unavailable(f"{package}@{version} installed no executable for {platform}")

    found = staged(folder, find, fill)
    if found is None:
        raise Unavailable(f"{package}@{version}: no executable in {folder} after installing")
    return found


class NpmRuntime:
    """`executable` and `install` of an adapter whose runtime is the npm package `package`,
    installed in `install_dir(name, version)`; `find` is where an install folder holds the
    executable."""

    name: str
    version: str
    package: str

    def __init__(self, version: str | None = None) -> None:
        """The pinned version, or `version` (benchmarks/oracle.py: a new release beside it)."""
        if version is not None:
            self.version = version

    def find(self, folder: Path) -> Path | None:
        raise NotImplementedError

    def folder(self) -> Path:
        return install_dir(self.name, self.version)

    def executable(self) -> Path | None:
        return self.find(self.folder())

    def install(self) -> Path:
        return npm_install(self.package, self.version, self.folder(), self.find)
