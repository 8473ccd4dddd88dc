"""Does the runtime load this skill at all? One decision for `check`, `list` and `preview`
(docs/design/rules.md *Does it load?*).

A skill does not load under a target when one of the rules the catalog marks `stops-loading` for
that target finds an error in it: a frontmatter that a strict loader cannot read, a missing or
invalid `name` or `description` under a loader that validates them. The decision uses the
catalog's severities, not the user's: silencing SK020 in a configuration does not make Wave load
the file. Only those rules run, so the decision is cheap enough for every row of `list`. Under an
aggregate (`portable`), a skill one of its runtimes drops does not load either, as `check` says.
`list`'s rows say besides whether the name runs the skill (SK130: another of the name wins) and
which command does; with no target configured they take the default target of `check`
(`default_skill_rows`, docs/design/rules.md *The default target*). Whether the target finds the
file at all is `wave_lsp.core.workspace.applies`.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from wave_lsp.core.checking.catalog import Severity, rule, rules
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.engine import run_rules
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.checking.messages import runtime_names as runtime_names  # (re-exported)
from wave_lsp.core.facts.profiles import (
    DEFAULT_PROFILE,
    PROFILES,
    RuntimeProfile,
    with_workspace_trust,
)
from wave_lsp.core.invocation.listing import (
    ListingEntry,
    name_alias,
    runtime_listing_entry,
    user_command,
)
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.reading import load_document
from wave_lsp.core.workspace.location import SkillLocation, locate
from wave_lsp.core.workspace.session import WorkspaceSession


@dataclass(frozen=True, slots=True)
class LoadVerdict:
    """Whether the target loads the skill; when it does not, the finding that stops it."""

    loads: bool
    stopped_by: Finding | None = None
    #: for an aggregate target (`portable`): the runtimes of its members that drop the skill
    dropped_by: tuple[str, ...] = ()

    def reason(self, profile: RuntimeProfile) -> str | None:
        """One sentence for users: why the runtime does not load the skill (None when it does)."""
        finding = self.stopped_by
        if finding is None:
            return None
        line = f", line {finding.range.start.line + 1}" if finding.range is not None else ""
        who = (f"{runtime_names(self.dropped_by)} {'does' if len(self.dropped_by) == 1 else 'do'}"
               if self.dropped_by else f"{profile.runtime} does")
        return f"{who} not load this skill ({finding.code}{line}): {finding.message}"

    def to_json(self) -> dict[str, object]:
        finding = self.stopped_by
        shown: dict[str, object] = {"loads": self.loads,
                                    "stoppedBy": None if finding is None else finding.code}
        if self.dropped_by:
            shown["droppedBy"] = list(self.dropped_by)
        return shown


def member_drops(document: SkillDocument, location: SkillLocation, settings: Settings,
                 session: WorkspaceSession, strict: bool = False
                 ) -> list[tuple[RuntimeProfile, list[Finding]]]:
    """For an aggregate target (`portable`, docs/design/rules.md *Targets*): each member runtime
    that does not load the skill, with the findings that stop it (errors, at the member's
    levels, of the rules that stop the member from loading), in the members' order."""
    dropped: list[tuple[RuntimeProfile, list[Finding]]] = []
    for member in settings.profile.members:
        codes = stopping_codes(member)
        if not codes:
            continue
        context = CheckContext(document=document, location=location,
                               settings=Settings(profile=member, home=settings.home,
                                                 personal=settings.personal,
                                                 settings_files=settings.settings_files),
                               session=session)
        raw = run_rules(context, codes.__contains__, strict=strict)
        stopping = [f for f in raw if f.code in codes and _level(f, member) == Severity.ERROR]
        if stopping:
            dropped.append((member, stopping))
    return dropped


@cache
def stopping_codes(profile: RuntimeProfile) -> frozenset[str]:
    """The codes whose errors mean `profile` does not load the skill. A validator (skills-ref)
    only accepts or rejects: any error of any rule it reports rejects the skill."""
    if profile.kind == "validator":
        return frozenset(code for code, entry in rules().items()
                         if entry.severity(profile) is not None)
    if not profile.catalog_column and profile.members:
        return frozenset().union(*(stopping_codes(member) for member in profile.members))
    return frozenset(code for code, entry in rules().items()
                     if profile.catalog_column in entry.stops_loading)


def load_verdict(document: SkillDocument, location: SkillLocation, profile: RuntimeProfile,
                 session: WorkspaceSession | None = None) -> LoadVerdict:
    """Run the rules that can stop loading under `profile` and decide. `session`: the caller's
    (a check's), so that a rule about the project (SK130 under a validator) does not snapshot
    the project again for every file. (`check` decides from the findings of its own run of the
    rules instead: `checker.check_file`.)"""
    codes = stopping_codes(profile)
    if not codes:
        return LoadVerdict(True)
    session = session or WorkspaceSession()
    settings = Settings(profile=profile)
    context = CheckContext(document=document, location=location, settings=settings,
                           session=session)
    verdict = verdict_from(run_rules(context, codes.__contains__), document, profile)
    if not verdict.loads or not profile.members:
        return verdict
    # an aggregate does not load a skill one of its runtimes drops (as `check` decides it,
    # `checker._name_members`); a validator's rejection is named there, and does not count
    drops = [(member, stopping) for member, stopping in
             member_drops(document, location, settings, session) if member.kind != "validator"]
    if not drops:
        return verdict
    first = copy.copy(min(drops[0][1], key=lambda f: (f.span.start, f.code)))
    first.severity = Severity.ERROR
    first.resolve(document.lines)
    return LoadVerdict(False, first, tuple(member.runtime for member, _ in drops))


