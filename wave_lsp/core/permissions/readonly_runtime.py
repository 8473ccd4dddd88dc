"""The read-only auto-allow as the runtime applies it, for the prediction (docs/design/product.md
*Permission engine*, *Two decisions*; docs/design/runtime-facts.md §3.8, the read-only
auto-allow).

`readonly.py` holds wave-lsp's strict table, which the execution guard uses. The runtime's own list
is wider: the options and commands of `readonly.toml`'s `[stricter]` are on Claude Code's list
(`grep -R`, `ls -L`, `tail -f`, `git diff --no-index`, `sleep`, …), it does not look at what kind
of file an operand is (a FIFO is read like any file), and it does not follow links to decide
whether an operand is inside. Those facts are data with their evidence
(`wave_lsp/data/readonly_runtime.toml`, read once by `runtime_list`).

`runtime_read_only` answers `yes`, `no` (with why) or `unknown` (with why) for
one simple command, without any of wave-lsp's own caution.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.paths import is_within
from wave_lsp.core.permissions.readonly import (
    _ENTRY_KEYS,
    _PLAIN_GLOB,
    GLOB_COMMANDS,
    NO_OPERANDS,
    WORDS,
    CommandSpec,
    _bare_repository,
    _entry,
    _flags,
    _read_arguments,
    _read_simple,
    commands,
    data_text,
    has_brace_list,
    program_entry,
)

#: where the facts come from (docs/design/runtime-facts.md)
FACT = "runtime-facts §3.8 read-only auto-allow"
#: the evidence every entry of `readonly_runtime.toml` carries
_EVIDENCE = ("source", "verified")
_TABLES = ("extra-options", "extra-commands", "unmodelled", "path-checked")


@dataclass(frozen=True, slots=True)
class RuntimeList:
    """Claude Code's read-only list where it differs from the strict table, as
    `readonly_runtime.toml` gives it, each entry with its evidence."""

    #: program (or `git SUBCOMMAND`) -> the options the runtime accepts beyond the strict table
    extra_flags: Mapping[str, str]
    #: whole commands on the runtime's list that the strict table leaves out
    extra_commands: Mapping[str, CommandSpec]
    #: commands read with an allow-list of their own that is not transcribed -> why
    unmodelled: Mapping[str, str]
    #: commands whose file operands the runtime checks against its working directories
    path_checked: frozenset[str]
    #: `TABLE NAME` (or `path-checked`) -> (source, verified)
    evidence: Mapping[str, tuple[str, str]]


def _evidence(where: str, entry: Mapping[str, object]) -> tuple[str, str]:
    values = [entry.get(key) for key in _EVIDENCE]
    if not all(isinstance(value, str) and value for value in values):
        raise ValueError(f"readonly_runtime.toml [{where}]: needs a `source` and a `verified`")
    return str(values[0]), str(values[1])


def _fields(where: str, entry: object, keys: set[str]) -> Mapping[str, object]:
    if not isinstance(entry, dict) or not set(entry) <= keys | set(_EVIDENCE):
        raise ValueError(f"readonly_runtime.toml [{where}]: unknown key or not a table")
    return entry


def load_runtime_list(text: str) -> RuntimeList:
    """`readonly_runtime.toml`'s text as a `RuntimeList`; a ValueError names what is wrong."""
    data = _read_simple(text)
    if data is None:
        import tomllib

        data = tomllib.loads(text)
    if not set(data) <= set(_TABLES):
        raise ValueError(f"readonly_runtime.toml: unknown tables {sorted(set(data) - set(_TABLES))}")
    evidence: dict[str, tuple[str, str]] = {}
    flags: dict[str, str] = {}
    for name, entry in data.get("extra-options", {}).items():
        where = f"extra-options {name}"
        fields = _fields(where, entry, {"options"})
        if not isinstance(fields.get("options"), str):
            raise ValueError(f"readonly_runtime.toml [{where}]: `options` must be a string")
        _flags(str(fields["options"]))  # an unknown option kind is refused here
        flags[name], evidence[where] = str(fields["options"]), _evidence(where, fields)
    extra: dict[str, CommandSpec] = {}
    for name, entry in data.get("extra-commands", {}).items():
        where = f"extra-commands {name}"
        evidence[where] = _evidence(where, _fields(where, entry, set(_ENTRY_KEYS)))
        extra[name] = _entry(name, {k: v for k, v in entry.items() if k not in _EVIDENCE}, {})
    unmodelled: dict[str, str] = {}
    for name, entry in data.get("unmodelled", {}).items():
        where = f"unmodelled {name}"
        fields = _fields(where, entry, {"reason"})
        unmodelled[name], evidence[where] = str(fields.get("reason", "")), _evidence(where, fields)
    checked = _fields("path-checked", data.get("path-checked", {}), {"commands"})
    listed = checked.get("commands", [])
    if not isinstance(listed, list) or not all(isinstance(item, str) for item in listed):
        raise ValueError("readonly_runtime.toml [path-checked]: `commands` must be strings")
    evidence["path-checked"] = _evidence("path-checked", checked)
    return RuntimeList(MappingProxyType(flags), MappingProxyType(extra),
                       MappingProxyType(unmodelled), frozenset(" ".join(listed).split()),
                       MappingProxyType(evidence))


