"""`paths` patterns stay bounded (issue 35 item 3): brace lists expand without recursion and to at
most `MAX_EXPANSIONS` patterns; the hover that counts matching files uses the linear `.gitignore`
matcher (any number of stars), and stops counting at its time budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_features import at
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.engine import check_document
from wave_lsp.core.features.hover import hover
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.runtime.conditional import MAX_EXPANSIONS, path_patterns
from wave_lsp.core.workspace.location import locate


@pytest.mark.parametrize(("value", "expected"), [
    ("src/{a,b}/{c,d}.ts", ["src/a/c.ts", "src/a/d.ts", "src/b/c.ts", "src/b/d.ts"]),
    ("x{a,{b,c}}y", ["xay", "xby", "xay", "xcy"]),  # innermost first, as before
    ("a/**, b/*.md", ["a", "b/*.md"]),
    ("{}" * 5_000, ["{}" * 5_000]),  # 5,000 levels: once a RecursionError; now left as written
])
def test_brace_expansion(value: str, expected: list[str]) -> None:
    assert path_patterns(value) == expected


def test_brace_expansion_is_capped() -> None:
    patterns = path_patterns("{a,b}" * 30)  # 2**30 patterns written out
    assert len(patterns) == MAX_EXPANSIONS
    assert patterns[0] == "a" * 30 and patterns[1] == "a" * 29 + "b"


@pytest.mark.parametrize("value", ["{a,b}" * 3_000, "{}" * 5_000])
def test_a_huge_brace_list_is_checked_without_a_crash(value: str) -> None:
    """`strict` re-raises any rule's exception (the RecursionError `{}` x 5,000 used to raise);
    the `paths` value is a valid pattern, so no finding is due."""
    text = f"---\nname: s\ndescription: Does s. Use when asked.\npaths: \"{value}\"\n---\nBody\n"
    findings = check_document(SkillDocument.from_text(text), locate(None),
                              Settings.for_target("claude-code"), strict=True)
    assert findings == []


def test_paths_hover_counts_with_a_pathological_pattern(tmp_path: Path) -> None:
    """pathspec's regex backtracked for hours on the 200 `a`s; the linear matcher counts."""
    (tmp_path / ("a" * 200)).write_text("", "utf-8")
    (tmp_path / ("a" * 60 + "b")).write_text("", "utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src/x.ts").write_text("", "utf-8")
    stars = "*a" * 50 + "*b"
    context, offset = at(f'---\npaths:\n  - "{stars}‸"\n---\n', tmp_path / ".wave/skills/x/SKILL.md")
    found = hover(context, offset)
    assert found is not None and found.markdown.startswith("**paths** — 1 of 3 files")
    assert f"`{'a' * 60}b`" in found.markdown
    context, offset = at('---\npaths:\n  - "src/*.ts‸"\n---\n', tmp_path / ".wave/skills/x/SKILL.md")
    found = hover(context, offset)
    assert found is not None and found.markdown.startswith("**paths** — 1 of 3 files")
