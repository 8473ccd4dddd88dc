"""Projects for issue 36's "targets speak of what they load" and "one default target", shared by
the command-line, language-server and MCP tests (docs/design/rules.md *A target speaks of what it
loads*, *The default target*).

`write_claude_project`: a `.claude/skills` project with no configuration, whose skills Claude Code
and Wave read differently, so that a surface defaulting to `wave` would disagree with `check`
(which picks `claude-code` from where the skills live). `LOADS` is what Claude Code does with
each (docs/design/runtime-facts.md §3): the unquoted `: ` is rescued by its quoting retry and the
never-closed frontmatter read as the body (Wave loads neither), the personal skill of the same
folder name wins over the project's (personal > project), and a SKILL.md two folders deep is not
found at all (so `list` has no row for it).

`write_codex_project`: Codex skills under `.codex/skills`, with tool names that are right for
Codex and unknown to Claude Code, beside one Claude Code skill.
"""

from __future__ import annotations

from pathlib import Path

GOOD = "---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\nBody\n"
COLON = "---\nname: colon\ndescription: Use when: the user asks\n---\nBody\n"
UNCLOSED = "---\nname: unclosed\ndescription: Never closed. Use when asked.\nBody\n"
MANUAL = ("---\nname: manual\ndescription: Run by hand. Use when asked.\n"
          "user-invocable: false\n---\nBody\n")

#: the project's skills (paths from the project root) and whether Claude Code loads each, with the
#: rule `check`, `list` and the MCP tools name when it does not
LOADS: dict[str, tuple[bool, str | None]] = {
    ".claude/skills/colon/SKILL.md": (True, None),
    ".claude/skills/good/SKILL.md": (True, None),
    ".claude/skills/manual/SKILL.md": (True, None),
    ".claude/skills/shared/SKILL.md": (False, "SK130"),
    ".claude/skills/team/nested/SKILL.md": (False, "SK002"),
    ".claude/skills/unclosed/SKILL.md": (True, None),
}
#: the one `list` cannot show: Claude Code does not find it
NOT_FOUND = ".claude/skills/team/nested/SKILL.md"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def write_claude_project(root: Path, home: Path) -> None:
    """The `.claude/skills` project of `LOADS` in `root` (a git repository), and the personal
    skill that shadows `shared` in `home`."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    write(root / ".claude/skills/good/SKILL.md", GOOD.format(name="good"))
    write(root / ".claude/skills/colon/SKILL.md", COLON)
    write(root / ".claude/skills/unclosed/SKILL.md", UNCLOSED)
    write(root / ".claude/skills/manual/SKILL.md", MANUAL)
    write(root / ".claude/skills/shared/SKILL.md", GOOD.format(name="shared"))
    write(root / NOT_FOUND, GOOD.format(name="nested"))
    write(home / ".claude/skills/shared/SKILL.md", GOOD.format(name="shared"))


#: a Codex skill: `shell` and `apply_patch` are Codex's tools, unknown to Claude Code (SK083
#: there), and `$1` is Codex's literal text
CODEX_SKILL = ("---\nname: {name}\ndescription: Patches {name}. Use when asked.\n"
               "allowed-tools: shell, apply_patch\n---\nPatch $1 with apply_patch.\n")


def write_codex_project(root: Path, count: int = 3) -> list[Path]:
    """`count` Codex skills under `.codex/skills` and one Claude Code skill; the Codex paths."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    write(root / ".claude/skills/good/SKILL.md", GOOD.format(name="good"))
    return [write(root / f".codex/skills/fix{index}/SKILL.md", CODEX_SKILL.format(name=f"fix{index}"))
            for index in range(count)]
