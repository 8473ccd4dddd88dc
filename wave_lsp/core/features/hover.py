"""Hover text at an offset (docs/design/product.md *Language server*, hover).

On a frontmatter key: the field's documentation and allowed values (from the schema). On a block or
quoted multi-line scalar: the text the runtime actually gets. On `name`: where the skill loads, one
line per runtime (`wave_lsp.core.workspace.where`). On an `allowed-tools` entry: the rule
as it is registered after placeholder substitution (or why it is dropped). On `${…}`: what it
resolves to here. On `$N` / `$ARGUMENTS`: what it binds to in the target. On `/skill-name`: that
skill's description. Injections add their permission decision (see `wave_lsp.core.invocation.preview`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from wave_lsp.core.checking import schema
from wave_lsp.core.facts.profiles import RuntimeProfile, with_workspace_trust
from wave_lsp.core.facts.variables import PLACEHOLDER, variable
from wave_lsp.core.features import FeatureContext, match_at
from wave_lsp.core.features.completion import field_documentation
from wave_lsp.core.features.navigation import SKILL_REFERENCE
from wave_lsp.core.invocation.arguments import (
    REST_REASON,
    ArgumentReference,
    argument_references,
    arguments_from,
    declared_names,
    missing_below_base,
)
from wave_lsp.core.invocation.preview import skill_values
from wave_lsp.core.invocation.substitute import VariableValues, resolve
from wave_lsp.core.parsing.document import FieldEntry
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import YamlNode

if TYPE_CHECKING:
    from wave_lsp.core.invocation.preview import PlannedInjection


@dataclass(frozen=True, slots=True)
class HoverText:
    markdown: str
    span: Span


def hover(ctx: FeatureContext, offset: int) -> HoverText | None:
    for produce in (_injection, _placeholder, _field, _positional, _skill_reference):
        found = produce(ctx, offset)
        if found is not None:
            return found
    return None


def _within(span: Span, offset: int) -> bool:
    return span.start <= offset < span.end or (span.start == span.end == offset)


def _entry_at(ctx: FeatureContext, offset: int) -> FieldEntry | None:
    for entry in ctx.document.fields.values():
        if entry.key.span.start <= offset < max(entry.node.span.end, entry.key.span.end):
            return entry
    return None


def _field(ctx: FeatureContext, offset: int) -> HoverText | None:
    entry = _entry_at(ctx, offset)
    if entry is None:
        return None
    spec = schema.field_spec(entry.name)
    if entry.name == "name" and ctx.location.path is not None and (
            _within(entry.key.span, offset) or _within(entry.node.span, offset)):
        docs = (f"**name** ({' | '.join(spec.types)})\n\n{field_documentation(spec, ctx.profile)}"
                if spec is not None and _within(entry.key.span, offset) else "**name**")
        span = entry.key.span if _within(entry.key.span, offset) else entry.node.span
        return HoverText(f"{docs}\n\n{where_markdown(ctx)}", span)
    if _within(entry.key.span, offset):
        if spec is None:
            return HoverText(f"**{entry.name}** — not a field any target reads.", entry.key.span)
        return HoverText(f"**{entry.name}** ({' | '.join(spec.types)})\n\n"
                         + field_documentation(spec, ctx.profile), entry.key.span)
    if entry.name in ("allowed-tools", "disallowed-tools"):
        return _tool_rule(ctx, entry, offset)
    if entry.name == "paths":
        return _paths(ctx, entry)
    node = _scalar_at(entry.node, offset)
    if node is not None and (node.is_block_scalar or "\n" in ctx.document.text[
            node.content_span.start : node.content_span.end]):
        return HoverText(_resolved_scalar(node), node.content_span)
    return None


def where_markdown(ctx: FeatureContext) -> str:
    """Where this skill loads, one line per runtime (`wave_lsp.core.workspace.where`)."""
    from wave_lsp.core.workspace.where import RUNTIMES, where_it_loads

    settings = ctx.settings
    runtimes = tuple(with_workspace_trust(p, settings.workspace_trust) for p in RUNTIMES)
    lines = [f"- {answer.line()}" for answer in where_it_loads(
        ctx.document, ctx.location, profiles=runtimes, home=settings.home,
        personal=settings.personal)]
    return "Where it loads:\n\n" + "\n".join(lines)


def _scalar_at(node: YamlNode, offset: int) -> YamlNode | None:
    for candidate in node.walk():
        if candidate.kind == "scalar" and candidate.span.start <= offset < candidate.span.end:
            return candidate
    return None


def _resolved_scalar(node: YamlNode) -> str:
    styles = {"|": "literal block (`|`): line breaks are kept",
              ">": "folded block (`>`): single line breaks become spaces",
              "'": "single-quoted: line breaks fold into spaces",
              '"': "double-quoted: escapes resolved, line breaks fold into spaces"}
    how = styles.get(node.style or "", "plain multi-line: line breaks fold into spaces")
    fence = "````" if "```" in node.text else "```"
    return (f"**Resolved value** — {how}; {len(node.text):,} characters:\n\n"
            f"{fence}text\n{node.text}\n{fence}")


def _tool_rule(ctx: FeatureContext, entry: FieldEntry, offset: int) -> HoverText | None:
    """How the `allowed-tools` rule under the cursor is registered — the preview's own account."""
    from wave_lsp.core.invocation.preview import resolve_allowed_tools

    if entry.name != "allowed-tools":
        return None
    values = skill_values(ctx.document, ctx.location, ctx.settings)
    for item in resolve_allowed_tools(ctx.document, values):
        if not _within(item.span, offset) and item.span.end != offset:
            continue
        if item.dropped:
            why = (item.reason or "").removeprefix("not registered: ")
            text = (f"**Dropped when the skill loads**: in `{item.original}`, {why}; the rule is "
                    "not registered and a notice is shown.")
        elif item.resolved != item.original:
            text = f"**Registered as** `{item.resolved}`"
        else:
            text = f"**Registered as** `{item.original}` (no placeholders)"
        return HoverText(text, item.span)
    return None


