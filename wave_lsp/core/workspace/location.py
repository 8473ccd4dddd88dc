"""Where a SKILL.md lives: its skill folder, project root, skills root, scope and plugin.

Implements docs/design/product.md *Discovery* and *Contract details*: the project root of
`<root>/.{wave,claude,agents}/skills/<dir>/SKILL.md` (or any other runtime's project root,
docs/design/runtime-facts.md §9.1) is `<root>`, else the nearest ancestor holding
`.git`; a directory holding `.wave-plugin/plugin.json` or `.claude-plugin/plugin.json` is a plugin
root whose skills live in `<plugin root>/skills/<dir>/`. SK002 needs to know whether a file lies in a
skills root of the target and at which depth.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, cast

from wave_lsp.core.facts.profiles import ALL_PERSONAL_ROOTS, ALL_SKILLS_ROOTS, RuntimeProfile

# the facts a location holds are data the invocation layer reads (its command name, `${…}` values,
# working folder): they live there, and are named here too, where every caller finds them
from wave_lsp.core.invocation.skill_location import Plugin as Plugin
from wave_lsp.core.invocation.skill_location import SkillLocation as SkillLocation
from wave_lsp.core.workspace.folder_facts import FolderFacts

if TYPE_CHECKING:
    from wave_lsp.core.parsing.document import FieldValues

SKILL_FILE = "SKILL.md"
PLUGIN_MANIFESTS = (".wave-plugin/plugin.json", ".claude-plugin/plugin.json")


def locate(path: Path | None, *, home: Path | None = None,
           facts: FolderFacts | None = None) -> SkillLocation:
    """Locate a SKILL.md (or any markdown file under a skills root) on disk. `facts`: what the
    current pass over the disk already knows about folders (the same answers, fewer `stat`s)."""
    if path is None:
        return SkillLocation(None, None, None)
    path = _absolute(path)
    skill_dir = path.parent
    home = _absolute(home or Path.home())
    plugin = find_plugin(skill_dir, facts)
    if path.name != SKILL_FILE and path.suffix == ".md":
        legacy = legacy_command(path, plugin, home)
        if legacy is not None:
            command, scope, project = legacy
            return SkillLocation(path=path, skill_dir=skill_dir,
                                 project_root=project or find_git_root(skill_dir, facts),
                                 scope=scope, plugin=plugin, legacy_command=command)
    root, depth, scope, project = _skills_root_of(path, plugin, home)
    if project is None:
        project = find_git_root(skill_dir, facts)
    return SkillLocation(path=path, skill_dir=skill_dir, project_root=project, skills_root=root,
                         depth_in_root=depth, scope=scope, plugin=plugin)


#: the folder of legacy command files under a project, HOME (`.claude/commands`) or a plugin
LEGACY_COMMANDS = ".claude/commands"
PLUGIN_COMMANDS = "commands"


def legacy_command(path: Path, plugin: Plugin | None,
                   home: Path) -> tuple[str, str, Path | None] | None:
    """(command, scope, project root) of a legacy command file, None for any other file: Claude
    Code 2.1.332 names `<root>/.claude/commands/sub/x.md` `sub:x` (a folder adds a `:`-part) and
    a plugin's `commands/x.md` `<plugin>:x` (probes disc-legacy-command, disc-legacy-variants)."""
    parts = path.with_suffix("").parts
    for size in range(len(parts) - 1, 1, -1):
        if parts[size - 2:size] != (".claude", "commands"):
            continue
        base = path.parents[len(parts) - size + 1]
        command = ":".join(parts[size:])
        if base == home:
            return command, "personal", None
        return command, "project", base
    if plugin is not None and plugin.root / PLUGIN_COMMANDS in path.parents:
        inner = path.with_suffix("").relative_to(plugin.root / PLUGIN_COMMANDS).parts
        return f"{plugin.name}:{':'.join(inner)}", "plugin", None
    return None


def _absolute(path: Path) -> Path:
    """`Path(os.path.abspath(path))`, without building a new path when it is one already."""
    text = os.fspath(path)
    absolute = os.path.abspath(text)
    return path if absolute == text and isinstance(path, Path) else Path(absolute)


