"""Which skills a runtime loads from a project, and which one wins a name (docs/design/product.md *Discovery*,
docs/design/runtime-facts.md §3.4 and §4.2).

- `wave` (also `agentskills` and `portable`): project roots `<root>/.wave/skills` >
  `<root>/.claude/skills` > `<root>/.agents/skills`, then personal roots `~/.wave/skills` >
  `~/.claude/skills` > `~/.agents/skills` (project overrides personal); skills are keyed by their
  frontmatter `name` (the folder name when it has none).
- `claude-code`: managed (`/etc/claude-code/.claude/skills`) > personal `~/.claude/skills` > project
  `.claude/skills` of the directory and each parent up to the git root (deeper first); skills are
  keyed by folder name, which is the command name. A skill beats a legacy `.claude/commands/<name>.md`.
- The other runtimes (docs/design/runtime-facts.md §9): each profile's project and personal roots
  (`RuntimeProfile.root_order` where they interleave, as OpenCode's do), and its scan depth
  (`RuntimeProfile.finds_at_depth`: Gemini CLI also reads `<root>/SKILL.md`, Codex and OpenCode
  look deeper).
- A skill is a sub-directory of a root (or a symlink to one) holding `SKILL.md`, at a depth the
  profile scans (one level for most). Every directory is loaded once, by `realpath`, at its first
  (highest-precedence) place.
- Plugin skills (`<plugin root>/skills/<dir>/SKILL.md`, found under the project) are namespaced
  `plugin:skill` and never collide with the others.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.reads import read_as
from wave_lsp.core.invocation.listing import ListingEntry, folder_command, listing_entry, skill_name
from wave_lsp.core.parsing.document import FieldValues, SkillDocument, field_names, field_values
from wave_lsp.core.parsing.reading import load_document, read_skill_file
from wave_lsp.core.parsing.source import decode
from wave_lsp.core.workspace.folder_facts import FolderFacts
from wave_lsp.core.workspace.location import (
    PLUGIN_COMMANDS,
    SKILL_FILE,
    Plugin,
    find_git_root,
    find_plugin,
    locate,
    marketplace_plugins,
)


@dataclass(frozen=True, slots=True)
class Root:
    path: Path
    scope: str  #: "managed", "personal", "project" or "plugin"
    label: str  #: how messages name it, e.g. "project `.wave/skills`"
    plugin: str | None = None
    #: the plugin root for a plugin's skills: skills load together only within one group (a
    #: plugin's skills load when it is installed, the others in every session); "" otherwise
    group: str = ""
    #: for a skill folder a plugin manifest lists by itself: the one entry of `path` it loads
    only: str | None = None
    #: the depths below the root at which the profile finds a SKILL.md (`<root>/<dir>` is 1;
    #: None: any depth, as deep as `DEEPEST_SCAN`)
    min_depth: int = 1
    max_depth: int | None = 1
    #: folder names the scan never enters (besides names starting with a dot), and the most
    #: folders it visits, the root included (None: no cap)
    skipped: frozenset[str] = frozenset({"node_modules", ".git", ".hg", ".svn"})
    max_folders: int | None = None
    skips_dot_folders: bool = True  #: a deep scan does not enter `.name` folders
    #: a folder holding a SKILL.md is not entered further (`RuntimeProfile.scan_stops_at_skill`)
    stops_at_skill: bool = False

    @property
    def deep(self) -> bool:
        """The root is scanned otherwise than one folder down (`_deep_entries`)."""
        return (self.min_depth, self.max_depth) != (1, 1) or self.max_folders is not None \
            or self.stops_at_skill


Entry = tuple[Path, str, os.stat_result]


class RootEntries(list[Entry]):
    """The skill entries of one root; `truncated` when the scan stopped at the profile's folder
    cap (`RuntimeProfile.max_scan_folders`) before it had seen the whole root."""

    truncated: bool = False


@dataclass(slots=True)
class RuntimeSkill:
    name: str
    path: Path  #: the SKILL.md as reached from its root
    scope: str
    root: Root
    rank: int  #: position in the precedence order (0 wins)
    listing: ListingEntry
    description: str
    #: the parsed file, kept only in batch mode (a session that keeps documents), so `check`
    #: parses each SKILL.md once
    document: SkillDocument | None = None
    real_dir: str = ""  #: realpath of the skill folder
    shadowed_by: RuntimeSkill | None = None
    duplicates: list[Path] = field(default_factory=list)  #: other paths to the same directory
    #: the top-level frontmatter keys (what a collection-wide finding such as SK070 compares)
    fields: frozenset[str] = frozenset()

    @property
    def group(self) -> str:
        """The skills this one is loaded with: its plugin's ("" for the project's and the
        personal ones)."""
        return self.root.group

    def lists_beside(self, other: RuntimeSkill) -> bool:
        """Whether `other` is in the listing of a session that loads this skill: a skill of the
        same group, or a personal or managed one (those load in every session). A plugin whose
        source lies in the project is not installed by being there, so its skills are listed
        only beside each other."""
        return self.group == other.group or other.scope in ("personal", "managed")

    def to_json(self, relative_to: Path | None = None) -> dict[str, object]:
        return {"name": self.name, "scope": self.scope, "path": shown_path(self.path, relative_to),
                "modelInvocable": self.listing.model_invocable,
                "userInvocable": self.listing.user_invocable, "listingChars": self.listing.chars,
                "shadowedBy": shown_path(self.shadowed_by.path, relative_to) if self.shadowed_by else None}


def shown_path(path: Path, base: Path | None) -> str:
    """`path` relative to `base` when it is below it (POSIX form), else as it is."""
    if base is not None:
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            pass
    return str(path)


def roots(profile: RuntimeProfile, project: Path | None, home: Path | None,
          personal: bool = True) -> list[Root]:
    """The skills roots of `profile` seen from `project` (None: personal roots only), highest
    precedence first."""
    if profile.nested_project_roots:
        return _nested_roots(profile, project, home, personal)
    order = profile.root_order or (
        *(f"project:{folder}" for folder in reversed(profile.skills_roots)),
        *(f"personal:{folder}" for folder in reversed(profile.personal_skills_roots())))
    from wave_lsp.core.workspace.runtime_config import workspace_trust  # not for one file

    trusted = project is not None and workspace_trust(profile, project, home, personal) != \
        "untrusted"
    walk = _walk_in_precedence(profile, project, home, personal) if trusted else []
    found: list[Root] = []
    for entry in order:
        scope, _, folder = entry.partition(":")
        if scope == "project" and project is not None and trusted:
            bases = walk if folder in profile.walked_roots else [project]
            found += [scanned_root(profile, base / folder, "project",
                               f"project `{shown_path(base / folder, project)}`")
                      for base in bases]
        elif scope == "personal" and personal and home is not None:
            found.append(scanned_root(profile, home / folder, "personal", f"personal `~/{folder}`"))
    if project is not None and trusted:
        found = _with_configured_roots(profile, found, project, home, personal)
    return found


def scanned_root(profile: RuntimeProfile, path: Path, scope: str, label: str,
             any_depth: bool = False) -> Root:
    """A root scanned the way `profile` scans its roots (or at any depth)."""
    low, high = (0, None) if any_depth else (profile.min_scan_depth, profile.max_scan_depth)
    dots = f"{path.parent.name}/{path.name}" not in profile.dot_scanned_roots
    return Root(path, scope, label, min_depth=low, max_depth=high,
                skipped=profile.scan_skipped_folders, max_folders=profile.max_scan_folders,
                skips_dot_folders=dots, stops_at_skill=profile.scan_stops_at_skill)


def _walk_in_precedence(profile: RuntimeProfile, project: Path | None, home: Path | None,
                        personal: bool) -> list[Path]:
    """The folders of the profile's walk from `project`, highest precedence first."""
    if project is None:
        return []
    from wave_lsp.core.workspace.runtime_config import walk_folders

    folders = walk_folders(profile, project, home, personal)
    return list(reversed(folders)) if profile.walk_outer_wins else folders


