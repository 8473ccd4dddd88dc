"""`paths` patterns stay bounded (issue 35 item 3): brace lists expand without recursion and to at
most `MAX_EXPANSIONS` patterns; the hover that counts matching files uses the linear `.gitignore`
matcher (any number of stars), and stops counting at its time budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_features import at
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.engine import check_document
from wave_lsp.core.facts.conditional import MAX_EXPANSIONS, path_patterns
from wave_lsp.core.features.hover import hover
from wave_lsp.core.parsing.document import SkillDocument
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


def test_the_expansion_budget_is_per_paths_value() -> None:
    """A list of `{a,b}…` items shares one budget: the first spends it, the others stay as
    written (each costs its own text), so the value yields MAX_EXPANSIONS patterns plus one per
    item, not MAX_EXPANSIONS per item."""
    item = "{a,b}" * 11  # 2,048 patterns written out
    patterns = path_patterns([item] * 50 + ["src/*.ts"])
    assert len(patterns) == MAX_EXPANSIONS + 50
    assert patterns[:2] == ["a" * 11, "a" * 10 + "b"]
    assert patterns[MAX_EXPANSIONS:] == [item] * 49 + ["src/*.ts"]
    assert len(path_patterns(",".join([item] * 50))) == MAX_EXPANSIONS + 49


def _sk099(paths: str) -> list[str]:
    text = f"---\nname: s\ndescription: Does s. Use when asked.\npaths: {paths}\n---\nBody\n"
    findings = check_document(SkillDocument.from_text(text), locate(None),
                              Settings.for_target("claude-code"), strict=True)
    return [finding.message for finding in findings if finding.code == "SK099"]


@pytest.mark.parametrize(("paths", "invalid"), [
    ('"src/*.ts"', []),
    ('"foo\\\\"', ["foo\\"]),  # a trailing lone backslash
    ('"{a,b}\\\\, c"', ["a\\", "b\\"]),  # every expanded pattern is checked
    ('"a\\\\/b"', ["a\\/b"]),
    # a reversed range: pathspec's regex failed, git and the `ignore` library match nothing
    # with it, and the pattern parses (gitignore.parse_line)
    ('"[z-a]x, [z-ab]x"', []),
])
def test_sk099_checks_each_pattern_with_the_gitignore_parser(paths: str, invalid: list[str]
                                                             ) -> None:
    messages = _sk099(paths)
    assert [m.split("`")[1] for m in messages] == invalid, messages
    assert all("Invalid git pattern" in m and "never matches" in m for m in messages)
