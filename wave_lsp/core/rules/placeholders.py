"""docs/design/rules.md *Body*: argument placeholders and `${…}` variables — SK115–SK119.

Decisions (so that findings are ones an author agrees with):
- SK115 reports each `$N` outside injected commands; `$0` under `wave` is a warning (always empty).
- SK115 under a runtime that counts from 0 (Claude Code) also reports, as a warning, a `$1` in
  prose or inline code on a line that calls it the first argument: there it is the second.
- SK116 needs a skill "that takes arguments": one with `arguments` or `argument-hint`, or with an
  argument placeholder outside code, or a guide to writing skills or commands (by its name or
  description). The intent behind each `$N` in code is read from the skill's own words (issue 27):
  *literal text* — an amount (`$0.01`, `$5/month`), a positional parameter of a script (a block
  with `$@`, `$#`, `shift`, a function, `awk`, `dirname "$0"`), an example in a guide (where
  `$ARGUMENTS` is reported too) — is reported, since substitution corrupts it; *its input* — the
  skill declares `arguments` or `argument-hint`, its prose says what the placeholder holds
  ("`$0` (playbook name)", "`$1` — output path"), or a line labels it (`Agent Name: $1`) — is
  not: the substitution is what the author means (SK115 still says which argument it is). What
  neither decides is reported as heuristic (information). Literal text in a skill that does not
  say it takes arguments is reported at the rule's level too (issue 27): any skill can be invoked
  with text (`/name text`, the Skill tool's `args`), and then Claude Code substitutes it; the
  intent is settled, only whether arguments come is not, and the message says "when invoked
  with arguments". The fix escapes the dollar sign.
  `$ARGUMENTS` and declared `$name`s outside guides are not reported: in code they are meant to
  be substituted (`Parse `$ARGUMENTS``, `ls $ARGUMENTS`). Where a missing argument keeps the
  placeholder (Claude Code), `$N` with N >= 10 is an amount nobody passes that many arguments
  for.
- SK117 reports any unknown `${NAME}` in prose, but inside code only names that look like ours
  (`WAVE_…`, `CLAUDE_…`): `${HOME}` in a shell example is the user's shell's business. A plugin
  variable in a skill outside any plugin is a warning; a plugin is a folder with a plugin
  manifest or a marketplace entry whose `source` holds the skill (`location.find_plugin`). Ours
  is heuristic (information) where the skill may mean it as written (issues 27, 37), in every
  skill and under every target alike: named on its own (alone in inline code or in prose, not a
  path, not a value passed on: "use `${CLAUDE_PLUGIN_ROOT}` for paths"); and, for a plugin's
  variable in a guide to writing plugins, hooks, MCP servers, skills or commands, inside a
  block that is a file it shows (Markdown, JSON, YAML, TOML, a `#!` script). A path or a value
  passed on stays a warning, and so does every block of other skills (often a prompt for a
  sub-agent).
- SK118 reports `$name` in prose (not code, not injections) when `name` starts with a lowercase
  letter — `$HOME`-style environment variables are left alone — and is not declared.
- SK119 reports argument placeholders inside injected commands: the target's own (a `\\$1` under
  plain placeholders, not a declared `$name` there).
- Under plain placeholders (`wave` and `opencode`: docs/design/runtime-facts.md §4.3, §9.7;
  `arguments.plain_placeholders`) the placeholders are `$ARGUMENTS` and `$N` with no look-ahead
  and no escape, substituted on every invocation: an amount in prose is a warning (it always
  loses its `$` and figures), so is a `\\$N` (it keeps the backslash), SK116's advice is `${N}`
  (awk `$(N)`) or an amount without `$` or a linked file instead of `\\$`, and every `$name` is
  SK118's, since neither reads `arguments`. Under OpenCode the highest `$N` written takes every
  argument from N on and a `$0` below it is `undefined` (`arguments.takes_rest`): the messages
  say so.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from wave_lsp.core.checking.catalog import Confidence, Severity, rule
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.checking.messages import runtime_names
from wave_lsp.core.facts.variables import PLACEHOLDER as VARIABLE
from wave_lsp.core.facts.variables import VARIABLES, variable
from wave_lsp.core.invocation.arguments import (
    REST_REASON,
    arguments_from,
    declared_names,
    highest_positional,
    missing_below_base,
    plain_placeholders,
    takes_rest,
    unescaped_placeholders,
)
from wave_lsp.core.parsing.example_words import shown_as_text
from wave_lsp.core.parsing.injections import find_injections
from wave_lsp.core.parsing.markdown import MarkdownBody, parse_body
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.helpers import (
    about_writing_plugins,
    about_writing_skills,
    capped,
    closest,
    counted_by,
    counting_from,
    indexed_syntax,
    once_per_skill,
    substituting,
)
from wave_lsp.core.rules.registry import check

if TYPE_CHECKING:
    from wave_lsp.core.facts.profiles import RuntimeProfile

#: findings per rule and file: a bound for hostile input (10,000 `$1`), high enough for a long
#: price list (50 cut energy-procurement's amounts off at line 133 under `wave`)
MAX_PLACEHOLDER_FINDINGS = 200
#: a `$N` with N this large is an amount (`$243`), not an argument, where a missing argument keeps
#: the placeholder as written (Claude Code): no user passes that many
IMPLAUSIBLE_INDEX = 10
#: prose that calls a placeholder the first argument (`$1` is the first argument, the first word)
_FIRST = re.compile(r"\b(?:first|1st)\s+(?:[\w-]+\s+)?(?:argument|arg|parameter|param|"
                    r"positional|input|word|value)s?\b", re.I)
#: how far (characters) the words calling `$1` the first may be from it
FIRST_DISTANCE = 40


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
    """The argument placeholders the target substitutes in the body (computed once per document):
    Claude Code's unescaped ones, or Wave's (docs/design/runtime-facts.md §4.3)."""
    return _argument_matches(ctx.text, ctx.document.body_offset, ctx.profile.argument_syntax)


def _written_arguments(ctx: CheckContext) -> tuple[re.Match[str], ...]:
    """Claude Code's unescaped placeholders, names included, whatever the target substitutes:
    what the author wrote as a placeholder (SK118 asks what the target does with a `$name`)."""
    return _argument_matches(ctx.text, ctx.document.body_offset, "escapable")


@lru_cache(maxsize=64)
def _argument_matches(text: str, start: int, syntax: str) -> tuple[re.Match[str], ...]:
    return tuple(unescaped_placeholders(text, start, syntax=syntax))


def _plain_syntax(ctx: CheckContext) -> bool:
    """Plain placeholders (Wave's and OpenCode's): no escape, no names, no `$ARGUMENTS[N]`,
    applied on every invocation (docs/design/runtime-facts.md §4.3, §9.7)."""
    return plain_placeholders(ctx.profile)


def _rest(ctx: CheckContext, n: int) -> bool:
    """`$n` is the highest `$N` of the body under a profile where that one takes every argument
    from N on (OpenCode: `takes_rest`)."""
    return takes_rest(ctx.profile) and n == _highest(ctx.text, ctx.document.body_offset)


@lru_cache(maxsize=64)
def _highest(text: str, start: int) -> int | None:
    return highest_positional(text, start)


def _becomes(ctx: CheckContext, n: int) -> str:
    """What a plain `$n` becomes on an invocation with arguments, in words (after "`$n` ")."""
    profile = ctx.profile
    if n < profile.argument_base:
        return missing_below_base(profile, _rest(ctx, n))
    return f"becomes {arguments_from(n + 1 - profile.argument_base, _rest(ctx, n))}"


def _no_escape(ctx: CheckContext) -> str:
    """Why `\\$1` does not help under a runtime with plain placeholders."""
    return f"{ctx.profile.runtime} has no escape: `\\$1` keeps the backslash and is still substituted"


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
        if _plain_syntax(ctx):
            yield _plain_positional(ctx, match, declares)
        elif wave and n == 0:
            yield ctx.finding("SK115", span, f"`$0` is always empty in {runtime}: write `$1` for "
                                             "the first argument (arguments count from 1). "
                                             f"{counting_from(0, 'reads', 'read')} `$0` as the "
                                             "first argument.",
                              level=Severity.WARNING)
        elif wave:
            yield _one_based(ctx, span, n, declares)
        else:
            amount = "" if declares else f" If you meant the amount `${n}`, write `\\${n}`."
            yield ctx.finding("SK115", span, f"`${n}` is argument {n + 1} here ({runtime} counts "
                                             "from 0): use named `arguments` to be explicit. "
                                             f"{counting_from(1, 'would', 'would')} put argument "
                                             f"{n} here." + amount)
    if ctx.profile.argument_base == 0:
        said = list(_first_is_one(ctx, structure, injections))
        yield from said
        # one finding per `$1`: the line calling it the first says more than the count
        yield from (finding for finding in _counted_from_one(ctx, structure, injections)
                    if finding.span not in {item.span for item in said})
    if _plain_syntax(ctx):
        yield from _indexed_arguments(ctx, structure, injections)


def _one_based(ctx: CheckContext, span: Span, n: int, declares: bool) -> Finding:
    """`$N` (N >= 1) under a target that counts from 1. For the runtimes that scan a root no
    runtime owns (`.agents/skills`), which disagree (Copilot CLI counts from 0), the message names
    who reads which argument, at the level of the members that substitute arguments: the others'
    concern (the text reaching the model as written) is not this sentence's (issue 37)."""
    amount = "" if declares else f" If you meant the amount `${n}`, write `\\${n}`."
    profile = ctx.profile
    members = [m for m in profile.members if m.substitutes_arguments and m.kind == "runtime"]
    if not members:
        return ctx.finding("SK115", span, f"`${n}` is argument {n} here ({profile.runtime} counts "
                                          "from 1): use named `arguments` to be explicit. "
                                          f"{counting_from(0, 'would', 'would')} put argument "
                                          f"{n + 1} here." + amount)
    levels = [level for m in members if (level := rule("SK115").severity(m)) is not None]
    one = runtime_names(m.runtime for m in members if m.argument_base == 1)
    zero = [m.runtime for m in members if m.argument_base == 0]
    other = (f", argument {n + 1} in {runtime_names(zero)}, which count"
             f"{'s' if len(zero) == 1 else ''} from 0" if zero else "")
    return ctx.finding("SK115", span, f"`${n}` is argument {n} in {one}, which count from 1{other}: "
                                      "use `$ARGUMENTS` if the skill must read the same "
                                      "everywhere." + amount,
                       # `portable` has its own column; the `.agents/skills` runtimes their own
                       level=None if profile.catalog_column else min(levels) if levels else None)


