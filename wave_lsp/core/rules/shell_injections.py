"""docs/design/rules.md *Shell injection*: SK120–SK126.

Injections are found exactly as the runtimes find them (`wave_lsp.core.parsing.injections`); decisions come
from the prediction of what the runtime does (`wave_lsp.core.permissions.prediction`, never wave-lsp's own
execution guard) through the dry-run plan of the preview, so a diagnostic, a hover and `wave-lsp
preview` never disagree. A prediction that cannot tell gives SK123 as a warning that says so
(docs/design/product.md *Two decisions*), never "aborts" stated as a fact.

Decisions: a command no rule matches, but which the runtime runs anyway as one of its built-in
read-only commands (`profile.auto_allows_read_only`, decided by the engine), is allowed, so it is
not SK123. SK125 explains a command that is *not* allowed; an allowed one (a tool-wide
`Bash` grant, a rule for every part) needs nothing. SK123's quick fix adds the narrowest rule —
the exact command as written, placeholders kept so that the rule is substituted like the command —
to `allowed-tools`, in the form the file uses (block list, flow list or string; a block list when
the field is missing). It is offered only
when no rule matched; a deny or ask rule in a settings file is the user's decision. SK121 counts an
injection as "in an example" when its `!` lies inside inline code or inside a fenced block that is
not itself the ```` ```! ```` injection.

Messages (docs/design/rules.md *How a message reads*): SK123's first sentence gives the advice its
decision allows (`_denied_advice`: the exact command's allow rule only when a rule can allow it),
then quotes the runtime's error as it reads; SK121 and SK122 lead with the advice, because the
pattern they quote may hold backticks and sentence stops of its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.checking.messages import agree, capitalized, for_runtimes, runtimes_that
from wave_lsp.core.facts.profiles import PROFILES
from wave_lsp.core.parsing.injections import Injection, find_injections
from wave_lsp.core.parsing.markdown import Fence, MarkdownBody, parse_body
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.helpers import capped, shown
from wave_lsp.core.rules.registry import check

if TYPE_CHECKING:
    from wave_lsp.core.invocation.preview import PlannedInjection
    from wave_lsp.core.permissions.rules import Decision

MAX_INJECTION_FINDINGS = 100


@check("SK120", "SK123", "SK124", "SK125")
def injection_decisions(ctx: CheckContext) -> Iterator[Finding]:
    items = find_injections(ctx.text, ctx.document.body_offset).items
    if not any(not item.empty for item in items):
        return  # nothing to decide: the permission engine (and its shell parser) is not loaded
    profile = ctx.profile
    if not profile.runs_injections or not profile.injections_permission_checked:
        for item in capped((i for i in items if not i.empty), MAX_INJECTION_FINDINGS):
            yield _unchecked(ctx, item)
        return
    from wave_lsp.core.invocation.preview import permission_message
    from wave_lsp.core.permissions.shell import split_command

    for planned in capped(ctx.injection_plan.injections, MAX_INJECTION_FINDINGS):
        decision = planned.decision
        if not (decision.unknown or decision.refused):  # SK123 says it runs, and more (sample 6)
            yield _announce(ctx, planned)
        # no allow rule to offer where a deny/ask rule decides or no rule can allow it
        fixes = ([_allow_fix(ctx, planned)] if not decision.allowed and decision.rule is None
                 and decision.rule_can_allow else [])
        if decision.unknown:
            yield ctx.finding("SK123", planned.injection.span,
                              f"`{shown(planned.shell_command)}` may abort the whole invocation: "
                              f"{_denied_advice(ctx, planned)}. wave-lsp "
                              f"{decision.reason}; if {ctx.profile.runtime} does not run it, "
                              f"nothing runs (runtime fact: {decision.fact}).",
                              level=Severity.WARNING,
                              fixes=[fix for fix in fixes if fix is not None])
        elif decision.refused:
            yield ctx.finding("SK123", planned.injection.span,
                              f"`{shown(planned.shell_command)}` is not allowed, so the whole "
                              "invocation aborts and nothing runs: "
                              f"{_denied_advice(ctx, planned)}. The error reads: "
                              f"{permission_message(planned).rstrip('.')}.{_note(decision)}",
                              fixes=[fix for fix in fixes if fix is not None])
        elif decision.rule is not None and decision.rule.personal:
            yield ctx.finding("SK124", planned.injection.span,
                              f"Add `{decision.rule.raw}` to `allowed-tools`: "
                              f"`{shown(planned.shell_command)}` is allowed only by that rule in "
                              f"your {decision.rule.where}, so for anyone without it the "
                              "invocation aborts.", fixes=_optional(_allow_fix(ctx, planned)))
        if not decision.refused:
            continue  # the runtime runs it (or it cannot be told): nothing to split
        split = split_command(planned.shell_command)
        # Wave's matcher reads an expansion as text: a rule can match it (runtime-facts §8.12)
        wave = profile.wave_permissions
        expansion = None if wave else next((p.expansion for p in split.parts if p.expansion),
                                           None)
        if split.compound or expansion:
            what = "several commands" if split.compound else f"a {expansion}"
            rules = ("" if wave else ", and prefix or wildcard rules never allow `$(…)`, "
                     "backticks or `$VAR`")
            yield ctx.finding("SK125", planned.injection.command_span,
                              f"`{shown(planned.injection.command)}` has {what}: split it into "
                              "separate injections or move the logic into a script. Every part "
                              f"must match an allow rule on its own{rules}.")


def _note(decision: Decision) -> str:
    """What the runtime's other source says where its specification and code disagree."""
    if decision.note is None:
        return ""
    return f" Note: {decision.note}."


