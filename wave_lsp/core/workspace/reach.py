"""Does a runtime find this SKILL.md where it lies, and if not, why (docs/design/product.md *Where a
skill loads*; docs/design/runtime-facts.md §9.1).

One answer for SK002, `list --targets all`, the hover on `name` and `portable`'s "not discovered
by" (all through `discovery_miss`: why, and what the author can do, docs/design/rules.md *How a
message reads*), built from the same facts discovery scans with (`runtime_view.roots`), so that
they agree:

- the file lies in a skills root the profile scans, at a depth it scans (`location`), or below a
  root the runtime's config files add (`runtime_config.configured_root_paths`);
- a project skill of a runtime that loads workspace skills only in a trusted folder (Gemini CLI)
  is not found in a folder that is not trusted (`runtime_config.workspace_trust`);
- a runtime with a folder cap (Codex's 2,000 per root) does not find a skill its breadth-first scan
  of the root does not reach (`runtime_view.within_cap`: the same scan, stopped once it enters the
  skill's folder);
- a deep scan does not enter the folders it skips (`node_modules` for most, names starting with a
  dot except in OpenCode's `.claude` and `.agents` roots).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from wave_lsp.core.checking.messages import capitalized
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.workspace.location import SkillLocation, in_target_skills_root, root_name
from wave_lsp.core.workspace.runtime_config import configured_root_paths, workspace_trust


@dataclass(frozen=True)
class DiscoveryMiss:
    """Why a runtime does not find a SKILL.md, and what the author can do about it."""

    #: a clause that follows "Not discovered by <runtime>: " ("it does not load Claude Code plugins")
    why: str
    #: an imperative clause ("put a copy in a skills root it reads if it should load there")
    fix: str
    #: whether `discovery_gap` ends with the fix, as a sentence of its own (the folder cap's does)
    gap_gives_fix: bool = False
    #: `why` said of several runtimes at once ("they look only one level down into …"); empty
    #: when it is said of one runtime only
    they: str = ""
    #: the file lies deeper in a root than the runtime looks
    too_deep: bool = False

    @property
    def why_sentence(self) -> str:
        """`why` as a sentence of its own ("It does not load Claude Code plugins.")."""
        return f"{capitalized(self.why)}."


def discovery_gap(profile: RuntimeProfile, location: SkillLocation, home: Path | None = None,
                  personal: bool = True) -> str | None:
    """None when `profile`'s runtime finds the file where it lies; otherwise why it does not, as a
    clause that follows "Not discovered by <runtime>: " (a validator finds every file). `home`:
    the user's home folder (None: `Path.home()`, as discovery takes it)."""
    miss = discovery_miss(profile, location, home, personal)
    if miss is None:
        return None
    return f"{miss.why}. {capitalized(miss.fix)}" if miss.gap_gives_fix else miss.why


def discovery_miss(profile: RuntimeProfile, location: SkillLocation, home: Path | None = None,
                   personal: bool = True) -> DiscoveryMiss | None:
    """`discovery_gap`'s answer with what the author can do about it (for the messages)."""
    miss = _miss_where_it_lies(profile, location, home, personal)
    if miss is None or _linked_from_a_root(profile, location, home, personal):
        return None
    return miss


def _linked_from_a_root(profile: RuntimeProfile, location: SkillLocation, home: Path | None,
                        personal: bool) -> bool:
    """The runtime finds the skill through a symbolic link: an entry of one of its roots, named
    as the skill's folder, leads to that folder (a skill is a folder of a root "or a symlink to
    one", `runtime_view`; Claude Code follows symlinked skill folders and loads them once,
    runtime-facts §3.4). `check` lists such a skill once, at its real path."""
    skill_dir = location.skill_dir
    if skill_dir is None or location.project_root is None:
        return False
    from wave_lsp.core.workspace.runtime_view import roots  # only for a skill a root misses

    real = os.path.realpath(skill_dir)
    for root in roots(profile, location.project_root, home, personal):
        entry = root.path / skill_dir.name
        if entry != skill_dir and entry.is_symlink() and os.path.realpath(entry) == real:
            return True
    return False