#: Claude Code's `$ARGUMENTS[N]`, which plain placeholders read as `$ARGUMENTS` and `[N]`
_INDEXED = re.compile(r"(?<!\\)\$ARGUMENTS\[(\d+)\]")


def _indexed_arguments(ctx: CheckContext, structure: MarkdownBody,
                       injections: _Injections) -> Iterator[Finding]:
    """`$ARGUMENTS[N]` under Wave: all the arguments followed by `[N]`, in prose and code alike
    (docs/design/runtime-facts.md §4.3); `$N` counted from the profile's base is the word. In the
    code of a guide to writing skills it is an example, SK116's business."""
    base = ctx.profile.argument_base
    guide = _writing_guide(ctx)
    found = (m for m in _INDEXED.finditer(ctx.text, ctx.document.body_offset)
             if not _inside(m.start(), injections)
             and not (guide and structure.in_code(m.start())))
    for match in capped(found, MAX_PLACEHOLDER_FINDINGS):
        word = int(match.group(1)) + base  # `$ARGUMENTS[0]` is Claude Code's first word
        yield ctx.finding("SK115", Span(match.start(), match.end()),
                          f"`{match.group(0)}` is the syntax of {indexed_syntax()}: write "
                          f"`${word}` for that "
                          f"argument. {ctx.profile.runtime} has no `$ARGUMENTS[N]`: it puts all "
                          f"the arguments here, followed by `[{match.group(1)}]`.",
                          level=Severity.WARNING)


