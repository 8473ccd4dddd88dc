"""wave-lsp's strict table of read-only shell commands: the execution guard's read-only
auto-allow (`guard.py`; docs/design/product.md *Permission engine*, docs/security.md *The
read-only auto-allow*). The runtime's own, wider list, which the prediction uses, is
`readonly_runtime.py` (Claude Code's; Wave's is `wave_prediction.py`).

Claude Code classifies some Bash commands as read-only and allows them in every permission mode
without a rule (docs/design/runtime-facts.md §3.8 "read-only auto-allow"). Whether a runtime has
the class is `RuntimeProfile.auto_allows_read_only`.

The classifier is an **allow-list**, as Claude Code's own is (`readOnlyValidation.ts`,
`COMMAND_ALLOWLIST` with `safeFlags`): a command is read-only only when its program (and, for
`git`, its subcommand) is in the table and every option it is given is on that command's list.
Options are read as getopt reads them: a long option `--name[=value]` must be spelled out exactly
(an abbreviation, which GNU tools accept, is refused: `--outp` may be `--output`); short options
may be bundled (`-nr`) only when none of them takes a value, as Claude Code requires; a value is
attached with `=` or is the next word. Operands that name files must stay inside the working
directory after every symbolic link is followed, and must be regular files or folders (a FIFO or a
device can block or never end). Anything the classifier cannot model exactly is not read-only.

Where this list is narrower than Claude Code's (commands it leaves out, such as `sed`, `xargs`
and `sleep`; options such as `tail -f`, `grep -R`, `git diff --no-index`), the guard does not
run a command Claude Code would run: it is never looser than the runtime, and the table's
`[stricter]` names each difference (the prediction, `readonly_runtime.py`, puts them back).

The table is data, `wave_lsp/data/readonly.toml` (its header says the format), read once and
checked as it is read (`table()`): an unknown key, option kind, operand kind or check is an error,
not a silently looser table. The further checks an entry may name are the functions of `CHECKS`.

`read_only_problem(words, profile, cwd)` answers for one simple command, given as its words after
the shell has split them (the caller splits compound commands, as `StrictEngine` does): None
when it is read-only, else why not.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from wave_lsp.core.facts.profiles import RuntimeProfile

#: what an option's value may be (Claude Code's FlagArgType, plus `path` and `optional`)
NONE, NUMBER, STRING, PATH, CHAR, OPTIONAL = "none", "number", "string", "path", "char", "optional"
KINDS = frozenset({NONE, NUMBER, STRING, PATH, CHAR, OPTIONAL})
#: operands: files to check, plain words, git revisions or paths, or none at all
PATHS, WORDS, REVISIONS, NO_OPERANDS = "paths", "words", "revisions", "none"

@dataclass(frozen=True, slots=True)
class CommandSpec:
    """How one program (or `git` subcommand) is read-only: the options it may be given, with
    the kind of value each takes, and what its operands are."""

    flags: Mapping[str, str]
    operands: str = PATHS
    #: `-5` as a count (`head -5`, `git log -10`)
    numeric_shorthand: bool = False
    #: `-A20`: a short option with its number attached (grep, rg)
    attached_numbers: bool = False
    #: a short option may have its value attached (`-n5`) or be bundled before it: getopt's full
    #: rules, for commands Claude Code accepts with any arguments
    attached_values: bool = False
    #: `--` ends the options
    double_dash: bool = True
    #: option values that may start with `-` (`git tag --sort=-version:refname`)
    dash_values: frozenset[str] = frozenset()
    #: a further check on the arguments after the options are read: why not, or None
    check: Callable[[Reading], str | None] | None = None
    #: operands may be folders (`diff DIR DIR` follows the links inside them: no)
    folders: bool = True


def _flags(spec: str) -> dict[str, str]:
    """`"-n=number --lines=number -q"` as a mapping: option -> kind (`none` when no `=`)."""
    flags: dict[str, str] = {}
    for item in spec.split():
        name, _, kind = item.partition("=")
        kind = kind or NONE
        if kind not in KINDS:
            raise ValueError(f"unknown option kind {kind!r} in {item!r}")
        flags[name] = kind
    return flags


# -- checks on operands (Claude Code's additionalCommandIsDangerousCallback) ------------------------
def _date(reading: Reading) -> str | None:
    bad = next((word for word in reading.operands if not word.startswith("+")), None)
    if bad is not None:
        return f"`date {bad}` sets the system clock"
    if any("TZ=" in value for value in reading.values("-d", "--date")):
        return "a `TZ=` in `date -d` opens the file it names"
    return None


def _list_mode_only(reading: Reading, *, what: str) -> str | None:
    """`git branch NAME` / `git tag NAME` create one: a name is allowed only after `--list`
    (as getopt read it: a `--sort` value such as `-committeremail` is no `-l`)."""
    if not reading.operands or reading.has("-l", "--list"):
        return None
    return f"`{reading.operands[0]}` without `--list` creates a {what}"


def _branch(reading: Reading) -> str | None:
    return _list_mode_only(reading, what="branch")


def _tag(reading: Reading) -> str | None:
    return _list_mode_only(reading, what="tag")


def _reflog(reading: Reading) -> str | None:
    operands = reading.operands
    if operands and operands[0] in ("expire", "delete", "exists"):
        return f"`git reflog {operands[0]}` changes the reflog"
    return None


def _remote_name(reading: Reading) -> str | None:
    if not reading.has("-n"):
        return "`git remote show` without `-n` contacts the remote (wave-lsp is stricter here)"
    operands = reading.operands
    if len(operands) == 1 and re.fullmatch(r"[A-Za-z0-9_-]+", operands[0]):
        return None
    return "`git remote show` takes exactly one remote name"


def _config_get(reading: Reading) -> str | None:
    return None if 1 <= len(reading.operands) <= 2 else "`git config --get` takes a key"


#: `--format` placeholders that make git verify signatures (it runs gpg)
_SIGNATURE_PLACEHOLDER = re.compile(r"%G|%\(signature", re.I)


def _git_format(reading: Reading) -> str | None:
    formats = reading.values("--format", "--pretty")
    if any(_SIGNATURE_PLACEHOLDER.search(value) for value in formats):
        return "a signature placeholder (`%G…`) in the format makes git run gpg"
    return None


def _git_log(reading: Reading) -> str | None:
    return _git_format(reading)


_JQ_UNSAFE = re.compile(r"\benv\b|\$ENV\b|\$__loc__|\bimport\b|\binclude\b|\bmodulemeta\b"
                        r"|\bget_search_list\b|\binput_filename\b")


def _jq_filter(reading: Reading) -> str | None:
    if reading.operands and _JQ_UNSAFE.search(reading.operands[0]):
        return "the jq filter reads the environment or loads modules"
    return None


def _no_response_files(reading: Reading) -> str | None:
    """binutils read `@FILE` as further arguments, option values included."""
    words = [*reading.operands, *(value for _, value in reading.options if value is not None)]
    bad = next((word for word in words if word.startswith("@")), None)
    return None if bad is None else f"`{bad}` reads further arguments from a file"


# -- the table: wave_lsp/data/readonly.toml ---------------------------------------------------------
#: the further checks an entry of the table may name (`check = "NAME"`)
CHECKS: Mapping[str, Callable[[Reading], str | None]] = {
    "date": _date, "no-response-files": _no_response_files, "jq-filter": _jq_filter,
    "branch": _branch, "tag": _tag, "reflog": _reflog, "remote-name": _remote_name,
    "config-get": _config_get, "git-log": _git_log}
_OPERANDS = frozenset({PATHS, WORDS, REVISIONS, NO_OPERANDS})
#: the keys of an entry, with the type of each value
_ENTRY_KEYS: Mapping[str, type | tuple[type, ...]] = {
    "options": (str, list), "help-and-version": bool, "operands": str, "any-arguments": bool,
    "numeric-shorthand": bool, "attached-numbers": bool, "double-dash": bool, "folders": bool,
    "dash-values": list, "check": str}


@dataclass(frozen=True, slots=True)
class Table:
    """The strict read-only table as `readonly.toml` gives it."""

    source: str  #: where the table comes from
    checked: str  #: when it was last compared with its source
    #: where wave-lsp is deliberately stricter than Claude Code, and why (docs/security.md)
    stricter: Mapping[str, str]
    #: program (or `git SUBCOMMAND`) -> its spec
    commands: Mapping[str, CommandSpec]


def _words(value: object, shared: Mapping[str, object], where: str) -> str:
    """An `options` value (a string or a list of strings) as one string of `--flag=kind` words,
    each `@NAME` replaced by the shared list of that name."""
    parts = value if isinstance(value, list) else [value]
    texts = [part for part in parts if isinstance(part, str)]
    if len(texts) != len(parts):
        raise ValueError(f"{where}: options must be strings")
    words: list[str] = []
    for word in " ".join(texts).split():
        if word.startswith("@"):
            if word[1:] not in shared:
                raise ValueError(f"{where}: no shared option list {word!r}")
            words.append(_words(shared[word[1:]], {}, f"readonly.toml [options] {word[1:]}"))
        else:
            words.append(word)
    return " ".join(words)


def _entry(name: str, entry: Mapping[str, object], shared: Mapping[str, object]) -> CommandSpec:
    """One `[commands."NAME"]` table as a `CommandSpec`, its keys and values checked."""
    where = f"readonly.toml [commands.{name!r}]"
    for key, value in entry.items():
        kind = _ENTRY_KEYS.get(key)
        if kind is None or not isinstance(value, kind):
            raise ValueError(f"{where}: unknown key or wrong type: {key} = {value!r}")
    words = _words(entry.get("options", ""), shared, where)
    if entry.get("help-and-version", True):
        words += " --help --version"
    operands = str(entry.get("operands", PATHS))
    check = entry.get("check")
    if operands not in _OPERANDS or (check is not None and check not in CHECKS):
        raise ValueError(f"{where}: unknown operands {operands!r} or check {check!r}")
    dash_values = entry.get("dash-values", [])
    if not isinstance(dash_values, list):  # checked above; for the type checker
        raise ValueError(f"{where}: dash-values must be a list")
    return CommandSpec(
        _flags(words), operands=operands, numeric_shorthand=entry.get("numeric-shorthand") is True,
        attached_numbers=entry.get("attached-numbers") is True,
        attached_values=entry.get("any-arguments") is True,
        double_dash=entry.get("double-dash", True) is True,
        dash_values=frozenset(str(value) for value in dash_values),
        check=CHECKS[check] if isinstance(check, str) else None,
        folders=entry.get("folders", True) is True)


_HEADER = re.compile(r'\[([\w-]+)(?:\.(?:"([^"\\]*)"|([\w-]+)))?\]')
_KEY_VALUE = re.compile(r'(?:"([^"\\]*)"|([\w-]+)) = (.+)')


def _value(text: str) -> object:
    """A one-line TOML value of the kinds the table uses (a string, an array of strings, a
    boolean) read as JSON reads it; ValueError for anything else."""
    if text in ("true", "false"):
        return text == "true"
    if text[:1] not in ('"', "["):
        raise ValueError(text)
    return json.loads(text)


def _read_simple(text: str) -> dict[str, Any] | None:
    """`readonly.toml` read a line at a time: comments, `[table]` and `[table.key]` headers,
    `key = value` lines and arrays of strings over several lines, with no backslash anywhere
    (so that a TOML string is a JSON string). None for anything else, which tomllib then reads
    (or refuses): five to ten times faster than importing and running tomllib, once per process
    that classifies a command."""
    if "\\" in text:
        return None
    data: dict[str, Any] = {}
    table: dict[str, Any] = data
    array: tuple[str, list[str]] | None = None
    for line in map(str.strip, text.splitlines()):
        if array is not None:
            if line == "]":
                table[array[0]] = json.loads("[" + "".join(array[1]).rstrip(",") + "]")
                array = None
            elif line.startswith('"') and line.endswith('",'):
                array[1].append(line)
            else:
                return None
        elif not line or line.startswith("#"):
            continue
        elif header := _HEADER.fullmatch(line):
            outer = data.setdefault(header[1], {})
            key = header[2] if header[2] is not None else header[3]
            if not isinstance(outer, dict) or (key is None and outer) or key in outer:
                return None  # a table defined twice: tomllib says where
            table = outer if key is None else outer.setdefault(key, {})
        elif (pair := _KEY_VALUE.fullmatch(line)) and (name := pair[1] or pair[2]) not in table:
            if pair[3] == "[":
                array = (name, [])
                continue
            try:
                table[name] = _value(pair[3])
            except ValueError:
                return None
        else:
            return None
    return data if array is None else None


def load_table(text: str) -> Table:
    """`readonly.toml`'s text as a `Table`; a ValueError names what is wrong in it."""
    data = _read_simple(text)
    if data is None:
        import tomllib

        data = tomllib.loads(text)
    shared = data.get("options", {})
    git_defaults = data.get("git-defaults", {})
    commands = {name: _entry(name, {**(git_defaults if name.startswith("git ") else {}), **entry},
                             shared)
                for name, entry in data.get("commands", {}).items()}
    return Table(source=str(data["source"]), checked=str(data["checked"]),
                 stricter=MappingProxyType(dict(data.get("stricter", {}))),
                 commands=MappingProxyType(commands))


