"""docs/design/rules.md *Invocation control*: SK090-SK100."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, Related, TextEdit
from wave_lsp.core.checking.messages import (
    agree,
    capitalized,
    consequence,
    runtime_names,
    runtimes_that,
)
from wave_lsp.core.facts.toolrules import entries
from wave_lsp.core.invocation.listing import invocation_flags, truthy
from wave_lsp.core.parsing.document import FieldEntry
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import ALIAS, YamlNode
from wave_lsp.core.rules.helpers import closest, shown, type_name
from wave_lsp.core.rules.registry import check

_TRUE_WORDS = {"yes", "y", "on", "1", "true"}
_FALSE_WORDS = {"no", "n", "off", "0", "false"}
AGENT_FOLDERS = (".wave/agents", ".claude/agents")
_MODEL_FAMILIES = re.compile(
    r"(claude|gpt|o\d|gemini|deepseek|qwen|llama|mistral|codestral|glm|kimi|grok|moonshot|"
    r"doubao|ernie|command|phi|gemma)[\w.:\[\]-]*", re.IGNORECASE)


def _strict_readers(ctx: CheckContext, name: str, verb: str = "accepts") -> str:
    """The runtimes that read `name` and accept only `true`/`false` (not `reads_boolean_words`),
    with `verb` agreeing ("Wave and Copilot CLI accept")."""
    names = runtimes_that(lambda p: name in p.invocation_fields and not p.reads_boolean_words,
                          but=ctx.profile)
    return agree(names, verb, verb.removesuffix("s")) if names else f"other runtimes {verb[:-1]}"


def _effect(ctx: CheckContext, code: str, what: str) -> str:
    """What the target's runtime does in rule `code`'s situation, from the catalog's effect row
    (`messages.consequence`), as a sentence: "Claude Code loads the skill but ignores
    `effort: x`."; under an aggregate, what its runtimes do."""
    return capitalized(consequence(code, ctx.profile, what=what)) + "."


@check("SK090")
def boolean_literal(ctx: CheckContext) -> Iterator[Finding]:
    profile = ctx.profile
    for name in (spec.name for spec in schema.fields().values() if spec.is_boolean):
        entry = ctx.field(name)
        if entry is None or entry.value is ALIAS:
            continue
        if profile.invocation_fields_need_booleans and name in profile.invocation_fields:
            if not isinstance(entry.value, bool):
                yield _not_a_boolean(ctx, name, entry)
            continue
        if truthy(entry.value) is not None:
            continue
        word = str(entry.value).strip().lower() if not isinstance(entry.value, (list, dict)) else ""
        span = ctx.entry_span(entry)
        if word in _TRUE_WORDS | _FALSE_WORDS:
            meant = "true" if word in _TRUE_WORDS else "false"
            fix = Fix(f"Write `{meant}`", [TextEdit(entry.node.content_span, meant)],
                      preferred=True)
            runtime = ctx.profile.runtime
            if truthy(entry.value, ctx.profile.reads_boolean_words) is not None:
                # the runtime reads the word as meant: only other runtimes misread it
                yield ctx.finding("SK090", span,
                                  f"`{name}: {shown(entry.node.text)}` relies on {runtime}'s "
                                  f"reading of the word: write `{meant}`. {runtime} reads it as "
                                  f"`{meant}`; {_strict_readers(ctx, name)} only `true` "
                                  "and `false` and read it as `false`.",
                                  level=Severity.INFORMATION, fixes=[fix])
                continue
            yield ctx.finding("SK090", span, _misread_word(ctx, name, entry.node.text, meant),
                              fixes=[fix])
        else:
            fixes = [Fix(f"Write `{v}`", [TextEdit(entry.node.content_span, v)])
                     for v in ("true", "false")]
            yield ctx.finding("SK090", span,
                              f"`{name}` must be `true` or `false`, not "
                              f"{type_name(entry.value) if word == '' else f'`{shown(word)}`'}: "
                              "write one of the two. The setting is ignored.",
                              level=Severity.ERROR, fixes=fixes)


