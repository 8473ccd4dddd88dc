"""One skill that each of the five targets of issue 28 reads differently, and what each reports, so
that the command line, the language server and the MCP server are each tested per target on a
finding that only that target gives (docs/design/targets-facts.md *Every surface*).

The skill's `description` holds an unquoted `: `. docs/design/runtime-facts.md §9.6: Codex reads the value as
text (0.171.0, measured by the differential harness), VS Code keeps the fields its parser recovers,
OpenCode's colon retry rewrites the value, Gemini CLI's line parser reads `name` and `description`
from their lines, and Cursor documents nothing, so its strict reading says it rests on the
documentation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: the new targets, in catalog column order
NEW_TARGETS = ("codex", "copilot", "cursor", "opencode", "gemini-cli")
RELPATH = ".agents/skills/my-skill/SKILL.md"
COLON_SKILL = "---\nname: my-skill\ndescription: Use when: the user asks\n---\nBody\n"
#: where the finding is: line 3 (0-based 2), after `description: `
COLON_LINE, COLON_CHARACTER = 2, 13


@dataclass(frozen=True)
class Expected:
    severity: str  #: as `check --format json` spells it
    says: str  #: a phrase only this target's message has
    loads: bool  #: the target's load verdict


COLON_FINDING = "SK021"
EXPECTED = {
    "codex": Expected("information", "Codex reads the value as text and loads the skill", True),
    "copilot": Expected("warning", "VS Code marks the error and keeps only the fields", True),
    #: an error that does not claim the skill is dropped: Cursor's loader is not documented
    "cursor": Expected("error", "as Cursor's is assumed to be, cannot load", True),
    "opencode": Expected("information", "OpenCode's colon retry rewrites the value", True),
    "gemini-cli": Expected("information", "Gemini CLI's line parser reads `name` and", True),
}


def write_colon_project(root: Path) -> Path:
    """A git project holding the skill in `.agents/skills` (which Cursor does not scan, so a
    Cursor check names the file explicitly); the skill's path."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    path = root / RELPATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(COLON_SKILL, "utf-8")
    return path
