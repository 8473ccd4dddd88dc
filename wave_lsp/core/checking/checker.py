"""Checking files on disk: safe reading, then the engine. Used by `wave-lsp check`.

Bad input gets a finding, never an exception (docs/design/product.md *Contract details*): a directory, a FIFO
or a device named SKILL.md is reported without being opened, an unreadable file says why, invalid
UTF-8 is decoded with replacement characters and reported as SK003 at the first bad byte.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from pathlib import Path

from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.engine import Reported, Steps, finalize, reported, run_rules_steps, run_to_end
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.checking.loading import (
    LoadVerdict,
    member_drops,
    stopping_codes,
    verdict_from,
)
from wave_lsp.core.checking.messages import after_first_sentence, capitalized, runtime_names
from wave_lsp.core.checking.not_found import discovery_finding, not_found_steps, once_per_root
from wave_lsp.core.checking.not_found import stopping as stopping_copy
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.reading import read_skill_file
from wave_lsp.core.parsing.source import DecodeResult, decode, strip_bom
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.workspace.applies import Reach
from wave_lsp.core.workspace.applies import reach as reach_of
from wave_lsp.core.workspace.disk_view import DIRECTORY, DiskView
from wave_lsp.core.workspace.location import SKILL_FILE, SkillLocation, locate
from wave_lsp.core.workspace.session import WorkspaceSession


@dataclass(slots=True)
class FileReport:
    """What checking one file found, with the parsed document and whether the target loads it."""

    path: Path
    findings: list[Finding] = field(default_factory=list)
    document: SkillDocument | None = None
    skill: str | None = None
    location: SkillLocation | None = None
    #: whether the target loads the skill (None for a report about another file of a skill)
    verdict: LoadVerdict | None = None
    #: the target the file was checked for (with no target configured, chosen per file), and the
    #: runtime or runtimes it stands for (names only: a report crosses to worker processes)
    target: str | None = None
    checked_for: str | None = None


def check_file(path: Path, settings: Settings | None = None, *, text: str | None = None,
               bom: bool = False, strict: bool = False,
               session: WorkspaceSession | None = None) -> FileReport:
    """Check one SKILL.md on disk, or `text` as the content of `path` (an editor's buffer; `bom`
    says the file on disk starts with a byte-order mark that the editor does not show). `session`
    owns what is known about the project (a fresh one when None)."""
    return run_to_end(check_file_steps(path, settings, text=text, bom=bom, strict=strict,
                                       session=session))


def check_file_steps(path: Path, settings: Settings | None = None, *, text: str | None = None,
                     bom: bool = False, strict: bool = False,
                     session: WorkspaceSession | None = None) -> Steps[FileReport]:
    """`check_file` as resumable steps (`engine.check_document_steps`): the language server
    pauses it to read newer edits and abandons it when the document changed."""
    settings = settings or Settings()
    session = session or WorkspaceSession()
    location = locate(path, home=settings.home, facts=session.pass_facts)
    # no target configured: chosen from where it lives (here, or by the caller: the server)
    chosen_here = settings.auto_target or settings.chosen_for_file
    settings = settings.for_file(location)
    target = settings.profile  # the target as chosen; an aggregate's members all of them
    reach = target_reach(settings, location)
    if reach.profile is not target:  # an aggregate, narrowed to its runtimes that find the file
        settings = replace(settings, profile=reach.profile)
    report = FileReport(path=path, location=location, target=settings.profile.name,
                        checked_for=settings.profile.runtime)
    if text is None:
        data, problem = read_skill_file(path)
        if data is None:
            report.findings = _unreadable(path, problem or "cannot be read", settings)
            report.verdict = LoadVerdict(False, next(iter(report.findings), None))
            return report
        decoded = decode(data)
        document = _known(session, path, decoded) or SkillDocument.from_decoded(decoded)
    else:
        decoded = strip_bom(DecodeResult(text=text))
        decoded.bom = decoded.bom or bom
        document = SkillDocument.from_decoded(decoded)
    report.document = document
    report.findings, report.verdict = yield from _check_and_decide(
        document, location, settings, strict, session, Target(reach.found, target, chosen_here))
    name = document.value("name")
    report.skill = name.strip() if isinstance(name, str) and name.strip() else location.dir_name
    return report


@dataclass(frozen=True, slots=True)
class Target:
    """Whether the target finds the file, and the target as chosen (an aggregate with all its
    members, before `applies.narrowed`)."""

    found: bool
    chosen: RuntimeProfile
    #: no target was configured: the file's target was chosen from where it lives
    chosen_here: bool = False


def target_reach(settings: Settings, location: SkillLocation) -> Reach:
    """Whether the settings' target finds the file, and the profile it is checked with
    (`wave_lsp.core.workspace.applies.reach`)."""
    return reach_of(settings.profile, location, settings.home, settings.personal)


def _check_and_decide(document: SkillDocument, location: SkillLocation, settings: Settings,
                      strict: bool, session: WorkspaceSession, target: Target
                      ) -> Steps[tuple[list[Finding], LoadVerdict]]:
    """The report's findings and the load decision from one run of the rules: the rules that
    can stop loading run even when the user deselected them (the runtime does not read the
    user's selection), and they decide at the catalog's severities; so does SK130, whose loser
    the runtime does not load under its name. A file the target does not find gets the one
    finding that says so (`not_found`). Resumable steps (`engine.run_rules_steps`)."""
    context = CheckContext(document=document, location=location, settings=settings,
                           session=session)
    is_reported = Reported(settings)
    template = _template(document, location, settings)
    shows = True
    if template is None and (target.chosen_here or test_data(location) is not None):
        template, shows = _kept(document, location, context.disk, target.chosen_here)
    if template is not None:  # a generator's input: its placeholders are not the skill's faults
        shown = finalize([template], document, settings) \
            if shows and is_reported[template.code] else []
        return shown, LoadVerdict(False, template)
    if not target.found:
        found = yield from not_found_steps(context, target.chosen.members, strict)
        said = once_per_root(found, context, target.chosen.members)
        findings = finalize([copy.copy(said)] if said is not None and is_reported[found.code]
                            else [], document, settings)
        return findings, LoadVerdict(False, stopping_copy(found, document))
    stopping_set = stopping_codes(settings.profile)
    runtime = settings.profile.kind == "runtime"
    skips = any(p.skips_git_ignored_roots for p in settings.profile.members or (settings.profile,))
    raw = yield from run_rules_steps(
        context, lambda code: is_reported[code] or code in stopping_set or (
            runtime and code == SHADOWED) or (code == SKIPPED and skips), strict=strict)
    verdict = verdict_from(raw, document, settings.profile)
    shadow = next((f for f in raw if f.code == SHADOWED and f.data.get("shadowed")), None)
    if verdict.loads and shadow is not None:
        verdict = LoadVerdict(False, stopping_copy(shadow, document))
    findings = finalize([f for f in raw if is_reported[f.code]], document, settings)
    if target.chosen_here and not settings.profile.members:
        _runtime_unknown(findings, location, settings)
    if settings.profile.members:
        findings, verdict = _name_members(document, location, settings, session, strict,
                                          findings, verdict)
        missed = discovery_finding(document, location, settings, target.chosen.members,
                                   context.disk.exists)
        if missed is not None and reported(missed.code, settings):
            findings += finalize([missed], document, settings)
            findings.sort(key=lambda f: (f.span.start, f.span.end, f.code))
    return findings, _skipped(raw, document, verdict, bool(settings.profile.members))


def _runtime_unknown(findings: list[Finding], location: SkillLocation,
                     settings: Settings) -> None:
    """No target configured and nothing says which runtime reads the file
    (`applies.runtime_unknown`): it is checked for the `wave` default, but an error or warning
    stays one only when its rule is an error or warning under every runtime; the rest is
    information that names whose effect it is and how to choose a target (docs/design/rules.md
    *The default target*; sample 6: 115 of 224 findings held only once installed into Wave). A
    user's severity override wins."""
    from wave_lsp.core.workspace.applies import RUNTIME_PROFILES, runtime_unknown

    if not findings or not runtime_unknown(location):
        return
    for finding in findings:
        if finding.severity > Severity.WARNING or finding.code in settings.severity:
            continue
        item = rule(finding.code)
        exempt = [p.runtime for p in RUNTIME_PROFILES if p is not settings.profile
                  and ((level := item.severity(p)) is None or level > Severity.WARNING)]
        if not exempt:
            continue
        was = "an error" if finding.severity == Severity.ERROR else "a warning"
        finding.severity = Severity.INFORMATION
        finding.message += (
            f" (Information, not {was}: no runtime is known to read this file (it lies in no "
            f"skills root and nothing beside it names one), so it is checked for "
            f"{settings.profile.runtime}, the default, and only what is an error or warning "
            f"under every runtime stays one; under {runtime_names(exempt)} this is not. Give a "
            "target (`--target claude-code`, or `target` under `[tool.wave-lsp]`) to check the "
            "file as that runtime reads it.)")


#: the rule whose finding on the skill that loses a name means the runtime does not load it
SHADOWED = "SK130"
#: the rule whose finding with `skipped_by` data means those runtimes skip the skill's skills
#: root (a git-ignored nested root: `skips_git_ignored_roots`, runtime-facts.md §3.4)
SKIPPED = "SK133"
#: the findings that stop loading at any level (an information SK130 or SK133 too): the target
#: does not find the file (SK002), another skill of the name wins (SK130), the runtime skips the
#: folder (SK133)
STOPS_AT_ANY_LEVEL = frozenset({"SK002", SHADOWED, SKIPPED})


def _skipped(raw: list[Finding], document: SkillDocument, verdict: LoadVerdict,
             aggregate: bool) -> LoadVerdict:
    """The verdict when a runtime of the target skips the skill's skills root (SK133's
    `skipped_by`): not loaded; under an aggregate, those runtimes are among `droppedBy`."""
    skip = next((f for f in raw if f.code == SKIPPED and f.data.get("skipped_by")), None)
    if skip is None:
        return verdict
    skippers = tuple(str(name) for name in skip.data["skipped_by"])
    dropped = verdict.dropped_by + tuple(n for n in skippers if n not in verdict.dropped_by)
    stopped = verdict.stopped_by if not verdict.loads else stopping_copy(skip, document)
    return LoadVerdict(False, stopped, dropped if aggregate else ())


#: at most this many folders of a test suite are walked for its skills (a checker's own suite)
MAX_TEST_FOLDERS = 2000


def _first_test_skill(location: SkillLocation, disk: DiskView) -> tuple[bool, int, Path]:
    """Whether this file is the first SKILL.md of its test folder (by path), how many others
    that holds, and the folder: a test suite's data is said once for the whole suite."""
    from wave_lsp.core.workspace.applies import test_data_folder

    top = test_data_folder(location)
    if top is None or location.skill_dir is None:
        return True, 0, Path()
    found, pending, walked = [], [top], 0
    while pending and walked < MAX_TEST_FOLDERS:
        folder = pending.pop()
        walked += 1
        for name, kind in disk.entries(folder).items():
            if kind == DIRECTORY:
                pending.append(folder / name)
            elif name == SKILL_FILE:
                found.append(folder)
    mine = location.skill_dir
    first = not found or min(found) == mine or mine not in found
    return first, len(found) - 1 if first and mine in found else 0, top


def test_data(location: SkillLocation) -> str | None:
    """Why the file is a test suite's data (`applies.test_data`), or None."""
    from wave_lsp.core.workspace.applies import test_data as why  # as `_kept` imports applies

    return why(location)


def _template(document: SkillDocument, location: SkillLocation,
              settings: Settings) -> Finding | None:
    """The one finding of a generator's template (`location.template_reason`): information, since
    nothing loads it as it lies and its placeholders are filled in before it is used."""
    from wave_lsp.core.workspace.location import template_reason

    reason = template_reason(location, document)
    if reason is None:
        return None
    finding = Finding(code="SK002", span=document.lines.span_of_line(0),
                      level=Severity.INFORMATION,
                      message=f"This SKILL.md is treated as a template, not a skill: check the "
                              f"skill it renders to instead. {capitalized(reason)}, so no runtime "
                              "loads it as it lies, and the rules do not judge its placeholders.")
    finding.resolve(document.lines)
    return finding


def _kept(document: SkillDocument, location: SkillLocation, disk: DiskView,
          chosen_here: bool = True) -> tuple[Finding | None, bool]:
    """The one finding of a SKILL.md kept rather than used (`applies.kept_not_used`: an
    archive, a version of the skill, outside every skills root) when no target is configured:
    no runtime loads it where it lies, so no runtime's rules speak of it (sample 4). Said once
    per folder of kept skills: on the first skill folder by name, with the count of the others
    (the second value: whether this file shows it). A test suite's data (`applies.test_data`)
    gets it under a configured target too (issue 37): its skills are malformed on purpose."""
    from wave_lsp.core.workspace.applies import kept_beside, kept_not_used

    reason = kept_not_used(location)
    if reason is None or location.skill_dir is None:
        return None, False
    fixture = test_data(location) is not None
    folder = location.skill_dir.parent
    if fixture:
        first, others, folder = _first_test_skill(location, disk)
    else:
        kept = sorted(kept_beside(location, [
            name for name, kind in disk.entries(folder).items()
            if kind != "file" and disk.is_file(folder / name / SKILL_FILE)]))
        first = not kept or kept[0] == location.skill_dir.name \
            or location.skill_dir.name not in kept
        others = len(kept) - 1 if first and location.skill_dir.name in kept else 0
    where = ("which no runtime reads and no plugin of the project installs" if fixture
             else "outside every skills root")
    check_it = ("give a target (`--target`) to check this one as that runtime would read it"
                if chosen_here and not fixture else
                "copy it into a skills root to check it as a runtime reads it")
    finding = Finding(code="SK002", span=document.lines.span_of_line(0),
                      level=Severity.INFORMATION,
                      message=f"No runtime loads this SKILL.md where it lies, and it is kept, not "
                              f"used: {reason}, {where}. It is not checked for a runtime: check "
                              f"the copy that is installed, or {check_it}." + (
                                  f" Said once for `{folder.name}/`: its {others} other skill "
                                  "folders are not checked either." if others else ""))
    finding.resolve(document.lines)
    return finding, first


def _name_members(document: SkillDocument, location: SkillLocation, settings: Settings,
                  session: WorkspaceSession, strict: bool, findings: list[Finding],
                  verdict: LoadVerdict) -> tuple[list[Finding], LoadVerdict]:
    """An aggregate target (`portable`): each finding that stops one of its runtimes from loading
    the skill says which ones, after its first sentence ("… Dropped by Copilot and Gemini
    CLI."); a drop the aggregate's own findings do not show is added as the member reports it;
    and the skill does not load when one of the runtimes drops it (docs/design/rules.md
    *Targets*). (Which of all its runtimes do not find the file at all is SK002,
    `not_found.discovery_finding`.)"""
    drops = member_drops(document, location, settings, session, strict)
    if not drops:
        _name_strictest(findings, settings.profile)
        return findings, verdict
    who: dict[tuple[str, int], list[RuntimeProfile]] = {}
    for member, stopping in drops:
        for finding in stopping:
            names = who.setdefault((finding.code, finding.span.start), [])
            if member not in names:
                names.append(member)
    shown = {(f.code, f.span.start) for f in findings}
    for member, stopping in drops:
        if member.kind == "validator":  # its rejections are named, not added (`x-targets`)
            continue
        first = min(stopping, key=lambda f: (f.span.start, f.code))
        key = (first.code, first.span.start)
        if key not in shown and reported(first.code, settings):
            extra = copy.copy(first)
            extra.level = Severity.ERROR
            findings += finalize([extra], document, settings)
            shown.add(key)
    for finding in findings:
        members = who.get((finding.code, finding.span.start))
        if members:
            finding.message = after_first_sentence(finding.message, f"{_who_drops(members)}.")
    findings.sort(key=lambda f: (f.span.start, f.span.end, f.code))
    _name_strictest([f for f in findings if (f.code, f.span.start) not in who], settings.profile)
    # a validator (skills-ref) rejects; the skill does not load when a runtime drops it
    runtime_drops = [(member, stopping) for member, stopping in drops
                     if member.kind != "validator"]
    if not runtime_drops:
        return findings, verdict
    dropped_by = tuple(member.runtime for member, _ in runtime_drops)
    stopped = verdict.stopped_by
    if stopped is None:
        stopped = copy.copy(min(runtime_drops[0][1], key=lambda f: (f.span.start, f.code)))
        stopped.severity = Severity.ERROR
        stopped.resolve(document.lines)
    else:
        stopped = copy.copy(stopped)
    members = who.get((stopped.code, stopped.span.start))
    if members and _who_drops(members) not in stopped.message:
        stopped.message = after_first_sentence(stopped.message, f"{_who_drops(members)}.")
    return findings, LoadVerdict(False, stopped, dropped_by)


def _name_strictest(findings: list[Finding], profile: RuntimeProfile) -> None:
    """An aggregate reports each rule at its members' strictest level: say whose it is, when not
    all members share it ("(An error under OpenCode.)")."""
    for finding in findings:
        item = rule(finding.code)
        level = item.severity(profile)
        whose = [m.runtime for m in profile.members if item.severity(m) == level]
        runtimes = [m.runtime for m in profile.members if m.kind == "runtime"]
        if level is None or not whose or set(runtimes) <= set(whose) \
                or finding.severity != level:
            continue
        article = "An" if level.label[0] in "aeiou" else "A"
        finding.message += f" ({article} {level.label} under {runtime_names(whose)}.)"


def _who_drops(members: list[RuntimeProfile]) -> str:
    """`Dropped by Copilot and Gemini CLI`, `Rejected by skills-ref`, or both."""
    runtimes = [m.runtime for m in members if m.kind != "validator"]
    validators = [m.runtime for m in members if m.kind == "validator"]
    parts = ([f"dropped by {runtime_names(runtimes)}"] if runtimes else []) + (
        [f"rejected by {runtime_names(validators)}"] if validators else [])
    return capitalized("; ".join(parts))


def _known(session: WorkspaceSession, path: Path, decoded: DecodeResult) -> SkillDocument | None:
    if decoded.invalid_byte_offset is not None or decoded.bom:
        return None
    return session.known_document(path, decoded.text)


def _unreadable(path: Path, problem: str, settings: Settings) -> list[Finding]:
    """A file that cannot be analysed still gets a finding (the SK003 family: unreadable input);
    what to check comes in the first sentence (docs/design/rules.md *How a message reads*)."""
    if not reported("SK003", settings):
        return []
    document = SkillDocument.from_text("")
    message = f"`{path.name}` {problem}: check the path, and that it is a readable regular file."
    finding = Finding(code="SK003", message=message, span=Span(0, 0))
    return finalize([finding], document, settings)


def split_by_file(reports: list[FileReport]) -> list[FileReport]:
    """Findings about other files of a skill (resources) moved into reports of their own, right
    after the SKILL.md's report, so that every finding is listed under the file it is about."""
    return [part for report in reports for part in split_report(report)]


def split_report(report: FileReport) -> list[FileReport]:
    """`split_by_file` of one report: the report with its own findings, then one report per
    other file that findings are about, in the order first named."""
    others: dict[str, FileReport] = {}
    own = []
    for finding in report.findings:
        if finding.path is None:
            own.append(finding)
            continue
        other = others.setdefault(finding.path, FileReport(Path(finding.path), skill=report.skill,
                                                           target=report.target,
                                                           checked_for=report.checked_for))
        other.findings.append(finding)
    report.findings = own
    return [report, *others.values()]