def _plain_positional(ctx: CheckContext, match: re.Match[str], declares: bool) -> Finding:
    """`$N` in prose under plain placeholders (Wave, OpenCode), substituted on every invocation
    (empty without arguments; docs/design/runtime-facts.md §4.3, §9.7): an amount is destroyed,
    `\\$N` keeps its backslash, `$N` below the profile's base is empty (`undefined`, or the last
    argument, under OpenCode), any other is an argument (and the rest, for OpenCode's highest)."""
    profile = ctx.profile
    runtime, base = profile.runtime, profile.argument_base
    n = int(match.group(4))
    span = Span(match.start(), match.end())
    # an amount is one whether or not the skill takes arguments: Wave empties it either way
    if _is_amount(ctx.text, match) or (not declares and n >= IMPLAUSIBLE_INDEX):
        amount = _amount(ctx.text, match)
        return ctx.finding("SK115", span,
                           f"`${amount}` reads as an amount of money, but {runtime} substitutes "
                           f"`${n}` on every invocation: write it without `$` right before the "
                           f"digit (`{amount} USD`). `${n}` {_becomes(ctx, n)}"
                           + ("" if n < base else ", or empty without arguments")
                           + f"; {_no_escape(ctx)}.", level=Severity.WARNING)
    rest = _rest(ctx, n)
    if match.start() > 0 and ctx.text[match.start() - 1] == "\\":
        # Claude Code's escape, which plain placeholders do not have (case oc-args-escape)
        becomes = (f"`\\` and then what `${n}` becomes (it {missing_below_base(profile, rest)})"
                   if n < base else f"`\\` and then {arguments_from(n + 1 - base, rest)} (or `\\` "
                                    "alone without arguments)")
        return ctx.finding("SK115", span,
                           f"`\\${n}` does not keep `${n}` literal in {runtime}: write the text "
                           f"without `$` right before the digit. It becomes {becomes}; "
                           f"{_no_escape(ctx)}.", level=Severity.WARNING)
    if n < base:
        return ctx.finding("SK115", span, f"`${n}` {missing_below_base(profile, rest)} in "
                                          f"{runtime}: write `${base}` for the first argument "
                                          f"(arguments count from {base}). "
                                          f"{counting_from(0, 'reads', 'read')} `$0` as the "
                                          "first argument.", level=Severity.WARNING)
    other = (f"{counting_from(0, 'would', 'would')} put argument {n + 1} here" if base == 1
             else f"{counting_from(1, 'would', 'would')} put argument {n} here")
    counting = f"{runtime} counts from {base}" + (f", and {REST_REASON}" if rest else "")
    return ctx.finding("SK115", span, f"`${n}` is {arguments_from(n + 1 - base, rest)} here "
                                      f"({counting}): use `$ARGUMENTS` if the skill must also work "
                                      f"where arguments count otherwise. {other}; {runtime} "
                                      f"substitutes no named `arguments`, and `${n}` is empty "
                                      "without arguments.")


