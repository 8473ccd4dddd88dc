"""Permission rules: how a rule is written, what it matches, and a decision's shape
(docs/design/runtime-facts.md §3.8, its syntax and shell rule kinds; §8.7 for Wave).

A rule is `Tool` or `Tool(content)`; shell rules are exact, prefix (`cmd:*`) or wildcard (`*`).
`PermissionRule.matches` tests one already-normalised simple command (`_matcher` picks the kind;
wildcards are matched by `wildcard.py`). `Decision` is the shape both
decisions share: the prediction of what the runtime does (`prediction.py`) and wave-lsp's own
execution guard (`guard.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from wave_lsp.core.facts.toolrules import parse_rule, unescaped_positions
from wave_lsp.core.permissions.wildcard import wildcard_matcher

BEHAVIORS = ("deny", "ask", "allow")
#: `NAME=value` assignments that allow rules may skip (Claude Code's ENV_VAR_PATTERN)
SAFE_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=([A-Za-z0-9_./:-]+)[ \t]+")
ANY_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(?:'[^']*'|\"(?:[^\"\\]|\\.)*\"|[^\s'\"]*)[ \t]+")
#: wrappers that do not change what runs (timeout 5 cmd, nice -n 5 cmd, …)
SAFE_WRAPPERS = re.compile(
    r"^(?:timeout(?:[ \t]+-[A-Za-z-]+(?:[ \t]+[0-9.]+[smhd]?)?)*[ \t]+[0-9.]+[smhd]?|time|nohup|"
    r"nice(?:[ \t]+-n[ \t]*-?[0-9]+|[ \t]+-[0-9]+)?|stdbuf(?:[ \t]+-[ioe][ \t]*\S+)+|command|"
    r"builtin|noglob)[ \t]+")


@dataclass(frozen=True, slots=True)
class PermissionRule:
    raw: str
    tool: str
    content: str | None  #: None for a tool-wide rule (`Bash`, `Bash()`, `Bash(*)`)
    behavior: str  #: "allow", "ask" or "deny"
    source: str  #: "allowed-tools", "user settings", "project settings", …
    path: Path | None = None
    personal: bool = False

    @property
    def kind(self) -> str:
        return _rule_kind(self.content)

    @property
    def where(self) -> str:
        if self.source == "allowed-tools" or self.path is None:
            return self.source
        return f"{self.source} ({self.path})"

    def matches(self, command: str) -> bool:
        """Whether this rule matches one (already normalised) simple command."""
        return _matcher(self.content)(command)

    def matches_any(self, commands: Iterable[str]) -> bool:
        match = _matcher(self.content)
        return any(match(command) for command in commands)


@lru_cache(maxsize=1024)
def _matcher(content: str | None) -> Callable[[str], bool]:
    """The test of one rule's content against a command (built once per content)."""
    kind = _rule_kind(content)
    if kind == "tool" or content is None:
        return lambda command: True
    if kind == "exact":
        exact = _unescape(content)
        return lambda command: command == exact
    if kind == "prefix":
        prefix = _unescape(content[:-2])
        spaced = prefix + " "
        return lambda command: command == prefix or command.startswith(spaced)
    return wildcard_matcher(content)  # linear in rule and command (issue 35)


@lru_cache(maxsize=1024)
def _rule_kind(content: str | None) -> str:
    if content is None:
        return "tool"
    if re.fullmatch(r"(.+):\*", content, re.S):
        return "prefix"
    if _unescaped_stars(content):
        return "wildcard"
    return "exact"


def _unescaped_stars(content: str) -> list[int]:
    return unescaped_positions(content, "*")


@lru_cache(maxsize=1024)
def _unescape(text: str) -> str:
    """`parse_rule` already resolved `\\(`, `\\)` and `\\\\`; a literal star is written `\\*`."""
    return text.replace("\\*", "*")


def make_rule(raw: str, behavior: str, source: str, path: Path | None = None,
              personal: bool = False) -> PermissionRule | None:
    parsed = parse_rule(raw.strip())
    if not parsed.tool:
        return None
    content = parsed.content
    if content is not None and content.strip() in ("", "*"):
        content = None
    return PermissionRule(raw.strip(), parsed.tool, content, behavior, source, path, personal)



@dataclass(frozen=True, slots=True)
class Decision:
    """One decision about one command. As a prediction (`prediction.py`) `behavior` is "allow"
    (the runtime runs it), "ask" or "deny" (it refuses, `reason` in its own words where it has
    them) or "cannot-tell" (`reason` says why); `fact` names the runtime fact it rests on. As the
    guard's (`guard.py`) it is "allow", "ask" or "deny"."""

    behavior: str  #: "allow", "ask", "deny" or "cannot-tell"
    reason: str
    rule: PermissionRule | None = None
    compound: bool = False
    #: the parts that no rule allows (for compound commands)
    unmatched: tuple[str, ...] = ()
    #: allowed without a rule: every part is one of the runtime's read-only commands
    read_only: bool = False
    #: an allow rule for the exact command would allow it (False: no rule can, because the
    #: engine cannot model the command or it writes outside the project)
    rule_can_allow: bool = True
    #: the runtime fact the decision rests on (docs/design/runtime-facts.md), for a prediction
    fact: str | None = None
    #: where the runtime's specification and its code disagree about this decision, what the
    #: other says (Wave: the code does not check injected commands yet)
    note: str | None = None

    @property
    def allowed(self) -> bool:
        return self.behavior == "allow"

    @property
    def refused(self) -> bool:
        """The runtime refuses the command: the whole invocation aborts."""
        return self.behavior in ("ask", "deny")

    @property
    def unknown(self) -> bool:
        return self.behavior == CANNOT_TELL

    @property
    def outcome(self) -> str:
        """run, refused-ask, refused-deny or cannot-tell."""
        return {"allow": "run", "ask": "refused-ask", "deny": "refused-deny"}.get(
            self.behavior, CANNOT_TELL)

    def to_json(self) -> dict[str, Any]:
        found = {"decision": self.behavior, "outcome": self.outcome, "reason": self.reason,
                 "fact": self.fact, "rule": self.rule.raw if self.rule else None,
                 "ruleSource": self.rule.where if self.rule else None}
        if self.note is not None:
            found["note"] = self.note
        return found


#: a prediction that cannot tell what the runtime does
CANNOT_TELL = "cannot-tell"


def narrowest_rule(command: str, tool: str = "Bash", literal: bool = False) -> str:
    """The exact rule that allows `command` and nothing else (parentheses escaped). `literal`:
    Wave's matcher, which reads the pattern as written up to the last `)` and has no escapes
    (runtime-facts §8.12; a `*` in the command stays a wildcard)."""
    if literal:
        return f"{tool}({command.strip()})"
    escaped = command.strip().replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    escaped = escaped.replace("*", "\\*")
    return f"{tool}({escaped})"
