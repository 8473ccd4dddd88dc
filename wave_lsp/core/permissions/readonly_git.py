"""The option lists of the `git` subcommands the read-only table of `readonly.py` accepts
(docs/design/runtime-facts.md §3.8, the read-only auto-allow: Claude Code's
`GIT_READ_ONLY_COMMANDS`, a stricter subset). Data only: `"--flag=kind"` words as
`readonly._flags` reads them.
"""

from __future__ import annotations

_GIT_REF_SELECTION = "--all --branches --tags --remotes"
_GIT_DATES = "--since=string --after=string --until=string --before=string"
_GIT_LOG_DISPLAY = "--oneline --graph --decorate --no-decorate --date=string --relative-date"
_GIT_COUNT = "--max-count=number -n=number"
_GIT_STAT = "--stat --numstat --shortstat --name-only --name-status"
_GIT_COLOR = "--color --no-color"
_GIT_PATCH = "--patch -p --no-patch --no-ext-diff -s"
_GIT_AUTHOR = "--author=string --committer=string --grep=string"

GIT_SUBCOMMANDS = {
    "diff": (f"{_GIT_STAT} {_GIT_COLOR} --dirstat --summary --patch-with-stat --word-diff "
             "--word-diff-regex=string --color-words --no-renames --no-ext-diff --check "
             "--ws-error-highlight=string --full-index --binary --abbrev=optional "
             "--break-rewrites --find-renames --find-copies --find-copies-harder "
             "--irreversible-delete --diff-algorithm=string --histogram --patience --minimal "
             "--ignore-space-at-eol --ignore-space-change --ignore-all-space "
             "--ignore-blank-lines --inter-hunk-context=number --function-context --exit-code "
             "--quiet --cached --staged --pickaxe-regex --pickaxe-all --relative=optional "
             "--diff-filter=string -p -u -s -M -C -B -D -l -S=string -G=string -O=path -R"),
    "log": (f"{_GIT_LOG_DISPLAY} {_GIT_REF_SELECTION} {_GIT_DATES} {_GIT_COUNT} {_GIT_STAT} "
            f"{_GIT_COLOR} {_GIT_PATCH} {_GIT_AUTHOR} --abbrev-commit --full-history --dense "
            "--sparse --simplify-merges --ancestry-path --source --first-parent --merges "
            "--no-merges --reverse --walk-reflogs --skip=number --max-age=number "
            "--min-age=number --no-min-parents --no-max-parents --follow --no-walk --left-right "
            "--cherry-mark --cherry-pick --boundary --topo-order --date-order "
            "--author-date-order --pretty=optional --format=string --diff-filter=string "
            "-S=string -G=string --pickaxe-regex --pickaxe-all"),
    "show": (f"{_GIT_LOG_DISPLAY} {_GIT_STAT} {_GIT_COLOR} {_GIT_PATCH} --abbrev-commit "
             "--word-diff --word-diff-regex=string --color-words --pretty=optional "
             "--format=string --first-parent --raw --diff-filter=string -m --quiet"),
    "shortlog": (f"{_GIT_REF_SELECTION} {_GIT_DATES} -s --summary -n --numbered -e --email -c "
                 "--committer --group=string --format=optional --no-merges --author=string"),
    "reflog": f"{_GIT_LOG_DISPLAY} {_GIT_REF_SELECTION} {_GIT_DATES} {_GIT_COUNT} {_GIT_AUTHOR}",
    "stash list": f"{_GIT_LOG_DISPLAY} {_GIT_REF_SELECTION} {_GIT_COUNT}",
    "stash show": (f"{_GIT_STAT} {_GIT_COLOR} {_GIT_PATCH} --word-diff --word-diff-regex=string "
                   "--diff-filter=string --abbrev=optional"),
    "status": ("--short -s --branch -b --porcelain --long --verbose -v "
               "--untracked-files=optional -u=optional --ignored --ignore-submodules=optional "
               "--column --no-column --ahead-behind --no-ahead-behind --renames --no-renames "
               "--find-renames=optional -M=optional"),
    "blame": (f"{_GIT_COLOR} -L=string --porcelain -p --line-porcelain --incremental --root "
              "--show-stats --show-name --show-number -n --show-email -e -f --date=string -w "
              "--ignore-rev=string --ignore-revs-file=path -M -C --score-debug --abbrev=optional "
              "-s -l -t"),
    "ls-files": ("--cached -c --deleted -d --modified -m --others -o --ignored -i --stage -s "
                 "--killed -k --unmerged -u --directory --no-empty-directory --eol --full-name "
                 "--abbrev=optional --debug -z -t -v -f --exclude=string -x=string "
                 "--exclude-from=path -X=path --exclude-per-directory=string --exclude-standard "
                 "--error-unmatch --recurse-submodules"),
    "config --get": ("--local --worktree --default=string --type=string "
                     "--bool --int --bool-or-int --path --expiry-date -z --null --name-only "
                     "--show-origin --show-scope"),
    "remote": "-v --verbose",
    "remote show": "-n",
    "merge-base": "--is-ancestor --fork-point --octopus --independent --all",
    "rev-parse": ("--verify --short=optional --abbrev-ref --symbolic --symbolic-full-name "
                  "--show-toplevel --show-cdup --show-prefix --git-dir --git-common-dir "
                  "--absolute-git-dir --show-superproject-working-tree --is-inside-work-tree "
                  "--is-inside-git-dir --is-bare-repository --is-shallow-repository"),
    "rev-list": (f"{_GIT_REF_SELECTION} {_GIT_DATES} {_GIT_COUNT} {_GIT_AUTHOR} --count "
                 "--reverse --first-parent --ancestry-path --merges --no-merges "
                 "--min-parents=number --max-parents=number --no-min-parents --no-max-parents "
                 "--skip=number --max-age=number --min-age=number --walk-reflogs --oneline "
                 "--abbrev-commit --pretty=optional --format=string --abbrev=optional "
                 "--full-history --dense --sparse --source --graph"),
    "describe": ("--tags --match=string --exclude=string --long --abbrev=optional --always "
                 "--contains --first-match --exact-match --candidates=number --dirty --broken"),
    "cat-file": "-t -s -p -e --batch-check --allow-undetermined-type",
    "for-each-ref": ("--format=string --sort=string --count=number --contains=optional "
                     "--no-contains=optional --merged=optional --no-merged=optional "
                     "--points-at=string"),
    "grep": ("-e=string -E --extended-regexp -G --basic-regexp -F --fixed-strings -P "
             "--perl-regexp -i --ignore-case -v --invert-match -w --word-regexp -n "
             "--line-number -c --count -l --files-with-matches -L --files-without-match -h -H "
             "--heading --break --full-name --color --no-color -o --only-matching "
             "-A=number --after-context=number -B=number --before-context=number -C=number "
             "--context=number --and --or --not --max-depth=number --untracked "
             "--recurse-submodules --cached --threads=number -q --quiet"),
    "worktree list": "--porcelain -v --verbose --expire=string",
    "tag": ("-l --list -n=optional --contains=optional --no-contains=optional "
            "--merged=optional --no-merged=optional --sort=string --format=string "
            "--points-at=string --column --no-column -i --ignore-case"),
    "branch": ("-l --list -a --all -r --remotes -v -vv --verbose --color --no-color --column "
               "--no-column --abbrev=optional --no-abbrev --contains=optional --no-contains=optional "
               "--merged=optional --no-merged=optional --points-at=string --sort=string "
               "--show-current -i --ignore-case"),
}
