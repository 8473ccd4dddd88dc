"""docs/design/rules.md *YAML*: SK020-SK028.

A parse error is reported at the level of what the target's loader does with it: Claude Code's
quoting retry, Gemini CLI's line parser and OpenCode's colon retry load some such files
(`wave_lsp.core.facts.loaders`, docs/design/runtime-facts.md §9.6), and then the finding says what
loads instead of being an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, Related, TextEdit
from wave_lsp.core.checking.messages import (
    agree,
    capitalized,
    consequence,
    effect_sentence,
    elsewhere,
    validators,
    with_others,
)
from wave_lsp.core.facts.loaders import line_parser_value, rescue
from wave_lsp.core.facts.reads import read_as
from wave_lsp.core.parsing.document import FrontmatterValues
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import (
    BUN,
    QUOTE_RETRY,
    READINGS,
    TAB_RETRY,
    YamlNode,
    yaml11_type,
    yaml12_type,
)
from wave_lsp.core.rules.helpers import capped, double_quoted, shown, value_region
from wave_lsp.core.rules.registry import check
from wave_lsp.core.rules.workspace import also_in, collection, said_here

if TYPE_CHECKING:
    from wave_lsp.core.workspace.runtime_view import RuntimeSkill
from wave_lsp.core.facts.profiles import PORTABLE, RuntimeProfile
from wave_lsp.core.invocation.listing import command_name, unlisted_without_description

#: what a runtime that loads the skill with empty metadata reads of its fields
_NO_FIELDS = FrontmatterValues({}, frozenset())


def _consequence(ctx: CheckContext, offset: int | None = None, code: str = "SK020") -> str:
    """What the target does with a frontmatter it cannot parse (`offset`: where the parser
    failed), from its profile's loader and the catalog's effect row of `code`."""
    profile = ctx.profile
    if profile.lenient_frontmatter:
        return empty_metadata(ctx)
    if profile.line_parser_release is not None:
        return _said_both(ctx, offset)
    effect = rule(code).effect(profile)
    if profile.kind == "runtime" and effect is not None and not effect.verified:
        # an unconfirmed drop is said as such; the skill counts as loaded (`stops-loading`)
        return consequence(code, profile)
    if profile.yaml_loader == "error-collecting":
        generic = (f"{profile.reader_name} marks the error and keeps only the fields its parser "
                   "recovers")
    elif profile.evidence == "docs":
        # its loader is not documented: strict is assumed, without claiming the skill is dropped
        # (docs/design/runtime-facts.md §9.6)
        generic = (f"a strict loader, as {profile.runtime}'s is assumed to be, cannot load this "
                   "skill")
    else:
        generic = f"{profile.runtime} cannot load this skill"
    if profile.kind == "validator" or profile.members:
        return consequence(code, profile)
    return generic


def _said_both(ctx: CheckContext, offset: int | None) -> str:
    """The specification's YAML and the released line parser (`line_parser_release`): the
    target follows the specification, so the skill counts as not loaded, and the author should
    know that today's release reads it anyway (docs/design/runtime-facts.md §8.13, case
    fm-colon-value; tests/oracle/known/wave.toml)."""
    profile = ctx.profile
    reading = ""
    if offset is not None:
        lines = ctx.document.lines
        read = line_parser_value(lines.line_text(lines.line_of(offset)))
        if read is not None:
            reading = f" and reads `{read[0]}` as `{shown(read[1], 60)}`"
    return (f"the {profile.runtime} specification says invalid YAML fails with a clear "
            f"message, and the `{profile.name}` target follows it (the skill does not load "
            f"here); {profile.runtime} {profile.line_parser_release}'s code differs: its line "
            f"parser never fails{reading}")


def empty_metadata(ctx: CheckContext) -> str:
    """What a lenient runtime does with a frontmatter it cannot read: the fields are lost, and
    where it describes a skill from its body, the model sees the body's first line."""
    runtime = ctx.profile.runtime
    if unlisted_without_description(_NO_FIELDS, ctx.location, ctx.profile):
        return (f"{runtime} loads the skill with empty metadata, and as a plugin's skill without "
                "a description it leaves it out of the model's listing, so the model never "
                "chooses it (it runs only when someone names it)")
    if ctx.profile.body_description_default is None:
        return (f"{runtime} loads the skill with empty metadata, so the model has no description "
                "to match")
    shown_line = shown(read_as(ctx.document, ctx.profile).description or "", 80)
    return (f"{runtime} loads the skill with empty metadata: every field is lost and the "
            f"listing describes it with the body's first line (`{shown_line}`)")