def _with_configured_roots(profile: RuntimeProfile, found: list[Root], project: Path,
                           home: Path | None, personal: bool) -> list[Root]:
    """`found` with the roots the runtime's config files add, before the others when they win."""
    first: list[Root] = []
    last: list[Root] = []
    from wave_lsp.core.workspace.runtime_config import configured_root_paths

    for path, config, file in configured_root_paths(profile, project, home, personal):
        inside = path == project or project in path.parents
        label = f"`{shown_path(path, project)}` (from `{shown_path(file, project)}`)"
        root = scanned_root(profile, path, "project" if inside else "personal",
                        f"configured root {label}", config.scan == "any-depth")
        (first if config.wins else last).append(root)
    return first + found + last


def _nested_roots(profile: RuntimeProfile, project: Path | None, home: Path | None,
                  personal: bool) -> list[Root]:
    """Managed > personal > the project roots of every folder up to the git root, deeper first."""
    found: list[Root] = []
    managed = profile.managed_root
    if managed is not None and managed.is_dir():
        found.append(Root(managed, "managed", f"managed `{managed.parent.name}/{managed.name}`"))
    for folder in reversed(profile.skills_roots):
        if personal and home is not None:
            found.append(Root(home / folder, "personal", f"personal `~/{folder}`"))
    if project is None:
        return found
    stop = find_git_root(project)
    for directory in [project, *project.parents]:
        if home is not None and directory == home:
            break
        for folder in reversed(profile.skills_roots):
            found.append(Root(directory / folder, "project",
                              f"project `{shown_path(directory / folder, project)}`"))
        if stop is None or directory == stop:
            break
    return found