def _skills_root_of(path: Path, plugin: Plugin | None,
                    home: Path) -> tuple[Path | None, int | None, str, Path | None]:
    """(skills root, depth, scope, project root) for the nearest enclosing skills root. A
    project's or the personal skills root wins over a plugin manifest that lists the same folder
    (discovery lists those roots first, so the skill has one name everywhere); a folder the
    manifest lists wins over the plugin's own `skills/` (where it may lie deeper). `path` is
    absolute: its first part is the anchor, whose name is empty."""
    parts = path.parts
    for depth in range(len(parts) - 1):
        size = len(parts) - 1 - depth  # the ancestor at `depth` is parts[:size]
        if size >= 3 and parts[size - 1] in _ROOT_LAST and \
                f"{parts[size - 2]}/{parts[size - 1]}" in _TWO_PART_ROOTS:
            ancestor, base = path.parents[depth], path.parents[depth + 2]
            scope = "personal" if base == home else "project"
            return ancestor, depth, scope, (None if scope == "personal" else base)
        if size >= 4 and parts[size - 1] in _ROOT_LAST and path.parents[depth + 3] == home and \
                "/".join(parts[size - 3:size]) in _THREE_PART_ROOTS:
            return path.parents[depth], depth, "personal", None
    declared = _declared_root(path.parent, plugin)
    if declared is not None:
        return declared, 1, "plugin", None
    if plugin is not None:
        for depth, ancestor in enumerate(path.parents):
            if ancestor == plugin.root / "skills":
                return ancestor, depth, "plugin", None
    return None, None, "workspace", None


#: the skills roots of every runtime, by their number of parts (`.claude/skills`,
#: `.config/opencode/skills`), and the last part of each
_TWO_PART_ROOTS = frozenset(r for r in (*ALL_SKILLS_ROOTS, *ALL_PERSONAL_ROOTS) if r.count("/") == 1)
_THREE_PART_ROOTS = frozenset(r for r in ALL_PERSONAL_ROOTS if r.count("/") == 2)
_ROOT_LAST = frozenset(r.rsplit("/", 1)[-1] for r in (*ALL_SKILLS_ROOTS, *ALL_PERSONAL_ROOTS))


def _declared_root(skill_dir: Path, plugin: Plugin | None) -> Path | None:
    """The folder that holds `skill_dir` as a skill the plugin manifest lists: the listed folder's
    parent when the listed folder is the skill itself, the listed folder when it is a folder of
    skills; None when the manifest does not list it."""
    if plugin is None:
        return None
    for listed in plugin.skill_paths:
        if skill_dir == listed:
            return listed.parent
        if skill_dir.parent == listed:
            return listed
    return None


def find_plugin(start: Path, facts: FolderFacts | None = None) -> Plugin | None:
    """The plugin whose root is `start` or one of its ancestors, if any: a folder with a plugin
    manifest, or a plugin a marketplace (`.claude-plugin/marketplace.json`) declares with a
    relative `source` that holds `start` (with `strict: false` a marketplace entry needs no
    `plugin.json` of its own, and its `skills` list names the skill folders). `facts`: the
    answers per folder of the current pass (see `folder_facts`)."""
    if facts is not None and start.is_absolute():
        return _find_plugin_remembered(start, facts)
    for candidate in [start, *start.parents]:
        own = _own_plugin(candidate)
        if own is not None:
            return own
        declared = _marketplace_plugin(_marketplace_entries(candidate), start)
        if declared is not None:
            return declared
    return None


def _find_plugin_remembered(start: Path, facts: FolderFacts) -> Plugin | None:
    """`find_plugin` asking each folder once per pass, and not at all when the walk listed it
    without a manifest folder. The answer found from a folder upwards is remembered for that
    folder (the skills of one root share their parent's) unless a marketplace was met on the
    way: a marketplace's answer depends on the folder the search started from. Nothing is
    remembered about `start` itself (a skill's own folder is asked once: remembering it would
    cost memory per skill for nothing)."""
    folder = str(start)
    passed: list[str] = []
    remember = first = True
    found: Plugin | None = None
    while True:
        known = None if first else facts.answer_if_known("plugin above", folder)
        if known is not None:
            found = cast("Plugin | None", known[0])  # remembered below, as `(found,)`
            break
        if not facts.unmarked(folder):
            own, entries = _manifests(folder) if first else facts.answer(
                "plugin", folder, _manifests)
            if own is not None:
                found = own
                break
            if entries:
                remember = False
                declared = _marketplace_plugin(entries, start)
                if declared is not None:
                    return declared
        if not first:
            passed.append(folder)
        first = False
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    if remember:
        for folder in passed:
            facts.remember("plugin above", folder, (found,))
    return found


