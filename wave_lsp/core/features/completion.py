"""Completion candidates at an offset (docs/design/product.md *Language server*, completion).

Frontmatter: keys the target reads and the document lacks (documentation and a value snippet from the
schema), values of enum, boolean and suggested-value fields, agents (built-ins and agent files), tool
names and `Bash(` skeletons in `allowed-tools` (string, flow list and block list forms), hook events.
Body: `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`, declared `$name`, the target's `${…}` variables,
`/skill-name` of user-invocable skills, and relative paths of the skill's files after `](` or
`${WAVE_SKILL_DIR}/`. The frontmatter is read line by line, so completion works while the YAML is
still broken.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.schema import FieldSpec
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.toolrules import known_tools
from wave_lsp.core.facts.variables import VARIABLES
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.invocation.arguments import (
    REST_REASON,
    arguments_from,
    declared_names,
    plain_placeholders,
    takes_rest,
)
from wave_lsp.core.parsing.file_references import skill_files
from wave_lsp.core.parsing.text import Span

_KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:")
_TOP_KEY_PREFIX = re.compile(r"^[A-Za-z_][\w-]*$|^$")
_VALUE_PREFIX = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$")
_ITEM_PREFIX = re.compile(r"^[ \t]+-[ \t]*(.*)$")
_NESTED_KEY_PREFIX = re.compile(r"^([ \t]+)([A-Za-z_][\w-]*)?$")
_WORD_AFTER = re.compile(r"[\w.:\-\[\]]*")
#: the entry being typed in a value: what follows the last blank, comma, bracket or quote
_TYPED_WORD = re.compile(r"[^\s,\[\]\"']*$")


@dataclass(frozen=True, slots=True)
class Candidate:
    label: str
    kind: str  #: field, value, tool, snippet, variable, argument, skill, file, agent, event
    replace: Span
    insert_text: str | None = None
    snippet: bool = False
    detail: str = ""
    documentation: str = ""
    sort_text: str | None = None
    filter_text: str | None = None
    preselect: bool = False


def complete(ctx: FeatureContext, offset: int) -> list[Candidate]:
    """The candidates at `offset`, each with the text it replaces, a filter text and a sort
    text, filtered by what is already typed (clients that trust the server's filtering, such as
    Neovim's built-in completion and Helix, then offer only items that match)."""
    candidates = _candidates(ctx, offset)
    return [_finished(c, index) for index, c in enumerate(candidates)
            if _matches(_typed(ctx.document.text, c.replace, offset), c)]


def _typed(text: str, replace: Span, offset: int) -> str:
    """What the user typed of the word being completed (the replaced text up to the cursor)."""
    return text[replace.start : max(replace.start, offset)]


def _matches(typed: str, candidate: Candidate) -> bool:
    """What is typed appears, as typed, in the filter text (case-insensitive): `h` keeps `high`
    and `xhigh`, `Read` keeps `NotebookRead`. Not any subsequence of its characters: `Ba` must not
    offer `NotebookRead`, nor `$AR` `${CLAUDE_SKILL_DIR}`."""
    return typed.strip().lower() in (candidate.filter_text or candidate.label).lower()


def _finished(candidate: Candidate, index: int) -> Candidate:
    """The candidate with a filter text and a stable sort text (the order the core chose)."""
    return dataclasses.replace(candidate, filter_text=candidate.filter_text or candidate.label,
                   sort_text=f"{index:04d}{candidate.sort_text or ''}")


def _candidates(ctx: FeatureContext, offset: int) -> list[Candidate]:
    source = ctx.document.source
    lines = ctx.document.lines
    line = lines.line_of(offset)
    if source.opener is not None and source.opener.line < line and (
            source.closer is None or line < source.closer.line):
        return _frontmatter(ctx, offset, line)
    if source.closer is not None and line <= source.closer.line:
        return []
    return _body(ctx, offset)


# -- frontmatter -------------------------------------------------------------------------------
def _frontmatter(ctx: FeatureContext, offset: int, line: int) -> list[Candidate]:
    lines = ctx.document.lines
    start = lines.line_start(line)
    prefix = ctx.document.text[start:offset]
    if _TOP_KEY_PREFIX.match(prefix):
        after = _WORD_AFTER.match(ctx.document.text, offset)
        return _keys(ctx, Span(start, after.end() if after else offset), line)
    value = _VALUE_PREFIX.match(prefix)
    if value:
        spec = schema.field_spec(value.group(1))
        return _values(ctx, spec, offset, value.group(2), inline=True) if spec else []
    parent = _parent_key(ctx, line)
    spec = schema.field_spec(parent) if parent else None
    if spec is None:
        return []
    item = _ITEM_PREFIX.match(prefix)
    if item:
        return _values(ctx, spec, offset, item.group(1), inline=False)
    nested = _NESTED_KEY_PREFIX.match(prefix)
    if nested and spec.name == "hooks" and len(nested.group(1).expandtabs()) == 2:
        word = nested.group(2) or ""
        return _hook_events(Span(offset - len(word), offset))
    return []


def _parent_key(ctx: FeatureContext, line: int) -> str | None:
    lines = ctx.document.lines
    opener = ctx.document.source.opener
    if opener is None:  # no frontmatter, no keys
        return None
    for above in range(line - 1, opener.line, -1):
        match = _KEY_LINE.match(lines.line_text(above))
        if match:
            return match.group(1)
    return None


def _present_keys(ctx: FeatureContext, except_line: int) -> set[str]:
    lines = ctx.document.lines
    source = ctx.document.source
    if source.opener is None:  # no frontmatter, no keys
        return set()
    last = source.closer.line if source.closer else lines.line_count
    found = set()
    for line in range(source.opener.line + 1, last):
        match = _KEY_LINE.match(lines.line_text(line))
        if match and line != except_line:
            found.add(match.group(1))
    return found


def _keys(ctx: FeatureContext, replace: Span, line: int) -> list[Candidate]:
    present = _present_keys(ctx, line)
    candidates = []
    for order, spec in enumerate(schema.fields_for(ctx.profile)):
        if spec.name in present:
            continue
        candidates.append(Candidate(
            label=spec.name, kind="field", replace=replace,
            insert_text=f"{spec.name}: {_value_snippet(ctx, spec)}", snippet=True,
            detail=_types_detail(spec), documentation=field_documentation(spec, ctx.profile),
            sort_text=f"{0 if spec.name in ('name', 'description') else 1}{order:03d}"))
    return candidates


def _value_snippet(ctx: FeatureContext, spec: FieldSpec) -> str:
    if spec.snippet:
        return spec.snippet.replace("${TM_DIRECTORY_NAME}", _snippet_escape(
            ctx.location.dir_name or "my-skill"))
    if spec.is_boolean:
        return "${1|true,false|}"
    if spec.values:
        return "${1|" + ",".join(_snippet_choice(str(v)) for v in spec.values) + "|}"
    return "$1"


def _snippet_escape(text: str) -> str:
    return re.sub(r"([$}\\])", r"\\\1", text)


def _snippet_choice(text: str) -> str:
    return re.sub(r"([$}\\,|])", r"\\\1", text)


def _types_detail(spec: FieldSpec) -> str:
    return " | ".join(spec.types) or "value"


def field_documentation(spec: FieldSpec, profile: RuntimeProfile) -> str:
    """The Markdown shown for a field in completion and hover (from the schema)."""
    parts = [spec.description]
    if spec.values:
        docs = list(spec.value_docs) + [""] * (len(spec.values) - len(spec.value_docs))
        allowed = "\n".join(f"- `{value}`" + (f": {doc}" if doc else "")
                            for value, doc in zip(spec.values, docs, strict=True))
        parts.append("Values:\n" + allowed)
    elif spec.is_boolean:
        parts.append("Values: `true` or `false`.")
    read_by = ", ".join(f"`{t}`" for t in spec.targets)
    parts.append(f"Read by: {read_by}." + ("" if spec.read_by(profile)
                                           else f" **Not read by `{profile.name}`.**"))
    return "\n\n".join(parts)


def _values(ctx: FeatureContext, spec: FieldSpec, offset: int, typed: str,
            inline: bool) -> list[Candidate]:
    if spec.name in ("allowed-tools", "disallowed-tools"):
        return _tools(offset, typed, inline)
    word = _typed_word(typed)
    replace = Span(offset - len(word), offset)
    if spec.name == "agent":
        return [Candidate(agent.name, "agent", replace, detail=agent.description or "agent",
                          documentation=str(agent.path) if agent.path else "built-in agent")
                for agent in ctx.index.agents()]
    values: list[tuple[str, str]] = []
    if spec.is_boolean:
        values = [("true", ""), ("false", "")]
    elif spec.values:
        docs = list(spec.value_docs) + [""] * (len(spec.values) - len(spec.value_docs))
        values = [(str(v), d) for v, d in zip(spec.values, docs, strict=True)]
    kind = "model" if spec.name == "model" else "value"
    return [Candidate(value, kind, replace, detail=doc or spec.name,
                      documentation=doc, sort_text=f"{i:03d}") for i, (value, doc) in enumerate(values)]


def _typed_word(typed: str) -> str:
    match = _TYPED_WORD.search(typed)
    return match.group(0) if match else ""  # the pattern matches an empty tail, so never None


def _tools(offset: int, typed: str, inline: bool) -> list[Candidate]:
    """Tool names and Bash skeletons at the current entry of an `allowed-tools` value."""
    if typed.count("(") > typed.count(")"):
        return []  # inside `Bash(...)`: the command is the author's
    word = _typed_word(typed)
    replace = Span(offset - len(word), offset)
    candidates = [Candidate(tool, "tool", replace, detail="tool", documentation=doc,
                            sort_text=f"1{tool}") for tool, doc in known_tools().items()]
    skeletons = [
        ("Bash(command *)", "Bash(${1:git status} *)", "a command and any arguments after it"),
        ("Bash(command)", "Bash(${1:git status})", "exactly this command"),
        ("Bash(prefix:*)", "Bash(${1:npm run}:*)", "legacy prefix form: the command and anything "
                                                  "after a space"),
        ("Bash(node ${WAVE_SKILL_DIR}/scripts/…)", "Bash(node \\${WAVE_SKILL_DIR}/scripts/${1:x.mjs} *)",
         "a script shipped in the skill folder"),
    ]
    candidates += [Candidate(label, "snippet", replace, insert_text=text, snippet=True,
                             detail="permission rule", documentation=doc, sort_text=f"0{i}",
                             filter_text="Bash")
                   for i, (label, text, doc) in enumerate(skeletons)]
    return candidates


def _hook_events(replace: Span) -> list[Candidate]:
    spec = schema.field_spec("hooks")
    events = spec.schema.get("propertyNames", {}).get("enum", []) if spec else []
    return [Candidate(event, "event", replace, insert_text=f"{event}:", detail="hook event")
            for event in events]


# -- body --------------------------------------------------------------------------------------
_DOLLAR = re.compile(r"\$(\{[A-Za-z_0-9.]*|[A-Za-z_0-9]*(\[\d*)?)$")
_SLASH = re.compile(r"(?:^|(?<=\s))/([\w:-]*)$")
_LINK_PATH = re.compile(r"\]\(([^\s()]*)$")
_DIR_PATH = re.compile(r"\$\{(?:WAVE_SKILL_DIR|CLAUDE_SKILL_DIR)\}/([^\s`'\"()]*)$")


def _body(ctx: FeatureContext, offset: int) -> list[Candidate]:
    lines = ctx.document.lines
    before = ctx.document.text[lines.line_start(lines.line_of(offset)) : offset]
    for pattern, produce in ((_DIR_PATH, _files), (_LINK_PATH, _files), (_DOLLAR, _placeholders),
                             (_SLASH, _skills)):
        match = pattern.search(before)
        if match:
            return produce(ctx, offset, match)
    return []


def _files(ctx: FeatureContext, offset: int, match: re.Match[str]) -> list[Candidate]:
    skill_dir = ctx.location.skill_dir
    if skill_dir is None or not skill_dir.is_dir():
        return []
    typed = match.group(1)
    replace = Span(offset - len(typed), offset)
    return [Candidate(path, "file", replace, detail="file in the skill folder",
                      sort_text=f"{path.count('/'):02d}{path}")
            for path in skill_files(skill_dir) if path != "SKILL.md"]


def _placeholders(ctx: FeatureContext, offset: int, match: re.Match[str]) -> list[Candidate]:
    replace = Span(offset - len(match.group(0)), offset)
    first = ctx.profile.argument_base
    items = [
        Candidate("$ARGUMENTS", "argument", replace, detail="all arguments, as typed",
                  documentation="The raw text the user typed after `/skill-name`.", sort_text="0"),
    ]
    if not plain_placeholders(ctx.profile):  # Wave and OpenCode have no `$ARGUMENTS[N]`
        items.append(Candidate("$ARGUMENTS[N]", "argument", replace,
                               insert_text=f"$ARGUMENTS[${{1:{first}}}]", snippet=True,
                               detail="one argument",
                               documentation=f"The N-th shell-quoted word ({first}-based "
                                             f"in `{ctx.profile.name}`).", sort_text="1"))
    for n in range(first, first + 3):
        ordinal = n - first + 1
        items.append(Candidate(f"${n}", "argument", replace, detail=f"argument {ordinal}",
                               documentation=_positional_doc(ctx.profile, n), sort_text=f"2{n}"))
    for name in declared_names(ctx.document.value("arguments"), ctx.profile):
        items.append(Candidate(f"${name}", "argument", replace, detail="declared argument",
                               documentation="Declared in `arguments`.", sort_text="3" + name))
    plugin = ctx.location.plugin is not None
    for var in VARIABLES:
        if not ctx.profile.expands(var.name) or (var.plugin_only and not plugin):
            continue
        items.append(Candidate("${" + var.name + "}", "variable", replace,
                               detail=var.description, documentation=var.description,
                               sort_text="4" + var.name))
    return items


def _positional_doc(profile: RuntimeProfile, n: int) -> str:
    """What `$n` (never below the profile's base: the candidates start there) binds to."""
    position = n - profile.argument_base + 1
    rest = (f" As the highest `$N` written, it is {arguments_from(position, True)}: "
            f"{REST_REASON}.") if takes_rest(profile) else ""
    if profile.argument_base == 0:
        return f"`${n}` is argument {n + 1} ({profile.runtime} counts from 0).{rest}"
    return (f"`${n}` is argument {n} ({profile.runtime} counts from 1; Claude Code would read "
            f"`${n - 1}`).{rest}")


#: at most this many `/skill-name` candidates (the client asks again as the user types)
MAX_SKILL_CANDIDATES = 200


def _skills(ctx: FeatureContext, offset: int, match: re.Match[str]) -> list[Candidate]:
    typed = match.group(1)
    replace = Span(offset - len(typed) - 1, offset)
    seen: set[str] = set()
    items: list[Candidate] = []
    wanted = typed.lower()
    for entry in ctx.index.skills():
        if len(items) >= MAX_SKILL_CANDIDATES:
            break
        if (not entry.listing.user_invocable or entry.name in seen
                or wanted not in entry.name.lower() or any(c.isspace() for c in entry.name)):
            continue  # a name with white space cannot be typed after `/`
        seen.add(entry.name)
        items.append(Candidate(f"/{entry.name}", "skill", replace,
                               detail=entry.argument_hint or f"{entry.scope} skill",
                               documentation=entry.description))
    return items