def _skill_entries(root: Path) -> Iterator[tuple[Path, str, os.stat_result]]:
    """(SKILL.md, real path of its folder, the SKILL.md's stat) for every skill folder of a root:
    one `stat` per skill; `realpath` only for symbolic links (a plain folder's real path is its
    root's plus its name)."""
    try:
        entries = sorted(os.scandir(root), key=lambda entry: entry.name)
    except OSError:
        return
    root_real = os.path.realpath(root)
    for entry in entries:
        try:
            if not entry.is_dir():
                continue
            info = os.stat(os.path.join(entry.path, SKILL_FILE))
            if not stat.S_ISREG(info.st_mode):
                continue
            real = (os.path.realpath(entry.path) if entry.is_symlink()
                    else os.path.join(root_real, entry.name))
            yield Path(entry.path) / SKILL_FILE, real, info
        except OSError:
            continue


Listed = list[tuple[Root, list[tuple[Path, str, os.stat_result]]]]


def list_roots(profile: RuntimeProfile, project: Path | None, home: Path | None,
                personal: bool) -> Listed:
    """Every root in precedence order with its skill entries."""
    plugins = _plugins(project) if profile.loads_claude_plugins else []
    return [(root, root_entries(root)) for root in roots(profile, project, home, personal) + plugins]


def root_entries(root: Root) -> RootEntries:
    """The skill entries of one root (only the one it is restricted to, if any)."""
    if root.deep:
        return _deep_entries(root)
    return RootEntries(entry for entry in _skill_entries(root.path)
                       if root.only is None or entry[0].parent.name == root.only)


#: how deep a profile that scans "any depth" is followed (a guard against link loops)
DEEPEST_SCAN = 8