def _counted_from_one(ctx: CheckContext, structure: MarkdownBody,
                      injections: _Injections) -> Iterator[Finding]:
    """A skill that takes arguments and uses `$1` in code but never `$0` counts from 1 (`FOCUS=$1`
    meant as the first word): under a runtime that counts from 0, `$1` is the second. A skill
    takes arguments when it declares them, or when that `$1` sits under a heading about its
    input ("Step 1: Parse Arguments", issue 27). Reported once, on the first such `$1` in code
    (prose is `positional_semantics`' business)."""
    matches = [m for m in _arguments(ctx) if m.group(4) is not None
               and not _inside(m.start(), injections)]
    if any(m.group(4) == "0" for m in matches):
        return
    first = next((m for m in matches if m.group(4) == "1" and structure.in_code(m.start())
                  and _literal_text(ctx.text, m, structure, _writing_guide(ctx)) is None), None)
    declared = ctx.document.has("arguments") or ctx.document.has("argument-hint")
    if first is not None and (declared or _under_input_heading(structure, first)):
        yield ctx.finding("SK115", Span(first.start(), first.end()),
                          f"`$1` is the second argument in {ctx.profile.runtime}, which counts from "
                          "0, and this skill never uses `$0`: if `$1` is meant as the first "
                          "argument, write `$0` (or name the arguments in `arguments`).",
                          level=Severity.WARNING)


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
                          f"`{match.group(0)}` reaches the model as written: say in words what the "
                          "skill expects, e.g. \"the file the user names\". "
                          f"{profile.runtime} substitutes no arguments: they arrive as "
                          f"{profile.arguments_delivery or 'part of the prompt'}.")


def _first_is_one(ctx: CheckContext, structure: MarkdownBody,
                  injections: _Injections) -> Iterator[Finding]:
    """`$1` described as the first argument, under a runtime where `$0` is the first."""
    lines = ctx.document.lines
    for match in _arguments(ctx):
        if match.group(4) != "1" or _inside(match.start(), injections):
            continue
        if structure.fence_at(match.start()) is not None or _query_parameter(ctx.text, match,
                                                                              True):
            continue  # a block's `$1`, or a query's parameter (SK116's business)
        line_number = lines.line_of(match.start())
        line = lines.line_text(line_number)
        column = match.start() - lines.line_start(line_number)
        if any(_about(found, column, line) for found in _FIRST.finditer(line)):
            yield ctx.finding("SK115", Span(match.start(), match.end()),
                              f"`$1` is the second argument in {ctx.profile.runtime}, which counts "
                              "from 0, but this line calls it the first: write `$0` (or name the "
                              "argument in `arguments`).", level=Severity.WARNING)


#: a `$N` on a line, for `_about` (the escape is not looked at: a `\\$0` is still the one named)
_POSITIONAL = re.compile(r"\$(\d+)(?!\d)")


def _about(words: re.Match[str], column: int, line: str) -> bool:
    """Whether the words calling a placeholder the first (`_FIRST`) are about the `$1` at
    `column`: within `FIRST_DISTANCE` of it and the nearest placeholder to them, those of their
    own clause first ("`$0` is the first argument, `$1` the second" is right about `$0`,
    issue 37)."""
    def distance(start: int, end: int) -> int:
        return max(0, words.start() - end, start - words.end())

    clause_start = max(line.rfind(mark, 0, words.start()) for mark in _CLAUSE_MARKS) + 1
    ends = [found for mark in _CLAUSE_MARKS if (found := line.find(mark, words.end())) >= 0]
    clause_end = min(ends, default=len(line))
    placeholders = [m for m in _POSITIONAL.finditer(line)
                    if clause_start <= m.start() < clause_end] or list(_POSITIONAL.finditer(line))
    nearest = min(placeholders, key=lambda m: distance(m.start(), m.end()), default=None)
    return nearest is not None and nearest.start() == column and \
        distance(column, column + 2) <= FIRST_DISTANCE


#: what ends a clause on a line, for `_about`
_CLAUSE_MARKS = (",", ";", ":", ".", "\u2014", " - ")


def _takes_arguments(ctx: CheckContext, names: list[str], structure: MarkdownBody) -> bool:
    if ctx.document.has("arguments") or ctx.document.has("argument-hint"):
        return True
    return any(not structure.in_code(m.start()) and (m.group(5) is None or m.group(5) in names)
               for m in _arguments(ctx))


