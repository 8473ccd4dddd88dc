"""Where does this skill load? For each runtime: whether it discovers the file, whether it loads
it, and under which command name (docs/design/product.md *Where a skill loads*).

One answer for `wave-lsp list --targets all` (table and JSON), the hover on `name` and the MCP
`list_skills` tool. Discovery is decided from where the file lies (`location`): a skills root the
profile scans, at a depth it scans (`RuntimeProfile.scans_root`, `finds_at_depth`), or a Claude
Code plugin for the runtimes that load those; loading is the one verdict of
`wave_lsp.core.checking.loading`; the command name is the profile's (`command_name`: the folder for
Claude Code, `name` with Gemini CLI's replaced characters, `$name` for Codex).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from wave_lsp.core.checking.loading import load_verdict
from wave_lsp.core.facts.profiles import PROFILES, RuntimeProfile
from wave_lsp.core.invocation.listing import user_command
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import SkillLocation
from wave_lsp.core.workspace.reach import discovery_gap
from wave_lsp.core.workspace.session import WorkspaceSession

#: every runtime a skill can be loaded by (not the aggregate `portable`), in target order
RUNTIMES: tuple[RuntimeProfile, ...] = tuple(p for p in PROFILES.values() if p.kind != "aggregate")


@dataclass(frozen=True, slots=True)
class RuntimeLoad:
    """What one runtime does with one SKILL.md."""

    profile: RuntimeProfile
    discovers: bool  #: the runtime finds the file where it lies
    loads: bool  #: it finds it and loads it
    command: str | None  #: what the user types (`/deploy`, `$deploy`); None: no command
    stopped_by: str | None = None  #: the rule whose error drops the skill
    #: why the runtime does not find the file where it lies (None when it does)
    not_found_because: str | None = None

    def line(self) -> str:
        """One line for people: `Copilot: loads as /deploy`."""
        runtime = self.profile.runtime
        if not self.profile.scans_roots:
            state = "accepts it" if self.loads else f"rejects it ({self.stopped_by})"
            return f"{runtime}: {state}"
        if not self.discovers:
            because = f" ({self.not_found_because})" if self.not_found_because else ""
            return f"{runtime}: not discovered here{because}"
        if not self.loads:
            return f"{runtime}: discovered, not loaded ({self.stopped_by or 'unreadable'})"
        return f"{runtime}: loads as `{self.command}`" if self.command else (
            f"{runtime}: loads, for the model only (no command)")

    def to_json(self) -> dict[str, object]:
        return {"target": self.profile.name, "runtime": self.profile.runtime,
                "discovers": self.discovers, "loads": self.loads, "command": self.command,
                "stoppedBy": self.stopped_by, "notFoundBecause": self.not_found_because}


def discovers(profile: RuntimeProfile, location: SkillLocation, home: Path | None = None,
              personal: bool = True) -> bool:
    """`profile` finds this SKILL.md where it lies (`reach.discovery_gap`)."""
    return discovery_gap(profile, location, home, personal) is None


def where_it_loads(document: SkillDocument, location: SkillLocation,
                   session: WorkspaceSession | None = None,
                   profiles: tuple[RuntimeProfile, ...] = RUNTIMES, home: Path | None = None,
                   personal: bool = True) -> list[RuntimeLoad]:
    """For each runtime of `profiles`: does it discover, load and name this skill."""
    session = session or WorkspaceSession()
    answers: list[RuntimeLoad] = []
    for profile in profiles:
        gap = discovery_gap(profile, location, home, personal)
        verdict = load_verdict(document, location, profile, session)
        stopped = verdict.stopped_by.code if verdict.stopped_by is not None else None
        answers.append(RuntimeLoad(profile, gap is None, gap is None and verdict.loads,
                                   user_command(document, location, profile), stopped, gap))
    return answers


def where_rows(profiles: tuple[RuntimeProfile, ...], project: Path | None, home: Path,
               personal: bool, relative_to: Path | None,
               confine: Path | None = None) -> list[dict[str, object]]:
    """The rows of `list --targets` (and its JSON): every SKILL.md one of `profiles` discovers
    from `project`, in path order, with where it loads. A skill another skill of the same name
    shadows in a runtime is reported as not loaded there, stopped by SK130. `confine`: leave
    out, unread, a SKILL.md under it that a link leads out of it (`runtime_skills`)."""
    from wave_lsp.core.parsing.reading import load_document
    from wave_lsp.core.workspace.location import locate
    from wave_lsp.core.workspace.runtime_view import runtime_skills, shown_path

    # one snapshot of the disk for all rows
    session = WorkspaceSession(freshness_seconds=None, confine=confine)
    shadowed: dict[tuple[str, str], bool] = {}
    paths: dict[str, Path] = {}
    for profile in profiles:
        if not profile.scans_roots:
            continue
        for skill in runtime_skills(profile, project, home, personal, confine=confine):
            key = os.path.realpath(skill.path)
            paths.setdefault(key, skill.path)
            # a runtime that keeps both skills of a name (Codex) loads the "shadowed" one too
            shadowed[profile.name, key] = (skill.shadowed_by is not None
                                           and profile.collision != "both")
    rows: list[dict[str, object]] = []
    for key, path in sorted(paths.items(), key=lambda item: str(item[1])):
        document = load_document(path)
        if document is None:
            continue
        location = locate(path, home=home)
        answers = where_it_loads(document, location, session, profiles, home, personal)
        shown: list[dict[str, object]] = []
        for answer in answers:
            listed = (answer.profile.name, key) in shadowed
            if answer.profile.scans_roots and answer.discovers != listed:
                # discovery from this folder decides: a walk, a configured root, a folder cap
                answer = RuntimeLoad(answer.profile, listed, listed and answer.loads,
                                     answer.command, answer.stopped_by,
                                     None if listed else answer.not_found_because or
                                     "not in what it scans from this folder")
            if answer.loads and shadowed.get((answer.profile.name, key)):
                answer = RuntimeLoad(answer.profile, True, False, answer.command, "SK130")
            shown.append(answer.to_json())
        name = document.value("name")
        rows.append({"name": name.strip() if isinstance(name, str) and name.strip()
                     else location.dir_name, "path": shown_path(path, relative_to),
                     "runtimes": shown})
    return rows

