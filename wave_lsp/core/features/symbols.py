"""Document outline (docs/design/product.md *Language server*, document symbols).

One symbol per frontmatter key (nested keys of mappings such as `metadata` and `hooks` as
children), then the body's ATX headings nested by level.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.markdown import parse_body
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import YamlNode

MAX_DEPTH = 4


@dataclass(slots=True)
class Symbol:
    name: str
    kind: str  #: "field", "key" (nested) or "heading"
    span: Span
    selection: Span
    detail: str = ""
    children: list[Symbol] = field(default_factory=list)


def document_symbols(document: SkillDocument) -> list[Symbol]:
    symbols: list[Symbol] = []
    mapping = document.mapping
    if mapping is not None:
        symbols += _mapping_symbols(mapping, "field", 0)
    symbols += _heading_symbols(document)
    return symbols


def _mapping_symbols(node: YamlNode, kind: str, depth: int) -> list[Symbol]:
    result = []
    for key, value in node.pairs:
        name = key.text if key.kind == "scalar" else "?"
        symbol = Symbol(name, kind, Span(key.span.start, max(key.span.end, value.span.end)),
                        key.span, detail=_detail(value))
        if value.kind == "mapping" and depth < MAX_DEPTH:
            symbol.children = _mapping_symbols(value, "key", depth + 1)
        result.append(symbol)
    return result


def _detail(value: YamlNode) -> str:
    if value.kind == "scalar":
        text = value.text.replace("\n", " ")
        return text if len(text) <= 60 else text[:59] + "…"
    if value.kind == "sequence":
        return f"{len(value.items)} items"
    if value.kind == "mapping":
        return f"{len(value.pairs)} keys"
    return ""


def _heading_symbols(document: SkillDocument) -> list[Symbol]:
    headings = parse_body(document.text, document.body_offset).headings
    roots: list[Symbol] = []
    stack: list[tuple[int, Symbol]] = []
    end_of_text = len(document.text)
    for index, heading in enumerate(headings):
        # a section runs to the next heading of the same or a higher level
        end = next((h.span.start for h in headings[index + 1 :] if h.level <= heading.level),
                   end_of_text)
        symbol = Symbol(heading.text or "#" * heading.level, "heading",
                        Span(heading.span.start, max(end, heading.span.end)), heading.span,
                        detail="#" * heading.level)
        while stack and stack[-1][0] >= heading.level:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(symbol)
        stack.append((heading.level, symbol))
    return roots