@check("SK116")
def placeholder_in_code(ctx: CheckContext) -> Iterator[Finding]:
    names = declared_names(ctx.value("arguments"))
    structure = parse_body(ctx.text, ctx.document.body_offset)
    guide = _writing_guide(ctx)
    #: a skill that does not say it takes arguments may still get some (`/name text`, the Skill
    #: tool's `args`): there only literal text is reported, "when invoked with arguments"
    takes = guide or _takes_arguments(ctx, names, structure)
    injections = _spans_outside(ctx)
    profile = ctx.profile
    declared = ctx.document.has("arguments") or ctx.document.has("argument-hint")
    in_prose = {m.group(0) for m in _arguments(ctx) if structure.fence_at(m.start()) is None
                and _named_as_input(ctx.text, m)}
    found = (m for m in _arguments(ctx) if structure.in_code(m.start())
             and not _inside(m.start(), injections)
             and (m.group(4) is not None or (guide and m.group(5) is None))
             and not (profile.keeps_missing_indexed_argument and m.group(4) is not None
                      and int(m.group(4)) >= IMPLAUSIBLE_INDEX))
    for match in capped(found, MAX_PLACEHOLDER_FINDINGS):
        why = _literal_text(ctx.text, match, structure, guide)
        if guide and why is not None and why.startswith("an example") \
                and _input_template(ctx.text, match) and _under_input_heading(structure, match):
            continue  # the guide's own `## User Input` block (`Workflow Name: $1`): its input
        if guide and declared and match.group(4) is None and _own_input(ctx.text, match,
                                                                         structure):
            continue  # a guide that takes arguments reads its own `$ARGUMENTS` (issue 37)
        if why is None and (not takes or declared or match.group(0) in in_prose
                            or _input_template(ctx.text, match)):
            continue  # the skill's own words make it its input: substitution is what it means
        finding = (_plain_literal(ctx, match, why) if _plain_syntax(ctx)
                   else _escaped_literal(ctx, match, why, takes))
        if why is None:  # nothing says whether it is input or text
            finding.confidence = Confidence.HEURISTIC
        yield finding


def _escaped_literal(ctx: CheckContext, match: re.Match[str], why: str | None,
                     takes: bool) -> Finding:
    """SK116 where a backslash keeps a placeholder literal (Claude Code): the fix escapes it."""
    profile, text = ctx.profile, match.group(0)
    span = Span(match.start(), match.end())
    fixes = [ctx.replace_fix(f"Escape as `\\{text}`", Span(match.start(), match.start()), "\\")]
    if match.group(4) is None:  # `$ARGUMENTS` in a guide's example
        return ctx.finding("SK116", span,
                           f"`{text}` is an example in a guide to writing skills or commands: "
                           f"write `\\{text}` to show it as written. {substituting('SK116', profile)} "
                           "this skill's own text on every invocation: the example shows the "
                           f"user's words instead, {_without_arguments(profile, text)}.",
                           fixes=fixes)
    position = int(match.group(4)) + 1 - profile.argument_base
    otherwise = ("stays as written when there are fewer"
                 if profile.keeps_missing_indexed_argument else "becomes empty when there is none")
    when = "" if takes else (" when the skill is invoked with arguments (`/name text`, or "
                             "the Skill tool's `args`)")
    becomes = (f"it becomes the user's argument {position}{when} (and {otherwise})"
               if position >= 1 else
               f"`{text}` is no argument there, so it becomes empty{when}")
    counted = counted_by("SK116", profile)
    if len(counted) > 1:  # an aggregate whose runtimes count from 0 and from 1
        n = int(match.group(4))
        becomes = "it becomes the user's " + ", ".join(
            f"argument {n + 1 - base} in {runtime_names(names)}"
            for base, names in sorted(counted.items())) + when
    return ctx.finding("SK116", span,
                       f"`{text}` is {why or 'inside code'}: write `\\{text}` to keep it. "
                       f"{substituting('SK116', profile)} code too: {becomes}.", fixes=fixes)


def _without_arguments(profile: RuntimeProfile, text: str) -> str:
    """What a guide's `$ARGUMENTS` example becomes when fewer words come (Claude Code 2.1.332:
    `$ARGUMENTS` becomes nothing; an indexed one is kept as written where a missing argument
    keeps the placeholder)."""
    if text.endswith("]") and profile.keeps_missing_indexed_argument:
        return "or stays as written when fewer words are passed"
    return "or nothing when the skill is invoked without arguments"


def _plain_literal(ctx: CheckContext, match: re.Match[str], why: str | None) -> Finding:
    """SK116 under plain placeholders (Wave, OpenCode): no escape, and a body with a placeholder is
    substituted on every invocation (docs/design/runtime-facts.md §4.3). A shell or awk
    positional keeps its meaning as `${N}` or awk's `$(N)`, which Wave does not match; an amount
    loses the `$` before its digit; a guide's `$ARGUMENTS` example moves into a linked file, which
    is not substituted."""
    runtime, base = ctx.profile.runtime, ctx.profile.argument_base
    text = match.group(0)
    span = Span(match.start(), match.end())
    if match.group(4) is None:
        return ctx.finding("SK116", span,
                           f"`{text}` is an example in a guide to writing skills or commands: move "
                           f"the example into a file the skill links (`references/…`), which {runtime} "
                           f"does not substitute. In SKILL.md {runtime} replaces every `{text}` with "
                           f"the user's words (or nothing) on every invocation; "
                           f"{_no_escape(ctx)}.")
    index = int(match.group(4))
    rest = _rest(ctx, index)
    becomes = (f"it becomes the user's {arguments_from(index + 1 - base, rest)} (and empty when "
               "there is none)" if index >= base else
               f"`{text}` is no argument there, so it {missing_below_base(ctx.profile, rest)}")
    details = f"{runtime} substitutes code too, on every invocation: {becomes}; {_no_escape(ctx)}."
    if why is not None and why.startswith("an amount"):
        amount = _amount(ctx.text, match)
        return ctx.finding("SK116", span,
                           f"`${amount}` is {why}: write it without `$` right before the digit "
                           f"(`{amount} USD`). {details}")
    kept, title = _kept_positional(ctx.text, match)
    fixes = [ctx.replace_fix(title, span, kept)] if why is not None and \
        why.startswith("a positional") else []
    return ctx.finding("SK116", span,
                       f"`{text}` is {why or 'inside code'}: write `{kept}` to keep it. {details}",
                       fixes=fixes)


