"""Applying quick fixes to files, as `wave-lsp check --fix` does (docs/design/product.md
*Command line*; the applicability of each rule's fix is in the catalog, docs/design/rules.md).

One pass per file: every finding offers at most one fix (its preferred one), fixes whose
applicability is not allowed are skipped, and a fix whose edits overlap an edit already taken is
left for the next run. Nothing is written here; the caller decides (`--diff` prints, `--fix`
writes). The file's bytes outside the edits stay as they were: line endings, a byte-order mark and
the encoding (UTF-8) are preserved. A file with bytes that are not UTF-8 is never fixed (its text
holds replacement characters that would overwrite the original bytes).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from wave_lsp.core.checking.catalog import rule
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit, apply_edits
from wave_lsp.core.parsing.document import SkillDocument

SAFE, UNSAFE, DISPLAY_ONLY = "safe", "unsafe", "display-only"
BOM = b"\xef\xbb\xbf"


@dataclass(slots=True)
class FixPlan:
    """What fixing one document would change."""

    original: str
    fixed: str
    applied: list[Finding] = field(default_factory=list)  #: findings whose fix is taken
    skipped_unsafe: int = 0  #: fixes left out because they need `--unsafe-fixes`

    @property
    def changed(self) -> bool:
        return self.fixed != self.original


def applicable(finding: Finding, unsafe: bool) -> Fix | None:
    """The fix `check --fix` may apply for `finding` (None when there is none)."""
    if finding.path is not None or not finding.fixes:
        return None  # a finding about another file (a resource) is not fixed in this one
    kind = rule(finding.code).fix_applicability or UNSAFE
    if kind == DISPLAY_ONLY or (kind == UNSAFE and not unsafe):
        return None
    return next((fix for fix in finding.fixes if fix.preferred), finding.fixes[0])


def plan_fixes(document: SkillDocument, findings: Iterable[Finding], *, unsafe: bool) -> FixPlan:
    """The one-pass, non-overlapping set of fixes for `document`'s findings."""
    plan = FixPlan(document.text, document.text)
    if document.invalid_byte_offset is not None:
        return plan
    taken: list[TextEdit] = []
    for finding in sorted(findings, key=lambda f: (f.span.start, f.code)):
        fix = applicable(finding, unsafe)
        if fix is None:
            kind = rule(finding.code).fix_applicability
            plan.skipped_unsafe += bool(finding.fixes and kind == UNSAFE and finding.path is None)
            continue
        if any(_overlaps(edit, other) for edit in fix.edits for other in taken):
            continue
        taken.extend(fix.edits)
        plan.applied.append(finding)
    plan.fixed = apply_edits(document.text, taken)
    return plan


def _overlaps(a: TextEdit, b: TextEdit) -> bool:
    """Two edits touch the same text (two insertions at one point count as overlapping)."""
    if a.span.start == b.span.start:
        return True
    return a.span.start < b.span.end and b.span.start < a.span.end


def encoded(document: SkillDocument, text: str) -> bytes:
    """`text` as the file's bytes: UTF-8, with the byte-order mark the file had."""
    return (BOM if document.source.bom else b"") + text.encode("utf-8")