def data_text(name: str) -> str:
    """A file of `wave_lsp/data`: beside the source in a checkout, else the installed package's."""
    beside = Path(__file__).parents[2] / "data" / name
    if beside.is_file():
        return beside.read_text("utf-8")
    from importlib import resources

    return resources.files("wave_lsp.data").joinpath(name).read_text("utf-8")


@lru_cache(maxsize=1)
def table() -> Table:
    """The table, read from `wave_lsp/data/readonly.toml` once."""
    return load_table(data_text("readonly.toml"))


def commands() -> Mapping[str, CommandSpec]:
    """The allow-list: program (or `git SUBCOMMAND`) -> its spec."""
    return table().commands


# -- reading the arguments --------------------------------------------------------------------------
@dataclass(slots=True)
class Reading:
    """What getopt made of a command's arguments."""

    operands: list[str] = field(default_factory=list)
    #: option values that name files
    paths: list[str] = field(default_factory=list)
    #: every option read, bundles split (`-nr` is `-n`, `-r`), with its value (None for none)
    options: list[tuple[str, str | None]] = field(default_factory=list)

    def has(self, *names: str) -> bool:
        return any(option in names for option, _ in self.options)

    def values(self, *names: str) -> list[str]:
        return [value for option, value in self.options if option in names and value is not None]


