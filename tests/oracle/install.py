"""The pinned Claude Code the harness runs (tests/oracle/README.md, docs/design/runtime-facts.md
§3): `CLAUDE_CODE_VERSION` is the one place the version is written.

`python -m tests.oracle.install [VERSION|latest]` installs it from the npm registry
(`npm install --prefix`) into `~/.cache/wave-lsp/oracle/claude-code-<version>` (or under
`$WAVE_LSP_ORACLE_CACHE`) and prints the binary's path; `.ci/run` calls it. The tests only look in
the cache (`find_claude`), so that a run without npm or the registry is skipped with the reason.
"""

from __future__ import annotations

import os
import platform
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: the Claude Code release the harness is pinned to (the facts are "last verified" against it)
CLAUDE_CODE_VERSION = "2.1.332"
PACKAGE = "@anthropic-ai/claude-code"
#: `WAVE_LSP_ORACLE_VERSION` runs the harness against another installed version
VERSION_VARIABLE = "WAVE_LSP_ORACLE_VERSION"


class Unavailable(Exception):
    """Why Claude Code cannot be had (the reason a test is skipped with)."""


def wanted_version() -> str:
    return os.environ.get(VERSION_VARIABLE) or CLAUDE_CODE_VERSION


def cache_root() -> Path:
    explicit = os.environ.get("WAVE_LSP_ORACLE_CACHE")
    if explicit:
        return Path(explicit)
    # the account's home, not $HOME: the harness points HOME at a probe's home while it predicts
    base = os.environ.get("XDG_CACHE_HOME") or str(Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache")
    return Path(base) / "wave-lsp" / "oracle"


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
    """Install `version` into the cache (nothing to do when it is there) and return its binary.
    The package goes into a temporary folder first, renamed into place when complete, so that an
    interrupted install never leaves a half cache behind."""
    version = version or wanted_version()
    try:
        return find_claude(version)
    except Unavailable:
        pass
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed")
    target = install_dir(version)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".claude-code-{version}-", dir=target.parent))
    try:
        done = subprocess.run(
            [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund",
             "--loglevel=error", f"{PACKAGE}@{version}"],
            capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise Unavailable(f"npm install {PACKAGE}@{version} failed: "
                              f"{(done.stderr or done.stdout).strip()[-500:]}")
        if binary_in(staging) is None:
            raise Unavailable(f"{PACKAGE}@{version} installed no native binary for this "
                              f"platform ({_platform_package()})")
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return find_claude(version)


def main(argv: list[str]) -> int:
    version = argv[0] if argv else None
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
