"""The execution guard: wave-lsp's own, stricter policy for the commands it runs itself in
`preview --execute` and the language server's execute mode (docs/design/product.md *Permission
engine* and *Preview* step 4; docs/security.md). It never decides what a runtime does: that is
the prediction's (`prediction.py`), and a command runs only when the prediction says the runtime
runs it *and* this guard allows it (and inside the OS sandbox of `execution.py`).

`StrictEngine` is the former single permission engine, kept as the guard's rule check: deny and
ask rules against every candidate form of the whole command and of every part (`deny_forms`,
`lexical_forms`: normalisation only ever makes a deny more likely); a command it cannot model
exactly (parse errors, process substitution, functions, a command word computed at run time, code
read from input, lines over `MAX_COMMAND_CHARS`) is never allowed; a write outside the project is
never allowed; prefix and wildcard rules never allow a part with an expansion or a path that
steps out of the folder the rule names (`_stays_inside`); the read-only auto-allow is the strict
table of `readonly.py` (the options of `readonly.toml`'s `[stricter]` are refused).

`Guard.check` adds the policy around it: a `${…}` value with shell syntax and argument text
spliced into a command are refused; the preview adds a settings file that cannot be used (fails
closed), a shell other than bash, and the re-decision right before a read-only command runs
(earlier commands may have changed the disk). Every refusal reads "<runtime> runs this; wave-lsp
did not: wave-lsp's execution policy, stricter than the runtime's, …" in the preview (`POLICY`).

`guard_disabled()` is the test-only switch of the adversarial suite's second run (the sandbox
alone): `WAVE_LSP_TEST_DISABLE_GUARD=1`, honoured only while pytest runs a test
(`PYTEST_CURRENT_TEST` is set).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.variables import PLACEHOLDER
from wave_lsp.core.paths import is_within
from wave_lsp.core.permissions.readonly import glob_problem, read_only_problem
from wave_lsp.core.permissions.rules import (
    BEHAVIORS,
    Decision,
    PermissionRule,
    _unescaped_stars,
)
from wave_lsp.core.permissions.shell import split_command
from wave_lsp.core.permissions.shell_words import (
    EXPANDS,
    READ_ONLY_SINKS,
    SAFE_DEVICES,
    WRITE_COMMANDS,
    Part,
    Split,
    _basename,
    allow_forms,
    decoded_command,
    deny_forms,
    lexical_forms,
    still_expands,
    word_reading_problem,
)


def _stays_inside(part: Part, rule: PermissionRule) -> bool:
    """A prefix or wildcard rule allows only paths it can see: no argument may step out with a
    `..` segment (`Bash(cat ${CLAUDE_SKILL_DIR}/*)` does not allow `…/skill/../../secret`), and
    an argument under a folder the rule names must still be under it once every symbolic link is
    followed."""
    folders = _rule_folders(rule.content or "")
    for word in part.words[1:]:
        value = word.value if word.value is not None else word.written
        for path in {value, value.split("=", 1)[-1]}:
            if ".." in path.split("/"):
                return False
            for folder in folders:
                if not path.startswith(folder.rstrip("/") + "/"):
                    continue
                # a glob is judged by what it matches now (`…/u*/secret` through a link `up`)
                matches = _glob_matches(path) if still_expands(word) else [path]
                if not all(_under(match, folder) for match in matches):
                    return False
    return True


def _glob_matches(pattern: str) -> list[str]:
    from wave_lsp.core.permissions.globbing import bounded_glob

    if "[" in pattern:
        return [os.sep]  # bracket expressions are matched differently by bash: never inside
    expanded = bounded_glob(pattern)  # a link loop under `*/*/…` must not explode (issue 35)
    if not expanded.complete:
        return [os.sep]  # too many matches to check them all: never inside
    return expanded.matches or [pattern]


@lru_cache(maxsize=512)
def _rule_folders(content: str) -> tuple[str, ...]:
    """The absolute folders a rule's text names before its first wildcard."""
    stars = _unescaped_stars(content)
    literal = content[:stars[0]] if stars else content.removesuffix(":*")
    folders = []
    for token in literal.split():
        if token.startswith("/"):
            folders.append(token if token.endswith("/") else os.path.dirname(token) or "/")
    return tuple(folders)


def _under(path: str, folder: str) -> bool:
    return is_within(os.path.realpath(path), os.path.realpath(folder))


