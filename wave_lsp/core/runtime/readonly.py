"""Read-only shell commands a runtime runs without any permission rule.

Claude Code classifies some Bash commands as read-only and allows them in every permission mode
without a rule (docs/design/runtime-facts.md §3.8 "read-only auto-allow", §7 item 75). Wave's
permission manager has no such class (§4.3): there a command without an allow rule is denied in a
non-interactive load. Whether a runtime has the class is `RuntimeProfile.auto_allows_read_only`.

`is_read_only(words, profile)` answers for one simple command, given as its words after the shell
has split it (a compound command is read-only when each of its parts is; the caller splits it, as
`PermissionEngine` does for a command no rule matches). It is conservative: a command it does not
know, a flag that can write or run something (`find -delete`, `sort -o`, `git diff --output`), a
word the shell still expands (`$VAR`, `$(…)`, backticks), an output redirection or a path outside
the working directory (absolute, `~`, `..`: Claude Code checks path constraints before the read-
only auto-allow) makes the command not read-only.

The table is data, with its source and date, so that it can be reviewed against the runtime.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from wave_lsp.core.runtime.profiles import RuntimeProfile

#: where the table comes from, and when it was last compared with it
SOURCE = ("Claude Code permissions documentation (code.claude.com/docs/en/permissions, read-only "
          "commands) and its Bash tool's read-only validation (src/tools/BashTool/"
          "readOnlyValidation.ts, v2.1.88); a conservative subset")
CHECKED = "2026-12-01"


@dataclass(frozen=True, slots=True)
class ReadOnlyCommand:
    """A program that is read-only unless one of `unsafe_flags` is given. With `subcommands`,
    only those first arguments are read-only (`git status`, not `git push`)."""

    unsafe_flags: frozenset[str] = frozenset()
    subcommands: Mapping[str, frozenset[str]] | None = None


def _plain(*unsafe: str) -> ReadOnlyCommand:
    return ReadOnlyCommand(frozenset(unsafe))


_GIT_WRITING = frozenset({"--output", "-o"})
_GIT = ReadOnlyCommand(subcommands=MappingProxyType({
    "status": frozenset(), "log": _GIT_WRITING, "diff": _GIT_WRITING, "show": _GIT_WRITING,
    "blame": frozenset(), "ls-files": frozenset(), "ls-tree": frozenset(),
    "rev-parse": frozenset(), "describe": frozenset(), "shortlog": frozenset(),
    "cat-file": frozenset(), "grep": frozenset({"-O", "--open-files-in-pager"}),
    "reflog": frozenset({"delete", "expire"}), "merge-base": frozenset(),
    "branch": frozenset({"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy",
                         "--set-upstream-to", "-u", "--unset-upstream", "--edit-description",
                         "-f", "--force"}),
    "tag": frozenset({"-d", "--delete", "-a", "-s", "-f", "-m", "-F", "-u"}),
    "remote": frozenset({"add", "remove", "rm", "rename", "set-url", "set-head", "prune",
                         "update"}),
}))

#: program -> how it is read-only (Claude Code)
CLAUDE_CODE_READ_ONLY: Mapping[str, ReadOnlyCommand] = MappingProxyType({
    "ls": _plain(), "pwd": _plain(), "cat": _plain(), "head": _plain(), "tail": _plain("-f", "-F"),
    "wc": _plain(), "echo": _plain(), "printf": _plain("-v"), "true": _plain(), "false": _plain(),
    "which": _plain(), "whoami": _plain(), "id": _plain(), "uname": _plain(), "hostname": _plain(),
    "date": _plain("-s", "--set"), "stat": _plain(), "file": _plain(), "du": _plain(),
    "df": _plain(), "tree": _plain("-o"), "basename": _plain(), "dirname": _plain(),
    "realpath": _plain(), "readlink": _plain(), "diff": _plain(), "cmp": _plain(),
    "comm": _plain(), "cut": _plain(), "tr": _plain(), "uniq": _plain(), "nl": _plain(),
    "sort": _plain("-o", "--output"), "column": _plain(), "grep": _plain(), "egrep": _plain(),
    "fgrep": _plain(), "rg": _plain("--pre"), "jq": _plain(), "seq": _plain(),
    "find": _plain("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0",
                   "-fprintf", "-fls"),
    "git": _GIT,
})

#: git subcommands that only list when given no name (`git branch`, `git remote -v`)
_LISTING_ONLY = frozenset({"branch", "tag", "remote"})


def _lists(subcommand: str, names: Sequence[str]) -> bool:
    if subcommand == "remote":
        return not names or names[0] in ("show", "get-url")
    return not names


def _outside_working_directory(word: str) -> bool:
    if word.startswith("-"):
        word = word.split("=", 1)[1] if "=" in word else ""
    return (word.startswith(("/", "~")) and word not in ("/dev/null",)) or ".." in word.split("/")


_EXPANSION = re.compile(r"\$|`")
_REDIRECT_OK = re.compile(r"^\d?>&\d$|^\d?>/dev/null$|^&>/dev/null$")


def is_read_only(words: Sequence[str], profile: RuntimeProfile) -> bool:
    """True when `profile`'s runtime runs this simple command (its words, quotes removed, no
    operators) without any permission rule as a read-only command."""
    if not profile.auto_allows_read_only or not words:
        return False
    table = CLAUDE_CODE_READ_ONLY
    program, *arguments = words
    spec = table.get(program)
    if spec is None or any(_EXPANSION.search(word) for word in words):
        return False
    if any(word.startswith((">", "<")) or (word[:1].isdigit() and ">" in word[:3])
           for word in arguments if not _REDIRECT_OK.match(word)):
        return False
    if any(_outside_working_directory(word) for word in arguments):
        return False  # reading outside the working directories needs permission (path rules)
    if spec.subcommands is not None:
        positional = [word for word in arguments if not word.startswith("-")]
        if not positional or positional[0] not in spec.subcommands:
            return False
        if positional[0] in _LISTING_ONLY and not _lists(positional[0], positional[1:]):
            return False  # `git branch x` creates a branch, `git remote add` adds a remote
        unsafe = spec.subcommands[positional[0]] | spec.unsafe_flags
    else:
        unsafe = spec.unsafe_flags
    return not any(word.split("=", 1)[0] in unsafe for word in arguments)
