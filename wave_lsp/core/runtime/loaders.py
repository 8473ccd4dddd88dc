"""What a runtime's YAML loader makes of a frontmatter that strict YAML rejects
(docs/design/runtime-facts.md §9.6, the loaders the parser probe measured).

Two loaders rescue some such files, and each does it in its own way:

- **Gemini CLI** (`yaml_loader = "line-fallback"`): when js-yaml throws, or `name` and `description`
  are not both strings, a line parser reads `name:` and `description:` (plus the indented lines that
  follow the description) from the raw text. The skill loads when both are found; a block scalar then
  keeps its indicator (`>- Does X.`) and a quoted value its quotes.
- **OpenCode** (`yaml_loader = "colon-retry"`): when gray-matter throws, every top-level line of a
  key without `-` whose value holds `:` (and is not quoted, empty, `>` or `|`) is rewritten as
  `key: |-` plus the value indented, and parsed once more. When the rewrite changes nothing, the
  cached failed parse comes back as empty data, and the skill disappears silently; when the second
  parse fails too, OpenCode shows an error and skips the skill. Either way a skill whose `name` and
  `description` are not both strings is skipped silently.

- **Codex** (`yaml_loader = "serde-struct"`, measured on 0.171.0: tests/oracle/cases `cx-*`): a
  value strict YAML rejects (an unquoted `: `, `[a] [b] text`, `{a: [1}`) is read as text, as the
  quoting retry reads it (`frontmatter_readings`), and the frontmatter is decoded into the fields
  Codex reads (`name`, `description`, `metadata`), so any other key is ignored even when it is
  written twice; a duplicated field it reads, or a `metadata` that is not a mapping, drops the
  skill.

`rescue` answers for one document and profile; a strict loader (skills-ref, Wave) and Claude
Code's quoting retry (`yamltree`) have no rescue here. A duplicate key counts as a failure for these
two loaders: js-yaml rejects it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.yamltree import parse_frontmatter
from wave_lsp.core.runtime.profiles import RuntimeProfile


@dataclass(frozen=True, slots=True)
class Rescue:
    """What the runtime's loader does with a frontmatter strict YAML rejects."""

    loads: bool  #: the skill loads, with the `name` and `description` below
    how: str  #: one clause for messages: what the loader does
    name: str | None = None
    description: str | None = None
    #: the skill loads, but a value is not what the author wrote (an indicator or quotes kept)
    degraded: bool = False
    #: the skill is dropped with no message at all
    silent: bool = False


def rescue(profile: RuntimeProfile, document: SkillDocument,
           failed: bool = False) -> Rescue | None:
    """The loader's rescue for `document`, or None when the profile's loader has none or the
    frontmatter does not need one. `failed`: the caller knows that js-yaml throws although the
    tree was built (an alias to an anchor that does not exist)."""
    frontmatter = document.source.frontmatter
    yaml = document.yaml
    if frontmatter is None or yaml is None:
        return None
    failed = failed or yaml.problem is not None or bool(yaml.duplicates)
    if profile.yaml_loader == "line-fallback":
        strings = isinstance(document.value("name"), str) and isinstance(
            document.value("description"), str)
        if not failed and strings:
            return None
        return _line_fallback(profile, frontmatter)
    if profile.yaml_loader == "colon-retry" and failed:
        return _colon_retry(profile, frontmatter)
    if profile.yaml_loader == "serde-struct" and failed:
        return _serde_struct(profile, document)
    return None


#: the top-level fields Codex decodes (its frontmatter struct); every other key is ignored
CODEX_FIELDS = frozenset({"name", "description", "metadata"})


