"""Bounded glob expansion (wave_lsp/core/permissions/globbing.py): what `glob.glob` finds while the
budget lasts, and a clear "incomplete" under a folder that links to itself (issue 35 item 3)."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.core.permissions.globbing import MAX_GLOB_STEPS, bounded_glob
from wave_lsp.core.permissions.guard import StrictEngine as PermissionEngine
from wave_lsp.core.permissions.readonly import glob_problem
from wave_lsp.core.permissions.rules import make_rule


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Files, a hidden file and folder, a link to a folder, a dangling link and a link loop."""
    root = tmp_path_factory.mktemp("tree")
    for folder in ("a", "a/b", "ab", ".hid", "a/.x"):
        (root / folder).mkdir()
    for file in ("f.txt", "a/g.md", "a/b/h.md", "ab/f.txt", ".hid/k", ".dot", "a/.x/y"):
        (root / file).write_text("x\n", "utf-8")
    os.symlink("a", root / "la")
    os.symlink("missing", root / "dangling")
    os.symlink(".", root / "a" / "b" / "loop")
    return root


SEGMENTS = ["*", "?", "a*", "*.md", ".*", "a", "b", "f.txt", "loop", "la", "[ab]", "*b", ".hid",
            "dangling", "a/..", "."]  # no bare `..`: the tree is all the test may read


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5), st.booleans())
def test_same_matches_as_glob(tree: Path, segments: list[str], slash: bool) -> None:
    pattern = "/".join(segments) + ("/" if slash else "")
    expected = glob.glob(pattern, root_dir=tree)
    result = bounded_glob(pattern, root_dir=tree)
    assert result.complete and result.matches == expected


def test_absolute_patterns_match_glob(tree: Path) -> None:
    for pattern in (f"{tree}/*", f"{tree}/a/*/*", f"{tree}/*/b/loop/loop/*.md", f"{tree}/.*"):
        assert bounded_glob(pattern) == type(bounded_glob(pattern))(glob.glob(pattern), True)


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    """A folder with three links to itself: `*/*/*/…` reads it three times more at every level."""
    for name in ("self", "me", "here"):
        os.symlink(".", tmp_path / name)
    (tmp_path / "x").write_text("x\n", "utf-8")
    return tmp_path


def test_a_link_loop_stops_with_an_incomplete_result(loop: Path) -> None:
    result = bounded_glob("*/" * 40 + "x", root_dir=loop)
    assert not result.complete
    assert all(match.endswith("/x") for match in result.matches)
    shallow = bounded_glob("*/x", root_dir=loop)
    assert shallow.complete and sorted(shallow.matches) == ["here/x", "me/x", "self/x"]


def test_a_small_budget_is_respected(loop: Path) -> None:
    assert not bounded_glob("*/*/*", root_dir=loop, max_steps=10).complete
    assert not bounded_glob("*/*/*", root_dir=loop, max_matches=3).complete
    assert bounded_glob("*/*/*", root_dir=loop, max_steps=MAX_GLOB_STEPS).complete


def test_read_only_check_names_a_glob_too_large(loop: Path) -> None:
    pattern = "*/" * 40 + "x"
    problem = glob_problem("cat", pattern, loop)
    assert problem is not None and "too large a glob to check" in problem
    decision = PermissionEngine([], project=loop, profile=CLAUDE_CODE).check(f"cat {pattern}")
    assert not decision.allowed


def test_an_allow_rule_folder_with_a_link_loop_is_not_trusted(loop: Path) -> None:
    rule = make_rule(f"Bash(cat {loop}/*)", "allow", "allowed-tools")
    engine = PermissionEngine([rule], project=loop, profile=CLAUDE_CODE)
    assert not engine.check(f"cat {loop}/" + "*/" * 40 + "x").allowed
    assert engine.check(f"cat {loop}/x").allowed


def test_the_prediction_of_a_glob_under_a_link_loop_ends_and_says_it_cannot_tell(
        loop: Path) -> None:
    """Claude Code's own read-only check expands globs too (readonly_runtime.runtime_glob): under
    a folder that links to itself the prediction stops at the budget instead of exploding."""
    from wave_lsp.core.permissions.prediction import Predictor, RuntimeInputs

    predictor = Predictor([], profile=CLAUDE_CODE, inputs=RuntimeInputs((loop,)))
    decision = predictor.check("ls " + "*/" * 40 + "x")
    assert decision.behavior == "cannot-tell" and "too many paths" in decision.reason, decision
    assert predictor.check("ls */x").behavior == "allow"  # the three matches are inside
