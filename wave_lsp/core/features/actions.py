"""Code actions beyond a rule's own fixes: silencing a finding (docs/design/rules.md *Configuration and
suppression*).

"Disable SKnnn for this line" adds the code to a `wave-lsp: ignore` comment: a YAML comment at the
end of a frontmatter key line, or an HTML comment on its own line above a body line (which silences
the next line). Lines where a comment would change the value (inside a block or multi-line scalar,
the `---` delimiters) get no line action. "Disable SKnnn for this file" adds `wave-lsp: ignore-file`
as the first frontmatter line, or at the top of the body when there is no frontmatter.
"""

from __future__ import annotations

import re

from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.text import Span

_DIRECTIVE = re.compile(r"(wave-lsp:\s*ignore\s+)((?:SK\d{3}\s*,?\s*)+)", re.I)


def suppression_fixes(document: SkillDocument, finding: Finding) -> list[Fix]:
    fixes = []
    line = document.lines.line_of(finding.span.start)
    edit = _line_edit(document, line, finding.code)
    if edit is not None:
        fixes.append(Fix(f"Disable {finding.code} for this line", [edit]))
    fixes.append(Fix(f"Disable {finding.code} for this file", [_file_edit(document, finding.code)]))
    return fixes


def _line_edit(document: SkillDocument, line: int, code: str) -> TextEdit | None:
    source, lines = document.source, document.lines
    delimiters = {d.line for d in (source.opener, source.closer) if d is not None}
    if line in delimiters:
        return None
    line_span = lines.span_of_line(line)
    text = document.text[line_span.start : line_span.end]
    in_frontmatter = source.opener is not None and source.closer is not None and (
        source.opener.line < line < source.closer.line)
    if in_frontmatter:
        if _inside_multiline_scalar(document, line_span.start):
            return None
        existing = _DIRECTIVE.search(text)
        if existing:
            return TextEdit(Span(line_span.start + existing.end(2), line_span.start + existing.end(2)),
                            f", {code}" if not existing.group(2).rstrip().endswith(",") else f" {code}")
        return TextEdit(Span(line_span.end, line_span.end), f"  # wave-lsp: ignore {code}")
    if source.opener is not None and source.closer is None:
        return None
    indent = text[: len(text) - len(text.lstrip(" \t"))]
    newline = _newline(document)
    return TextEdit(Span(line_span.start, line_span.start),
                    f"{indent}<!-- wave-lsp: ignore {code} -->{newline}")


def _inside_multiline_scalar(document: SkillDocument, line_start: int) -> bool:
    if document.yaml is None or document.yaml.root is None:
        return True  # broken YAML: a comment could land anywhere
    for node in document.yaml.root.walk():
        if node.kind != "scalar":
            continue
        span = node.content_span
        if span.start < line_start <= span.end and "\n" in document.text[span.start : span.end]:
            return True
    return False


def _file_edit(document: SkillDocument, code: str) -> TextEdit:
    source = document.source
    newline = _newline(document)
    if source.opener is not None and source.closer is not None:
        at = document.lines.line_start(source.opener.line + 1)
        return TextEdit(Span(at, at), f"# wave-lsp: ignore-file {code}{newline}")
    at = document.body_offset if source.closer is not None else 0
    if source.opener is not None and source.closer is None:
        at = len(document.text)
        prefix = "" if document.text.endswith(("\n", "\r")) else newline
        return TextEdit(Span(at, at), f"{prefix}<!-- wave-lsp: ignore-file {code} -->{newline}")
    return TextEdit(Span(at, at), f"<!-- wave-lsp: ignore-file {code} -->{newline}")


def _newline(document: SkillDocument) -> str:
    return "\r\n" if "\r\n" in document.text else "\n"
