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
#: the same skill where Cursor finds it: it does not scan `.agents/skills` (runtime-facts.md
#: §9.1), so a Cursor check of RELPATH says only that (docs/design/rules.md *A target speaks of
#: what it loads*)
CURSOR_RELPATH = ".cursor/skills/my-skill/SKILL.md"


def relpath_for(target: str) -> str:
    """Where the colon skill lies for `target`: a skills root it scans."""
    return CURSOR_RELPATH if target == "cursor" else RELPATH
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
    #: an error that does not claim the skill is dropped: Cursor's loader is not documented, so
    #: its effect cell is `drops?` and the sentence says the drop is unverified
    "cursor": Expected("error", "unverified (from its documentation only): Cursor may not load",
                       True),
    "opencode": Expected("information", "OpenCode's colon retry rewrites the value", True),
    "gemini-cli": Expected("information", "Gemini CLI's line parser reads `name` and", True),
}


def write_colon_project(root: Path, target: str | None = None) -> Path:
    """A git project holding the skill in `.agents/skills` and, for Cursor, in `.cursor/skills`
    (no runtime scans both); the path `target` finds (`relpath_for`; None: `.agents/skills`)."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for relpath in (RELPATH, CURSOR_RELPATH):
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(COLON_SKILL, "utf-8")
    return root / (relpath_for(target) if target is not None else RELPATH)
