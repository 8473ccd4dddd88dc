"""Wave's permission manager as data: its read-only commands, its default allow rules, its texts and
the settings it reads (docs/design/runtime-facts.md §8.12; the `wave` target's prediction,
`wave_prediction.py`).

Every value is transcribed from Wave's code at commit 469391bb (`netease-lcap/wave-agent`,
`packages/agent-sdk/src/`), in the file and function named beside it, and confirmed by asking the
built Wave's own `PermissionManager` (runtime-facts §8.12, *Confirmed against Wave*). Where the
Wave skills specification speaks (it checks injected commands with the Bash tool's rules, §8.7) it
is the reference; it says nothing about the rule syntax, the read-only commands or the texts, so
these are the code's.
"""

from __future__ import annotations

#: the Wave commit every fact below is read from
COMMIT = "469391bb"

#: `utils/bashParser.ts` `READ_ONLY_COMMANDS`: a part whose first word (`^(\w+)`) is one of these
#: runs without a rule, whatever its arguments, unless it has a write redirection, a command or
#: process substitution, `sed -i` or a dangerous `find` (`isAutoAllowedPart`)
READ_ONLY_COMMANDS = frozenset({
    "ls", "cat", "head", "tail", "wc", "sort", "uniq", "grep", "egrep", "fgrep", "rg", "find",
    "which", "whereis", "file", "stat", "du", "df", "free", "uptime", "uname", "hostname",
    "whoami", "id", "groups", "env", "printenv", "echo", "printf", "date", "true", "false", "pwd",
    "tree", "diff", "cmp", "md5sum", "sha256sum", "sha1sum", "xxd", "od", "hexdump", "strings",
    "readlink", "realpath", "basename", "dirname", "seq", "column", "jq", "yq", "cut", "paste",
    "tr", "awk", "sed", "test", "expr", "bc", "sleep",
})

#: `managers/permissionManager.ts` `DEFAULT_ALLOWED_RULES`: always-on allow rules, matched like
#: any rule but never for a "dangerous variant" of a part (`isAllowedByRule`)
DEFAULT_ALLOWED_RULES = (
    "Bash(git status*)", "Bash(git diff*)", "Bash(git log*)", "Bash(git show*)",
    "Bash(git branch)", "Bash(git branch --list*)", "Bash(git branch -a*)",
    "Bash(git branch -r*)", "Bash(git branch --show-current*)", "Bash(git branch --merged*)",
    "Bash(git branch --no-merged*)", "Bash(git branch --contains*)",
    "Bash(git branch --no-contains*)", "Bash(git branch --verbose*)", "Bash(git branch -v*)",
    "Bash(git branch -vv*)", "Bash(git tag*)", "Bash(git remote*)", "Bash(git ls-files*)",
    "Bash(git rev-parse*)", "Bash(git config --list*)", "Bash(git config -l*)",
    "Bash(git cat-file*)", "Bash(git count-objects*)", "Bash(echo*)", "Bash(ls*)", "Bash(find*)",
    "Bash(which*)", "Bash(type*)", "Bash(hostname*)", "Bash(whoami*)", "Bash(date*)",
    "Bash(uptime*)", "Bash(grep*)", "Bash(rg*)", "Bash(cat*)", "Bash(head*)", "Bash(tail*)",
    "Bash(wc*)", "Bash(sleep*)",
)

#: `utils/bashParser.ts` `isDangerousFind`: a `find` with one of these words is not read-only
DANGEROUS_FIND_FLAGS = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint",
                                  "-fprint0", "-fprintf"})

#: `utils/bashParser.ts` `GIT_SCOPE_FLAGS`: leading `git` options a rule also matches without
#: (`stripGitScopePrefix`, used by `matchesRule`)
GIT_SCOPE_FLAGS = frozenset({"-C", "-c", "--directory", "--work-tree", "--git-dir"})

#: `managers/permissionManager.ts` `checkPermission`: the texts of a refusal (`{tool}`, `{rule}`)
DENIED_BY_RULE = "Access to tool '{tool}' is explicitly denied by rule: {rule}"
DONT_ASK = ("Tool '{tool}' was automatically denied because 'dontAsk' permission mode is active "
            "and no pre-approved rule matches this call.")
#: no rule allows it and nothing can ask (no permission callback: a skill load, `wave -p`)
NO_CALLBACK = "Tool '{tool}' requires permission approval. No permission callback configured."

#: `types/permissions.ts` `PermissionMode` and `services/configurationService.ts`
#: (`validateConfiguration`): the modes `permissions.permissionMode` may name
MODES = frozenset({"default", "bypassPermissions", "acceptEdits", "plan", "dontAsk"})
#: the settings key of the mode (Claude Code's is `permissions.defaultMode`)
MODE_KEY = "permissionMode"

#: where the facts are written up (docs/design/runtime-facts.md), as predictions cite them
RULES_FACT = "runtime-facts §8.12 Wave's permission manager (469391bb checkPermission)"
READ_ONLY_FACT = "runtime-facts §8.12 Wave's read-only commands (469391bb READ_ONLY_COMMANDS)"
SETTINGS_FACT = "runtime-facts §8.12 the settings Wave reads"
#: the specification checks injected commands; Wave's code at 469391bb does not (yet)
UNCHECKED_NOTE = ("Wave's code at 469391bb does not check injected commands yet and runs this "
                  "one; the Wave specification, which the `wave` target follows, checks them with "
                  "the Bash tool's rules")
