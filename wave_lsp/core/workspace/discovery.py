"""Finding the SKILL.md files under the paths given to `wave-lsp check`.

docs/design/product.md *Command line*: every `SKILL.md` under the paths, skipping `.git`, `node_modules` and
gitignored paths (each `.gitignore` applies to its own folder and below, as git reads it) — but
not a file git tracks there (read from the repository's index: git never ignores a tracked file). Files
spelled differently (`skill.md`, SK001) and stray markdown files directly in a skills root (SK002;
not the index files beside the skill folders, `skills/README.md`, `skills/AGENTS.md`)
are included so those rules can speak. A path named explicitly is always checked. Symlinked
folders are followed once (by real path), so a symlink loop ends. The same walk can also find the
files that mention skills (`CLAUDE.md`, `AGENTS.md`, agent and command files: `file_kind`), which
`check` reports SK152 in (`wave_lsp.core.features.skill_references`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp.core.facts.profiles import ALL_SKILLS_ROOTS
from wave_lsp.core.workspace.folder_facts import FolderFacts
from wave_lsp.core.workspace.location import PLUGIN_MANIFESTS, SKILL_FILE, find_git_root

if TYPE_CHECKING:
    from wave_lsp.core.workspace.gitignore import GitIgnore

SKIPPED_DIRS = {".git", "node_modules", ".hg", ".svn"}


class _IgnoreStack:
    """The `.gitignore` files met on the way down, each with the folder it applies to."""

    def __init__(self) -> None:
        self._specs: list[tuple[str, GitIgnore]] = []

    def __len__(self) -> int:
        return len(self._specs)

    def push(self, folder: str) -> bool:
        try:
            with open(os.path.join(folder, ".gitignore"), encoding="utf-8",
                      errors="replace") as handle:
                lines = handle.read().splitlines()
        except OSError:
            return False
        from wave_lsp.core.workspace.gitignore import GitIgnore  # only where a `.gitignore` exists

        self._specs.append((folder, GitIgnore.from_lines(lines)))
        return True

    def truncate(self, size: int) -> None:
        """Forget the files pushed after the stack held `size` (the walk left their folders)."""
        del self._specs[size:]

    def ignored(self, path: str, is_dir: bool) -> bool:
        for folder, spec in self._specs:
            prefix = folder if folder.endswith(os.sep) else folder + os.sep
            if not path.startswith(prefix):
                continue
            relative = path[len(prefix):].replace(os.sep, "/")
            if spec.match_file(relative + ("/" if is_dir else "")):
                return True
        return False


#: the last part of every skills root's name (a plugin's is `skills`)
_ROOT_NAMES = frozenset({"skills", *(root.rsplit("/", 1)[-1] for root in ALL_SKILLS_ROOTS)})


def _is_skills_root(folder: str) -> bool:
    name = os.path.basename(folder)
    if name not in _ROOT_NAMES:
        return False
    parent = os.path.dirname(folder)
    return f"{os.path.basename(parent)}/{name}" in ALL_SKILLS_ROOTS or (
        name == "skills" and any((Path(parent) / m).is_file() for m in PLUGIN_MANIFESTS))


def _may_be_named(names: list[str], wanted: str) -> bool:
    """Whether a listing holds `wanted` (a name starting with a dot), or a name the file system
    may take for it (another case; a non-ASCII name starting with a dot)."""
    return any(name[:1] == "." and (not name.isascii() or name.lower() == wanted)
               for name in names)


#: a test a markdown file's path must pass to be found besides the skill files (`check` finds the
#: files that mention skills in the same walk: `is_diagnosed`)
AlsoFind = Callable[[str], bool]


def find_skill_files(paths: list[Path], facts: FolderFacts | None = None,
                     also: AlsoFind | None = None) -> Iterator[Path]:
    """Every skill file under `paths`, in a stable order, each once; with `also`, every other
    `*.md` file whose path passes it too, in the same walk (the same folders skipped and
    ignored). `facts` (optional) learns which folders the walk found without a plugin manifest or
    `.git` (see `folder_facts`)."""
    seen: set[str] = set()
    for root in paths:
        if not root.is_dir() or root.name.lower() == SKILL_FILE.lower():
            key = os.path.realpath(root)
            if key not in seen:
                seen.add(key)
                yield root
            continue
        yield from _walk(root, seen, facts, also)


class _Tracked:
    """The files git tracks in one repository (read from its index) and the folders holding them:
    git never ignores a tracked file, so a gitignored path that holds one is still walked."""

    def __init__(self, git_root: Path | None) -> None:
        self.files: frozenset[str] = frozenset()
        self.folders: frozenset[str] = frozenset()
        if git_root is None:
            return
        names = read_git_index(git_root)
        if not names:
            return
        base = str(git_root)
        files = {os.path.join(base, *name.split("/")) for name in names}
        folders = set()
        for name in names:
            parts = name.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                folders.add(os.path.join(base, *parts[:depth]))
        self.files, self.folders = frozenset(files), frozenset(folders)

    def holds(self, path: str, is_dir: bool) -> bool:
        return path in (self.folders if is_dir else self.files)


def read_git_index(git_root: Path) -> list[str]:
    """The paths (relative, `/`-separated) of git's index at `git_root` (`.git/index`, or the
    index of the `gitdir:` a `.git` file names), versions 2 to 4; [] when there is none or it
    cannot be read."""
    git = git_root / ".git"
    try:
        if git.is_file():
            text = git.read_text("utf-8", errors="replace").strip()
            git = (git_root / text.removeprefix("gitdir:").strip()).resolve()
        data = (git / "index").read_bytes()
    except OSError:
        return []
    if data[:4] != b"DIRC" or len(data) < 12:
        return []
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    names: list[str] = []
    offset, previous = 12, b""
    try:
        for _ in range(count):
            start = offset
            flags = int.from_bytes(data[offset + 60:offset + 62], "big")
            offset += 62
            if version >= 3 and flags & 0x4000:
                offset += 2
            if version >= 4:
                strip, offset = _varint(data, offset)
                end = data.index(b"\0", offset)
                name = previous[:len(previous) - strip] + data[offset:end]
                offset = end + 1
            else:
                end = data.index(b"\0", offset)
                name = data[offset:end]
                offset = start + ((end - start) // 8 + 1) * 8  # NUL padding to 8 bytes
            previous = name
            names.append(name.decode("utf-8", errors="surrogateescape"))
    except (ValueError, IndexError):
        return names
    return names


def _varint(data: bytes, offset: int) -> tuple[int, int]:
    """git's offset encoding (index v4): the value and the offset after it."""
    byte = data[offset]
    value = byte & 0x7F
    offset += 1
    while byte & 0x80:
        byte = data[offset]
        value = ((value + 1) << 7) | (byte & 0x7F)
        offset += 1
    return value, offset


