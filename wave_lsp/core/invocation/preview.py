"""The invocation preview: what the model receives and which commands would run
(docs/design/product.md *Preview*, steps 1–5; docs/design/runtime-facts.md §3.6 and §3.7 for
Claude Code, §8.2, §8.6 and §8.7 for
Wave).

1. `Base directory for this skill: <dir>`, a blank line, the body.
2. Arguments (`wave_lsp.core.invocation.arguments`), never inside injected commands under `wave`: there the
   command sees `${WAVE_ARGUMENTS_FILE}`, a file holding the raw arguments. With no placeholder
   the arguments are appended (`wave`: after a space; `claude-code`: `ARGUMENTS: …`).
3. `${…}` variables, in the body and in every `allowed-tools` rule; a rule left with a placeholder
   is dropped, with a warning.
4. Injections in document order, each with two decisions (docs/design/product.md *Two
   decisions*). The prediction (`prediction.py`) says what the runtime does: the first command it
   refuses aborts the invocation with exactly
   `Shell command permission check failed for pattern "<pattern>": <reason>` and no text; a
   command it cannot tell about is shown with why. A runtime that runs its commands with no
   permission check (OpenCode, whose pattern also has no look-behind: `profile_injections`) runs
   every one. Dry-run runs nothing. Execute mode runs a command only when the prediction says the
   runtime runs it and wave-lsp's execution guard (`guard.py`) allows it, every guard decision
   made before anything runs and made again right before each command runs
   (`wave_lsp.core.execution.execution` runs it); a command the guard refuses is reported as
   "<runtime> runs this; wave-lsp did not: <why>", and nothing runs.
5. A structured result (`Invocation.to_json`), the same for the CLI and the language server, and
   two texts for people: `preview_markdown` (the read-only document an editor shows) and
   `preview_summary` (a few lines for a message).

Argument text is never treated as a command and never reaches a shell: injections are found in the
document before substitution, and under `claude-code` and `opencode` (whose runtimes would splice
the arguments into the command) a command changed by argument substitution is shown but never executed.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from wave_lsp.core.execution.execution import (
    ArgumentsFile,
    SandboxUnavailable,
    read_only_environment,
    run_command,
    shown_output,
)
from wave_lsp.core.execution.sandbox import ensure_available
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.reads import read_as
from wave_lsp.core.facts.toolrules import entries
from wave_lsp.core.invocation import arguments as args_module
from wave_lsp.core.invocation.listing import command_name, invocation_flags
from wave_lsp.core.invocation.skill_location import SkillLocation
from wave_lsp.core.invocation.substitute import (
    PREVIEW_SESSION_ID,
    VariableValues,
    effort_level,
    substitute,
)
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.injections import JS_SPACE_TEXT, Injection, injections_as_read
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.permissions.guard import Guard, Verdict
from wave_lsp.core.permissions.prediction import (
    SETTINGS_FACT,
    UNCHECKED_FACT,
    Predictor,
    RuntimeInputs,
)
from wave_lsp.core.permissions.rules import Decision, make_rule
from wave_lsp.core.permissions.settings import (
    RuleSet,
    load_settings,
    settings_files,
    start_folder,
    user_settings_files,
)
from wave_lsp.core.permissions.shell import split_command


class Settings(Protocol):
    """What an invocation reads of a run's settings (`wave_lsp.core.checking.config.Settings`
    has it; named here so that this layer does not import the checking one): the target, the
    home folder, whether personal files are read, and the settings files configured."""

    @property
    def profile(self) -> RuntimeProfile: ...

    @property
    def home(self) -> Path | None: ...

    @property
    def personal(self) -> bool: ...

    @property
    def settings_files(self) -> tuple[str, ...]: ...


#: what JavaScript's `String.prototype.trim` removes (white space and line terminators)
JS_TRIM = JS_SPACE_TEXT

MODES = ("dry-run", "execute")
#: where `${WAVE_ARGUMENTS_FILE}` points in a dry-run (no file is created)
DRY_RUN_ARGUMENTS = Path(tempfile.gettempdir()) / "wave-lsp-invocation" / "arguments"


@dataclass(frozen=True, slots=True)
class AllowedTool:
    original: str
    resolved: str | None
    dropped: bool
    reason: str | None
    span: Span

    def to_json(self) -> dict[str, Any]:
        return {"original": self.original, "resolved": self.resolved, "dropped": self.dropped,
                "reason": self.reason}


def resolve_allowed_tools(document: SkillDocument, values: VariableValues) -> list[AllowedTool]:
    """Each `allowed-tools` rule after placeholder substitution, or why it is dropped."""
    entry = document.fields.get("allowed-tools")
    reading = read_as(document, values.profile)
    if entry is None or (not reading.same_fields
                         and reading.values.value("allowed-tools") is None):
        return []  # (the runtime did not load the field: a frontmatter it could not read)
    separators = values.profile.allowed_tools_separators
    result = []
    for item in entries(entry.node, document.text, separators):
        rule = item.text.strip()
        if not rule:
            continue
        substituted = substitute(rule, values)
        if substituted.unresolved:
            reasons = "; ".join(values.why_unresolved(name) for name in substituted.unresolved)
            result.append(AllowedTool(rule, None, True, f"not registered: {reasons}", item.span))
        else:
            result.append(AllowedTool(rule, substituted.text, False, None, item.span))
    return result


def permission_rules(document: SkillDocument, location: SkillLocation, settings: Settings,
                     values: VariableValues) -> tuple[RuleSet, RuleSet, list[AllowedTool]]:
    """The rules of this skill: those the runtime reads (its settings files, then
    `allowed-tools`: what the prediction uses), and wave-lsp's own restrictions, which only the
    guard applies.

    Trust model (docs/security.md): the user's own deny and ask rules always restrict what
    wave-lsp executes, whatever repository configuration says: from the settings folder of every
    runtime (a repository that switches the target cannot drop them) and even when personal
    skills and settings are off (`--no-personal`, `personal = false`). They are not the
    runtime's, so they never change the prediction."""
    rules = RuleSet()
    home = settings.home or Path.home()
    files = settings_files(settings.profile, location.project_root, home, settings.personal,
                           settings.settings_files)
    for label, path, personal in files:
        rules.extend(load_settings(label, path, personal))
    consulted = {path for _, path, _ in files}
    restrictions = RuleSet()
    for path in user_settings_files(home):
        if path in consulted:
            continue
        loaded = load_settings("user settings", path, True)
        restrictions.rules += [r for r in loaded.rules if r.behavior != "allow"]
        restrictions.problems += loaded.problems
    allowed = resolve_allowed_tools(document, values)
    for item in allowed:
        if item.resolved is not None:
            rule = make_rule(item.resolved, "allow", "allowed-tools", location.path)
            if rule is not None:
                rules.rules.append(rule)
    return rules, restrictions, allowed


