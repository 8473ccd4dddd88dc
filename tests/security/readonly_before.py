"""The strict read-only table as Python code wrote it before it became data
(`wave_lsp/data/readonly.toml`, at commit 7f05467: `readonly._commands` and
`readonly_git.GIT_SUBCOMMANDS`), kept unchanged as the oracle that `test_readonly_data.py` compares
the loaded table and its decisions with."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from wave_lsp.core.permissions.readonly import (
    NO_OPERANDS,
    REVISIONS,
    WORDS,
    CommandSpec,
    Reading,
    _branch,
    _config_get,
    _date,
    _flags,
    _git_log,
    _jq_filter,
    _no_response_files,
    _reflog,
    _remote_name,
    _tag,
)

#: where the table comes from, and when it was last compared with it
SOURCE = ("Claude Code's Bash tool read-only validation (src/tools/BashTool/readOnlyValidation.ts "
          "and src/utils/shell/readOnlyCommandValidation.ts, v2.1.88: COMMAND_ALLOWLIST, "
          "GIT_READ_ONLY_COMMANDS, READONLY_COMMANDS) and the permissions documentation "
          "(code.claude.com/docs/en/permissions, read-only commands); a stricter subset")
CHECKED = "2026-12-01"

#: where wave-lsp is deliberately stricter than Claude Code, and why (docs/security.md)
STRICTER: Mapping[str, str] = {
    "tail": "`-f`/`--follow` and `--retry` keep reading until the preview times out",
    "grep": "`-R` follows symbolic links to files outside the project",
    "rg": "`-L`/`--follow` follows symbolic links and `-z` runs decompression programs",
    "diff": "`-r` follows symbolic links to files outside the project",
    "git diff": "`--no-index` compares files outside the repository",
    "git grep": "`--no-index` searches files outside the repository",
    "file": ("`-s` reads devices, `-L` and `-f` read files outside the project, `-m` reads a "
             "`:`-separated list of magic files and every file of a folder"),
    "sha256sum": "`-c` reads the files its list names, wherever they are",
    "sha1sum": "`-c` reads the files its list names, wherever they are",
    "md5sum": "`-c` reads the files its list names, wherever they are",
    "git config --get": "`--global` and `--system` read the user's and the machine's settings",
    "du": "`-L` follows symbolic links",
    "ls": "`-L` follows symbolic links",
    "tree": "`-l` follows symbolic links and `--fromfile` reads names from a file",
    "find": "`-L`/`-follow` follow symbolic links",
    "sleep": "it only delays the preview",
    "sed": "its scripts can write files (`w`) and run commands (`e`); not modelled",
    "xargs": "it runs the command it is given",
}


def _spec(flags: str, **options: object) -> CommandSpec:
    return CommandSpec(_flags(flags + " --help --version"), **options)  # type: ignore[arg-type]


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


# -- the table --------------------------------------------------------------------------------------
_GIT_OPERANDS: Mapping[str, str] = {"remote": NO_OPERANDS, "config --get": WORDS,
                                    "remote show": WORDS, "worktree list": NO_OPERANDS,
                                    "stash list": NO_OPERANDS}
_GIT_CHECKS: Mapping[str, Callable[[Reading], str | None]] = {
    "branch": _branch, "tag": _tag, "reflog": _reflog, "remote show": _remote_name,
    "config --get": _config_get, "log": _git_log, "show": _git_log, "rev-list": _git_log,
    "shortlog": _git_log, "stash list": _git_log}

_GREP = ("-e=string --regexp=string -f=path --file=path -F --fixed-strings -G --basic-regexp -E "
         "--extended-regexp -P --perl-regexp -i --ignore-case --no-ignore-case -v --invert-match "
         "-w --word-regexp -x --line-regexp -c --count --color=optional --colour=optional -L "
         "--files-without-match -l --files-with-matches -m=number --max-count=number -o "
         "--only-matching -q --quiet --silent -s --no-messages -b --byte-offset -H "
         "--with-filename -h --no-filename --label=string -n --line-number -T --initial-tab -u "
         "--unix-byte-offsets -Z --null -z --null-data -A=number --after-context=number "
         "-B=number --before-context=number -C=number --context=number "
         "--group-separator=string --no-group-separator -a --text --binary-files=string "
         "-d=string --directories=string --exclude=string --exclude-from=path "
         "--exclude-dir=string --include=string -r --recursive --line-buffered -U --binary -V")
_RG = ("-e=string --regexp=string -f=path -i --ignore-case -S --smart-case -F --fixed-strings -w "
       "--word-regexp -v --invert-match -c --count -l --files-with-matches "
       "--files-without-match -n --line-number -o --only-matching -A=number "
       "--after-context=number -B=number --before-context=number -C=number --context=number "
       "-H -h --heading --no-heading -q --quiet --column -g=string --glob=string -t=string "
       "--type=string -T=string --type-not=string --type-list --hidden --no-ignore -u "
       "-m=number --max-count=number -d=number --max-depth=number -a --text --color=string "
       "--json --stats --files -N --no-line-number -x --line-regexp -0 --null --debug")
_LS = ("-a -A -b -B -c -C -d -f -F -g -G -h -i -k -l -m -n -N -o -p -q -Q -r -R -s -S -t -u -U "
       "-v -w=number -x -X -Z -1 -I=string -T=number --all --almost-all --author --escape "
       "--block-size=string --ignore-backups --color=optional --directory --classify=optional "
       "--file-type --format=string --full-time --group-directories-first --no-group "
       "--human-readable --si --indicator-style=string --inode --ignore=string --kibibytes "
       "--literal --numeric-uid-gid --hide=string --hide-control-chars --show-control-chars "
       "--quote-name --quoting-style=string --reverse --recursive --size --sort=string "
       "--time=string --time-style=string --tabsize=number --width=number --context --zero")
_HEAD = ("-c=string --bytes=string -n=string --lines=string -q --quiet --silent -v --verbose -z "
         "--zero-terminated")
#: without `-c`/`--check`, which reads the files a list names (anywhere)
_SUMS = "-b --binary -t --text --tag -z --zero"


def old_commands() -> Mapping[str, CommandSpec]:
    """program (or `git SUBCOMMAND`) -> its spec, as the Python table built it."""
    any_args = {"attached_values": True}
    table: dict[str, CommandSpec] = {
        "cat": _spec("-A --show-all -b --number-nonblank -e -E --show-ends -n --number -s "
                     "--squeeze-blank -t -T --show-tabs -u -v --show-nonprinting", **any_args),
        "head": _spec(_HEAD, numeric_shorthand=True, **any_args),
        "tail": _spec(_HEAD, numeric_shorthand=True, **any_args),
        "wc": _spec("-c --bytes -m --chars -l --lines -L --max-line-length -w --words "
                    "--total=string", **any_args),
        "stat": _spec("-f --file-system -c=string --format=string --printf=string -t --terse "
                      "--cached=string", **any_args),
        "nl": _spec("-b=string --body-numbering=string -d=string --section-delimiter=string "
                    "-f=string --footer-numbering=string -h=string --header-numbering=string "
                    "-i=number --line-increment=number -l=number --join-blank-lines=number "
                    "-n=string --number-format=string -p --no-renumber -s=string "
                    "--number-separator=string -v=number --starting-line-number=number "
                    "-w=number --number-width=number", **any_args),
        "strings": _spec("-a --all -d --data -n=number --bytes=number -t=string --radix=string "
                         "-e=string --encoding=string -f --print-file-name -w "
                         "--include-all-whitespace -s=string --output-separator=string",
                         check=_no_response_files, **any_args),
        "od": _spec("-A=string --address-radix=string -j=string --skip-bytes=string -N=string "
                    "--read-bytes=string -t=string --format=string -v --output-duplicates "
                    "-w=optional --width=optional -a -b -c -d -f -i -l -o -s -x "
                    "--endian=string", **any_args),
        "hexdump": _spec("-b -c -C -d -o -x -e=string -n=number -s=string -v --canonical",
                         **any_args),
        "id": _spec("-g --group -G --groups -n --name -r --real -u --user -z --zero",
                    operands=WORDS, **any_args),
        "uname": _spec("-a --all -s --kernel-name -n --nodename -r --kernel-release -v "
                       "--kernel-version -m --machine -p --processor -i --hardware-platform -o "
                       "--operating-system", operands=NO_OPERANDS, **any_args),
        "free": _spec("-b --bytes -k --kibi -m --mebi -g --gibi --kilo --mega --giga -h "
                      "--human -w --wide -t --total --si -l --lohi -v --committed",
                      operands=NO_OPERANDS, **any_args),
        "df": _spec("-a --all -h --human-readable -H --si -i --inodes -k -l --local -T "
                    "--print-type -P --portability --total -t=string --type=string -x=string "
                    "--exclude-type=string --output=optional -B=string --block-size=string",
                    **any_args),
        "du": _spec("-a --all -b --bytes -c --total -h --human-readable -k -m -s --summarize -x "
                    "--one-file-system -d=number --max-depth=number --apparent-size --si "
                    "--exclude=string -B=string --block-size=string --time --inodes",
                    **any_args),
        "locale": _spec("-a --all-locales -m --charmaps -c --category-name -k --keyword-name",
                        operands=WORDS, **any_args),
        "groups": _spec("", operands=WORDS, **any_args),
        "nproc": _spec("--all --ignore=number", operands=NO_OPERANDS, **any_args),
        "basename": _spec("-a --multiple -s=string --suffix=string -z --zero", operands=WORDS,
                          **any_args),
        "dirname": _spec("-z --zero", operands=WORDS, **any_args),
        "realpath": _spec("-e --canonicalize-existing -m --canonicalize-missing -L --logical "
                          "-P --physical -q --quiet -s --strip --no-symlinks -z --zero "
                          "--relative-to=path --relative-base=path", **any_args),
        "readlink": _spec("-f --canonicalize -e --canonicalize-existing -m "
                          "--canonicalize-missing -n --no-newline -q --quiet -s --silent -v "
                          "--verbose -z --zero", **any_args),
        "cut": _spec("-b=string --bytes=string -c=string --characters=string -d=string "
                     "--delimiter=string -f=string --fields=string -n --complement -s "
                     "--only-delimited --output-delimiter=string -z --zero-terminated",
                     **any_args),
        "paste": _spec("-d=string --delimiters=string -s --serial -z --zero-terminated",
                       **any_args),
        "tr": _spec("-c -C --complement -d --delete -s --squeeze-repeats -t --truncate-set1",
                    operands=WORDS, **any_args),
        "column": _spec("-t --table -s=string --separator=string -o=string "
                        "--output-separator=string -c=number --output-width=number -x "
                        "--fillrows -n -e -J --json -N=string --table-columns=string "
                        "-R=string --table-right=string", **any_args),
        "tac": _spec("-b --before -r --regex -s=string --separator=string", **any_args),
        "rev": _spec("", **any_args),
        "fold": _spec("-b --bytes -s --spaces -w=number --width=number", **any_args),
        "expand": _spec("-i --initial -t=string --tabs=string", **any_args),
        "unexpand": _spec("-a --all --first-only -t=string --tabs=string", **any_args),
        "fmt": _spec("-c --crown-margin -p=string --prefix=string -s --split-only -t "
                     "--tagged-paragraph -u --uniform-spacing -w=number --width=number "
                     "-g=number --goal=number", **any_args),
        "comm": _spec("-1 -2 -3 --check-order --nocheck-order --output-delimiter=string "
                      "--total -z --zero-terminated", **any_args),
        "cmp": _spec("-b --print-bytes -i=string --ignore-initial=string -l --verbose "
                     "-n=string --bytes=string -s --quiet --silent", **any_args),
        "numfmt": _spec("-d=string --delimiter=string --field=string --format=string "
                        "--from=string --from-unit=string --grouping --header=optional "
                        "--invalid=string --padding=number --round=string --suffix=string "
                        "--to=string --to-unit=string -z --zero-terminated", operands=WORDS,
                        **any_args),
        "diff": _spec("-q --brief -s --report-identical-files -c -C=number --context=optional "
                      "-u -U=number --unified=optional -e --ed -n --rcs -y --side-by-side "
                      "-W=number --width=number --left-column --suppress-common-lines -p "
                      "--show-c-function -F=string --show-function-line=string --label=string "
                      "-t --expand-tabs -T --initial-tab --suppress-blank-empty -l --paginate "
                      "-i --ignore-case -E --ignore-tab-expansion -Z --ignore-trailing-space "
                      "-b --ignore-space-change -w --ignore-all-space -B --ignore-blank-lines "
                      "-I=string --ignore-matching-lines=string -a --text --strip-trailing-cr "
                      "-d --minimal --horizon-lines=number --speed-large-files --normal "
                      "--color=optional", folders=False, **any_args),
        "true": _spec("", operands=WORDS),
        "false": _spec("", operands=WORDS),
        "which": _spec("-a -s", operands=WORDS),
        "type": _spec("-a -f -p -P -t", operands=WORDS),
        "expr": CommandSpec({}, operands=WORDS, double_dash=False),
        "test": CommandSpec({}, operands=WORDS, double_dash=False),
        "getconf": _spec("-a", operands=WORDS),
        "seq": _spec("-f=string --format=string -s=string --separator=string -w --equal-width",
                     operands=WORDS, numeric_shorthand=True),
        "cal": _spec("-1 -3 -y -Y -j -s -m -M -w --one --three --year --twelve --julian "
                     "--sunday --monday --week", operands=WORDS, **any_args),
        "uptime": _spec("-p --pretty -s --since", operands=NO_OPERANDS),
        "pwd": _spec("-L -P", operands=NO_OPERANDS),
        "whoami": _spec("", operands=NO_OPERANDS),
        "echo": CommandSpec({}, operands=WORDS, double_dash=False),
        # not in 2.1.88's list; 2.1.332 runs it with no rule (tests/oracle, inj-printf-lines);
        # without options: `-v NAME` assigns a shell variable
        "printf": _spec("", operands=WORDS),
        "ls": _spec(_LS, **any_args),
        "tree": _spec("-a -d -f -x -L=number -P=string -I=string --gitignore --gitfile=path "
                      "--ignore-case --matchdirs --metafirst --prune --info --infofile=path "
                      "--noreport --charset=string --filelimit=number -q -N -Q -p -u -g -s -h "
                      "--si --du -D --timefmt=string -F --inodes --device -v -t -c -U -r "
                      "--dirsfirst --filesfirst --sort=string -i -A -S -n -C -X -J -H=string "
                      "--nolinks --hintro=string --houtro=string -T=string --hyperlink "
                      "--scheme=string --authority=string"),
        "file": _spec("--brief -b --mime -i --mime-type --mime-encoding --apple "
                      "--check-encoding -c --exclude=string --exclude-quiet=string --print0 "
                      "-0 -F=string --separator=string -v --no-dereference -h "
                      "--keep-going -k --list -l --no-buffer -n "
                      "--preserve-date -p --raw -r"),
        "sort": _spec("--ignore-leading-blanks -b --dictionary-order -d --ignore-case -f "
                      "--general-numeric-sort -g --human-numeric-sort -h --ignore-nonprinting "
                      "-i --month-sort -M --numeric-sort -n --random-sort -R --reverse -r "
                      "--sort=string --stable -s --unique -u --version-sort -V "
                      "--zero-terminated -z --key=string -k=string --field-separator=string "
                      "-t=string --check -c --check-char-order -C --merge -m "
                      "--buffer-size=string -S=string --parallel=number --batch-size=number"),
        "uniq": _spec("-c --count -d --repeated -D --all-repeated=optional -f=number "
                      "--skip-fields=number -i --ignore-case -s=number --skip-chars=number -u "
                      "--unique -w=number --check-chars=number -z --zero-terminated "
                      "--group=optional", operands=NO_OPERANDS),
        "grep": _spec(_GREP, attached_numbers=True),
        "rg": _spec(_RG, attached_numbers=True),
        "jq": _spec("-r --raw-output -j --join-output -a --ascii-output -c --compact-output "
                    "-C --color-output -M --monochrome-output -S --sort-keys -e --exit-status "
                    "-s --slurp -n --null-input -R --raw-input --tab --indent=number --seq "
                    "--stream", check=_jq_filter),
        "date": _spec("-d=string --date=string -r=path --reference=path -u --utc --universal "
                      "-I=optional --iso-8601=optional -R --rfc-email --rfc-3339=string --debug",
                      operands=WORDS, check=_date),
        "hostname": _spec("-f --fqdn --long -s --short -i --ip-address -I --all-ip-addresses -a "
                          "--alias -d --domain -A --all-fqdns -v --verbose -h -V",
                          operands=NO_OPERANDS),
        "sha256sum": _spec(_SUMS), "sha1sum": _spec(_SUMS), "md5sum": _spec(_SUMS),
    }
    for name, flags in GIT_SUBCOMMANDS.items():
        table[f"git {name}"] = CommandSpec(
            _flags(flags), operands=_GIT_OPERANDS.get(name, REVISIONS), numeric_shorthand=True,
            dash_values=frozenset({"--sort"}), check=_GIT_CHECKS.get(name))
    return table
