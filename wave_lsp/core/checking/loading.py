"""Does the runtime load this skill at all? One decision for `check`, `list` and `preview`
(docs/design/rules.md *Does it load?*).

A skill does not load under a target when one of the rules the catalog marks `stops-loading` for
that target finds an error in it: a frontmatter that a strict loader cannot read, a missing or
invalid `name` or `description` under a loader that validates them. The decision uses the
catalog's severities, not the user's: silencing SK020 in a configuration does not make Wave load
the file. Only those rules run, so the decision is cheap enough for every row of `list`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp.core.checking.catalog import Severity, rule, rules
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.engine import run_rules
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.reading import load_document
from wave_lsp.core.runtime.listing import ListingEntry, name_alias, runtime_listing_entry
from wave_lsp.core.runtime.profiles import RuntimeProfile
from wave_lsp.core.workspace.location import SkillLocation, locate
from wave_lsp.core.workspace.session import WorkspaceSession

if TYPE_CHECKING:
    from wave_lsp.core.runtime.preview import Invocation


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


def runtime_names(names: Iterable[str]) -> str:
    """`Copilot`, `Copilot and Gemini CLI`, `Codex, Copilot and Gemini CLI`."""
    items = list(names)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


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
    context = CheckContext(document=document, location=location,
                           settings=Settings(profile=profile),
                           session=session or WorkspaceSession())
    return verdict_from(run_rules(context, codes.__contains__), document, profile)


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
               confine: Path | None = None) -> list[dict[str, object]]:
    """The rows of `list --format json` (also the editor's List Skills and the MCP tool): every
    skill the target discovers from `project`, highest precedence first, with whether it loads
    and its line in the model's listing exactly as the runtime writes it (`listingLine`, None
    when the model does not see the skill; `listingChars` its length). `confine`: leave out,
    unread, a SKILL.md under it that a link leads out of it (`runtime_skills`)."""
    from wave_lsp.core.workspace.runtime_view import runtime_skills

    # one snapshot of the disk for all rows
    session = WorkspaceSession(freshness_seconds=None, confine=confine)
    rows = []
    labels = _Labels()
    for skill in runtime_skills(profile, project, home, personal, confine=confine):
        row = skill.to_json(relative_to)
        if profile.collision == "both":  # Codex lists every skill of a name (case cx-duplicate-name)
            row["shadowedBy"] = None
        document = load_document(skill.path)
        if document is None:
            rows.append({**row, "aliases": [], "activatesOn": None, "listingLine": None,
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
        rows.append({**row, **load_verdict(document, location, profile, session).to_json()})
    return rows


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


def invoke_loaded(document: SkillDocument, location: SkillLocation, settings: Settings,
                  raw_arguments: str = "", mode: str = "dry-run",
                  session_id: str | None = None) -> Invocation:
    """The preview (`wave_lsp.core.runtime.preview.invoke`) of a skill the target loads; for one it
    does not load, a failed invocation that names the rule, as the runtime renders nothing."""
    # imported here: `check` needs the verdicts, not the preview and its permission engine
    from wave_lsp.core.runtime.preview import MODES, Invocation, invoke

    verdict = load_verdict(document, location, settings.profile)
    if verdict.loads:
        return invoke(document, location, settings, raw_arguments, mode, session_id)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    result = Invocation(document, location, settings.profile, mode, raw_arguments)
    result.ok, result.error = False, verdict.reason(settings.profile)
    return result