def _deep_entries(root: Root) -> RootEntries:
    """The skill entries of a root its profile scans at other depths than one (Gemini CLI also
    reads `<root>/SKILL.md`; Codex follows folders six deep, OpenCode any depth): the `SKILL.md`
    of every folder `BreadthFirst` enters at a depth the root's profile reads, marked
    `truncated` when the scan stopped at the folder cap."""
    found = RootEntries()
    scan = BreadthFirst(root)
    for folder, depth in scan:
        if depth < root.min_depth:
            continue
        try:
            info = os.stat(folder / SKILL_FILE)
            if stat.S_ISREG(info.st_mode):
                found.append((folder / SKILL_FILE, os.path.realpath(folder), info))
        except OSError:
            pass
    found.truncated = scan.truncated
    return found


def within_cap(root: Root, folder: Path) -> bool:
    """False only when the capped scan of `root` stops before it enters `folder` (compared by
    real path); the scan ends as soon as it enters it, so a skill near the top of a large root
    costs a few folders."""
    wanted = os.path.realpath(folder)
    scan = BreadthFirst(root)
    if any(os.path.realpath(entered) == wanted for entered, _depth in scan):
        return True
    return not scan.truncated


class BreadthFirst:
    """The folders a deep scan of a root enters, with their depth, breadth first in name order:
    not deeper than the root's `max_depth` (as deep as `DEEPEST_SCAN` for "any depth"), skipping
    the root's `skipped` names and (`skips_dot_folders`) names starting with a dot. With a folder
    cap (Codex's 2,000, the root included, each real path once) a folder is entered only while
    fewer have been; `truncated` then says one was left out."""

    def __init__(self, root: Root) -> None:
        self.root = root
        self.truncated = False

    def __iter__(self) -> Iterator[tuple[Path, int]]:
        root = self.root
        deepest = DEEPEST_SCAN if root.max_depth is None else min(root.max_depth, DEEPEST_SCAN)
        level = [root.path]
        entered = {os.path.realpath(root.path)} if root.max_folders is not None else set()
        for depth in range(deepest + 1):
            deeper: list[Path] = []
            for folder in level:
                yield folder, depth
                if depth < deepest:
                    deeper += self._children(folder, entered)
            level = deeper

    def _children(self, folder: Path, entered: set[str]) -> list[Path]:
        root = self.root
        if root.stops_at_skill and (folder / SKILL_FILE).is_file():
            return []  # the folder is one skill: Copilot CLI looks no deeper
        try:
            children = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            return []
        found: list[Path] = []
        for child in children:
            if (root.skips_dot_folders and child.name.startswith(".")) \
                    or child.name in root.skipped or not _is_folder(child):
                continue
            if root.max_folders is not None:
                real = os.path.realpath(child.path)
                if real in entered:
                    continue  # reached before: not entered again, not counted
                if len(entered) >= root.max_folders:
                    self.truncated = True
                    continue
                entered.add(real)
            found.append(Path(child.path))
        return found


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _plugin_roots(project: Path) -> list[Root]:
    """Plugins developed in this project: the project itself, its sub-folders and
    `plugins/*` (two levels, so that a large repository is not walked on every check)."""
    candidates = [project]
    for pattern in ("*", "plugins/*", "*/plugins/*"):
        candidates += sorted(p for p in project.glob(pattern) if p.is_dir())
    found: list[Root] = []
    for folder in candidates:
        plugin = find_plugin(folder)
        if plugin is not None and plugin.root == folder:
            label, group = f"plugin `{plugin.name}`", str(folder)
            if (folder / "skills").is_dir():
                found.append(Root(folder / "skills", "plugin", label, plugin.name, group))
            found += _listed_roots(plugin, label, group)
        found += _marketplace_roots(folder, project)
    return found


def _listed_roots(plugin: Plugin, label: str, group: str) -> list[Root]:
    """The roots of the folders a plugin's `skills` list names (a skill folder: its parent,
    restricted to it)."""
    found: list[Root] = []
    for listed in plugin.skill_paths:
        if (listed / SKILL_FILE).is_file():
            found.append(Root(listed.parent, "plugin", label, plugin.name, group, listed.name))
        elif listed.is_dir() and listed != plugin.root / "skills":
            found.append(Root(listed, "plugin", label, plugin.name, group))
    return found