def _denied_advice(ctx: CheckContext, planned: PlannedInjection) -> str:
    """What the author can do about an injection the engine does not allow (SK123): the rule that
    blocks it is the user's (change it, or let the model run the command, which may ask); a
    guard of wave-lsp names its own cause; with no rule, the exact command's allow rule, unless
    no rule can allow it."""
    decision = planned.decision
    rule = decision.rule
    if rule is not None and decision.behavior == "deny":
        return f"remove the injection, or change the deny rule `{rule.raw}` in {rule.where}"
    if rule is not None:
        return (f"ask the model to run the command instead, or change the ask rule `{rule.raw}` "
                f"in {rule.where}")
    if rule is None and decision.behavior == "deny":  # skillOverrides
        return "change the setting that turns the skill off"
    if ctx.profile.wave_permissions and len(decision.unmatched) > 1:
        listed = ", ".join(f"`{shown(part, 40)}`" for part in decision.unmatched[:3])
        return (f"add an allow rule to `allowed-tools` for each part {ctx.profile.runtime} "
                "matches alone "
                f"({listed}), or ask the model to run the command instead")
    if not decision.rule_can_allow:
        return "ask the model to run the command instead (no allow rule can allow it here)"
    allow = _narrowest(ctx, planned)
    return (f"add `{shown(allow, 60)}` to `allowed-tools`, or ask the model to run the command "
            "instead")


def _unchecked(ctx: CheckContext, injection: Injection) -> Finding:
    """SK120 under a runtime that does not run injections, or runs them unchecked
    (docs/design/runtime-facts.md §9.7): what the model gets instead."""
    profile = ctx.profile
    command = shown(injection.command)
    if not profile.runs_injections or (injection.kind == "block"
                                       and not profile.runs_injection_blocks):
        what = "this block" if injection.kind == "block" else "this pattern"
        return ctx.finding("SK120", injection.span,
                           f"{capitalized(profile.runtime)} does not run `{command}`: ask the "
                           f"model to run the command instead. The model reads {what} as "
                           "written, so a skill that relies on its output gets none.")
    return ctx.finding("SK120", injection.span,
                       f"Check that `{command}` is safe to run unchecked: {profile.runtime} runs "
                       f"it in a shell {profile.injections_run_when}, with no permission check. "
                       "Its output replaces the pattern and a failure does not stop the "
                       "invocation.")


