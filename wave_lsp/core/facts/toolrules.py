"""Permission rule grammar and the entries of an `allowed-tools` value, with their spans.

Grammar (docs/design/runtime-facts.md §3.8, Claude Code `permissionRuleValueFromString`): `Tool` or
`Tool(content)`, the content between the first unescaped `(` and a last unescaped `)` that ends the
string; `\\(`, `\\)` and `\\\\` are escapes; `Tool()` and `Tool(*)` mean the whole tool. A string
that does not fit is taken as a (strange) tool name.

Splitting (docs/design/runtime-facts.md §3.2, §4.1): Claude Code splits a string on commas and white space
outside parentheses; Wave splits on commas only; a YAML list gives one rule per item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wave_lsp.core.facts.schema_file import tool_names
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import YamlNode

MCP_TOOL = re.compile(r"mcp__[A-Za-z0-9_-]+?(__[A-Za-z0-9_*-]+)?")
SHELL_TOOLS = ("Bash", "PowerShell")


@dataclass(frozen=True, slots=True)
class ToolRule:
    """An `allowed-tools` rule: its tool, its content in parentheses, whether it is well formed."""

    raw: str
    tool: str
    content: str | None  #: None for a bare tool name; unescaped
    well_formed: bool = True
    problem: str | None = None


def unescaped_positions(text: str, char: str) -> list[int]:
    positions, escaped = [], False
    for index, current in enumerate(text):
        if escaped:
            escaped = False
        elif current == "\\":
            escaped = True
        elif current == char:
            positions.append(index)
    return positions


def unescape(content: str) -> str:
    return re.sub(r"\\([()\\])", r"\1", content)


def parse_rule(raw: str) -> ToolRule:
    text = raw.strip()
    opens, closes = unescaped_positions(text, "("), unescaped_positions(text, ")")
    if not opens and not closes:
        return ToolRule(raw, text, None)
    if not opens or not closes or closes[-1] != len(text) - 1 or closes[-1] < opens[0]:
        problem = ("the `(` is never closed" if opens and not closes
                   else "`)` without `(`" if closes and not opens
                   else "text after the closing `)`")
        return ToolRule(raw, text, None, well_formed=False, problem=problem)
    tool = text[: opens[0]]
    content = text[opens[0] + 1 : closes[-1]]
    depth = 0
    for index, char in enumerate(content):
        if char == "\\":
            continue
        escaped = index > 0 and content[index - 1] == "\\"
        if char == "(" and not escaped:
            depth += 1
        elif char == ")" and not escaped:
            depth -= 1
            if depth < 0:
                return ToolRule(raw, tool, unescape(content), well_formed=False,
                                problem="unbalanced parentheses (escape literal ones as `\\(`)")
    if depth:
        return ToolRule(raw, tool, unescape(content), well_formed=False,
                        problem="unbalanced parentheses (escape literal ones as `\\(`)")
    if not re.fullmatch(r"[A-Za-z_][\w-]*|\*", tool):
        return ToolRule(raw, tool, unescape(content), well_formed=False,
                        problem=f"`{tool}` is not a tool name")
    return ToolRule(raw, tool, unescape(content))


def known_tools() -> dict[str, str]:
    return tool_names()


def is_known_tool(tool: str) -> bool:
    return tool in known_tools() or bool(MCP_TOOL.fullmatch(tool))


@dataclass(frozen=True, slots=True)
class Entry:
    """One rule written in `allowed-tools`, with its exact span when it can be known."""

    text: str
    span: Span
    node: YamlNode
    exact: bool  #: `span` covers exactly `text`


def split_outside_parens(text: str, separators: str) -> list[tuple[int, int]]:
    """(start, end) of the non-empty pieces of `text` between separators outside parentheses."""
    pieces, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif char in separators and depth == 0:
            pieces.append((start, index))
            start = index + 1
    pieces.append((start, len(text)))
    result = []
    for begin, end in pieces:
        while begin < end and text[begin].isspace():
            begin += 1
        while end > begin and text[end - 1].isspace():
            end -= 1
        if end > begin:
            result.append((begin, end))
    return result


def entries(node: YamlNode, source: str, separators: str = ", \t") -> list[Entry]:
    """The rules of an `allowed-tools` value: list items, or pieces of a string."""
    if node.kind == "sequence":
        return [_item(item, source) for item in node.items
                if item.kind == "scalar" and item.text.strip()]
    if node.kind != "scalar":
        return []
    found = []
    base = _value_start(node, source)
    for begin, end in split_outside_parens(node.text, separators):
        piece = node.text[begin:end]
        if base is None:
            found.append(Entry(piece, node.content_span, node, exact=False))
        else:
            found.append(Entry(piece, Span(base + begin, base + end), node, exact=True))
    return found


def _item(node: YamlNode, source: str) -> Entry:
    base = _value_start(node, source)
    text = node.text.strip()
    if base is None:
        return Entry(text, node.content_span, node, exact=False)
    lead = len(node.text) - len(node.text.lstrip())
    return Entry(text, Span(base + lead, base + lead + len(text)), node, exact=True)


def _value_start(node: YamlNode, source: str) -> int | None:
    """The file offset of the first value character when the source spells the value verbatim."""
    if node.style in ("|", ">"):
        return None
    raw = source[node.content_span.start : node.content_span.end]
    if node.style in ("'", '"'):
        return node.content_span.start + 1 if raw[1:-1] == node.text else None
    return node.content_span.start if raw == node.text else None
