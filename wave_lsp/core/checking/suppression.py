"""Inline suppressions (docs/design/rules.md *Configuration and suppression*).

`wave-lsp: ignore SKnnn[,SKnnn…]` in a YAML `#` comment (frontmatter) or an HTML `<!-- -->` comment
(body) silences those codes on its own line, or on the next line when the comment stands alone on
its line. `wave-lsp: ignore-file SKnnn` anywhere silences the codes for the whole file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from wave_lsp.core.parsing.document import SkillDocument

#: compiled by `re` when first needed: most files have no comment to look into
_DIRECTIVE = r"(?i)wave-lsp:\s*(ignore-file|ignore)\s+((?:SK\d{3}\s*,?\s*)+)"
_HTML_COMMENT = r"(?s)<!--(.*?)-->"


@dataclass(slots=True)
class Suppressions:
    """The codes `wave-lsp: ignore` comments silence, per line and in the whole file."""

    by_line: dict[int, set[str]] = field(default_factory=dict)
    whole_file: set[str] = field(default_factory=set)

    def silences(self, code: str, line: int) -> bool:
        return code in self.whole_file or code in self.by_line.get(line, ())

    def add(self, line: int, codes: set[str]) -> None:
        self.by_line.setdefault(line, set()).update(codes)


def collect(document: SkillDocument) -> Suppressions:
    result = Suppressions()
    lines = document.lines
    for start, end in _comment_spans(document):
        comment = document.text[start:end]
        for match in re.finditer(_DIRECTIVE, comment):
            codes = {c.upper() for c in re.findall(r"SK\d{3}", match.group(2), re.I)}
            if match.group(1).lower() == "ignore-file":
                result.whole_file |= codes
                continue
            first, last = lines.line_of(start), lines.line_of(end)
            before = document.text[lines.line_start(first) : start]
            after = document.text[end : lines.line_end(last)]
            alone = not before.strip() or before.strip() == "#"
            target_line = last + 1 if alone and not after.strip() else first
            result.add(target_line, codes)
    return result


def _comment_spans(document: SkillDocument) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    source = document.source
    if source.frontmatter is not None:
        scalar_spans = []
        if document.yaml and document.yaml.root is not None:
            scalar_spans = [n.content_span for n in document.yaml.root.walk()
                            if n.kind == "scalar" and n.style is not None]
        base = source.frontmatter_offset
        for match in re.finditer(r"(?:^|(?<=\s))#[^\r\n]*", source.frontmatter, re.M):
            start = base + match.start()
            if not any(s.start < start < s.end for s in scalar_spans):
                spans.append((start, base + match.end()))
    body = document.body
    if "wave-lsp" in body:
        for match in re.finditer(_HTML_COMMENT, body):
            spans.append((document.body_offset + match.start(), document.body_offset + match.end()))
    return spans
