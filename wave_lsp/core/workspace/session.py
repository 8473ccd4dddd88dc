"""The workspace session: one owner for everything remembered about the files on disk, and the
immutable project snapshots the rules read (docs/design/product.md *Discovery*;
docs/design/README.md, layering).

A `WorkspaceSession` belongs to whoever owns a run: the CLI makes one per `check` (summaries, git
roots and folder listings read once for the run; no parsed document kept, so memory stays flat),
the language server one per session (re-checked at most every `freshness_seconds`, and at once
after `expire()` when files change). Nothing about the disk is
remembered anywhere else in the package, so two sessions never share state by accident.

A `ProjectSnapshot` (`wave_lsp.core.workspace.snapshot`) is what one runtime loads from one
project at one moment: the skills in precedence order, shadowing resolved, grouped by name, and the
listing of each load group. Rules receive it through their `CheckContext` and never see how it was
built. `apply_changes` makes the language server's file events update the remembered snapshots
incrementally (docs/design/product.md *Incremental re-indexing*).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.disk_view import ListingCache
from wave_lsp.core.workspace.folder_facts import FolderFacts
from wave_lsp.core.workspace.location import SKILL_FILE, find_git_root

if TYPE_CHECKING:
    from wave_lsp.core.workspace.gitignore import GitIgnore
    from wave_lsp.core.workspace.runtime_view import SkillSummary
    from wave_lsp.core.workspace.snapshot import FileChange, ProjectSnapshot, SnapshotChange

#: a session forgets its oldest summaries beyond this many files (bounded memory)
MAX_SUMMARIES = 100_000
#: `summaries` of this many files or more use two processes where the system can fork
PARALLEL_FROM = 1_000
#: and its project snapshots beyond this many (profile, project, home) combinations
MAX_PROJECTS = 32


@dataclass(slots=True)
class WorkspaceChange:
    """What `WorkspaceSession.apply_changes` changed in the remembered snapshots."""

    #: some snapshot could not follow the change and is rebuilt: anything may have changed
    full: bool = False
    names: set[str] = field(default_factory=set)
    groups: set[str] = field(default_factory=set)
    everywhere: bool = False

    def add(self, change: SnapshotChange) -> None:
        self.names |= change.names
        self.groups |= change.groups
        self.everywhere = self.everywhere or change.everywhere

    @property
    def empty(self) -> bool:
        return not self.full and not self.names and not self.groups and not self.everywhere


#: "not looked up yet" in the caches whose values may be None
_UNKNOWN = object()


@dataclass(slots=True)
class _Remembered:
    snapshot: ProjectSnapshot
    checked_at: float
    home: Path | None = None  #: whose personal roots it holds (the summaries are read with it)
    #: `expire` was called: look at every root again, watched or not
    whole: bool = False


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
    #: folders whose changes arrive as file events (`watch`)
    watched: tuple[str, ...] = ()
    #: how many times `apply_changes` ran (a listing that overlaps one is not trusted)
    _events: int = 0
    _ignore_specs: dict[tuple[Path, int], GitIgnore | None] = field(
        default_factory=dict)
    #: folder listings for the reference rules, each trusted while its folder is unchanged
    #: (`disk_view`: exact without `expire`, so nothing to clear)
    listings: ListingCache = field(default_factory=ListingCache)
    #: what locating skills has learnt about folders, for a session that is one snapshot of the
    #: disk (`freshness_seconds` None: a CLI run); None for a language-server session, whose
    #: folders may change between two analyses
    _pass_facts: FolderFacts | None = None
    #: a SKILL.md found under this folder that a link leads out of it is left out of every
    #: project view, unread (the MCP server's root; `runtime_view.runtime_skills`)
    confine: Path | None = None

    @property
    def pass_facts(self) -> FolderFacts | None:
        """`FolderFacts` for every `locate` of this session when it is one snapshot of the disk
        (the same answers as without, fewer `stat`s: `folder_facts`), else None."""
        if self.freshness_seconds is not None:
            return None
        if self._pass_facts is None:
            self._pass_facts = FolderFacts()
        return self._pass_facts

    # -- per-file summaries ---------------------------------------------------------------------
    def summary(self, path: Path, home: Path | None, info: os.stat_result | None = None,
                facts: FolderFacts | None = None) -> SkillSummary | None:
        """The summary of one SKILL.md, read once per file version (mtime and size); `facts`:
        what the current pass over the disk knows about folders."""
        from wave_lsp.core.workspace.runtime_view import read_summary  # only where skills are read

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
        summary = read_summary(path, home, self.keep_documents, facts, info)
        if summary is None:
            self._summaries.pop(key, None)
            return None
        if len(self._summaries) >= MAX_SUMMARIES:
            self._summaries.clear()
        self._summaries[key] = (info.st_mtime_ns, info.st_size, str(home), summary)
        return summary

    def summaries(self, paths: Sequence[Path], home: Path | None,
                  facts: FolderFacts | None = None) -> list[SkillSummary | None]:
        """`summary` of each path, in order; from `PARALLEL_FROM` files on, the second half is read
        in a forked copy of the process when the system can (`forked`), and what it read is
        remembered here as if read here."""
        if len(paths) < PARALLEL_FROM:
            return [self.summary(path, home, facts=facts) for path in paths]
        from wave_lsp.core.workspace.forked import in_two_processes  # pickle, select, signal: only here

        kept = in_two_processes(paths, partial(self._kept_summaries, home, facts))
        found: list[SkillSummary | None] = []
        for path, remembered in zip(paths, kept, strict=True):
            if remembered is None:
                self._summaries.pop(str(path), None)
                found.append(None)
                continue
            if len(self._summaries) >= MAX_SUMMARIES:
                self._summaries.clear()
            self._summaries[str(path)] = remembered
            found.append(remembered[3])
        return found

    def _kept_summaries(self, home: Path | None, facts: FolderFacts | None,
                        paths: Sequence[Path]) -> list[tuple[int, int, str, SkillSummary] | None]:
        """Each path's summary with the file version it was read at (None: unreadable)."""
        kept: list[tuple[int, int, str, SkillSummary] | None] = []
        for path in paths:
            summary = self.summary(path, home, facts=facts)
            kept.append(self._summaries.get(str(path)) if summary is not None else None)
        return kept

    # -- project snapshots ----------------------------------------------------------------------
    def project(self, profile: RuntimeProfile, root: Path | None, home: Path | None,
                personal: bool = True) -> ProjectSnapshot:
        """What `profile` loads from `root` now; rebuilt only when a SKILL.md of a skills root
        changed (looked at after `freshness_seconds`, or after `expire`)."""
        # a one-file check outside every skills root builds no snapshot: imported here, not at
        # start-up (tests/cli/test_start_up.py)
        from wave_lsp.core.workspace.runtime_view import list_roots, runtime_skills, signature
        from wave_lsp.core.workspace.snapshot import ProjectSnapshot, unwatched_unchanged

        key = (profile, str(root), str(home), personal)
        remembered = self._projects.get(key)
        now = time.monotonic()
        if remembered is not None and self._fresh(remembered, now):
            return remembered.snapshot
        if remembered is not None and self.watched and not remembered.whole and \
                unwatched_unchanged(remembered.snapshot, self._is_watched):
            remembered.checked_at = now  # the rest is kept in step by `apply_changes`
            return remembered.snapshot
        absolute = Path(os.path.abspath(root)) if root is not None else None
        events = self._events
        listed = list_roots(profile, absolute, home, personal)
        disk = signature(listed)
        if remembered is None or remembered.snapshot.signature != disk:
            facts = FolderFacts()
            skills = runtime_skills(profile, root, home, personal, listed,
                                    lambda path, home, info: self.summary(path, home, info, facts),
                                    confine=self.confine)
            if len(self._projects) >= MAX_PROJECTS:
                self._projects.clear()
            remembered = _Remembered(ProjectSnapshot.of(profile, absolute, listed, skills), now,
                                     home)
            self._projects[key] = remembered
        # a file event while the disk was listed (the language server lists in a worker thread)
        # may be missing from what was kept: look at everything again on next use
        raced = events != self._events
        remembered.checked_at = 0.0 if raced else now
        remembered.whole = raced
        return remembered.snapshot

    def watch(self, folders: Iterable[Path]) -> None:
        """Changes under `folders` arrive as file events (`apply_changes`): looking at the disk
        after `freshness_seconds` then covers only the roots and linked skills outside them."""
        found: set[str] = set()
        for folder in folders:
            found |= {os.path.abspath(folder), os.path.realpath(folder)}
        self.watched = tuple(sorted(found))

    def _is_watched(self, path: str) -> bool:
        return any(path == folder or path.startswith(folder + os.sep) for folder in self.watched)

    def _fresh(self, remembered: _Remembered, now: float) -> bool:
        if self.freshness_seconds is None:
            return remembered.checked_at > 0
        return now - remembered.checked_at < self.freshness_seconds

    def known_document(self, path: Path, text: str) -> SkillDocument | None:
        """The document a snapshot already parsed for this file and text, if any."""
        # a copy: the language server's worker thread reads the session while the event loop
        # may add a project (tuple() copies the values without releasing the GIL)
        projects = tuple(self._projects.values())
        if not projects:
            return None
        real = self.real_folder(path.parent)
        for remembered in projects:
            skill = remembered.snapshot.by_real_dir.get(real)
            document = skill.document if skill is not None else None
            if document is not None and skill is not None and skill.path.name == path.name \
                    and document.text == text:
                return document
        return None

    # -- other facts about the disk -------------------------------------------------------------
    def real_folder(self, folder: Path) -> str:
        """`os.path.realpath(folder)`: once per folder and run when the session is one snapshot
        of the disk (`pass_facts`; a check asks it for the skill's folder from several rules and
        to find the snapshot's document, an `lstat` per part of the path each time), else
        asked now."""
        facts = self.pass_facts
        if facts is None:
            return os.path.realpath(folder)
        return facts.answer("realpath", str(folder), os.path.realpath)

    def git_root(self, folder: Path) -> Path | None:
        # one lookup, no store-then-read: `expire` may clear the dict from the event loop while
        # the language server's worker thread is here
        known = self._git_roots.get(folder, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]  # a Path or None once stored
        # one pass over the disk: the folders above, shared by every skill, asked once
        found = self._git_roots[folder] = find_git_root(folder, self.pass_facts)
        return found

    def ignore_spec(self, ignore_file: Path) -> GitIgnore | None:
        """The parsed `.gitignore` (None when it cannot be read), once per file version."""
        try:
            version = ignore_file.stat().st_mtime_ns
        except OSError:
            return None
        key = (ignore_file, version)
        known = self._ignore_specs.get(key, _UNKNOWN)  # as in git_root: no store-then-read
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]  # a spec or None once stored
        from wave_lsp.core.workspace.gitignore import GitIgnore

        spec: GitIgnore | None
        try:
            lines = ignore_file.read_text("utf-8").splitlines()
            spec = GitIgnore.from_lines(lines)
        except (OSError, UnicodeDecodeError):
            spec = None
        self._ignore_specs[key] = spec
        return spec

    def apply_changes(self, changes: Iterable[tuple[Path, FileChange]]) -> WorkspaceChange:
        """Files changed on disk (the language server's file events): re-read the changed skills
        and derive each remembered snapshot from its previous state, without listing the roots
        again; a snapshot the change may restructure (a new root, a plugin manifest, a symbolic
        link involved) is forgotten and built again on next use."""
        changes = list(changes)
        self._events += 1
        self.forget_summaries(path for path, _change in changes)
        result = WorkspaceChange()
        for key, remembered in tuple(self._projects.items()):  # a copy, as in known_document
            outcome = self._update(remembered, changes)
            if outcome is None:  # built again from the disk on next use
                self._projects.pop(key, None)
                result.full = True
                continue
            remembered.snapshot, change = outcome
            result.add(change)
        return result

    def _update(self, remembered: _Remembered, changes: list[tuple[Path, FileChange]]
                ) -> tuple[ProjectSnapshot, SnapshotChange] | None:
        from wave_lsp.core.workspace.snapshot import SnapshotChange, changed_entries, updated

        snapshot = remembered.snapshot
        entries: list[tuple[int, str]] = []
        for path, change in changes:
            touched = changed_entries(snapshot, path, change)
            if touched is None:
                return None
            entries += touched
        if not entries:
            return snapshot, SnapshotChange()
        home = remembered.home
        return updated(snapshot, entries, lambda path, info: self.summary(path, home, info))

    def forget_summaries(self, paths: Iterable[Path]) -> None:
        """These files (or the SKILL.md of these folders) changed: read them again on next use,
        even when their mtime and size look the same."""
        for path in paths:
            self._summaries.pop(str(path), None)
            self._summaries.pop(str(path / SKILL_FILE), None)

    def projects(self) -> list[ProjectSnapshot]:
        """The snapshots remembered now."""
        return [remembered.snapshot for remembered in tuple(self._projects.values())]

    def expire(self) -> None:
        """Files changed: look at the disk again on next use (unchanged files are not re-read)."""
        for remembered in tuple(self._projects.values()):  # a copy, as in known_document
            remembered.checked_at = 0.0
            remembered.whole = True
        self._git_roots.clear()