def _marketplace_roots(folder: Path, project: Path) -> list[Root]:
    """The skills of the plugins a marketplace in `folder` declares with a `skills` list (inside
    the project). Such an entry owns only the folders it lists, so `find_plugin` from the plugin
    root does not return it; several entries may share one source, each its own load group."""
    found: list[Root] = []
    for plugin in marketplace_plugins(folder):
        if not plugin.skill_paths or (plugin.root != project and project not in plugin.root.parents):
            continue
        own = find_plugin(plugin.root)
        if own is not None and own.root == plugin.root:  # a plugin by itself: listed above
            continue
        found += _listed_roots(plugin, f"plugin `{plugin.name}`", f"{plugin.root}#{plugin.name}")
    return found


def _plugins(project: Path | None) -> list[Root]:
    return _plugin_roots(project) if project is not None else []


@dataclass(frozen=True, slots=True)
class SkillSummary:
    """What discovery and the index need from one SKILL.md."""

    listing: ListingEntry
    description: str
    document: SkillDocument | None  #: the parsed file, when the caller keeps documents
    argument_hint: str | None = None
    scope: str = "workspace"
    fields: frozenset[str] = frozenset()  #: the top-level frontmatter keys
    #: `name` and `description` are text of a frontmatter YAML reads without an error: every
    #: runtime names the skill as `listing` does (`runtime_name`)
    plain: bool = True


def read_summary(path: Path, home: Path | None, keep_document: bool = False,
                 facts: FolderFacts | None = None,
                 info: os.stat_result | None = None) -> SkillSummary | None:
    """Read and summarise one SKILL.md (None when it cannot be read). Uncached: a
    `WorkspaceSession` remembers summaries per file version. `facts`: what the current pass over
    the disk knows about folders; `info`: the file's `os.stat`, when the caller has it. Without
    `keep_document` only the frontmatter's values are read (`field_values`: the same values, most
    often without building the YAML tree)."""
    if keep_document:
        document = load_document(path, info)
        return None if document is None else summary_of_document(path, document, home, True,
                                                                 facts)
    data, _problem = read_skill_file(path, info)
    if data is None:
        return None
    return summary_of_document(path, field_values(decode(data)), home, facts=facts)


def summary_of_document(path: Path, document: FieldValues, home: Path | None,
                        keep_document: bool = False,
                        facts: FolderFacts | None = None) -> SkillSummary:
    """What discovery and the index need from one SKILL.md's frontmatter values (a parsed
    document of the file's or an editor's text; `document` is kept only if it is a
    `SkillDocument` and `keep_document` asks for it)."""
    location = locate(path, home=home, facts=facts)
    value = document.value("description")
    hint = document.value("argument-hint")
    kept = document if keep_document and isinstance(document, SkillDocument) else None
    return SkillSummary(listing_entry(document, location),
                        value.strip() if isinstance(value, str) else "", kept,
                        hint if isinstance(hint, str) else None, location.scope,
                        field_names(document), _plain(document))


def _plain(document: FieldValues) -> bool:
    """`name` and `description` are text, and the YAML has no error (the values of
    `field_values`' quick path come from a text libyaml accepts). A duplicate key does not count
    (the quick path cannot see one, and both paths must agree): Codex ignores a duplicated key
    it does not read and drops a skill with a duplicated `name`, and Gemini CLI's line parser
    reads the same name unless it is quoted (not modelled in `list`: the rules read it)."""
    if not (isinstance(document.value("name"), str)
            and isinstance(document.value("description"), str)):
        return False
    if isinstance(document, SkillDocument):
        return document.yaml is not None and document.yaml.problem is None
    return True


