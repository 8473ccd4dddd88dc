"""Core ↔ protocol conversion: the only place that knows about position encodings.

The core counts code points from the start of the text (without a byte-order mark). The client
counts UTF-16 code units, UTF-8 bytes or code points (negotiated at `initialize`) and, when its text
starts with a BOM, counts it too. `Positions` converts both ways for one document text.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lsprotocol import types

from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.parsing.text import LineIndex, Position, Span

SOURCE = "wave-lsp"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


def _units(text: str, encoding: str) -> int:
    """The length of `text` in the client's units (every count at C speed: a long document
    converts hundreds of positions per publish)."""
    if text.isascii() or encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


class Positions:
    """Offsets of one document (as the core sees it) ↔ LSP positions (as the client sees them)."""

    def __init__(self, lines: LineIndex, encoding: str, client_bom: bool = False) -> None:
        self.lines = lines
        self.encoding = str(encoding or types.PositionEncodingKind.Utf16)
        self._bom_units = _units("\ufeff", self.encoding) if client_bom else 0

    def position(self, offset: int) -> types.Position:
        core = self.lines.position(offset)
        prefix = self.lines.line_text(core.line)[: core.character]
        extra = self._bom_units if core.line == 0 else 0
        return types.Position(core.line, _units(prefix, self.encoding) + extra)

    def many(self, offsets: Iterable[int]) -> list[types.Position]:
        """The positions of many offsets; in increasing order each costs only the text since the
        previous one (many placeholders on one long line stay linear)."""
        result = []
        line, character, units = -1, 0, 0
        text = ""
        for offset in offsets:
            core = self.lines.position(offset)
            if core.line != line or core.character < character:
                line, text = core.line, self.lines.line_text(core.line)
                character, units = 0, self._bom_units if core.line == 0 else 0
            units += _units(text[character : core.character], self.encoding)
            character = core.character
            result.append(types.Position(line, units))
        return result

    def range(self, span: Span) -> types.Range:
        return types.Range(self.position(span.start), self.position(span.end))

    def offset(self, position: types.Position) -> int:
        if position.line >= self.lines.line_count:
            return len(self.lines.text)
        text = self.lines.line_text(position.line)
        wanted = position.character - (self._bom_units if position.line == 0 else 0)
        if self.encoding == types.PositionEncodingKind.Utf32:
            character = min(max(wanted, 0), len(text))
        else:
            character, used = 0, 0
            while character < len(text):
                step = _units(text[character], self.encoding)
                if used + step > wanted:
                    break
                used += step
                character += 1
        return self.lines.offset(Position(position.line, character))


def diagnostic(finding: Finding, positions: Positions, uri: str) -> types.Diagnostic:
    catalog = rule(finding.code)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=Path(item.path).as_uri() if item.path else uri,
                range=positions.range(item.span) if item.span is not None and item.path is None
                else _typed_range(item.range)),
            message=item.message)
        for item in finding.related
    ]
    return types.Diagnostic(
        range=positions.range(finding.span),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=types.CodeDescription(href=link) if (link := catalog.link) else None,
        source=SOURCE,
        related_information=related or None,
        tags=_tags(finding),
        data={"name": catalog.name, "confidence": finding.certainty.label,
              "fixes": [fix_json(fix, positions) for fix in finding.fixes]},
    )


def diagnostic_json(finding: Finding, positions: Positions, uri: str) -> dict[str, Any]:
    """`diagnostic` as the JSON the client receives, built without the lsprotocol objects: a
    push of hundreds of diagnostics (a long skill, on every edit) skips creating and converting
    them (docs/design/lsp.md *Edits coalesce*). tests/lsp/test_adapter.py holds it equal to
    pygls' conversion of `diagnostic` on every finding of the corpus and the examples."""
    catalog = rule(finding.code)
    value: dict[str, Any] = {
        "range": _range_dict(positions.range(finding.span)),
        "message": finding.message,
        "severity": _SEVERITY[finding.severity].value,
        "code": finding.code,
        "source": SOURCE,
    }
    if (link := catalog.link) is not None:
        value["codeDescription"] = {"href": link}
    related = [
        {"location": {"uri": Path(item.path).as_uri() if item.path else uri,
                      "range": _range_dict(
                          positions.range(item.span) if item.span is not None and item.path is None
                          else _typed_range(item.range))},
         "message": item.message}
        for item in finding.related
    ]
    if related:
        value["relatedInformation"] = related
    tags = _tags(finding)
    if tags:
        value["tags"] = [tag.value for tag in tags]
    value["data"] = {"name": catalog.name, "confidence": finding.certainty.label,
                     "fixes": [fix_json(fix, positions) for fix in finding.fixes]}
    return value


def _tags(finding: Finding) -> list[types.DiagnosticTag] | None:
    return [types.DiagnosticTag.Unnecessary] if finding.data.get("unnecessary") else None


def _typed_range(value: Any) -> types.Range:
    if value is None:
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    return types.Range(types.Position(value.start.line, value.start.character),
                       types.Position(value.end.line, value.end.character))


def fix_json(fix: Fix, positions: Positions) -> dict[str, Any]:
    return {"title": fix.title,
            "edits": [{"range": _range_dict(positions.range(edit.span)), "newText": edit.new_text}
                      for edit in fix.edits]}


def _range_dict(value: types.Range) -> dict[str, Any]:
    return {"start": {"line": value.start.line, "character": value.start.character},
            "end": {"line": value.end.line, "character": value.end.character}}


def text_edits(edits: Iterable[TextEdit], positions: Positions) -> list[types.TextEdit]:
    return [types.TextEdit(range=positions.range(edit.span), new_text=edit.new_text)
            for edit in edits]


def workspace_edit(uri: str, version: int | None, edits: list[types.TextEdit],
                   document_changes: bool) -> types.WorkspaceEdit:
    """A `WorkspaceEdit` in the form the client declared (versioned document changes or `changes`)."""
    if document_changes:
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
            edits=edits)])
    return types.WorkspaceEdit(changes={uri: edits})


def semantic_token_data(tokens: Iterable[tuple[Span, int, int]], positions: Positions) -> list[int]:
    """`(span, type index, modifier bits)` of single-line tokens in document order, as the
    protocol's relative integers: per token the line delta, the start delta (from the previous
    token's start on the same line, else from column 0), the length, the type and the modifiers,
    the three columns in the client's position units."""
    found = list(tokens)
    ends = positions.many(offset for span, _, _ in found for offset in (span.start, span.end))
    data: list[int] = []
    line, character = 0, 0
    for index, (_, kind, modifiers) in enumerate(found):
        start, end = ends[2 * index], ends[2 * index + 1]
        delta_line = start.line - line
        delta_start = start.character - character if delta_line == 0 else start.character
        data += [delta_line, delta_start, end.character - start.character, kind, modifiers]
        line, character = start.line, start.character
    return data
