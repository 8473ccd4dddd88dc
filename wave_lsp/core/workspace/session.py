"""The workspace session: one owner for everything remembered about the files on disk, and the
immutable project snapshots the rules read (docs/design/product.md *Discovery*;
docs/design/README.md, layering).

A `WorkspaceSession` belongs to whoever owns a run: the CLI makes one per `check` (documents kept,
nothing re-read during the run), the language server one per session (re-checked at most every
`freshness_seconds`, and at once after `expire()` when files change). Nothing about the disk is
remembered anywhere else in the package, so two sessions never share state by accident.

A `ProjectSnapshot` is what one runtime loads from one project at one moment: the skills in
precedence order, shadowing resolved, grouped by name, and the rendered listing. Rules receive it
through their `CheckContext` and never see how it was built.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.runtime.listing import Listing, render_listing
from wave_lsp.core.runtime.profiles import RuntimeProfile
from wave_lsp.core.workspace.disk_view import ListingCache
from wave_lsp.core.workspace.location import find_git_root
from wave_lsp.core.workspace.runtime_view import (
    RuntimeSkill,
    SkillSummary,
    list_roots,
    read_summary,
    runtime_skills,
    signature,
)

if TYPE_CHECKING:
    import pathspec

#: a session forgets its oldest summaries beyond this many files (bounded memory)
MAX_SUMMARIES = 100_000
#: and its project snapshots beyond this many (profile, project, home) combinations
MAX_PROJECTS = 32


@dataclass(frozen=True, slots=True)
class ProjectSnapshot:
    """The skills one runtime loads from one project, as the disk was at `signature`."""

    profile: RuntimeProfile
    root: Path | None
    skills: tuple[RuntimeSkill, ...]
    by_real_dir: Mapping[str, RuntimeSkill]
    by_name: Mapping[str, tuple[RuntimeSkill, ...]]
    #: per load group (`RuntimeSkill.group`): the listing of a session that loads that group's
    #: skills, without the shadowed ones ("" is the project's own and personal skills)
    listings: Mapping[str, Listing]
    signature: tuple[object, ...]

    def listed_beside(self, skill: RuntimeSkill) -> list[RuntimeSkill]:
        """The skills that are not shadowed and are listed in a session that loads `skill`."""
        return [s for s in self.skills if s.shadowed_by is None and skill.lists_beside(s)]

    @staticmethod
    def of(profile: RuntimeProfile, root: Path | None, skills: list[RuntimeSkill],
           disk_signature: tuple[object, ...]) -> ProjectSnapshot:
        groups: dict[str, list[RuntimeSkill]] = {}
        for skill in skills:
            groups.setdefault(skill.name, []).append(skill)
        return ProjectSnapshot(
            profile=profile, root=root, skills=tuple(skills),
            by_real_dir=MappingProxyType({skill.real_dir: skill for skill in skills}),
            by_name=MappingProxyType({name: tuple(group) for name, group in groups.items()}),
            listings=MappingProxyType(_listings_by_group(skills)),
            signature=disk_signature)


def _listings_by_group(skills: list[RuntimeSkill]) -> dict[str, Listing]:
    """One listing per load group: its own skills that are not shadowed, plus the personal and
    managed ones (in every session), in precedence order; one pass over the skills."""
    everywhere = ("personal", "managed")
    members: dict[str, list[RuntimeSkill]] = {"": []}
    for skill in skills:
        members.setdefault(skill.group, [])
    for skill in skills:
        if skill.shadowed_by is not None:
            continue
        if skill.scope in everywhere:
            for group in members:
                members[group].append(skill)
        else:
            members[skill.group].append(skill)
    return {group: render_listing([s.listing for s in group_skills])
            for group, group_skills in members.items()}


#: "not looked up yet" in the caches whose values may be None
_UNKNOWN = object()


@dataclass(slots=True)
class _Remembered:
    snapshot: ProjectSnapshot
    checked_at: float


@dataclass(slots=True)
class WorkspaceSession:
    """Caches about the disk for one CLI run or one language-server session."""

    #: keep parsed documents with the summaries (a batch `check` parses each SKILL.md once)
    keep_documents: bool = False
    #: how long a project snapshot is trusted without looking at the disk again; None: for the
    #: whole session (a CLI run is one snapshot of the disk)
    freshness_seconds: float | None = 2.0
    _summaries: dict[str, tuple[int, int, str, SkillSummary]] = field(default_factory=dict)
    _projects: dict[tuple[object, ...], _Remembered] = field(default_factory=dict)
    _git_roots: dict[Path, Path | None] = field(default_factory=dict)
    _ignore_specs: dict[tuple[Path, int], pathspec.GitIgnoreSpec | None] = field(
        default_factory=dict)
    #: folder listings for the reference rules, each trusted while its folder is unchanged
    #: (`disk_view`: exact without `expire`, so nothing to clear)
    listings: ListingCache = field(default_factory=ListingCache)

    # -- per-file summaries ---------------------------------------------------------------------
    def summary(self, path: Path, home: Path | None,
                info: os.stat_result | None = None) -> SkillSummary | None:
        """The summary of one SKILL.md, read once per file version (mtime and size)."""
        if info is None:
            try:
                info = path.stat()
            except OSError:
                return None
        key = str(path)
        cached = self._summaries.get(key)
        if (cached is not None and cached[:3] == (info.st_mtime_ns, info.st_size, str(home))
                and (cached[3].document is not None or not self.keep_documents)):
            return cached[3]
        summary = read_summary(path, home, self.keep_documents)
        if summary is None:
            self._summaries.pop(key, None)
            return None
        if len(self._summaries) >= MAX_SUMMARIES:
            self._summaries.clear()
        self._summaries[key] = (info.st_mtime_ns, info.st_size, str(home), summary)
        return summary

    # -- project snapshots ----------------------------------------------------------------------
    def project(self, profile: RuntimeProfile, root: Path | None, home: Path | None,
                personal: bool = True) -> ProjectSnapshot:
        """What `profile` loads from `root` now; rebuilt only when a SKILL.md of a skills root
        changed (looked at after `freshness_seconds`, or after `expire`)."""
        key = (profile, str(root), str(home), personal)
        remembered = self._projects.get(key)
        now = time.monotonic()
        if remembered is not None and self._fresh(remembered, now):
            return remembered.snapshot
        absolute = Path(os.path.abspath(root)) if root is not None else None
        listed = list_roots(profile, absolute, home, personal)
        disk = signature(listed)
        if remembered is None or remembered.snapshot.signature != disk:
            skills = runtime_skills(profile, root, home, personal, listed, self.summary)
            if len(self._projects) >= MAX_PROJECTS:
                self._projects.clear()
            remembered = _Remembered(ProjectSnapshot.of(profile, absolute, skills, disk), now)
            self._projects[key] = remembered
        remembered.checked_at = now
        return remembered.snapshot

    def _fresh(self, remembered: _Remembered, now: float) -> bool:
        if self.freshness_seconds is None:
            return remembered.checked_at > 0
        return now - remembered.checked_at < self.freshness_seconds

    def known_document(self, path: Path, text: str) -> SkillDocument | None:
        """The document a snapshot already parsed for this file and text, if any."""
        # a copy: the language server's worker thread reads the session while the event loop
        # may add a project (tuple() copies the values without releasing the GIL)
        for remembered in tuple(self._projects.values()):
            skill = remembered.snapshot.by_real_dir.get(os.path.realpath(path.parent))
            document = skill.document if skill is not None else None
            if document is not None and skill is not None and skill.path.name == path.name \
                    and document.text == text:
                return document
        return None

    # -- other facts about the disk -------------------------------------------------------------
    def git_root(self, folder: Path) -> Path | None:
        # one lookup, no store-then-read: `expire` may clear the dict from the event loop while
        # the language server's worker thread is here
        known = self._git_roots.get(folder, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]  # a Path or None once stored
        found = self._git_roots[folder] = find_git_root(folder)
        return found

    def ignore_spec(self, ignore_file: Path) -> pathspec.GitIgnoreSpec | None:
        """The parsed `.gitignore` (None when it cannot be read), once per file version."""
        try:
            version = ignore_file.stat().st_mtime_ns
        except OSError:
            return None
        key = (ignore_file, version)
        known = self._ignore_specs.get(key, _UNKNOWN)  # as in git_root: no store-then-read
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]  # a spec or None once stored
        import pathspec  # only where a `.gitignore` exists

        spec: pathspec.GitIgnoreSpec | None
        try:
            lines = ignore_file.read_text("utf-8").splitlines()
            spec = pathspec.GitIgnoreSpec.from_lines(lines)
        except (OSError, UnicodeDecodeError):
            spec = None
        self._ignore_specs[key] = spec
        return spec

    def expire(self) -> None:
        """Files changed: look at the disk again on next use (unchanged files are not re-read)."""
        for remembered in tuple(self._projects.values()):  # a copy, as in known_document
            remembered.checked_at = 0.0
        self._git_roots.clear()
