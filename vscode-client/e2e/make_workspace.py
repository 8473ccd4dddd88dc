"""The workspace the editor test opens: skills with known problems (one of them in the folder the
test maps back to VS Code's own `skill` language), one that previews cleanly, and a CLAUDE.md that
mentions a skill and a name no skill provides (references, SK152)."""

import sys
from pathlib import Path

SKILLS = {
    # SK123 needs a command Wave refuses: `gh pr list` (Wave's own default rules allow `git
    # branch …`, so the wave target's prediction runs it: docs/design/runtime-facts.md §8.12)
    "broken": (
        "---\n"
        "name: broken\n"
        "description: Checks things. Use when asked.\n"
        "user-invocable: yes\n"
        "name: broken\n"
        "---\n"
        "Open pull requests: !`gh pr list`\n"
    ),
    # the same problems, in the one folder the test's user settings map to VS Code's own `skill`
    # language (files.associations): VS Code's checks run there, and only there
    "control": (
        "---\n"
        "name: control\n"
        "description: Checks things. Use when asked.\n"
        "user-invocable: yes\n"
        "name: control\n"
        "---\n"
        "Open pull requests: !`gh pr list`\n"
    ),
    "good": (
        "---\n"
        "name: good\n"
        "description: Greets people. Use when the user asks for a greeting.\n"
        "\n"
        "---\n"
        "# Greeting\n\nSay hello to $ARGUMENTS from ${WAVE_SKILL_DIR}.\n"
    ),
    # the completion checks type into this one, so that no other check sees their typing
    "typing": (
        "---\n"
        "name: typing\n"
        "description: Greets people. Use when the user asks for a greeting.\n"
        "\n"
        "---\n"
        "# Greeting\n\nSay hello to $ARGUMENTS.\n"
    ),
}


#: a memory file that mentions skills: `/good` (found by references) and `/goood`, which no skill
#: provides (SK152, "Did you mean `/good`?")
CLAUDE = "# Project\n\nGreet with /good. Never /goood.\n"


def main() -> None:
    root = Path(sys.argv[1])
    (root / ".git").mkdir(parents=True, exist_ok=True)
    (root / "CLAUDE.md").write_text(CLAUDE, "utf-8")
    for name, text in SKILLS.items():
        path = root / ".wave" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


if __name__ == "__main__":
    main()