def verdict_from(raw: Iterable[Finding], document: SkillDocument,
                 profile: RuntimeProfile) -> LoadVerdict:
    """The decision from the rules' raw findings (before any user override): the first error,
    at the catalog's severity for `profile`, of a rule that stops loading. The finding is copied,
    so a report that also shows it keeps the user's severity."""
    codes = stopping_codes(profile)
    stopping = [finding for finding in raw
                if finding.code in codes and _level(finding, profile) == Severity.ERROR]
    if not stopping:
        return LoadVerdict(True)
    first = copy.copy(min(stopping, key=lambda f: (f.span.start, f.code)))
    first.severity = Severity.ERROR
    first.resolve(document.lines)
    return LoadVerdict(False, first)


def _level(finding: Finding, profile: RuntimeProfile) -> Severity | None:
    return finding.level or rule(finding.code).severity(profile)


def skill_file_verdict(path: Path, profile: RuntimeProfile, home: Path | None,
                       session: WorkspaceSession | None = None) -> LoadVerdict:
    """The decision for a SKILL.md on disk (`list`): a file that cannot be read does not load."""
    document = load_document(path)
    if document is None:
        return LoadVerdict(False)
    return load_verdict(document, locate(path, home=home), profile, session)


def skill_rows(profile: RuntimeProfile, project: Path | None, home: Path,
               personal: bool, relative_to: Path | None,
               confine: Path | None = None,
               keep: Callable[[Path], bool] | None = None) -> list[dict[str, object]]:
    """The rows of `list --format json` (also the editor's List Skills and the MCP tool): every
    skill the target discovers from `project`, highest precedence first, with whether it loads
    and its line in the model's listing exactly as the runtime writes it (`listingLine`, None
    when the model does not see the skill; `listingChars` its length). A skill another of the same
    name shadows does not load (SK130, as `check` says). `command` is what the user types to run
    it, None when typing its name does not run it, and `unavailable` says why (the vocabulary of
    `preview`: not-loaded, shadowed, ambiguous, no-command). `confine`: leave out, unread, a
    SKILL.md under it that a link leads out of it (`runtime_skills`); `keep`: only the skills
    whose SKILL.md it accepts."""
    from wave_lsp.core.workspace.runtime_view import runtime_skills

    # one snapshot of the disk for all rows
    session = WorkspaceSession(freshness_seconds=None, confine=confine)
    skills = [skill for skill in runtime_skills(profile, project, home, personal, confine=confine)
              if keep is None or keep(skill.path)]
    shared = Counter((skill.group, skill.name) for skill in skills)
    rows = []
    labels = _Labels()
    for skill in skills:
        row = skill.to_json(relative_to)
        if profile.collision == "both":  # Codex lists every skill of a name (case cx-duplicate-name)
            row["shadowedBy"] = None
        document = load_document(skill.path)
        if document is None:
            rows.append({**row, "aliases": [], "activatesOn": None, "listingLine": None,
                         "command": None, "unavailable": "not-loaded",
                         **LoadVerdict(False).to_json()})
            continue
        location = locate(skill.path, home=home)
        alias = labels.take(name_alias(document, location, profile, skill.name),
                            skill.shadowed_by is None)
        entry = runtime_listing_entry(document, location, profile, labelled=alias is not None)
        row.update(aliases=[alias] if alias else [],
                   activatesOn=list(entry.activates_on) or None,
                   modelInvocable=entry.model_invocable,
                   userInvocable=entry.user_invocable, listingChars=entry.chars,
                   listingLine=entry.text or None)
        verdict = load_verdict(document, location, profile, session)
        unavailable = None if verdict.loads else "not-loaded"
        if verdict.loads and row["shadowedBy"] is not None:
            verdict, unavailable = LoadVerdict(False, _shadow_stand_in(document)), "shadowed"
        elif verdict.loads and profile.collision == "both" and shared[skill.group, skill.name] > 1:
            unavailable = "ambiguous"  # both load; a plain mention selects neither
        command = user_command(document, location, profile)
        if unavailable is None and command is None:
            unavailable = "no-command"
        rows.append({**row, "command": command if unavailable is None else None,
                     "unavailable": unavailable, **verdict.to_json()})
    if profile.lists_legacy_commands and project is not None and keep is None:
        rows += legacy_rows(profile, project, home, personal, relative_to, rows)
    return rows


