"""Values of the `${…}` placeholders for one skill, and their substitution (docs/design/product.md
*Preview* step 3).

The same substitution serves the invocation preview (body and `allowed-tools` rules) and the hovers
that say what a placeholder resolves to. A placeholder the target does not know, or one with no
value here (a plugin root outside a plugin), is left in place and reported as unresolved.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.variables import PLACEHOLDER, variable
from wave_lsp.core.invocation.skill_location import SkillLocation
from wave_lsp.core.parsing.document import FieldValues
from wave_lsp.core.permissions.settings import load_settings

#: the session id shown by previews when none is given
PREVIEW_SESSION_ID = "preview-session"


@dataclass(frozen=True, slots=True)
class VariableValues:
    profile: RuntimeProfile
    skill_dir: Path | None
    plugin_root: Path | None = None
    project_dir: Path | None = None
    session_id: str = PREVIEW_SESSION_ID
    arguments_file: Path | None = None
    effort: str | None = None  #: `${CLAUDE_EFFORT}` (`effort_level`)

    @staticmethod
    def for_location(location: SkillLocation, profile: RuntimeProfile,
                     session_id: str = PREVIEW_SESSION_ID,
                     arguments_file: Path | None = None,
                     effort: str | None = None) -> VariableValues:
        return VariableValues(profile=profile, skill_dir=location.skill_dir,
                              plugin_root=location.plugin.root if location.plugin else None,
                              project_dir=location.project_root, session_id=session_id,
                              arguments_file=arguments_file, effort=effort)

    def value(self, name: str, *, in_shell: bool = False) -> str | None:
        """The value of `${name}`, or None when it stays literal."""
        known = variable(name)
        if known is None or not self.profile.expands(name):
            return None
        if known.shell_only and not in_shell:
            return None
        values = {
            "WAVE_SKILL_DIR": self.skill_dir, "CLAUDE_SKILL_DIR": self.skill_dir,
            "WAVE_PLUGIN_ROOT": self.plugin_root, "CLAUDE_PLUGIN_ROOT": self.plugin_root,
            "CLAUDE_PLUGIN_DATA": None, "CLAUDE_PROJECT_DIR": self.project_dir,
            "WAVE_SESSION_ID": self.session_id, "CLAUDE_SESSION_ID": self.session_id,
            "CLAUDE_EFFORT": self.effort, "WAVE_ARGUMENTS_FILE": self.arguments_file,
        }
        found = values.get(name)
        return None if found is None else _posix(found)

    def why_unresolved(self, name: str) -> str:
        known = variable(name)
        if known is None or not self.profile.expands(name):
            return f"`${{{name}}}` is not a variable of the `{self.profile.name}` target"
        if known.plugin_only and self.plugin_root is None:
            return f"`${{{name}}}` has a value only in plugin skills"
        if known.shell_only:
            return f"`${{{name}}}` has a value only inside injected commands"
        return f"`${{{name}}}` has no value in a preview"


#: the effort levels (`effort`, `effortLevel`, `CLAUDE_CODE_EFFORT_LEVEL`), Claude Code 2.1.332
EFFORT_LEVELS = frozenset({"low", "medium", "high", "xhigh", "max"})
#: the environment variable that sets the effort over everything else
EFFORT_VARIABLE = "CLAUDE_CODE_EFFORT_LEVEL"


class Effort(NamedTuple):
    """`${CLAUDE_EFFORT}` for one skill, and what set it."""

    level: str
    source: str


def effort_level(values: FieldValues, profile: RuntimeProfile,
                 settings: list[tuple[str, Path, bool]]) -> Effort | None:
    """What `${CLAUDE_EFFORT}` becomes (None: the target has no effort), as Claude Code 2.1.332
    resolves the turn's effort (docs/design/runtime-facts.md §3.6; probes arg-effort*):
    `CLAUDE_CODE_EFFORT_LEVEL` (`auto`/`unset`: the default), else the skill's `effort` (a level
    in any case; a positive integer reads `high`; anything else is ignored), else the highest
    precedence `effortLevel` of `settings` (the files the runtime reads, lowest first), else
    the profile's `default_effort`. (A model that lacks `xhigh` or `max` reads `high`: the
    model is not predicted.)"""
    default = profile.default_effort
    if default is None:
        return None
    environment = os.environ.get(EFFORT_VARIABLE, "").strip().lower()
    if environment in ("auto", "unset"):
        return Effort(default, f"`{EFFORT_VARIABLE}={environment}`: the default")
    if environment in EFFORT_LEVELS:
        return Effort(environment, f"`{EFFORT_VARIABLE}`")
    written = values.value("effort")
    if isinstance(written, str) and written.strip().lower() in EFFORT_LEVELS:
        return Effort(written.strip().lower(), "the skill's `effort`")
    if isinstance(written, int) and not isinstance(written, bool) and written > 0:
        return Effort("high", "the skill's `effort` (a number reads `high`)")
    found = [(level, path) for _, path, _ in settings for level, path in
             load_settings("settings", path, False).efforts if level in EFFORT_LEVELS]
    if found:
        return Effort(found[-1][0], f"`effortLevel` in {found[-1][1]}")
    return Effort(default, "the default")


class Resolution(NamedTuple):
    """What `${name}` becomes in one place: `unknown` (the target does not substitute it),
    `user-config` (a plugin setting), `literal` (substituted elsewhere, left in place here),
    `run-time` (a value known only when the skill runs), `value` (`value` holds it) or `none` (no
    value in a preview)."""

    kind: Literal["unknown", "user-config", "literal", "run-time", "value", "none"]
    value: str | None = None


def resolve(name: str, values: VariableValues, *, in_shell: bool = False) -> Resolution:
    """How `${name}` resolves for the hovers and inlay hints (`in_shell`: inside an injected
    command)."""
    known = variable(name)
    if not values.profile.expands(name):
        return Resolution("unknown")
    if known is None:
        return Resolution("user-config")
    if (known.shell_only and not in_shell) or (known.plugin_only and values.plugin_root is None):
        return Resolution("literal")
    if known.at_run_time is not None:
        return Resolution("run-time")
    found = values.value(name, in_shell=in_shell)
    return Resolution("none") if found is None else Resolution("value", found)


def _posix(value: object) -> str:
    return value.as_posix() if isinstance(value, Path) else str(value)


@dataclass(slots=True)
class Substitution:
    text: str
    unresolved: list[str] = field(default_factory=list)  #: names left in place, in order


def substitute(text: str, values: VariableValues, *, in_shell: bool = False) -> Substitution:
    result = Substitution(text="")
    parts: list[str] = []
    position = 0
    for match in PLACEHOLDER.finditer(text):
        found = values.value(match.group(1), in_shell=in_shell)
        parts.append(text[position : match.start()])
        if found is None:
            parts.append(match.group(0))
            result.unresolved.append(match.group(1))
        else:
            parts.append(found)
        position = match.end()
    parts.append(text[position:])
    result.text = "".join(parts)
    return result
