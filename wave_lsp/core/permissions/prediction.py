"""The prediction: what the target runtime does with an injected command (docs/design/product.md *Two
decisions*; docs/design/runtime-facts.md §3.7 and §3.8 for Claude Code, §8.7 for Wave).

It models only the runtime, never wave-lsp's own caution (that is the execution guard's,
`guard.py`): each command is predicted to run ("allow"), to be refused ("ask" or "deny", the
runtime's own text where it has one; a skill load cannot ask, so both abort the invocation) or
"cannot-tell", with why. Every refusal and every cannot-tell names the runtime fact it rests on
(`Decision.fact`, a section of runtime-facts.md or a harness probe).

A profile whose `permission_model` is "wave" is predicted by Wave's own permission manager instead
(`wave_prediction.py`, runtime-facts §8.12). For Claude Code the order is the runtime's
(runtime-facts §3.8, its order of evaluation): tool-wide deny and ask; deny and ask rules against
the forms the runtime checks (the command, each part as written, and without assignments and safe
wrappers); Claude Code's path constraints on output redirections; an exact allow rule; then every
part must be allowed by a rule or be one of the runtime's read-only commands
(`readonly_runtime.py`); a tool-wide allow; else the runtime asks. Where wave-lsp's reading of the
shell cannot model the command (`Split.unmodelled`, control flow), or a deny rule matches only a
form the runtime may not check, the prediction is "cannot-tell". The permission mode
(`permissions.defaultMode`), a `PreSkillShellCommand` hook and a settings file that cannot be read
are taken into account the same way.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.permissions.readonly_runtime import FACT as READ_ONLY_FACT
from wave_lsp.core.permissions.readonly_runtime import ReadOnly, runtime_glob, runtime_read_only
from wave_lsp.core.permissions.rules import (
    ANY_ASSIGNMENT,
    BEHAVIORS,
    CANNOT_TELL,
    SAFE_WRAPPERS,
    Decision,
    PermissionRule,
)
from wave_lsp.core.permissions.shell import split_command
from wave_lsp.core.permissions.shell_words import (
    READ_ONLY_SINKS,
    WRITE_COMMANDS,
    Part,
    Split,
    _basename,
    _strip,
    allow_forms,
    decoded_command,
    deny_forms,
    lexical_forms,
    still_expands,
)
from wave_lsp.core.permissions.wave_prediction import FACTS as WAVE_FACTS
from wave_lsp.core.permissions.wave_prediction import WavePredictor

#: the runtime facts predictions cite (docs/design/runtime-facts.md)
RULES_FACT = "runtime-facts §3.8 order of evaluation"
MESSAGES_FACT = "runtime-facts §3.8 messages (probes inj-deny-*, inj-ask-rule, inj-failing)"
REDIRECT_FACT = "runtime-facts §3.8 path constraints (probe inj-redirect)"
HOOK_FACT = "runtime-facts §3.7 PreSkillShellCommand hooks"
MODE_FACT = "runtime-facts §3.8 permission modes (probes inj-mode-*)"
SETTINGS_FACT = "runtime-facts §3.8 rule sources"
EXPANSION_FACT = "runtime-facts §3.10 (probes inj-expansion-*: `echo $HOME` runs)"
UNCHECKED_FACT = "runtime-facts §9.7 (injections run with no permission check)"
NESTED_FACT = ("runtime-facts §3.10 (probes inj-substitution, inj-substitution-git: a command "
               "substitution is refused)")
#: every fact a prediction may cite: a refusal or cannot-tell that names none is a defect
FACTS = frozenset({RULES_FACT, MESSAGES_FACT, REDIRECT_FACT, HOOK_FACT, MODE_FACT, SETTINGS_FACT,
                   EXPANSION_FACT, READ_ONLY_FACT, UNCHECKED_FACT, NESTED_FACT, *WAVE_FACTS})
#: Claude Code 2.1.332's texts (runtime-facts §3.8 *Messages*, verified by the harness)
UNRULED = "This command requires approval"
#: Claude Code 2.1.332's refusal of a command substitution no exact rule allows
NESTED = "A nested command in this command can't be checked before it runs"
ASK_RULE = "Claude requested permissions to use {tool}, but you haven't granted it yet."
DENIED = "Permission to use {tool} with command {command} has been denied."
COMPOUND = ("This {tool} command contains multiple operations. The following {parts} "
            "{verb} approval: {listed}")
#: dontAsk turns every approval into this denial (read from 2.1.332's bundle; probe
#: inj-mode-dont-ask)
DONT_ASK = ("Permission to use {tool} has been denied because Claude Code is running in don't ask "
            "mode. IMPORTANT: You *may* attempt to accomplish this action using other tools that "
            "might naturally be used to accomplish this goal, e.g. using head instead of cat. But "
            "you *should not* attempt to work around this denial in malicious ways, e.g. do not "
            "use your ability to run tests to execute non-test actions. You should only try to "
            "work around this restriction in reasonable ways that do not attempt to bypass the "
            "intent behind this denial. If you believe this capability is essential to complete "
            "the user's request, STOP and explain to the user what you were trying to do and why "
            "you need this permission. Let the user decide how to proceed.")
#: Claude Code's path constraint for a write inside its one working directory, as it words it
#: for an output redirection (`what` "Output redirection to") and for an unruled `mkdir` ("mkdir
#: in", case inject-unruled, 2.1.332)
PATH_INSIDE = ("{what} '{path}' needs approval. The path is inside the working directories for "
               "this session ('{folders}'), and Claude Code asks before a shell command creates, "
               "changes or removes files there.")
REDIRECT_INSIDE = PATH_INSIDE.replace("{what}", "Output redirection to")
#: the writers whose unruled refusal inside the working directory is the path constraint's text
#: (verified for `mkdir` only: the others keep the generic refusal until a probe shows theirs)
PATH_MESSAGE_WRITERS = frozenset({"mkdir"})


@dataclass(frozen=True, slots=True)
class RuntimeInputs:
    """What the runtime reads besides the rules: its working directories (the folder it starts
    in, then `additionalDirectories`), the permission mode, the files with a
    `PreSkillShellCommand` hook, and the settings files it cannot read."""

    directories: tuple[Path, ...] = ()
    mode: str | None = None
    mode_file: Path | None = None
    hooks: tuple[Path, ...] = ()
    problems: tuple[str, ...] = ()
    #: those of `problems` that are files the JSON parser rejects
    unparsable: tuple[str, ...] = ()


class Predictor:
    """What `profile`'s runtime does with a shell command, given its rules (`check`)."""

    def __init__(self, rules: Iterable[PermissionRule], tool: str = "Bash",
                 profile: RuntimeProfile | None = None,
                 inputs: RuntimeInputs = RuntimeInputs()) -> None:
        self.tool = tool
        self.profile = profile
        self.inputs = inputs
        rules = list(rules)
        self.rules = [rule for rule in rules if rule.tool == tool]
        #: Wave's own permission manager (`wave_prediction.py`) for a profile that models it
        invalid = [problem for problem in inputs.problems if problem not in inputs.unparsable]
        self.wave = WavePredictor(rules, tool, inputs.directories, inputs.mode, invalid) \
            if profile is not None and profile.wave_permissions else None
        self._by: dict[tuple[str, bool], list[PermissionRule]] = {
            (behavior, wide): [r for r in self.rules if r.behavior == behavior
                               and (r.kind == "tool") == wide]
            for behavior in BEHAVIORS for wide in (True, False)}

    @property
    def runtime(self) -> str:
        return self.profile.runtime if self.profile is not None else "the runtime"

    def cannot_tell(self, why: str, fact: str, compound: bool = False) -> Decision:
        return Decision(CANNOT_TELL, f"cannot tell whether {self.runtime} runs it: {why}", None,
                        compound, fact=fact, rule_can_allow=False)

    def check(self, command: str) -> Decision:
        """The prediction for `command` (see the module's docstring for the order)."""
        command = command.strip()
        if self.wave is not None:
            return self.wave.check(command)
        decision = self._rules(command)
        if decision.refused or not self.inputs.hooks:
            return self._settings_unreadable(decision)
        hook = self.inputs.hooks[0]
        return self.cannot_tell(f"the `PreSkillShellCommand` hook in {hook} decides first, and "
                                "wave-lsp does not run hooks", HOOK_FACT, decision.compound)

    def _settings_unreadable(self, decision: Decision) -> Decision:
        if decision.refused or not self.inputs.problems:
            return decision
        return self.cannot_tell(f"a settings file it reads cannot be used "
                                f"({self.inputs.problems[0]}), and what it does then is not "
                                "modelled", SETTINGS_FACT, decision.compound)

    def _rules(self, command: str) -> Decision:
        for behavior in ("deny", "ask"):
            for rule in self._by[behavior, True]:
                return self._blocked(rule, command)
        split = split_command(command)
        blocked = self._deny_or_ask(command, split)
        if blocked is not None:
            return blocked
        if split.unmodelled is not None:
            return self.cannot_tell(f"the command {split.unmodelled}, which wave-lsp's reading "
                                    "of the shell does not model (the runtime may refuse it as "
                                    "unsafe whatever the rules)", RULES_FACT, split.compound)
        decision = self._tool_check(command, split)
        if decision.behavior != "ask" or decision.rule is not None:
            return decision
        # an approval the tool asks for (no rule, no safety check): bypass mode and a tool-wide
        # allow come next (runtime-facts §3.8 order, steps 4 and 5)
        wide = next(iter(self._by["allow", True]), None)
        if wide is not None and decision.fact == NESTED_FACT:
            return self.cannot_tell("it has a command substitution, which Claude Code refuses "
                                    "to check, and whether a tool-wide allow lets it through "
                                    "is not recorded", NESTED_FACT, split.compound)
        if wide is not None:
            return Decision("allow", f"allowed by `{wide.raw}` from {wide.source}", wide,
                            split.compound, fact=RULES_FACT)
        # `bypassPermissions` from a settings file does not let an injected command through
        # (probe inj-mode-bypass); `dontAsk` denies what would ask, in its own words
        if self.inputs.mode == "dontAsk":
            return Decision("deny", DONT_ASK.format(tool=self.tool), None, split.compound,
                            decision.unmatched, fact=MODE_FACT)
        return decision

    def _tool_check(self, command: str, split: Split) -> Decision:
        """The tool's own check after deny and ask rules: path constraints, an exact allow
        rule, control flow, then each part."""
        write = self._write_problem(split)
        if write is not None:
            return write
        for rule in self._by["allow", False]:
            if rule.kind == "exact" and rule.matches(command):
                return Decision("allow", f"allowed by `{rule.raw}` from {rule.source}", rule,
                                split.compound, fact=RULES_FACT)
        if split.problem is not None:
            if self._by["allow", True]:
                return Decision("ask", "", None, True, fact=RULES_FACT)  # the tool-wide allow
            return self.cannot_tell(f"the command {split.problem}, which wave-lsp does not model "
                                    "for the runtime's own checks", RULES_FACT, True)
        return self._parts(command, split)

    def _deny_or_ask(self, command: str, split: Split) -> Decision | None:
        """A deny or ask rule that matches a form the runtime checks refuses the command; one
        that matches only a form wave-lsp adds to be safe (`deny_forms`, `lexical_forms`) makes
        the prediction cannot-tell."""
        specific = [*self._by["deny", False], *self._by["ask", False]]
        if not specific:
            return None
        checked = {command}
        for part in split.parts:
            checked |= set(runtime_forms(part))
        for rule in specific:
            if rule.matches_any(checked):
                return self._blocked(rule, command)
        wider = {" ".join(command.split())} | lexical_forms(command)
        if "$'" in command:
            wider |= lexical_forms(decoded_command(command))
        for part in split.parts:
            wider |= deny_forms(part)
        for rule in specific:
            if rule.matches_any(wider):
                return self.cannot_tell(f"the {rule.behavior} rule `{rule.raw}` from "
                                        f"{rule.where} matches a form of the command (a wrapped "
                                        "or quoted one) that the runtime may not check",
                                        RULES_FACT, split.compound)
        return None

    # writes ----------------------------------------------------------------------------------
    def _write_problem(self, split: Split) -> Decision | None:
        """Claude Code's path constraints: an output redirection to a file needs approval
        (acceptEdits lets one inside the working directories through); a command that writes
        its arguments is checked the same way, which is modelled only as cannot-tell."""
        if not self._claude_code():
            return None
        targets = [w for part in split.parts for w in part.writes] + list(split.writes)
        for target in targets:
            value = target.value
            if value in READ_ONLY_SINKS or (value or "").startswith("/dev/fd/"):
                continue
            if value is None:
                return self.cannot_tell(f"it writes to `{target.written}`, a path computed at "
                                        "run time", REDIRECT_FACT, split.compound)
            inside, path = self._inside(value)
            if inside and self.inputs.mode == "acceptEdits":
                continue
            folders = ", ".join(str(f) for f in self.inputs.directories)
            if inside and len(self.inputs.directories) == 1:
                return Decision("ask", REDIRECT_INSIDE.format(path=path, folders=folders), None,
                                split.compound, (target.written,), fact=REDIRECT_FACT)
            where = "inside" if inside else "outside"
            return Decision("ask", f"Output redirection to '{path}' needs approval ({where} the "
                                   "working directories for this session)", None, split.compound,
                            (target.written,), fact=REDIRECT_FACT)
        writer = next((p for p in split.parts if _basename(p.program) in WRITE_COMMANDS), None)
        outside = next((w.written for w in (writer.words[1:] if writer else ())
                        if w.value is not None and not w.value.startswith("-")
                        and not self._inside(w.value)[0]), None)
        if writer is not None and outside is not None:
            return Decision("ask", f"{self.runtime} asks before `{writer.program}` writes "
                                   f"`{outside}`, outside the working directories for this "
                                   "session", None, split.compound, (writer.text,),
                            rule_can_allow=False, fact=REDIRECT_FACT)
        return None  # inside: the rules decide (probe inj-touch-allowed: `touch` under a rule runs)

    def _inside(self, value: str) -> tuple[bool, str]:
        directories = self.inputs.directories
        if not directories:
            return True, value
        if value.startswith("~"):
            return False, value
        path = os.path.normpath(os.path.join(directories[0], value))
        inside = any(path == str(folder) or path.startswith(str(folder).rstrip("/") + "/")
                     for folder in directories)
        return inside, path

    # parts -----------------------------------------------------------------------------------
    def _parts(self, command: str, split: Split) -> Decision:
        if self._claude_code() and any(part.expansion == "command substitution"
                                       for part in split.parts):
            # checked before the rules of each part: no prefix or wildcard rule lets it through
            return Decision("ask", NESTED, None, split.compound, fact=NESTED_FACT)
        refused: list[Part] = []
        unknown: list[tuple[Part, str, str]] = []
        matched: list[PermissionRule] = []
        outside: list[str] = []
        read_only = True
        for part in split.parts:
            rule = self._matching_allow(part)
            if rule is not None:
                matched.append(rule)
                read_only = False
                continue
            answer, fact = self._read_only(part)
            verdict, why = answer.verdict, answer.why or ""
            if verdict == "no":
                refused.append(part)
                if answer.outside:
                    outside.append(why)
            elif verdict == "unknown":
                unknown.append((part, why, fact))
        if refused:
            return self._requires_approval(command, split, refused, outside)
        if unknown:
            part, why, fact = unknown[0]
            decision = self.cannot_tell(f"`{part.text}` matches no allow rule, and whether "
                                        f"{self.runtime} reads it as read-only cannot be told: "
                                        f"{why}", fact, split.compound)
            return replace(decision, rule_can_allow=True)  # an exact allow rule would decide
        if matched and not read_only:
            rule = next((r for r in matched if r.personal), matched[0])
            return Decision("allow", f"allowed by `{rule.raw}` from {rule.source}", rule,
                            split.compound, fact=RULES_FACT)
        return Decision("allow", f"allowed without a rule: {self.runtime} runs read-only "
                                 "commands as they are", None, split.compound, read_only=True,
                        fact=READ_ONLY_FACT)

    def _matching_allow(self, part: Part) -> PermissionRule | None:
        text, safe = allow_forms(part)
        for rule in self._by["allow", False]:
            if rule.kind == "exact":
                if rule.matches(text) or rule.matches(safe):
                    return rule
            elif part.expansion in (None, "parameter expansion") and rule.matches(safe):
                return rule
        return None

    def _read_only(self, part: Part) -> tuple[ReadOnly, str]:
        """Whether the runtime reads a part no allow rule matches as read-only, and the fact."""
        profile = self.profile
        if profile is None or not profile.auto_allows_read_only or self.tool != "Bash":
            return ReadOnly("no", "no read-only commands"), RULES_FACT
        if part.inputs:
            return ReadOnly("unknown", f"the input redirection `{part.inputs[0]}`"), READ_ONLY_FACT
        if part.assignments or part.wrapped:
            return ReadOnly("unknown", "an assignment or a wrapper"), READ_ONLY_FACT
        words = [w.value if w.value is not None else w.written for w in part.words]
        if part.expansion == "parameter expansion" and words and words[0] == "echo":
            return ReadOnly("yes"), EXPANSION_FACT
        if part.expansion is not None:
            return ReadOnly("unknown", f"it contains {part.expansion}"), READ_ONLY_FACT
        for word in part.words[1:]:
            if still_expands(word):
                answer = runtime_glob(_basename(part.program) or "", word.written,
                                      self.inputs.directories)
                if answer.verdict != "yes":
                    return answer, READ_ONLY_FACT
        return runtime_read_only(words, profile, self.inputs.directories), READ_ONLY_FACT

    def _requires_approval(self, command: str, split: Split, refused: Sequence[Part],
                           outside: Sequence[str]) -> Decision:
        texts = tuple(p.text for p in refused)
        if outside:  # the path constraint's own text is not recorded
            return Decision("ask", f"{self.runtime} asks before a command reads a path "
                                   f"outside the working directories for this session "
                                   f"({outside[0]})", None, split.compound, texts,
                            fact=READ_ONLY_FACT)
        if split.compound and len(split.parts) > 1:
            count = len(refused)
            reason = COMPOUND.format(tool=self.tool, parts="parts" if count > 1 else "part",
                                     verb="require" if count > 1 else "requires",
                                     listed=", ".join(texts))
        else:
            reason = self._writer_inside(refused[0]) or UNRULED
        return Decision("ask", reason, None, split.compound, texts, fact=MESSAGES_FACT)

    def _writer_inside(self, part: Part) -> str | None:
        """Claude Code's own refusal of an unruled writer (`mkdir`) whose first operand lies in
        its one working directory: the path constraint's text, not the generic one (case
        inject-unruled, 2.1.332)."""
        if not self._claude_code() or _basename(part.program) not in PATH_MESSAGE_WRITERS \
                or len(self.inputs.directories) != 1 or self.inputs.mode == "acceptEdits":
            return None
        operand = next((w.value for w in part.words[1:]
                        if w.value is not None and not w.value.startswith("-")), None)
        if operand is None:
            return None
        inside, path = self._inside(operand)
        if not inside:
            return None
        return PATH_INSIDE.format(what=f"{_basename(part.program)} in", path=path,
                                  folders=str(self.inputs.directories[0]))

    def _blocked(self, rule: PermissionRule, command: str) -> Decision:
        if rule.behavior == "deny":
            return Decision("deny", DENIED.format(tool=self.tool, command=command), rule,
                            fact=MESSAGES_FACT)
        return Decision("ask", ASK_RULE.format(tool=self.tool), rule, fact=MESSAGES_FACT)

    def _claude_code(self) -> bool:
        return self.profile is not None and self.profile.auto_allows_read_only


def runtime_forms(part: Part) -> tuple[str, ...]:
    """The forms of one part Claude Code matches deny and ask rules against (runtime-facts §3.8
    its matching steps): as written, without redirections, safe wrappers and any leading
    assignments."""
    text, safe = allow_forms(part)
    return (text, safe, part.bare, _strip(part.bare, ANY_ASSIGNMENT, unsafe=True),
            SAFE_WRAPPERS.sub("", part.bare, count=1).strip())