#: how the guard's refusals name their source: wave-lsp's own policy, never the runtime's
POLICY = "wave-lsp's execution policy, stricter than the runtime's,"


class StrictEngine:
    def __init__(self, rules: Iterable[PermissionRule], tool: str = "Bash",
                 project: Path | None = None, profile: RuntimeProfile | None = None) -> None:
        self.tool = tool
        #: the runtime whose built-in read-only commands run without a rule (None: no such class)
        self.profile = profile
        self.rules = [rule for rule in rules if rule.tool == tool]
        #: the folder commands run in: writing outside it needs approval (Claude Code's path
        #: constraints); None skips the check
        self.project = project
        self._groups: dict[tuple[str, str | None], list[PermissionRule]] = {}
        for behavior in BEHAVIORS:
            for kind in (None, "tool", "specific"):
                self._groups[behavior, kind] = [
                    r for r in self.rules if r.behavior == behavior
                    and (kind is None or (r.kind == "tool") == (kind == "tool"))]

    def _of(self, behavior: str, kind: str | None = None) -> list[PermissionRule]:
        return self._groups[behavior, kind]

    def check(self, command: str) -> Decision:
        """The decision for `command`: the rules' (`_decide`), except that a command no rule
        matched runs anyway when every part is one of the runtime's built-in read-only commands
        (`wave_lsp.core.permissions.readonly`); a deny or ask rule always wins."""
        decision = self._decide(command)
        if decision.allowed or decision.rule is not None:
            return decision
        problem = self._read_only_problem(decision, command)
        if problem is None:
            return Decision("allow", f"allowed without a rule: {self._runtime()} runs read-only "
                                     "commands as they are", None, decision.compound,
                            read_only=True)
        if self._offers_read_only() and decision.behavior == "ask" and problem != EXPANDS:
            return Decision("ask", f"{decision.reason} (nor is it read-only by wave-lsp's "
                                   f"stricter list: {problem})", None, decision.compound,
                            decision.unmatched, rule_can_allow=decision.rule_can_allow)
        return decision

    def _offers_read_only(self) -> bool:
        profile = self.profile
        return profile is not None and profile.auto_allows_read_only and self.tool == "Bash"

    def _runtime(self) -> str:
        return self.profile.runtime if self.profile is not None else "the runtime"

    def _read_only_problem(self, decision: Decision, command: str) -> str | None:
        """Why the parts no rule allows are not all plain read-only commands (None when they
        are): no expansion, glob, assignment, wrapper, input redirection or write other than to
        a device, and each on the runtime's allow-list (`readonly.read_only_problem`), with its
        files resolved in the working directory."""
        profile = self.profile
        if profile is None or not self._offers_read_only():
            return "no read-only commands"
        texts = decision.unmatched if decision.compound and decision.unmatched else (command,)
        for text in texts:
            split = split_command(text)
            if split.problem or split.unmodelled or not split.parts:
                return split.problem or split.unmodelled or "no command"
            if split.inputs or split.writes:
                return "a redirection of a command group"
            for part in split.parts:
                problem = self._part_problem(part, text, profile)
                if problem is not None:
                    return problem
        return None

    def _part_problem(self, part: Part, text: str, profile: RuntimeProfile) -> str | None:
        if part.expansion or part.assignments or part.wrapped:
            return EXPANDS
        if part.inputs:
            return f"the input redirection `{part.inputs[0]}`"
        if any(word.value not in READ_ONLY_SINKS for word in part.writes):
            return "an output redirection"
        problem = word_reading_problem(part, text)
        if problem is not None:
            return problem
        program = _basename(part.program) or ""
        for word in part.words[1:]:
            if still_expands(word):
                problem = glob_problem(program, word.written, self.project)
                if problem:
                    return problem
        words = [word.value for word in part.words if word.value is not None]
        return read_only_problem(words, profile, self.project)

    def _decide(self, command: str) -> Decision:
        """Deny, then ask, then allow (docs/design/runtime-facts.md §3.8), default-deny: deny and ask
        rules are matched against every form of the whole command and of every simple command
        found anywhere in it (`deny_forms`); a command the engine cannot model is never allowed;
        otherwise every part must be allowed on its own."""
        command = command.strip()
        for behavior in ("deny", "ask"):
            for rule in self._of(behavior, "tool"):
                return self._blocked(rule, command)
        split = split_command(command)
        specific = {behavior: self._of(behavior, "specific") for behavior in BEHAVIORS}
        if specific["deny"] or specific["ask"]:
            candidates = {command, " ".join(command.split())} | lexical_forms(command)
            if "$'" in command:  # `$'\x74ouch'` is `touch`: decoded before deny rules look
                candidates |= lexical_forms(decoded_command(command))
            for part in split.parts:
                candidates |= deny_forms(part)
            for behavior in ("deny", "ask"):
                for rule in specific[behavior]:
                    if rule.matches_any(candidates):
                        return self._blocked(rule, command)
        if split.unmodelled is not None:
            return Decision("ask", f"this {self.tool} command {split.unmodelled}, so "
                                   f"{POLICY} cannot tell what it would run and runs it under "
                                   "no rule",
                            None, True, (command,), rule_can_allow=False)
        outside = self._writes_outside(split)
        if outside is not None:
            return Decision("ask", f"{POLICY} never runs a command that writes outside the "
                                   f"project (`{outside}`)", None, split.compound, (command,),
                            rule_can_allow=False)
        for rule in specific["allow"]:
            if rule.kind == "exact" and rule.matches(command):
                return Decision("allow", f"allowed by `{rule.raw}` from {rule.source}", rule,
                                split.compound)
        tool_wide = next(iter(self._of("allow", "tool")), None)
        if split.problem is not None:
            if tool_wide is not None:
                return Decision("allow", f"allowed by `{tool_wide.raw}` from {tool_wide.source}",
                                tool_wide, True)
            return Decision("ask", f"this {self.tool} command {split.problem}: {POLICY} runs "
                                   "it only under an exact allow rule",
                            None, True, (command,))
        return self._allow_parts(command, split, tool_wide, specific["allow"])

    def _writes_outside(self, split: Split) -> str | None:
        """The first path a part writes (redirection target, or an argument of a command that
        writes its arguments) that is outside the project, computed at run time, or in a home
        folder (`~`)."""
        if self.project is None:
            return None
        root = os.path.normpath(str(self.project))
        moves = any(_basename(part.program) in ("cd", "pushd", "popd") for part in split.parts)
        for part in [*split.parts, Part("", "", writes=split.writes)]:
            targets = list(part.writes)
            if _basename(part.program) in WRITE_COMMANDS:
                targets += [w for w in part.words[1:] if w.value is None
                            or not w.value.startswith("-")]
            for target in targets:
                value = target.value
                if value is None or (target.pattern and "~" in value.split("/")[0]):
                    return target.written
                if value in SAFE_DEVICES or value.startswith("/dev/fd/"):
                    continue
                if moves and not value.startswith("/"):
                    return target.written  # relative to a folder `cd` chose, not the project
                if _basename(part.program) == "dd":
                    if not value.startswith("of="):
                        continue
                    value = value[3:]
                path = os.path.normpath(os.path.join(root, value))
                if path != root and not path.startswith(root.rstrip("/") + "/"):
                    return target.written
        return None

    def _allow_parts(self, command: str, split: Split, tool_wide: PermissionRule | None,
                     allow: list[PermissionRule]) -> Decision:
        matched: list[PermissionRule] = []
        unmatched: list[Part] = []
        for part in split.parts:
            rule = self._allowing(part, allow)
            if rule is None:
                unmatched.append(part)
            else:
                matched.append(rule)
        if not unmatched and matched:
            # the weakest link decides where the permission comes from (personal beats shared)
            rule = next((r for r in matched if r.personal), matched[0])
            return Decision("allow", f"allowed by `{rule.raw}` from {rule.source}", rule,
                            split.compound)
        if tool_wide is not None:
            return Decision("allow", f"allowed by `{tool_wide.raw}` from {tool_wide.source}",
                            tool_wide, split.compound)
        leaving = self._leaves_folder(unmatched, allow)
        reason = self._why_not(command, split, unmatched) if leaving is None else leaving
        return Decision("ask", reason, None, split.compound,
                        tuple(p.text for p in unmatched) or (command,))

    @staticmethod
    def _leaves_folder(unmatched: list[Part], allow: list[PermissionRule]) -> str | None:
        """A prefix or wildcard rule that matches a part, refused only because an argument steps
        out of the folders it names (`..`, a link): that is the reason to give."""
        for part in unmatched:
            safe = allow_forms(part)[1]
            for rule in allow:
                if rule.kind != "exact" and part.expansion is None and rule.matches(safe):
                    return (f"`{rule.raw}` matches `{part.text}`, but {POLICY} never lets a "
                            "prefix or wildcard rule reach a path that steps out with `..` or "
                            "through a symbolic link")
        return None

    @staticmethod
    def _allowing(part: Part, allow: list[PermissionRule]) -> PermissionRule | None:
        text, safe = allow_forms(part)
        for rule in allow:
            if rule.kind == "exact":
                if rule.matches(text) or rule.matches(safe):
                    return rule
            elif part.expansion is None and rule.matches(safe) and _stays_inside(part, rule):
                return rule
        return None

    def _why_not(self, command: str, split: Split, unmatched: list[Part]) -> str:
        if split.compound and unmatched:
            listed = ", ".join(f"`{p.text}`" for p in unmatched)
            return f"{POLICY} needs an allow rule for each of {listed}"
        part = unmatched[0] if unmatched else None
        if part is not None and part.expansion is not None:
            return f"{POLICY} never runs {part.expansion} under a prefix or wildcard rule"
        return f"{POLICY} needs an allow rule that matches `{command}` as wave-lsp reads it"

    def _blocked(self, rule: PermissionRule, command: str) -> Decision:
        if rule.behavior == "deny":
            return Decision("deny", f"Permission to use {self.tool} with command {command} has been "
                                    "denied.", rule)
        return Decision("ask", f"Permission rule '{rule.raw}' from {rule.where} requires approval "
                               f"for this {self.tool} command", rule)



