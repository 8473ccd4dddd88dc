"""Project snapshots: what one runtime loads from one project at one moment, and how a snapshot
follows a file event without looking at the whole disk again (docs/design/product.md *Discovery*,
*Incremental re-indexing*).

A `ProjectSnapshot` holds the skills in precedence order with shadowing resolved, grouped by name
and by real folder, and the listing totals of every load group (summed when first asked for). It
is immutable: a change produces a new snapshot, whose maps share the old one's base
(`Layered`).

`changed_entries` tells which skill entries of a snapshot a changed path touches (a skill folder
or its SKILL.md directly in a skills root), or None when the change may alter what is discovered
at all (a skills root or an ancestor, a plugin manifest, `.git`, a folder or SKILL.md appearing
outside the roots, anything around a skill reached through a symbolic link). `updated` re-reads
those entries only and derives the new snapshot from the old one: the entry's skill, the shadowing
of the names it had and has, the listing totals of the groups whose members changed. It answers None
when it cannot do so exactly (an entry that reaches a folder another entry also reaches): the
caller then rebuilds from the disk. Tests compare both ways after every event
(tests/core/test_incremental.py).
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Generic, TypeVar

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.invocation.listing import ListingTotals, listing_totals
from wave_lsp.core.paths import is_below, is_within
from wave_lsp.core.workspace.location import MARKETPLACE, PLUGIN_MANIFESTS, SKILL_FILE
from wave_lsp.core.workspace.runtime_view import (
    Listed,
    Root,
    RuntimeSkill,
    SkillSummary,
    root_entries,
    runtime_name,
    winner_of,
)

#: the scopes whose skills load in every session, so they are in every group's listing
EVERYWHERE = ("personal", "managed")
#: names whose appearance, change or removal may change which roots and plugins exist
STRUCTURAL_NAMES = frozenset({".git", *(Path(m).name for m in PLUGIN_MANIFESTS),
                              *(Path(m).parent.name for m in PLUGIN_MANIFESTS),
                              Path(MARKETPLACE).name})


class FileChange(Enum):
    """What happened to a path (the LSP's `FileChangeType`, without the protocol)."""

    CREATED = 1
    CHANGED = 2
    DELETED = 3


#: (SKILL.md as reached from its root, real path of the skill folder, the SKILL.md's stat)
Entry = tuple[Path, str, os.stat_result]
#: how a snapshot obtains the summary of a SKILL.md: (path, its stat) -> summary
Summarize = Callable[[Path, os.stat_result], SkillSummary | None]


K = TypeVar("K")
V = TypeVar("V")


class _Gone:
    """What a layer holds for a key it removed."""


_GONE = _Gone()


class Layered(Mapping[K, V]):
    """An immutable map as a shared base plus a small layer of changes, so that deriving a
    snapshot copies only the changes, not the 5,000 or 50,000 entries of its maps; the layer is
    folded into a new base once it holds an eighth of it (amortised O(1) per change)."""

    __slots__ = ("_base", "_top")

    def __init__(self, base: dict[K, V], top: dict[K, V | _Gone] | None = None) -> None:
        self._base = base  # never changed once shared
        self._top: dict[K, V | _Gone] = top or {}

    def __getitem__(self, key: K) -> V:
        if key in self._top:
            value = self._top[key]
            if isinstance(value, _Gone):
                raise KeyError(key)
            return value
        return self._base[key]

    def __iter__(self) -> Iterator[K]:
        top = self._top
        yield from (key for key in self._base if key not in top)
        yield from (key for key, value in top.items() if not isinstance(value, _Gone))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def draft(self) -> LayeredDraft[K, V]:
        return LayeredDraft(self._base, self._top)

    def as_dict(self) -> dict[K, V]:
        """A plain dict of the same content (the base itself when there is no layer)."""
        if not self._top:
            return self._base
        return LayeredDraft(self._base, self._top).merged()

    def __eq__(self, other: object) -> bool:
        """Compared as dicts are, at C speed (the session compares disk signatures)."""
        if isinstance(other, Layered):
            other = other.as_dict()
        if not isinstance(other, Mapping):
            return NotImplemented
        return self.as_dict() == (other if isinstance(other, dict) else dict(other.items()))

    __hash__ = None  # type: ignore[assignment]  # a mapping is not hashable, as a dict is not


class LayeredDraft(Generic[K, V]):
    """The changes being made to a `Layered` map; `done()` gives the new map."""

    def __init__(self, base: dict[K, V], top: dict[K, V | _Gone]) -> None:
        self._base = base
        self._top = dict(top)

    def get(self, key: K) -> V | None:
        if key in self._top:
            value = self._top[key]
            return None if isinstance(value, _Gone) else value
        return self._base.get(key)

    def __setitem__(self, key: K, value: V) -> None:
        self._top[key] = value

    def pop(self, key: K) -> None:
        self._top[key] = _GONE

    def done(self, floor: int = 512) -> Layered[K, V]:
        """The new map; its layer is folded into a new base when it holds more than an eighth of
        the base (of `floor`, for small maps)."""
        if not self._top or len(self._top) * 8 <= max(len(self._base), floor):
            return Layered(self._base, self._top)
        return Layered(self.merged())

    def merged(self) -> dict[K, V]:
        base, top = self._base, self._top
        merged = {key: value for key, value in base.items() if key not in top}
        for key, value in top.items():
            if not isinstance(value, _Gone):
                merged[key] = value
        return merged


class GroupListings(Mapping[str, ListingTotals]):
    """The listing totals of every load group (`RuntimeSkill.group`): its own skills that are not
    shadowed, plus the personal and managed ones ("" is the project's own and personal skills).
    Each is summed when first asked for and kept: a snapshot never changes, and a derived
    snapshot carries the known totals over, adjusted by the skills that changed."""

    def __init__(self, skills: tuple[RuntimeSkill, ...], known: dict[str, ListingTotals]) -> None:
        self._skills = skills
        self._known = known

    def __getitem__(self, group: str) -> ListingTotals:
        known = self._known.get(group)
        if known is not None:
            return known
        if group != "" and not any(skill.group == group for skill in self._skills):
            raise KeyError(group)
        totals = self._known[group] = listing_totals(  # a race sums it twice: same result
            skill.listing for skill in self._skills if _listed_in(skill, group))
        return totals

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({"", *(skill.group for skill in self._skills)}))

    def __len__(self) -> int:
        return len({"", *(skill.group for skill in self._skills)})

    def carried(self, replaced: Iterable[tuple[RuntimeSkill | None, RuntimeSkill | None]]
                ) -> dict[str, ListingTotals]:
        """The totals already known, with each (before, after) skill pair applied."""
        known = dict(self._known)
        for old, new in replaced:
            for group, totals in known.items():
                if old is not None and _listed_in(old, group):
                    totals = totals.plus(old.listing, -1)
                if new is not None and _listed_in(new, group):
                    totals = totals.plus(new.listing)
                known[group] = totals
        return known