def _walk(root: Path, seen: set[str], facts: FolderFacts | None,
          also: AlsoFind | None = None) -> Iterator[Path]:
    """Depth first, each folder's files (in name order) before its sub-folders (in name order).
    Paths are strings until a file is yielded. A child that is not a symbolic link resolves to
    `<its folder's real path>/<name>`, so `realpath` (an `lstat` per path component) is asked only
    for links: a loop of links is still walked once, and a file reached twice still yields once."""
    root = Path(os.path.abspath(root))
    ignores = _IgnoreStack()
    git_root = find_git_root(root)
    tracked: _Tracked | None = None  # read when a path is first found ignored
    if git_root is not None and git_root != root:
        for ancestor in reversed(root.parents):
            if ancestor == git_root or git_root in ancestor.parents:
                ignores.push(str(ancestor))
    visited: set[str] = set()
    #: folders still to walk: (path, real path, how many ignore files apply above it)
    pending = [(str(root), os.path.realpath(root), len(ignores))]
    while pending:
        folder, real, applying = pending.pop()
        if real in visited:
            continue
        visited.add(real)
        ignores.truncate(applying)
        try:
            children = sorted(os.scandir(folder), key=_name)
        except OSError:
            continue
        names = [child.name for child in children]
        if _may_be_named(names, ".gitignore"):
            ignores.push(folder)
        if tracked is None and len(ignores) > 0:
            tracked = _Tracked(git_root)
        kept = list(_children(folder, real, children, ignores, tracked, also))
        if facts is not None and kept:  # before the skills are yielded (and located)
            facts.listed(folder, names)
        for child, is_skill, child_real in kept:
            if is_skill and child_real not in seen:
                seen.add(child_real)
                yield Path(child)
        pending += [(child, child_real, len(ignores))
                    for child, is_skill, child_real in reversed(kept) if not is_skill]


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _children(folder: str, real: str, children: list[os.DirEntry[str]],
              ignores: _IgnoreStack, tracked: _Tracked | None = None,
              also: AlsoFind | None = None) -> Iterator[tuple[str, bool, str]]:
    """(path, is a file to yield, real path) of the skill files (and the files `also` passes)
    and sub-folders to walk among a folder's `children`."""
    in_skills_root = _is_skills_root(folder)
    checks_ignores = len(ignores) > 0
    for child in children:
        try:
            is_dir = child.is_dir()
            linked = child.is_symlink()
        except OSError:
            continue
        name = child.name
        if is_dir and name in SKIPPED_DIRS:
            continue
        lowered = name.lower()
        is_skill = lowered == _SKILL_FILE_LOWER or (
            in_skills_root and not is_dir and lowered.endswith(".md")
            and lowered not in INDEX_FILES)
        if not is_skill and not is_dir:
            if also is None or not lowered.endswith(".md") or not also(child.path):
                continue  # before the ignore files: most files are neither
            is_skill = True
        path = child.path
        if checks_ignores and ignores.ignored(path, is_dir) and not (
                tracked is not None and tracked.holds(path, is_dir)):
            continue  # git never ignores a file it tracks (nor the folders holding one)
        yield path, is_skill, (os.path.realpath(path) if linked else os.path.join(real, name))