def _not_a_boolean(ctx: CheckContext, name: str, entry: FieldEntry) -> Finding:
    """SK090 under a runtime that takes only a YAML boolean (`invocation_fields_need_booleans`:
    Copilot CLI 1.0.102 does not load the skill, `user-invocable must be a boolean`)."""
    value = entry.value
    word = value.strip().lower() if isinstance(value, str) else ""
    if value is None:
        what = "empty"
    elif isinstance(value, str):
        quote = entry.node.style if entry.node.style in ('"', "'") else ""
        what = f"the quoted text `{quote}{shown(value)}{quote}`" if quote else f"`{shown(value)}`"
    else:
        what = type_name(value)
    meant = "true" if word in _TRUE_WORDS else "false" if word in _FALSE_WORDS else None
    fixes = [Fix(f"Write `{meant}`", [TextEdit(entry.node.content_span, meant)],
                 preferred=True)] if meant else []
    runtime = capitalized(ctx.profile.runtime)
    return ctx.finding("SK090", ctx.entry_span(entry),
                       f"`{name}` must be `true` or `false`, unquoted, not {what}: write one of "
                       f"the two. {runtime} reads it as YAML and takes only a boolean: it does "
                       f"not load the skill (`{name} must be a boolean`).",
                       level=Severity.ERROR, fixes=fixes)


def _misread_word(ctx: CheckContext, name: str, written: str, meant: str) -> str:
    """SK090 when the target reads `yes`/`no`-style words as `false`. An aggregate's members
    differ: those that read the words (Claude Code) are named, not folded into "every runtime"."""
    profile = ctx.profile
    head = f"`{name}: {shown(written)}` is read as `false`"
    readers = [m.runtime for m in profile.members if m.reads_boolean_words]
    strict_runtimes = runtimes_that(
        lambda p: name in p.invocation_fields and not p.reads_boolean_words)
    if profile.kind == "aggregate" and readers and not strict_runtimes:
        # no member that reads the field takes only booleans (`background`: Claude Code's own)
        return (f"`{name}: {shown(written)}` is a YAML 1.1 word: {runtime_names(readers)} "
                f"read{'s' if len(readers) == 1 else ''} it as `{meant}`; write `{meant}` so "
                "that every YAML parser reads the same value.")
    if profile.kind == "aggregate" and readers:
        strict = runtime_names(strict_runtimes)
        return (f"{head} by {strict}: write `{meant}`. They accept only `true` "
                f"and `false`; {runtime_names(readers)} read{'s' if len(readers) == 1 else ''} "
                f"the word as `{meant}`.")
    accepted = ("`true`, `false`, `yes`, `no`, `on`, `off`, `1` and `0`"
                if profile.reads_boolean_words else "`true` and `false`")
    return f"{head}: write `{meant}`. {capitalized(profile.runtime)} accepts only {accepted}."


@check("SK091")
def unreachable_skill(ctx: CheckContext) -> Iterator[Finding]:
    hidden = ctx.field("user-invocable")
    no_model = ctx.field("disable-model-invocation")
    if hidden is None or no_model is None:
        return
    if invocation_flags(ctx.document, ctx.profile) == (False, False):
        yield ctx.finding(
            "SK091", ctx.entry_span(hidden),
            "Nobody can ever run this skill: remove `user-invocable: false` or "
            "`disable-model-invocation: true`. The first hides the skill from the `/` menu and "
            "the second keeps the model from invoking it.",
            related=[Related("`disable-model-invocation: true`", span=no_model.key.span)])


@check("SK092")
def context_value(ctx: CheckContext) -> Iterator[Finding]:
    for located in ctx.issues_for("SK092"):
        entry = ctx.field("context")
        assert entry is not None
        fixes = [Fix("Write `context: fork`", [TextEdit(entry.node.content_span, "fork")],
                     preferred=True)]
        written = f"`context: {shown(str(located.issue.value))}`"
        yield ctx.finding("SK092", ctx.entry_span(entry),
                          f"{written} is neither `fork` nor `inline`: write `fork` to fork a "
                          "sub-agent (only that exact value does), or `inline`. "
                          + _effect(ctx, "SK092", f"{written}, so the skill runs inline"),
                          fixes=fixes)


@check("SK093")
def agent_without_fork(ctx: CheckContext) -> Iterator[Finding]:
    if ctx.value("context") == "fork":
        return
    for name in ("agent", "background"):
        entry = ctx.field(name)
        if entry is None:
            continue
        fixes = []
        if not ctx.document.has("context"):
            lines = ctx.document.lines
            line_start = lines.line_start(lines.line_of(entry.key.span.start))
            indent = ctx.text[line_start : entry.key.span.start]
            newline = "\r\n" if "\r\n" in ctx.text else "\n"
            fixes.append(Fix("Add `context: fork`",
                             [TextEdit(Span(line_start, line_start),
                                       f"{indent}context: fork{newline}")], preferred=True))
        yield ctx.finding("SK093", entry.key.span,
                          f"`{name}` applies only to forked skills, and this one has no "
                          f"`context: fork`: add `context: fork`, or remove `{name}`. "
                          + _effect(ctx, "SK093", f"`{name}`"), fixes=fixes)