#: the loaders whose reading of a frontmatter that is not `plain` may name the skill otherwise
#: (`reads.read_as`): Gemini CLI's line parser reads `name: 123` as `123` (case
#: gm-fallback-number), Codex's repaired YAML its `name`
OWN_NAME_LOADERS = frozenset({"line-fallback", "serde-struct"})


def runtime_name(profile: RuntimeProfile, root: Root, path: Path, summary: SkillSummary,
                 home: Path | None = None) -> str:
    """The name the runtime keys a skill by: its folder where it keys skills by folder (a plugin's
    skill as `<plugin>:<folder>`, except a plugin-root SKILL.md), else the listed name, as the
    runtime's own loader reads it where that may differ (`OWN_NAME_LOADERS`)."""
    listing = summary.listing
    if not profile.keys_skills_by_folder:
        if not summary.plain and profile.yaml_loader in OWN_NAME_LOADERS:
            return _own_name(profile, path, home) or listing.name
        return listing.name
    plugin_root = root.group.split("#", 1)[0]  # a plugin's group is its root
    keyed = folder_command(path.parent.name, root.plugin,
                           bool(root.plugin) and plugin_root == str(path.parent))
    return listing.name if keyed is None else keyed


def _own_name(profile: RuntimeProfile, path: Path, home: Path | None) -> str | None:
    """The name `profile`'s loader gives the SKILL.md (None: it cannot be read)."""
    document = load_document(path)
    if document is None:
        return None
    return skill_name(read_as(document, profile).values, locate(path, home=home))


#: how `runtime_skills` obtains a summary: (SKILL.md, home, its stat) -> summary
Summarize = Callable[[Path, Path | None, os.stat_result], SkillSummary | None]


def runtime_skills(profile: RuntimeProfile, project: Path | None, home: Path | None,
                   personal: bool = True, listed: Listed | None = None,
                   summarize: Summarize | None = None,
                   confine: Path | None = None) -> list[RuntimeSkill]:
    """Every skill the target loads from `project`, with precedence and shadowing resolved
    (`summarize`: how to read one SKILL.md; by default uncached, with one `FolderFacts`).
    `confine`: a SKILL.md reached through this folder (however the path to it is written: a
    link to the folder counts) whose real path is outside it (a link out of it, of the file or
    of a folder above it) is left out, and never read (the MCP server; `leaves`)."""
    project = Path(os.path.abspath(project)) if project is not None else None
    if summarize is None:
        summarize = partial(_read_summary, FolderFacts())
    if listed is None:
        listed = list_roots(profile, project, home, personal)
    if confine is not None:
        memo: dict[str, bool] = {}
        listed = [(root, [entry for entry in entries if not leaves(entry[0], confine, memo)])
                  for root, entries in listed]
    loaded: dict[str, RuntimeSkill] = {}  # by realpath of the skill directory
    skills: list[RuntimeSkill] = []
    for rank, (root, entries) in enumerate(listed):
        for path, real, info in entries:
            if real in loaded:
                loaded[real].duplicates.append(path)
                continue
            summary = summarize(path, home, info)
            if summary is None:
                continue
            listing = summary.listing
            name = runtime_name(profile, root, path, summary, home)
            skill = RuntimeSkill(name, path, root.scope, root, rank, listing, summary.description,
                                 summary.document, real, fields=summary.fields)
            loaded[real] = skill
            skills.append(skill)
    members: dict[tuple[str, str], list[RuntimeSkill]] = {}
    for skill in skills:
        members.setdefault((skill.group, skill.name), []).append(skill)
    for group in members.values():
        winner = winner_of(group)
        for skill in group:
            if skill is not winner:
                skill.shadowed_by = winner
    return skills


def winner_of(members: Sequence[RuntimeSkill]) -> RuntimeSkill:
    """Which of the skills of one name (and group), in precedence order, the runtime keeps: the
    first of the root of highest precedence (under `collision = "race"` the usual winner)."""
    return min(members, key=lambda skill: skill.rank)


