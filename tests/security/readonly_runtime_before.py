"""Claude Code's wider read-only list as Python code wrote it before it became data
(`wave_lsp/data/readonly_runtime.toml`; `readonly_runtime.py` at commit af7f7d7), kept unchanged as
the oracle that `test_readonly_runtime_data.py` compares the loaded facts and their decisions
with."""

from __future__ import annotations

from collections.abc import Mapping

from wave_lsp.core.permissions.readonly import WORDS, CommandSpec, _flags

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
