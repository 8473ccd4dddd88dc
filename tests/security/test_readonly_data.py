"""The strict read-only table as data (`wave_lsp/data/readonly.toml`, issue 36 item 5): the loaded
table is the one the Python code built (`readonly_before.py`, the code at 7f05467), entry by entry
and decision by decision, for the guard and for the runtime's wider table built on it; and a
table with a mistake in it is refused when it is read, never read as a looser table."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.security import readonly_before as before
from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.core.permissions import readonly, readonly_runtime
from wave_lsp.core.permissions.readonly import CommandSpec, load_table, read_only_problem, table

OLD = before.old_commands()
NEW = table().commands


def _fields(spec: CommandSpec) -> tuple[object, ...]:
    return (list(spec.flags.items()), spec.operands, spec.numeric_shorthand,
            spec.attached_numbers, spec.attached_values, spec.double_dash,
            sorted(spec.dash_values), spec.check, spec.folders)


def test_the_table_has_the_same_commands_in_the_same_order() -> None:
    assert list(NEW) == list(OLD)
    assert len(NEW) == 85  # 62 programs and 23 git subcommands


@pytest.mark.parametrize("name", list(OLD))
def test_each_entry_is_what_the_code_built(name: str) -> None:
    assert _fields(NEW[name]) == _fields(OLD[name])


def test_source_checked_and_the_stricter_reasons_are_kept() -> None:
    loaded = table()
    assert (loaded.source, loaded.checked) == (before.SOURCE, before.CHECKED)
    assert dict(loaded.stricter) == dict(before.STRICTER)


#: operands of every kind the classifier tells apart: a file inside, a folder, a path outside,
#: a link out, a revision, a count, a glob, plain words
OPERANDS = ("notes.txt", "docs", "/etc/passwd", "../outside", "link-out", "HEAD~2", "-5", "+%s",
            "*.txt", "@args", "x", "--", "TZ=UTC", "main")


def _cases() -> Iterator[list[str]]:
    """For every command: each listed option alone, with a value attached and detached, bundled
    with the next one, and followed by each operand; and the command with each operand alone."""
    for name, spec in OLD.items():
        program = name.split()
        yield program
        flags = list(spec.flags)
        for operand in OPERANDS:
            yield [*program, operand]
        for index, option in enumerate(flags):
            yield [*program, option]
            yield [*program, f"{option}=3"]
            yield [*program, option, "3", "notes.txt"]
            yield [*program, option, "notes.txt"]
            if index + 1 < len(flags) and len(option) == 2 and len(flags[index + 1]) == 2:
                yield [*program, option + flags[index + 1][1:], "notes.txt"]
            if option.startswith("--") and len(option) > 4:
                yield [*program, option[:-1]]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    (root / "notes.txt").write_text("x\n")
    (root / "docs").mkdir()
    (root / "link-out").symlink_to("/etc/passwd")
    return root


def _decisions(table_of: Mapping[str, CommandSpec], project: Path,
               monkeypatch: pytest.MonkeyPatch, cases: list[list[str]]
               ) -> list[tuple[str | None, str]]:
    """The guard's and the runtime's decision on each case with `table_of` as the strict table."""
    with monkeypatch.context() as patch:
        patch.setattr(readonly, "commands", lambda: table_of)
        patch.setattr(readonly_runtime, "commands", lambda: table_of)
        readonly_runtime.runtime_commands.cache_clear()
        found = [(read_only_problem(words, CLAUDE_CODE, project),
                  repr(readonly_runtime.runtime_read_only(words, CLAUDE_CODE, (project,))))
                 for words in cases]
    readonly_runtime.runtime_commands.cache_clear()
    return found


def test_every_decision_on_the_listed_options_is_the_same(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = list(_cases())
    assert len(cases) > 5000
    old = _decisions(OLD, project, monkeypatch, cases)
    new = _decisions(NEW, project, monkeypatch, cases)
    differ = [(case, a, b) for case, a, b in zip(cases, old, new, strict=True) if a != b]
    assert differ == []
    # the cases reach both answers, so equal decisions are not equal by default
    assert {problem is None for problem, _ in new} == {True, False}


_ALL_OPTIONS = sorted({option for spec in OLD.values() for option in spec.flags})


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(list(OLD)),
       arguments=st.lists(st.one_of(st.sampled_from(_ALL_OPTIONS), st.sampled_from(OPERANDS),
                                    st.text("-abcdefnrvz0123456789=", min_size=1, max_size=6)),
                          max_size=4))
def test_random_commands_get_the_same_decision(name: str, arguments: list[str]) -> None:
    words = [*name.split(), *arguments]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readonly, "commands", lambda: OLD)
        old = read_only_problem(words, CLAUDE_CODE, None)
    assert read_only_problem(words, CLAUDE_CODE, None) == old


GOOD = """source = "s"
checked = "2026-12-07"
[options]
shared = "-a --all"
[git-defaults]
operands = "revisions"
[commands.ls]
options = ["@shared -n=number", "--width=number"]
[commands."git log"]
options = "@shared"
check = "git-log"
"""


def test_a_small_table_reads_as_written() -> None:
    loaded = load_table(GOOD)
    assert list(loaded.commands["ls"].flags.items()) == [
        ("-a", "none"), ("--all", "none"), ("-n", "number"), ("--width", "number"),
        ("--help", "none"), ("--version", "none")]
    git = loaded.commands["git log"]
    assert (git.operands, git.check) == ("revisions", readonly.CHECKS["git-log"])


@pytest.mark.parametrize(("change", "message"), [
    ('double-dash = "no"', "wrong type"),
    ("folders = 1", "wrong type"),
    ("follows-links = true", "unknown key"),
    ('options = "-n=count"', "unknown option kind"),
    ('options = "@missing"', "no shared option list"),
    ('options = ["-a", 3]', "must be strings"),
    ('operands = "files"', "unknown operands"),
    ('check = "sed"', "check 'sed'"),
])
def test_a_table_with_a_mistake_is_refused(change: str, message: str) -> None:
    text = GOOD.replace('[commands.ls]\noptions = ["@shared -n=number", "--width=number"]',
                        "[commands.ls]\n" + change)
    with pytest.raises(ValueError, match=message):
        load_table(text)


def test_the_line_reader_reads_the_table_as_tomllib_does() -> None:
    text = (Path(readonly.__file__).parents[2] / "data" / "readonly.toml").read_text("utf-8")
    assert readonly._read_simple(text) == tomllib.loads(text)
    assert readonly._read_simple(GOOD) == tomllib.loads(GOOD)


@pytest.mark.parametrize("text", [
    'a = "x\\"y"',  # a backslash
    'a = "x" # a comment after the value',
    "a = { b = 1 }",  # an inline table
    "a = 1",
    "[t]\nb = [\n    # a comment inside an array\n    \"x\",\n]",
    "[t]\nb = [\n    \"x\"\n]",  # no comma after the last element
    "a = '''literal'''",
    "[a.b.c]\nd = true",  # a deeper header
])
def test_anything_else_is_left_to_tomllib(text: str) -> None:
    assert readonly._read_simple(text) is None


@pytest.mark.parametrize("text", [
    '[t]\na = "x"\na = "y"', '[t]\na = "x"\n[t]\nb = "y"',
    '[c."x"]\na = true\n[c."x"]\nb = true', "[t]\na = [\n\"x\",\n",
])
def test_a_duplicate_or_an_open_array_is_left_to_tomllib_which_refuses_it(text: str) -> None:
    assert readonly._read_simple(text) is None
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