#: what each lenient reading does, for the messages (`yamltree.READINGS`)
_READING_WORDS = {
    BUN: "{runtime}'s YAML parser (Bun) accepts this as written and loads the value",
    QUOTE_RETRY: "{runtime}'s quoting retry quotes the value and loads it as text",
    TAB_RETRY: "{runtime}'s retry turns each leading tab into two spaces and loads the fields",
}
def _strict(ctx: CheckContext, code: str) -> str:
    """Who does not load the file that the target's runtime rescues: the runtimes whose
    catalog effect drops or rejects it, less those whose own loader reads this file anyway
    (`_loads_anyway`)."""
    rescuers = {p.runtime for p in PORTABLE.members if _loads_anyway(ctx, p)}
    by_kind: dict[str, list[str]] = {}
    for member in PORTABLE.members:
        effect = rule(code).effect(member)
        if member is not ctx.profile and member.runtime not in rescuers and effect is not None \
                and effect.verified and effect.kind in ("drops", "rejects"):
            by_kind.setdefault(effect.kind, []).append(member.runtime)
    said = "; ".join(effect_sentence(kind, by_kind[kind]) for kind in ("drops", "rejects")
                     if kind in by_kind)
    return said or "strict YAML parsers reject the file"


def _loads_anyway(ctx: CheckContext, profile: RuntimeProfile) -> bool:
    """Whether runtime `profile` (not the target) loads this frontmatter strict YAML rejects:
    a lenient reading of its own parses it, or its loader's rescue reads it
    (`loaders.rescue`, docs/design/runtime-facts.md §9.6)."""
    yaml = ctx.document.yaml
    if profile is ctx.profile or profile.kind != "runtime" or yaml is None:
        return False
    if yaml.readings & profile.frontmatter_readings:
        return True
    saved = rescue(profile, ctx.document)
    return saved is not None and saved.loads


def _also_loaded_by(ctx: CheckContext) -> str:
    """` (Claude Code and Codex load it anyway)`: the runtimes that load what the target does
    not, from their loaders; "" when none does."""
    names = [p.runtime for p in PORTABLE.members if _loads_anyway(ctx, p)]
    return f" ({agree(names, 'loads', 'load')} it anyway)" if names else ""


def loaded_by(ctx: CheckContext) -> str | None:
    """How the target's runtime still loads a frontmatter strict YAML rejects, in words (None
    when it does not: the readings it uses do not parse it)."""
    yaml = ctx.document.yaml
    if yaml is None or yaml.problem is None:
        return None
    used = yaml.readings & ctx.profile.frontmatter_readings
    for reading in READINGS:
        if reading in used:
            return _READING_WORDS[reading].format(runtime=ctx.profile.runtime)
    return None


def _crlf_blocks_retry(ctx: CheckContext) -> bool:
    """The quoting retry would rescue the frontmatter if its lines did not end in CR."""
    yaml = ctx.document.yaml
    frontmatter = ctx.document.source.frontmatter or ""
    return (yaml is not None and yaml.recovered and QUOTE_RETRY in ctx.profile.frontmatter_readings
            and not yaml.readings & ctx.profile.frontmatter_readings and "\r" in frontmatter)


def _rescued(ctx: CheckContext, failed: bool = False) -> tuple[str, Severity | None] | None:
    """What the target's own loader does instead (docs/design/runtime-facts.md §9.6): the
    clause for the message and the level (None: the catalog's, the skill is dropped)."""
    saved = rescue(ctx.profile, ctx.document, failed)
    if saved is None:
        return None
    if not saved.loads:
        return saved.how, None
    return saved.how, Severity.WARNING if saved.degraded else Severity.INFORMATION


_PROBLEM_CODES = {"colon": "SK021", "alias": "SK023", "tab": "SK026"}
#: the loaders whose rescue (`loaders.rescue`) reads a frontmatter with any YAML error
_WHOLE_RESCUES = frozenset({"line-fallback", "serde-struct", "colon-retry"})
_KEY_LINE = re.compile(r"([ \t]*)([A-Za-z_][\w-]*):[ \t]+(\S.*?)[ \t]*")
_LIMIT = 20


