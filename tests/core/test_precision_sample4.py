"""Issue 37, the fourth unseen sample (benchmarks/RESULTS.md *Precision on a fourth unseen
sample*): each mechanism that made a false error or warning there, decided from the skill's own
words, its folders or the runtimes' facts, with the counterpart that stays reported (recall)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run

HEAD = "---\nname: {name}\ndescription: Makes weekly reports. Use when asked for one.\n---\n"


def codes(report, code: str) -> list:
    return [f for f in report.findings if f.code == code]


# -- SK150: an annotation or a decorator is code, not an `@` file --------------------------------
@pytest.mark.parametrize(("line", "reported"), [
    ("Use `@Acl(allow = @Acl.Matcher(principal = Acl.Principal.ALL))` on it.", False),
    ("Mark it `@Acl.Matcher` when internal.", False),
    ("Route it with `@app.route(\"/x\")` in Flask.", False),
    ("Read @docs/guide.md first.", True),
    ("Read @notes.md first.", True),
    ("Read @./Notes.Md first.", True),
])
def test_an_annotation_is_not_an_at_file(tmp_path: Path, line: str, reported: bool) -> None:
    text = HEAD.format(name="my-skill") + "\n" + line + "\n"
    found = codes(run(tmp_path, text, target="claude-code",
                      relpath=".claude/skills/my-skill/SKILL.md",
                      files={".git/HEAD": ""}), "SK150")
    assert bool(found) is reported, [f.message for f in found]


# -- SK112: a path of the user's project, not of the skill --------------------------------------
PROBE = "```bash\nls Makefile *.mk scripts/dev.sh 2>/dev/null\n```\n"
SETUP = "```bash\nmkdir -p scripts/ralph\ncp /path/to/ralph/ralph.sh scripts/ralph/\n```\n"


@pytest.mark.parametrize(("body", "files", "reported"), [
    (PROBE, {}, False),
    (PROBE + "\nFor every candidate `scripts/dev.sh`: read it first.\n", {}, False),
    ("```bash\nif [ -f scripts/dev.sh ]; then make dev; fi\n```\n", {}, False),
    (SETUP + "\nThen run:\n\n```bash\n./scripts/ralph/ralph.sh 25\n```\n", {}, False),
    ("Set up (creating `specs/`, `scripts/`, `logs/`), then:\n\n```bash\n"
     "./scripts/ralph-loop.sh 20\n```\n", {}, False),
    ("Sample grouping for a typical repo:\n\n- Auditor A: `scripts/AGENTS.md` + `x`\n", {},
     False),
    ("Copy `scripts/hook.sh` into your project.\n", {}, False),
    # the skill's own files stay reported
    ("```bash\nbash scripts/dev.sh 2>/dev/null\n```\n", {}, True),
    ("Run `python scripts/report.py` now.\n", {}, True),
    (SETUP + "\nThen run `python scripts/ralph/x.py`.\n", {"my-skill/scripts/other.py": ""},
     True),
    ("- Auditor A: `scripts/AGENTS.md` (run `python scripts/x.py`)\n", {}, True),
])
def test_a_path_of_the_users_project(tmp_path: Path, body: str, files: dict[str, str],
                                     reported: bool) -> None:
    text = HEAD.format(name="my-skill") + "\n" + body
    found = codes(run(tmp_path, text, files={".git/HEAD": "", **files}), "SK112")
    assert bool(found) is reported, [f.message for f in found]
