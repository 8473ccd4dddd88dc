"""Finding the SKILL.md files under the paths given to `wave-lsp check`.

docs/design/product.md *Command line*: every `SKILL.md` under the paths, skipping `.git`, `node_modules` and
gitignored paths (each `.gitignore` applies to its own folder and below, as git reads it). Files
spelled differently (`skill.md`, SK001) and stray markdown files directly in a skills root (SK002)
are included so those rules can speak. A path named explicitly is always checked. Symlinked
folders are followed once (by real path), so a symlink loop ends.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp.core.runtime.profiles import ALL_SKILLS_ROOTS
from wave_lsp.core.workspace.location import PLUGIN_MANIFESTS, SKILL_FILE, find_git_root

if TYPE_CHECKING:
    import pathspec

SKIPPED_DIRS = {".git", "node_modules", ".hg", ".svn"}


class _IgnoreStack:
    """The `.gitignore` files met on the way down, each with the folder it applies to."""

    def __init__(self) -> None:
        self._specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []

    def push(self, folder: Path) -> bool:
        ignore = folder / ".gitignore"
        try:
            lines = ignore.read_text("utf-8", errors="replace").splitlines()
        except OSError:
            return False
        import pathspec  # only where a `.gitignore` exists

        self._specs.append((folder, pathspec.GitIgnoreSpec.from_lines(lines)))
        return True

    def pop(self) -> None:
        self._specs.pop()

    def ignored(self, path: Path, is_dir: bool) -> bool:
        for folder, spec in self._specs:
            try:
                relative = path.relative_to(folder).as_posix()
            except ValueError:
                continue
            if spec.match_file(relative + ("/" if is_dir else "")):
                return True
        return False


def _is_skills_root(folder: Path) -> bool:
    return f"{folder.parent.name}/{folder.name}" in ALL_SKILLS_ROOTS or (
        folder.name == "skills" and any((folder.parent / m).is_file() for m in PLUGIN_MANIFESTS))


def find_skill_files(paths: list[Path]) -> Iterator[Path]:
    """Every skill file under `paths`, in a stable order, each once."""
    seen: set[str] = set()
    for root in paths:
        if not root.is_dir() or root.name.lower() == SKILL_FILE.lower():
            key = os.path.realpath(root)
            if key not in seen:
                seen.add(key)
                yield root
            continue
        yield from _walk(root, seen)


def _walk(root: Path, seen: set[str]) -> Iterator[Path]:
    root = Path(os.path.abspath(root))
    ignores = _IgnoreStack()
    git_root = find_git_root(root)
    if git_root is not None and git_root != root:
        for ancestor in reversed(root.parents):
            if ancestor == git_root or git_root in ancestor.parents:
                ignores.push(ancestor)
    visited: set[str] = set()
    yield from _walk_folder(root, os.path.realpath(root), ignores, visited, seen)


def _walk_folder(folder: Path, real: str, ignores: _IgnoreStack, visited: set[str],
                 seen: set[str]) -> Iterator[Path]:
    """Walk `folder`, whose resolved path is `real`. A child that is not a symbolic link
    resolves to `real/<name>`, so `realpath` (an `lstat` per path component) is asked only for
    links: a loop of links is still walked once, and a file reached twice still yields once."""
    if real in visited:
        return
    visited.add(real)
    pushed = ignores.push(folder)
    try:
        try:
            children = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        in_skills_root = _is_skills_root(folder)
        subfolders = []
        for child in children:
            path = Path(child.path)
            try:
                is_dir = child.is_dir()
                linked = child.is_symlink()
            except OSError:
                continue
            if is_dir and child.name in SKIPPED_DIRS:
                continue
            if ignores.ignored(path, is_dir):
                continue
            child_real = os.path.realpath(path) if linked else os.path.join(real, child.name)
            if child.name.lower() == SKILL_FILE.lower() or (
                    in_skills_root and not is_dir and child.name.lower().endswith(".md")):
                if child_real not in seen:
                    seen.add(child_real)
                    yield path
            elif is_dir:
                subfolders.append((path, child_real))
        for sub, sub_real in subfolders:
            yield from _walk_folder(sub, sub_real, ignores, visited, seen)
    finally:
        if pushed:
            ignores.pop()


def is_skill_file(path: Path) -> bool:
    """Whether `check` would look at this file: any-case `SKILL.md`, or a `*.md` file directly in
    a skills root (a stray skill, SK002). The language server uses the same test for open files."""
    name = path.name.lower()
    if name == SKILL_FILE.lower():
        return True
    return name.endswith(".md") and _is_skills_root(path.parent)