def _value_problem(option: str, kind: str, value: str, spec: CommandSpec) -> str | None:
    if kind == NUMBER and not value.isdigit():
        return f"`{option}` takes a number, not `{value}`"
    if kind == CHAR and len(value) != 1:
        return f"`{option}` takes one character"
    if value.startswith("-") and option not in spec.dash_values and kind != NUMBER:
        return f"the value of `{option}` starts with `-`"
    return None


def _read_arguments(name: str, spec: CommandSpec, arguments: Sequence[str]
                    ) -> tuple[Reading, str | None]:
    """The operands and file-naming values of `arguments`, read as getopt reads them, or why an
    argument is not on `spec`'s list."""
    reading = Reading()
    if spec.operands == WORDS and not spec.flags:
        reading.operands.extend(arguments)  # echo, expr, test: every word is data
        return reading, None
    index = 0
    while index < len(arguments):
        word = arguments[index]
        index += 1
        if word == "--" and spec.double_dash:
            reading.operands.extend(arguments[index:])
            break
        if not word.startswith("-") or word == "-":
            reading.operands.append(word)
            continue
        if spec.numeric_shorthand and re.fullmatch(r"-\d+", word):
            continue
        if word.startswith("--"):
            option, equals, value = word.partition("=")
            kind = spec.flags.get(option)
            if kind is None:
                return reading, (f"`{option}` is not an option `{name}` is read-only with"
                                 + (" (long options are matched as spelled out: an "
                                    "abbreviation is refused)" if len(option) > 2 else ""))
            if kind == NONE:
                if equals:
                    return reading, f"`{option}` takes no value"
                reading.options.append((option, None))
                continue
            if kind == OPTIONAL:  # only an attached `=value`, which is plain data
                reading.options.append((option, value if equals else None))
                continue
            if not equals:
                if index >= len(arguments):
                    return reading, f"`{option}` needs a value"
                value = arguments[index]
                index += 1
            problem = _value_problem(option, kind, value, spec)
            if problem:
                return reading, problem
            reading.options.append((option, value))
            if kind == PATH:
                reading.paths.append(value)
            continue
        problem, consumed = _read_short(name, spec, word, arguments[index:], reading)
        if problem:
            return reading, problem
        index += consumed
    return reading, None


