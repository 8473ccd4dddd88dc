"""The skills and agents known around the document being edited (docs/design/product.md *Language server*).

`SkillIndex` holds a summary of every SKILL.md under the workspace folders and, when the settings
allow, the personal skills roots (`~/.agents/skills`, `~/.claude/skills`, `~/.wave/skills`). It is
what `/skill-name` completion, hover and go-to-definition ask. Open documents update their entry
with the editor's text. Agents are the built-ins of the schema plus the agent files found in
`.wave/agents/` and `.claude/agents/` of each folder and of the home directory.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.facts.profiles import ALL_SKILLS_ROOTS
from wave_lsp.core.invocation.listing import ListingEntry
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.reading import load_document
from wave_lsp.core.workspace.discovery import find_skill_files
from wave_lsp.core.workspace.folder_facts import FolderFacts
from wave_lsp.core.workspace.location import SKILL_FILE
from wave_lsp.core.workspace.runtime_view import SkillSummary, summary_of_document
from wave_lsp.core.workspace.session import WorkspaceSession

AGENT_FOLDERS = (".wave/agents", ".claude/agents")
#: more SKILL.md files than this in the workspace are not summarised (the rest stay unknown)
MAX_INDEXED = 20_000


@dataclass(frozen=True, slots=True)
class SkillEntry:
    name: str  #: the name it is invoked by (`plugin:skill` for plugin skills)
    path: Path  #: the SKILL.md
    scope: str
    description: str
    argument_hint: str | None
    listing: ListingEntry

    @property
    def skill_dir(self) -> Path:
        return self.path.parent


@dataclass(frozen=True, slots=True)
class AgentEntry:
    name: str
    description: str
    path: Path | None  #: None for a built-in agent


def entry_of(path: Path, summary: SkillSummary) -> SkillEntry:
    return SkillEntry(name=summary.listing.name, path=path, scope=summary.scope,
                      description=summary.description, argument_hint=summary.argument_hint,
                      listing=summary.listing)


class SkillIndex:
    """Summaries of the SKILL.md files around the workspace, keyed by absolute path."""

    def __init__(self, session: WorkspaceSession | None = None) -> None:
        #: where per-file summaries are remembered (shared with the checks of the same session)
        self.session = session or WorkspaceSession()
        self._entries: dict[Path, SkillEntry] = {}
        self.folders: list[Path] = []
        self.home: Path | None = None

    def rebuild(self, folders: Iterable[Path], settings: Settings) -> None:
        self.folders = [folder.resolve() for folder in folders]
        self.home = settings.home or Path.home()
        roots = [folder for folder in self.folders if folder.is_dir()]
        if settings.personal:
            roots += [self.home / root for root in ALL_SKILLS_ROOTS if (self.home / root).is_dir()]
        roots += self._roots_outside(roots, settings)
        entries: dict[Path, SkillEntry] = {}
        facts = FolderFacts()  # what the walk learns about folders serves locating the skills
        found = (path.absolute() for path in find_skill_files(roots, facts)
                 if path.name == SKILL_FILE)
        # the first MAX_INDEXED readable skills in the walk's order, read in batches (each read
        # in two processes when it is large: `WorkspaceSession.summaries`)
        while len(entries) < MAX_INDEXED:
            batch = list(itertools.islice(found, MAX_INDEXED - len(entries)))
            if not batch:
                break
            for path, summary in zip(batch, self.session.summaries(batch, self.home, facts),
                                     strict=True):
                if summary is not None:
                    entries[path] = entry_of(path, summary)
        self._entries = entries

    def _roots_outside(self, walked: list[Path], settings: Settings) -> list[Path]:
        """The skills roots the target's discovery scans from each workspace folder that lie
        outside the folders walked already: the parents a runtime walks up to (Codex, OpenCode)
        and the roots its config files add (docs/design/product.md *Discovery*). With no target
        configured, those of every runtime."""
        from wave_lsp.core.facts.profiles import PROFILES
        from wave_lsp.core.workspace.runtime_view import roots

        profile = settings.profile
        profiles = ([p for p in PROFILES.values() if p.kind == "runtime"] if settings.auto_target
                    else list(profile.members or (profile,)))
        found: list[Path] = []
        for folder in self.folders:
            for candidate in profiles:
                for root in roots(candidate, folder, self.home, settings.personal):
                    path = root.path
                    if root.scope == "project" and path not in found and path.is_dir() and \
                            not any(path == w or w in path.parents for w in walked):
                        found.append(path)
        return found

    def update(self, path: Path, document: SkillDocument) -> None:
        if path.name == SKILL_FILE:
            absolute = path.absolute()
            self._entries[absolute] = entry_of(
                absolute, summary_of_document(absolute, document, self.home))

    def refresh(self, path: Path) -> None:
        """Re-read `path` from disk (it changed, appeared or disappeared), through the session's
        summaries (so a snapshot that re-read it already is not parsed again)."""
        absolute = path.absolute()
        summary = self.session.summary(absolute, self.home) if path.name == SKILL_FILE else None
        if summary is None:
            self._entries.pop(absolute, None)
        else:
            self._entries[absolute] = entry_of(absolute, summary)

    def follow(self, path: Path, deleted: bool) -> None:
        """A file event: a SKILL.md is re-read; a skill folder that appeared is read, one that
        went away (or a folder holding skills) is dropped."""
        if path.name.lower() == SKILL_FILE.lower():
            self.refresh(path)
            return
        absolute = path.absolute()
        if not deleted:
            if (absolute / SKILL_FILE).is_file():
                self.refresh(absolute / SKILL_FILE)
            return
        if self._entries.pop(absolute / SKILL_FILE, None) is not None or absolute.suffix:
            return  # a skill folder, or a file: no skill lies below it
        prefix = f"{absolute}{os.sep}"
        for gone in [p for p in self._entries if str(p).startswith(prefix)]:
            del self._entries[gone]

    def entry(self, path: Path) -> SkillEntry | None:
        """The entry of one SKILL.md (its editor text when it is open and was analysed)."""
        return self._entries.get(path.absolute())

    def skills(self) -> list[SkillEntry]:
        return sorted(self._entries.values(), key=lambda entry: (entry.name, str(entry.path)))

    def named(self, name: str) -> list[SkillEntry]:
        return [entry for entry in self.skills() if entry.name == name]

    def agents(self) -> list[AgentEntry]:
        agent = schema.field_spec("agent")
        found = {name: AgentEntry(name, "built-in agent", None)
                 for name in (agent.values if agent else ())}
        bases = [*self.folders, *([self.home] if self.home else [])]
        for base in bases:
            for folder in AGENT_FOLDERS:
                directory = base / folder
                if not directory.is_dir():
                    continue
                for path in sorted(directory.glob("*.md"))[:500]:
                    entry = _agent(path)
                    found.setdefault(entry.name, entry)
        return sorted(found.values(), key=lambda entry: entry.name.lower())


def _agent(path: Path) -> AgentEntry:
    document = load_document(path)
    name = document.value("name") if document else None
    description = document.value("description") if document else None
    return AgentEntry(name.strip() if isinstance(name, str) and name.strip() else path.stem,
                      description.strip() if isinstance(description, str) else "", path)
