"""docs/design/rules.md *allowed-tools*: SK080-SK087."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.checking.messages import (
    for_runtimes,
    runtime_names,
    runtimes_that,
)
from wave_lsp.core.facts.toolrules import (
    SHELL_TOOLS,
    Entry,
    entries,
    is_known_tool,
    known_tools,
    parse_rule,
    split_outside_parens,
)
from wave_lsp.core.facts.variables import PLACEHOLDER, variable
from wave_lsp.core.parsing.document import FieldEntry
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.helpers import (
    capped,
    closest,
    shown,
    type_name,
    value_region,
)
from wave_lsp.core.rules.registry import check

_LIMIT = 50
#: parameter names that make `Tool(param:value)` a parameter rule (valid for deny/ask only)
PARAMETERS = {
    "Bash": ("command", "description", "timeout", "run_in_background"),
    "PowerShell": ("command", "description", "timeout", "run_in_background"),
    "Agent": ("model", "subagent_type", "prompt", "description"),
    "Task": ("model", "subagent_type", "prompt", "description"),
    "Read": ("file_path",), "Write": ("file_path",), "Edit": ("file_path",),
}


def tool_entries(ctx: CheckContext) -> list[Entry]:
    entry = ctx.field("allowed-tools")
    if entry is None:
        return []
    return entries(entry.node, ctx.text)


@check("SK080")
def allowed_tools_type(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("allowed-tools")
    if entry is None or not ctx.issues_for("SK080"):
        return
    if isinstance(entry.value, list):
        for item in entry.node.items:
            if item.kind != "scalar" or not isinstance(item.value(), str):
                yield ctx.finding("SK080", item.content_span,
                                  f"This entry is {type_name(item.value())}: write the rule as "
                                  "text (`- Read`). "
                                  + for_runtimes("SK080", ctx.profile, "this entry"))
        return
    yield ctx.finding("SK080", ctx.entry_span(entry),
                      f"`allowed-tools` is {type_name(entry.value)}: write a list of rules "
                      "(`- Read`) or one string. "
                      + for_runtimes("SK080", ctx.profile, "`allowed-tools`, so nothing is "
                                                           "pre-approved"))


@check("SK081")
def allowed_tools_form(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("allowed-tools")
    if entry is None:
        return
    node = entry.node
    span = ctx.entry_span(entry)
    rules = [e.text for e in entries(node, ctx.text)]
    if (node.kind == "scalar" and isinstance(entry.value, str)
            and ctx.profile.needs_comma_separated_tools):
        by_comma = split_outside_parens(entry.value, ",")
        spaced = [entry.value[b:e] for b, e in by_comma
                  if split_outside_parens(entry.value[b:e], " \t") != [(0, e - b)]]
        if spaced:
            who = runtime_names(runtimes_that(lambda p: p.needs_comma_separated_tools))
            yield ctx.finding(
                "SK081", span,
                f"{who} reads `{shown(spaced[0])}` as one bogus entry: write a YAML list (or "
                f"separate the rules with commas). {who} splits a string on commas only.",
                fixes=[_to_list_fix(ctx, entry, rules)])
    elif node.kind == "sequence" and ctx.profile.needs_spec_tools_string and rules:
        joined = " ".join(rules)
        yield ctx.finding(
            "SK081", span,
            "`allowed-tools` is a list, which is not the open spec's form: write it as one "
            f"space-separated string (`{joined}`).",
            fixes=[Fix("Convert to a space-separated string",
                       [TextEdit(value_region(ctx.text, entry.key, entry.node), f" {joined}")])])
    elif (node.kind == "scalar" and ctx.profile.needs_spec_tools_string
          and isinstance(entry.value, str)
          and "," in entry.value):
        joined = " ".join(rules)
        yield ctx.finding("SK081", span,
                          "`allowed-tools` separates its rules with commas: use spaces instead, "
                          "as the open spec does.",
                          fixes=[Fix("Separate the rules with spaces",
                                     [TextEdit(node.content_span, joined)])])


def _to_list_fix(ctx: CheckContext, entry: FieldEntry, rules: list[str]) -> Fix:
    lines = ctx.document.lines
    key_line_start = lines.line_start(lines.line_of(entry.key.span.start))
    indent = " " * (entry.key.span.start - key_line_start + 2)
    new_text = "".join(f"\n{indent}- {rule}" for rule in rules)
    return Fix("Convert to a YAML list", [TextEdit(value_region(ctx.text, entry.key, entry.node), new_text)],
               preferred=True)


@check("SK082", "SK083", "SK084", "SK085", "SK086", "SK087")
def tool_rules(ctx: CheckContext) -> Iterator[Finding]:
    for item in capped(tool_entries(ctx), _LIMIT):
        rule = parse_rule(item.text)
        if not rule.well_formed:
            yield ctx.finding("SK082", item.span,
                              f"`{shown(item.text)}` is not `Tool` or `Tool(content)` "
                              f"({rule.problem}): rewrite it in one of those forms. "
                              + for_runtimes("SK082", ctx.profile, "this rule: it is read as a "
                                                                   "tool name and never matches"))
            continue
        yield from _tool_name(ctx, item, rule.tool)
        if rule.tool == "*" and rule.content is None \
                and not ctx.profile.wave_permissions:
            # a bare `*` names no tool: Claude Code 2.1.332 pre-approves nothing with it
            yield ctx.finding("SK085", item.span,
                              f"`{shown(item.text)}` names no tool, so "
                              f"{ctx.profile.runtime} pre-approves nothing with it: list the "
                              "tools and commands the skill needs, e.g. `Bash(git status)`.",
                              level=Severity.INFORMATION)
        elif rule.tool == "*" or (rule.tool in SHELL_TOOLS and (rule.content or "").strip() in
                                  ("", "*", "* *")):
            yield ctx.finding("SK085", item.span,
                              f"`{shown(item.text)}` pre-approves every shell command for "
                              "whoever installs the skill: list the commands it needs instead, "
                              "e.g. `Bash(git status)`.")
        content = rule.content or ""
        if rule.tool in SHELL_TOOLS and ":*" in content and not content.endswith(":*"):
            yield ctx.finding("SK084", item.span,
                              f"In `{shown(item.text)}`, `:*` is not at the end of the rule: "
                              "use `*` with a space (`Bash(git * push)`). "
                              + for_runtimes("SK084", ctx.profile, "this rule: the colon is a "
                                                                   "literal character there, so "
                                                                   "it never matches"))
        yield from _placeholders(ctx, item)
        parameter = re.match(r"([a-z_]+):", content)
        if (parameter and parameter.group(1) in PARAMETERS.get(rule.tool, ())
                and not content.endswith(":*")):
            yield ctx.finding("SK087", item.span,
                              f"`{shown(item.text)}` is a parameter rule, valid only in deny and "
                              "ask lists: write the pattern directly "
                              f"(`{rule.tool}({content[parameter.end():].strip()})`). "
                              + for_runtimes("SK087", ctx.profile, "this rule"))


def _tool_name(ctx: CheckContext, item: Entry, tool: str) -> Iterator[Finding]:
    if tool == "*" or is_known_tool(tool):
        return
    suggestion = closest(tool, known_tools())
    advice = (f"change it to `{suggestion}` if that is the tool meant" if suggestion
              else "fix the tool name or remove the rule")
    fixes = []
    if suggestion and item.exact:
        start = item.span.start
        fixes.append(Fix(f"Replace with `{suggestion}`",
                         [TextEdit(Span(start, start + len(tool)), suggestion)], preferred=True))
    yield ctx.finding("SK083", item.span,
                      f"`{shown(tool)}` is not a known tool: {advice}. "
                      + for_runtimes("SK083", ctx.profile, "this rule, which never matches"),
                      fixes=fixes)


def _placeholders(ctx: CheckContext, item: Entry) -> Iterator[Finding]:
    for match in PLACEHOLDER.finditer(item.text):
        name = match.group(1)
        known = variable(name)
        if known is not None and ctx.profile.expands(name) and known.in_rules:
            if not known.plugin_only or ctx.location.plugin is not None:
                continue
            reason = f"`${{{name}}}` has a value only in plugin skills, and this one is not in a plugin"
        elif known is not None and ctx.profile.expands(name):
            reason = f"`${{{name}}}` is not substituted inside allowed-tools rules"
        else:
            reason = f"`${{{name}}}` is not a variable this runtime knows"
        span = item.span
        if item.exact:
            span = Span(span.start + match.start(), span.start + match.end())
        what = ("this rule" if ctx.profile.kind != "runtime"  # its runtimes differ in how
                else "this rule, with a notice" if ctx.profile.drops_unresolved_tool_rules
                else "this rule: the placeholder stays literal and the rule never matches")
        # suggest only the skill-folder variables this target substitutes (under claude-code,
        # `${WAVE_SKILL_DIR}` is itself the unknown one)
        usable = [f"`${{{v}}}`" for v in ("WAVE_SKILL_DIR", "CLAUDE_SKILL_DIR")
                  if v != name and ctx.profile.expands(v)
                  and (entry := variable(v)) is not None and entry.in_rules]
        advice = (f"use {' or '.join(usable)} for files of the skill itself" if usable
                  else "write the rule without it")
        yield ctx.finding("SK086", span, f"{reason}: {advice}. "
                                         + for_runtimes("SK086", ctx.profile, what))