def _amount(text: str, match: re.Match[str]) -> str:
    """The figures of an amount written `$0.50`, `$2,000` or `$400K` (`0.50`, `2,000`, `400K`)."""
    found = re.match(r"\$(\d+(?:[.,]\d+)*(?:[kKMB]\b)?)", text[match.start():match.start() + 32])
    return found.group(1) if found else match.group(4)


def _kept_positional(text: str, match: re.Match[str]) -> tuple[str, str]:
    """How a positional parameter keeps its meaning where Wave matches `$N`: `${N}` in a shell,
    `$(N)` on a line that runs awk (`${N}` is no awk)."""
    index = match.group(4)
    line_start = text.rfind("\n", 0, match.start()) + 1
    line_end = text.find("\n", match.end())
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    if re.search(r"\b[gnm]?awk\b", line):
        return f"$({index})", f"Write awk's `$({index})`"
    return f"${{{index}}}", f"Write `${{{index}}}`"


#: a code block that is a script with positional parameters of its own
_SCRIPT = re.compile(r"\$[@#]|\bshift\b|^#!|\b\w+\s*\(\)\s*\{|\bfunction\s+\w+|\bawk\b|"
                     r"\b(?:ba|z)?sh\s+-c\b|\s-exec\s|\bxargs\b|"
                     r"\b(?:dirname|basename|realpath)\s+\"?\$0", re.M)
#: code blocks in whose text a `$N` is never the skill's input: markup, data, query languages
_LITERAL_LANGUAGES = frozenset({"html", "xml", "svg", "css", "json", "csv", "sql", "postgresql",
                                "psql", "pgsql", "plpgsql", "mysql", "sqlite", "graphql", "latex",
                                "tex", "erlang", "erl", "elixir", "ex", "exs", "iex"})
#: a `$N` that is a query's bind parameter or an Erlang match-spec variable, in a block of any
#: language (issue 37): `WHERE id = $1`, `VALUES ($1, $2)`, `$1::uuid`, `ets:select(T, [{'$1'}])`
_QUERY_OR_MATCH_SPEC = re.compile(
    r"\b(?:WHERE|AND|OR|SET|ON|HAVING)\b[^\n;]*?(?:=|<>|!=|<=?|>=?|\bIN\s*\(|\bLIKE)\s*\$\d|"
    r"\b(?:LIMIT|OFFSET)\s+\$\d|\bVALUES\s*\(\s*\$\d|\$\d+::[a-z]|"
    r"\b(?:ets:\w|fun2ms\b)|:ets\.\w")
#: words on the line of an inline code span that make its `$N` a query's parameter:
#: "parameterized statements (`$1`, `$2`)"
_QUERY_WORDS = re.compile(r"\b(?:SQL|parameteri[sz]ed|prepared statements?|bind (?:parameters?|"
                          r"variables?|placeholders?)|query placeholders?|match[ _-]?specs?)\b")
#: an amount of money: `$0.01`, `$0/month`, `$5 per`, `$2,000`, `$5k`, a range `$8–$25`
_AMOUNT = re.compile(r"[.,]\d|/\s*(?:mo|month|year|yr|day|hour|hr|user|seat|req|call|1k|1m)\b|"
                     r"\s*(?:per|USD|a month|a year|monthly|yearly)\b|[kKMB]\b|"
                     r"\s*[–—-]\s*\$\d", re.I)
#: `$0` (playbook name), `$1` — output path, `$0`: the input, `$1 = file`
_NAMED = re.compile(r"^[`*_]*\s*(?:\([^)\n]{2,}\)|[—–:=-]\s*\w|is\b|means\b|holds\b)", re.I)
#: `Agent Name: $1`, `- file: $0`: a template of the input the skill receives
_TEMPLATE_LINE = re.compile(r"^\s*(?:[-*]\s+)?[A-Za-z][\w ]{0,30}:\s*$")


#: the first amount of a range right before a placeholder (`$8–` of `$8–$25`)
_RANGE_START = re.compile(r"\$\d[\d.,]*[kKMB]?\s*[–—-]\s*$")


def _is_amount(text: str, match: re.Match[str]) -> bool:
    """`$N` reads as money: what follows says so (`$0.50`, `$5/month`, `$5k`, `$8–$25`), or it
    ends a range that starts with an amount."""
    return bool(_AMOUNT.match(text, match.end(), match.end() + 16)
                or _RANGE_START.search(text[max(0, match.start() - 16):match.start()]))


def _plugin_guide(ctx: CheckContext) -> bool:
    """Whether the skill is a guide to writing plugins (hooks, MCP servers, agents), skills or
    commands: its `${CLAUDE_PLUGIN_ROOT}` in blocks are the reader's plugin's (SK117)."""
    return about_writing_plugins(ctx.value("name"), ctx.value("description"))