def leaves(path: Path, folder: Path, memo: dict[str, bool] | None = None) -> bool:
    """`path`, with every link followed, lies outside `folder` although it is reached through
    it: a folder above it (however it is written: `/alias` for a link to `folder` counts) lies
    inside `folder` with every link followed. Real paths are compared, never the written ones.
    `memo`: what is known of folders above, for many paths under the same roots."""
    real_base = os.path.realpath(folder)
    if _within(os.path.realpath(path), real_base):
        return False
    known = {} if memo is None else memo
    for above in Path(os.path.abspath(path)).parents:
        key = str(above)
        if key not in known:
            known[key] = _within(os.path.realpath(above), real_base)
        if known[key]:
            return True
    return False


def _within(real: str, real_base: str) -> bool:
    return real == real_base or real.startswith(real_base.rstrip(os.sep) + os.sep)


def _read_summary(facts: FolderFacts, path: Path, home: Path | None,
                  info: os.stat_result) -> SkillSummary | None:
    return read_summary(path, home, facts=facts, info=info)


def why_wins(profile: RuntimeProfile, winner: RuntimeSkill, loser: RuntimeSkill) -> str:
    """One sentence: why `winner` beats `loser` in this target."""
    racy = (f"; {profile.runtime} reads the skills at the same time and keeps the last of a "
            "name to finish reading, so this is the usual winner, not a certain one"
            if profile.collision == "race" else "")
    if winner.root.path == loser.root.path:
        return f"both are in {winner.root.label}; the first in name order is kept{racy}"
    return (f"{winner.root.label} beats {loser.root.label} ({profile.name}: "
            f"{profile.precedence}){racy}")


def legacy_commands(profile: RuntimeProfile, project: Path, home: Path | None) -> dict[str, Path]:
    """Legacy command files by command name: `<folder>/<name>.md` of each of the profile's
    `legacy_command_folders`, in the project then under HOME, a sub-folder adding a `:`-part
    (`.claude/commands/sub/x.md` is `sub:x`); where the profile lists legacy commands and loads
    plugins, each plugin's `commands/` too (`<plugin>:x`; Claude Code 2.1.332, probe
    disc-legacy-variants). The first file of a name is kept."""
    found: dict[str, Path] = {}
    for name in profile.legacy_command_folders:
        for folder in [project / name] + ([home / name] if home is not None else []):
            _add_commands(found, folder, "")
    if profile.lists_legacy_commands and profile.loads_claude_plugins:
        for plugin in _command_plugins(project):
            _add_commands(found, plugin.root / PLUGIN_COMMANDS, f"{plugin.name}:")
    return found


def _add_commands(found: dict[str, Path], folder: Path, prefix: str) -> None:
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("*.md")):
        if path.is_file():
            command = ":".join(path.relative_to(folder).with_suffix("").parts)
            found.setdefault(prefix + command, path)


def _command_plugins(project: Path) -> list[Plugin]:
    """The plugins developed in the project (the candidates of `_plugin_roots`) that have a
    `commands/` folder."""
    candidates = [project]
    for pattern in ("*", "plugins/*", "*/plugins/*"):
        candidates += sorted(p for p in project.glob(pattern) if p.is_dir())
    plugins = (find_plugin(folder) for folder in candidates
               if (folder / PLUGIN_COMMANDS).is_dir())
    return [plugin for plugin in plugins if plugin is not None
            and (plugin.root / PLUGIN_COMMANDS).is_dir()]


def signature(listed: Listed) -> dict[str, tuple[int, int]]:
    """What a project's skills depend on: every root's entries and their SKILL.md's mtime and
    size."""
    return {str(path): (info.st_mtime_ns, info.st_size)
            for _root, entries in listed for path, _real, info in entries}