@check("SK020", "SK021", "SK023", "SK026")
def yaml_problem(ctx: CheckContext) -> Iterator[Finding]:
    """The parse error of the frontmatter, reported under the rule that explains it best."""
    yaml = ctx.document.yaml
    if yaml is None or yaml.problem is None:
        return
    problem = yaml.problem
    code = _PROBLEM_CODES.get(problem.kind, "SK020")
    if code == "SK026" and _leading_tabs(ctx):
        return  # reported per line by `tab_indent`
    rescued = ""
    consequence = _consequence(ctx, problem.span.start, code)
    level = None
    loading = loaded_by(ctx)
    if loading is not None:
        # the runtime loads the file: say how, at the level of what happens
        consequence = f"{loading}; {_strict(ctx, code)}"
        level = Severity.INFORMATION
    elif _crlf_blocks_retry(ctx):
        consequence = (f"{ctx.profile.runtime}'s quoting retry never rewrites a line that ends "
                       f"in CRLF, so it does not rescue this file: {empty_metadata(ctx)}. Save "
                       "the file with LF line endings, or quote the value")
    elif yaml.recovered and yaml.readings and ctx.profile.yaml_loader == "strict" \
            and not ctx.profile.members and ctx.profile.line_parser_release is None:
        rescued = _also_loaded_by(ctx)
    own = _rescued(ctx)
    if own is not None:
        consequence, level = own
    if code == "SK021":
        value = _line_value(ctx, problem.span.start)
        yield ctx.finding(
            "SK021", value or problem.span,
            "Quote this value or write it as a `>-` block: its unquoted `: ` makes YAML read a "
            f"nested mapping (\"mapping values are not allowed here\"), so {consequence}{rescued}.",
            fixes=_quote_value_fix(ctx, value), level=level)
    elif code == "SK023":
        yield ctx.finding("SK023", problem.span,
                          f"Quote this value: YAML reads its `*` or `&` as an alias or anchor, "
                          f"so {consequence}{rescued}. The parser says: {problem.message}.",
                          level=level)
    elif code == "SK026":
        yield ctx.finding("SK026", problem.span,
                          f"Use spaces instead of this tab: YAML accepts no tab where it expects "
                          f"indentation or a value, so {consequence}.",
                          level=Severity.WARNING if level is not None else None)
    else:
        yield ctx.finding("SK020", problem.span,
                          f"Fix the YAML syntax here: {consequence}{rescued}. The parser says: "
                          f"{problem.message}.", level=level)


def _line_value(ctx: CheckContext, offset: int) -> Span | None:
    """The plain one-line value of the `key: value` line holding `offset` (a trailing comment
    excluded), when that value is not quoted, not a block or flow start and not continued on the
    next line; None otherwise."""
    lines = ctx.document.lines
    line = lines.line_of(offset)
    match = _KEY_LINE.fullmatch(lines.line_text(line))
    if not match or match.group(3)[0] in "\"'|>[{":
        return None
    if line + 1 < lines.line_count:
        following = lines.line_text(line + 1)
        indent = len(following) - len(following.lstrip())
        continued = following.strip() and not following.lstrip().startswith("#")
        if continued and indent > len(match.group(1)):
            return None
    value = match.group(3)
    comment = re.search(r"\s#", value)
    start = lines.line_start(line) + match.start(3)
    return Span(start, start + (comment.start() if comment else len(value)))


def _quote_value_fix(ctx: CheckContext, value: Span | None) -> list[Fix]:
    if value is None:
        return []
    text = ctx.text[value.start : value.end]
    return [Fix("Quote the value", [TextEdit(value, double_quoted(text))], preferred=True)]


