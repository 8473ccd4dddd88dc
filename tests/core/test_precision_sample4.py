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
