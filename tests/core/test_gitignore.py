"""`.gitignore` matching (wave_lsp/core/workspace/gitignore.py): the answers of pathspec's
`GitIgnoreSpec` (kept here only as the reference: its regular expressions backtrack
exponentially), where git departs from pathspec git's answer, and a number of steps bounded by
the product of pattern and path lengths (issue 35 item 3)."""

from __future__ import annotations

import re
import subprocess
import warnings
from pathlib import Path

import pathspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wave_lsp.core.workspace.gitignore import GitIgnore, GitIgnorePatternError, Steps, parse_line

# -- reference ----------------------------------------------------------------------------------


def reference(lines: list[str]) -> pathspec.GitIgnoreSpec | None:
    """pathspec's spec for the lines, with its negated classes kept off `/` (git never lets a
    class match `/`; pathspec's `[^x]` does); None where pathspec rejects a line."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            spec = pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, re.error):
        return None
    for pattern in spec.patterns:
        if pattern.regex is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pattern.regex = re.compile(pattern.regex.pattern.replace("[^", "[^/"))
    return spec


# -- strategies: small patterns and paths over a few letters -----------------------------------

LETTERS = "ab"
_atom = st.sampled_from(["a", "b", "*", "?", "[ab]", "[!a]", "[^b]", "[a-b]", "[]a]", "\\*",
                         "\\a", "**", "[b-a]"])
_segment = st.lists(_atom, min_size=1, max_size=4).map("".join)
_pattern = st.builds(
    lambda bang, lead, segments, slash: bang + lead + "/".join(segments) + slash,
    st.sampled_from(["", "", "!"]), st.sampled_from(["", "", "/", "**/"]),
    st.lists(st.one_of(_segment, st.just("**")), min_size=1, max_size=4),
    st.sampled_from(["", "", "/"]))
_path = st.builds(lambda parts, folder: "/".join(parts) + ("/" if folder else ""),
                  st.lists(st.text(LETTERS + "*", min_size=1, max_size=5), min_size=1,
                           max_size=5), st.booleans())


# 1,500 examples take about 8 s on a quiet 2-core machine; pytest-timeout's 60 s cut it short
# (a "Flaky" report) when the machine is loaded, so this test gets more
@pytest.mark.timeout(300)
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_pattern, min_size=1, max_size=3), st.lists(_path, min_size=1, max_size=6))
@example(["*a*a*b"], ["aaab", "x/aab/", "aaaa"])
@example(["a/**/b"], ["a/b", "a/x/b", "a/b/c", "b"])
@example(["foo/**"], ["foo/", "foo/x", "foo"])
@example(["**/"], ["a", "a/", "a/b"])
@example(["*/"], ["a", "a/", "a/b"])
@example(["a", "!a/"], ["a/", "a/b", "x/a"])
@example(["!a", "a/"], ["a/", "a/b"])
@example(["**/*/**"], ["a", "a/b"])
def test_same_answers_as_pathspec(lines: list[str], paths: list[str]) -> None:
    spec = reference(lines)
    ours = GitIgnore.from_lines(lines)
    if spec is None:
        return  # pathspec rejects the file; ours drops the invalid lines (tested below)
    for path in paths:
        assert ours.match_file(path) == spec.match_file(path), (lines, path)


@pytest.mark.parametrize(("line", "reason"), [
    ("foo\\", "a trailing lone backslash"),
    ("a\\/b", "a segment ending in a backslash"),
])
def test_invalid_patterns_are_reported_and_never_match(line: str, reason: str) -> None:
    with pytest.raises(GitIgnorePatternError):
        parse_line(line)
    ignore = GitIgnore.from_lines([line, "kept"])
    assert ignore.invalid == (line,), reason
    assert ignore.match_file("kept") and not ignore.match_file("foo")


@pytest.mark.parametrize(("line", "path", "ignored"), [
    ("", "a", False), ("# a", "a", False), ("/", "a", False), ("a[b", "a[b", False),
    ("\\#a", "#a", True), ("\\!a", "!a", True), ("a\\ ", "a ", True), ("a  ", "a", True),
    ("build/", "build/", True), ("build/", "build", False), ("build/", "x/build/y", True),
    ("/build", "x/build", False), ("/build", "build/y", True), ("doc/*.md", "doc/x/y.md", False),
    ("*", "", False), ("a/*", "a/", False), ("[z-a]x", "ax", False), ("[z-ab]x", "bx", True),
])
def test_table(line: str, path: str, ignored: bool) -> None:
    assert GitIgnore.from_lines([line]).match_file(path) == ignored


# -- where git departs from pathspec: the runtime decides ---------------------------------------


@pytest.mark.parametrize(("line", "path"), [("a[!x]b", "a/b"), ("a[^x]b", "a/b/c")])
def test_a_class_never_matches_a_slash_as_git_says(tmp_path: Path, line: str, path: str) -> None:
    assert not GitIgnore.from_lines([line]).match_file(path)
    try:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git is not available to confirm the reference")
    (tmp_path / ".gitignore").write_text(line + "\n", "utf-8")
    result = subprocess.run(["git", "-C", str(tmp_path), "check-ignore", "--no-index", path],
                            capture_output=True, text=True)
    assert result.returncode == 1, result.stdout  # 1: not ignored


# -- bounded work -------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["*", "a", "b", "?", "[ab]"]), min_size=1, max_size=60),
       st.integers(min_value=1, max_value=8), st.text("ab", min_size=1, max_size=60),
       st.booleans())
def test_steps_bounded_by_pattern_times_path(atoms: list[str], depth: int, name: str,
                                             floating: bool) -> None:
    segment = "".join(atoms)
    line = ("**/" if floating else "") + "/".join([segment] * min(depth, 3)) + "/**/" + segment
    path = "/".join([name] * depth)
    steps = Steps()
    GitIgnore.from_lines([line]).match_file(path, steps)
    assert steps.count <= (len(line) + 1) * (len(path) + 1)


def test_the_stars_that_stalled_check_take_few_steps() -> None:
    line, path = "*a" * 30 + "*b", "a" * 200 + "/"
    steps = Steps()
    assert not GitIgnore.from_lines([line]).match_file(path, steps)
    assert steps.count <= (len(line) + 1) * (len(path) + 1)


def test_the_check_walk_with_a_pathological_gitignore(tmp_path: Path) -> None:
    """`wave-lsp check`'s walk: pathspec took seconds on 7 stars and a 40-`a` folder, and years
    on 30; the folder is not ignored (no `b`), its skill is found."""
    from wave_lsp.core.workspace.discovery import find_skill_files

    skill = tmp_path / ("a" * 40) / "s" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: s\n---\n", "utf-8")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "SKILL.md").write_text("---\nname: b\n---\n", "utf-8")
    (tmp_path / ".gitignore").write_text("*a" * 30 + "*b\nb\n", "utf-8")
    assert list(find_skill_files([tmp_path])) == [skill]


# -- the plain fast paths (a literal name, `*.ext`, `pre*`): the same answers -------------------

_plain_segment = st.builds(lambda before, star, after: before + star + after,
                           st.text("ab.", max_size=3), st.sampled_from(["", "*"]),
                           st.text("ab.", max_size=3)).filter(bool)
_plain_pattern = st.builds(
    lambda bang, lead, segments, slash: bang + lead + "/".join(segments) + slash,
    st.sampled_from(["", "", "!"]), st.sampled_from(["", "", "", "/", "**/"]),
    st.lists(st.one_of(_plain_segment, _segment), min_size=1, max_size=2),
    st.sampled_from(["", "", "/"]))
_dotted_path = st.builds(lambda parts, folder: "/".join(parts) + ("/" if folder else ""),
                         st.lists(st.text("ab.", min_size=1, max_size=5), min_size=1,
                                  max_size=4), st.booleans())


@pytest.mark.timeout(300)  # as above: about 5 s quiet, more under load
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_plain_pattern, min_size=1, max_size=4), st.lists(_dotted_path, min_size=1,
                                                                  max_size=6))
@example(["*.py", "!a.py"], ["a.py", "b/a.py", "a.py/b", ".py"])
@example(["node_modules/", ".env"], ["node_modules/", "a/node_modules/b", "node_modules", ".env/a"])
@example([".coverage.*", "build/Release"], [".coverage.", ".coverage.a", "build/Release/x"])
@example(["a", "a/"], ["b/a/a", "a/b/a/"])
def test_plain_patterns_same_answers_as_pathspec(lines: list[str], paths: list[str]) -> None:
    spec = reference(lines)
    ours = GitIgnore.from_lines(lines)
    if spec is None:
        return
    for path in paths:
        assert ours.match_file(path) == spec.match_file(path), (lines, path)


@pytest.mark.parametrize(("line", "plain"), [
    ("node_modules/", ("node_modules", None)), ("*.log", ("", ".log")),
    (".coverage.*", (".coverage.", "")), ("pre*.ext", ("pre", ".ext")), ("\\*x", ("*x", None)),
    ("*.py[cod]", None), ("a*b*c", None), ("?x", None),
])
def test_which_segments_take_the_plain_path(line: str, plain: tuple[str, str | None] | None
                                            ) -> None:
    parsed = parse_line(line)
    assert parsed is not None and parsed.single is not None
    assert parsed.single.plain == plain


def test_the_walk_reads_ignores_only_for_folders_and_skill_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cheap test (a folder, a skill file) comes first: other files are never matched."""
    from wave_lsp.core.workspace import discovery

    for index in range(5):
        (tmp_path / "src" / f"m{index}.py").parent.mkdir(exist_ok=True)
        (tmp_path / "src" / f"m{index}.py").write_text("x\n", "utf-8")
    (tmp_path / "s" / "SKILL.md").parent.mkdir()
    (tmp_path / "s" / "SKILL.md").write_text("---\nname: s\n---\n", "utf-8")
    (tmp_path / ".gitignore").write_text("*.log\n", "utf-8")
    asked: list[str] = []
    original = discovery._IgnoreStack.ignored

    def spy(self: object, path: str, is_dir: bool) -> bool:
        asked.append(Path(path).name)
        return original(self, path, is_dir)  # type: ignore[arg-type]

    monkeypatch.setattr(discovery._IgnoreStack, "ignored", spy)
    assert list(discovery.find_skill_files([tmp_path])) == [tmp_path / "s" / "SKILL.md"]
    assert sorted(asked) == ["SKILL.md", "s", "src"]


def test_the_remembered_segments_stay_bounded() -> None:
    """A long walk meets many names: the lookup forgets them past its bound, and answers the same
    for a name it forgot."""
    from wave_lsp.core.workspace import gitignore

    lines = ["*.log", "build/", "*.py[cod]", "!keep.log"]
    ignore, spec = GitIgnore.from_lines(lines), reference(lines)
    assert spec is not None
    answers = [ignore.match_file(f"src/m{index}.pyc") for index in range(gitignore._REMEMBERED * 2)]
    assert all(answers)
    assert len(ignore._lookup._known) <= gitignore._REMEMBERED
    for path in ["src/m0.pyc", "a.log", "x/keep.log", "build/keep.log", "build/x", "m.py"]:
        assert ignore.match_file(path) == spec.match_file(path), path