def legacy_rows(profile: RuntimeProfile, project: Path, home: Path, personal: bool,
                relative_to: Path | None,
                skills: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows of the legacy command files (`runtime_view.legacy_commands`), marked `legacy`,
    after the skills': listed and invoked like a skill of their command's name; a skill of the
    same name wins (Claude Code 2.1.332, probes disc-legacy-command, disc-legacy-variants,
    disc-skill-beats-command)."""
    from wave_lsp.core.workspace.runtime_view import legacy_commands, shown_path

    winners = {str(row["name"]): row["path"] for row in skills if row.get("loads")}
    rows: list[dict[str, object]] = []
    for name, path in legacy_commands(profile, project, home if personal else None).items():
        document = load_document(path)
        location = locate(path, home=home)
        entry = runtime_listing_entry(document, location, profile) if document else None
        skill = winners.get(name)
        loads = document is not None and skill is None
        rows.append({
            "name": name, "scope": location.scope, "path": shown_path(path, relative_to),
            "modelInvocable": bool(entry and entry.model_invocable),
            "userInvocable": bool(entry and entry.user_invocable),
            "listingChars": entry.chars if entry else 0, "shadowedBy": skill,
            "aliases": [], "activatesOn": None,
            "listingLine": (entry.text or None) if entry and loads else None,
            "command": f"/{name}" if loads and entry and entry.user_invocable else None,
            "unavailable": None if loads else ("shadowed" if skill else "not-loaded"),
            "legacy": True, **LoadVerdict(loads).to_json()})
    return rows


def _shadow_stand_in(document: SkillDocument) -> Finding:
    """What names the loss of a name in a row's verdict: SK130, which `check` reports on it."""
    return Finding("SK130", "Another skill of the same name wins.", document.opener_span)


def default_skill_rows(project: Path | None, home: Path, personal: bool,
                       relative_to: Path | None, confine: Path | None = None,
                       trust: str = "auto") -> tuple[str, list[dict[str, object]]]:
    """`list` with no target configured: every skill a runtime discovers from `project`, each
    as the target `check` gives it sees it (`applies.target_for`: where it lives, one
    default for `check`, `list`, `preview`, the language server and the MCP server), so that
    `list` and `check` agree on what loads. Each row says its `target`; the rows of one target
    keep its precedence order, the targets in catalog order. Returns the document's target
    (the one every row got, `per-file`, or the default `wave` when there is no row) and the
    rows."""
    import os

    from wave_lsp.core.workspace.applies import target_for
    from wave_lsp.core.workspace.runtime_view import runtime_skills

    chosen: dict[str, RuntimeProfile] = {}
    for runtime in PROFILES.values():
        if runtime.kind != "runtime":
            continue
        for skill in runtime_skills(with_workspace_trust(runtime, trust), project, home, personal,
                                    confine=confine):
            key = os.path.realpath(skill.path)
            if key not in chosen:
                target = target_for(locate(skill.path, home=home))
                chosen[key] = with_workspace_trust(target, trust)
    rows: list[dict[str, object]] = []
    for target in dict.fromkeys(chosen.values()):
        wanted = {key for key, profile in chosen.items() if profile is target}
        for row in skill_rows(target, project, home, personal, relative_to, confine,
                              keep=_real_path_in(wanted)):
            rows.append({**row, "target": target.name, "checkedFor": target.runtime})
    names = {str(row["target"]) for row in rows}
    if not names:  # no skill anywhere: the default where none lives
        return DEFAULT_PROFILE.name, rows
    return (next(iter(names)) if len(names) == 1 else "per-file"), rows


def _real_path_in(paths: set[str]) -> Callable[[Path], bool]:
    """Whether a path leads (links followed) to one of `paths`."""
    import os

    return lambda path: os.path.realpath(path) in paths


def runtime_listing(profile: RuntimeProfile, project: Path | None, home: Path,
                    personal: bool) -> list[ListingEntry]:
    """The entries of the model's listing, each exactly as `profile`'s runtime writes its line
    (`runtime_listing_entry`), for the skills that win their name, highest precedence first."""
    from wave_lsp.core.workspace.runtime_view import runtime_skills

    entries = []
    labels = _Labels()
    for skill in runtime_skills(profile, project, home, personal):
        if skill.shadowed_by is not None:
            continue
        document = load_document(skill.path)
        if document is None:
            entries.append(skill.listing)
            continue
        location = locate(skill.path, home=home)
        alias = labels.take(name_alias(document, location, profile, skill.name))
        entries.append(runtime_listing_entry(document, location, profile,
                                             labelled=alias is not None))
    return entries


class _Labels:
    """The labels (frontmatter names beside the command, `name_alias`) already shown, in the
    listing's order: Claude Code 2.1.332 shows a label, and takes `/label`, for the first skill
    that has it only (case dup-same-name: `- twin-a (twin): …`, then `- twin-b: …`)."""

    def __init__(self) -> None:
        self.shown: set[str] = set()

    def take(self, alias: str | None, listed: bool = True) -> str | None:
        """`alias` when no earlier skill showed it (it is then taken, if this skill is listed),
        else None."""
        if alias is None or alias in self.shown:
            return None
        if listed:
            self.shown.add(alias)
        return alias

