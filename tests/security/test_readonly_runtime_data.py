"""Claude Code's wider read-only list as data (`wave_lsp/data/readonly_runtime.toml`, issue 36): the
loaded facts are the Python tables they replace (`readonly_runtime_before.py`, the code at af7f7d7),
entry by entry and decision by decision on enumerated commands; every entry carries its evidence
and is a place where `readonly.toml` says wave-lsp is stricter; and a list with a mistake in it is
refused when it is read."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

import pytest

from tests.security import readonly_runtime_before as before
from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.core.permissions import readonly_runtime
from wave_lsp.core.permissions.readonly import _flags, _read_simple, commands, table
from wave_lsp.core.permissions.readonly_runtime import (
    RuntimeList,
    load_runtime_list,
    runtime_commands,
    runtime_list,
    runtime_read_only,
)

DATA = Path(readonly_runtime.__file__).parents[2] / "data" / "readonly_runtime.toml"
LOADED = runtime_list()


def _old_list() -> RuntimeList:
    """The old tables in the new shape, so that the same code decides with either."""
    reason = "Claude Code reads `{}` with an allow-list of its own arguments that wave-lsp does not " \
             "transcribe"
    return RuntimeList(MappingProxyType(dict(before.RUNTIME_EXTRA_FLAGS)),
                       MappingProxyType(dict(before.RUNTIME_EXTRA_COMMANDS)),
                       MappingProxyType({name: reason.format(name)
                                         for name in sorted(before.UNMODELLED)}),
                       before.PATH_CHECKED, MappingProxyType({}))


def test_the_loaded_facts_are_the_old_tables() -> None:
    assert dict(LOADED.extra_flags) == dict(before.RUNTIME_EXTRA_FLAGS)
    assert list(LOADED.extra_flags) == list(before.RUNTIME_EXTRA_FLAGS)
    assert dict(LOADED.extra_commands) == dict(before.RUNTIME_EXTRA_COMMANDS)
    assert set(LOADED.unmodelled) == before.UNMODELLED
    assert dict(LOADED.unmodelled) == dict(_old_list().unmodelled)
    assert LOADED.path_checked == before.PATH_CHECKED
    assert readonly_runtime.FACT == before.FACT


def test_the_runtime_table_is_the_one_the_old_tables_built() -> None:
    old = dict(commands())
    for name, extra in before.RUNTIME_EXTRA_FLAGS.items():
        spec = old[name]
        old[name] = type(spec)(**{**{f: getattr(spec, f) for f in spec.__slots__},
                                  "flags": {**spec.flags, **_flags(extra)}, "folders": True})
    old.update(before.RUNTIME_EXTRA_COMMANDS)
    new = runtime_commands()
    assert list(new) == list(old)
    assert {name: new[name] for name in new} == old


def test_every_entry_has_its_evidence_and_a_stricter_reason() -> None:
    names = [*LOADED.extra_flags, *LOADED.extra_commands, *LOADED.unmodelled]
    assert sorted(LOADED.evidence) == sorted(
        [*(f"extra-options {n}" for n in LOADED.extra_flags),
         *(f"extra-commands {n}" for n in LOADED.extra_commands),
         *(f"unmodelled {n}" for n in LOADED.unmodelled), "path-checked"])
    for source, verified in LOADED.evidence.values():
        assert "runtime-facts §3.8" in source
        assert verified.startswith("Claude Code 2.1.") and verified.endswith(
            ("(oracle)", "(source snapshot)"))
        assert ("oracle [" in source) == verified.endswith("(oracle)")
    stricter = table().stricter
    assert [name for name in names if name not in stricter] == []


def test_the_line_reader_reads_the_file_as_tomllib_does() -> None:
    text = DATA.read_text("utf-8")
    assert _read_simple(text) == tomllib.loads(text)


#: operands of every kind the classifier tells apart
OPERANDS = ("notes.txt", "docs", "/etc/passwd", "../outside", "link-out", "~/x", "HEAD~2", "-5",
            "x", "--", "-")


def _cases() -> Iterator[list[str]]:
    """For every command of the runtime's table (and the unmodelled ones): each option alone,
    with a value attached and detached, and followed by each operand; and the command with each
    operand alone."""
    for name, spec in {**runtime_commands(), "sed": None, "xargs": None}.items():
        program = name.split()
        yield program
        for operand in OPERANDS:
            yield [*program, operand]
        for option in (spec.flags if spec is not None else ("-n", "-0")):
            yield [*program, option]
            yield [*program, f"{option}=3"]
            yield [*program, option, "3", "notes.txt"]
            for operand in ("notes.txt", "../outside", "link-out"):
                yield [*program, option, operand]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    (root / "notes.txt").write_text("x\n")
    (root / "docs").mkdir()
    (root / "link-out").symlink_to("/etc/passwd")
    return root


def _decisions(listed: RuntimeList, project: Path, cases: list[list[str]]) -> list[str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readonly_runtime, "runtime_list", lambda: listed)
        runtime_commands.cache_clear()
        found = [repr(runtime_read_only(words, CLAUDE_CODE, (project,))) for words in cases]
    runtime_commands.cache_clear()
    return found


def test_every_decision_on_the_enumerated_commands_is_the_same(project: Path) -> None:
    cases = list(_cases())
    assert len(cases) > 10000
    old = _decisions(_old_list(), project, cases)
    new = [repr(runtime_read_only(words, CLAUDE_CODE, (project,))) for words in cases]
    assert [(case, a, b) for case, a, b in zip(cases, old, new, strict=True) if a != b] == []
    # the cases reach every answer, so equal decisions are not equal by default
    verdicts = {decision.split("'")[1] for decision in new}
    assert verdicts == {"yes", "no", "unknown"}
    assert any("outside=True" in decision for decision in new)


def test_the_data_decides_what_runs() -> None:
    """Each table of the file changes a decision: an entry removed changes the answer."""
    assert runtime_read_only(["grep", "-R", "x"], CLAUDE_CODE).verdict == "yes"
    assert runtime_read_only(["sleep", "1"], CLAUDE_CODE).verdict == "yes"
    assert runtime_read_only(["sed", "-n", "p"], CLAUDE_CODE).verdict == "unknown"
    without = RuntimeList(MappingProxyType({}), MappingProxyType({}), MappingProxyType({}),
                          frozenset(), MappingProxyType({}))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readonly_runtime, "runtime_list", lambda: without)
        runtime_commands.cache_clear()
        assert runtime_read_only(["grep", "-R", "x"], CLAUDE_CODE).verdict == "no"
        assert runtime_read_only(["sleep", "1"], CLAUDE_CODE).verdict == "no"
        assert runtime_read_only(["sed", "-n", "p"], CLAUDE_CODE).verdict == "no"
        assert runtime_read_only(["cat", "/etc/passwd"], CLAUDE_CODE,
                                 (Path("/tmp"),)).verdict == "yes"
    runtime_commands.cache_clear()
    assert runtime_read_only(["cat", "/etc/passwd"], CLAUDE_CODE, (Path("/tmp"),)).outside


GOOD = """[extra-options.ls]
options = "-L"
source = "s"
verified = "v"
[extra-commands.sleep]
operands = "words"
source = "s"
verified = "v"
[unmodelled.sed]
reason = "r"
source = "s"
verified = "v"
[path-checked]
commands = ["cat ls"]
source = "s"
verified = "v"
"""


def test_a_small_list_reads_as_written() -> None:
    loaded = load_runtime_list(GOOD)
    assert (dict(loaded.extra_flags), dict(loaded.unmodelled), loaded.path_checked) == (
        {"ls": "-L"}, {"sed": "r"}, frozenset({"cat", "ls"}))
    assert loaded.extra_commands["sleep"].operands == "words"
    assert loaded.evidence["path-checked"] == ("s", "v")


@pytest.mark.parametrize(("old", "new", "message"), [
    ('options = "-L"\nsource = "s"\n', 'options = "-L"\n', "needs a `source`"),
    ('reason = "r"\nsource = "s"\nverified = "v"', 'reason = "r"\nsource = "s"\nverified = ""',
     "needs a `source`"),
    ('options = "-L"', 'options = "-L=count"', "unknown option kind"),
    ('options = "-L"', "options = true", "must be a string"),
    ('options = "-L"', 'options = "-L"\nfollows = true', "unknown key"),
    ('operands = "words"', 'operands = "files"', "unknown operands"),
    ('commands = ["cat ls"]', "commands = true", "must be strings"),
    ("[path-checked]", "[path-checks]", "unknown tables"),
])
def test_a_list_with_a_mistake_is_refused(old: str, new: str, message: str) -> None:
    assert old in GOOD
    with pytest.raises(ValueError, match=message):
        load_runtime_list(GOOD.replace(old, new, 1))


def test_an_extra_option_for_a_command_the_strict_table_lacks_is_refused() -> None:
    broken = load_runtime_list(GOOD.replace("[extra-options.ls]", "[extra-options.nosuch]"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readonly_runtime, "runtime_list", lambda: broken)
        runtime_commands.cache_clear()
        with pytest.raises(ValueError, match="not in the strict table"):
            runtime_commands()
    runtime_commands.cache_clear()