@lru_cache(maxsize=1)
def runtime_list() -> RuntimeList:
    """The runtime's list, read from `wave_lsp/data/readonly_runtime.toml` once."""
    return load_runtime_list(data_text("readonly_runtime.toml"))


@dataclass(frozen=True, slots=True)
class ReadOnly:
    verdict: str  #: "yes", "no" or "unknown"
    why: str | None = None
    #: "no" because an operand is outside the working directories (Claude Code then says so)
    outside: bool = False


@lru_cache(maxsize=1)
def runtime_commands() -> Mapping[str, CommandSpec]:
    """The strict table widened by the runtime list's extra options and commands."""
    table = dict(commands())
    listed = runtime_list()
    for name, extra in listed.extra_flags.items():
        spec = table.get(name)
        if spec is None:
            raise ValueError(f"readonly_runtime.toml [extra-options {name}]: `{name}` is not in "
                             "the strict table")
        table[name] = replace(spec, flags={**spec.flags, **_flags(extra)}, folders=True)
    table.update(listed.extra_commands)
    return table


def runtime_read_only(words: Sequence[str], profile: RuntimeProfile,
                      directories: Sequence[Path] = ()) -> ReadOnly:
    """Whether `profile`'s runtime runs this simple command (its words after the shell split
    them) without a rule as a read-only command. `directories` are the runtime's working
    directories (empty: operands are not checked)."""
    if not profile.auto_allows_read_only:
        return ReadOnly("no", f"{profile.runtime} has no read-only commands that run without a "
                              "rule")
    if not words:
        return ReadOnly("no", "there is no command")
    if any("$" in word or "`" in word for word in words):
        return ReadOnly("unknown", "it has an expansion, which Claude Code's classifier reads "
                                   "itself")
    bad = next((word for word in words if has_brace_list(word)), None)
    if bad is not None:
        return ReadOnly("no", f"`{bad}` is a brace expansion")
    unmodelled = runtime_list().unmodelled.get(words[0])
    if unmodelled is not None:
        return ReadOnly("unknown", unmodelled)
    if words[0] == "find":
        return _find(words, directories)
    name, spec, width = _program(words)
    if spec is None:
        return ReadOnly("no", f"`{name}` is not on its list of read-only commands")
    if name.startswith("git ") and directories and _bare_repository(directories[0]):
        return ReadOnly("no", "the working directory looks like a bare git repository")
    reading, problem = _read_arguments(name, spec, words[width:])
    if problem:
        return ReadOnly("no", problem)
    if spec.operands == NO_OPERANDS and reading.operands:
        return ReadOnly("no", f"`{name}` takes no operands here (`{reading.operands[0]}`)")
    if spec.check is not None:
        problem = spec.check(reading)
        if problem:
            return ReadOnly("no", problem)
    if spec.operands == WORDS and not spec.flags:
        return ReadOnly("yes")
    files = [*reading.paths, *(reading.operands if spec.operands == "paths" else ())]
    return _paths(words[0], files, directories)