def _miss_where_it_lies(profile: RuntimeProfile, location: SkillLocation, home: Path | None,
                        personal: bool) -> DiscoveryMiss | None:
    if not profile.scans_roots:
        return None
    home = home if home is not None else Path.home()
    depth = location.depth_in_root
    if location.scope == "plugin":
        if not (profile.loads_claude_plugins and in_target_skills_root(location, profile)):
            return DiscoveryMiss("it does not load Claude Code plugins", _ELSEWHERE_FIX)
        return None if depth is None or profile.finds_at_depth(depth) else _depth_miss(
            profile, root_name(location), depth)
    if depth is not None and in_target_skills_root(location, profile) \
            and profile.finds_at_depth(depth):
        return (_skipped_gap(profile, location) or _trust_gap(profile, location, home, personal)
                or _cap_gap(profile, location))
    if _in_configured_root(profile, location, home, personal):
        return None
    root = root_name(location)
    if depth is not None and in_target_skills_root(location, profile):
        return _depth_miss(profile, root, depth)
    return DiscoveryMiss(f"it does not look for it in `{root}`" if root
                         else "it lies in no skills root", _ELSEWHERE_FIX)


def _depth_miss(profile: RuntimeProfile, root: str, depth: int) -> DiscoveryMiss:
    """It scans the root, but not `depth` folders down (0: a file directly in the root)."""
    deepest = profile.max_scan_depth
    if depth < profile.min_scan_depth:
        why, they = (f"it does not read a file directly in `{root}`",
                     f"they do not read a file directly in `{root}`")
    elif deepest == 1:
        why, they = (f"it looks only one level down into `{root}`",
                     f"they look only one level down into `{root}`")
    else:
        why, they = (f"it looks at most {deepest} levels down into `{root}`",
                     f"they look at most {deepest} levels down into `{root}`")
    return DiscoveryMiss(why, f"move it to `{root}/<skill-name>/SKILL.md` if it should load there",
                         they=they, too_deep=depth > (deepest or depth))


#: what to do about a skill that lies where a runtime does not look
_ELSEWHERE_FIX = "put a copy in a skills root it reads if it should load there"


def _skipped_gap(profile: RuntimeProfile, location: SkillLocation) -> DiscoveryMiss | None:
    """A deep scan (`runtime_view._deep_entries`) does not enter some folder on the way."""
    from wave_lsp.core.workspace.runtime_view import scanned_root

    root, path = location.skills_root, location.path
    if root is None or path is None:
        return None
    scan = scanned_root(profile, root, location.scope, "")
    if not scan.deep:
        return None  # a one-level scan lists every folder of the root
    for part in path.parent.relative_to(root).parts:
        if part in scan.skipped or (scan.skips_dot_folders and part.startswith(".")):
            return DiscoveryMiss(
                f"its scan of `{root_name(location)}` does not enter folders named `{part}`",
                f"move the skill out of `{part}` if it should load there")
    return None


def _trust_gap(profile: RuntimeProfile, location: SkillLocation, home: Path | None,
               personal: bool) -> DiscoveryMiss | None:
    if location.scope != "project" or location.project_root is None:
        return None
    if workspace_trust(profile, location.project_root, home, personal) != "untrusted":
        return None
    why = ("the `workspace-trust` setting says so" if profile.workspace_trust == "untrusted"
           else f"`~/{profile.trust_folders_file}` does not trust it")
    return DiscoveryMiss("it loads workspace skills only in a trusted folder, and "
                         f"`{location.project_root}` is not trusted ({why})",
                         f"trust the project folder in {profile.runtime} if its skills should "
                         "load there")


def _cap_gap(profile: RuntimeProfile, location: SkillLocation) -> DiscoveryMiss | None:
    cap = profile.max_scan_folders
    root, path = location.skills_root, location.path
    if cap is None or root is None or path is None:
        return None
    from wave_lsp.core.workspace.runtime_view import scanned_root, within_cap

    if within_cap(scanned_root(profile, root, location.scope, ""), path.parent):
        return None
    return DiscoveryMiss(f"its scan of `{root_name(location)}` stops after {cap:,} folders "
                         "(breadth first, in the order the file system lists them; wave-lsp "
                         "follows name order) and does not reach this one",
                         "move the skill up, or keep other folders (`node_modules`, build output) "
                         "out of the skills root", gap_gives_fix=True)


def _in_configured_root(profile: RuntimeProfile, location: SkillLocation, home: Path | None,
                        personal: bool) -> bool:
    """The file lies below a root the runtime's config names, at a depth it scans there."""
    path, project = location.path, location.project_root
    if path is None or project is None or not profile.configured_roots:
        return False
    for root, config, _file in configured_root_paths(profile, project, home, personal):
        if root not in path.parents:
            continue
        depth = len(path.parent.relative_to(root).parts)
        if config.scan == "any-depth" or profile.finds_at_depth(depth):
            return True
    return False