def _optional(fix: Fix | None) -> list[Fix]:
    return [fix] if fix is not None else []


def _announce(ctx: CheckContext, planned: PlannedInjection) -> Finding:
    decision = planned.decision
    verdict = (f"allowed by `{decision.rule.raw}` from {decision.rule.where}"
               if decision.allowed and decision.rule is not None else
               decision.reason if decision.read_only else
               "allowed" if decision.allowed else decision.reason if decision.unknown else
               f"not allowed ({decision.reason.rstrip('.')})")
    return ctx.finding("SK120", planned.injection.span,
                       f"`{shown(planned.shell_command)}` runs in a shell each time the skill is "
                       "invoked, before the model sees anything: check that it is meant to run "
                       f"on every invocation. Its output replaces the pattern. Permission: "
                       f"{verdict}.")


def _narrowest(ctx: CheckContext, planned: PlannedInjection) -> str:
    """The allow rule for the exact command; under Wave's matcher, which matches each part alone,
    for the one part of a compound command that no rule allows (runtime-facts §8.12)."""
    from wave_lsp.core.invocation.preview import shell_tool
    from wave_lsp.core.permissions.rules import narrowest_rule

    tool = shell_tool(ctx.document, ctx.profile)
    wave = ctx.profile.wave_permissions
    unmatched = planned.decision.unmatched
    if wave and planned.decision.compound and len(unmatched) == 1:
        return narrowest_rule(_as_written(unmatched[0], planned), tool, literal=True)
    return narrowest_rule(planned.injection.command, tool, wave)


def _as_written(part: str, planned: PlannedInjection) -> str:
    """The part of the command as the skill writes it (`${WAVE_SKILL_DIR}` kept, as
    `allowed-tools` substitutes it too) for `part` of the command the shell gets: a rule never
    names this machine's paths."""
    from wave_lsp.core.permissions.wave_prediction import part_pattern
    from wave_lsp.core.permissions.wave_shell import split_command

    written = [part_pattern(p) for p in split_command(planned.injection.command)]
    substituted = [part_pattern(p) for p in split_command(planned.shell_command)]
    if len(written) == len(substituted) and part in substituted:
        return written[substituted.index(part)]
    return part


def _allow_fix(ctx: CheckContext, planned: PlannedInjection) -> Fix | None:
    rule = _narrowest(ctx, planned)
    edit = add_allowed_tool(ctx, rule)
    if edit is None:
        return None
    return Fix(f"Allow `{shown(rule, 60)}` in `allowed-tools`", [edit], preferred=True)


@lru_cache(maxsize=16)
def _newline_of(text: str) -> str:
    """The file's line break: one scan per text (a long skill asks once per injection)."""
    return "\r\n" if "\r\n" in text else "\n"


def add_allowed_tool(ctx: CheckContext, rule: str) -> TextEdit | None:
    """An edit that adds `rule` to `allowed-tools`, keeping the form the file uses."""
    document = ctx.document
    source = document.source
    if source.opener is None or source.closer is None or document.mapping is None:
        return None
    newline = _newline_of(document.text)
    entry = ctx.field("allowed-tools")
    if entry is None:
        at = document.lines.line_start(source.closer.line)
        return TextEdit(Span(at, at), f"allowed-tools:{newline}  - {_yaml_item(rule)}{newline}")
    node = entry.node
    if node.kind == "sequence" and not node.flow and node.items:
        last = node.items[-1]
        line = document.lines.line_of(last.span.start)
        line_text = document.lines.line_text(line)
        indent = line_text[: len(line_text) - len(line_text.lstrip())]
        end = document.lines.line_end(document.lines.line_of(last.span.end))
        return TextEdit(Span(end, end), f"{newline}{indent}- {_yaml_item(rule)}")
    if node.kind == "sequence" and node.flow:
        close = document.text.rfind("]", node.span.start, node.span.end)
        if close < 0:
            return None
        separator = ", " if node.items else ""
        return TextEdit(Span(close, close), f"{separator}{_yaml_item(rule)}")
    if node.kind == "scalar" and isinstance(entry.value, str):
        separator = ", " if entry.value.strip() else ""
        if node.style is None:
            if re.search(r": |\s#", rule):
                return None
            return TextEdit(Span(node.content_span.end, node.content_span.end), separator + rule)
        if node.style in ("'", '"'):
            quote_at = node.content_span.end - 1
            inner = rule.replace("'", "''") if node.style == "'" else json.dumps(rule)[1:-1]
            return TextEdit(Span(quote_at, quote_at), separator + inner)
    return None


