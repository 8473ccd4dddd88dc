"""The permission engine: may this shell command run? (docs/design/product.md *Permission engine*,
docs/design/runtime-facts.md §3.8 and §8.7).

One engine for everything that asks: the invocation preview, the SK123–SK125 diagnostics and the
injection hovers. Rules come from the settings files of the target (`~/.wave/settings.json`,
`<project>/.wave/settings.json`, `<project>/.wave/settings.local.json`; `.claude/…` for
`claude-code`; plus files named in the `settingsFiles` setting) under `permissions.allow|ask|deny`,
and from the skill's resolved `allowed-tools` as allow rules. Evaluation follows Claude Code's Bash
tool: tool-wide deny, tool-wide ask, then specific deny and ask rules (which match the whole command
and every part of it), then exact allow, then prefix/wildcard allow for every part of a compound
command (split with a real shell parser, bashlex), then tool-wide allow; no match means "ask", and a
skill load cannot ask, so it is denied. Prefix and wildcard rules never allow a part that contains
`$(…)`, backticks, `$VAR` expansions or process substitution, and never match an unsplit compound.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from wave_lsp.core.runtime.profiles import RuntimeProfile
from wave_lsp.core.runtime.toolrules import parse_rule, unescaped_positions

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
        if self.content is None:
            return "tool"
        if re.fullmatch(r"(.+):\*", self.content, re.S):
            return "prefix"
        if _unescaped_stars(self.content):
            return "wildcard"
        return "exact"

    @property
    def where(self) -> str:
        if self.source == "allowed-tools" or self.path is None:
            return self.source
        return f"{self.source} ({self.path})"

    def matches(self, command: str) -> bool:
        """Whether this rule matches one (already normalised) simple command."""
        kind = self.kind
        if kind == "tool":
            return True
        assert self.content is not None
        if kind == "exact":
            return command == _unescape(self.content)
        if kind == "prefix":
            prefix = _unescape(self.content[:-2])
            return command == prefix or command.startswith(prefix + " ")
        return _wildcard(self.content).fullmatch(command) is not None


def _unescaped_stars(content: str) -> list[int]:
    return unescaped_positions(content, "*")


def _unescape(text: str) -> str:
    """`parse_rule` already resolved `\\(`, `\\)` and `\\\\`; a literal star is written `\\*`."""
    return text.replace("\\*", "*")


@lru_cache(maxsize=512)
def _wildcard(content: str) -> re.Pattern[str]:
    stars = _unescaped_stars(content)
    optional_tail = content.endswith(" *") and len(stars) == 1
    body = content[:-2] if optional_tail else content
    pattern, index = [], 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            pattern.append(re.escape(body[index + 1]))
            index += 2
            continue
        pattern.append(".*" if char == "*" else re.escape(char))
        index += 1
    return re.compile("".join(pattern) + ("( .*)?" if optional_tail else ""), re.S)


# -- sources ----------------------------------------------------------------------------------
@dataclass(slots=True)
class RuleSet:
    rules: list[PermissionRule] = field(default_factory=list)
    #: settings files that exist but cannot be used, with why
    problems: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  #: the settings files consulted

    def extend(self, other: RuleSet) -> None:
        self.rules += other.rules
        self.problems += other.problems
        self.files += other.files


def settings_files(profile: RuntimeProfile, project_root: Path | None, home: Path | None,
                   personal: bool = True, extra: Iterable[str] = ()) -> list[tuple[str, Path, bool]]:
    """(label, path, personal) of every settings file the target reads, lowest precedence first."""
    folder = profile.settings_folder
    files: list[tuple[str, Path, bool]] = []
    if personal and home is not None:
        files.append(("user settings", home / folder / "settings.json", True))
    if project_root is not None:
        files.append(("project settings", project_root / folder / "settings.json", False))
        files.append(("local project settings", project_root / folder / "settings.local.json",
                      False))
    for item in extra:
        path = Path(item).expanduser()
        if not path.is_absolute() and project_root is not None:
            path = project_root / path
        files.append(("settings file", path, False))
    return files


def load_settings(label: str, path: Path, personal: bool) -> RuleSet:
    """The `permissions.allow|ask|deny` rules of one settings file (missing file: no rules);
    read again only when the file changes."""
    try:
        info = path.stat()
    except OSError:
        return RuleSet()
    cached = _load_settings(label, path, personal, info.st_mtime_ns, info.st_size)
    return RuleSet(list(cached.rules), list(cached.problems), list(cached.files))


@lru_cache(maxsize=64)
def _load_settings(label: str, path: Path, personal: bool, _mtime: int, _size: int) -> RuleSet:
    result = RuleSet()
    try:
        if not path.is_file():
            return result
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        result.problems.append(f"{path}: cannot be read as JSON ({error})")
        return result
    result.files.append(path)
    permissions = data.get("permissions") if isinstance(data, dict) else None
    if not isinstance(permissions, dict):
        return result
    for behavior in BEHAVIORS:
        entries = permissions.get(behavior, [])
        if not isinstance(entries, list):
            result.problems.append(f"{path}: permissions.{behavior} is not a list")
            continue
        for entry in entries:
            if isinstance(entry, str):
                rule = make_rule(entry, behavior, label, path, personal)
                if rule is not None:
                    result.rules.append(rule)
    return result


def make_rule(raw: str, behavior: str, source: str, path: Path | None = None,
              personal: bool = False) -> PermissionRule | None:
    parsed = parse_rule(raw.strip())
    if not parsed.tool:
        return None
    content = parsed.content
    if content is not None and content.strip() in ("", "*"):
        content = None
    return PermissionRule(raw.strip(), parsed.tool, content, behavior, source, path, personal)


# -- splitting ----------------------------------------------------------------------------------
@dataclass(slots=True)
class Part:
    text: str  #: the simple command as written
    #: redirections removed (what prefix and wildcard rules see)
    bare: str
    expansion: str | None = None  #: "command substitution", "parameter expansion", …


@dataclass(slots=True)
class Split:
    parts: list[Part]
    compound: bool
    problem: str | None = None  #: why the command cannot be split safely


def split_command(command: str) -> Split:
    """The simple commands of a shell command line, with a real parser (bashlex)."""
    import bashlex  # heavy-ish and only needed here

    try:
        trees = bashlex.parse(command)
    except Exception as error:
        return Split([], True, f"cannot be parsed as a shell command ({type(error).__name__})")
    parts: list[Part] = []
    operators = 0
    problem: str | None = None
    stack = list(trees)
    if len(trees) > 1:
        operators += 1
    while stack:
        node = stack.pop(0)
        kind = node.kind
        if kind in ("list", "pipeline"):
            operators += sum(1 for p in node.parts if p.kind in ("operator", "pipe"))
            stack[:0] = [p for p in node.parts if p.kind not in ("operator", "pipe")]
        elif kind == "command":
            parts.append(_part(command, node, stack))
        elif kind in ("compound", "if", "for", "while", "until", "function", "case"):
            problem = problem or f"contains a {kind} statement"
            operators += 1
    return Split(parts, operators > 0 or len(parts) > 1, problem)


def _part(command: str, node: Any, stack: list[Any]) -> Part:
    start, end = node.pos
    text = command[start:end]
    cut: list[tuple[int, int]] = []
    expansion = None
    for child in node.parts:
        if child.kind == "redirect":
            cut.append(child.pos)
        for inner in _walk(child):
            if inner.kind == "commandsubstitution":
                expansion = expansion or "command substitution"
                stack.append(inner.command)
            elif inner.kind == "processsubstitution":
                expansion = expansion or "process substitution"
                stack.append(inner.command)
            elif inner.kind == "parameter":
                expansion = expansion or "parameter expansion"
    bare = text
    for cut_start, cut_end in sorted(cut, reverse=True):
        bare = bare[: cut_start - start] + bare[cut_end - start :]
    return Part(text.strip(), " ".join(bare.split()), expansion)


def _walk(node: Any) -> Iterable[Any]:
    yield node
    for child in getattr(node, "parts", None) or []:
        yield from _walk(child)
    inner = getattr(node, "output", None)
    if inner is not None and hasattr(inner, "kind"):
        yield from _walk(inner)


def _strip(command: str, assignments: re.Pattern[str]) -> str:
    """Leading assignments and safe wrappers removed (repeatedly)."""
    previous = None
    while previous != command:
        previous = command
        command = assignments.sub("", command, count=1)
        command = SAFE_WRAPPERS.sub("", command, count=1)
    return command.strip()


# -- decisions ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Decision:
    behavior: str  #: "allow", "ask" or "deny"
    reason: str
    rule: PermissionRule | None = None
    compound: bool = False
    #: the parts that no rule allows (for compound commands)
    unmatched: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        return self.behavior == "allow"

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.behavior, "reason": self.reason,
                "rule": self.rule.raw if self.rule else None,
                "ruleSource": self.rule.where if self.rule else None}


class PermissionEngine:
    def __init__(self, rules: Iterable[PermissionRule], tool: str = "Bash") -> None:
        self.tool = tool
        self.rules = [rule for rule in rules if rule.tool == tool]

    def _of(self, behavior: str, kind: str | None = None) -> list[PermissionRule]:
        return [r for r in self.rules if r.behavior == behavior
                and (kind is None or (r.kind == "tool") == (kind == "tool"))]

    def check(self, command: str) -> Decision:
        command = command.strip()
        for behavior in ("deny", "ask"):
            for rule in self._of(behavior, "tool"):
                return self._blocked(rule, command)
        split = split_command(command)
        candidates = [command] + [p.text for p in split.parts]
        for behavior in ("deny", "ask"):
            for rule in self._of(behavior, "specific"):
                if any(rule.matches(_strip(text, ANY_ASSIGNMENT)) or rule.matches(text)
                       for text in candidates):
                    return self._blocked(rule, command)
        for rule in self._of("allow", "specific"):
            if rule.kind == "exact" and rule.matches(command):
                return Decision("allow", f"allowed by `{rule.raw}` from {rule.source}", rule,
                                split.compound)
        tool_wide = next(iter(self._of("allow", "tool")), None)
        if split.problem is not None:
            if tool_wide is not None:
                return Decision("allow", f"allowed by `{tool_wide.raw}` from {tool_wide.source}",
                                tool_wide, True)
            return Decision("ask", f"This {self.tool} command {split.problem}: only an exact rule "
                                   "can allow it, and an injected command cannot ask for approval",
                            None, True, (command,))
        return self._allow_parts(command, split, tool_wide)

    def _allow_parts(self, command: str, split: Split,
                     tool_wide: PermissionRule | None) -> Decision:
        matched: list[PermissionRule] = []
        unmatched: list[Part] = []
        for part in split.parts:
            rule = self._allowing(part, split.compound)
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
        return Decision("ask", self._why_not(command, split, unmatched), None, split.compound,
                        tuple(p.text for p in unmatched) or (command,))

    def _allowing(self, part: Part, compound: bool) -> PermissionRule | None:
        safe = _strip(part.bare, SAFE_ASSIGNMENT)
        for rule in self._of("allow", "specific"):
            if rule.kind == "exact":
                if rule.matches(part.text) or rule.matches(safe):
                    return rule
            elif part.expansion is None and rule.matches(safe):
                return rule
        return None

    def _why_not(self, command: str, split: Split, unmatched: list[Part]) -> str:
        if split.compound and unmatched:
            listed = ", ".join(f"`{p.text}`" for p in unmatched)
            return (f"This {self.tool} command contains multiple operations. The following "
                    f"part{'s' if len(unmatched) > 1 else ''} require{'' if len(unmatched) > 1 else 's'}"
                    f" approval: {listed}")
        part = unmatched[0] if unmatched else None
        if part is not None and part.expansion is not None:
            return (f"This {self.tool} command contains {part.expansion}: prefix and wildcard "
                    "rules never allow it, and an injected command cannot ask for approval")
        return (f"This {self.tool} command requires approval: no allow rule matches `{command}`, "
                "and an injected command cannot ask for approval")

    def _blocked(self, rule: PermissionRule, command: str) -> Decision:
        if rule.behavior == "deny":
            return Decision("deny", f"Permission to use {self.tool} with command {command} has been "
                                    "denied.", rule)
        return Decision("ask", f"Permission rule '{rule.raw}' from {rule.where} requires approval "
                               f"for this {self.tool} command", rule)


def narrowest_rule(command: str, tool: str = "Bash") -> str:
    """The exact rule that allows `command` and nothing else (parentheses escaped)."""
    escaped = command.strip().replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    escaped = escaped.replace("*", "\\*")
    return f"{tool}({escaped})"