@check("SK094")
def unknown_agent(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("agent")
    if entry is None or not isinstance(entry.value, str) or not entry.value.strip():
        return
    agent = entry.value.strip()
    builtins = schema.fields()["agent"].values
    if agent in builtins or any(path.is_file() for path in _agent_files(ctx, agent)):
        return
    suggestion = closest(agent, builtins)
    advice = (f"change it to `{suggestion}` if that is the agent meant, or add the agent's file"
              if suggestion else "use a built-in agent or add the agent's file")
    fixes = ([Fix(f"Use `{suggestion}`", [TextEdit(entry.node.content_span, suggestion)],
                  preferred=True)] if suggestion else [])
    yield ctx.finding("SK094", ctx.entry_span(entry),
                      f"`agent: {shown(agent)}` is neither a built-in agent nor an agent file: "
                      f"{advice}. The built-in agents are {', '.join(builtins)}; agent files are "
                      "looked up in `.wave/agents/` and `.claude/agents/`.", fixes=fixes)


def _agent_files(ctx: CheckContext, agent: str) -> list[Path]:
    roots: list[Path] = []
    location = ctx.location
    if location.project_root is not None:
        roots += [location.project_root / folder for folder in AGENT_FOLDERS]
    if location.plugin is not None:
        roots.append(location.plugin.root / "agents")
    if ctx.settings.personal:
        home = ctx.settings.home or Path.home()
        roots += [home / folder for folder in AGENT_FOLDERS]
    return [root / f"{agent}.md" for root in roots]


@check("SK095")
def effort_value(ctx: CheckContext) -> Iterator[Finding]:
    for _ in ctx.issues_for("SK095")[:1]:
        entry = ctx.field("effort")
        assert entry is not None
        levels = [v for v in schema.fields()["effort"].values if isinstance(v, str)]
        suggestion = closest(str(entry.value), levels, 3)
        fixes = ([Fix(f"Write `{suggestion}`", [TextEdit(entry.node.content_span, suggestion)],
                      preferred=True)] if suggestion else [])
        written = f"`effort: {shown(str(entry.value))}`"
        yield ctx.finding("SK095", ctx.entry_span(entry),
                          f"{written} is not a valid level: write one of {', '.join(levels)} or "
                          f"a positive integer. {_effect(ctx, 'SK095', written)}",
                          fixes=fixes)


@check("SK096")
def shell_value(ctx: CheckContext) -> Iterator[Finding]:
    for _ in ctx.issues_for("SK096")[:1]:
        entry = ctx.field("shell")
        assert entry is not None
        written = f"`shell: {shown(str(entry.value))}`"
        yield ctx.finding("SK096", ctx.entry_span(entry),
                          f"{written} is not recognised: write `bash` or `powershell`. "
                          + _effect(ctx, "SK096", f"{written} (its commands run in bash, with "
                                                  "a warning)"))


@check("SK097")
def model_value(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("model")
    if entry is None or not isinstance(entry.value, str):
        return
    model = entry.value.strip()
    aliases = schema.fields()["model"].values
    if model in aliases or _MODEL_FAMILIES.fullmatch(model) or re.fullmatch(
            r"[\w.-]+/[\w.:/-]+", model):
        return
    yield ctx.finding("SK097", ctx.entry_span(entry),
                      f"`model: {shown(model)}` is not `inherit`, a known alias or a model id "
                      "the runtime recognises: write one of those (the aliases are "
                      f"{', '.join(a for a in aliases if a != 'inherit')}). "
                      + _effect(ctx, "SK097", f"`model: {shown(model)}`"))


#: a declared argument name the runtime matches as written after `$` (`-` and `.` included:
#: Claude Code 2.1.332 matches `$my-arg` and `$v1.2` literally, issue 36)
_LITERAL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


@check("SK098")
def arguments_names(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("arguments")
    if entry is None:
        return
    if not isinstance(entry.value, (str, list)):
        yield ctx.finding("SK098", ctx.entry_span(entry),
                          f"`arguments` is {type_name(entry.value)}: write a list of names or "
                          "one space-separated string.")
        return
    for item in non_scalar_items(entry.node):
        yield ctx.finding("SK098", item.content_span,
                          f"An argument name must be a word, not {type_name(item.value())}: "
                          "write a name.")
    seen: set[str] = set()
    for written in entries(entry.node, ctx.text, separators=" \t"):
        name = written.text
        if name.isdigit():
            problem = ("is numeric: remove it or use a word (positions already have `$N`). "
                       + _effect(ctx, "SK098", f"the name `{shown(name)}`, so the next name "
                                               "binds its position").removesuffix("."))
        elif name in seen:
            problem = "is declared twice: remove one of them"
        elif not _LITERAL_NAME.fullmatch(name):
            problem = ("is not a name a placeholder can spell: rename it to letters, digits, "
                       "`_`, `-` and `.` (the runtime matches `$` and the name literally, so "
                       "a name with other characters is hard to write and to read)")
        else:
            seen.add(name)
            continue
        yield ctx.finding("SK098", written.span, f"Argument name `{shown(name)}` {problem}.")
    if entry.node.kind == "sequence":
        for item in entry.node.items:
            if item.kind == "scalar" and not item.text.strip():
                yield ctx.finding("SK098", item.span,
                                  "An argument name is empty: write a name or remove it. "
                                  + _effect(ctx, "SK098", "the empty name"))


@check("SK099")
def paths_value(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("paths")
    if entry is None:
        return
    if not isinstance(entry.value, (str, list)):  # an alias lands here too, without SK099
        if entry.value is not ALIAS:
            yield ctx.finding("SK099", ctx.entry_span(entry),
                              f"`paths` is {type_name(entry.value)}: write a list of "
                              "gitignore-style patterns or one comma-separated string.")
        return
    for item in non_scalar_items(entry.node) + [i for i in entry.node.items
                                                if i.kind == "scalar" and not i.is_plain
                                                and not isinstance(i.value(), str)]:
        yield ctx.finding("SK099", item.content_span,
                          f"A `paths` pattern must be text, not {type_name(item.value())}: "
                          "write it as text.")
    from wave_lsp.core.facts.conditional import path_patterns  # only for a skill with `paths`

    patterns = path_patterns(entry.value)
    if not patterns:
        yield ctx.finding("SK099", ctx.entry_span(entry),
                          "`paths` holds no pattern: add patterns, or remove `paths`. "
                          + _effect(ctx, "SK099", "`paths`, so the skill is unconditional"))
        return
    if all(p.strip("/") == "**" for p in patterns):
        yield ctx.finding("SK099", ctx.entry_span(entry),
                          "Every `paths` pattern is `**`: remove `paths`, or narrow the patterns. "
                          + _effect(ctx, "SK099", "`paths`, as if it were not written"))
    from wave_lsp.core.workspace.gitignore import GitIgnorePatternError, parse_line

    for pattern in patterns:
        try:
            parse_line(pattern)  # the matcher the hover and the walk use; no regex is built
        except GitIgnorePatternError as error:
            yield ctx.finding("SK099", ctx.entry_span(entry),
                              f"`{shown(pattern)}` is not a valid gitignore-style pattern: fix "
                              f"or remove it ({error}). "
                              + _effect(ctx, "SK099", "the pattern, which never matches"))


def non_scalar_items(node: YamlNode) -> list[YamlNode]:
    """Items of a YAML list that are not scalars (or are scalars that are not text)."""
    return [item for item in node.items
            if item.kind != "scalar" or not isinstance(item.value(), str)]


@check("SK100")
def hooks_schema(ctx: CheckContext) -> Iterator[Finding]:
    events = schema.fields()["hooks"].schema["propertyNames"]["enum"]
    for located in ctx.issues_for("SK100")[:10]:
        issue, node = located.issue, located.node
        fixes: list[Fix] = []
        if issue.on_key:
            suggestion = closest(str(issue.value), events, 4)
            message = (f"`{shown(str(issue.value))}` is not a hook event: "
                       + (f"rename it to `{suggestion}` if that is the event meant."
                          if suggestion else "use a hook event or remove it."))
            if suggestion:
                fixes.append(Fix(f"Rename to `{suggestion}`",
                                 [TextEdit(node.content_span, suggestion)], preferred=True))
        elif issue.keyword == "required":
            message = ("This hooks entry is incomplete: add what is missing (each hooks entry "
                       "needs a `hooks:` list of `{type, …}` items).")
        elif issue.keyword == "enum":
            message = (f"Hook type `{shown(str(issue.value))}` is not one of "
                       f"{', '.join(issue.schema['enum'])}: use one of them.")
        elif issue.keyword == "type":
            where = ".".join(str(p) for p in issue.path) or "hooks"
            message = (f"`{where}` is {type_name(issue.value)}, expected "
                       f"{issue.schema.get('type')}: fix its type.")
        else:
            message = f"Fix this `hooks` value: {issue.message}."
        lost = _effect(ctx, "SK100", "this entry (the block's other hooks still run)"
                       if issue.on_key else "the whole `hooks` block (none of its hooks run)")
        yield ctx.finding("SK100", node.content_span if len(node.content_span) else
                          node.span, f"{message} {lost}", fixes=fixes)