def _placeholder(ctx: FeatureContext, offset: int) -> HoverText | None:
    match = match_at(ctx, PLACEHOLDER, offset, body_only=False)
    if match is None:
        return None
    values = skill_values(ctx.document, ctx.location, ctx.settings)
    return HoverText(variable_markdown(match.group(1), values, in_shell=False),
                     Span(match.start(), match.end()))


def variable_markdown(name: str, values: VariableValues, in_shell: bool) -> str:
    """What `${name}` is and becomes here (the hover, and the tooltip of its inlay hint)."""
    resolution = resolve(name, values, in_shell=in_shell)
    written = f"`${{{name}}}`"
    if resolution.kind == "user-config":
        return (f"{written} — a value of the plugin's user configuration, set when the plugin is "
                "enabled.")
    known = variable(name)
    about = f"{written} — {known.description if known else 'not a known variable'}."
    if resolution.kind == "run-time":
        return f"{about}\n\nKnown only when the skill runs."
    if resolution.kind == "value":
        return f"{about}\n\nResolves to `{resolution.value}`."
    return f"{about}\n\n{values.why_unresolved(name)}: it stays literal."


def _positional(ctx: FeatureContext, offset: int) -> HoverText | None:
    document = ctx.document
    if offset < document.body_offset:
        return None
    names = declared_names(document.value("arguments"), ctx.profile)
    line = document.lines.span_of_line(document.lines.line_of(offset))
    reference = next((found for found in argument_references(document.text, names, line.start,
                                                             line.end, ctx.profile,
                                                             document.body_offset)
                      if found.span.start <= offset < found.span.end), None)
    if reference is None:
        return None
    return HoverText(argument_markdown(reference, names, ctx.profile), reference.span)


def argument_markdown(reference: ArgumentReference, names: list[str],
                      profile: RuntimeProfile) -> str:
    """What an argument placeholder binds to under `profile` (the hover, and the tooltip of its
    inlay hint)."""
    written = f"`{reference.text}`"
    if reference.everything:
        return (f"{written} — everything the user typed after `/skill-name`, as typed (quotes "
                "kept).")
    word = reference.word(names, profile)
    if word is None:
        return (f"{written} {missing_below_base(profile, reference.rest)} in `{profile.name}`: "
                f"arguments count from {profile.argument_base}.")
    ordinal = word + 1
    counting = (f"declared as argument {ordinal} in `arguments`" if reference.name is not None
                else f"`{profile.name}` counts from {profile.argument_base}"
                + (f", and {REST_REASON}" if reference.rest else ""))
    missing = ("stays as written" if reference.index is not None
               and profile.keeps_missing_indexed_argument else "is empty")
    named = f" (`{names[word]}`)" if word < len(names) and reference.name is None else ""
    return (f"{written} — {arguments_from(ordinal, reference.rest)}{named}: {counting}. It "
            f"{missing} when fewer arguments are given.")