def _listed_in(skill: RuntimeSkill, group: str) -> bool:
    return skill.shadowed_by is None and (skill.group == group or skill.scope in EVERYWHERE)


@dataclass(frozen=True, slots=True)
class SnapshotChange:
    """What an update changed in a snapshot, for deciding which documents to check again."""

    #: names whose skills read differently to other skills' rules: added, removed, renamed,
    #: moved, listed differently or shadowed differently (a body edit changes no name)
    names: frozenset[str] = frozenset()
    #: load groups whose listing, or the frontmatter keys of one of whose skills, changed
    groups: frozenset[str] = frozenset()
    #: a personal or managed skill's listing changed: every group's listing changed
    everywhere: bool = False

    @property
    def empty(self) -> bool:
        return not self.names and not self.groups and not self.everywhere


class Collections:
    """The skills of a snapshot grouped into collections (`key`: a plugin's skills, or those of
    one skills root; with `by_group`, those of one load group), in load order; grouped when first
    asked for and kept, as `GroupListings` keeps its sums (a snapshot never changes)."""

    def __init__(self, skills: tuple[RuntimeSkill, ...]) -> None:
        self._skills = skills
        self._grouped: dict[bool, dict[tuple[str, str], tuple[RuntimeSkill, ...]]] = {}

    @staticmethod
    def key(skill: RuntimeSkill, by_group: bool = False) -> tuple[str, str]:
        if skill.root.plugin or by_group:
            return skill.group, ""
        return skill.group, str(skill.root.path)

    def of(self, skill: RuntimeSkill, by_group: bool = False) -> tuple[RuntimeSkill, ...]:
        grouped = self._grouped.get(by_group)
        if grouped is None:
            lists: dict[tuple[str, str], list[RuntimeSkill]] = {}
            for member in self._skills:
                lists.setdefault(self.key(member, by_group), []).append(member)
            grouped = self._grouped[by_group] = {k: tuple(v) for k, v in lists.items()}
        return grouped.get(self.key(skill, by_group), (skill,))