def runtime_glob(program: str, pattern: str, directories: Sequence[Path]) -> ReadOnly:
    """An unquoted glob operand: Claude Code 2.1.332 checks the globs of path-reading commands
    (`GLOB_COMMANDS`) by their matches and refuses any other (runtime-facts §3.8)."""
    if program not in GLOB_COMMANDS or not _PLAIN_GLOB.fullmatch(pattern):
        return ReadOnly("no", f"`{pattern}` is a glob the shell expands")
    if not directories:
        return ReadOnly("unknown", f"`{pattern}` is a glob, and there is no working directory "
                                   "to expand it in")
    if any(segment.startswith(".") and fnmatchcase("..", segment)
           for segment in pattern.split("/")):
        return ReadOnly("unknown", f"`{pattern}` may match `..`, which depends on the version of "
                                   "bash")
    from wave_lsp.core.permissions.globbing import bounded_glob

    expanded = bounded_glob(pattern, root_dir=directories[0])  # bounded: link loops (issue 35)
    if not expanded.complete:
        return ReadOnly("unknown", f"`{pattern}` expands to too many paths to check which the "
                                   "program would read")
    matches = expanded.matches
    answer = _paths(program, matches, directories)
    if answer.verdict != "yes":
        return answer
    option = next((match for match in matches if match.startswith("-")), None)
    if option is not None:
        return ReadOnly("unknown", f"`{pattern}` matches `{option}`, which the program would "
                                   "read as an option; whether Claude Code checks that is not "
                                   "modelled")
    return ReadOnly("yes")


def _program(words: Sequence[str]) -> tuple[str, CommandSpec | None, int]:
    return program_entry(words, runtime_commands())


def _find(words: Sequence[str], directories: Sequence[Path]) -> ReadOnly:
    dangerous = {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0",
                 "-fprintf", "-fls"}
    bad = next((word for word in words if word in dangerous), None)
    if bad is not None:
        return ReadOnly("no", f"`find {bad}` is not read-only")
    roots = [word for word in words[1:] if not word.startswith(("-", "!", "("))]
    return _paths("find", roots[:1], directories)


def _paths(program: str, files: Sequence[str], directories: Sequence[Path]) -> ReadOnly:
    """Claude Code's path constraint on a read-only command: a file operand outside every working
    directory needs approval. Judged on the text (`..`, absolute paths, `~`); a path inside by its
    text that leads outside through a link cannot be told."""
    if not directories or program not in runtime_list().path_checked:
        return ReadOnly("yes")
    base = directories[0]
    for value in files:
        if value in ("-", "/dev/null"):
            continue
        if value.startswith("~"):
            return ReadOnly("no", f"`{value}` is outside the working directories", outside=True)
        path = os.path.normpath(os.path.join(base, value))
        if not any(_inside(path, str(folder)) for folder in directories):
            return ReadOnly("no", f"`{value}` is outside the working directories", outside=True)
        real = os.path.realpath(path)
        if not any(_inside(real, os.path.realpath(folder)) for folder in directories):
            return ReadOnly("unknown", f"`{value}` leads outside the working directories "
                                       "through a link; whether Claude Code follows it is not "
                                       "modelled")
    return ReadOnly("yes")


def _inside(path: str, folder: str) -> bool:
    return is_within(path, os.path.normpath(folder))


__all__ = ["FACT", "ReadOnly", "RuntimeList", "load_runtime_list", "runtime_commands",
           "runtime_glob", "runtime_list", "runtime_read_only"]