def _skill_reference(ctx: FeatureContext, offset: int) -> HoverText | None:
    match = match_at(ctx, SKILL_REFERENCE, offset)
    if match is not None:
        found = ctx.index.named(match.group(1))
        if not found:
            return None
        entry = found[0]
        hint = f" `{entry.argument_hint}`" if entry.argument_hint else ""
        return HoverText(f"**/{entry.name}**{hint} — {entry.scope} skill\n\n"
                         f"{entry.description or '(no description)'}",
                         Span(match.start(), match.end()))
    return None



def _injection(ctx: FeatureContext, offset: int) -> HoverText | None:
    document = ctx.document
    if offset < document.body_offset:
        return None
    from wave_lsp.core.invocation.preview import plan_injections, profile_injections

    found = [i for i in profile_injections(document.text, document.body_offset, ctx.profile)
             if i.span.start <= offset < i.span.end]
    if not found:
        return None

    plan = plan_injections(document, ctx.location, ctx.settings)
    planned = next((p for p in plan.injections if p.injection.span == found[0].span), None)
    if planned is None:
        return HoverText("**Injected command** — empty: the runtime skips it.", found[0].span)
    return HoverText(injection_markdown(planned), found[0].span)


def injection_markdown(planned: PlannedInjection) -> str:
    """The account of one injected command and its permission decision (the hover, and the
    tooltip of its inlay hint)."""
    decision = planned.decision
    verdict = {"allow": "✅ **runs**", "deny": "⛔ **denied**",
               "ask": "⛔ **denied** (needs approval, and a skill load cannot ask)",
               "cannot-tell": "❔ **cannot tell**"}[decision.behavior]
    lines = [f"**Injected command** — runs when the skill is invoked, before the model sees "
             f"anything; its output replaces the pattern.\n\n```sh\n{planned.shell_command}\n```",
             f"Permission: {verdict}. {decision.reason}"]
    if decision.rule is not None:
        where = f" in `{decision.rule.path}`" if decision.rule.path and \
            decision.rule.source != "allowed-tools" else ""
        lines.append(f"Rule: `{decision.rule.raw}` ({decision.rule.source}{where}).")
    if decision.refused:
        lines.append("The whole invocation aborts: no command runs and the model gets no text.")
    elif decision.unknown:
        lines.append("If the runtime does not run it, the whole invocation aborts.")
    if decision.fact:
        lines.append(f"Runtime fact: {decision.fact}.")
    return "\n\n".join(lines)


MAX_MATCH_FILES = 20_000
#: how long the count of `paths` matches may take; past it the counts so far are shown
MATCH_BUDGET_SECONDS = 0.25
def _paths(ctx: FeatureContext, entry: FieldEntry) -> HoverText | None:
    """How many files of the project the `paths` patterns match (the skill is offered once one
    of them is touched), counted for at most `MATCH_BUDGET_SECONDS`."""
    import os
    import time

    from wave_lsp.core.facts.conditional import path_patterns
    from wave_lsp.core.workspace.gitignore import GitIgnore

    patterns = path_patterns(entry.value)
    root = ctx.location.project_root or ctx.location.skill_dir
    if not patterns or root is None or not root.is_dir():
        return None
    spec = GitIgnore.from_lines(patterns)  # matched in polynomial time, however many stars
    matched, seen = [], 0
    deadline = time.monotonic() + MATCH_BUDGET_SECONDS
    stopped = False
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
        for name in files:
            seen += 1
            relative = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            if spec.match_file(relative):
                matched.append(relative)
            stopped = time.monotonic() > deadline
            if stopped:
                break
        if seen >= MAX_MATCH_FILES or stopped:
            break
    more = "+" if seen >= MAX_MATCH_FILES or stopped else ""
    examples = "".join(f"\n- `{path}`" for path in matched[:5])
    return HoverText(f"**paths** — {len(matched):,}{more} of {seen:,}{more} files under "
                     f"`{root}` match; the skill is offered once one of them is read or "
                     f"edited.{examples}", entry.node.span)