def _yaml_item(rule: str) -> str:
    """`rule` as a YAML scalar: plain when that is safe, else double-quoted."""
    if re.search(r": |\s#|^[!&*%@`'\"|>{\[-]", rule) or rule != rule.strip():
        return json.dumps(rule, ensure_ascii=False)
    return rule


#: a heading that presents what follows as examples
_EXAMPLES = re.compile(r"\bexamples?\b|\bsample", re.I)


def _heading_before(structure: MarkdownBody, offset: int) -> str | None:
    """The text of the last heading before `offset`, if any."""
    before = [h for h in structure.headings if h.span.start < offset]
    return before[-1].text if before else None


#: words that present what follows as state injected when the skill loads (issue 37): "## Current
#: state (injected)", "Live context:", "The output below is injected when the skill runs"
_INJECTED = re.compile(r"\binjected\b|\b(?:current|live|dynamic)\s+(?:state|context|status)\b|"
                       r"\bpre-?(?:computed|loaded|fetched)\b|\bauto-?(?:loaded|injected)\b", re.I)
#: fences whose content is a document the skill shows (a command file with its own `## Context`)
_SHOWN_DOCUMENTS = frozenset({"markdown", "md", "mdx"})


def _guide(ctx: CheckContext) -> bool:
    """A guide to writing skills or commands: its injections in blocks are examples it teaches."""
    from wave_lsp.core.rules.helpers import about_writing_skills

    return about_writing_skills(ctx.value("name"), ctx.value("description"))


def _meant_to_run(text: str, structure: MarkdownBody, fence: Fence) -> bool:
    """An injection fenced only so that its output renders as a block, where the skill's own
    words say the state below is injected (issue 37, as SK116 reads a placeholder's intent): the
    last heading of the skill before the block, or the prose line right before it. A block that
    shows a document (a command file with its own `## Context`, or one that starts with a
    frontmatter) is an example whatever its surroundings say, and so is one under a heading about
    examples or in a guide to writing skills (`_guide`)."""
    if fence.info.split(" ")[0].lower() in _SHOWN_DOCUMENTS \
            or text[fence.content.start:fence.content.end].lstrip().startswith("---"):
        return False  # a document shown (a command or skill file, its frontmatter first)
    heading = _heading_before(structure, fence.span.start)
    if heading is not None and _EXAMPLES.search(heading):
        return False
    before = text[:fence.span.start].rstrip().rsplit("\n", 1)[-1]
    return bool((heading is not None and _INJECTED.search(heading)) or _INJECTED.search(before))


def _runs_in_code_spans() -> str:
    """The runtimes that run an inline injection inside a code span, with the verb."""
    names = runtimes_that(lambda p: p.runs_injections and not p.skips_injections_in_code_spans)
    return agree(names, "runs", "run") if names else "other runtimes run"