def _serde_struct(profile: RuntimeProfile, document: SkillDocument) -> Rescue:
    """Codex's reading of a frontmatter strict YAML rejects or with a duplicate key."""
    yaml = document.yaml
    assert yaml is not None
    runtime = profile.runtime
    if yaml.problem is not None and not yaml.readings & profile.frontmatter_readings:
        return Rescue(False, f"{runtime} cannot read it even as text and skips the skill")
    top = yaml.mapping
    read = [later.text for _, later in yaml.duplicates
            if top is not None and any(key is later for key, _ in top.pairs)
            and later.text in CODEX_FIELDS]
    if read:
        return Rescue(False, f"{runtime} decodes `{read[0]}` into its own field and rejects a "
                             "duplicated one, so it skips the skill")
    metadata = next((value for key, value in (top.pairs if top is not None else [])
                     if key.text == "metadata"), None)
    if metadata is not None and metadata.kind != "mapping":
        return Rescue(False, f"{runtime} reads the value as text, but `metadata` must be a "
                             "mapping, so it skips the skill")
    how = (f"{runtime} ignores every key but `name`, `description` and `metadata`, so it loads "
           "the skill" if yaml.problem is None else
           f"{runtime} reads the value as text and loads the skill")
    return Rescue(True, how)


_NAME_LINE = re.compile(r"^\s*name:\s*(.*)$")
_DESCRIPTION_LINE = re.compile(r"^\s*description:\s*(.*)$")
_CONTINUED = re.compile(r"^[ \t]+\S")


@lru_cache(maxsize=64)
def _line_fallback(profile: RuntimeProfile, frontmatter: str) -> Rescue:
    """Gemini CLI's `parseSimpleFrontmatter`, line by line."""
    lines = re.split(r"\r?\n", frontmatter)
    name: str | None = None
    description: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        found = _NAME_LINE.match(line)
        if found:
            name = found.group(1).strip()
            index += 1
            continue
        found = _DESCRIPTION_LINE.match(line)
        if found:
            parts = [found.group(1).strip()]
            while index + 1 < len(lines) and _CONTINUED.match(lines[index + 1]):
                parts.append(lines[index + 1].strip())
                index += 1
            description = " ".join(part for part in parts if part)
        index += 1
    runtime = profile.runtime
    if name is None or description is None:
        missing = "`name`" if name is None else "`description`"
        return Rescue(False, f"{runtime}'s line parser finds no {missing} line either, so it "
                             "drops the skill without a message", name, description, silent=True)
    degraded = description[:1] in ">|\"'" or name[:1] in "\"'"
    how = (f"{runtime}'s line parser reads `name` and `description` from their lines and loads "
           "the skill")
    if degraded:
        how += f", but keeps the value as written: the description is `{_cut(description)}`"
    return Rescue(True, how, name, description, degraded=degraded)


_TOP_LEVEL_KEY = re.compile(r"^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$")


def colon_sanitized(frontmatter: str) -> str:
    """OpenCode's `fallbackSanitization` of the frontmatter text."""
    result: list[str] = []
    for line in re.split(r"\r?\n", frontmatter):
        stripped = line.strip()
        if stripped.startswith("#") or not stripped or re.match(r"^\s+", line):
            result.append(line)
            continue
        found = _TOP_LEVEL_KEY.match(line)
        if not found:
            result.append(line)
            continue
        key, value = found.group(1), found.group(2).strip()
        if value in ("", ">", "|") or value.startswith(('"', "'")):
            result.append(line)
            continue
        if ":" in value:
            result += [f"{key}: |-", f"  {value}"]
            continue
        result.append(line)
    return "\n".join(result)


@lru_cache(maxsize=64)
def _colon_retry(profile: RuntimeProfile, frontmatter: str) -> Rescue:
    runtime = profile.runtime
    rewritten = colon_sanitized(frontmatter)
    if rewritten == re.sub(r"\r?\n", "\n", frontmatter):
        return Rescue(False, f"{runtime}'s colon retry changes nothing here, so its parser "
                             "returns empty data and the skill disappears without a message",
                      silent=True)
    again = parse_frontmatter(rewritten)
    if again.problem is not None or again.duplicates or again.mapping is None:
        return Rescue(False, f"{runtime}'s colon retry does not help: it shows `Failed to "
                             "parse YAML frontmatter` and skips the skill")
    values = again.mapping.value()
    name, description = values.get("name"), values.get("description")
    if not isinstance(name, str) or not isinstance(description, str):
        return Rescue(False, f"after {runtime}'s colon retry `name` and `description` are not "
                             "both text, so it skips the skill without a message", silent=True)
    return Rescue(True, f"{runtime}'s colon retry rewrites the value as a block and loads the "
                        "skill", name, description)


def _cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
