"""Property: where the permission engine vouches for the words of a command (docs/security.md,
*The read-only auto-allow*), they are the words bash really passes to the program.

The read-only auto-allow decides on the words tree-sitter-bash reads; a word bash splits, joins,
unquotes or expands differently would let a command run that was judged on other words. Each
example is one line `cat W1 W2 …` whose words are built from quoting pieces (single and double
quotes, backslash escapes, `$'…'`, `$"…"`, line continuations, blanks, braces, tildes, glob
characters, `#`); none can run anything (no unquoted `$`, backtick, operator or newline). Bash
runs the line with `cat` defined as a function that prints its arguments, in a folder holding
files a stray glob would match.
Whenever `split_command` finds one simple command whose words `word_reading_problem` accepts and
none of which still expands as a glob, the words must equal bash's, byte for byte. Where the
engine refuses, nothing is compared: refusing is always safe.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wave_lsp.core.permissions.guard import StrictEngine as PermissionEngine
from wave_lsp.core.permissions.rules import make_rule
from wave_lsp.core.permissions.shell import split_command
from wave_lsp.core.permissions.shell_words import still_expands, word_reading_problem

#: characters that stand for themselves, or nearly, outside quotes
PLAIN = "abcR019._/-=:@%+,^"
#: characters that mean something to bash outside quotes but cannot run anything
SPECIAL = "{}[]*?~#!"
#: characters that are safe inside quotes only (never unquoted in a generated word)
QUOTED_ONLY = " \t;&|()<>$`\n"
ANSI_ESCAPES = ["\\n", "\\t", "\\x41", "\\101", "\\'", "\\\\", "\\e", "\\u00e9", "\\a", "\\cA",
                "\\\"", "\\?"]


def _plain() -> st.SearchStrategy[str]:
    return st.text(alphabet=PLAIN + SPECIAL, min_size=1, max_size=4)


def _escaped() -> st.SearchStrategy[str]:
    return st.sampled_from(list(PLAIN + SPECIAL + QUOTED_ONLY.replace("\n", "") + "'\"\\")).map(
        lambda character: "\\" + character)


def _single_quoted() -> st.SearchStrategy[str]:
    inner = st.text(alphabet=PLAIN + SPECIAL + QUOTED_ONLY + '"\\', max_size=5)
    return inner.map(lambda text: f"'{text}'")


def _double_quoted() -> st.SearchStrategy[str]:
    piece = st.one_of(
        st.text(alphabet=PLAIN + SPECIAL + " \t;&|()<>'\n", min_size=1, max_size=4),
        st.sampled_from(["\\$", "\\`", '\\"', "\\\\", "\\a", "\\\n"]))
    return st.lists(piece, max_size=3).map(lambda pieces: '"' + "".join(pieces) + '"')


def _ansi_c() -> st.SearchStrategy[str]:
    piece = st.one_of(st.text(alphabet=PLAIN + " ", min_size=1, max_size=3),
                      st.sampled_from(ANSI_ESCAPES))
    return st.lists(piece, max_size=3).map(lambda pieces: "$'" + "".join(pieces) + "'")


def _locale_quoted() -> st.SearchStrategy[str]:
    return _double_quoted().map(lambda quoted: "$" + quoted)


#: a line continuation, and option-shaped starts
OTHER = st.sampled_from(["\\\n", "--", "-", "--o=", "@{", "a=b"])
WORD = st.lists(st.one_of(_plain(), _escaped(), _single_quoted(), _double_quoted(), _ansi_c(),
                          _locale_quoted(), OTHER), min_size=1, max_size=4).map("".join)
BLANKS = st.sampled_from([" ", "  ", "\t", " \t "])


@st.composite
def _lines(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORD, min_size=1, max_size=4))
    line = "cat"
    for word in words:
        line += draw(BLANKS) + word
    return line


#: files a glob character that bash still expands would match, so that the difference shows
DECOYS = ("a", "ab", "-R", "abc.d", "R0", "{a,b}", "x y")


@pytest.fixture(scope="module")
def decoy_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("decoys")
    for name in DECOYS:
        (folder / name).write_text("", "utf-8")
    (folder / "dir").mkdir()
    return folder


def engine_words(line: str) -> list[str] | None:
    """The words the engine vouches for, or None where it refuses to (then nothing is
    compared)."""
    split = split_command(line)
    if split.problem or split.unmodelled or len(split.parts) != 1 or split.inputs or split.writes:
        return None
    part = split.parts[0]
    if part.expansion or part.assignments or part.wrapped or part.inputs or part.writes:
        return None
    if word_reading_problem(part, line) is not None or any(still_expands(w) for w in part.words):
        return None
    return [word.value for word in part.words if word.value is not None]


def bash_words(line: str, folder: Path) -> list[str] | None:
    """The words bash passes to `cat` (None when bash cannot parse the line)."""
    script = "cat() { printf '%s\\0' cat \"$@\"; }\n" + line + "\n"
    if subprocess.run(["bash", "-n", "-c", script], capture_output=True).returncode != 0:
        return None
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], cwd=folder,
                          capture_output=True, env={"PATH": "/usr/bin:/bin", "HOME": str(folder),
                                                    "LC_ALL": "C.UTF-8"}, timeout=10)
    output = done.stdout.decode("utf-8", "surrogateescape")
    return output.split("\0")[:-1]


# 1,500 lines, each run by bash: about 5 s on two idle cores, over the default 60 s on a machine
# loaded ×10 (it timed out once in a helper's full run)
@pytest.mark.timeout(300)
@settings(max_examples=1500, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(line=_lines())
@example(line="cat a'b'\"c\" \\d")
@example(line="cat 'x y' \"a\\\"b\" a\\*")
@example(line="cat HEAD~3 stash@{0} '*'")
@example(line="cat \"a\\\nb\" ''")
@example(line="cat { {")
@example(line="cat  ==\"\"")
def test_the_words_the_engine_vouches_for_are_bashs_words(line: str, decoy_folder: Path) -> None:
    ours = engine_words(line)
    if ours is None:
        return
    theirs = bash_words(line, decoy_folder)
    assert theirs is not None, f"the engine read words in a line bash cannot parse: {line!r}"
    assert ours == theirs, line


def test_the_controls_are_compared() -> None:
    """The property compares something: plain quoted words are vouched for, and bash agrees."""
    line = "cat a'b'\"c\" \\d 'x y'"
    assert engine_words(line) == ["cat", "abc", "d", "x y"]
    assert bash_words(line, Path("/")) == ["cat", "abc", "d", "x y"]


def _spelled(character: str) -> st.SearchStrategy[str]:
    """`character` in one of the ways bash reads as that character."""
    return st.sampled_from([character, "\\" + character, f"'{character}'", f'"{character}"',
                            f"$'{character}'", f"$'\\x{ord(character):02x}'",
                            f"$'\\{ord(character):03o}'", f'$"{character}"', f"''{character}",
                            f'{character}""'])


@st.composite
def _rm_lines(draw: st.DrawFn) -> str:
    program = draw(_spelled("r")) + draw(_spelled("m"))
    return program + draw(BLANKS) + draw(st.sampled_from(["x", "-rf build", "'-f' x"]))


def test_every_spelling_is_rm_to_bash(decoy_folder: Path) -> None:
    """The control for the next property: bash reads each generated spelling as `rm`."""
    for line in ("'r'm x", "\\r\"m\" x", "$'\\x72'$'\\155' x", "r''m x", "$\"r\"m x"):
        words = bash_words("rm() { printf '%s\\0' rm \"$@\"; }; " + line, decoy_folder)
        assert words == ["rm", "x"], line


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(line=_rm_lines())
def test_a_deny_rule_sees_rm_in_every_spelling(line: str) -> None:
    """Deny rules are matched against every form of the command (`deny_forms`): whatever way
    the command word is spelled, bash runs `rm`, and a tool-wide allow does not let it through.
    A spelling the engine cannot model (`r$"m"`) is refused as unmodelled instead: never run."""
    engine = PermissionEngine([make_rule("Bash", "allow", "allowed-tools"),
                               make_rule("Bash(rm:*)", "deny", "user settings")])
    decision = engine.check(line)
    assert not decision.allowed, line
    assert decision.behavior == "deny" or split_command(line).unmodelled is not None, \
        (line, decision.reason)


#: the decoys a glob is expanded against: dot files, option-shaped names, a link out, a folder
GLOB_TREE = ("a", "ab", ".hidden", "-R", "@args", "x y", "dir/x", "dir/.y", "dir/sub/z", "a.md",
             ".git/HEAD")
GLOB_PATTERN = st.lists(st.sampled_from(["*", "?", "a", ".", "/", "dir", "x", "-", "*.md", "**",
                                         "sub"]), min_size=1, max_size=5).map("".join)


@pytest.fixture(scope="module")
def glob_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("globs")
    for name in GLOB_TREE:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("", "utf-8")
    (folder / "out").symlink_to("/")
    return folder


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(pattern=GLOB_PATTERN)
@example(pattern=".*")
@example(pattern="*/")
@example(pattern="*/*")
@example(pattern="o*/*")
@example(pattern=".//?")
def test_a_glob_the_engine_allows_matches_what_bash_matches(pattern: str,
                                                            glob_folder: Path) -> None:
    """`readonly.glob_problem` judges an unquoted glob by the files Python's glob matches; the
    command runs with bash's matches. Wherever the engine allows a `cat PATTERN`, bash's
    expansion must be exactly the matches the engine checked (or the pattern itself, unmatched)."""
    from wave_lsp.core.facts.profiles import CLAUDE_CODE

    engine = PermissionEngine([], profile=CLAUDE_CODE, project=glob_folder)
    if not engine.check(f"cat {pattern}").allowed:
        return
    import glob as globbing

    checked = sorted(globbing.glob(pattern, root_dir=glob_folder)) or [pattern]
    theirs = bash_words(f"cat {pattern}", glob_folder)
    assert theirs is not None
    # the same files, spelled alike: Python's glob writes `.//?`'s match `./a`, bash `.//a` (a
    # run of slashes names one folder; `..` and links are compared as written)
    assert sorted(_one_slash(word) for word in theirs[1:]) == [_one_slash(c) for c in checked], \
        pattern


def _one_slash(path: str) -> str:
    return re.sub(r"/{2,}", "/", path)


@pytest.mark.parametrize("pattern", [".*", "dir/.*", ".?", "dir/.?*", ".*."])
def test_a_glob_that_may_match_the_folder_above_is_refused(pattern: str, glob_folder: Path) -> None:
    """Bash 5.2 skips `.` and `..` in `.*` (`globskipdots`); older shells (macOS's bash 3.2)
    match them, and `ls .*` would list the folder above the project."""
    from wave_lsp.core.permissions.readonly import glob_problem

    assert "may match `..`" in (glob_problem("ls", pattern, glob_folder) or "")
    assert glob_problem("ls", "a*", glob_folder) is None
    assert glob_problem("ls", ".h*", glob_folder) is None  # cannot match `..`: bash's matches
    assert glob_problem("ls", "?.", glob_folder) is None  # `?` and `*` never match a leading dot
