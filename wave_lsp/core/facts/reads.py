"""What a runtime reads from a SKILL.md: the frontmatter values it loads and the body it sends
(docs/design/runtime-facts.md §3.1, §3.2 and §3.6).

The document (`SkillDocument`) is parsed once, for every target; this is the target's own reading
of it, asked of the profile:

- `strips_bom`: a byte-order mark is removed before the frontmatter is looked for (else a file
  with one has no frontmatter at all).
- `frontmatter_closing` (`source.ClosingRule`, cut by `source.cut_as`; runtime-facts.md §12):
  which line ends the frontmatter and where the body starts. Claude Code's
  `/^---\\s*\\n([\\s\\S]*?)---\\s*\\n?/` ends it at the first `---` anywhere (`description: a
  --- b` ends it mid-line) and starts the body after the white space that follows, so its leading
  blank lines are never sent; Codex and Copilot CLI need a line of `---` (a `----` line leaves the
  frontmatter unclosed for them: no fields); Gemini CLI, OpenCode and Wave close at the first line
  that starts with `---`, and then send no body (Gemini CLI), the rest of that line (OpenCode's
  gray-matter) or, without a line of `---` alone, the whole file (Wave's body regex).
- `frontmatter_readings`: which lenient readings (Bun's parser, the quoting retry, the tab retry)
  still load a frontmatter that strict YAML rejects; under none of them the fields are empty.
- `body_description_default`: a skill without a description is described by its body's first
  non-blank line.
- `reads_unclosed_frontmatter_to_end` (OpenCode): an unclosed frontmatter is the rest of the file,
  and no body; `yaml_loader = "serde-struct"` (Codex): a frontmatter strict YAML rejects is read
  by `loaders.codex_reading` (runtime-facts.md §9.10); `yaml_loader = "line-fallback"` (Gemini
  CLI): where js-yaml throws or `name` and `description` are not both text, the two lines its
  line parser finds (`loaders.rescue`, runtime-facts.md §9.6).

A profile without these facts reads the document as it is parsed (`same_fields`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from wave_lsp.core.facts.loaders import (
    Rescue,
    codex_reading,
    dangling_alias,
    rescue,
    unclosed_values,
)
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.document import FieldValues, FrontmatterValues, SkillDocument
from wave_lsp.core.parsing.source import Cut, cut_as, own_cut
from wave_lsp.core.parsing.yamltree import (
    QUOTE_RETRY,
    YamlDocument,
    YamlProblem,
    lenient_reading,
    parse_frontmatter,
    scalar_alias_targets,
    to_python,
)

_HEADING_MARKER = re.compile(r"^#+\s+")
#: `extractDescriptionFromMarkdown`: longer first lines are cut to 97 characters and `...`
BODY_DESCRIPTION_CHARS = 100
_EMPTY = FrontmatterValues({}, frozenset())


@dataclass(frozen=True, slots=True)
class RuntimeReading:
    """A SKILL.md as one runtime reads it."""

    values: FieldValues  #: the frontmatter values it loads (none: empty metadata)
    body_offset: int  #: where the body it sends starts in the document's text
    #: a frontmatter was found and its fields loaded (False: the skill has empty metadata)
    loaded_fields: bool
    #: the values are the document's own (the usual case): its nodes describe them
    same_fields: bool
    #: the description the runtime uses (None: it has none)
    description: str | None
    #: `description` comes from the body's first line, not from the frontmatter
    described_from_body: bool = False
    #: the body is the whole file, frontmatter included, sent as it is (Wave's body regex finds no
    #: line of `---` alone: `frontmatter_closing` "after-bare-line-else-file"), so a runtime that
    #: trims the body does not trim it
    whole_file: bool = False


def read_as(document: SkillDocument, profile: RuntimeProfile) -> RuntimeReading:
    """`document` as `profile`'s runtime reads it, computed once per document and profile (kept
    in `document.memo`: the rules, the listing and the preview all ask)."""
    key = (read_as, profile)
    found = document.memo.get(key)
    if not isinstance(found, RuntimeReading):
        found = document.memo[key] = _read_as(document, profile)
    return found


def _read_as(document: SkillDocument, profile: RuntimeProfile) -> RuntimeReading:
    source = document.source
    if profile.frontmatter_ends_at_first_dashes:
        return _regex_read(document, profile)
    cut = cut_as(source, profile.frontmatter_closing) if source.opener is not None else None
    if cut is None and source.opener is not None and source.closer is not None:
        # wave-lsp's split found a closing line this runtime does not take: unclosed for it
        if profile.reads_unclosed_frontmatter_to_end:
            return _read_to_end(document, profile)
        return _described(document, profile, _EMPTY, 0, False, False)
    if cut is None and profile.reads_unclosed_frontmatter_to_end and source.opener is not None:
        return _read_to_end(document, profile)
    if cut is not None and cut != own_cut(source):
        return _cut_read(document, profile, cut)
    yaml = document.yaml
    if profile.yaml_loader == "line-fallback" and (lines := rescue(profile, document)) is not None:
        return _line_read(document, profile, lines, document.body_offset)
    if profile.yaml_loader == "serde-struct" and yaml is not None \
            and (yaml.problem is not None or yaml.duplicates):
        return _codex_read(document, profile)
    retried = _dangling_retry(yaml, source.frontmatter, source.frontmatter_offset, profile)
    if retried is not None:
        return _described(document, profile, retried, document.body_offset,
                          retried is not _EMPTY, False)
    values = _aliases_resolved(yaml, profile) or document
    return _described(document, profile, values, document.body_offset,
                      document.yaml is not None, True)


def _regex_read(document: SkillDocument, profile: RuntimeProfile) -> RuntimeReading:
    """Claude Code's reading: its regex from offset 0, after the byte-order mark if it strips
    one (else a file with one has no frontmatter)."""
    cut = None if document.bom and not profile.strips_bom else \
        cut_as(document.source, profile.frontmatter_closing)
    if cut is None:
        return _described(document, profile, _EMPTY, 0, False, document.yaml is None)
    return _cut_read(document, profile, cut)


def _cut_read(document: SkillDocument, profile: RuntimeProfile, cut: Cut) -> RuntimeReading:
    """The fields of the frontmatter the runtime cuts out of the file, and its body."""
    source = document.source
    frontmatter = document.text[cut.frontmatter_offset:cut.frontmatter_end]
    same = frontmatter == source.frontmatter and cut.frontmatter_offset == \
        source.frontmatter_offset
    yaml = document.yaml if same and document.yaml is not None else \
        parse_frontmatter(frontmatter, cut.frontmatter_offset)
    if same and profile.yaml_loader == "line-fallback" \
            and (lines := rescue(profile, document)) is not None:
        return _line_read(document, profile, lines, cut.body_offset)
    if profile.yaml_loader == "serde-struct" and (yaml.problem is not None or yaml.duplicates):
        values, _ = codex_reading(frontmatter)
        if values is None:
            return _described(document, profile, _EMPTY, cut.body_offset, False, False)
        return _described(document, profile, FrontmatterValues(values, frozenset(values)),
                          cut.body_offset, True, False)
    loaded = _loaded_values(yaml, profile)
    if loaded is None:
        return _described(document, profile, _EMPTY, cut.body_offset, False, False)
    retried = _dangling_retry(yaml, frontmatter, cut.frontmatter_offset, profile)
    if retried is not None:
        return _described(document, profile, retried, cut.body_offset, retried is not _EMPTY,
                          False)
    own = _aliases_resolved(yaml, profile) or (document if same else loaded)
    reading = _described(document, profile, own, cut.body_offset, True, same)
    if cut.body_offset == 0 and profile.frontmatter_closing.body_start == \
            "after-bare-line-else-file":
        return replace(reading, whole_file=True)
    return reading


def read_elsewhere(document: SkillDocument, profile: RuntimeProfile, name: str) -> Any:
    """The value `profile`'s runtime reads for the top-level field `name` where the document's
    tree has none (Gemini CLI's line parser takes an indented `description:` line), else None."""
    if document.has(name):
        return None
    reading = read_as(document, profile)
    return None if reading.same_fields else reading.values.value(name)


def _read_to_end(document: SkillDocument, profile: RuntimeProfile) -> RuntimeReading:
    """An unclosed frontmatter read to the end of the file: its fields, and no body."""
    opener = document.source.opener
    assert opener is not None
    start = document.lines.line_start(opener.line + 1) if opener.line + 1 < \
        document.lines.line_count else len(document.text)
    values = unclosed_values(profile, document.text[start:])
    end = len(document.text)
    if values is None:
        return _described(document, profile, _EMPTY, end, False, False)
    names = frozenset(key for key in values if isinstance(key, str))
    return _described(document, profile, FrontmatterValues(values, names), end, True, False)


def _line_read(document: SkillDocument, profile: RuntimeProfile, lines: Rescue,
               body_offset: int) -> RuntimeReading:
    """Gemini CLI's line parser, where js-yaml throws or does not give `name` and `description`
    as text (`loaders.rescue`): those two lines are all it loads; without both it drops the
    skill."""
    if not lines.loads or lines.name is None or lines.description is None:
        return _described(document, profile, _EMPTY, body_offset, False, False)
    values = {"name": lines.name, "description": lines.description}
    return _described(document, profile, FrontmatterValues(values, frozenset(values)),
                      body_offset, True, False)


def _codex_read(document: SkillDocument, profile: RuntimeProfile) -> RuntimeReading:
    """Codex's fields of a frontmatter strict YAML rejects (`loaders.codex_reading`)."""
    values, _ = codex_reading(document.source.frontmatter or "")
    if values is None:
        return _described(document, profile, _EMPTY, document.body_offset, False, False)
    return _described(document, profile, FrontmatterValues(values, frozenset(values)),
                      document.body_offset, True, False)


def _dangling_retry(yaml: YamlDocument | None, frontmatter: str | None, offset: int,
                    profile: RuntimeProfile) -> FieldValues | None:
    """The values of the quoting retry, for a runtime that has one (`QUOTE_RETRY` among its
    `frontmatter_readings`), where the tree holds an alias to an anchor it never defines: its
    YAML parser rejects that, and the retry quotes the value (`paths: **/*.ts` is the pattern;
    Claude Code 2.1.332, probe fm-glob-paths). `_EMPTY` when the retry fails too (empty
    metadata); None when nothing is to retry."""
    mapping = yaml.mapping if yaml is not None else None
    if mapping is None or frontmatter is None or yaml is None or yaml.problem is not None \
            or QUOTE_RETRY not in profile.frontmatter_readings or not dangling_alias(mapping):
        return None
    problem = YamlProblem("alias", "found undefined alias", mapping.span)
    retried = lenient_reading(frontmatter, offset, problem)
    found = retried.mapping
    if found is None or not (retried.readings & profile.frontmatter_readings):
        return _EMPTY
    names = frozenset(key.text for key, _ in found.pairs if key.kind == "scalar")
    return FrontmatterValues(found.value(), names)


def _aliases_resolved(yaml: YamlDocument | None, profile: RuntimeProfile) -> FieldValues | None:
    """The values with each alias of a scalar resolved, for a runtime whose YAML loader resolves
    aliases (`resolves_yaml_aliases`; Claude Code 2.1.332 lists `description: *w` as the
    anchored `when_to_use`, probe fm-anchor-alias); None when nothing is to resolve."""
    mapping = yaml.mapping if yaml is not None else None
    if mapping is None or not profile.resolves_yaml_aliases \
            or not scalar_alias_targets(list(mapping.walk())):
        return None
    names = frozenset(key.text for key, _ in mapping.pairs if key.kind == "scalar")
    return FrontmatterValues(to_python(mapping, scalar_aliases=True), names)


def _loaded_values(yaml: YamlDocument, profile: RuntimeProfile) -> FieldValues | None:
    """The values the runtime loads from `yaml` (None: it cannot parse it)."""
    if yaml.problem is not None and not (yaml.readings & profile.frontmatter_readings):
        return None
    mapping = yaml.mapping
    if mapping is None:
        return _EMPTY
    names = frozenset(key.text for key, _ in mapping.pairs if key.kind == "scalar")
    return FrontmatterValues(mapping.value(), names)


def _described(document: SkillDocument, profile: RuntimeProfile, values: FieldValues,
               body_offset: int, loaded: bool, same: bool) -> RuntimeReading:
    if same and values is not document:
        same = False
    description = coerce_description(values.value("description"))
    if description is not None or profile.body_description_default is None:
        return RuntimeReading(values, body_offset, loaded, same, description)
    return RuntimeReading(values, body_offset, loaded, same,
                          body_description(document.text[body_offset:],
                                           profile.body_description_default,
                                           profile.body_description_skips_headings), True)


def coerce_description(value: Any) -> str | None:
    """Claude Code's `coerceDescriptionToString`: text trimmed (blank: none), a number or boolean
    as JavaScript's `String(v)`, anything else none."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return None


def body_description(body: str, default: str, skip_headings: bool = False) -> str:
    """`extractDescriptionFromMarkdown`: the first non-blank line, trimmed, a heading's `#`s
    removed, cut to 97 characters and `...` when longer than 100; `default` when there is none.
    `skip_headings`: the first line that is not a heading (Copilot CLI 1.0.102, runtime-facts.md
    §11; whether it cuts long lines the same way was not measured)."""
    for line in body.split("\n"):
        trimmed = line.strip()
        if trimmed and skip_headings and _HEADING_MARKER.match(trimmed):
            continue
        if trimmed:
            text = _HEADING_MARKER.sub("", trimmed, count=1)
            if len(text) > BODY_DESCRIPTION_CHARS:
                return text[: BODY_DESCRIPTION_CHARS - 3] + "..."
            return text
    return default
