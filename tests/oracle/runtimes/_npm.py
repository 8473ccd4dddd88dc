"""Installing a pinned npm package into the oracle cache, for the runtime adapters
(tests/oracle/README.md): `~/.cache/wave-lsp/oracle/<name>-<version>` (`$WAVE_LSP_ORACLE_CACHE`
overrides the folder, as for Claude Code). The package goes into a temporary folder first, renamed
into place when complete, under a file lock, so that an interrupted install never leaves a half
cache and two processes never install at once.
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


def install_dir(name: str, version: str) -> Path:
    return cache_root() / f"{name}-{version}"


@contextlib.contextmanager
def locked(name: str) -> Iterator[None]:
    """An exclusive lock on `<cache>/.<name>.lock` while the block runs."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f".{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def npm_install(name: str, version: str, spec: str, found: Callable[[Path], Path | None],
                ) -> Path:
    """Install `spec` (`@scope/pkg@1.2.3`) as `<name>-<version>` unless `found(folder)` already
    finds its executable there; returns what `found` finds after the install."""
    target = install_dir(name, version)
    with locked(name):
        present = found(target)
        if present is not None:
            return present
        npm = shutil.which("npm")
        if npm is None:
            raise Unavailable("npm is not installed")
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{name}-{version}-", dir=target.parent))
        try:
            done = subprocess.run(
                [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund",
                 "--loglevel=error", spec], capture_output=True, text=True, timeout=900)
            if done.returncode != 0:
                raise Unavailable(f"npm install {spec} failed: "
                                  f"{(done.stderr or done.stdout).strip()[-500:]}")
            if found(staging) is None:
                raise Unavailable(f"{spec} installed no executable for this platform")
            shutil.rmtree(target, ignore_errors=True)
            staging.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        present = found(target)
    if present is None:
        raise Unavailable(f"{spec} is not usable in {target}")
    return present