def _read_short(name: str, spec: CommandSpec, word: str, rest: Sequence[str],
                reading: Reading) -> tuple[str | None, int]:
    """One word of short options (`-n`, `-nr`, `-A20`, `-n5`): why not, and how many of the
    following words it consumed as a value."""
    letters = word[1:]
    for position, letter in enumerate(letters):
        option = "-" + letter
        kind = spec.flags.get(option)
        if kind is None:
            return f"`{option}` is not an option `{name}` is read-only with", 0
        if kind == NONE:
            reading.options.append((option, None))
            continue
        attached = letters[position + 1:]
        bundled = position > 0
        if kind == OPTIONAL:  # an optional value is attached or absent
            reading.options.append((option, attached or None))
            return None, 0
        if attached:
            numeric = spec.attached_numbers and attached.isdigit() and not bundled
            if not (spec.attached_values or numeric):
                return (f"`{word}` attaches a value to `{option}`, which Claude Code does not "
                        "read as read-only"), 0
            if attached.startswith("="):
                return f"`{word}`: a short option's value does not start with `=`", 0
            problem = _value_problem(option, kind, attached, spec)
            if problem:
                return problem, 0
            reading.options.append((option, attached))
            if kind == PATH:
                reading.paths.append(attached)
            return None, 0
        if bundled and not spec.attached_values:
            return f"`{word}` bundles `{option}`, which takes a value", 0
        if not rest:
            return f"`{option}` needs a value", 0
        problem = _value_problem(option, kind, rest[0], spec)
        if problem:
            return problem, 0
        reading.options.append((option, rest[0]))
        if kind == PATH:
            reading.paths.append(rest[0])
        return None, 1
    return None, 0