def _manifests(folder: str) -> tuple[Plugin | None, list[tuple[dict[str, object], Path]]]:
    """The plugin whose manifest lies in `folder`, and the entries of its marketplace."""
    candidate = Path(folder)
    return _own_plugin(candidate), _marketplace_entries(candidate)


def _own_plugin(candidate: Path) -> Plugin | None:
    """The plugin whose manifest lies in `candidate`, if any."""
    for manifest in PLUGIN_MANIFESTS:
        manifest_path = candidate / manifest
        if manifest_path.is_file():
            name, skills = _manifest_facts(manifest_path)
            return Plugin(name=name or candidate.name, root=candidate,
                          skill_paths=_skill_paths(candidate, skills))
    return None


MARKETPLACE = ".claude-plugin/marketplace.json"


def _marketplace_plugin(entries: list[tuple[dict[str, object], Path]],
                        start: Path) -> Plugin | None:
    """The plugin of the marketplace `entries` that holds `start`, if any."""
    for entry, plugin_root in entries:
        if plugin_root != start and plugin_root not in start.parents:
            continue
        skills = entry.get("skills")
        if isinstance(skills, list) and skills and not any(
                isinstance(item, str) and Path(os.path.normpath(plugin_root / item)) in
                (start, *start.parents) for item in skills):
            continue
        return _entry_plugin(entry, plugin_root)
    return None


def marketplace_plugins(root: Path) -> list[Plugin]:
    """Every plugin the marketplace at `root` (`.claude-plugin/marketplace.json`) declares with a
    relative `source`, in its order."""
    return [_entry_plugin(entry, plugin_root) for entry, plugin_root in _marketplace_entries(root)]


def _marketplace_entries(root: Path) -> list[tuple[dict[str, object], Path]]:
    """The marketplace's entries with a relative `source`, each with its plugin root."""
    path = root / MARKETPLACE
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: deeply nested JSON
        return []
    entries = data.get("plugins") if isinstance(data, dict) else None
    found: list[tuple[dict[str, object], Path]] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("source"), str):
            continue
        source = entry["source"]
        if "://" in source or source.startswith(("/", "~")):
            continue
        found.append((entry, Path(os.path.normpath(root / source))))
    return found


def _entry_plugin(entry: dict[str, object], plugin_root: Path) -> Plugin:
    name = entry.get("name")
    return Plugin(name=name if isinstance(name, str) and name.strip() else plugin_root.name,
                  root=plugin_root, skill_paths=_skill_paths(plugin_root, entry.get("skills")))


