"""What the npm-installed runtime adapters share (tests/oracle/README.md): the cache folder, an
idempotent, locked `npm install --prefix`, a fresh HOME per run, and the gate that skips a test
when a runtime is absent (or fails it under `WAVE_LSP_REQUIRE_ORACLE=1`).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path


class Unavailable(Exception):
    """Why a runtime cannot be had (the reason a test is skipped with)."""


def cache_root() -> Path:
    """`$WAVE_LSP_ORACLE_CACHE`, else `~/.cache/wave-lsp/oracle` (`$XDG_CACHE_HOME` honoured)."""
    explicit = os.environ.get("WAVE_LSP_ORACLE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wave-lsp" / "oracle"


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


def fresh_home(template: Path) -> Path:
    """A new HOME for one run: a copy of the probe's `home` template."""
    home = Path(tempfile.mkdtemp(prefix="wave-lsp-oracle-home-")).resolve()
    if template.is_dir():
        shutil.copytree(template, home, dirs_exist_ok=True, symlinks=True)
    return home


def homeless(text: str, home: Path) -> str:
    """`text` with the run's HOME written `~` (the harness's rule for paths under HOME)."""
    return text.replace(str(home), "~")


def installed_or_skip(executable: Callable[[], Path | None], why: str) -> Path:
    """The executable for a test: skips it, with `why`, when absent, or fails it when
    `WAVE_LSP_REQUIRE_ORACLE=1` (as in `.ci/run`)."""
    import pytest  # only the tests need it

    found = executable()
    if found is None:
        if os.environ.get("WAVE_LSP_REQUIRE_ORACLE") == "1":
            pytest.fail(f"WAVE_LSP_REQUIRE_ORACLE=1 but {why}")
        pytest.skip(why)
    return found
