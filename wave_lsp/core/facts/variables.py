"""The `${…}` placeholders of the runtimes: what each means and where it may stand. Which of them
a target substitutes is its profile's `variables` (`wave_lsp.core.facts.profiles`).

Sources: docs/design/product.md *Preview* step 3, docs/design/runtime-facts.md §3.6 (Claude Code) and §4.4
(Wave). Used by SK086 and SK117, by completion and hover, and by the invocation preview.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_.]*)\}")


@dataclass(frozen=True, slots=True)
class Variable:
    """A `${…}` placeholder a runtime substitutes: what it stands for, where it may stand."""

    name: str
    description: str
    plugin_only: bool = False
    #: substituted inside `allowed-tools` rules too
    in_rules: bool = True
    #: only meaningful inside injected shell commands
    shell_only: bool = False
    #: a few words for a value known only when the skill runs (the inlay hints show them rather
    #: than a preview's stand-in value); None: the value follows from where the skill is
    at_run_time: str | None = None


VARIABLES: tuple[Variable, ...] = (
    Variable("WAVE_SKILL_DIR", "the absolute path of the skill folder"),
    Variable("CLAUDE_SKILL_DIR", "the absolute path of the skill folder"),
    Variable("WAVE_PLUGIN_ROOT", "the root folder of the plugin that ships the skill",
             plugin_only=True),
    Variable("CLAUDE_PLUGIN_ROOT", "the root folder of the plugin that ships the skill",
             plugin_only=True),
    Variable("CLAUDE_PLUGIN_DATA", "a persistent data folder of the plugin", plugin_only=True,
             at_run_time="plugin data folder"),
    Variable("WAVE_SESSION_ID", "the id of the current session", at_run_time="per session"),
    Variable("CLAUDE_SESSION_ID", "the id of the current session", at_run_time="per session"),
    Variable("CLAUDE_PROJECT_DIR", "the project root"),
    Variable("CLAUDE_EFFORT", "the effort level of the turn (`low`, `medium`, `high`, `xhigh`, "
             "`max`): `CLAUDE_CODE_EFFORT_LEVEL`, else the skill's `effort`, else the settings' "
             "`effortLevel`, else `medium`", in_rules=False),
    Variable("WAVE_ARGUMENTS_FILE",
             "the absolute path of a file holding the raw arguments (injected commands only)",
             in_rules=False, shell_only=True, at_run_time="temporary file"),
)

_BY_NAME = {variable.name: variable for variable in VARIABLES}


def variable(name: str) -> Variable | None:
    return _BY_NAME.get(name)