@dataclass(frozen=True, slots=True)
class ProjectSnapshot:
    """The skills one runtime loads from one project, as the disk was at `signature`."""

    profile: RuntimeProfile
    root: Path | None
    skills: tuple[RuntimeSkill, ...]
    by_real_dir: Layered[str, RuntimeSkill]
    by_name: Layered[str, tuple[RuntimeSkill, ...]]
    #: per load group: the totals of the listing of a session that loads that group's skills
    listings: GroupListings
    #: SKILL.md path -> (mtime, size) of every entry of every root
    signature: Layered[str, tuple[int, int]]
    #: the roots in precedence order (a skill's `rank` is its root's position), and their real paths
    roots: tuple[Root, ...] = ()
    real_roots: tuple[str, ...] = ()
    #: how many entries each root listed (for looking at the roots no file event covers)
    root_sizes: tuple[int, ...] = ()
    #: (rank, folder name) of each skill, in `skills` order (the order discovery lists them)
    keys: tuple[tuple[int, str], ...] = ()
    #: skills whose folder is reached through a symbolic link, and the SKILL.md paths that reach a
    #: folder another entry already loads: changes around them rebuild the snapshot
    linked: tuple[RuntimeSkill, ...] = ()
    duplicate_paths: frozenset[str] = field(default_factory=frozenset)
    #: the skills by collection (`Collections`), for the findings said once per collection
    collections: Collections = field(default_factory=lambda: Collections(()), compare=False)

    @staticmethod
    def of(profile: RuntimeProfile, root: Path | None, listed: Listed,
           skills: list[RuntimeSkill]) -> ProjectSnapshot:
        """The snapshot of a full discovery: `listed` roots and entries, `skills` resolved."""
        groups: dict[str, list[RuntimeSkill]] = {}
        for skill in skills:
            groups.setdefault(skill.name, []).append(skill)
        roots = tuple(found for found, _entries in listed)
        real_roots = tuple(os.path.realpath(found.path) for found in roots)
        ordered = tuple(skills)
        return ProjectSnapshot(
            profile=profile, root=root, skills=ordered,
            by_real_dir=Layered({skill.real_dir: skill for skill in skills}),
            by_name=Layered({name: tuple(group) for name, group in groups.items()}),
            listings=GroupListings(ordered, {}),
            signature=Layered({str(path): (info.st_mtime_ns, info.st_size)
                               for _root, entries in listed for path, _real, info in entries}),
            roots=roots, real_roots=real_roots, root_sizes=tuple(len(e) for _r, e in listed),
            keys=tuple(_key(skill) for skill in skills),
            linked=tuple(skill for skill in skills if _is_linked(skill, real_roots)),
            duplicate_paths=frozenset(str(path) for skill in skills for path in skill.duplicates),
            collections=Collections(ordered))


