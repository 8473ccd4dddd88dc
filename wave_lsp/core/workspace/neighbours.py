"""What lies around a skill folder in its project, for the file-reference rules (docs/design/rules.md
*Body*, file references; issue 37): the other skill folders of the project, the git submodules
the repository declares, and whether the skill's collection is used where it lies.

- **Skill folders**: the project is walked breadth first from its outermost root (at most
  `MAX_SEARCHED_FOLDERS` folders, from the disk view's listings, never into `.git`,
  `node_modules`, virtual environments), without entering a skill folder (one holding a
  SKILL.md): `references/x.md` there is that skill's file.
- **Submodules**: the paths `.gitmodules` declares at the repository root. A checkout without
  `--recurse-submodules` has them empty (or missing): a path below one is not known to be wrong.
- **A plugin's own folder written twice** (`${CLAUDE_PLUGIN_ROOT}/plugins/<name>/…`): the
  path without it, when that exists in the plugin (issue 37).
- **Used in place**: a collection of skills that no runtime's skills root holds (`.ai/skills`) is
  still loaded as a whole, where it lies, when a runtime's project skills root reaches the skill
  through a symbolic link (`.cursor/skills -> ../.ai/skills`, `runtime_view.roots`: the same roots
  discovery scans), or when the project's instructions to agents (`AGENTS.md`, `CLAUDE.md`,
  `GEMINI.md` at its root) name the skill's folder, or its collection's folder in a reading
  instruction ("Read … the relevant skill file(s) under `.ai/skills/`"): the model then opens the
  file where it lies, and a sibling it links is there. Claude Code reads `AGENTS.md` too where the
  project has no `CLAUDE.md` (2.1.332's bundled code: "AGENTS.md as project instructions: by
  default loaded where the project has no CLAUDE.md"; issue 37). A list item's instruction is in
  the line that introduces the list (`file_references.list_lead_in`, the one reading of it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from wave_lsp.core.facts.profiles import PROFILES
from wave_lsp.core.parsing.file_references import list_lead_in
from wave_lsp.core.workspace.disk_view import DiskView
from wave_lsp.core.workspace.location import SkillLocation

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


def _tells_to_read(text: str, offset: int) -> bool:
    """The line of `offset`, or the line that introduces its list, tells the reader to read."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    if _READ.search(text[start:end if end >= 0 else len(text)]):
        return True
    lead = list_lead_in(text, offset)
    return lead is not None and bool(_READ.search(lead))


def undoubled_plugin_path(disk: DiskView, target: str, root: Path,
                          outer: Path | None) -> str | None:
    """`target` (a `${CLAUDE_PLUGIN_ROOT}/…` path) without the plugin root's own path from a
    folder above it (up to `outer`), when the rest exists in the plugin: `plugins/p/scripts/x.sh`
    -> `scripts/x.sh`."""
    for ancestor in root.parents:
        prefix = root.relative_to(ancestor).as_posix() + "/"
        rest = target.removeprefix("./")
        if rest.startswith(prefix) and disk.exists(str(root / rest[len(prefix):])):
            return rest[len(prefix):]
        if outer is None or ancestor == outer or outer not in ancestor.parents:
            break
    return None


#: files that make a folder a package of its own, installed as one (an extension, a plugin of
#: another runtime's format)
PACKAGE_FILES = ("package.json", "pyproject.toml", "opencode.json", "VERSION", "Cargo.toml",
                 ".codex-plugin/plugin.json", ".cursor-plugin/plugin.json")


def installed_whole(disk: DiskView, location: SkillLocation) -> bool | None:
    """Whether the repository shows the skill's whole collection installed together, so that a
    sibling it links comes along (sample 4): True when a README copies the collection's folder
    whole into a skills root (`cp -r …/skills/* .agents/skills/`, `applies.readme_install`) or
    the collection lies in a folder below the project root that is a package of its own
    (`arckit-opencode/` with its `opencode.json`, `package.json`, `VERSION`); False when a README
    copies this skill's folder alone; None when nothing says (sample 6)."""
    from wave_lsp.core.workspace.applies import readme_install

    skill_dir, project = location.skill_dir, location.project_root
    if skill_dir is None:
        return None
    found = readme_install(disk.read, skill_dir, project)
    if found is not None and found[2]:
        return True
    package = skill_dir.parent.parent
    if project is not None and project in package.parents and any(
            disk.exists(str(package / name)) for name in PACKAGE_FILES):
        return True
    if found is not None:
        return False
    return _skills_cli(disk, skill_dir, project)


#: the skills CLI's install command in a README (`npx skills add owner/repo --skill a --skill b`)
_SKILLS_ADD = re.compile(r"\b(?:npx|bunx|pnpm\s+dlx|yarn\s+dlx)\s+skills(?:@[\w.-]+)?\s+add\s+"
                         r"(?P<args>(?:\\\n|[^\n`])*)")


def _skills_cli(disk: DiskView, skill_dir: Path, project: Path | None) -> bool | None:
    """What the README at the project root says of `npx skills add`, which puts every skill it
    installs side by side in one skills root: True when a command installs the repository's
    skills together (no `--skill`, or several), False when each command names one skill, None
    when no README has the command."""
    from wave_lsp.core.workspace.applies import MAX_README_BYTES, READMES

    if project is None or project not in skill_dir.parents:
        return None
    counts = []
    for name in READMES:
        data = disk.read(project / name)
        if isinstance(data, OSError):
            continue
        text = data[:MAX_README_BYTES].decode("utf-8", "replace")
        counts += [len(re.findall(r"(?:^|\s)(?:--skill|-s)\b", match.group("args")))
                   for match in _SKILLS_ADD.finditer(text)
                   if not re.search(r"(?:^|\s)(?:--list|-l)\b", match.group("args"))]
    if not counts:
        return None
    return any(count != 1 for count in counts)


def sibling_skill(disk: DiskView, target: Path, skill_dir: Path | None) -> str | None:
    """The sibling skill folder (beside `skill_dir`, holding a SKILL.md) that `target` lies in,
    or None."""
    if skill_dir is None:
        return None
    collection = skill_dir.parent
    if collection not in target.parents:
        return None
    name = target.relative_to(collection).parts[0]
    if name == skill_dir.name or not disk.is_file(collection / name / SKILL_FILE):
        return None
    return name