@check("SK121", "SK122", "SK126")
def injection_shape(ctx: CheckContext) -> Iterator[Finding]:
    document = ctx.document
    found = find_injections(document.text, document.body_offset)
    structure = parse_body(document.text, document.body_offset)
    run = None
    if ctx.profile.skips_injections_in_code_spans:
        run = {item.span for item in find_injections(document.text, document.body_offset,
                                                     skip_code_spans=True).items}
    for injection in capped(found.items, MAX_INJECTION_FINDINGS):
        fence = structure.fence_at(injection.span.start)
        in_fence = fence is not None and fence.span.start != injection.span.start and (
            fence.content.start <= injection.span.start)
        code = structure.code_at(injection.span.start)
        if run is not None and injection.span not in run:
            yield ctx.finding("SK121", injection.span,
                              f"`{shown(injection.pattern)}` is inside a code span: break the "
                              "pattern, e.g. `! `cmd`` with a space. "
                              f"{capitalized(ctx.profile.runtime)} leaves it as text and does not "
                              f"run it, but {_runs_in_code_spans()} it on every invocation.")
        elif in_fence or (code is not None and injection.kind == "inline"):
            if in_fence and fence is not None and not _guide(ctx) \
                    and _meant_to_run(document.text, structure, fence):
                continue  # fenced so its output renders as a block, under words saying so
            where = "inside a code block" if in_fence else "inside inline code"
            heading = _heading_before(structure, injection.span.start)
            if heading is not None and _EXAMPLES.search(heading):
                where += f" under the heading \u201c{shown(heading)}\u201d"
            checked = ("(and is permission-checked) on every invocation"
                       if ctx.profile.injections_permission_checked
                       else f"{ctx.profile.injections_run_when}, with no permission check")
            yield ctx.finding("SK121", injection.span,
                              "Break this pattern, e.g. `! `cmd`` with a space, if it is meant "
                              f"as an example: `{shown(injection.pattern)}` is {where}, but "
                              f"{_matchers(ctx)} in code too. It runs "
                              f"{checked}, and its output replaces the text.")
        if injection.empty:
            yield ctx.finding("SK126", injection.span,
                              "This injection has no command: write the command or remove the "
                              "pattern. " + for_runtimes("SK126", ctx.profile,
                                                         "it, and the pattern stays in the text"))
    for span in capped(found.unclosed, MAX_INJECTION_FINDINGS):
        yield ctx.finding("SK126", span,
                          "This ```` ```! ```` block has no closing ```` ``` ````: close the "
                          "fence (a fence added later would close it and run what lies between). "
                          + for_runtimes("SK126", ctx.profile, "it as a command: the text reaches "
                                                               "the model as written"))
    for span in capped(found.after_word, MAX_INJECTION_FINDINGS):
        pattern = shown(document.text[span.start:span.end])
        profile = ctx.profile
        if profile.runs_injections and not profile.injection_needs_lookbehind:
            yield ctx.finding("SK122", span,
                              "Break this pattern (`! `x`` with a space) or move it into a code "
                              f"block with another fence: `{pattern}` follows a word character, "
                              f"but {profile.runtime} has no white-space rule before `!`. It runs "
                              f"this as a command {profile.injections_run_when}, with no "
                              "permission check.")
        else:
            yield ctx.finding("SK122", span,
                              "Break this pattern (`! `x`` with a space) if it must never run: "
                              f"`{pattern}` follows a word character, so {_lookbehind_runtimes()} "
                              "do not run it; loaders without the line-start rule would "
                              f"({_no_lookbehind_runtimes()} among them).")


def _matchers(ctx: CheckContext) -> str:
    """Who matches injections inside code (SK121): the target's runtime, or for an aggregate the
    runtimes that run injections at all (not every member does)."""
    if ctx.profile.kind == "aggregate":
        return "the runtimes that run injections match them"
    return f"{ctx.profile.runtime} matches injections"


def _lookbehind_runtimes() -> str:
    """The runtimes that run an injection only after white space (SK122)."""
    from wave_lsp.core.checking.messages import runtime_names

    return runtime_names(p.runtime for p in PROFILES.values() if p.kind == "runtime"
                         and p.runs_injections and p.injection_needs_lookbehind)


def _no_lookbehind_runtimes() -> str:
    """The runtimes that run an injection after any character (SK122)."""
    from wave_lsp.core.checking.messages import runtime_names

    return runtime_names(p.runtime for p in PROFILES.values() if p.kind == "runtime"
                         and p.runs_injections and not p.injection_needs_lookbehind)