def _writing_guide(ctx: CheckContext) -> bool:
    """Whether the skill is a guide to writing skills or commands: its `$1`, `$ARGUMENTS` in code
    are examples."""
    return about_writing_skills(ctx.value("name"), ctx.value("description"))


def _literal_text(text: str, match: re.Match[str], structure: MarkdownBody,
                  guide: bool) -> str | None:
    """Why a placeholder in code is text the author means literally (None: nothing says so)."""
    if match.group(4) is not None and (_is_amount(text, match)
                                       or int(match.group(4)) >= IMPLAUSIBLE_INDEX):
        return "an amount of money inside code"
    fence = structure.fence_at(match.start())
    if fence is not None and match.group(4) is not None \
            and fence.info.split(" ")[0].lower() in _LITERAL_LANGUAGES:
        return f"inside {fence.info.split(' ')[0]} code (an amount, a parameter, not an input)"
    if fence is not None:
        block = text[fence.content.start:fence.content.end]
    else:
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        block = text[line_start:line_end if line_end >= 0 else len(text)]
    if match.group(4) is not None and _SCRIPT.search(block):
        return "a positional parameter of a shell or awk script"
    if match.group(4) is not None and _query_parameter(text, match, fence is None):
        return "a query's bind parameter or a match-spec variable (SQL, Erlang), not an input"
    if guide:
        return "an example in a guide to writing skills or commands"
    return None


def _query_parameter(text: str, match: re.Match[str], inline: bool) -> bool:
    """The `$N` is a query's bind parameter or a match-spec variable: its line says so in code
    (`WHERE id = $1`), or, for inline code, in words ("parameterized statements (`$1`)")."""
    line_start = text.rfind("\n", 0, match.start()) + 1
    line_end = text.find("\n", match.end())
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    return bool(_QUERY_OR_MATCH_SPEC.search(line) or (inline and _QUERY_WORDS.search(line)))


#: words on a line that has the skill act on its own `$ARGUMENTS` ("Parse `$ARGUMENTS` for the
#: name", "If `$ARGUMENTS` is empty, ask"), and words that describe the syntax to a reader
#: ("`$ARGUMENTS` captures everything", a table row)
_ACTS_ON = re.compile(r"\b(?:parse|parsing|extract|read|check|inspect|if|unless|when|from|"
                      r"contains?|empty|provided|given|passed)\b", re.I)
_DESCRIBES = re.compile(r"\b(?:captures?|placeholders?|variables?|syntax|expands?|becomes|"
                        r"replaced|substitut\w*|positional|e\.g\.|examples?|for all)\b|\|",
                        re.I)


def _own_input(text: str, match: re.Match[str], structure: MarkdownBody) -> bool:
    """A guide that declares arguments uses this `$ARGUMENTS` for itself (issue 37): alone in a
    block under a heading about its input, or in inline code on a prose line (not a heading)
    that acts on it and does not describe the syntax. Anywhere else it is the guide's example."""
    fence = structure.fence_at(match.start())
    if fence is not None:
        return _under_input_heading(structure, match) and \
            text[fence.content.start:fence.content.end].strip() == match.group(0)
    line_start = text.rfind("\n", 0, match.start()) + 1
    line_end = text.find("\n", match.end())
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    return not line.lstrip().startswith("#") and bool(_ACTS_ON.search(line)) \
        and not _DESCRIBES.search(line)


def _named_as_input(text: str, match: re.Match[str]) -> bool:
    """Prose that says what the placeholder holds: "`$0` (playbook name)", "`$1` — output path"."""
    return bool(_NAMED.match(text[match.end():match.end() + 40]))


#: a heading over the skill's own input (`## User Input`, `## Arguments`)
_INPUT_HEADING = re.compile(r"\b(?:input|inputs|arguments?|parameters)\b", re.I)


def _under_input_heading(structure: MarkdownBody, match: re.Match[str]) -> bool:
    before = [h for h in structure.headings if h.span.start < match.start()]
    return bool(before) and bool(_INPUT_HEADING.search(before[-1].text))


def _input_template(text: str, match: re.Match[str]) -> bool:
    """A line that labels the placeholder as part of the input: `Agent Name: $1`."""
    line_start = text.rfind("\n", 0, match.start()) + 1
    return bool(_TEMPLATE_LINE.match(text[line_start:match.start()]))


@check("SK117")
def unknown_variable(ctx: CheckContext) -> Iterator[Finding]:
    """SK117, each variable meant as written said once per skill (`once_per_skill`)."""
    def meant(finding: Finding) -> str | None:
        return ctx.text[finding.span.start:finding.span.end] \
            if finding.confidence is Confidence.HEURISTIC else None

    yield from once_per_skill(_unknown_variables(ctx), meant,
                              "other mentions of `{}` that may be meant as written")