def _key(skill: RuntimeSkill) -> tuple[int, str]:
    return skill.rank, skill.path.parent.name


def _is_linked(skill: RuntimeSkill, real_roots: tuple[str, ...]) -> bool:
    return skill.real_dir != os.path.join(real_roots[skill.rank], skill.path.parent.name)


# -- which entries a changed path touches -------------------------------------------------------
def changed_entries(snapshot: ProjectSnapshot, path: Path,
                    change: FileChange) -> list[tuple[int, str]] | None:
    """The (root position, entry name) pairs whose skill `path` may change; None when the change
    may alter what is discovered (the caller rebuilds from the disk)."""
    text = os.path.abspath(path)
    if path.name in STRUCTURAL_NAMES:
        return None
    found: list[tuple[int, str]] = []
    inside_a_root = False
    for position, root in enumerate(snapshot.roots):
        for base in {str(root.path), snapshot.real_roots[position]}:
            if is_within(base, text):
                return None  # a skills root or a folder holding one
            if not is_below(text, base):
                continue
            inside_a_root = True
            if root.deep:  # a scan at other depths (Codex, OpenCode, Gemini CLI): list it again
                if os.path.basename(text).lower() == SKILL_FILE.lower() or \
                        change is not FileChange.CHANGED:
                    return None
                continue
            name, _, deeper = text[len(base) + 1:].partition(os.sep)
            if (root.only is None or name == root.only) and \
                    (deeper == "" or deeper.lower() == SKILL_FILE.lower()):
                found.append((position, name))
    for skill in snapshot.linked:
        if is_within(text, skill.real_dir) or is_within(skill.real_dir, text):
            return None
    if not inside_a_root and _may_add_a_root(text, change):
        return None
    return found


def _may_add_a_root(path: str, change: FileChange) -> bool:
    """A SKILL.md appearing or going outside the roots (a plugin manifest may list its folder),
    or a folder appearing (a plugin, or a folder of skills, moved in)."""
    if change is FileChange.CHANGED:
        return False
    if os.path.basename(path).lower() == SKILL_FILE.lower():
        return True
    return change is FileChange.CREATED and os.path.isdir(path)


def skill_entry(root: Root, name: str) -> Entry | None:
    """The entry `name` of `root` as `runtime_view.list_roots` lists it, or None: a folder (or a
    symbolic link to one) holding a regular `SKILL.md`."""
    if root.only is not None and name != root.only:
        return None
    folder = os.path.join(root.path, name)
    try:
        info = os.stat(os.path.join(folder, SKILL_FILE))
        if not stat.S_ISREG(info.st_mode) or not os.path.isdir(folder):
            return None
    except OSError:
        return None
    real = (os.path.realpath(folder) if os.path.islink(folder)
            else os.path.join(os.path.realpath(root.path), name))
    return Path(folder) / SKILL_FILE, real, info


def unwatched_unchanged(snapshot: ProjectSnapshot, watched: Callable[[str], bool]) -> bool:
    """Whether the parts of the snapshot no file event reports (`watched` says which paths are
    watched) are as the disk is: the entries of the roots outside the watched folders, and the
    SKILL.md of the skills reached through links to outside them."""
    for position, root in enumerate(snapshot.roots):
        if watched(str(root.path)) and watched(snapshot.real_roots[position]):
            continue
        entries = root_entries(root)
        if len(entries) != snapshot.root_sizes[position]:
            return False
        if any(snapshot.signature.get(str(path)) != (info.st_mtime_ns, info.st_size)
               for path, _real, info in entries):
            return False
    for skill in snapshot.linked:
        if watched(skill.real_dir):
            continue
        try:
            info = os.stat(skill.path)
        except OSError:
            return False
        if snapshot.signature.get(str(skill.path)) != (info.st_mtime_ns, info.st_size):
            return False
    return True


