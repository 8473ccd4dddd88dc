"""The read-only auto-allow as the runtime applies it, for the prediction (docs/design/product.md
*Permission engine*, *Two decisions*; docs/design/runtime-facts.md §3.8, the read-only
auto-allow).

`readonly.py` holds wave-lsp's strict table, which the execution guard uses. The runtime's own list
is wider: the options and commands of `readonly.toml`'s `[stricter]` are on Claude Code's list (`grep -R`,
`ls -L`, `tail -f`, `git diff --no-index`, `sleep`, …), it does not look at what kind of file an
operand is (a FIFO is read like any file), and it does not follow links to decide whether an
operand is inside. `runtime_read_only` answers `yes`, `no` (with why) or `unknown` (with why) for
one simple command, without any of wave-lsp's own caution.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from functools import lru_cache
from pathlib import Path

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.paths import is_within
from wave_lsp.core.permissions.readonly import (
    _PLAIN_GLOB,
    GLOB_COMMANDS,
    NO_OPERANDS,
    WORDS,
    CommandSpec,
    _bare_repository,
    _flags,
    _read_arguments,
    commands,
    has_brace_list,
    program_entry,
)

#: the options (and commands) of `readonly.toml`'s `[stricter]` that Claude Code's list accepts and the strict
#: table leaves out (runtime-facts §3.8: `COMMAND_ALLOWLIST` safeFlags, v2.1.88)
RUNTIME_EXTRA_FLAGS: Mapping[str, str] = {
    "tail": "-f --follow=optional -F --retry",
    "grep": "-R --dereference-recursive",
    "rg": "-L --follow -z --search-zip",
    "diff": "-r --recursive",
    "git diff": "--no-index",
    "git grep": "--no-index",
    "file": "-s --special-files -L --dereference -f=path --files-from=path -m=string "
            "--magic-file=string",
    "sha256sum": "-c --check", "sha1sum": "-c --check", "md5sum": "-c --check",
    "git config --get": "--global --system",
    "du": "-L --dereference",
    "ls": "-L --dereference",
    "tree": "-l --fromfile",
}
#: whole commands on the runtime's list that the strict table leaves out
RUNTIME_EXTRA_COMMANDS: Mapping[str, CommandSpec] = {
    "sleep": CommandSpec(_flags("--help --version"), operands=WORDS),
}
#: commands on the runtime's list only with arguments of their own allow-list, which is not
#: transcribed: whether the runtime runs them cannot be told
UNMODELLED = frozenset({"sed", "xargs"})
#: where the facts come from (docs/design/runtime-facts.md)
FACT = "runtime-facts §3.8 read-only auto-allow"
#: commands whose file operands Claude Code checks against its working directories
#: (its path constraints, runtime-facts §3.8 step 3)
PATH_CHECKED = frozenset({"cat", "head", "tail", "ls", "grep", "rg", "find", "wc", "stat", "file",
                          "tree", "du", "diff", "cmp", "strings", "od", "hexdump", "nl", "cut",
                          "sort", "uniq", "tac", "rev", "sha256sum", "sha1sum", "md5sum", "jq"})


@dataclass(frozen=True, slots=True)
class ReadOnly:
    verdict: str  #: "yes", "no" or "unknown"
    why: str | None = None
    #: "no" because an operand is outside the working directories (Claude Code then says so)
    outside: bool = False


@lru_cache(maxsize=1)
def runtime_commands() -> Mapping[str, CommandSpec]:
    """The strict table widened by `RUNTIME_EXTRA_FLAGS` and `RUNTIME_EXTRA_COMMANDS`."""
    table = dict(commands())
    for name, extra in RUNTIME_EXTRA_FLAGS.items():
        spec = table[name]
        table[name] = replace(spec, flags={**spec.flags, **_flags(extra)}, folders=True)
    table.update(RUNTIME_EXTRA_COMMANDS)
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
    if words[0] in UNMODELLED:
        return ReadOnly("unknown", f"Claude Code reads `{words[0]}` with an allow-list of its "
                                   "own arguments that wave-lsp does not transcribe")
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
    if not directories or program not in PATH_CHECKED:
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


__all__ = ["FACT", "ReadOnly", "runtime_commands", "runtime_glob",
           "runtime_read_only"]