# -- paths ------------------------------------------------------------------------------------------
def has_brace_list(text: str) -> bool:
    """`text` has a `{…,…}` or `{…..…}` the shell expands (one linear pass: a pattern with
    backtracking took quadratic time on a long run of `{`)."""
    opened = -1
    for index, char in enumerate(text):
        if char == "{":
            opened = index
        elif char == "}":
            opened = -1
        elif opened >= 0 and (char == "," or text.startswith("..", index)):
            return True
    return False


SAFE_READS = frozenset({"/dev/null", "-"})


def path_problem(value: str, cwd: Path | None) -> str | None:
    """Why reading `value` is not read-only in `cwd`: outside it after every symbolic link is
    followed, in a home folder, or not a regular file or folder (a FIFO, a device, a socket, a
    file under /proc). Without `cwd` (no disk to look at) only the text is judged."""
    if value in SAFE_READS:
        return None
    if value.startswith("~"):
        return f"`{value}` is in a home folder, outside the working directory"
    if cwd is None:
        if value.startswith("/") or ".." in value.split("/"):
            return f"`{value}` is outside the working directory"
        return None
    root = os.path.realpath(cwd)
    resolved = os.path.realpath(os.path.join(root, value))
    if resolved != root and not resolved.startswith(root.rstrip(os.sep) + os.sep):
        return f"`{value}` resolves outside the working directory"
    try:
        mode = os.stat(resolved).st_mode
    except OSError:
        return None  # nothing there: the command reports it and reads nothing
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return f"`{value}` is not a regular file (a device or FIFO can block or never end)"
    return None


#: commands whose unquoted glob operands Claude Code 2.1.332 checks instead of refusing (read from
#: its bundle, a set of path-reading commands beside the `argvUnquotedGlob` test; 2.1.88 refused
#: every unquoted glob)
GLOB_COMMANDS = frozenset({"ls", "cat", "head", "tail", "wc", "stat", "grep", "diff", "du", "df",
                           "strings", "hexdump", "od", "nl", "cut", "column", "tac", "rev",
                           "cmp", "realpath", "readlink", "sha256sum", "sha1sum", "md5sum"})
