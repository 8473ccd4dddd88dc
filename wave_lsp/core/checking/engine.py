"""Running the rules: one document in, the findings the target reports out.

Implements the severity model of docs/design/rules.md *How the engine applies severities*: the
catalog severity for the target (a rule marked `–` is not reported), an instance level where the
rule says so, both capped by the confidence of the rule or of the finding, then the user's
overrides, selection and inline suppressions. The CLI and the language server both call
`check_document`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from functools import lru_cache
from typing import TypeVar

from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.checking.messages import UNVERIFIED
from wave_lsp.core.checking.suppression import collect
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.rules import all_checks
from wave_lsp.core.workspace.location import SkillLocation
from wave_lsp.core.workspace.session import WorkspaceSession

T = TypeVar("T")


def reported(code: str, settings: Settings) -> bool:
    """Whether `code` can be reported at all under these settings."""
    overrides = tuple(sorted(settings.severity.items(), key=repr)) if settings.severity else ()
    return _reported(code, settings.profile, settings.select, settings.ignore, overrides)


@lru_cache(maxsize=4096)
def _reported(code: str, profile: RuntimeProfile, select: tuple[str, ...],
              ignore: tuple[str, ...], overrides: tuple[tuple[str, Severity | str], ...]) -> bool:
    """`reported`, memoised across files: a `check` asks it for every rule of every file under
    the same settings (the settings hold a dict, so they are taken apart for the cache key)."""
    settings = Settings(profile=profile, select=select, ignore=ignore, severity=dict(overrides))
    return rule(code).severity(profile) is not None and settings.enabled(code)


class Reported(dict[str, bool]):
    """`reported` memoised for one run of the rules."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings

    def __missing__(self, code: str) -> bool:
        value = self[code] = reported(code, self.settings)
        return value


#: a resumable computation: each `next()` runs it to its next checkpoint, where it yields what
#: it is doing (the rule about to run or running, `Check.label`; None elsewhere); its
#: `StopIteration` carries the result. Not resuming it, or `close()`, abandons it. Resuming it
#: with `send(True)` stops it early: the rules not yet finished are skipped and the result is
#: built from the findings so far (the language server's time budget per check).
Steps = Generator[str | None, bool | None, T]


def run_to_end(steps: Steps[T]) -> T:
    """Run resumable `steps` at once and return their result."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            result: T = end.value
            return result


def check_document(document: SkillDocument, location: SkillLocation,
                   settings: Settings | None = None, *, strict: bool = False,
                   session: WorkspaceSession | None = None) -> list[Finding]:
    """All findings for one document, sorted by position, with severities and ranges; the
    project's facts come from `session` (a fresh one when None)."""
    return run_to_end(check_document_steps(document, location, settings, strict=strict,
                                           session=session))


def check_document_steps(document: SkillDocument, location: SkillLocation,
                         settings: Settings | None = None, *, strict: bool = False,
                         session: WorkspaceSession | None = None) -> Steps[list[Finding]]:
    """`check_document` as resumable steps (docs/design/lsp.md *Edits coalesce*): a checkpoint
    before each rule and after each finding a rule yields, so that a caller can pause the run
    (the language server reads newer edits meanwhile) or abandon it (a newer version arrived)."""
    settings = settings or Settings()
    context = CheckContext(document=document, location=location, settings=settings,
                           session=session or WorkspaceSession())
    is_reported = Reported(settings)
    raw = yield from run_rules_steps(context, is_reported.__getitem__, strict=strict)
    return finalize(raw, document, settings)


def run_rules(context: CheckContext, wanted: Callable[[str], bool], *,
              strict: bool = False) -> list[Finding]:
    """The findings of the rules that have a wanted code, as the rules produce them: no severity,
    range or suppression applied yet (`finalize` does that). A rule that fails is logged and
    skipped (`strict`: raised), so one broken rule never hides the others' findings."""
    return run_to_end(run_rules_steps(context, wanted, strict=strict))


def run_rules_steps(context: CheckContext, wanted: Callable[[str], bool], *,
                    strict: bool = False) -> Steps[list[Finding]]:
    """`run_rules` as resumable steps: a checkpoint before each rule and after each finding a
    rule yields (`check_document_steps`)."""
    raw: list[Finding] = []
    for item in all_checks():
        if not any(wanted(code) for code in item.codes):
            continue
        label = item.label
        if (yield label):
            return raw  # stopped early: the findings so far
        try:
            for finding in item.function(context):
                if wanted(finding.code):
                    raw.append(finding)
                # GeneratorExit (abandoned) is not an `Exception`: it is not caught below
                if (yield label):
                    return raw
        except Exception:
            if strict:
                raise
            import logging  # only when a rule fails: a check starts faster without it

            logging.getLogger(__name__).exception("rule check %s failed on %s", item.name,
                                                  context.location.path)
    return raw


def finalize(raw: list[Finding], document: SkillDocument, settings: Settings) -> list[Finding]:
    """Apply severities and suppressions, resolve ranges, sort."""
    suppressions = collect(document)
    findings: list[Finding] = []
    note = settings.profile.evidence_note  # a runtime known from its documentation only
    for finding in raw:
        default = rule(finding.code).severity(settings.profile)
        if default is None:
            continue
        if note and not finding.message.endswith(f"({note}.)") \
                and f"{UNVERIFIED} (" not in finding.message.lower():
            finding.message = f"{finding.message} ({note}.)"
        level = finding.certainty.cap(finding.level or default)
        finding.severity = settings.severity_of(finding.code, level)
        finding.resolve(document.lines)
        assert finding.range is not None
        if suppressions.silences(finding.code, finding.range.start.line):
            continue
        findings.append(finding)
    findings.sort(key=lambda f: (f.span.start, f.span.end, f.code))
    return findings
