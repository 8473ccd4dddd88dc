"""Issue 25's attacks on the read-only auto-allow, by class: a skill from a marketplace or a cloned
repository, no rule anywhere (or a tool-wide `Bash` allow with a deny rule), `--target
claude-code`. Each one runs a program, writes a file, reads the secret planted beside the project
(`harness.SECRET`), bypasses a deny rule, reads shell code from its input, or should have asked;
none of them may run. The classes are the mechanisms of the issue, several forms each."""

from __future__ import annotations

from tests.security.cases import DENY_TOUCH, EVIL, Attack, block, inline

#: a program that runs when a "read-only" command is talked into running one
PROGRAM = {"evil": EVIL, "in.txt": "b\na\n", "f.txt": "x\n"}

# -- class 7: programs run by a command called read-only -------------------------------------------
RUNS_PROGRAMS = [
    "git grep -O'touch CANARY' -e x", "git grep -O touch -e x", "git grep --open-files-in-pager=touch -e x",
    "git grep --open-files=touch -e x", "git grep --op=touch -e x",
    "sort --compress-program=./evil in.txt", "sort --compress=./evil in.txt",
    "git --git-dir=evil-repo status", "git --git-dir evil-repo status", "git -C evil-repo status",
    "git --work-tree=. status", "git --exec-path=. status", "git -c core.fsmonitor=./evil status",
    "git --config-env=core.fsmonitor=X status", "git diff --ext-diff", "git log -p --ext-diff",
    "git branch --edit-desc", "git branch --edit-description", "git diff --textconv",
    "rg --pre=./evil x", "rg --pre ./evil x", "rg --pr=./evil x", "rg -z x",
    "find . -exec ./evil ;", "find . -execdir ./evil ;", "find . -ok ./evil ;",
    "xargs ./evil", "sed -n e./evil in.txt", "tree --fromfile in.txt",
]
# -- class 8: files written -----------------------------------------------------------------------
WRITES = [
    "sort --outp=CANARY in.txt", "sort --output=CANARY in.txt", "sort -oCANARY in.txt",
    "sort -uo CANARY in.txt", "sort -u -o CANARY in.txt", "sort -T . in.txt",
    "uniq in.txt CANARY", "uniq -c in.txt CANARY", "file -C -m in.txt", "tree -o CANARY",
    "tree -R -H . -L 1", "git diff --output=CANARY", "git diff --outp=CANARY",
    "git log --output=CANARY -1", "git tag CANARY", "git branch CANARY", "git branch -m CANARY",
    "git reflog expire --all", "git remote add CANARY x", "date -s 10:00", "date --set=10:00",
    "find . -fprint CANARY", "find . -fls CANARY", "find . -delete",
]
# -- class 9: secrets read outside the project ----------------------------------------------------
READS = [
    ("redirect", "cat < ../SECRET", {}), ("redirect-fd", "cat 0< ../SECRET", {}),
    ("herestring-group", "{ cat; } < ../SECRET", {}),
    ("brace", "cat {../SECRET,f.txt}", {}), ("brace-seq", "cat ../SECRE{T..T}", {}),
    ("files0", "sort --files0-from=list", {}), ("wc-files0", "wc --files0-from=list", {}),
    ("absolute", "cat {root}/SECRET", {}), ("dotdot", "cat ../SECRET", {}),
    ("link-dir", "cat data/SECRET", {"data": ".."}),
    ("link-file", "cat notes.txt", {"notes.txt": "../SECRET"}),
    ("link-grep-R", "grep -R TOP data", {"data": ".."}),
    ("link-head", "head -5 data/SECRET", {"data": ".."}),
    ("link-proc", "cat env", {"env": "/proc/self/environ"}),
    ("proc", "cat /proc/self/environ", {}), ("home", "cat ~/.ssh/id_rsa", {}),
    ("diff-no-index", "git diff --no-index ../SECRET f.txt", {}),
    ("grep-file", "grep -f ../SECRET f.txt", {}),
    ("date-reference", "date -r ../SECRET", {}),
    ("glob", "cat ../SEC*", {}), ("glob-link", "cat dat*/SECRET", {"data": ".."}),
    ("glob-option", "grep TOP *", {}),
]
#: paths that leave the folder an allow rule names, through `..` or a link
TRAVERSALS = [
    ("skill-dir-dotdot", "cat ${CLAUDE_SKILL_DIR}/../../../../SECRET",
     "Bash(cat ${CLAUDE_SKILL_DIR}/*)", {}),
    ("skill-dir-link", "cat ${CLAUDE_SKILL_DIR}/up/SECRET", "Bash(cat ${CLAUDE_SKILL_DIR}/*)",
     {".claude/skills/attack/up": "../../../.."}),
    ("prefix-dotdot", "cat data/../../SECRET", "Bash(cat:*)", {}),
    ("wildcard-dotdot", "head -1 ../SECRET", "Bash(head *)", {}),
]
# -- class 10: deny rules bypassed through arithmetic, with a tool-wide allow ----------------------
ARITHMETIC = [
    'c=tou; let "a[\\$(${c}ch CANARY)]"',
    "let $'a[\\x24\\x28touch CANARY\\x29]'",
    'c=tou; [[ "a[\\$(${c}ch CANARY)]" -eq 1 ]]',
    'c=tou; declare -i x="a[\\$(${c}ch CANARY)]"',
    'c=tou; read "a[\\$(${c}ch CANARY)]" <<< 1',
    'c=tou; printf -v "a[\\$(${c}ch CANARY)]" x',
    'c=tou; x="a[\\$(${c}ch CANARY)]"; echo $((x))',
    'c=tou; x="a[\\$(${c}ch CANARY)]"; (( x ))',
    'c=tou; x="a[\\$(${c}ch CANARY)]"; echo ${b[x]}',
    'c=tou; a=(["\\$(${c}ch CANARY)"]=1)',
    'c=tou; unset "a[\\$(${c}ch CANARY)]"',
    "echo $'\\x24\\x28touch CANARY\\x29' | bash",
    "$'\\x74ouch' CANARY",
    "bash -c $'\\x74ouch CANARY'",
]
# -- class 11: shell code read from input ---------------------------------------------------------
FROM_INPUT = [
    'c=tou; . /dev/stdin <<< "${c}ch CANARY"', 'c=tou; source /dev/stdin <<< "${c}ch CANARY"',
    'c=tou; bash /dev/stdin <<< "${c}ch CANARY"', 'c=tou; sh /dev/fd/0 <<< "${c}ch CANARY"',
    'c=tou; bash /proc/self/fd/0 <<< "${c}ch CANARY"',
]
FROM_INPUT_BLOCKS = ['c=tou\nsh /dev/fd/0 <<EOF\n${c}ch CANARY\nEOF']
# -- class 12: decisions that must ask ------------------------------------------------------------
ASKS = [
    ("date-positional", "date 01010000", {}, ()), ("date-abbrev", "date --se 10:00", {}, ()),
    ("hostname", "hostname evil", {}, ()), ("printf-v", "printf -v x y", {}, ()),
    ("tail-follow", "tail --follow f.txt", {}, ()), ("tail-fol", "tail --fol f.txt", {}, ()),
    ("tail-f", "tail -f f.txt", {}, ()), ("tail-bundle", "tail -qf f.txt", {}, ()),
    ("fifo", "cat pipe", {}, ("pipe",)), ("zero", "cat zero", {"zero": "/dev/zero"}, ()),
    ("dev-zero", "head -c 10 /dev/zero", {}, ()), ("sleep", "sleep 100", {}, ()),
]