#: a glob made of `*` and `?` only: bracket expressions are refused (bash's `[!x]`, `[^x]` and
#: `[[:class:]]` differ from Python's matching, so their matches cannot be checked)
_GLOB_CHARACTER = re.compile(r"[*?]")
_PLAIN_GLOB = re.compile(r"[^'\"\\{}~$`\[\]=:@]*[*?][^'\"\\{}~$`\[\]=:@]*")


def glob_problem(program: str, pattern: str, cwd: Path | None) -> str | None:
    """Why the unquoted glob `pattern` (as written) makes `program` not read-only: the program
    is not one whose globs are checked, the pattern is more than a plain glob, or one of the
    files it matches now (in `cwd`, as bash would expand it) is outside the working directory,
    not a regular file, or named like an option (`-R`)."""
    if program not in GLOB_COMMANDS or not _PLAIN_GLOB.fullmatch(pattern):
        return f"`{pattern}` is a glob the shell expands"
    if cwd is None:
        return f"`{pattern}` is a glob, and there is no working directory to expand it in"
    # a name's leading dot is matched only by a written `.` (`*` never matches `..`)
    if any(segment.startswith(".") and _GLOB_CHARACTER.search(segment)
           and (fnmatchcase("..", segment) or fnmatchcase(".", segment))
           for segment in pattern.split("/")):
        return (f"`{pattern}` may match `..`, the folder above (bash before 5.2 matches it; "
                "macOS ships bash 3.2)")
    from wave_lsp.core.permissions.globbing import MAX_GLOB_MATCHES, MAX_GLOB_STEPS, bounded_glob

    expanded = bounded_glob(pattern, root_dir=cwd)  # a link loop must not explode (issue 35)
    if not expanded.complete:
        return (f"`{pattern}` is too large a glob to check: expanding it visits more than "
                f"{MAX_GLOB_STEPS:,} paths or matches more than {MAX_GLOB_MATCHES:,} (a folder "
                "that links to itself repeats at every `*/`)")
    for match in expanded.matches:
        if match.startswith(("-", "@")):
            return (f"`{pattern}` matches `{match}`, which the program would read as an option "
                    "or a file of arguments")
        problem = path_problem(match, cwd)
        if problem:
            return problem
    return None


def _revision_problem(value: str) -> str | None:
    """git operands are revisions or paths inside the repository; git refuses paths outside it,
    except written as absolute paths or `..`, which are judged as paths."""
    if value.startswith(("/", "~")) or ".." in value.split("/"):
        return f"`{value}` is outside the working directory"
    return None


def _bare_repository(cwd: Path | None) -> bool:
    """The working directory looks like a bare git repository (HEAD, objects/, refs/): git
    would read its configuration, and whatever it runs, from files a skill may have placed."""
    if cwd is None:
        return False
    # git's own test (setup.c, is_git_directory): HEAD, and objects/ and refs/ it can enter;
    # whether they are folders does not matter to it
    return ((cwd / "HEAD").exists() and os.access(cwd / "objects", os.X_OK)
            and os.access(cwd / "refs", os.X_OK))



# -- the answer -------------------------------------------------------------------------------------
def _find(words: Sequence[str], cwd: Path | None) -> str | None:
    """`find PATH… EXPRESSION`: paths first, then primaries from a list of tests and actions
    that only print (no `-exec`, `-delete`, `-fprint`, `-L`)."""
    tests_with_value = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                        "-regex", "-iregex", "-type", "-xtype", "-size", "-mtime", "-mmin",
                        "-atime", "-amin", "-ctime", "-cmin", "-newer", "-perm", "-user",
                        "-group", "-uid", "-gid", "-links", "-inum", "-samefile",
                        "-maxdepth", "-mindepth", "-printf", "-regextype", "-lname",
                        "-ilname", "-used"}
    plain = {"-print", "-print0", "-ls", "-prune", "-quit", "-empty", "-true", "-false",
             "-readable", "-writable", "-executable", "-nouser", "-nogroup", "-depth", "-d",
             "-mount", "-xdev", "-noleaf", "-not", "-a", "-and", "-o", "-or", "!", "(", ")",
             ",", "-daystart", "-P", "-H", "-ignore_readdir_race", "-noignore_readdir_race"}
    arguments = list(words[1:])
    index = 0
    while index < len(arguments) and not (arguments[index].startswith("-")
                                          or arguments[index] in ("!", "(")):
        problem = path_problem(arguments[index], cwd)
        if problem:
            return problem
        index += 1
    while index < len(arguments):
        word = arguments[index]
        if word in tests_with_value:
            if index + 1 >= len(arguments):
                return f"`{word}` needs a value"
            if word in ("-newer", "-samefile"):
                problem = path_problem(arguments[index + 1], cwd)
                if problem:
                    return problem
            index += 2
        elif word in plain:
            index += 1
        else:
            return f"`{word}` is not a `find` primary that is read-only"
    return None