@check("SK022")
def duplicate_key(ctx: CheckContext) -> Iterator[Finding]:
    yaml = ctx.document.yaml
    if yaml is None:
        return
    said = with_others("SK022", ctx.profile, "the duplicated key (YAML forbids it, and loaders "
                                      "disagree on which value wins)")
    # a loader's rescue reads the whole frontmatter, whatever other YAML error it has: Gemini
    # CLI's line parser (case gm-fallback-duplicate), Codex's repair (it loads a duplicated
    # unknown key beside an unquoted `: `, case fm-duplicate-and-colon) and OpenCode's retry
    # (which does not help there)
    own = _rescued(ctx) if yaml.problem is None or ctx.profile.yaml_loader in _WHOLE_RESCUES \
        else None
    level = None
    if own is not None:
        said, level = own
        if level is not None and ctx.profile.yaml_loader == "line-fallback":
            # Gemini CLI's line parser keeps the last value, others the first
            said, level = f"{said}, with the last value", Severity.WARNING
        elif level is not None:  # Codex ignores the key altogether (case cx-yaml-duplicate-key)
            level = Severity.WARNING
    for first, later in capped(yaml.duplicates, _LIMIT):
        fixes = []
        removal = _entry_lines(ctx, later)
        if removal is not None:
            fixes.append(Fix(f"Remove this duplicate `{later.text}`",
                             [TextEdit(removal, "")]))
        yield ctx.finding(
            "SK022", later.span,
            f"`{later.text}` appears twice in this mapping: keep one of them. "
            f"{capitalized(said)}.",
            related=[Related(f"first `{first.text}`", span=first.span)], fixes=fixes,
            level=level)


def _entry_lines(ctx: CheckContext, key: YamlNode) -> Span | None:
    """The whole lines of a block mapping entry (its key line through its value's last line)."""
    mapping = ctx.document.mapping
    if mapping is None:
        return None
    for parent in mapping.walk():
        for key_node, value_node in parent.pairs:
            if key_node is key and not parent.flow:
                lines = ctx.document.lines
                first = lines.line_of(key.span.start)
                last = lines.line_of(max(value_node.content_span.end, key.span.end))
                end = lines.line_start(last + 1) if last + 1 < lines.line_count else len(ctx.text)
                return Span(lines.line_start(first), end)
    return None


@check("SK023")
def yaml_alias(ctx: CheckContext) -> Iterator[Finding]:
    mapping = ctx.document.yaml.root if ctx.document.yaml else None
    if mapping is None:
        return
    # a valid anchor or alias: the runtime's YAML loader resolves it or not (its profile), and
    # the catalog's row is the case of a loader that does not
    resolves = ctx.profile.resolves_yaml_aliases
    said = (f"{ctx.profile.runtime} resolves it, but " + (elsewhere("SK023", ctx.profile)
                                                          or "some loaders do not")
            if resolves else consequence("SK023", ctx.profile))
    said += " (readers that refuse anchors and aliases, such as Wisp's local-skills indexer, fail)"
    valid_level = Severity.WARNING if resolves and ctx.profile.kind == "runtime" else None
    found = (node for node in mapping.walk() if node.kind == "alias" or node.anchor_span)
    for node in capped(found, _LIMIT):
        if node.kind == "alias":
            source = ctx.text[node.span.start : node.span.end]
            if re.search(r"[^\w-]", (node.anchor or "")):
                fixes = _quote_value_fix(ctx, _line_value(ctx, node.span.start))
                own = _rescued(ctx, failed=True) or _retried(ctx, mapping, node)
                what, level = ("most parsers fail", None) if own is None else own
                yield ctx.finding(
                    "SK023", node.span,
                    f"Quote this value (`\"{shown(source)}\"`): it starts with `*`, so YAML "
                    f"reads it as an alias to an anchor that does not exist, and {what}.",
                    fixes=fixes, level=level)
            else:
                yield ctx.finding("SK023", node.span,
                                  f"Write the value out instead of the alias `{source}`: "
                                  f"{said}.", level=valid_level)
        else:
            assert node.anchor_span is not None
            yield ctx.finding("SK023", node.anchor_span,
                              f"Remove the anchor `&{node.anchor}`: {said}.", level=valid_level)


def _retried(ctx: CheckContext, mapping: YamlNode,
             node: YamlNode) -> tuple[str, Severity | None] | None:
    """What a runtime with the quoting retry makes of a top-level value that starts with `*`:
    its YAML rejects the alias, and the retry reads the value as text (`reads._dangling_retry`;
    Claude Code 2.1.332, probe fm-glob-paths); None when it does not rescue this value."""
    key = next((k.text for k, value in mapping.pairs if value is node), None)
    reading = read_as(ctx.document, ctx.profile)
    if key is None or reading.same_fields or not reading.loaded_fields:
        return None
    value = reading.values.value(key)
    if not isinstance(value, str):
        return None
    runtime = ctx.profile.runtime
    said = (f"{runtime}'s YAML fails on it; its quoting retry then reads the text "
            f"`{shown(value)}`")
    if key == "paths" and ctx.profile.hides_conditional_skills:
        name = command_name(reading.values, ctx.location, ctx.profile)
        said += (f" as the pattern: {runtime} loads the skill but neither lists it nor knows "
                 f"`/{name}` until a file it matches is read or edited")
    return said, Severity.INFORMATION


