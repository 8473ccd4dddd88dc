"""A parsed SKILL.md: source split, YAML tree and field values, computed once per text.

`SkillDocument.from_text` is pure and cached by content, so the language server can ask for the same
text again (hover after diagnostics) without re-parsing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from wave_lsp.core.parsing.source import DecodeResult, SkillSource, split, strip_bom
from wave_lsp.core.parsing.text import LineIndex, Span
from wave_lsp.core.parsing.yamltree import ALIAS, YamlDocument, YamlNode, parse_frontmatter


@dataclass(slots=True)
class FieldEntry:
    """One top-level frontmatter key with its value node (the last one for duplicates)."""

    name: str
    key: YamlNode
    node: YamlNode
    value: Any


@dataclass(slots=True)
class SkillDocument:
    """A SKILL.md: its text, delimiters, frontmatter tree and top-level fields."""

    text: str
    source: SkillSource
    yaml: YamlDocument | None
    fields: dict[str, FieldEntry] = field(default_factory=dict)
    #: the raw bytes were not valid UTF-8 at this byte offset (SK003)
    invalid_byte_offset: int | None = None
    invalid_text_offset: int | None = None

    @property
    def lines(self) -> LineIndex:
        return self.source.lines

    @property
    def bom(self) -> bool:
        return self.source.bom

    @property
    def body(self) -> str:
        return self.source.body

    @property
    def body_offset(self) -> int:
        return self.source.body_offset

    @property
    def mapping(self) -> YamlNode | None:
        return self.yaml.mapping if self.yaml else None

    def value(self, name: str, default: Any = None) -> Any:
        entry = self.fields.get(name)
        return default if entry is None or entry.value is ALIAS else entry.value

    def has(self, name: str) -> bool:
        return name in self.fields

    @property
    def opener_span(self) -> Span:
        opener = self.source.opener
        return opener.span if opener else Span(0, min(3, len(self.text)))

    @staticmethod
    def from_text(text: str) -> SkillDocument:
        """Parse a text as an editor holds it (a leading U+FEFF is recorded and removed)."""
        decoded = strip_bom(DecodeResult(text=text))
        return _parse(decoded.text, decoded.bom, None, None)

    @staticmethod
    def from_decoded(decoded: DecodeResult) -> SkillDocument:
        return _parse(decoded.text, decoded.bom, decoded.invalid_byte_offset,
                      decoded.invalid_text_offset)


@lru_cache(maxsize=32)
def _parse(text: str, bom: bool, bad_byte: int | None, bad_text: int | None) -> SkillDocument:
    source = split(text, bom=bom)
    yaml = None
    if source.frontmatter is not None:
        yaml = parse_frontmatter(source.frontmatter, source.frontmatter_offset)
    document = SkillDocument(text=text, source=source, yaml=yaml, invalid_byte_offset=bad_byte,
                             invalid_text_offset=bad_text)
    mapping = yaml.mapping if yaml else None
    if mapping is not None:
        values = mapping.value()
        for key_node, value_node in mapping.pairs:
            if key_node.kind != "scalar":
                continue
            name = key_node.text
            document.fields[name] = FieldEntry(name, key_node, value_node, values.get(name))
    return document