def _cases() -> list[Attack]:
    cases: list[Attack] = []
    claude = {"target": "claude-code"}
    for index, command in enumerate(RUNS_PROGRAMS):
        cases.append(Attack(f"c7-{index}", 7, inline(command), files=PROGRAM, **claude))
    for index, command in enumerate(WRITES):
        cases.append(Attack(f"c8-{index}", 8, inline(command), files=PROGRAM, **claude))
    for name, command, links in READS:
        cases.append(Attack(f"c9-{name}", 9, inline(command), links=links,
                            files={**PROGRAM, "list": "../SECRET\0",
                                   "-R": ""}, **claude))
    for name, command, rule, links in TRAVERSALS:
        cases.append(Attack(f"c9-{name}", 9, inline(command), (rule,), links=links, **claude))
    for index, command in enumerate(ARITHMETIC):
        cases.append(Attack(f"c10-{index}", 10, inline(command), ("Bash",), DENY_TOUCH,
                            **claude))
    for index, command in enumerate(FROM_INPUT):
        cases.append(Attack(f"c11-{index}", 11, inline(command), ("Bash",), DENY_TOUCH,
                            **claude))
    for index, command in enumerate(FROM_INPUT_BLOCKS):
        cases.append(Attack(f"c11-block-{index}", 11, block(command), ("Bash",), DENY_TOUCH,
                            **claude))
    for name, command, links, fifos in ASKS:
        cases.append(Attack(f"c12-{name}", 12, inline(command), links=links, fifos=fifos,
                            files=PROGRAM, **claude))
    return cases


READ_ONLY_ATTACKS = _cases()