def _manifest_facts(manifest: Path) -> tuple[str | None, object]:
    """A plugin manifest's `name` (None when missing or unreadable) and its `skills` value."""
    try:
        data = json.loads(manifest.read_text("utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: deeply nested JSON
        return None, None
    if not isinstance(data, dict):
        return None, None
    name = data.get("name")
    return (name if isinstance(name, str) and name.strip() else None), data.get("skills")


def _skill_paths(plugin_root: Path, skills: object) -> tuple[Path, ...]:
    """The folders a manifest's `skills` names (a string or a list of strings), resolved against
    the plugin root; paths that leave the plugin or are absolute are ignored."""
    items = [skills] if isinstance(skills, str) else skills if isinstance(skills, list) else []
    found: list[Path] = []
    for item in items:
        if not isinstance(item, str) or not item.strip() or item.startswith(("/", "~")):
            continue
        path = Path(os.path.normpath(plugin_root / item.strip()))
        if path == plugin_root or plugin_root in path.parents:
            found.append(path)
    return tuple(found)


def find_git_root(start: Path, facts: FolderFacts | None = None) -> Path | None:
    """The nearest folder at or above `start` that holds `.git`; `facts` as in `find_plugin`."""
    if facts is not None and start.is_absolute():
        folder, first = str(start), True  # (the start folder is asked, not remembered)
        while True:
            if not facts.unmarked(folder) and (
                    _holds_git(folder) if first else facts.answer("git", folder, _holds_git)):
                return Path(folder)
            first = False
            parent = os.path.dirname(folder)
            if parent == folder:
                return None
            folder = parent
    for candidate in [start, *start.parents]:
        if _holds_git(candidate):
            return candidate
    return None


def _holds_git(folder: Path | str) -> bool:
    return (Path(folder) / ".git").exists()


def in_target_skills_root(location: SkillLocation, profile: RuntimeProfile) -> bool:
    """True when the file lies under a skills root that `profile` scans (plugin roots included)."""
    root = location.skills_root
    if root is None:
        return False
    if location.scope == "plugin":
        return profile.scans_roots and profile.loads_claude_plugins
    return profile.scans_root(root_name(location), personal=location.scope == "personal")


def root_name(location: SkillLocation) -> str:
    """The skills root of the file as a runtime names it (`.claude/skills`,
    `.config/opencode/skills`); "" outside every root."""
    root = location.skills_root
    if root is None:
        return ""
    three = f"{root.parent.parent.name}/{root.parent.name}/{root.name}"
    return three if three in _THREE_PART_ROOTS else f"{root.parent.name}/{root.name}"


# -- templates (docs/design/rules.md *Templates*) ------------------------------------------------
# SKILL.md files that are templates of a generator, not skills (docs/design/rules.md *Templates*).
#
# A generator (cookiecutter, copier, a kickstart script, a Yeoman or Jinja scaffold) keeps the
# skill it writes as a template: `templates/claude-skill/{{skill_name}}/SKILL.md` with
# `name: {{ skill_name }}`. Rendered, it is a skill; as it lies, no runtime loads it (a runtime
# that did would load a skill named `{{ skill_name }}`), and the name, YAML and tool findings on
# its placeholders say nothing about the skill it becomes. A file is a template when a folder on
# its path (below the project root) is a placeholder (`{{skill_name}}`, `{% … %}`, `__name__`,
# `${name}`, `<%= name %>`), or when its frontmatter's `name` or `description` holds a Jinja or
# EJS placeholder and a folder on its path is named for templates (`templates/`, `scaffold/`,
# `blueprints/`, `skeleton/`, `boilerplate/`), or when it is spelt otherwise than `SKILL.md`
# (`skill.md`, the name a generator renames) in such a folder outside every skills root. A plain
# `SKILL.md` under `templates/` without placeholders is not a template: it is copied as it is, and
# its findings hold.
#
# The checker gives a template one information finding (SK002) instead of the rules' findings.

#: a folder name that a generator replaces: Jinja/cookiecutter/copier `{{x}}` and `{% … %}`,
#: Python-package scaffolds' `__name__`, shell-style `${name}`, EJS `<%= name %>`
_PLACEHOLDER_FOLDER = re.compile(
    r"\{\{.*\}\}|\{%.*%\}|^__[A-Za-z][A-Za-z0-9_]*__$|\$\{[^}]+\}|<%=?.*%>")
#: a placeholder inside a frontmatter value
_PLACEHOLDER_VALUE = re.compile(r"\{\{\s*[\w.|() '\"-]+\s*\}\}|\{%.*?%\}|<%=?.*?%>")
#: folders whose files are the input of a generator
_TEMPLATE_FOLDER = re.compile(
    r"^(?:templates?|_templates?|scaffold(?:s|ing)?|blueprints?|skeletons?|boilerplates?|"
    r"generators?|cookiecutter.*)$", re.I)


def template_folder(path: Path, base: Path | None) -> str | None:
    """The first folder of `path` below `base` (the project root; all of it without one)
    whose name is a generator's placeholder."""
    folders = _folders_below(path, base)
    return next((name for name in folders if _PLACEHOLDER_FOLDER.search(name)), None)


def _folders_below(path: Path, base: Path | None) -> tuple[str, ...]:
    parent = path.parent
    if base is not None and (parent == base or base in parent.parents):
        return parent.relative_to(base).parts
    return parent.parts[-4:]  # no project: the nearest folders only


def template_reason(location: SkillLocation, document: FieldValues) -> str | None:
    """Why the file is a generator's template, in words (None when it is not one)."""
    path = location.path
    if path is None:
        return None
    folder = template_folder(path, location.project_root)
    if folder is not None:
        return f"its folder `{folder}` is a placeholder a generator fills in"
    folders = _folders_below(path, location.project_root)
    holder = next((name for name in folders if _TEMPLATE_FOLDER.match(name)), None)
    if holder is None:
        return None
    if path.name != SKILL_FILE and location.skills_root is None:
        return f"it is named `{path.name}` in the template folder `{holder}/`, outside every " \
               "skills root"
    for key in ("name", "description"):
        value = document.value(key)
        if isinstance(value, str) and (found := _PLACEHOLDER_VALUE.search(value)):
            return f"its `{key}` holds the placeholder `{found.group(0)}` and it lies in a " \
                   "template folder"
    return None
