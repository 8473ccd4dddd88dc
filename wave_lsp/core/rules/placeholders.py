"""docs/design/rules.md *Body*: argument placeholders and `${…}` variables — SK115–SK119.

Decisions (so that findings are ones an author agrees with):
- SK115 reports each `$N` outside injected commands; `$0` under `wave` is a warning (always empty).
- SK115 under a runtime that counts from 0 (Claude Code) also reports, as a warning, a `$1` in
  prose or inline code on a line that calls it the first argument: there it is the second.
- SK116 needs a skill "that takes arguments": one with `arguments` or `argument-hint`, or with an
  argument placeholder outside code. Then `$N` inside code is reported (an awk field, a shell
  positional, an amount are all substituted); the fix escapes the dollar sign. `$ARGUMENTS` and
  declared `$name`s are not: in code they are meant to be substituted (`Parse `$ARGUMENTS``,
  `ls $ARGUMENTS`). Where a missing argument keeps the placeholder (Claude Code), `$N` with
  N >= 10 is an amount nobody passes that many arguments for.
- SK117 reports any unknown `${NAME}` in prose, but inside code only names that look like ours
  (`WAVE_…`, `CLAUDE_…`): `${HOME}` in a shell example is the user's shell's business. A plugin
  variable in a skill outside any plugin is a warning; a plugin is a folder with a plugin
  manifest or a marketplace entry whose `source` holds the skill (`location.find_plugin`).
- SK118 reports `$name` in prose (not code, not injections) when `name` starts with a lowercase
  letter — `$HOME`-style environment variables are left alone — and is not declared.
- SK119 reports argument placeholders inside injected commands.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from functools import lru_cache

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.injections import find_injections
from wave_lsp.core.parsing.markdown import MarkdownBody, parse_body
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.helpers import capped, closest
from wave_lsp.core.rules.registry import check
from wave_lsp.core.runtime.arguments import PLACEHOLDER as ARGUMENT
from wave_lsp.core.runtime.arguments import declared_names, unescaped_placeholders
from wave_lsp.core.runtime.variables import PLACEHOLDER as VARIABLE
from wave_lsp.core.runtime.variables import VARIABLES, variable

MAX_PLACEHOLDER_FINDINGS = 50
#: a `$N` with N this large is an amount (`$243`), not an argument, where a missing argument keeps
#: the placeholder as written (Claude Code): no user passes that many
IMPLAUSIBLE_INDEX = 10
#: prose that says a placeholder is the first argument (`$1` is the first argument)
_FIRST = re.compile(r"\bfirst\b|\b1st\b", re.I)


class _Injections:
    """The injection spans of a body, merged where they overlap: `offset in injections` by
    bisection (a long body has hundreds of placeholders and injections)."""

    def __init__(self, spans: list[Span]) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        for span in sorted(spans, key=lambda item: item.start):
            if self._ends and span.start < self._ends[-1]:  # overlapping: merged
                self._ends[-1] = max(self._ends[-1], span.end)
            else:
                self._starts.append(span.start)
                self._ends.append(span.end)

    def __contains__(self, offset: int) -> bool:
        index = bisect.bisect_right(self._starts, offset) - 1
        return index >= 0 and offset < self._ends[index]


def _spans_outside(ctx: CheckContext) -> _Injections:
    """Injection spans of the body (placeholders there are SK119's business)."""
    return _Injections([i.span for i in find_injections(ctx.text, ctx.document.body_offset).items])


def _inside(offset: int, spans: _Injections) -> bool:
    return offset in spans


def _arguments(ctx: CheckContext) -> tuple[re.Match[str], ...]:
    """Unescaped argument placeholders of the body (computed once per document)."""
    return _argument_matches(ctx.text, ctx.document.body_offset)


@lru_cache(maxsize=64)
def _argument_matches(text: str, start: int) -> tuple[re.Match[str], ...]:
    return tuple(unescaped_placeholders(text, start))


@check("SK115")
def positional_semantics(ctx: CheckContext) -> Iterator[Finding]:
    injections = _spans_outside(ctx)
    structure = parse_body(ctx.text, ctx.document.body_offset)
    profile = ctx.profile
    if not profile.substitutes_arguments:
        yield from _literal_arguments(ctx, structure, injections)
        return
    wave = profile.argument_base == 1  # Wave's convention; Claude Code's counts from 0
    runtime = profile.runtime
    declares = ctx.document.has("arguments") or ctx.document.has("argument-hint")
    found = (m for m in _arguments(ctx) if m.group(4) is not None
             and not _inside(m.start(), injections) and not structure.in_code(m.start()))
    for match in capped(found, MAX_PLACEHOLDER_FINDINGS):
        n = int(match.group(4))
        span = Span(match.start(), match.end())
        amount = "" if declares else f" If you meant the amount `${n}`, write `\\${n}`."
        if wave and n == 0:
            yield ctx.finding("SK115", span, f"`$0` is always empty in {runtime}: arguments count "
                                             "from 1 (`$1` is the first). Claude Code reads `$0` "
                                             "as the first argument.", level=Severity.WARNING)
        elif wave:
            yield ctx.finding("SK115", span, f"`${n}` is argument {n} here ({runtime} counts from 1); "
                                             f"Claude Code would put argument {n + 1} here. Use "
                                             "named `arguments` to be explicit." + amount)
        else:
            yield ctx.finding("SK115", span, f"`${n}` is argument {n + 1} here (Claude Code counts "
                                             f"from 0); Wave would put argument {n} here. Use named "
                                             "`arguments` to be explicit." + amount)
    if ctx.profile.argument_base == 0:
        yield from _first_is_one(ctx, structure, injections)


def _literal_arguments(ctx: CheckContext, structure: MarkdownBody,
                       injections: _Injections) -> Iterator[Finding]:
    """`$N` and `$ARGUMENTS` under a runtime that substitutes no arguments (Codex, VS Code,
    Gemini CLI): the model reads them as written (docs/design/runtime-facts.md §9.7)."""
    profile = ctx.profile
    candidates = [m for m in _arguments(ctx) if (m.group(4) is not None or m.group(5) is None)
                  and not _inside(m.start(), injections) and not structure.in_code(m.start())]
    # a `$5` is an amount unless the skill evidently takes arguments
    takes = ctx.document.has("arguments") or ctx.document.has("argument-hint") or any(
        m.group(4) is None for m in candidates)
    found = (m for m in candidates if takes or m.group(4) is None)
    for match in capped(found, MAX_PLACEHOLDER_FINDINGS):
        yield ctx.finding("SK115", Span(match.start(), match.end()),
                          f"`{match.group(0)}` reaches the model as written: {profile.runtime} "
                          f"substitutes no arguments: they arrive as "
                          f"{profile.arguments_delivery or 'part of the prompt'}. Say in words what the "
                          "skill expects, e.g. \"the file the user names\".")


def _first_is_one(ctx: CheckContext, structure: MarkdownBody,
                  injections: _Injections) -> Iterator[Finding]:
    """`$1` described as the first argument, under a runtime where `$0` is the first."""
    lines = ctx.document.lines
    for match in _arguments(ctx):
        if match.group(4) != "1" or _inside(match.start(), injections):
            continue
        if structure.fence_at(match.start()) is not None:
            continue
        line = lines.line_text(lines.line_of(match.start()))
        if _FIRST.search(line):
            yield ctx.finding("SK115", Span(match.start(), match.end()),
                              f"`$1` is the second argument in {ctx.profile.runtime}, which counts "
                              "from 0, but this line calls it the first: write `$0` (or name the "
                              "argument in `arguments`).", level=Severity.WARNING)


def _takes_arguments(ctx: CheckContext, names: list[str], structure: MarkdownBody) -> bool:
    if ctx.document.has("arguments") or ctx.document.has("argument-hint"):
        return True
    return any(not structure.in_code(m.start()) and (m.group(5) is None or m.group(5) in names)
               for m in _arguments(ctx))


@check("SK116")
def placeholder_in_code(ctx: CheckContext) -> Iterator[Finding]:
    names = declared_names(ctx.value("arguments"))
    structure = parse_body(ctx.text, ctx.document.body_offset)
    if not _takes_arguments(ctx, names, structure):
        return
    injections = _spans_outside(ctx)
    profile = ctx.profile
    found = (m for m in _arguments(ctx) if structure.in_code(m.start())
             and not _inside(m.start(), injections) and m.group(4) is not None
             and not (profile.keeps_missing_indexed_argument
                      and int(m.group(4)) >= IMPLAUSIBLE_INDEX))
    for match in capped(found, MAX_PLACEHOLDER_FINDINGS):
        text = match.group(0)
        index = int(match.group(4))
        position = index + 1 - profile.argument_base
        otherwise = ("stays as written when there are fewer"
                     if profile.keeps_missing_indexed_argument else "becomes empty when there is none")
        yield ctx.finding("SK116", Span(match.start(), match.end()),
                          f"`{text}` is inside code, but {profile.runtime} substitutes code too: it "
                          f"becomes the user's argument {position} (and {otherwise}), so a shell "
                          f"or awk `{text}` or an amount breaks. Write `\\{text}` to keep it.",
                          fixes=[ctx.replace_fix(f"Escape as `\\{text}`",
                                                 Span(match.start(), match.start()), "\\")])


@check("SK117")
def unknown_variable(ctx: CheckContext) -> Iterator[Finding]:
    structure = parse_body(ctx.text, ctx.document.body_offset)
    plugin = ctx.location.plugin is not None
    injections = _spans_outside(ctx)
    found = 0
    for match in VARIABLE.finditer(ctx.text, ctx.document.body_offset):
        if found >= MAX_PLACEHOLDER_FINDINGS:
            return
        name = match.group(1)
        span = Span(match.start(), match.end())
        known = variable(name)
        if known is not None and ctx.profile.expands(name):
            if known.plugin_only and not plugin:
                found += 1
                yield ctx.finding("SK117", span, f"`${{{name}}}` has a value only in plugin "
                                                 "skills; this skill is not in a plugin (no "
                                                 "plugin manifest or marketplace entry holds "
                                                 "it), so it stays literal.",
                                  level=Severity.WARNING)
            elif known.shell_only and not _inside(match.start(), injections):
                found += 1
                yield ctx.finding("SK117", span, f"`${{{name}}}` is replaced only inside injected "
                                                 "commands; here it stays literal.")
            continue
        if known is None and ctx.profile.expands(name):  # a plugin's `${user_config.KEY}`
            continue
        ours = name.startswith(("WAVE_", "CLAUDE_"))
        if structure.in_code(match.start()) and not ours:
            continue
        found += 1
        suggestion = closest(name, [v.name for v in VARIABLES if ctx.profile.expands(v.name)])
        hint = f" Did you mean `${{{suggestion}}}`?" if suggestion else ""
        fixes = ([ctx.replace_fix(f"Change to `${{{suggestion}}}`", span, f"${{{suggestion}}}")]
                 if suggestion else [])
        yield ctx.finding("SK117", span, f"`${{{name}}}` is not a variable of the `{ctx.profile.name}` "
                                         f"target: it reaches the model literally.{hint}",
                          fixes=fixes)


@check("SK118")
def undeclared_argument(ctx: CheckContext) -> Iterator[Finding]:
    names = declared_names(ctx.value("arguments"))
    structure = parse_body(ctx.text, ctx.document.body_offset)
    injections = _spans_outside(ctx)
    found = (m for m in _arguments(ctx) if m.group(5) is not None and m.group(5) not in names
             and m.group(5)[0].islower() and not structure.in_code(m.start())
             and not _inside(m.start(), injections))
    for match in capped(found, MAX_PLACEHOLDER_FINDINGS):
        name = match.group(5)
        suggestion = closest(name, names)
        hint = (f" Did you mean `${suggestion}`?" if suggestion
                else " Declare it in `arguments` to have it substituted.")
        yield ctx.finding("SK118", Span(match.start(), match.end()),
                          f"`${name}` is not declared in `arguments`, so it stays literal.{hint}")


@check("SK119")
def argument_in_shell(ctx: CheckContext) -> Iterator[Finding]:
    names = declared_names(ctx.value("arguments"))
    arguments_file = ctx.profile.arguments_file_variable
    for injection in find_injections(ctx.text, ctx.document.body_offset).items:
        span = injection.command_span
        for match in ARGUMENT.finditer(ctx.text, span.start, span.end):
            if match.group(1) or (match.group(5) is not None and match.group(5) not in names):
                continue
            message = (f"`{match.group(0)}` inside an injected command: {ctx.profile.runtime} "
                       "never splices arguments into shell text (the command sees it "
                       f"literally); read them from `${{{arguments_file}}}` instead."
                       if arguments_file else
                       f"`{match.group(0)}` inside an injected command: the user's raw text "
                       "becomes shell syntax (`; rm -rf ~` included). Pass data through a file "
                       "or a script argument the script validates.")
            yield ctx.finding("SK119", Span(match.start(), match.end()), message)