def shell_tool(document: SkillDocument, profile: RuntimeProfile) -> str:
    """The permission tool of the shell that runs the injected commands."""
    shell = read_as(document, profile).values.value("shell")
    powershell = profile.honours_shell_field and shell == "powershell"
    return "PowerShell" if powershell else "Bash"


def body_injections(document: SkillDocument, profile: RuntimeProfile) -> list[Injection]:
    """The injections of the body `profile`'s runtime sends (`read_as`), empty ones included: an
    inline one in a code span is text under a runtime that skips them."""
    return profile_injections(document.text, read_as(document, profile).body_offset, profile)


def profile_injections(text: str, start: int, profile: RuntimeProfile) -> list[Injection]:
    """The injections of `text[start:]` as `profile`'s runtime finds them: Claude Code's and
    Wave's patterns, or OpenCode's, which has no look-behind (`` format!`x` `` runs there)."""
    return list(injections_as_read(text, start,
                                   needs_lookbehind=profile.injection_needs_lookbehind,
                                   skip_code_spans=profile.skips_injections_in_code_spans))


@dataclass(slots=True)
class PlannedInjection:
    injection: Injection
    shell_command: str  #: after substitution: what the shell would run
    decision: Decision
    from_arguments: bool = False  #: argument text was spliced in (claude-code)
    #: the pattern as the runtime sees it (after substitution): what the abort message quotes
    shown_pattern: str = ""
    #: the runtime runs it without asking any permission rule (OpenCode)
    unchecked_by_runtime: bool = False
    #: why wave-lsp did not run it in execute mode although the runtime would (the guard's)
    not_run_because: str | None = None
    executed: bool = False
    exit_code: int | None = None
    output_preview: str | None = None
    output_file: Path | None = None

    def to_json(self, document: SkillDocument) -> dict[str, Any]:
        return {"pattern": self.injection.pattern, "command": self.shell_command,
                "range": document.lines.range(self.injection.span).to_json(),
                **self.decision.to_json(), "runtimeChecks": not self.unchecked_by_runtime,
                "notRunBecause": self.not_run_because, "executed": self.executed, "exitCode": self.exit_code,
                "outputPreview": self.output_preview,
                "outputFile": str(self.output_file) if self.output_file else None}