def _unknown_variables(ctx: CheckContext) -> Iterator[Finding]:
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
                shown = shown_as_text(ctx.text, structure, span, _plugin_guide(ctx), True)
                finding = ctx.finding("SK117", span, f"`${{{name}}}` has a value only in plugin "
                                                     "skills: add the skill to a plugin, or use "
                                                     "`${CLAUDE_SKILL_DIR}` for its own files. No "
                                                     "plugin manifest or marketplace entry holds "
                                                     "this skill, so it stays literal"
                                      + (f" ({shown}: if it is meant as written, nothing is "
                                         "wrong)." if shown else "."),
                                      level=Severity.WARNING)
                if shown:
                    finding.confidence = Confidence.HEURISTIC
                yield finding
            elif known.shell_only and not _inside(match.start(), injections):
                found += 1
                yield ctx.finding("SK117", span, f"`${{{name}}}` is replaced only inside injected "
                                                 "commands: move it into one (`` !`…` ``) or write "
                                                 "its value. Here it stays literal.")
            continue
        if known is None and ctx.profile.expands(name):  # a plugin's `${user_config.KEY}`
            continue
        ours = name.startswith(("WAVE_", "CLAUDE_"))
        if structure.in_code(match.start()) and not ours:
            continue
        found += 1
        suggestion = closest(name, [v.name for v in VARIABLES if ctx.profile.expands(v.name)])
        advice = (f"change it to `${{{suggestion}}}` if that is meant." if suggestion
                  else "write the value it stands for.")
        fixes = ([ctx.replace_fix(f"Change to `${{{suggestion}}}`", span, f"${{{suggestion}}}")]
                 if suggestion else [])
        shown = shown_as_text(ctx.text, structure, span, _plugin_guide(ctx),
                              known is not None and known.plugin_only) if ours else None
        finding = ctx.finding("SK117", span, f"`${{{name}}}` is not a variable of the "
                                             f"`{ctx.profile.name}` target: {advice} It reaches "
                                             "the model literally"
                              + (f" ({shown}: if it is meant as written, nothing is wrong)."
                                 if shown else "."), fixes=fixes)
        if shown:
            finding.confidence = Confidence.HEURISTIC
        yield finding


def _names_with_punctuation(value: object) -> list[str]:
    """Declared argument names with `-` or `.` (`my-arg`, `v1.2`), which the runtime matches
    after `$` as written, longest first (SK098 checks the names themselves)."""
    names = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
    return sorted((n for n in names if isinstance(n, str) and re.fullmatch(r"[A-Za-z_][\w.-]*", n)
                   and re.search(r"[.-]", n)), key=len, reverse=True)


@check("SK118")
def undeclared_argument(ctx: CheckContext) -> Iterator[Finding]:
    names = declared_names(ctx.value("arguments"))
    structure = parse_body(ctx.text, ctx.document.body_offset)
    injections = _spans_outside(ctx)
    wave = _plain_syntax(ctx)
    found = (m for m in _written_arguments(ctx) if m.group(5) is not None
             and (wave or m.group(5) not in names)
             and m.group(5)[0].islower() and not structure.in_code(m.start())
             and not _inside(m.start(), injections))
    spelt = _names_with_punctuation(ctx.value("arguments"))
    for match in capped(found, MAX_PLACEHOLDER_FINDINGS):
        name = match.group(5)
        span = Span(match.start(), match.end())
        dollar = ctx.text.find("$", match.start())
        if not wave and any(ctx.text.startswith(f"${full}", dollar) for full in spelt):
            continue  # a declared `$my-arg`, matched as written (issue 36)
        if wave:
            first = ctx.profile.argument_base
            position = f"`${names.index(name) + first}`" if name in names else "`$1`, `$2`, …"
            yield ctx.finding("SK118", span,
                              f"`${name}` stays literal in {ctx.profile.runtime}, which "
                              f"substitutes no named arguments: write {position} (or "
                              f"`$ARGUMENTS`) instead. {ctx.profile.runtime} replaces only "
                              f"`$ARGUMENTS` and `$1`, `$2`, …; `arguments` is read by "
                              f"{indexed_syntax()}.")
            continue
        suggestion = closest(name, names)
        advice = (f"change it to `${suggestion}` if that is meant." if suggestion
                  else "declare it in `arguments` to have it substituted.")
        yield ctx.finding("SK118", span,
                          f"`${name}` is not declared in `arguments`: {advice} It stays literal.")


@check("SK119")
def argument_in_shell(ctx: CheckContext) -> Iterator[Finding]:
    names = declared_names(ctx.value("arguments"), ctx.profile)
    arguments_file = ctx.profile.arguments_file_variable
    for injection in find_injections(ctx.text, ctx.document.body_offset).items:
        span = injection.command_span
        # the target's own placeholders: under plain ones a `\$1` is substituted too, and a
        # declared `$name` is not
        for match in unescaped_placeholders(ctx.text, span.start, span.end,
                                            ctx.profile.argument_syntax):
            if match.group(5) is not None and match.group(5) not in names:
                continue
            message = (f"`{match.group(0)}` inside an injected command: read the arguments from "
                       f"`${{{arguments_file}}}` instead. {ctx.profile.runtime} never splices "
                       "arguments into shell text (the command sees it literally)."
                       if arguments_file else
                       f"`{match.group(0)}` inside an injected command: pass data through a file "
                       "or a script argument the script validates. The user's raw text becomes "
                       "shell syntax (`; rm -rf ~` included).")
            yield ctx.finding("SK119", Span(match.start(), match.end()), message)