# -- deriving a snapshot ------------------------------------------------------------------------
class _Draft:
    """The maps of a snapshot being derived: copies of the old one's, edited in place."""

    def __init__(self, old: ProjectSnapshot) -> None:
        self.old = old
        self.skills = list(old.skills)
        self.keys = list(old.keys)
        self.by_real_dir = old.by_real_dir.draft()
        self.by_name = old.by_name.draft()
        self.signature = old.signature.draft()
        self.root_sizes = list(old.root_sizes)
        self.names: set[str] = set()
        self.inserted: list[RuntimeSkill] = []
        #: real dir -> the skill before the change (for the listings)
        self.before: dict[str, RuntimeSkill] = {}

    def position(self, key: tuple[int, str]) -> int:
        return bisect.bisect_left(self.keys, key)

    def at(self, key: tuple[int, str]) -> RuntimeSkill | None:
        index = self.position(key)
        if index < len(self.keys) and self.keys[index] == key:
            return self.skills[index]
        return None

    def remove(self, skill: RuntimeSkill) -> None:
        index = self.position(_key(skill))
        self._remember(skill)
        del self.skills[index], self.keys[index]
        self.by_real_dir.pop(skill.real_dir)
        members = tuple(s for s in self.by_name.get(skill.name) or () if s is not skill)
        self._set_members(skill.name, members)

    def insert(self, skill: RuntimeSkill) -> None:
        key = _key(skill)
        index = self.position(key)
        self.skills.insert(index, skill)
        self.keys.insert(index, key)
        self.by_real_dir[skill.real_dir] = skill
        self.inserted.append(skill)
        members = [*(self.by_name.get(skill.name) or ()), skill]
        members.sort(key=_key)
        self._set_members(skill.name, tuple(members))

    def replace(self, old: RuntimeSkill, new: RuntimeSkill) -> None:
        self.remove(old)
        self.insert(new)

    def _set_members(self, name: str, members: tuple[RuntimeSkill, ...]) -> None:
        self.names.add(name)
        if members:
            self.by_name[name] = members
        else:
            self.by_name.pop(name)

    def _remember(self, skill: RuntimeSkill) -> None:
        if not any(skill is new for new in self.inserted):  # only what the old snapshot held
            self.before.setdefault(skill.real_dir, skill)

    def reshadow(self) -> None:
        """Within each touched name, per group, the winner (`runtime_view.winner_of`) shadows
        the others."""
        for name in tuple(self.names):
            groups: dict[str, list[RuntimeSkill]] = {}
            for member in self.by_name.get(name) or ():
                groups.setdefault(member.group, []).append(member)
            for members in groups.values():
                winner = winner_of(members)
                for member in members:
                    wanted = None if winner is member else winner
                    if member.shadowed_by is not wanted:
                        copy = dataclasses.replace(member, shadowed_by=wanted,
                                                   duplicates=list(member.duplicates))
                        self.replace(member, copy)
                        if winner is member:
                            winner = copy

    def pairs(self) -> list[tuple[RuntimeSkill | None, RuntimeSkill | None]]:
        """(before, after) of every skill added, removed or replaced."""
        touched = dict.fromkeys([*self.before, *(skill.real_dir for skill in self.inserted)])
        return [(self.before.get(real), self.by_real_dir.get(real)) for real in touched
                if self.before.get(real) is not self.by_real_dir.get(real)]

    def change(self, pairs: list[tuple[RuntimeSkill | None, RuntimeSkill | None]]
               ) -> SnapshotChange:
        """Names whose skills read differently to the rules (a skill re-read with the same
        name, place, listing and winner is no change), groups whose listing changed."""
        names: set[str] = set()
        groups: set[str] = set()
        everywhere = False
        for old, new in pairs:
            both = [skill for skill in (old, new) if skill is not None]
            if old is None or new is None or _seen_state(old) != _seen_state(new):
                names.update(skill.name for skill in both)
            if old is not None and new is not None and _listed_state(old) == _listed_state(new):
                continue
            for skill in both:
                everywhere = everywhere or skill.scope in EVERYWHERE
                groups.add(skill.group)
        return SnapshotChange(frozenset(names), frozenset(groups), everywhere)

    def snapshot(self, pairs: list[tuple[RuntimeSkill | None, RuntimeSkill | None]]
                 ) -> ProjectSnapshot:
        old = self.old
        skills = tuple(self.skills)
        kept = old.listings.carried(pairs)
        live = [skill for skill in (*old.linked, *self.inserted)
                if self.by_real_dir.get(skill.real_dir) is skill]
        linked = tuple(skill for skill in live if _is_linked(skill, old.real_roots))
        return dataclasses.replace(
            old, skills=skills, by_real_dir=self.by_real_dir.done(), by_name=self.by_name.done(),
            listings=GroupListings(skills, kept), signature=self.signature.done(),
            keys=tuple(self.keys), linked=linked, root_sizes=tuple(self.root_sizes),
            collections=Collections(skills))