# -- the execution policy ----------------------------------------------------------------------
#: the test-only switch that turns the guard off (the adversarial suite's run with the sandbox
#: alone); honoured only while pytest runs a test
TEST_SWITCH = "WAVE_LSP_TEST_DISABLE_GUARD"
#: what a `${…}` value may contain and stay one plain shell word
PLAIN_VALUE = re.compile(r"[A-Za-z0-9_./:@%+,=~-]*")


def guard_disabled() -> bool:
    """`WAVE_LSP_TEST_DISABLE_GUARD=1` while pytest runs a test (`PYTEST_CURRENT_TEST` is set):
    the guard allows everything the prediction says the runtime runs. Outside a test it is
    ignored."""
    return os.environ.get(TEST_SWITCH) == "1" and bool(os.environ.get("PYTEST_CURRENT_TEST"))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The guard's answer for one command: `refusal` is why wave-lsp does not run it (None: it
    may); `decision` is the strict engine's (None when a policy refused before it)."""

    refusal: str | None
    decision: Decision | None = None

    @property
    def read_only(self) -> bool:
        return self.decision is not None and self.decision.read_only


class Guard:
    """wave-lsp's execution policy for one invocation (see the module's docstring)."""

    def __init__(self, rules: Iterable[PermissionRule], tool: str, project: Path | None,
                 profile: RuntimeProfile | None, problems: Iterable[str] = (),
                 values: Callable[[str], str | None] | None = None) -> None:
        self.tool = tool
        self.engine = StrictEngine(rules, tool, project, profile)
        self.problems = list(problems)
        #: a `${NAME}` placeholder's shell value (None: unknown)
        self.values = values

    def check(self, command: str, written: str = "", *, spliced: bool = False) -> Verdict:
        """May wave-lsp run `command` (after substitution; `written` as the skill wrote it)?"""
        if guard_disabled():
            return Verdict(None)
        if self.tool != "Bash":
            return Verdict(f"this skill's commands run with {self.tool}, and wave-lsp executes "
                           "commands with bash only")
        if spliced:
            return Verdict("the arguments are spliced into it: they are user text, and spliced "
                           "into a command they run as shell code (SK119)")
        if self.problems:
            return Verdict("a settings file cannot be used, so wave-lsp runs nothing until it is "
                           f"fixed: {self.problems[0]}")
        unsafe = self._unsafe_value(written)
        if unsafe is not None:
            return Verdict(unsafe)
        decision = self.engine.check(command)
        return Verdict(None if decision.allowed else decision.reason, decision)

    def _unsafe_value(self, written: str) -> str | None:
        """A `${…}` value (a folder name, a session id) with shell syntax in it would become live
        shell text once substituted."""
        if self.values is None:
            return None
        for match in PLACEHOLDER.finditer(written):
            value = self.values(match.group(1))
            if value is not None and PLAIN_VALUE.fullmatch(value) is None:
                return (f"it substitutes `{match.group(0)}` = `{value}`, which contains shell "
                        "syntax (quotes, `$`, backticks, spaces or control characters) and would "
                        "run as code: rename the folder")
        return None
