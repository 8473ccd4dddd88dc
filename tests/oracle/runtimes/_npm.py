"""Installing a pinned npm package into the oracle cache, for the runtime adapters that come from
the npm registry (Codex, OpenCode, Gemini CLI, Copilot CLI; tests/oracle/README.md *Runtimes*):
`~/.cache/wave-lsp/oracle/<name>-<version>` (`tests.oracle.install.cache_root()`;
`$WAVE_LSP_ORACLE_CACHE` overrides it, as for Claude Code). The package goes into a temporary folder
first, renamed into place when complete, under a file lock, so that an interrupted install never
leaves a half cache and two processes never install at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.oracle.install import Unavailable, cache_root

__all__ = ["Unavailable", "cache_root", "install_dir", "locked", "npm_install"]


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


def npm_install(package: str, version: str, folder: Path,
                find: Callable[[Path], Path | None]) -> Path:
    """`npm install --prefix folder package@version` unless `find(folder)` already finds the
    executable; staged in a temporary folder renamed into place, under a lock so that two
    processes never install at once. Returns the executable; raises `Unavailable`."""
    found = find(folder)
    if found is not None:
        return found
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = find(folder)
        if found is not None:
            return found
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
        try:
            done = subprocess.run(
                [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund",
                 "--loglevel=error", f"{package}@{version}"],
                capture_output=True, text=True, timeout=1200)
            if done.returncode != 0:
                raise Unavailable(f"npm install {package}@{version} failed: "
                                  f"{(done.stderr or done.stdout).strip()[-500:]}")
            if find(staging) is None:
                raise Unavailable(f"{package}@{version} installed no executable for this "
                                  "platform")
            shutil.rmtree(folder, ignore_errors=True)
            staging.rename(folder)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    found = find(folder)
    if found is None:
        raise Unavailable(f"{package}@{version}: no executable in {folder} after installing")
    return found
