"""Installing the runtimes the harness runs (tests/oracle/README.md, docs/design/runtime-facts.md
§3): the pinned Claude Code (`CLAUDE_CODE_VERSION` is the one place its version is written), and
every runtime adapter's `install` (tests/oracle/runtimes/<name>.py, each pinning its own).

`python -m tests.oracle.install` installs all six runtimes (each adapter that is present:
`tests.oracle.differential.ADAPTER_MODULES`); `python -m tests.oracle.install wave codex`
installs those; `python -m tests.oracle.install VERSION|latest` installs that Claude Code. Each
goes into `~/.cache/wave-lsp/oracle/<name>-<version>` (or under `$WAVE_LSP_ORACLE_CACHE`); an
installed one is left as it is. `.ci/run` calls it. The tests only look in the cache, so that a
run without npm or the registry is skipped with the reason.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.oracle.runtimes._npm import Unavailable, cache_root, npm_install

__all__ = ["CLAUDE_CODE_VERSION", "Unavailable", "cache_root", "find_claude", "install"]

#: the Claude Code release the harness is pinned to (the facts are "last verified" against it)
CLAUDE_CODE_VERSION = "2.1.332"
PACKAGE = "@anthropic-ai/claude-code"
#: `WAVE_LSP_ORACLE_VERSION` runs the harness against another installed version
VERSION_VARIABLE = "WAVE_LSP_ORACLE_VERSION"


def wanted_version() -> str:
    return os.environ.get(VERSION_VARIABLE) or CLAUDE_CODE_VERSION


def install_dir(version: str) -> Path:
    return cache_root() / f"claude-code-{version}"


def _platform_package() -> str:
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine().lower(), platform.machine().lower())
    system = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform,
                                                                          sys.platform)
    musl = "-musl" if system == "linux" and not platform.libc_ver()[0] else ""
    return f"{PACKAGE}-{system}-{machine}{musl}"


def binary_in(folder: Path) -> Path | None:
    """The native `claude` of an install folder: the platform package's binary (which the
    wrapper's postinstall copies over its placeholder), else the wrapper's bin."""
    modules = folder / "node_modules"
    for candidate in (modules / _platform_package() / "claude",
                      modules / ".bin" / "claude"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def reported_version(binary: Path) -> str:
    """What `claude --version` says (`2.1.332 (Claude Code)` gives `2.1.332`)."""
    home = tempfile.mkdtemp(prefix="wave-lsp-oracle-version-")
    try:
        done = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                              timeout=60, env={"PATH": os.environ.get("PATH", ""), "HOME": home})
    except (OSError, subprocess.TimeoutExpired) as error:
        raise Unavailable(f"{binary} --version failed: {error}") from None
    finally:
        shutil.rmtree(home, ignore_errors=True)
    words = done.stdout.split()
    if done.returncode != 0 or not words:
        raise Unavailable(f"{binary} --version failed: {done.stderr.strip()[:200]}")
    return words[0]


def find_claude(version: str | None = None) -> Path:
    """The installed binary of `version` (default: `wanted_version()`); raises `Unavailable`
    saying how to install it."""
    version = version or wanted_version()
    binary = binary_in(install_dir(version))
    if binary is None:
        raise Unavailable(f"Claude Code {version} is not installed in {install_dir(version)}; "
                          f"run `python -m tests.oracle.install {version}` (needs npm and the "
                          f"npm registry)")
    found = reported_version(binary)
    if found != version:
        raise Unavailable(f"{binary} reports version {found}, not {version}")
    return binary


def latest_version() -> str:
    """The newest published version (`npm view <package> version`)."""
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed")
    done = subprocess.run([npm, "view", PACKAGE, "version"], capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0 or not done.stdout.strip():
        raise Unavailable(f"npm view {PACKAGE} failed: {done.stderr.strip()[-300:]}")
    return done.stdout.strip()


def install(version: str | None = None) -> Path:
    """Install `version` into the cache (nothing to do when it is there, reporting that version)
    and return its binary (`_npm.npm_install`: staged, then renamed into place, so that an
    interrupted install never leaves a half cache behind)."""
    version = version or wanted_version()
    return npm_install(PACKAGE, version, install_dir(version),
                       lambda folder: _reporting(folder, version),
                       platform=f"this platform ({_platform_package()})")


def _reporting(folder: Path, version: str) -> Path | None:
    """The binary of `folder` when it reports `version`."""
    binary = binary_in(folder)
    try:
        return binary if binary is not None and reported_version(binary) == version else None
    except Unavailable:
        return None


def install_runtimes(names: list[str]) -> int:
    """Install the runtimes named (all present adapters when none), one after the other; says
    what each gave. Returns 1 when one failed or a name has no adapter."""
    from tests.oracle.differential import ADAPTER_MODULES, adapters

    unknown = [name for name in names if name not in ADAPTER_MODULES]
    found = adapters(names or None)
    missing = [name for name in names if name in ADAPTER_MODULES and name not in found]
    failed = bool(unknown or missing)
    for name in unknown:
        print(f"tests.oracle.install: no runtime {name!r} (known: "
              f"{', '.join(ADAPTER_MODULES)})", file=sys.stderr)
    for name in missing:
        print(f"tests.oracle.install: {name}: its adapter ({ADAPTER_MODULES[name]}) is not "
              f"in this checkout", file=sys.stderr)
    for name, adapter in found.items():
        try:
            print(f"{name} {adapter.version}: {adapter.install()}", flush=True)
        except Exception as error:  # each adapter's own Unavailable; the others still install
            print(f"tests.oracle.install: {name}: {error}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


def _is_version(word: str) -> bool:
    return word == "latest" or word[:1].isdigit()


def main(argv: list[str]) -> int:
    if not argv or not _is_version(argv[0]):
        return install_runtimes(argv)
    version: str | None = argv[0]
    try:
        if version == "latest":
            version = latest_version()
        print(install(version))
    except Unavailable as error:
        print(f"tests.oracle.install: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