def _seen_state(skill: RuntimeSkill) -> tuple[object, ...]:
    """What the rules of other skills read of a skill: its name, place, listing, description
    and which skill shadows it."""
    winner = skill.shadowed_by.path if skill.shadowed_by is not None else None
    return (skill.name, skill.path, skill.real_dir, skill.root, skill.rank, skill.listing,
            skill.description, winner)


def _listed_state(skill: RuntimeSkill) -> tuple[object, ...]:
    """What a skill contributes to what its group's skills read together: whether it is listed,
    its entry, group, scope, and its frontmatter keys (SK070 is said once per collection, on
    the first skill that has a key: another skill's keys change what that one says)."""
    return (skill.shadowed_by is None, skill.listing, skill.group, skill.scope, skill.rank,
            skill.fields)


def updated(snapshot: ProjectSnapshot, entries: Iterable[tuple[int, str]],
            summarize: Summarize) -> tuple[ProjectSnapshot, SnapshotChange] | None:
    """`snapshot` with `entries` re-read from the disk, or None when that cannot be done exactly
    (an entry that reaches, or reached, a folder another entry also reaches)."""
    draft = _Draft(snapshot)
    for position, name in dict.fromkeys(entries):
        root = snapshot.roots[position]
        old_path = str(root.path / name / SKILL_FILE)
        old = draft.at((position, name))
        if old_path in snapshot.duplicate_paths or (old is not None and old.duplicates):
            return None
        entry = skill_entry(root, name)
        draft.root_sizes[position] += (entry is not None) - (old_path in snapshot.signature)
        draft.signature.pop(old_path)
        new = None
        if entry is not None:
            path, real, info = entry
            draft.signature[str(path)] = (info.st_mtime_ns, info.st_size)
            holder = draft.by_real_dir.get(real)
            if holder is not None and holder is not old:
                return None
            new = _runtime_skill(snapshot.profile, root, position, entry, summarize)
        if old is not None:
            draft.remove(old)
        if new is not None:
            draft.insert(new)
    draft.reshadow()
    pairs = draft.pairs()
    return draft.snapshot(pairs), draft.change(pairs)


def _runtime_skill(profile: RuntimeProfile, root: Root, rank: int, entry: Entry,
                   summarize: Summarize) -> RuntimeSkill | None:
    """As `runtime_view.runtime_skills` makes it (None when the SKILL.md cannot be read)."""
    path, real, info = entry
    summary = summarize(path, info)
    if summary is None:
        return None
    name = runtime_name(profile, root, path, summary)
    return RuntimeSkill(name, path, root.scope, root, rank, summary.listing, summary.description,
                        summary.document, real, fields=summary.fields)
