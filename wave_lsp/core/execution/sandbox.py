"""Containment: the OS sandbox every command wave-lsp executes runs in (docs/security.md *The
sandbox*).

Whether a command may run is decided elsewhere (the runtime's prediction, then wave-lsp's own
guard); this module makes the decision's mistakes harmless. A command sees:

- the system read-only (`/usr` and its `/bin`, `/lib` links, `/opt`, a short list of `/etc` files
  that programs need — never `/etc/shadow`, SSH host keys or TLS private keys);
- the project (the working folder), the skill's folder, the plugin root and the arguments file,
  read-only;
- the folders of its `PATH` (and the installation they belong to: a virtual environment's
  interpreter, a version manager's root), read-only, with credential files inside them masked;
- an empty, writable, throw-away HOME (at the same path, so `~` expands as usual) and `/tmp`;
- no network (a network namespace with nothing in it), no host processes (its own PID
  namespace and `/proc`), a minimal `/dev`, a new session (no terminal to inject keystrokes into),
  no capabilities, and a minimal environment (no tokens from the caller's environment);
- limits: the caller's timeout, `MAX_FILE_BYTES` per file written, `MAX_PROCESSES` processes and
  `MAX_MEMORY_BYTES` of memory (a cgroup where one can be made, else resource limits), no core
  dumps; the whole sandbox dies with wave-lsp.

Linux uses bubblewrap (`bwrap`), macOS `sandbox-exec` with an equivalent profile. Where neither can
start, `SandboxUnavailable` says in one sentence what to install: nothing ever runs on the host, and
no setting turns containment off.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from wave_lsp.core.paths import is_within

MAX_FILE_BYTES = 16 * 1024 * 1024  #: no file a command writes (its captured output included) grows past this
MAX_PROCESSES = 256
MAX_MEMORY_BYTES = 4 * 1024 * 1024 * 1024
#: the system folders visible read-only (those that exist; merged-/usr links are recreated)
SYSTEM_FOLDERS = ("/usr", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                  "/nix/store")
#: the files and folders of /etc a program may need (never shadow files, keys or sudoers)
ETC_ALLOWED = ("passwd", "group", "hosts", "hostname", "nsswitch.conf", "resolv.conf",
               "localtime", "timezone", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
               "alternatives", "ssl/certs", "ca-certificates", "ca-certificates.conf",
               "mime.types", "magic", "magic.mime", "inputrc", "terminfo", "locale.alias",
               "locale.conf", "default/locale", "os-release", "debian_version", "protocols",
               "services", "shells", "login.defs", "gai.conf", "host.conf", "manpath.config",
               "environment")
#: names that hold credentials: masked (an empty file or folder) inside every visible folder
CREDENTIALS = (".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".config", ".claude",
               ".claude.json", ".codex", ".gemini", ".copilot", ".gitconfig", ".git-credentials",
               ".netrc", ".npmrc", ".pypirc", ".password-store", ".mozilla", ".wave",
               ".local/share/keyrings", "credentials", "credentials.toml", ".credentials.json",
               ".bash_history", ".zsh_history", ".python_history", ".terraformrc", ".vault-token")
#: environment variables a command keeps from the caller (no tokens, no proxies, no LD_*)
KEPT_VARIABLES = ("LANG", "LANGUAGE", "TZ", "USER", "LOGNAME")
INSTALL_HINT = {
    "linux": "install bubblewrap (Debian and Ubuntu: `sudo apt install bubblewrap`; Fedora: "
             "`sudo dnf install bubblewrap`; Arch: `sudo pacman -S bubblewrap`)",
    "darwin": "`/usr/bin/sandbox-exec`, part of macOS, is missing or refused to start",
}


class SandboxUnavailable(RuntimeError):
    """No sandbox can start here: the sentence says why and what to install."""


@dataclass(frozen=True, slots=True)
class View:
    """What one command may see: its working folder and other paths, all read-only."""

    cwd: Path
    read_only: tuple[Path, ...] = ()
    home: Path = field(default_factory=Path.home)
    environment: tuple[tuple[str, str], ...] = ()  #: extra variables (git's read-only settings)


@dataclass(frozen=True, slots=True)
class Contained:
    """The argument vector that runs `command` in the sandbox, and its environment."""

    argv: list[str]
    environment: dict[str, str]
    sandbox: str
    scratch: Path | None = None  #: a folder to remove once the command has finished (macOS)


def _platform() -> str:
    """The operating system (a function, so that tests can ask for another one)."""
    return sys.platform


def ensure_available() -> str:
    """The name of this machine's sandbox once it has been seen to start; `SandboxUnavailable`
    (with what to install) where there is none."""
    platform = _platform()
    if platform.startswith("linux"):
        _bubblewrap()
        return "bubblewrap"
    if platform == "darwin":
        _seatbelt()
        return "sandbox-exec"
    raise SandboxUnavailable(f"Commands are not run: wave-lsp runs a command only inside an OS "
                             f"sandbox, and it has none for {platform} (bubblewrap on Linux, "
                             "sandbox-exec on macOS)")


def contain(command: str, view: View) -> Contained:
    """How to run `command` (bash, else sh) inside this machine's sandbox."""
    refusal = _unsafe_view(view)
    if refusal is not None:
        raise SandboxUnavailable(refusal)
    platform = _platform()
    if platform.startswith("linux"):
        bwrap = _bubblewrap()
        shell = "/bin/bash" if Path("/bin/bash").exists() else "/bin/sh"
        shown = visible_folders(view)
        environment = sandbox_environment(view, visible_path(view, shown))
        return Contained([bwrap, *bubblewrap_arguments(view, environment, shown), shell, "-c",
                          command],
                         {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, "bubblewrap")
    if platform == "darwin":
        executable = _seatbelt()
        scratch = Path(tempfile.mkdtemp(prefix="wave-lsp-sandbox-")).resolve()
        (scratch / "home").mkdir()
        (scratch / "tmp").mkdir()
        environment = sandbox_environment(View(view.cwd, view.read_only, scratch / "home",
                                               view.environment), visible_path(view))
        environment["TMPDIR"] = str(scratch / "tmp")
        profile = seatbelt_profile(view, scratch)
        return Contained([executable, "-p", profile, "/bin/bash", "-c", command], environment,
                         "sandbox-exec", scratch)
    ensure_available()  # raises: no sandbox on this system
    raise AssertionError("unreachable")


def _unsafe_view(view: View) -> str | None:
    """A view that would show the whole machine or the user's whole HOME is refused."""
    home = view.home.resolve()
    for path in (view.cwd, *view.read_only):
        resolved = path.resolve()
        if resolved == Path(resolved.anchor) or (resolved != home and resolved in home.parents):
            return (f"Commands are not run: their working folder would be `{resolved}`, which "
                    "contains your home folder; open the skill's project instead")
    return None


# -- Linux: bubblewrap ------------------------------------------------------------------------------
@functools.cache
def _bubblewrap() -> str:
    """The `bwrap` executable, once it has been seen to start a sandbox here."""
    found = shutil.which("bwrap")
    if found is None:
        raise SandboxUnavailable("Commands are not run: wave-lsp runs them only inside a sandbox, "
                                 f"and bubblewrap (`bwrap`) is not installed: {INSTALL_HINT['linux']}")
    probe = View(Path("/"))
    try:
        done = subprocess.run([found, *_bubblewrap_base(probe.home), "--", "/bin/sh", "-c", "true"],
                              capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SandboxUnavailable(f"Commands are not run: bubblewrap could not start a sandbox "
                                 f"({error})") from error
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise SandboxUnavailable(
            "Commands are not run: bubblewrap is installed but cannot start a sandbox here"
            f" ({detail[-1] if detail else f'exit code {done.returncode}'}); unprivileged user "
            "namespaces may be disabled (`sysctl kernel.unprivileged_userns_clone=1`, or on Ubuntu "
            "an AppArmor profile for bwrap)")
    return found


def _bubblewrap_base(home: Path) -> list[str]:
    """The namespaces, the system and the empty writable folders."""
    return list(_bubblewrap_base_cached(home))


@functools.lru_cache(maxsize=8)
def _bubblewrap_base_cached(home: Path) -> tuple[str, ...]:
    arguments = ["--unshare-all", "--die-with-parent",
                 "--new-session", "--cap-drop", "ALL", "--hostname", "sandbox",
                 "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for folder in SYSTEM_FOLDERS:
        path = Path(folder)
        if path.is_symlink():
            arguments += ["--symlink", os.readlink(path), folder]
        elif path.is_dir():
            arguments += ["--ro-bind", folder, folder]
    for name in ETC_ALLOWED:
        path = Path("/etc") / name
        if path.exists():
            arguments += ["--ro-bind", str(path), str(path)]
    arguments += ["--tmpfs", str(home)] if home.is_absolute() and home != Path("/") else []
    return tuple(arguments)


def bubblewrap_arguments(view: View, environment: dict[str, str],
                         shown: list[Path] | None = None) -> list[str]:
    """Every bwrap argument before the command: the base, the visible folders (each read-only,
    credentials masked), the working folder and the environment."""
    arguments = _bubblewrap_base(view.home)
    for path in visible_folders(view) if shown is None else shown:
        arguments += ["--ro-bind", str(path), str(path)]
        arguments += _masks(path) if _masked(path, view) else []
    arguments += ["--chdir", str(view.cwd), "--clearenv"]
    for name, value in environment.items():
        arguments += ["--setenv", name, value]
    return [*arguments, "--"]


def _masked(folder: Path, view: View) -> bool:
    """Credentials are masked in the folders a program's installation brings and in the HOME
    folder itself; a project's own files stay as they are."""
    own = {path.resolve() for path in (view.cwd, *view.read_only)}
    return folder not in own or folder == view.home.resolve()


def _masks(folder: Path) -> list[str]:
    """Credential files and folders inside a visible folder, hidden behind empty ones."""
    arguments = []
    for name in CREDENTIALS:
        path = folder / name
        if path.is_symlink() or not path.exists():
            continue
        arguments += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null",
                                                                     str(path)]
    return arguments


# -- what is visible ------------------------------------------------------------------------------
def _inside(path: Path | str, folder: Path | str) -> bool:
    """`path` is `folder` or below it (as written: both already resolved)."""
    return is_within(str(path), str(folder))


def _system(path: Path) -> bool:
    return any(_inside(path, folder) for folder in SYSTEM_FOLDERS)


def visible_folders(view: View) -> list[Path]:
    """The folders bound read-only, outermost first, none inside another or the system."""
    wanted = [view.cwd, *view.read_only,
              *_path_installations(os.environ.get("PATH", ""), Path.home())]
    chosen: list[Path] = []
    for path in sorted({p.resolve() for p in wanted if p.exists()}, key=lambda p: len(p.parts)):
        if _system(path) or any(_inside(path, kept) for kept in chosen):
            continue
        if path == Path(path.anchor):
            continue
        chosen.append(path)
    return chosen


def _path_folders(search_path: str | None = None) -> list[Path]:
    search_path = os.environ.get("PATH", "") if search_path is None else search_path
    return [Path(entry) for entry in search_path.split(os.pathsep)
            if entry and Path(entry).is_absolute() and Path(entry).is_dir()]


#: entries of one PATH folder looked at for links into an installation elsewhere
MAX_LINKS_READ = 512


@functools.lru_cache(maxsize=8)
def _path_installations(search_path: str, home_folder: Path) -> tuple[Path, ...]:
    """The PATH folders outside the system, and the installations their programs belong to:
    `<prefix>/bin` brings `<prefix>` (a virtual environment's interpreter, an nvm Node), a
    version manager's `shims` brings its root; never the HOME folder itself. (Computed once per
    PATH: a program installed later in a new folder is seen after a restart.)"""
    return tuple(_installations(search_path, home_folder.resolve()))


def _installations(search_path: str, home: Path) -> Iterator[Path]:
    for folder in _path_folders(search_path):
        resolved = folder.resolve()
        if _system(resolved):
            continue
        yield resolved
        yield from _installation(resolved, home)
        for index, entry in enumerate(_entries(resolved)):
            if index >= MAX_LINKS_READ:
                break
            if entry.is_symlink():
                with contextlib.suppress(OSError):
                    target = entry.resolve()
                    if not _system(target):
                        yield from _installation(target.parent, home)


def _entries(folder: Path) -> Iterable[Path]:
    try:
        yield from folder.iterdir()
    except OSError:
        return


def _installation(folder: Path, home: Path) -> Iterator[Path]:
    prefix = folder.parent
    if folder.name not in ("bin", "shims") or prefix in (home, Path(prefix.anchor)):
        return
    if home in prefix.parents and prefix.name in (".local",):
        yield prefix / "lib"  # ~/.local/lib: user site-packages, not the rest of ~/.local
        return
    yield prefix


def visible_path(view: View, shown: list[Path] | None = None) -> str:
    """The PATH a command gets: the caller's folders that the sandbox shows."""
    shown = visible_folders(view) if shown is None else shown
    kept = []
    for folder in _path_folders():
        resolved = folder.resolve()
        if _system(resolved) or any(_inside(resolved, path) for path in shown):
            kept.append(str(folder))
    return os.pathsep.join(dict.fromkeys(kept)) or "/usr/bin:/bin"


def sandbox_environment(view: View, path: str) -> dict[str, str]:
    """The variables a command sees: PATH, HOME, TMPDIR, a dumb terminal, the locale and the
    view's own; nothing else of the caller's (tokens and proxies stay outside)."""
    environment = {"PATH": path, "HOME": str(view.home), "TMPDIR": "/tmp", "TERM": "dumb",
                   "SHELL": "/bin/bash"}
    for name in KEPT_VARIABLES:
        if name in os.environ:
            environment[name] = os.environ[name]
    for name, value in os.environ.items():
        if name.startswith("LC_"):
            environment[name] = value
    environment.update(view.environment)
    return environment


# -- macOS: sandbox-exec ----------------------------------------------------------------------------
@functools.cache
def _seatbelt() -> str:
    executable = "/usr/bin/sandbox-exec"
    if not Path(executable).exists():
        raise SandboxUnavailable(f"Commands are not run: {INSTALL_HINT['darwin']}")
    return executable


def _quoted(path: Path | str) -> str:
    return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'


def seatbelt_profile(view: View, scratch: Path) -> str:
    """The sandbox-exec profile: deny by default; read the system, the visible folders and the
    scratch folder; write only the scratch folder (HOME and TMPDIR live there); no network."""
    visible = visible_folders(view)
    readable = ["/usr", "/bin", "/sbin", "/System", "/Library/Apple", "/opt/homebrew",
                "/private/etc", "/private/var/db/timezone", "/dev", *(str(p) for p in visible)]
    masked = [folder / name for folder in visible for name in CREDENTIALS]
    lines = ["(version 1)", "(deny default)",
             "(allow process-fork)", "(allow process-exec)", "(allow signal (target same-sandbox))",
             "(allow sysctl-read)", "(allow mach-lookup (global-name \"com.apple.system.logger\"))",
             "(allow file-read-metadata)",
             "(allow file-read* (literal \"/\") "
             + " ".join(f"(subpath {_quoted(p)})" for p in readable) + ")",
             f"(allow file-read* file-write* (subpath {_quoted(scratch)}))",
             "(allow file-write* (literal \"/dev/null\") (literal \"/dev/stdout\") "
             "(literal \"/dev/stderr\"))",
             "(deny network*)"]
    if masked:
        lines.append("(deny file-read* " + " ".join(f"(subpath {_quoted(p)})" for p in masked)
                     + ")")
    return "\n".join(lines) + "\n"

