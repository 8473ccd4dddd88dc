"""Inlay hints in a SKILL.md body: what each placeholder becomes and whether each injected command
may run, for the current target (docs/design/lsp.md *Inlay hints and semantic tokens*).

- after `${NAME}`: its value here (`${CLAUDE_SKILL_DIR}` → the skill folder), a few words for a
  value known only at run time (`per session`), or `literal` where the target knows the variable
  but leaves it in place; nothing for a variable the target does not know (SK117 reports it);
- after `$ARGUMENTS`, `$N`, `$ARGUMENTS[N]` and a declared `$name`: the argument it binds to under
  the profile's counting (`argument_base`), by its declared name when it has one;
- after `` !`cmd` `` and ```` ```! ```` blocks: the permission engine's decision, exactly the one
  the preview and the hover show (`wave_lsp.core.invocation.preview.plan_injections`).

Labels stay short; the tooltip (Markdown) explains. The placeholders are found by the runtime's own
patterns (`variables.PLACEHOLDER`, `arguments.argument_references`, `injections_as_read`: the
target's own injection pattern).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from wave_lsp.core.facts.variables import PLACEHOLDER, variable
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.features.hover import argument_markdown, injection_markdown, variable_markdown
from wave_lsp.core.invocation.arguments import (
    ArgumentReference,
    argument_references,
    below_base_label,
    declared_names,
)
from wave_lsp.core.invocation.preview import skill_values
from wave_lsp.core.invocation.substitute import VariableValues, resolve
from wave_lsp.core.parsing.injections import CommandSpans, Injection, injections_as_read
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.permissions.rules import Decision

HintKind = Literal["value", "argument", "permission"]
#: labels longer than this are shortened (a path keeps its last folders)
MAX_LABEL = 32


@dataclass(frozen=True, slots=True)
class InlayHint:
    offset: int  #: where the hint stands: right after what it explains
    label: str
    tooltip: str  #: Markdown
    kind: HintKind


def inlay_hints(ctx: FeatureContext, within: Span | None = None) -> list[InlayHint]:
    """The hints of the body whose offset lies in `within` (the whole body when None), in order."""
    document = ctx.document
    start = document.body_offset if within is None else max(within.start, document.body_offset)
    end = len(document.text) if within is None else within.end
    if start > end:
        return []
    profile = ctx.profile
    injections = list(injections_as_read(document.text, document.body_offset,
                                         needs_lookbehind=profile.injection_needs_lookbehind))
    commands = CommandSpans(injections)
    hints = [*_variable_hints(ctx, commands, start, end),
             *_argument_hints(ctx, commands, start, end),
             *_injection_hints(ctx, [i for i in injections if start <= i.span.end <= end])]
    return sorted(hints, key=lambda hint: hint.offset)


# -- ${…} ---------------------------------------------------------------------------------------
def _variable_hints(ctx: FeatureContext, commands: CommandSpans, start: int,
                    end: int) -> Iterator[InlayHint]:
    values = skill_values(ctx.document, ctx.location, ctx.settings)
    text = ctx.document.text
    for match in PLACEHOLDER.finditer(text, ctx.document.body_offset):
        if not start <= match.end() <= end:
            continue
        found = variable_hint(match.group(1), values, match.start() in commands)
        if found is not None:
            label, tooltip = found
            yield InlayHint(match.end(), label, tooltip, "value")


def variable_hint(name: str, values: VariableValues, in_shell: bool) -> tuple[str, str] | None:
    """(label, tooltip) for `${name}`, or None when the target does not substitute it (or it has
    no value in a preview)."""
    resolution = resolve(name, values, in_shell=in_shell)
    known = variable(name)
    if resolution.kind == "user-config":
        label = "plugin setting"
    elif resolution.kind == "literal":
        label = "literal"
    elif resolution.kind == "run-time" and known is not None and known.at_run_time:
        label = known.at_run_time
    elif resolution.kind == "value" and resolution.value is not None:
        label = short_label(resolution.value)
    else:
        return None
    return label, variable_markdown(name, values, in_shell)


def short_label(value: str) -> str:
    """`value` if short, else its tail: the last path components that fit, after `…/`."""
    if len(value) <= MAX_LABEL:
        return value
    parts = value.rstrip("/").split("/")
    tail = parts[-1]
    for part in reversed(parts[:-1]):
        if len(part) + len(tail) + 3 > MAX_LABEL:
            break
        tail = f"{part}/{tail}"
    if len(tail) + 2 > MAX_LABEL:
        return "…" + value[-(MAX_LABEL - 1):]
    return f"…/{tail}"


# -- $ARGUMENTS, $N, $name ------------------------------------------------------------------------
def _argument_hints(ctx: FeatureContext, commands: CommandSpans, start: int,
                    end: int) -> Iterator[InlayHint]:
    document, profile = ctx.document, ctx.profile
    names = declared_names(document.value("arguments"), ctx.profile)
    for reference in argument_references(document.text, names, document.body_offset,
                                     profile=profile):
        if not start <= reference.span.end <= end:
            continue
        in_command = reference.span.start in commands
        if in_command and not profile.splices_arguments_into_commands:
            label, tooltip = "literal", (
                f"`{reference.text}` inside an injected command: {profile.runtime} never splices "
                "arguments into shell text, so the command sees it as written.")
        else:
            label, tooltip = argument_hint(reference, names, ctx)
            if in_command:
                tooltip += (f"\n\n{profile.runtime} splices it into the shell command: the "
                            "user's text becomes shell syntax (SK119).")
        yield InlayHint(reference.span.end, label, tooltip, "argument")


def argument_hint(reference: ArgumentReference, names: list[str],
                  ctx: FeatureContext) -> tuple[str, str]:
    """(label, tooltip) for one argument placeholder under the context's profile: the declared
    name of the argument it binds to, else `arg N` (N counted from 1 whatever the target), `args
    N…` where it takes the rest of the arguments."""
    tooltip = argument_markdown(reference, names, ctx.profile)
    if reference.everything:
        return "all args", tooltip
    word = reference.word(names, ctx.profile)
    if word is None:
        return below_base_label(ctx.profile, reference.rest), tooltip
    if reference.name is None and word < len(names):
        return names[word], tooltip
    return f"args {word + 1}…" if reference.rest else f"arg {word + 1}", tooltip


# -- !`cmd` ---------------------------------------------------------------------------------------
DECISION_LABELS = {"allow": "allowed", "deny": "denied", "ask": "needs approval",
                   "cannot-tell": "cannot tell"}


def decision_label(decision: Decision) -> str:
    if decision.allowed and decision.read_only:
        return "read-only"
    return DECISION_LABELS[decision.behavior]


def _injection_hints(ctx: FeatureContext, injections: list[Injection]) -> Iterator[InlayHint]:
    if not any(not injection.empty for injection in injections):
        return
    from wave_lsp.core.invocation.preview import plan_injections  # as hover.py: loaded when needed

    plan = plan_injections(ctx.document, ctx.location, ctx.settings)
    by_span = {planned.injection.span: planned for planned in plan.injections}
    for injection in injections:
        planned = by_span.get(injection.span)
        if planned is not None:
            # a runtime that runs it unchecked (OpenCode): say so; the tooltip gives wave-lsp's
            label = "runs unchecked" if planned.unchecked_by_runtime else decision_label(
                planned.decision)
            yield InlayHint(injection.span.end, label, injection_markdown(planned), "permission")
