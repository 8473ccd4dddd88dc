"""Semantic tokens of a SKILL.md body: the syntax the runtimes give meaning to and Markdown grammars
do not know (docs/design/lsp.md *Inlay hints and semantic tokens*).

- an injection's markers (`` !` `` and the closing backtick; ```` ```! ```` and the closing fence)
  are `marker` tokens, the command between them `command` tokens;
- a `${…}` placeholder the target substitutes is a `variable` (`readonly`; `builtin` unless it
  is a plugin's `${user_config.KEY}`);
- `$ARGUMENTS`, `$N` and `$ARGUMENTS[N]` are `argument` + `builtin`, a declared `$name` an
  `argument`; inside an injected command only where the target splices arguments into it.

What the runtime leaves literal (an unknown variable, an escaped `\\$1`, an undeclared `$name`)
gets no token. Tokens never overlap and never span a line break: a placeholder inside a command
cuts the command token, a block command gives one token per line. Offsets are the document's;
the language server encodes them for the protocol.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from wave_lsp.core.facts.variables import PLACEHOLDER, variable
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.invocation.arguments import argument_references, declared_names
from wave_lsp.core.parsing.injections import CommandSpans, Injection, find_injections
from wave_lsp.core.parsing.text import LineIndex, Span

TokenKind = Literal["marker", "command", "variable", "argument"]
TokenModifier = Literal["readonly", "builtin"]


@dataclass(frozen=True, slots=True)
class Token:
    span: Span  #: within one line
    kind: TokenKind
    modifiers: frozenset[TokenModifier] = frozenset()


def semantic_tokens(ctx: FeatureContext, within: Span | None = None) -> list[Token]:
    """The body's tokens, in document order; with `within`, those that overlap it."""
    document = ctx.document
    injections = find_injections(document.text, document.body_offset).items
    commands = CommandSpans(injections)
    inner = sorted([*_variables(ctx, commands), *_arguments(ctx, commands)],
                   key=lambda token: token.span.start)
    starts = [token.span.start for token in inner]
    found = [*inner, *(token for injection in _outermost(injections)
                       for token in _injection(injection, inner, starts))]
    lines = document.lines
    # only a command can hold a line break (a block's, or an inline one's `[^`]+`)
    result = [piece for token in found
              for piece in (_per_line(token, lines) if token.kind == "command" else (token,))]
    if within is not None:
        result = [token for token in result
                  if token.span.start < within.end and token.span.end > within.start]
    return sorted(result, key=lambda token: token.span.start)


def _variables(ctx: FeatureContext, commands: CommandSpans) -> Iterator[Token]:
    profile = ctx.profile
    for match in PLACEHOLDER.finditer(ctx.document.text, ctx.document.body_offset):
        name = match.group(1)
        if not profile.expands(name):
            continue
        known = variable(name)
        if known is not None and known.shell_only and match.start() not in commands:
            continue
        modifiers: frozenset[TokenModifier] = (frozenset({"readonly", "builtin"}) if known
                                               else frozenset({"readonly"}))
        yield Token(Span(match.start(), match.end()), "variable", modifiers)


def _arguments(ctx: FeatureContext, commands: CommandSpans) -> Iterator[Token]:
    document, profile = ctx.document, ctx.profile
    names = declared_names(document.value("arguments"), ctx.profile)
    for reference in argument_references(document.text, names, document.body_offset,
                                     profile=profile):
        if reference.span.start in commands and not profile.splices_arguments_into_commands:
            continue
        modifiers: frozenset[TokenModifier] = (frozenset() if reference.name is not None
                                               else frozenset({"builtin"}))
        yield Token(reference.span, "argument", modifiers)


def _outermost(injections: tuple[Injection, ...]) -> list[Injection]:
    """Injections not inside another one (an inline `` !`x` `` in a ```` ```! ```` block is the
    block's text); `injections` are in document order."""
    result: list[Injection] = []
    for injection in injections:
        if not result or injection.span.start >= result[-1].span.end:
            result.append(injection)
    return result


def _injection(injection: Injection, inner: list[Token], starts: list[int]) -> Iterator[Token]:
    """The markers and the command pieces between the placeholders inside it (`inner` sorted,
    `starts` their start offsets)."""
    span, command = injection.span, injection.command_span
    opener = 4 if injection.kind == "block" else 2  # ```! or !`
    closer = 3 if injection.kind == "block" else 1  # ``` or `
    yield Token(Span(span.start, span.start + opener), "marker")
    position = command.start
    first = bisect.bisect_left(starts, command.start)
    for token in inner[first : bisect.bisect_left(starts, command.end)]:
        if token.span.start > position:
            yield Token(Span(position, token.span.start), "command")
        position = max(position, token.span.end)
    if command.end > position:
        yield Token(Span(position, command.end), "command")
    yield Token(Span(span.end - closer, span.end), "marker")


def _per_line(token: Token, lines: LineIndex) -> Iterator[Token]:
    """`token` cut at line breaks (the terminators themselves belong to no token)."""
    first, last = lines.line_of(token.span.start), lines.line_of(token.span.end)
    for line in range(first, last + 1):
        start = max(token.span.start, lines.line_start(line))
        end = min(token.span.end, lines.line_end(line))
        if end > start:
            yield Token(Span(start, end), token.kind, token.modifiers)