@check("SK024")
def yaml_tag(ctx: CheckContext) -> Iterator[Finding]:
    root = ctx.document.yaml.root if ctx.document.yaml else None
    if root is None:
        return
    base = with_others("SK024", ctx.profile, "the tag")
    for node in capped((n for n in root.walk() if n.tag_span), _LIMIT):
        assert node.tag_span is not None
        level = None
        said = capitalized(base)
        if node.tag in ctx.profile.resolved_standard_tags:
            # a standard tag loads (the parser probe's `explicit !!str tag`); a custom one is
            # the catalog's case
            level = Severity.WARNING
            others = elsewhere("SK024", ctx.profile) or "some loaders do not"
            said = f"{ctx.profile.runtime}'s YAML loader resolves this standard tag, but {others}"
        fixes = []
        if node.kind == "scalar" and node.style is None:
            value_span = Span(node.tag_span.start, node.content_span.end)
            fixes.append(Fix("Remove the tag and quote the value",
                             [TextEdit(value_span, double_quoted(node.text))], preferred=True))
        yield ctx.finding("SK024", node.tag_span,
                          f"Explicit tag `{node.tag}`: quote the value instead. {said}.",
                          fixes=fixes, level=level)


@check("SK025")
def flow_collection(ctx: CheckContext) -> Iterator[Finding]:
    mapping = ctx.document.mapping
    if mapping is None:
        return
    for key_node, value_node in mapping.pairs:
        for node in value_node.walk():
            if node.kind in ("mapping", "sequence") and node.flow:
                kind = "[...] list" if node.kind == "sequence" else "{...} mapping"
                fixes = _block_list_fix(ctx, key_node, node) if node is value_node else []
                yield ctx.finding(
                    "SK025", node.content_span,
                    f"Flow-style {kind} in `{key_node.text}`: write it in block style. The YAML "
                    f"parser of {validators()} (strictyaml) rejects flow style.", fixes=fixes)
                break


def _block_list_fix(ctx: CheckContext, key: YamlNode, node: YamlNode) -> list[Fix]:
    if node.kind != "sequence" or not all(i.kind == "scalar" for i in node.items):
        return []
    if ctx.document.lines.line_of(node.span.start) != ctx.document.lines.line_of(node.span.end):
        return []
    indent = " " * (key.span.start - ctx.document.lines.line_start(
        ctx.document.lines.line_of(key.span.start)) + 2)
    items = [ctx.text[i.span.start : i.span.end] for i in node.items]
    if key.text == "allowed-tools":
        return []  # SK081 offers the list/string conversions for allowed-tools
    new_text = "".join(f"\n{indent}- {item}" for item in items)
    return [Fix("Convert to a block list", [TextEdit(value_region(ctx.text, key, node), new_text)])]


@check("SK026")
def tab_indent(ctx: CheckContext) -> Iterator[Finding]:
    loading = loaded_by(ctx)
    own = None if loading is not None else _tab_rescue(ctx)
    for start, end in capped(_leading_tabs(ctx), _LIMIT):
        edit = TextEdit(Span(start, end), ctx.text[start:end].replace("\t", "  "))
        level = Severity.WARNING if loading is not None else None
        if loading is not None:
            message = (f"A tab is used as indentation: indent with spaces. YAML forbids it. "
                       f"{loading}, but {_strict(ctx, 'SK026')}.")
        elif own is not None and own[1] is not None:
            message = ("A tab is used as indentation: indent with spaces. YAML forbids it and "
                       f"strict parsers fail here, but {own[0]}.")
            level = own[1]
        elif own is None and ctx.profile.line_parser_release is not None:
            message = ("A tab is used as indentation: indent with spaces. YAML forbids it, so "
                       f"{_consequence(ctx, code='SK026')}.")
        else:
            consequence = own[0] if own is not None else _consequence(ctx, code="SK026")
            message = ("A tab is used as indentation: indent with spaces. YAML forbids it and "
                       f"strict YAML parsers fail here ({consequence}).")
        yield ctx.finding("SK026", Span(start, end), message,
                          fixes=[Fix("Replace the tabs with spaces", [edit], preferred=True)],
                          level=level)


