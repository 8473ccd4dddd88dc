"""Glob expansion on disk with a budget (issue 35 item 3, *Bounded everywhere*).

wave-lsp expands a command's globs to judge the files they match (`readonly.glob_problem`,
`guard._stays_inside`). `glob.glob` has no limit: under a link to `.` (or any link loop), a
pattern like `*/*/*/*/*/*/*/*/*/*/x` reads the same folder again at every level, and the number of
paths it visits is the number of entries to the power of the depth. `bounded_glob` expands exactly
as `glob.glob(pattern, root_dir=…)` does (Python 3.11: no `**` recursion, hidden names only for a
segment that starts with a dot, a trailing `/` only folders), but stops after a number of steps
(directory entries read plus paths tested) or matches, and says so: a caller that must judge every
match treats an incomplete expansion as one it cannot check. Names are compared with `fnmatch`,
whose Python 3.11 translation uses atomic groups and so does not backtrack.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

#: directory entries read plus paths tested before an expansion gives up
MAX_GLOB_STEPS = 5_000
#: matches collected before an expansion gives up
MAX_GLOB_MATCHES = 1_000
_MAGIC = re.compile(r"[*?\[]")


@dataclass(frozen=True, slots=True)
class GlobResult:
    """The paths a glob matches (as `glob.glob` spells them), and whether that is all of them."""

    matches: list[str]
    complete: bool


class _Exhausted(Exception):
    """The expansion used up its budget."""


class _Budget:
    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _Exhausted


def bounded_glob(pattern: str, root_dir: str | os.PathLike[str] | None = None,
                 max_steps: int = MAX_GLOB_STEPS, max_matches: int = MAX_GLOB_MATCHES
                 ) -> GlobResult:
    """`glob.glob(pattern, root_dir=root_dir)`, or what it found before the budget ran out."""
    root = os.fspath(root_dir) if root_dir is not None else ""
    budget = _Budget(max_steps)
    found: list[str] = []
    try:
        for match in _expand(pattern, root, False, budget):
            found.append(match)
            if len(found) > max_matches:
                return GlobResult(found[:max_matches], complete=False)
    except _Exhausted:
        return GlobResult(found, complete=False)
    return GlobResult(found, complete=True)


def has_magic(text: str) -> bool:
    return _MAGIC.search(text) is not None


def _expand(pattern: str, root: str, dironly: bool, budget: _Budget) -> Iterator[str]:
    """`glob._iglob` with `recursive=False`, `include_hidden=False`, and a budget."""
    dirname, basename = os.path.split(pattern)
    if not has_magic(pattern):
        budget.spend()
        if basename:
            if os.path.lexists(_join(root, pattern)):
                yield pattern
        elif os.path.isdir(_join(root, dirname)):
            yield pattern
        return
    if not dirname:
        yield from _matching_names(root, basename, dironly, budget)
        return
    magic_folder = dirname != pattern and has_magic(dirname)
    folders = _expand(dirname, root, True, budget) if magic_folder else iter([dirname])
    for folder in folders:
        if has_magic(basename):
            names = _matching_names(_join(root, folder), basename, dironly, budget)
        else:
            names = iter(_literal_name(_join(root, folder), basename, budget))
        for name in names:
            yield os.path.join(folder, name)


def _matching_names(folder: str, pattern: str, dironly: bool, budget: _Budget) -> Iterator[str]:
    """`glob._glob1`: the names in `folder` that match `pattern` (hidden names only for a pattern
    that starts with a dot)."""
    names = _list(folder, dironly, budget)
    if not pattern.startswith("."):
        names = [name for name in names if not name.startswith(".")]
    return iter(fnmatch.filter(names, pattern))


def _literal_name(folder: str, name: str, budget: _Budget) -> list[str]:
    """`glob._glob0`: `name` when it exists in `folder` (a trailing `/`: when `folder` is one)."""
    budget.spend()
    if name:
        return [name] if os.path.lexists(_join(folder, name)) else []
    return [name] if os.path.isdir(folder) else []


def _list(folder: str, dironly: bool, budget: _Budget) -> list[str]:
    """`glob._listdir`: the entries of `folder` (only folders, links to folders included, with
    `dironly`); an unreadable folder has none."""
    names: list[str] = []
    try:
        with os.scandir(folder or os.curdir) as entries:
            for entry in entries:
                budget.spend()
                try:
                    if not dironly or entry.is_dir():
                        names.append(entry.name)
                except OSError:
                    pass
    except OSError:
        return []
    return names


def _join(folder: str, name: str) -> str:
    """`glob._join`: `os.path.join` that leaves either side alone when the other is empty."""
    if not folder or not name:
        return folder or name
    return os.path.join(folder, name)
