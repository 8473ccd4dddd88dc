"""What lies around a skill folder in its project, for the file-reference rules (docs/design/rules.md
*Body*, file references; issue 37): the other skill folders of the project, the git submodules
the repository declares, and whether the skill's collection is used where it lies.

- **Skill folders**: the project is walked breadth first from its outermost root (at most
  `MAX_SEARCHED_FOLDERS` folders, from the disk view's listings, never into `.git`,
  `node_modules`, virtual environments), without entering a skill folder (one holding a
  SKILL.md): `references/x.md` there is that skill's file.
- **Submodules**: the paths `.gitmodules` declares at the repository root. A checkout without
  `--recurse-submodules` has them empty (or missing): a path below one is not known to be wrong.
- **Used in place**: a collection of skills that no runtime's skills root holds (`.ai/skills`) is
  still loaded as a whole, where it lies, when a runtime's project skills root reaches the skill
  through a symbolic link (`.cursor/skills -> ../.ai/skills`, `runtime_view.roots`: the same roots
  discovery scans), or when the project's instructions to agents (`AGENTS.md`, `CLAUDE.md`,
  `GEMINI.md` at its root) name the skill's folder, or its collection's folder in a reading
  instruction ("Read … the relevant skill file(s) under `.ai/skills/`"): the model then opens the
  file where it lies, and a sibling it links is there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from wave_lsp.core.runtime.profiles import PROFILES
from wave_lsp.core.workspace.disk_view import DiskView

SKILL_FILE = "SKILL.md"
#: folders never searched (what no skill means by a relative path)
NOT_SEARCHED = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox"})
MAX_SEARCHED_FOLDERS = 5000
#: the project's instructions to agents, at its root
INSTRUCTION_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
MAX_INSTRUCTION_BYTES = 256 * 1024


def project_folders(disk: DiskView, root: Path | str) -> Iterator[tuple[str, dict[str, str]]]:
    """Every folder below `root` (itself first) with its entries, breadth first, at most
    `MAX_SEARCHED_FOLDERS`; a skill folder other than `root` is given but not entered."""
    pending = [str(root)]
    seen = 0
    while pending and seen < MAX_SEARCHED_FOLDERS:
        folder = pending.pop(0)
        seen += 1
        entries = disk.entries(folder)
        yield folder, entries
        if SKILL_FILE in entries and folder != str(root):
            continue
        pending.extend(os.path.join(folder, name) for name, kind in sorted(entries.items())
                       if kind == "dir" and name not in NOT_SEARCHED)


def skill_folders(disk: DiskView, root: Path | str) -> list[str]:
    """The skill folders of the project below `root` (not `root` itself)."""
    return [folder for folder, entries in project_folders(disk, root)
            if SKILL_FILE in entries and folder != str(root)]


def submodules(disk: DiskView, git_root: Path | None) -> tuple[str, ...]:
    """The absolute paths of the submodules the repository's `.gitmodules` declares."""
    if git_root is None:
        return ()
    data = disk.read(git_root / ".gitmodules")
    if isinstance(data, OSError):
        return ()
    text = data.decode("utf-8", errors="replace")
    return tuple(os.path.normpath(os.path.join(git_root, match.group(1).strip().strip('"')))
                 for match in _SUBMODULE_PATH.finditer(text))


_SUBMODULE_PATH = re.compile(r"^\s*path\s*=\s*(.+?)\s*$", re.M)


def in_absent_submodule(disk: DiskView, paths: list[str], modules: tuple[str, ...]) -> str | None:
    """The submodule (absolute) one of `paths` lies in, when that submodule is not checked out
    here (its folder is missing or empty); None otherwise."""
    for module in modules:
        inside = module.rstrip(os.sep) + os.sep
        if any(path == module or path.startswith(inside) for path in paths) \
                and not disk.entries(module):
            return module
    return None


def load_locations(disk: DiskView, skill_dir: Path, real_dir: str, project: Path | None,
                   home: Path | None, personal: bool) -> list[Path]:
    """Where runtimes load this skill from other than where it lies: the skill's folder as a
    runtime's project skills root reaches it through a symbolic link (the root itself, or its
    entry of that name, leading to this folder)."""
    if project is None:
        return []
    from wave_lsp.core.workspace.runtime_view import roots  # not for a skill with no `..` link

    found: list[Path] = []
    seen: set[str] = set()
    for profile in PROFILES.values():
        if profile.kind != "runtime":
            continue
        for root in roots(profile, project, home, personal):
            place = root.path / skill_dir.name
            key = str(place)
            if root.scope != "project" or key in seen or place == skill_dir:
                continue
            seen.add(key)
            if disk.exists(place) and disk.realpath(place) == real_dir:
                found.append(place)
    return found


def named_by_instructions(disk: DiskView, skill_dir: Path, project: Path | None) -> bool:
    """Whether the project's instructions to agents name this skill's folder (or its SKILL.md),
    or its collection's folder in a reading instruction."""
    if project is None or project not in skill_dir.parents:
        return False
    skill = skill_dir.relative_to(project).as_posix()
    collection = skill_dir.parent.relative_to(project).as_posix()
    for name in INSTRUCTION_FILES:
        data = disk.read(project / name)
        if isinstance(data, OSError):
            continue
        text = data[:MAX_INSTRUCTION_BYTES].decode("utf-8", errors="replace")
        if _mentions(text, skill):
            return True
        if collection != "." and any(_tells_to_read(text, offset)
                                     for offset in _mention_offsets(text, collection)):
            return True
    return False


def _mention_offsets(text: str, path: str) -> list[int]:
    """Where `path` is written as a folder (`./` before it allowed; not part of a longer name)."""
    pattern = r"(?<![\w.-])(?:\./)?" + re.escape(path) + r"(?![\w-])(?!/[<{*])"
    return [match.start() for match in re.finditer(pattern, text)]


def _mentions(text: str, path: str) -> bool:
    return bool(_mention_offsets(text, path))


#: a reading instruction: what makes a mention of a folder of skills a place to read them from
_READ = re.compile(r"\b(?:read|load|use|follow|consult|open|see|check)\b", re.I)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
MAX_LEAD_LINES = 12


def _tells_to_read(text: str, offset: int) -> bool:
    """The line of `offset`, or the line that introduces its list, tells the reader to read."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    line = text[start:end if end >= 0 else len(text)]
    if _READ.search(line):
        return True
    if not _LIST_ITEM.match(line):
        return False
    for _ in range(MAX_LEAD_LINES):
        if start == 0:
            return False
        start = text.rfind("\n", 0, start - 1) + 1
        line = text[start:text.find("\n", start)]
        if line.strip() and not _LIST_ITEM.match(line):
            return bool(_READ.search(line))
    return False