def _tab_rescue(ctx: CheckContext) -> tuple[str, Severity | None] | None:
    """What the target's loader does with tab indentation when its reading is not Claude Code's
    (docs/design/runtime-facts.md §10, the parser probe's `tab indentation`): a loader that
    tolerates it reads the fields (a warning: measured on one shape of file), and Gemini CLI's
    line parser takes over from js-yaml; None: the catalog's consequence."""
    if ctx.profile.tolerates_tab_indentation:
        return (f"{ctx.profile.runtime}'s YAML loader reads the tab-indented lines and loads "
                "the skill"), Severity.WARNING
    return _rescued(ctx, failed=True)


def _leading_tabs(ctx: CheckContext) -> list[tuple[int, int]]:
    source = ctx.document.source
    if source.frontmatter is None:
        return []
    found = []
    for match in re.finditer(r"^([ \t]*\t[ \t]*)(?=\S)", source.frontmatter, re.M):
        found.append((source.frontmatter_offset + match.start(1),
                      source.frontmatter_offset + match.end(1)))
    return found


def _has_own_type_rule(field_name: str) -> bool:
    """A field whose schema `x-rule` reports a non-text value under a code other than SK027.

    For those, SK027 reports only what a YAML 1.1 loader would mistype.
    """
    spec = schema.field_spec(field_name.split(".", 1)[0])
    return spec is not None and spec.rule_for("type") not in (None, "SK027")


#: fields a runtime only displays (`String(v)`): a mistyped value changes what is shown, nothing else
DISPLAY_ONLY = frozenset({"argument-hint", "version"})


@check("SK027")
def implicit_type(ctx: CheckContext) -> Iterator[Finding]:
    for located in ctx.issues_for("SK027"):
        node, issue = located.node, located.issue
        if not ctx.reads(issue.field):
            continue
        if node.kind == "sequence" and node.flow:
            what = "a YAML list"
        elif node.kind == "mapping":
            what = "a YAML mapping"
        else:
            what = f"read as {yaml12_type(node.text) or 'not text'}"
        written = shown(ctx.text[node.content_span.start : node.content_span.end])
        display_only = issue.field in DISPLAY_ONLY and ctx.profile.kind == "runtime"
        yield ctx.finding("SK027", node.content_span,
                          f"`{issue.field}: {written}` is {what}, not text: quote the value."
                          + (f" {ctx.profile.runtime} shows it converted to text; the value is "
                             "only displayed." if display_only else ""),
                          fixes=_quote_node_fix(ctx, node),
                          level=Severity.INFORMATION if display_only else None)
    for field_name, node in _text_scalars(ctx):
        kind12 = yaml12_type(node.text)
        kind11 = yaml11_type(node.text)
        if _has_own_type_rule(field_name):
            kind = kind11 if kind12 is None else None
        else:
            kind = None  # type errors of the other fields came from the schema above
            if kind12 is None:
                kind = kind11
        if kind is None:
            continue
        if kind12 is None and ctx.profile.kind != "aggregate":
            continue  # only YAML 1.1 loaders (PyYAML, the claude.ai upload) mistype it: `portable`
        loader = "YAML 1.1 loaders (PyYAML, the claude.ai upload)" if kind12 is None else "YAML"
        display_only = field_name in DISPLAY_ONLY and ctx.profile.kind == "runtime"
        yield ctx.finding("SK027", node.content_span,
                          f"`{field_name}: {shown(node.text)}` is read as a {kind} by {loader}, "
                          "not as text: quote the value.", fixes=_quote_node_fix(ctx, node),
                          level=Severity.INFORMATION if display_only else None)


def _text_scalars(ctx: CheckContext) -> Iterator[tuple[str, YamlNode]]:
    """Plain scalars of fields whose value must be text (the schema says `type: string`)."""
    for name, entry in ctx.document.fields.items():
        spec = schema.field_spec(name)
        if spec is None or name == "description" or not ctx.reads(name):
            continue
        if spec.is_text and entry.node.is_plain and entry.node.text:
            yield name, entry.node
        if name == "metadata" and entry.node.kind == "mapping":
            for key, value in entry.node.pairs:
                if value.is_plain and value.text:
                    yield f"metadata.{key.text}", value