def _program(words: Sequence[str]) -> tuple[str, CommandSpec | None, int]:
    return program_entry(words, commands())


def program_entry(words: Sequence[str], table: Mapping[str, CommandSpec]
                  ) -> tuple[str, CommandSpec | None, int]:
    """The entry of `table` (an allow-list) for the command and how many words name it
    (`git config --get`)."""
    if words[0] == "git":
        for width in (3, 2):
            name = " ".join(words[:width])
            if len(words) >= width and name in table:
                return name, table[name], width
        return " ".join(words[:2]), None, 2
    return words[0], table.get(words[0]), 1


def read_only_problem(words: Sequence[str], profile: RuntimeProfile,
                      cwd: Path | None = None) -> str | None:
    """None when `profile`'s runtime runs this simple command (its words, quotes removed, no
    operators) without any permission rule as a read-only command; else why not. `cwd` is the
    working directory the command runs in (paths are resolved there, through links)."""
    if not profile.auto_allows_read_only:
        return f"{profile.runtime} has no read-only commands that run without a rule"
    if not words:
        return "there is no command"
    bad = next((word for word in words if "$" in word or "`" in word), None)
    if bad is not None:
        return f"`{bad}` is still expanded by the shell"
    bad = next((word for word in words if has_brace_list(word)), None)
    if bad is not None:
        return f"`{bad}` is a brace expansion"
    if words[0] == "find":
        return _find(words, cwd)
    name, spec, width = _program(words)
    if spec is None:
        reason = table().stricter.get(name)
        return (f"`{name}` is not on its list of read-only commands"
                + (f" (wave-lsp is stricter than Claude Code here: {reason})" if reason else ""))
    if name.startswith("git ") and _bare_repository(cwd):
        return "the working directory looks like a bare git repository"
    reading, problem = _read_arguments(name, spec, words[width:])
    if problem:
        reason = table().stricter.get(name)
        return problem + (f" (wave-lsp is stricter than Claude Code for `{name}`: {reason})"
                          if reason and "not an option" in problem else "")
    return _operands_problem(name, spec, reading, cwd)


def _operands_problem(name: str, spec: CommandSpec,
                      reading: Reading, cwd: Path | None) -> str | None:
    operands = reading.operands
    if spec.operands == NO_OPERANDS and operands:
        return f"`{name}` takes no operands here (`{operands[0]}`)"
    if spec.check is not None:
        problem = spec.check(reading)
        if problem:
            return problem
    files = list(reading.paths)
    if spec.operands == PATHS:
        files += operands
    elif spec.operands == REVISIONS:
        for value in operands:
            problem = _revision_problem(value)
            if problem:
                return problem
        # a revision that is also a path on disk is read as one, through its links (outside a
        # work tree `git diff A B` compares any two files: they must be inside too)
        files += [value for value in operands if cwd is not None
                  and os.path.lexists(os.path.join(cwd, value))]
    for value in files:
        problem = path_problem(value, cwd)
        if problem:
            return problem
        if not spec.folders and cwd is not None and os.path.isdir(os.path.join(cwd, value)):
            return f"`{value}` is a folder: `{name}` follows the links inside it"
    return None


def is_read_only(words: Sequence[str], profile: RuntimeProfile, cwd: Path | None = None) -> bool:
    """True when `profile`'s runtime runs this simple command without any permission rule
    (`read_only_problem` finds nothing)."""
    return read_only_problem(words, profile, cwd) is None