_SKILL_FILE_LOWER = SKILL_FILE.lower()
#: files beside the skill folders of a skills root that index or describe them (`skills/README.md`,
#: `skills/AGENTS.md`): no runtime loads them (Claude Code loads only `<root>/<dir>/SKILL.md`) and
#: no author means them as a skill, so they are not stray skills (issue 27)
INDEX_FILES = frozenset({"readme.md", "agents.md", "claude.md", "gemini.md", "index.md",
                         "changelog.md", "contributing.md", "license.md", "catalog.md"})


def is_skill_file(path: Path) -> bool:
    """Whether `check` would look at this file: any-case `SKILL.md`, or a `*.md` file directly in
    a skills root (a stray skill, SK002). The language server uses the same test for open files."""
    name = path.name.lower()
    if name == SKILL_FILE.lower():
        return True
    return name.endswith(".md") and name not in INDEX_FILES and _is_skills_root(str(path.parent))


# -- the files that mention skills (`wave_lsp.core.features.skill_references`) -------------------
#: file names (any case) of the memory files that mention skills
MEMORY_FILES = frozenset({"claude.md", "claude.local.md", "agents.md"})
MANIFESTS = frozenset({"plugin.json", "marketplace.json"})


def file_kind(path: Path) -> str | None:
    """"memory", "agent", "command", "manifest" or "skill" for a file that may mention skills,
    None for any other file."""
    name = path.name.lower()
    parts = [part.lower() for part in path.parts[:-1]]
    if name == "skill.md":
        return "skill"
    if name in MEMORY_FILES:
        return "memory"
    if name in MANIFESTS and parts and parts[-1] == ".claude-plugin":
        return "manifest"
    if name.endswith(".md") and ".claude" in parts:
        below = parts[len(parts) - 1 - parts[::-1].index(".claude") + 1:]
        if below[:1] == ["agents"]:
            return "agent"
        if below[:1] == ["commands"]:
            return "command"
    return None


def is_diagnosed(path: Path) -> bool:
    """Whether SK152 is reported in this file (a memory, agent or command file)."""
    return file_kind(path) in ("memory", "agent", "command")


def is_mention_path(path: str) -> bool:
    """`is_diagnosed` for a path as the walk has it (a string), a `Path` built only for the few
    that may be one: a memory file's name, or a file below a `.claude` folder."""
    lowered = path.lower()
    if os.path.basename(lowered) in MEMORY_FILES:
        return True
    return f"{os.sep}.claude{os.sep}" in lowered and is_diagnosed(Path(path))
