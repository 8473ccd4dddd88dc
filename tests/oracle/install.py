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
