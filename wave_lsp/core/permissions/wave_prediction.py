"""The `wave` target's prediction: Wave's permission manager deciding a Bash command
(docs/design/product.md *Two decisions*; docs/design/runtime-facts.md §8.7 and §8.12).

The Wave skills specification checks an injected command "with the Bash tool's rules and
matching semantics" (§8.7): this is `PermissionManager.checkPermission` of Wave's code at
469391bb for the Bash tool, with no permission callback (a skill load cannot ask, scenario 4):

1. a deny rule that matches the whole command (after leading assignments and redirections are
   dropped, and again without `git -C <path>`) refuses it — deny beats every allow;
2. `permissions.permissionMode` `bypassPermissions` runs it; `acceptEdits` runs a lone
   `mkdir` whose paths are inside the working directories;
3. it runs when every part (`wave_shell.split_command`) is allowed: one of Wave's read-only
   commands with any arguments (no write redirection, substitution, `sed -i`, dangerous `find`),
   a `cd` inside the working directories, an allow rule (settings, `allowed-tools`), or one of
   Wave's default allow rules (not for those dangerous variants);
4. else `dontAsk` denies it in its own words, and anything else is refused for want of a
   permission callback.

Rules match with Wave's matcher (`wave_shell.glob_matches`): literal but for `*`, no `:*` form,
no `ask` rules. Wave's code at 469391bb does not call this for injected commands at all (it runs
them unchecked); a refusal says so (`Decision.note`). Nothing here is wave-lsp's own caution.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from wave_lsp.core.permissions.rules import CANNOT_TELL, Decision, PermissionRule
from wave_lsp.core.permissions.wave_facts import (
    DEFAULT_ALLOWED_RULES,
    DENIED_BY_RULE,
    DONT_ASK,
    NO_CALLBACK,
    READ_ONLY_COMMANDS,
    READ_ONLY_FACT,
    RULES_FACT,
    SETTINGS_FACT,
    UNCHECKED_NOTE,
)
from wave_lsp.core.permissions.wave_shell import (
    TooDeep,
    glob_matches,
    has_command_substitution,
    has_process_substitution,
    has_sed_in_place,
    has_write_redirection,
    is_dangerous_find,
    leading_word,
    rule_pattern,
    split_command,
    strip_env_vars,
    strip_git_scope,
    strip_redirections,
    tokens,
)

FACTS = frozenset({RULES_FACT, READ_ONLY_FACT, SETTINGS_FACT})


def read_by_wave(rule: PermissionRule) -> bool:
    """Wave reads this rule (the plan gives only Wave's own settings and `allowed-tools`):
    Wave has no `ask` rules."""
    return rule.behavior != "ask"


class WavePredictor:
    """What Wave does with a Bash command, given its rules (`check`)."""

    def __init__(self, rules: Iterable[PermissionRule], tool: str = "Bash",
                 directories: Sequence[Path] = (), mode: str | None = None,
                 problems: Sequence[str] = ()) -> None:
        self.tool = tool
        wave = [rule for rule in rules if rule.tool == tool and read_by_wave(rule)]
        self.deny = [rule for rule in wave if rule.behavior == "deny"]
        self.allow = [rule for rule in wave if rule.behavior == "allow"]
        self.directories = tuple(directories)
        self.mode = mode
        #: settings files that parse but fail Wave's validation (a JSON syntax error only skips
        #: its own file, as wave-lsp's loader does: the caller leaves those out)
        self.problems = list(problems)

    def check(self, command: str) -> Decision:
        decision = self._decide(command)
        if not self.problems:
            return decision
        own = [r for r in (*self.deny, *self.allow) if r.source == "allowed-tools"]
        bare = WavePredictor(own, self.tool, self.directories, None)._decide(command)
        if bare.outcome == decision.outcome:
            return decision
        return self._cannot_tell(f"a settings file it reads fails its validation "
                                 f"({self.problems[0]}), and Wave then drops its whole merged "
                                 "configuration", SETTINGS_FACT, decision.compound)

    def _cannot_tell(self, why: str, fact: str, compound: bool = False) -> Decision:
        return Decision(CANNOT_TELL, f"cannot tell whether Wave runs it: {why}", None, compound,
                        fact=fact, rule_can_allow=False)

    def _decide(self, command: str) -> Decision:
        try:
            parts = split_command(command)
        except TooDeep:
            return self._cannot_tell("its parentheses nest deeper than wave-lsp follows Wave's "
                                     "split", RULES_FACT)
        compound = len(parts) > 1
        for rule in self.deny:
            if matches(rule.raw, command, self.tool):
                return Decision("deny", DENIED_BY_RULE.format(tool=self.tool, rule=rule.raw),
                                rule, compound, fact=RULES_FACT, note=UNCHECKED_NOTE)
        if self.mode == "bypassPermissions":
            return Decision("allow", "allowed by `permissionMode: bypassPermissions`", None,
                            compound, fact=RULES_FACT)
        if self.mode == "acceptEdits" and self._safe_mkdir(command, parts):
            return Decision("allow", "allowed by `permissionMode: acceptEdits` (a `mkdir` inside "
                                     "the working directories)", None, fact=RULES_FACT)
        allowed = self._parts(parts, compound)
        if allowed is not None:
            return allowed
        unmatched = tuple(part_pattern(part) for part in parts if not self._part_allowed(part))
        # one allow rule helps only when one part lacks a rule (each part is matched alone)
        helps = len(unmatched) == 1
        if self.mode == "dontAsk":
            return Decision("deny", DONT_ASK.format(tool=self.tool), None, compound, unmatched,
                            rule_can_allow=helps, fact=RULES_FACT, note=UNCHECKED_NOTE)
        return Decision("ask", NO_CALLBACK.format(tool=self.tool), None, compound, unmatched,
                        rule_can_allow=helps, fact=RULES_FACT, note=UNCHECKED_NOTE)

    # parts -----------------------------------------------------------------------------------
    def _parts(self, parts: Sequence[str], compound: bool) -> Decision | None:
        """`isAllowedByRule`: every part allowed (None: some part is not)."""
        if not parts:
            return None
        ruled: list[PermissionRule] = []
        built_in: list[str] = []
        for part in parts:
            if self._auto_allowed(part):
                continue
            rule = next((r for r in self.allow if matches(r.raw, part, self.tool)), None)
            if rule is not None:
                ruled.append(rule)
                continue
            default = self._default_rule(part)
            if default is None:
                return None
            built_in.append(default)
        if ruled:
            rule = next((r for r in ruled if r.personal), ruled[0])
            return Decision("allow", f"allowed by `{rule.raw}` from {rule.source}", rule,
                            compound, fact=RULES_FACT)
        if built_in:
            return Decision("allow", f"allowed without a rule: Wave's built-in rule "
                                     f"`{built_in[0]}` allows it", None, compound,
                            read_only=True, fact=RULES_FACT)
        return Decision("allow", "allowed without a rule: Wave runs read-only commands as they "
                                 "are", None, compound, read_only=True, fact=READ_ONLY_FACT)

    def _part_allowed(self, part: str) -> bool:
        return (self._auto_allowed(part) or self._default_rule(part) is not None
                or any(matches(r.raw, part, self.tool) for r in self.allow))

    def _default_rule(self, part: str) -> str | None:
        if self.tool != "Bash" or dangerous_variant(part):
            return None
        return next((raw for raw in DEFAULT_ALLOWED_RULES if matches(raw, part, "Bash")), None)

    def _auto_allowed(self, part: str) -> bool:
        """`isAutoAllowedPart`: a read-only command, or a `cd` inside the working directories."""
        if self.tool != "Bash" or has_write_redirection(part) or has_command_substitution(part) \
                or has_process_substitution(part):
            return False
        found = leading_word(_command_forms(part).plain)
        if found is None or has_sed_in_place(part):
            return False
        name, arguments = found
        if name in READ_ONLY_COMMANDS:
            return not (name == "find" and is_dangerous_find(part))
        if name != "cd" or not self.directories:
            return False
        return all(self._inside(path) for path in _path_arguments(arguments))

    def _safe_mkdir(self, command: str, parts: Sequence[str]) -> bool:
        """acceptEdits: `mkdir <paths>` alone, every path inside the working directories."""
        if not command.strip().startswith("mkdir ") or len(parts) != 1:
            return False
        bare = strip_env_vars(parts[0])
        if not bare.startswith("mkdir "):
            return False
        paths = _path_arguments(bare[6:].strip())
        return bool(paths) and self.directories != () and all(self._inside(p) for p in paths)

    def _inside(self, target: str) -> bool:
        """`isInsideSafeZone`: inside the folder Wave starts in or an additional directory, by
        the real path (`isPathInside`)."""
        base = str(self.directories[0])
        real = os.path.realpath(os.path.join(base, target))
        return any(_within(real, os.path.realpath(folder)) for folder in self.directories)


def _within(path: str, folder: str) -> bool:
    relative = os.path.relpath(path, folder)
    return not relative.startswith("..") and not os.path.isabs(relative)


def _path_arguments(arguments: str) -> list[str]:
    """The non-option words of `cd`'s or `mkdir`'s arguments, one pair of quotes removed."""
    found = []
    for word in tokens(arguments):
        if word.startswith("-"):
            continue
        if len(word) >= 2 and word[0] in "\"'" and word[-1] in "\"'":
            word = word[1:-1]
        found.append(word)
    return found


def part_pattern(part: str) -> str:
    """The text of a part a rule is matched against (`matchesRule`): an exact rule for a part is
    `Bash(<this>)`."""
    forms = _command_forms(part)
    return forms.bare if forms.writes else forms.plain


def dangerous_variant(part: str) -> bool:
    """What default rules never allow: a write redirection, `find -exec`, a substitution or
    `sed -i` (`isAllowedByRule`)."""
    return (has_write_redirection(part) or is_dangerous_find(part)
            or has_command_substitution(part) or has_process_substitution(part)
            or has_sed_in_place(part))


@lru_cache(maxsize=4096)
def matches(raw: str, command: str, tool: str = "Bash") -> bool:
    """`matchesRule` for a shell command: `raw` as written (`Bash`, `Bash(pattern)`)."""
    parsed = _rule_pattern(raw)
    if parsed is None:
        return False
    name, pattern = parsed
    if pattern is None:
        return name == tool
    if name != tool:
        return False
    forms = _command_forms(command)
    writes = _pattern_writes(pattern)
    if forms.writes and not writes:
        return False
    processed, scoped = (forms.bare, forms.bare_scoped) if writes else (forms.plain,
                                                                          forms.plain_scoped)
    return glob_matches(pattern, processed) or glob_matches(pattern, scoped)


@dataclass(frozen=True, slots=True)
class _CommandForms:
    """What `matchesRule` compares a rule's pattern with, computed once per command (every
    rule of the settings and the 40 default rules ask for the same forms)."""

    writes: bool        #: the command has a write redirection
    bare: str           #: environment assignments stripped
    bare_scoped: str    #: and git's scope options (`-C dir`) stripped
    plain: str          #: environment assignments and redirections stripped
    plain_scoped: str   #: and git's scope options stripped


@lru_cache(maxsize=4096)
def _command_forms(command: str) -> _CommandForms:
    bare = strip_env_vars(command)
    plain = strip_redirections(bare)
    return _CommandForms(has_write_redirection(command), bare, strip_git_scope(bare), plain,
                         strip_git_scope(plain))


@lru_cache(maxsize=1024)
def _rule_pattern(raw: str) -> tuple[str, str | None] | None:
    return rule_pattern(raw)


@lru_cache(maxsize=1024)
def _pattern_writes(pattern: str) -> bool:
    return has_write_redirection(pattern)
