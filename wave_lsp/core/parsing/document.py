"""A parsed SKILL.md: source split, YAML tree and field values, computed once per text.

`SkillDocument.from_text` is pure and cached by content, so the language server can ask for the same
text again (hover after diagnostics) without re-parsing; what is derived from a document per
runtime (`runtime.reads.read_as`) is kept in its `memo`. `field_values` gives the frontmatter's
values alone, without the tree when that is certain to give the same values (what the skill index
needs: docs/design/product.md *Indexing speed*).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from wave_lsp.core.parsing.source import (
    DecodeResult,
    SkillSource,
    quick_frontmatter,
    split,
    strip_bom,
)
from wave_lsp.core.parsing.text import LineIndex, Span
from wave_lsp.core.parsing.yamltree import (
    ALIAS,
    YamlDocument,
    YamlNode,
    parse_frontmatter,
    quick_values,
)


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
    #: what the layers above derive from this text once (`runtime.reads.read_as`, per profile);
    #: a document is never changed after `_parse`, and is cached by content with it
    memo: dict[object, object] = field(default_factory=dict, repr=False, compare=False)

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


class FieldValues(Protocol):
    """What reads the frontmatter's values and nothing else needs (`SkillDocument.value`)."""

    def value(self, name: str, default: Any = None) -> Any: ...


@dataclass(frozen=True, slots=True)
class FrontmatterValues:
    """The top-level frontmatter values of a text, as its `SkillDocument` gives them through
    `value`, without the node tree, spans or body."""

    values: dict[Any, Any]
    #: the names `SkillDocument.fields` holds (the texts of the scalar keys)
    names: frozenset[str]

    def value(self, name: str, default: Any = None) -> Any:
        return self.values.get(name) if name in self.names else default


def field_names(document: FieldValues) -> frozenset[str]:
    """The top-level frontmatter keys of a parsed document or of its values (`field_values`)."""
    if isinstance(document, FrontmatterValues):
        return document.names
    if isinstance(document, SkillDocument):
        return frozenset(document.fields)
    return frozenset()


def field_values(decoded: DecodeResult) -> FieldValues:
    """The frontmatter values of a decoded file: from libyaml's events alone for the usual
    texts (`quick_frontmatter`, `quick_values`), else from the full parse, which is the
    reference (tests/core/test_quick_values.py compares the two)."""
    text = decoded.text
    frontmatter = quick_frontmatter(text)
    if frontmatter is not None:
        quick = quick_values(frontmatter)
        if quick is not None:
            return FrontmatterValues(quick.values, quick.scalar_keys)
    return SkillDocument.from_decoded(decoded)