def permission_message(planned: PlannedInjection) -> str:
    pattern = planned.shown_pattern or planned.injection.pattern
    return (f'Shell command permission check failed for pattern "{pattern}": '
            f"{planned.decision.reason}")


@dataclass(slots=True)
class Invocation:
    document: SkillDocument
    location: SkillLocation
    profile: RuntimeProfile
    mode: str
    arguments: str
    ok: bool = True
    text: str | None = None
    error: str | None = None
    allowed: list[AllowedTool] = field(default_factory=list)
    injections: list[PlannedInjection] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: why the runtime does not run the skill under its name (`availability.Unavailable.kind`:
    #: not-found, not-loaded, shadowed, ambiguous, no-command); None when it does
    unavailable: str | None = None

    def to_json(self) -> dict[str, Any]:
        document = self.document
        plugin = self.location.plugin
        return {
            "version": 1, "target": self.profile.name, "mode": self.mode, "arguments": self.arguments,
            "ok": self.ok, "text": self.text, "error": self.error, "unavailable": self.unavailable,
            "skill": {"name": command_name(document, self.location, self.profile),
                      "dir": str(self.location.skill_dir) if self.location.skill_dir else None,
                      "source": str(self.location.path) if self.location.path else None,
                      "pluginRoot": str(plugin.root) if plugin else None},
            "context": _text_value(document.value("context")),
            "agent": _text_value(document.value("agent")),
            "model": _text_value(document.value("model")),
            "allowedTools": [item.to_json() for item in self.allowed],
            "injections": [item.to_json(document) for item in self.injections],
            "warnings": self.warnings,
        }


def _text_value(value: object) -> str | None:
    return value if isinstance(value, str) else None


# -- planning (pure, shared with the diagnostics) ---------------------------------------------------
@dataclass(slots=True)
class Plan:
    values: VariableValues
    allowed: list[AllowedTool]
    rules: RuleSet  #: the rules the runtime reads
    injections: list[PlannedInjection]
    #: what decided the predictions (None when there was nothing to decide)
    predictor: Predictor | None = None
    #: wave-lsp's own restrictions (the user's deny and ask rules of the other runtimes'
    #: settings): the guard's only
    restrictions: RuleSet = field(default_factory=RuleSet)
    #: `disableSkillShellExecution` is set: the injections at these spans are replaced by the
    #: profile's `disabled_injection_text`, none is decided or run
    disabled: frozenset[Span] = frozenset()


def plan_injections(document: SkillDocument, location: SkillLocation, settings: Settings,
                    raw_arguments: str | None = None, session_id: str = PREVIEW_SESSION_ID,
                    arguments_file: Path = DRY_RUN_ARGUMENTS) -> Plan:
    """Every injection with the command the shell would get and the prediction of what the
    runtime does with it."""
    profile = settings.profile
    values = skill_values(document, location, settings, session_id, arguments_file)
    injections = [i for i in body_injections(document, profile) if not i.empty
                  and profile.runs_injections
                  and (i.kind == "inline" or profile.runs_injection_blocks)]
    if not injections:  # nothing to decide: the settings files need not be read
        return Plan(values, resolve_allowed_tools(document, values), RuleSet(), [])
    rules, restrictions, allowed = permission_rules(document, location, settings, values)
    if rules.disables_shell and profile.disabled_injection_text is not None:
        return Plan(values, allowed, rules, [], restrictions=restrictions,
                    disabled=frozenset(injection.span for injection in injections))
    tool = shell_tool(document, profile)
    predictor = Predictor(rules.rules, tool, profile, runtime_inputs(location, rules, profile))
    off = skill_turned_off(document, location, profile, rules)
    names = args_module.declared_names(read_as(document, profile).values.value("arguments"),
                                     profile)
    words = args_module.split_arguments(raw_arguments or "", profile)
    planned = []
    decided: dict[str, Decision] = {}
    for injection in injections:
        command, pattern = injection.command, injection.pattern
        spliced = False
        if profile.splices_arguments_into_commands and raw_arguments is not None:
            replaced = args_module.substitute_arguments(command, raw_arguments, words, names,
                                                        profile)
            spliced = replaced != command
            command = replaced
            pattern = args_module.substitute_arguments(pattern, raw_arguments, words, names,
                                                       profile)
        command = substitute(command, values, in_shell=True).text
        pattern = substitute(pattern, values, in_shell=True).text
        decision = off or decided.get(command)  # a long skill repeats some commands
        if decision is None:
            decision = decided[command] = predict(predictor, command)
        planned.append(PlannedInjection(injection, command, decision, spliced, pattern,
                                        not profile.injections_permission_checked))
    if profile.splices_arguments_into_commands and raw_arguments:
        planned += _argument_injections(document, raw_arguments, words, names, values,
                                        predictor, {p.shown_pattern for p in planned})
    return Plan(values, allowed, rules, planned, predictor, restrictions)


def legacy(location: SkillLocation, profile: RuntimeProfile) -> bool:
    """`location` is a legacy command file of a runtime that offers those as commands."""
    return location.legacy_command is not None and profile.lists_legacy_commands


def skill_values(document: SkillDocument, location: SkillLocation, settings: Settings,
                 session_id: str = PREVIEW_SESSION_ID,
                 arguments_file: Path | None = None) -> VariableValues:
    """The `${…}` values of this skill, `${CLAUDE_EFFORT}` from the settings files the runtime
    reads (`substitute.effort_level`; read only when the skill has one)."""
    profile = settings.profile
    effort = None
    if profile.default_effort is not None and "${CLAUDE_EFFORT}" in document.text:
        files = settings_files(profile, location.project_root, settings.home or Path.home(),
                               settings.personal, settings.settings_files)
        found = effort_level(read_as(document, profile).values, profile, files)
        effort = found.level if found else None
    values = VariableValues.for_location(location, profile, session_id, arguments_file, effort)
    # a legacy command has no skill folder: `${CLAUDE_SKILL_DIR}` stays as written
    return replace(values, skill_dir=None) if legacy(location, profile) else values


def predict(predictor: Predictor, command: str) -> Decision:
    """The prediction for one command: the predictor's, or "runs" under a runtime that runs its
    commands with no permission check (OpenCode)."""
    profile = predictor.profile
    if profile is not None and not profile.injections_permission_checked:
        return Decision("allow", f"{profile.runtime} runs it {profile.injections_run_when}, with "
                                 "no permission check", fact=UNCHECKED_FACT)
    return predictor.check(command)


def runtime_inputs(location: SkillLocation, rules: RuleSet,
                   profile: RuntimeProfile | None = None) -> RuntimeInputs:
    """What the runtime reads besides its rules: the folder it starts in and
    `additionalDirectories` (its working directories), the permission mode, hooks, and the
    settings files it cannot read."""
    start = start_folder(location.project_root) or location.skill_dir
    folders = tuple(dict.fromkeys([*([start] if start else []), *rules.directories]))
    mode = rules.mode_for(profile) if profile is not None else rules.mode
    return RuntimeInputs(folders, mode[0] if mode else None, mode[1] if mode else None,
                         tuple(rules.hooks), tuple(rules.problems), tuple(rules.unparsable))


def skill_turned_off(document: SkillDocument, location: SkillLocation, profile: RuntimeProfile,
                     rules: RuleSet) -> Decision | None:
    """`skillOverrides` setting this skill to "off": the runtime offers it neither as a command
    nor to the model, so none of its commands runs."""
    name = command_name(document, location, profile)
    found = rules.overrides.get(name) or rules.overrides.get(location.dir_name or "")
    if found is None or found[0] != "off":
        return None
    return Decision("deny", f"{profile.runtime} does not run it: `skillOverrides` in {found[1]} "
                            f"sets `{name}` to \"off\", so neither /{name} nor the Skill tool "
                            "reaches the skill", fact=SETTINGS_FACT)


def _argument_injections(document: SkillDocument, raw: str, words: list[str], names: list[str],
                         values: VariableValues, predictor: Predictor,
                         known: set[str]) -> list[PlannedInjection]:
    """Claude Code substitutes the arguments into the whole body and only then scans it for
    injections, so argument text such as `` !`cmd` `` becomes a command the runtime would check and
    run. Each one is decided like the others (so the abort message is the runtime's) and marked as
    coming from the arguments: wave-lsp never runs it."""
    start = read_as(document, values.profile).body_offset
    body = document.text[start:]
    text = substitute(args_module.substitute_arguments(body, raw, words, names, values.profile),
                      values, in_shell=True).text
    found = []
    at = Span(start, start)
    profile = values.profile
    for item in profile_injections(text, 0, profile):
        if item.empty or item.pattern in known or (item.kind == "block"
                                                   and not profile.runs_injection_blocks):
            continue
        injection = Injection(item.kind, item.pattern, item.command, at, at)
        decision = predict(predictor, item.command)
        found.append(PlannedInjection(injection, item.command, decision, True, item.pattern,
                                      not profile.injections_permission_checked))
    return found


# -- the invocation -----------------------------------------------------------------------------
def invoke(document: SkillDocument, location: SkillLocation, settings: Settings,
           raw_arguments: str = "", mode: str = "dry-run",
           session_id: str | None = None) -> Invocation:
    """Render the invocation; in execute mode run the allowed commands. Callers go through
    `wave_lsp.core.checking.availability.invoke_loaded`, which first asks whether the runtime
    runs the skill under its name."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    session = session_id or PREVIEW_SESSION_ID
    result = Invocation(document, location, settings.profile, mode, raw_arguments)
    refusal = not_user_invocable(document, location, settings.profile)
    if refusal is not None:
        result.ok, result.error = False, refusal
        return result
    arguments_file = ArgumentsFile(raw_arguments) if mode == "execute" else None
    try:
        plan = plan_injections(document, location, settings, raw_arguments, session,
                               arguments_file.path if arguments_file else DRY_RUN_ARGUMENTS)
        result.allowed, result.injections = plan.allowed, plan.injections
        result.warnings += [f"`{item.original}` {item.reason}" for item in plan.allowed
                            if item.dropped]
        result.warnings += plan.rules.problems + plan.restrictions.problems
        if plan.disabled:
            result.warnings.append(
                f"`disableSkillShellExecution` is set in {plan.rules.disables_shell[0]}: "
                f"{settings.profile.runtime} runs none of the skill's commands and shows "
                f"`{settings.profile.disabled_injection_text}` in their place")
        refused = next((p for p in plan.injections if p.decision.refused), None)
        if refused is not None:
            result.ok, result.error = False, permission_message(refused)
            return result
        result.warnings += [f"`{p.shell_command}`: {p.decision.reason} (if it does not, the "
                            "whole invocation aborts)" for p in plan.injections
                            if p.decision.unknown]
        if mode == "execute" and not _execute(result, plan):
            return result
        result.text = _render(result, plan, raw_arguments)
        return result
    finally:
        if arguments_file is not None:
            arguments_file.close()


def not_run_message(planned: PlannedInjection, profile: RuntimeProfile) -> str:
    """Why `preview --execute` ran nothing: the runtime runs this command (or may), wave-lsp
    did not."""
    pattern = planned.shown_pattern or planned.injection.pattern
    return (f'Shell command not run for pattern "{pattern}": {planned.not_run_because}. The '
            f"dry-run shows what {profile.runtime} does.")


def not_user_invocable(document: SkillDocument, location: SkillLocation,
                       profile: RuntimeProfile) -> str | None:
    """The runtime's refusal of `/name` for a skill with `user-invocable: false` (None when it
    renders it: the skill is user-invocable, or the runtime only hides it from the menu)."""
    message = profile.not_user_invocable_message
    if message is None or invocation_flags(read_as(document, profile).values, profile)[1]:
        return None
    return message.format(name=command_name(document, location, profile))


def placed_output(output: str, profile: RuntimeProfile, tool: str) -> str:
    """What replaces an injection's pattern in the rendered text: the command's output as the
    runtime's shell tool returns it (`trims_command_output`: blank leading lines and trailing
    white space removed, and empty output named by `empty_command_output`)."""
    if profile.trims_command_output:
        output = re.sub(r"^(?:[^\S\n]*\n)+", "", output).rstrip()
    if not output.strip() and profile.empty_command_output is not None:
        return profile.empty_command_output.format(tool=tool)
    return output


def _execute(result: Invocation, plan: Plan) -> bool:
    """Run the commands the prediction says the runtime runs and the guard allows: every guard
    decision before anything runs, and again right before each command runs (an earlier command
    may have changed the disk: made a link out of the project, a FIFO)."""
    cwd = result.location.project_root or result.location.skill_dir or Path.cwd()
    profile = result.profile
    tool = shell_tool(result.document, profile)
    guard = Guard(plan.rules.rules + plan.restrictions.rules, tool, cwd, profile,
                  plan.rules.problems + plan.restrictions.problems,
                  lambda name: plan.values.value(name, in_shell=True))
    for planned in plan.injections:
        if _may_run(planned, guard, profile, result) is None:
            return False
    if plan.injections:  # no sandbox: nothing runs, and the error says what to install
        try:
            ensure_available()
        except SandboxUnavailable as error:
            result.ok, result.error = False, str(error)
            return False
    visible = _visible_paths(result, plan)
    for planned in plan.injections:
        verdict = _may_run(planned, guard, profile, result, again=True)
        if verdict is None or not _run(planned, result, cwd, tool, verdict.read_only, visible):
            return False
    return True


#: what a command prints when it writes in the sandbox's read-only project (errno EROFS)
READ_ONLY_FAILURE = "Read-only file system"


def _visible_paths(result: Invocation, plan: Plan) -> list[Path]:
    """What a command sees besides the project (its working folder), read-only: the skill's
    folder, the plugin root and the arguments file — the paths its `${…}` variables name."""
    location = result.location
    paths = [location.skill_dir, location.plugin.root if location.plugin else None,
             plan.values.arguments_file if plan.values.arguments_file != DRY_RUN_ARGUMENTS
             else None]
    return [path for path in paths if path is not None]


def _may_run(planned: PlannedInjection, guard: Guard, profile: RuntimeProfile,
             result: Invocation, again: bool = False) -> Verdict | None:
    """The guard's verdict when the command may run; None (and the invocation ended, saying
    why) when the runtime is not predicted to run it or the guard refuses it."""
    decision = planned.decision
    runtime = profile.runtime
    if decision.unknown:
        planned.not_run_because = (f"wave-lsp runs a command only when {runtime} is predicted "
                                   f"to run it, and it {decision.reason[0].lower()}"
                                   f"{decision.reason[1:]}")
    else:
        verdict = guard.check(planned.shell_command, planned.injection.command,
                              spliced=planned.from_arguments)
        if verdict.refusal is None:
            return verdict
        now = "now that earlier commands have run, " if again else ""
        planned.not_run_because = f"{runtime} runs this; wave-lsp did not: {now}{verdict.refusal}"
    result.ok, result.error = False, not_run_message(planned, profile)
    return None


def _run(planned: PlannedInjection, result: Invocation, cwd: Path, tool: str,
         read_only: bool, visible: list[Path]) -> bool:
    """Run one command in the sandbox and place its output (or end the invocation as the
    runtime does on a failure)."""
    profile = result.profile
    timeout = profile.command_timeout_seconds
    merged = profile.merges_command_stderr
    try:
        outcome = run_command(planned.shell_command, cwd, timeout,
                              read_only_environment() if read_only else None,
                              merge_stderr=merged, visible=visible)
    except SandboxUnavailable as error:
        result.ok, result.error = False, str(error)
        return False
    planned.executed, planned.exit_code = True, outcome.exit_code
    if READ_ONLY_FAILURE in outcome.stdout + outcome.stderr:
        result.warnings.append(
            f"`{planned.shell_command}` could not write: wave-lsp shows the project read-only "
            f"to the commands it runs, and {profile.runtime} would have written to it "
            "(what follows in the preview may differ)")
    if outcome.exit_code == 0 or (outcome.exit_code == 1
                                  and normal_exit_one(planned.shell_command, profile)):
        shown, saved = shown_output(placed_output(outcome.stdout, profile, tool))
    elif profile.aborts_on_command_failure:
        result.ok = False
        stdout, stderr = ("", outcome.stdout) if merged else (outcome.stdout, outcome.stderr)
        parts = [stdout.strip()] if stdout.strip() else []
        if stderr.strip():  # 2.1.332 leaves out an empty part and its label
            parts.append(f"[stderr]\n{stderr.strip()}")
        result.error = (f'Shell command failed for pattern "{planned.injection.pattern}": '
                        + "\n".join(parts))
        return False
    else:
        detail = (f"timed out after {timeout:.0f} s" if outcome.timed_out
                  else (outcome.stderr or outcome.stdout).strip())
        shown, saved = shown_output(
            f"<error>Command failed (exit code {outcome.exit_code}): {detail}</error>")
    planned.output_preview, planned.output_file = shown, saved
    return True


def normal_exit_one(command: str, profile: RuntimeProfile) -> bool:
    """Exit code 1 of a search or compare command (`grep -c` finding nothing, `diff` finding a
    difference) is a normal result for the runtime (`profile.normal_exit_one`)."""
    if not profile.normal_exit_one:
        return False
    split = split_command(command)
    if split.compound or len(split.parts) != 1:
        return False
    words = [w.value or "" for w in split.parts[0].words]
    return bool(words) and (words[0] in profile.normal_exit_one
                            or " ".join(words[:2]) in profile.normal_exit_one)


def _render(result: Invocation, plan: Plan, raw_arguments: str) -> str:
    document, profile = result.document, result.profile
    reading = read_as(document, profile)
    body = document.text[reading.body_offset:]
    start, end = reading.body_offset, len(document.text)
    if profile.trims_body and not reading.whole_file:
        start = reading.body_offset + (len(body) - len(body.lstrip()))
        end = reading.body_offset + len(body.rstrip())
    names = args_module.declared_names(reading.values.value("arguments"), profile)
    words = args_module.split_arguments(raw_arguments, profile)
    pieces: list[str] = []
    position = start
    gaps: list[str] = []
    by_span = {p.injection.span: p for p in plan.injections}
    for injection in body_injections(document, profile):
        if injection.span.start < position:
            continue
        gap = document.text[position : injection.span.start]
        gaps.append(gap)
        pieces.append(_substituted(gap, raw_arguments, words, names, plan.values))
        planned = by_span.get(injection.span)
        if injection.span in plan.disabled:
            pieces.append(profile.disabled_injection_text or "")
        elif planned is not None and planned.executed:
            pieces.append(planned.output_preview or "")
        else:
            pieces.append(substitute(injection.pattern, plan.values, in_shell=True).text)
        position = injection.span.end
    gap = document.text[position:end]
    gaps.append(gap)
    pieces.append(_substituted(gap, raw_arguments, words, names, plan.values))
    text = "".join(pieces)
    if profile.injects_frontmatter:  # Codex gives the model the whole file as it is
        text = document.text[: document.body_offset] + text
    # a runtime that substitutes inside commands too counts their placeholders
    searched = [document.text[start:end]] if profile.splices_arguments_into_commands else gaps
    placeholder = any(args_module.fills_placeholder(part, words, names, profile)
                      for part in searched)
    file_variable = profile.arguments_file_variable
    uses_file = file_variable is not None and "${" + file_variable + "}" in document.text[start:end]
    appended = ""
    if raw_arguments and not placeholder and not uses_file and profile.substitutes_arguments:
        appended = profile.arguments_appended_after + raw_arguments
    if profile.base_directory_line != "after":
        text, appended = text + appended, ""
    skill_dir = result.location.skill_dir
    if profile.invocation_wrapper is not None and result.location.path is not None:
        # Codex 0.171.0's `<skill>` message around the whole file (case cx-dmi-ignored)
        name = command_name(document, result.location, profile)
        return profile.invocation_wrapper.format(name=name, text=text,
                                                 path=result.location.path.as_posix())
    if skill_dir is None or profile.base_directory_line == "none" or legacy(result.location,
                                                                             profile):
        return text  # (a legacy command has no base directory: disc-legacy-command)
    if profile.base_directory_line == "after":
        # OpenCode's command template; the arguments after it, then the whole trimmed (1.18.33,
        # cases oc-args-appended, oc-body-newline)
        text = (f"{text}\n\nBase directory for this skill: {skill_dir.as_posix()}\nRelative "
                "paths in this skill (e.g., scripts/, references/) are relative to this base "
                f"directory.{appended}")
        return text.strip(JS_TRIM) if profile.trims_rendered_text else text
    return f"Base directory for this skill: {skill_dir.as_posix()}\n\n" + text


def _substituted(text: str, raw: str, words: list[str], names: list[str],
                 values: VariableValues) -> str:
    if not values.profile.substitutes_arguments:  # the placeholders reach the model as written
        return substitute(text, values).text
    with_arguments = args_module.substitute_arguments(text, raw, words, names, values.profile)
    return substitute(with_arguments, values).text


# -- texts for people -------------------------------------------------------------------------------
def injection_lines(result: Invocation) -> list[str]:
    """One line per injection: where, what the shell would run, what the runtime does with it
    (the prediction), and whether wave-lsp ran it (and why not, when the guard refused)."""
    lines = result.document.lines
    described = []
    for index, planned in enumerate(result.injections, 1):
        line = lines.position(planned.injection.span.start).line + 1
        decision = planned.decision
        state = ("ran, exit code " + str(planned.exit_code)) if planned.executed else "not run"
        if planned.not_run_because:
            state = f"not run: {planned.not_run_because}"
        verdict = f"{decision.behavior} — {decision.reason}"
        described.append(f"injection {index} (line {line}) `{planned.shell_command}`: "
                         f"{verdict} [{state}]")
    return described


def commands_that_run(result: Invocation) -> int:
    """How many commands this invocation runs: in execute mode those wave-lsp ran; in a dry run
    those the runtime is predicted to run, none when one is refused (the first refusal aborts
    the whole invocation)."""
    if result.mode == "execute":
        return sum(planned.executed for planned in result.injections)
    if any(planned.decision.refused for planned in result.injections):
        return 0
    return sum(planned.decision.allowed for planned in result.injections)


def _heading(result: Invocation) -> str:
    name = command_name(result.document, result.location, result.profile)
    return f"/{name} ({result.mode}, target {result.profile.name})"


def preview_markdown(result: Invocation) -> str:
    """The preview as a Markdown document: what runs, warnings, the error or the prompt verbatim
    (in a fence longer than any in the prompt)."""
    parts = [f"# Preview of {_heading(result)}", "",
             f"Arguments: `{result.arguments}`" if result.arguments else "No arguments.", "",
             "Read-only: written by wave-lsp for this preview; the skill file is unchanged.", ""]
    described = injection_lines(result)
    if described:
        parts += [f"## Commands ({commands_that_run(result)} of {len(described)} run)", "",
                  *(f"- {line}" for line in described), ""]
    if result.warnings:
        parts += ["## Warnings", "", *(f"- {warning}" for warning in result.warnings), ""]
    if result.error:
        parts += ["## Error", "", result.error, ""]
    if result.text is not None:
        longest = max((len(run) for run in re.findall(r"~+", result.text)), default=0)
        fence = "~" * max(4, longest + 1)
        parts += ["## Prompt", "", fence, result.text.rstrip("\n"), fence, ""]
    return "\n".join(parts)


def preview_summary(result: Invocation, first_lines: int = 6) -> str:
    """A few lines for a message: the outcome, how many commands run, the prompt's first lines."""
    count = commands_that_run(result)
    plural = "" if count == 1 else "s"
    verb = "ran" if result.mode == "execute" else "would run"
    head = f"Preview of {_heading(result)}: {count} command{plural} {verb}."
    if not result.ok:
        return f"{head}\n{result.error}"
    lines = (result.text or "").splitlines()
    shown = lines[:first_lines]
    more = len(lines) - len(shown)
    tail = [f"… {more} more line{'' if more == 1 else 's'}"] if more > 0 else []
    return "\n".join([head, *shown, *tail])
