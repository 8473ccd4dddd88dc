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
  value strict YAML rejects (an unquoted `: `, `[a] [b] text`, `{a: [1}`; not `**/*.ts`) is read
  as text (`codex_repaired`), and the frontmatter is decoded into the fields
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

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.yamltree import YamlNode, parse_frontmatter


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
    frontmatter does not need one. Every reading of the document under the profile asks here
    (`reads.read_as`: the listing, the preview and the rules that ask what the runtime loads;
    the YAML rules for their messages). `failed`: the caller knows that js-yaml throws although
    the tree was built (an alias to an anchor that does not exist is found here too)."""
    frontmatter = document.source.frontmatter
    yaml = document.yaml
    if frontmatter is None or yaml is None:
        return None
    failed = failed or yaml.problem is not None or bool(yaml.duplicates) \
        or (yaml.mapping is not None and dangling_alias(yaml.mapping))
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
#: the start of a `key: value` line at any depth, the value not quoted and not a block scalar;
#: the value is the rest of the line without a final `\r` and trailing blanks (`codex_line`:
#: stripping in Python keeps the match linear, a lazy `.*?` before `[ \t]*$` is quadratic)
_CODEX_KEY = re.compile(r"([ \t]*)([A-Za-z0-9_-]+):([ \t]+)(?=[^\s\"'|>])")


def codex_line(line: str) -> tuple[str, str, str, str, str] | None:
    """A `key: value` line of `codex_repaired` as (indent, key, blanks after the colon, value,
    final `\r` or ""), or None for any other line. The value keeps its inner white space and
    loses only the spaces and tabs before the line's end (or its final `\r`)."""
    found = _CODEX_KEY.match(line)
    if found is None:
        return None
    rest = line[found.end():]
    cr = "\r" if rest.endswith("\r") else ""
    value = rest[: len(rest) - len(cr)].rstrip(" \t")
    return found.group(1), found.group(2), found.group(3), value, cr


def codex_repaired(frontmatter: str) -> str:
    """The frontmatter as Codex 0.171.0 reads it after a YAML error (inferred from the harness's
    cases cx-*: what it loads and what it drops): a line's value that does not parse on its own
    and holds `: ` or starts a flow collection is quoted, at any depth; anything else (`**/*.ts`,
    an unterminated quote) stays and still fails."""
    lines = []
    for line in frontmatter.split("\n"):
        found = codex_line(line)
        if found is None:
            lines.append(line)
            continue
        indent, key, blanks, value, cr = found
        if (": " in value or value.endswith(":") or value[:1] in "[{") \
                and parse_frontmatter(f"k: {value}").problem is not None:
            escaped = value.replace("\\", "\\\\").replace('"', '\\"')
            line = f'{indent}{key}:{blanks}"{escaped}"{cr}'
        lines.append(line)
    return "\n".join(lines)


@lru_cache(maxsize=64)
def codex_reading(frontmatter: str) -> tuple[dict[str, object] | None, str]:
    """Codex's decoded fields of a frontmatter strict YAML rejects (or with a duplicate key), or
    None and why it drops the skill."""
    parsed = parse_frontmatter(frontmatter)
    if parsed.problem is not None:
        parsed = parse_frontmatter(codex_repaired(frontmatter))
    if parsed.problem is not None or parsed.mapping is None:
        return None, "cannot read it even as text and skips the skill"
    top = parsed.mapping
    if dangling_alias(top):
        return None, ("reads an alias to an anchor that does not exist (`*…` unquoted) as an "
                      "error and skips the skill")
    read = [later.text for _, later in parsed.duplicates
            if any(key is later for key, _ in top.pairs) and later.text in CODEX_FIELDS]
    if read:
        return None, (f"decodes `{read[0]}` into its own field and rejects a duplicated one, "
                      "so it skips the skill")
    values = {key.text: value for key, value in top.pairs if key.kind == "scalar"}
    metadata = values.get("metadata")
    if metadata is not None and metadata.kind != "mapping":
        return None, "reads the value as text, but `metadata` must be a mapping, so it skips the skill"
    return {key: node.value() for key, node in values.items()}, ""


def dangling_alias(top: YamlNode) -> bool:
    """The tree under `top` holds an alias to an anchor it does not define (`**/*.ts`, `*x`),
    which js-yaml and serde reject."""
    nodes = list(top.walk())
    anchors = {node.anchor for node in nodes if node.kind != "alias" and node.anchor_span}
    return any(node.kind == "alias" and node.anchor not in anchors for node in nodes)


def _serde_struct(profile: RuntimeProfile, document: SkillDocument) -> Rescue:
    """Codex's reading of a frontmatter strict YAML rejects or with a duplicate key."""
    yaml = document.yaml
    assert yaml is not None and document.source.frontmatter is not None
    runtime = profile.runtime
    values, why = codex_reading(document.source.frontmatter)
    if values is None:
        return Rescue(False, f"{runtime} {why}")
    ignores = "ignores every key but `name`, `description` and `metadata`"
    if yaml.problem is None:
        how = f"{runtime} {ignores}, so it loads the skill"
    elif yaml.duplicates:  # case fm-duplicate-and-colon
        how = f"{runtime} reads the value as text and {ignores}, so it loads the skill"
    else:
        how = f"{runtime} reads the value as text and loads the skill"
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


def unclosed_values(profile: RuntimeProfile, rest: str) -> dict[str, object] | None:
    """The fields a runtime that reads an unclosed frontmatter to the end of the file
    (`reads_unclosed_frontmatter_to_end`, gray-matter) loads from `rest` (the text after the
    opener), or None when that text is no YAML mapping even after its rescue: OpenCode 1.18.33
    loads `name`/`description` lines with nothing after them and drops a skill whose body text
    follows (tests/oracle/cases/oc-unclosed-frontmatter)."""
    parsed = parse_frontmatter(rest)
    if (parsed.problem is not None or parsed.duplicates) and profile.yaml_loader == "colon-retry":
        rewritten = colon_sanitized(rest)
        if rewritten == re.sub(r"\r?\n", "\n", rest):
            return None
        parsed = parse_frontmatter(rewritten)
    if parsed.problem is not None or parsed.duplicates or parsed.mapping is None:
        return None
    values = parsed.mapping.value()
    return values if isinstance(values, dict) else None


_WAVE_QUOTES = re.compile(r"^[\"']|[\"']$")


def line_parser_value(line: str) -> tuple[str, str] | None:
    """One frontmatter line as Wave 469391bb's line parser (`parseYamlFrontmatter`) reads it:
    split at the first `:`, the value trimmed and one quote removed at each end
    (`/^["']|["']$/g`), escapes kept as written; None for a line it skips (blank, `#`, a list
    item, no `:`) or one with no value."""
    trimmed = line.strip()
    if not trimmed or trimmed.startswith(("#", "-")) or ":" not in trimmed:
        return None
    key, _, value = trimmed.partition(":")
    value = _WAVE_QUOTES.sub("", value.strip())
    return (key.strip(), value) if key.strip() and value else None
