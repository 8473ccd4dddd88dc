"""What a rule reports: findings with spans, related locations and fixes (text edits).

A rule creates `Finding`s in document offsets; the engine fills in the severity for the target and
the `Range`s. Fixes are plain text edits so that the CLI, the LSP code actions and tests can all
apply them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wave_lsp.core.checking.catalog import Confidence, Severity, rule
from wave_lsp.core.parsing.text import LineIndex, Range, Span


@dataclass(slots=True)
class TextEdit:
    """Replace `span` of the document with `new_text`."""

    span: Span
    new_text: str
    range: Range | None = None  #: filled in by `Finding.resolve`


@dataclass(slots=True)
class Fix:
    """A quick fix: its title and the text edits it makes."""

    title: str
    edits: list[TextEdit]
    preferred: bool = False


@dataclass(slots=True)
class Related:
    """Another location that explains a finding: in this file (`span`) or another (`path`)."""

    message: str
    span: Span | None = None
    path: str | None = None
    range: Range | None = None


@dataclass(slots=True)
class Finding:
    """A problem a rule reports: code, message, where (the engine adds severity, range)."""

    code: str
    message: str
    span: Span
    #: overrides the catalog severity for this instance (e.g. SK090 error when not boolean-like)
    level: Severity | None = None
    related: list[Related] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    #: the finding is about another file of the skill (a resource): its absolute path; `span` is
    #: then empty and the position is the start of that file
    path: str | None = None
    #: this instance knows less than its rule (a bare path-like word where the rule also checks
    #: link targets): the engine uses the less sure of the two; None keeps the rule's
    confidence: Confidence | None = None
    # filled in by the engine
    severity: Severity = Severity.WARNING
    range: Range | None = None

    @property
    def certainty(self) -> Confidence:
        """How this finding knows: the rule's confidence, or less where the instance says so."""
        own = rule(self.code).confidence
        return own if self.confidence is None else Confidence(max(own, self.confidence))

    @property
    def name(self) -> str:
        return rule(self.code).name

    def resolve(self, lines: LineIndex) -> None:
        self.range = lines.range(self.span) if self.path is None else lines.range(Span(0, 0))
        for item in self.related:
            if item.span is not None and item.path is None:
                item.range = lines.range(item.span)
        for fix in self.fixes:
            for edit in fix.edits:
                edit.range = lines.range(edit.span)

    def to_json(self) -> dict[str, Any]:
        assert self.range is not None
        result: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.label,
            "confidence": self.certainty.label,
            "message": self.message,
            "range": self.range.to_json(),
            "fixes": [
                {
                    "title": fix.title,
                    "edits": [
                        {"range": edit.range.to_json() if edit.range else None,
                         "newText": edit.new_text}
                        for edit in fix.edits
                    ],
                }
                for fix in self.fixes
            ],
        }
        if self.related:
            result["related"] = [
                {"message": item.message, "path": item.path,
                 "range": item.range.to_json() if item.range else None}
                for item in self.related
            ]
        return result


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply non-overlapping edits (used by tests and by the CLI's fix preview)."""
    for edit in sorted(edits, key=lambda e: (e.span.start, e.span.end), reverse=True):
        text = text[: edit.span.start] + edit.new_text + text[edit.span.end :]
    return text
