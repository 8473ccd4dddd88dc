"""What the command line says when a path it is given holds no skill the way the user expected
(docs/design/product.md *Command line*): a markdown file named to `check` that is not a skill (a
README at the repository root must not be taken as a skill whose folder is the whole repository;
a `CLAUDE.md` is checked for SK152 only, and said so when its target does not check that), and a
folder given to `list` in which the target discovers no skill although it holds some.

The answers are read from the disk only as far as they need: the folders above a named file up to
the repository root, and at most `MAX_FOLDERS` folders below a listed one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp.core.facts.profiles import ALL_SKILLS_ROOTS, RuntimeProfile
from wave_lsp.core.workspace.discovery import SKIPPED_DIRS, is_skill_file
from wave_lsp.core.workspace.location import SKILL_FILE, find_git_root

if TYPE_CHECKING:
    from wave_lsp.core.checking.checker import FileReport
    from wave_lsp.core.checking.config import Settings

#: how many folders `list` looks through for skill files it did not discover
MAX_FOLDERS = 2000
#: how many of them it names
SHOWN = 3


def owning_skill(path: Path) -> Path | None:
    """The SKILL.md of the skill `path` (a file that is not a skill itself) belongs to: the
    nearest one in its folder or above, no higher than its repository's root. None when it
    belongs to no skill."""
    folder = path.resolve().parent
    top = find_git_root(folder)
    for candidate in [folder, *folder.parents]:
        for name in (SKILL_FILE, SKILL_FILE.lower()):
            if (candidate / name).is_file():
                return candidate / name
        if candidate == top:
            return None
    return None


def not_a_skill(path: Path, shown: str) -> tuple[Path | None, str]:
    """For a markdown file named to `check` that is not a skill file (`is_skill_file`): the skill
    to check in its place (the one it belongs to, or None) and the warning that says so."""
    what = (f"{shown} is not a skill: a skill is a folder's SKILL.md (or a stray *.md directly in "
            "a skills root such as .claude/skills/)")
    skill = owning_skill(path)
    if skill is None:
        return None, f"{what}, and no skill folder holds it; skipped"
    return skill, f"{what}; it is a file of the skill {_display(skill)}, which is checked instead"


def mention_reports(files: list[Path], settings: Settings, named: list[Path],
                    ) -> Iterator[FileReport]:
    """SK152 in the files that mention skills (`api.iter_mention_reports`), then a warning for
    each one named on the command line whose target does not report SK152 (not for one where
    the rule is ignored: that was asked for)."""
    from wave_lsp.api import iter_mention_reports
    from wave_lsp.core.checking.catalog import rule
    from wave_lsp.core.features.skill_references import mention_settings

    checked = set()
    for report in iter_mention_reports(files, settings):
        checked.add(report.path)
        yield report
    for path in (p for p in named if p in files and p not in checked):
        profile = mention_settings(path, settings).profile
        if rule("SK152").severity(profile) is None:
            print(f"wave-lsp: warning: {path} is not a skill, and the target {profile.name} "
                  "reports no unknown `/name` in it (SK152: wave-lsp has no list of its "
                  "built-in commands); skipped", file=sys.stderr)


def is_named_non_skill(path: Path) -> bool:
    """A markdown file named on the command line that `check` would not find in a tree."""
    return path.is_file() and path.suffix.lower() == ".md" and not is_skill_file(path)


def no_skills_hint(profile: RuntimeProfile, directory: Path, shown: str) -> str:
    """Why `list` found no skill in `directory` for `profile`, and what would list them."""
    roots = ", ".join(f"{root}/" for root in profile.skills_roots)
    above = " or above it, up to its repository's root" if profile.nested_project_roots else ""
    where = f"{profile.runtime} discovers a project's skills in {roots} of the folder it is given{above}"
    resolved = directory.resolve()
    for root in sorted(ALL_SKILLS_ROOTS, key=len, reverse=True):
        depth = len(root.split("/"))
        if resolved.parts[-depth:] != tuple(root.split("/")) or len(resolved.parts) <= depth:
            continue
        project = _display(resolved.parents[depth - 1])
        if root in profile.skills_roots:
            return (f"no skills: {where}, and {shown} is itself the skills root {root}/: list its "
                    f"project instead, `wave-lsp list {project}`")
        return (f"no skills: {where}, and {shown} is {root}/, which {profile.runtime} does not read "
                f"(`wave-lsp list {project} --targets all` shows which runtimes do)")
    found = list(_skill_files_below(directory))
    if not found:
        return f"no skills: {where}, and {shown} has no SKILL.md anywhere below it"
    more = " and more" if len(found) > SHOWN else ""
    named = ", ".join(_display(path) for path in found[:SHOWN])
    return (f"no skills: {where}, and {shown} has no such folder. It holds skill files elsewhere "
            f"({named}{more}): `wave-lsp check {shown}` checks them where they are; to list them "
            f"as {profile.runtime} loads them, put each skill folder in one of those roots (for "
            f"example {shown}/{profile.skills_roots[-1]}/NAME/SKILL.md)")


def _skill_files_below(directory: Path) -> Iterator[Path]:
    """The SKILL.md files below `directory`, breadth first, looking through at most
    `MAX_FOLDERS` folders and stopping after `SHOWN + 1`."""
    queue, seen, found = [str(directory)], 0, 0
    while queue and seen < MAX_FOLDERS and found <= SHOWN:
        folder = queue.pop(0)
        seen += 1
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir and entry.name not in SKIPPED_DIRS:
                queue.append(entry.path)
            elif not is_dir and entry.name.lower() == SKILL_FILE.lower():
                found += 1
                yield Path(entry.path)


def _display(path: Path) -> str:
    """`path` relative to the current folder when it is below it."""
    try:
        return path.resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()