def _quote_node_fix(ctx: CheckContext, node: YamlNode) -> list[Fix]:
    lines = ctx.document.lines
    if lines.line_of(node.content_span.start) != lines.line_of(node.content_span.end):
        return []
    raw = ctx.text[node.content_span.start : node.content_span.end]
    return [Fix("Quote the value", [TextEdit(node.content_span, double_quoted(raw))],
                preferred=True)]


@check("SK028")
def block_scalar(ctx: CheckContext) -> Iterator[Finding]:
    mapping = ctx.document.mapping
    if mapping is None:
        return
    blocks = [(key, node) for key, node in mapping.pairs if node.is_block_scalar]
    if not blocks:
        return
    literal = _literal_readers(ctx)
    others: list[RuntimeSkill] | None = []
    if not literal:  # a hint: said once per collection (issue 37), on its first skill that has one
        others = said_here(ctx, partial(_has_block_scalar, ctx))
        if others is None:
            return
    for key, node in blocks:
        header = ctx.text[node.content_span.start : node.content_span.end].split("\n", 1)[0]
        header = header.split("#", 1)[0].strip()
        kind = "literal (newlines kept)" if node.style == "|" else "folded"
        reads = f"\"{shown(node.text, 160)}\" ({len(node.text)} characters)"
        if literal:
            message = (f"`{key.text}` is a {kind} block scalar `{header}`: write one quoted line "
                       f"to be portable, as {literal} read the indicator literally "
                       f"(the value becomes `{header}`). YAML reads it as {reads}.")
        else:
            message = (f"`{key.text}` is a {kind} block scalar `{header}`: check the text YAML "
                       f"reads from it, {reads}.")
        if node.style == "|" and key.text == "description" and "\n" in node.text.rstrip("\n"):
            message += " The newlines stay in the description the model sees."
        level = Severity.WARNING if literal else None
        sentence, related = also_in(others or [], "with a block scalar", _collection_label(ctx))
        yield ctx.finding("SK028", Span(node.content_span.start,
                                        node.content_span.start + len(header)),
                          message + sentence, level=level, related=related,
                          resolved=node.text)
        others = []  # the other skills are named once, on the first block scalar


#: a top-level key whose value is a block scalar, in a frontmatter's text
_BLOCK_SCALAR_LINE = re.compile(r"^[\w.-]+[ \t]*:[ \t]*[|>][-+0-9]*[ \t]*(?:#.*)?$", re.M)


def _has_block_scalar(ctx: CheckContext, skill: RuntimeSkill) -> bool:
    """Whether another skill of the collection uses a block scalar at the top level of its
    frontmatter (read through the check's disk view, which has read the file already)."""
    data = ctx.disk.read(skill.path)
    if isinstance(data, OSError):
        return False
    text = data[:MAX_FRONTMATTER_BYTES].decode("utf-8", errors="replace")
    if not text.startswith("---"):
        return False
    end = text.find("\n---", 3)
    return bool(_BLOCK_SCALAR_LINE.search(text, 3, end if end >= 0 else len(text)))


#: how much of another skill's file `_has_block_scalar` reads
MAX_FRONTMATTER_BYTES = 64 * 1024


def _collection_label(ctx: CheckContext) -> str:
    found = collection(ctx)
    return found.label if found is not None else "the collection"


def _literal_readers(ctx: CheckContext) -> str:
    """Who reads a block scalar's indicator as the value, in words ("" when nobody the target
    stands for does): the `portable` target stands for the naive line-based loaders of the
    ecosystem (Wave before its fix, openskills); an aggregate of the runtimes that scan one
    skills root (`.agents/skills`) only for a member whose YAML falls back to reading lines
    when the frontmatter is not valid YAML (Gemini CLI's `line-fallback`, runtime-facts.md §9.6),
    and then only when it is not. Every other runtime parses the YAML."""
    profile = ctx.profile
    if profile.kind != "aggregate":
        return ""
    if profile.catalog_column:
        return "naive line-based loaders"
    yaml = ctx.document.yaml
    if yaml is None or (yaml.problem is None and not yaml.duplicates):
        return ""
    falling_back = [m.runtime for m in profile.members if m.yaml_loader == "line-fallback"]
    if not falling_back:
        return ""
    return f"{' and '.join(falling_back)}, whose YAML fails on this frontmatter,"
