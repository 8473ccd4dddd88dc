"""The permission engine: may this shell command run? (docs/design/product.md *Permission engine*,
docs/design/runtime-facts.md §3.8 and §8.7; the promises and the threat model: docs/security.md).

One engine for everything that asks: the invocation preview, the SK123–SK125 diagnostics and the
injection hovers. Rules come from the settings files of the target (`~/.wave/settings.json`,
`<project>/.wave/settings.json`, `<project>/.wave/settings.local.json`; `.claude/…` for
`claude-code`; plus files named in the `settingsFiles` setting) under `permissions.allow|ask|deny`,
and from the skill's resolved `allowed-tools` as allow rules.

The command is parsed with tree-sitter-bash and the whole syntax tree is walked: every simple command
anywhere in it (lists, pipelines, control flow, groups, subshells, function bodies, command
substitutions inside words, strings, here-documents and here-strings, the code of `sh -c '…'` and
`eval …`) is a part. Evaluation: tool-wide deny, tool-wide ask, then deny and ask rules against every
candidate form of the whole command and of every part (`deny_forms`: as written, normalised,
without assignments, without wrappers, every tail of a command that runs its arguments), so that
normalisation only ever makes a deny more likely. A command the engine cannot model exactly (parse
errors, process substitution, functions, a command word computed at run time, shell code read from
input or computed at run time) is never allowed, whatever the rules. Then an exact allow rule for
the whole command; control flow and standalone assignments only that or a tool-wide allow; else
every part must be allowed on its own (prefix and wildcard rules never allow a part with an
expansion, and strip only Claude Code's safe assignments, never one that changes what runs), then
tool-wide allow; no match means "ask", and a skill load cannot ask, so it is denied.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from wave_lsp.core.runtime.profiles import RuntimeProfile
from wave_lsp.core.runtime.readonly import glob_problem, has_brace_list, read_only_problem
from wave_lsp.core.runtime.toolrules import parse_rule, unescaped_positions
from wave_lsp.core.runtime.wildcard import wildcard_matcher

BEHAVIORS = ("deny", "ask", "allow")
#: `NAME=value` assignments that allow rules may skip (Claude Code's ENV_VAR_PATTERN)
SAFE_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=([A-Za-z0-9_./:-]+)[ \t]+")
ANY_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(?:'[^']*'|\"(?:[^\"\\]|\\.)*\"|[^\s'\"]*)[ \t]+")
#: wrappers that do not change what runs (timeout 5 cmd, nice -n 5 cmd, …)
SAFE_WRAPPERS = re.compile(
    r"^(?:timeout(?:[ \t]+-[A-Za-z-]+(?:[ \t]+[0-9.]+[smhd]?)?)*[ \t]+[0-9.]+[smhd]?|time|nohup|"
    r"nice(?:[ \t]+-n[ \t]*-?[0-9]+|[ \t]+-[0-9]+)?|stdbuf(?:[ \t]+-[ioe][ \t]*\S+)+|command|"
    r"builtin|noglob)[ \t]+")


@dataclass(frozen=True, slots=True)
class PermissionRule:
    raw: str
    tool: str
    content: str | None  #: None for a tool-wide rule (`Bash`, `Bash()`, `Bash(*)`)
    behavior: str  #: "allow", "ask" or "deny"
    source: str  #: "allowed-tools", "user settings", "project settings", …
    path: Path | None = None
    personal: bool = False

    @property
    def kind(self) -> str:
        return _rule_kind(self.content)

    @property
    def where(self) -> str:
        if self.source == "allowed-tools" or self.path is None:
            return self.source
        return f"{self.source} ({self.path})"

    def matches(self, command: str) -> bool:
        """Whether this rule matches one (already normalised) simple command."""
        return _matcher(self.content)(command)

    def matches_any(self, commands: Iterable[str]) -> bool:
        match = _matcher(self.content)
        return any(match(command) for command in commands)


@lru_cache(maxsize=1024)
def _matcher(content: str | None) -> Callable[[str], bool]:
    """The test of one rule's content against a command (built once per content)."""
    kind = _rule_kind(content)
    if kind == "tool" or content is None:
        return lambda command: True
    if kind == "exact":
        exact = _unescape(content)
        return lambda command: command == exact
    if kind == "prefix":
        prefix = _unescape(content[:-2])
        spaced = prefix + " "
        return lambda command: command == prefix or command.startswith(spaced)
    return wildcard_matcher(content)  # linear in rule and command (issue 35)


@lru_cache(maxsize=1024)
def _rule_kind(content: str | None) -> str:
    if content is None:
        return "tool"
    if re.fullmatch(r"(.+):\*", content, re.S):
        return "prefix"
    if _unescaped_stars(content):
        return "wildcard"
    return "exact"


def _unescaped_stars(content: str) -> list[int]:
    return unescaped_positions(content, "*")


@lru_cache(maxsize=1024)
def _unescape(text: str) -> str:
    """`parse_rule` already resolved `\\(`, `\\)` and `\\\\`; a literal star is written `\\*`."""
    return text.replace("\\*", "*")


# -- sources ----------------------------------------------------------------------------------
@dataclass(slots=True)
class RuleSet:
    rules: list[PermissionRule] = field(default_factory=list)
    #: settings files that exist but cannot be used, with why
    problems: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  #: the settings files consulted
    #: the files that set `disableSkillShellExecution: true` (Claude Code then runs no injection)
    disables_shell: list[Path] = field(default_factory=list)

    def extend(self, other: RuleSet) -> None:
        self.rules += other.rules
        self.problems += other.problems
        self.files += other.files
        self.disables_shell += other.disables_shell


def settings_files(profile: RuntimeProfile, project_root: Path | None, home: Path | None,
                   personal: bool = True, extra: Iterable[str] = ()) -> list[tuple[str, Path, bool]]:
    """(label, path, personal) of every settings file the target reads, lowest precedence first."""
    folder = profile.settings_folder
    files: list[tuple[str, Path, bool]] = []
    if personal and home is not None:
        files.append(("user settings", home / folder / "settings.json", True))
    if project_root is not None:
        files.append(("project settings", project_root / folder / "settings.json", False))
        files.append(("local project settings", project_root / folder / "settings.local.json",
                      False))
    for item in extra:
        path = Path(item).expanduser()
        if not path.is_absolute() and project_root is not None:
            path = project_root / path
        files.append(("settings file", path, False))
    return files


def user_settings_files(home: Path) -> list[Path]:
    """The user's settings file of every runtime (`~/.wave/settings.json`, `~/.claude/…`): their
    deny and ask rules apply whatever the target (docs/security.md)."""
    from wave_lsp.core.runtime.profiles import PROFILES

    folders = dict.fromkeys(profile.settings_folder for profile in PROFILES.values())
    return [home / folder / "settings.json" for folder in folders]


def load_settings(label: str, path: Path, personal: bool) -> RuleSet:
    """The `permissions.allow|ask|deny` rules of one settings file (missing file: no rules);
    read again only when the file changes."""
    try:
        info = path.stat()
    except OSError:
        return RuleSet()
    cached = _load_settings(label, path, personal, info.st_mtime_ns, info.st_size)
    return RuleSet(list(cached.rules), list(cached.problems), list(cached.files),
                   list(cached.disables_shell))


@lru_cache(maxsize=64)
def _load_settings(label: str, path: Path, personal: bool, _mtime: int, _size: int) -> RuleSet:
    result = RuleSet()
    try:
        if not path.is_file():
            return result
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        result.problems.append(f"{path}: cannot be read as JSON ({error})")
        return result
    result.files.append(path)
    if not isinstance(data, dict):
        result.problems.append(f"{path}: is not a JSON object")
        return result
    if data.get("disableSkillShellExecution") is True:
        result.disables_shell.append(path)
    permissions = data.get("permissions")
    if permissions is None:
        return result
    if not isinstance(permissions, dict):
        result.problems.append(f"{path}: permissions is not an object")
        return result
    for behavior in BEHAVIORS:
        entries = permissions.get(behavior, [])
        if not isinstance(entries, list):
            result.problems.append(f"{path}: permissions.{behavior} is not a list")
            continue
        for entry in entries:
            rule = make_rule(entry, behavior, label, path, personal) if isinstance(entry, str) \
                else None
            if rule is None:
                if behavior != "allow":  # a restriction that cannot be read fails closed
                    result.problems.append(f"{path}: permissions.{behavior} has an entry that is "
                                           f"not a rule: {json.dumps(entry)[:80]}")
                continue
            result.rules.append(rule)
    return result


def make_rule(raw: str, behavior: str, source: str, path: Path | None = None,
              personal: bool = False) -> PermissionRule | None:
    parsed = parse_rule(raw.strip())
    if not parsed.tool:
        return None
    content = parsed.content
    if content is not None and content.strip() in ("", "*"):
        content = None
    return PermissionRule(raw.strip(), parsed.tool, content, behavior, source, path, personal)


# -- splitting (tree-sitter-bash) ------------------------------------------------------------------
#: names whose value changes which program runs or what it loads: never stripped for allow rules
#: (a rule must name them), whatever the value
UNSAFE_VARIABLE = re.compile(
    r"^(?:PATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS|CDPATH|GLOBIGNORE|HOME|"
    r"ZDOTDIR|XDG_[A-Z_]+|TMPDIR|LD_[A-Z_]*|DYLD_[A-Z_]*|GIT_[A-Z_]*|PAGER|MANPAGER|"
    r"SYSTEMD_PAGER|EDITOR|VISUAL|BROWSER|LESSOPEN|LESSCLOSE|LESSKEY|PYTHON[A-Z_]*|NODE_OPTIONS|"
    r"NODE_PATH|NPM_CONFIG_[A-Za-z_]*|npm_config_[A-Za-z_]*|PERL5LIB|PERL5OPT|PERLLIB|RUBYOPT|"
    r"RUBYLIB|GEM_[A-Z_]*|BUNDLE_[A-Z_]*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|"
    r"CLASSPATH|SSH_ASKPASS|SUDO_ASKPASS|GNUPGHOME|SHELL|TERMINFO|MAKEFLAGS|MAKE|CC|CXX|"
    r"CARGO_[A-Z_]*|RUSTC_WRAPPER|RUSTC|GOFLAGS|GOPATH|GOROOT|PIP_[A-Z_]*|UV_[A-Z_]*|"
    r"DOCKER_[A-Z_]*|KUBECONFIG|HTTPS?_PROXY|https?_proxy|ALL_PROXY|all_proxy|CURL_HOME|"
    r"WGETRC|OPENSSL_CONF|SSL_CERT_[A-Z_]*|BASH_FUNC_.*|.*%%)$")
#: commands that run (part of) their arguments as another command: deny and ask rules also look at
#: every tail of their words
RUNNERS = frozenset({
    "xargs", "env", "timeout", "nice", "nohup", "time", "stdbuf", "command", "builtin", "exec",
    "noglob", "sudo", "doas", "su", "runuser", "watch", "flock", "ionice", "setsid", "chrt",
    "taskset", "unbuffer", "strace", "ltrace", "nsenter", "chroot", "find", "fd", "parallel",
    "script", "caffeinate", "systemd-run", "unshare", "firejail", "busybox", "then", "do",
    "trap", "eval", "coproc", "catchsegv", "valgrind", "torsocks", "proxychains", "proxychains4",
    "rlwrap", "dbus-run-session", "xvfb-run", "npx", "bunx", "pnpx", "uvx", "pipx", "with-contenv",
    "gtimeout", "sg", "newgrp", "faketime", "fakeroot", "pkexec", "start-stop-daemon", "entr",
})
#: bash's reserved words: as a command word they mean tree-sitter-bash misread the line
RESERVED = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for",
                      "case", "esac", "in", "function", "select", "{", "}", "[[", "]]", "!",
                      "coproc"})
#: programs that run a string argument as shell code (`sh -c '…'`)
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh",
                    "busybox", "rbash", "yash", "posh"})
#: builtins and programs whose arguments, joined, are shell code
CODE_RUNNERS = frozenset({"eval", "trap", "watch"})
#: programs whose `-c CODE` / `--command CODE` option is shell code
DASH_C = frozenset({"su", "runuser", "script", "flock", "sg"})
#: node types that hold one value (a word) in a command
STATEMENTS = frozenset({"program", "list", "pipeline", "command", "redirected_statement", "subshell",
                        "compound_statement", "if_statement", "elif_clause", "else_clause",
                        "while_statement", "for_statement", "c_style_for_statement",
                        "case_statement", "case_item", "do_group", "negated_command",
                        "test_command", "declaration_command", "unset_command",
                        "variable_assignment", "variable_assignments", "function_definition",
                        "comment"})
CONTAINERS = frozenset({"program", "list", "pipeline"})
OPERATORS = frozenset({"&&", "||", ";", "|", "|&", "&", ";;", "\n"})
REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
STRUCTURES = {"subshell": "subshell", "compound_statement": "command group",
              "if_statement": "if statement", "while_statement": "loop",
              "for_statement": "loop", "c_style_for_statement": "loop",
              "case_statement": "case statement", "negated_command": "negated command",
              "test_command": "test expression", "declaration_command": "declaration",
              "unset_command": "unset command", "variable_assignment": "variable assignment",
              "variable_assignments": "variable assignment"}
#: commands whose arguments are paths they write (or remove)
WRITE_COMMANDS = frozenset({"touch", "rm", "rmdir", "mv", "cp", "mkdir", "ln", "tee", "chmod",
                            "chown", "chgrp", "truncate", "install", "rsync", "dd", "shred",
                            "unlink", "mkfifo", "mknod"})
SAFE_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"})
GLOB_OR_BRACE = re.compile(r"[*?\[{~]")
INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f"
                       "\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
                       "\U000e0000-\U000e007f]")
UNESCAPED_NEWLINE = re.compile(r"(?<!\\)\n")
#: what separates commands, for the lexical cross-check of deny rules (`lexical_forms`)
LEXICAL_SEPARATORS = re.compile(r"\$\(|[;&|()\n`{}<>]")
QUOTES_AND_ESCAPES = re.compile(r"[\\'\"]")
MAX_DEPTH = 4  #: nested `sh -c` / `eval` levels read before a command counts as unmodelled
MAX_COMMAND_CHARS = 8192  #: longer commands are not read at all: nothing that reads one grows
#: with its length past this
#: variables that make git run a command or read configuration that can name one
GIT_CODE_VARIABLES = re.compile(r"GIT_(?:CONFIG\w*|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR|"
                                r"SSH\w*|ASKPASS|PROXY_COMMAND|EXEC_PATH|TEMPLATE_DIR|DIR|"
                                r"WORK_TREE|COMMON_DIR|NAMESPACE|ALTERNATE_OBJECT_DIRECTORIES|"
                                r"OBJECT_DIRECTORY|INDEX_FILE|TRACE\w*)")
#: arithmetic the engine can model: numbers, names and operators (no subscripts, expansions,
#: quotes or escapes)
ARITHMETIC_TEXT = re.compile(r"[\sA-Za-z0-9_+\-*/%<>=!&|^~?:,()#]*")
ARITHMETIC_NAME = re.compile(r"(?<![\w#])[A-Za-z_]\w*")
VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: `[[ … ]]` operators that evaluate both sides as arithmetic
ARITHMETIC_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
#: builtins that assign (or unset) the variables named by their operands -> their options that
#: take a value (`read -a NAME`: the value of `-a` is itself a name, read as an operand)
ASSIGNING_BUILTINS: dict[str, frozenset[str]] = {
    "read": frozenset({"-d", "-i", "-n", "-N", "-p", "-t", "-u"}),
    "mapfile": frozenset({"-d", "-n", "-O", "-s", "-u", "-C", "-c"}),
    "readarray": frozenset({"-d", "-n", "-O", "-s", "-u", "-C", "-c"}),
    "unset": frozenset(), "declare": frozenset(), "typeset": frozenset(), "local": frozenset(),
    "export": frozenset(), "readonly": frozenset(),
}
#: files that are a process's input: shell code read from them is code read from input
INPUT_FILES = re.compile(r"^(?:-|/dev/stdin|/dev/fd/\d+|/proc/(?:self|\d+|thread-self)/fd/\d+)$")
ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'", re.S)


@dataclass(frozen=True, slots=True)
class Word:
    written: str  #: as written
    value: str | None  #: what the shell makes of it, or None when computed at run time
    pattern: bool = False  #: the value may still be expanded (glob, brace, tilde)
    #: the text with `$'…'` quoting decoded, for deny rules only (its value counts as computed)
    decoded: str | None = None


@dataclass(frozen=True, slots=True)
class Part:
    text: str  #: the simple command as written
    #: redirections removed, words as written joined by one space (what prefix and wildcard rules see)
    bare: str
    expansion: str | None = None  #: "command substitution", "parameter expansion", …
    assignments: tuple[tuple[str, Word], ...] = ()  #: leading `NAME=value`
    words: tuple[Word, ...] = ()  #: the command word and its arguments
    writes: tuple[Word, ...] = ()  #: targets of output redirections (`>`, `>>`, `&>`, …)
    #: the command a wrapper runs (`timeout 5 CMD`, `xargs CMD`, `find -exec CMD ;`), a part of
    #: its own that must be allowed too
    wrapped: bool = False
    #: input redirections (`< file`, here-documents, here-strings), as written
    inputs: tuple[str, ...] = ()

    @property
    def program(self) -> str | None:
        """The command word's static value (None when computed at run time or absent)."""
        if not self.words or self.words[0].pattern:
            return None
        return self.words[0].value


@dataclass(frozen=True, slots=True)
class Split:
    parts: tuple[Part, ...]
    compound: bool
    #: why the command has structure that only an exact rule for the whole text (or a tool-wide
    #: allow) can allow: control flow, subshells, standalone assignments
    problem: str | None = None
    #: why the engine cannot model what runs (parse error, process substitution, a function, a
    #: command word computed at run time, code read from input): never allowed by any rule
    unmodelled: str | None = None
    #: targets of output redirections on compound statements (`{ …; } > f`, `a && b > f`)
    writes: tuple[Word, ...] = ()
    #: input redirections on compound statements (`{ …; } < f`)
    inputs: tuple[str, ...] = ()


@lru_cache(maxsize=1)
def _parser() -> Any:
    import tree_sitter  # imported on first use: `serve` starts without it
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


@lru_cache(maxsize=2048)
def split_command(command: str) -> Split:
    """The simple commands of a shell command line, found anywhere in its syntax tree
    (tree-sitter-bash): in lists and pipelines, control flow, groups, subshells, function bodies,
    command and process substitutions (also inside strings, here-documents and here-strings), and
    inside `sh -c '…'` / `eval '…'` strings."""
    walker = _Walker()
    walker.source(command, 0)
    if "\\\n" in command:
        # bash joins lines ending in a backslash before it reads words; tree-sitter-bash reads
        # the backslash-newline as white space: both readings must pass
        walker.source(command.replace("\\\n", ""), 0)
    walker.finish_arithmetic()
    own = [part for part in walker.parts if not part.wrapped]
    compound = walker.operators > 0 or len(own) > 1 or walker.problem is not None
    return Split(tuple(walker.parts), compound, walker.problem, walker.unmodelled,
                 tuple(walker.writes), tuple(walker.inputs))


class _Walker:
    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.writes: list[Word] = []  #: output redirections of compound statements
        self.operators = 0
        self.problem: str | None = None
        self.unmodelled: str | None = None
        self.inputs: list[str] = []  #: input redirections of compound statements
        #: the line assigns a variable somewhere (an assignment, `declare`, `read`, `for`, …)
        self.assigns = False
        #: a name is evaluated as arithmetic somewhere (`let x`, `(( x ))`, `${a[i]}`)
        self.arithmetic_names = False

    def cannot_model(self, why: str) -> None:
        self.unmodelled = self.unmodelled or why

    # arithmetic ------------------------------------------------------------------------------
    def arithmetic(self, expression: str) -> None:
        """An expression bash evaluates as arithmetic (`let`, `(( ))`, `$(( ))`, `[[ -eq ]]`,
        array subscripts, `declare -i` values). Array subscripts inside it are expanded when it
        is evaluated, so text the parser saw only as a string can run commands (`let
        'a[$(cmd)]'`): anything but numbers, names and operators cannot be modelled."""
        if not ARITHMETIC_TEXT.fullmatch(expression):
            self.cannot_model(f"evaluates `{_shortened(expression)}` as arithmetic, where array "
                              "subscripts can run commands the engine cannot see")
        elif ARITHMETIC_NAME.search(expression):
            self.arithmetic_names = True

    def variable(self, name: str) -> None:
        """A variable set for a command: git's configuration and command variables make git run
        what they name, which no deny rule sees."""
        if GIT_CODE_VARIABLES.fullmatch(name):
            self.cannot_model(f"sets `{name}`, which makes git run commands it names")

    def assigned_name(self, target: str) -> None:
        """A variable a builtin assigns (`read X`, `printf -v X`, `declare X=…`): a subscript in
        it is evaluated as arithmetic."""
        self.assigns = True
        name = target.split("=", 1)[0]
        self.variable(name)
        if not VARIABLE_NAME.fullmatch(name):
            self.cannot_model(f"assigns to `{_shortened(name)}`, whose subscript bash evaluates "
                              "as arithmetic")

    def finish_arithmetic(self) -> None:
        if self.arithmetic_names and self.assigns:
            self.cannot_model("evaluates a variable as arithmetic after assigning variables: "
                              "its value can hide commands in array subscripts")

    def expansion_arithmetic(self, text: str) -> None:
        """`${!name}` expands the variable `name` names, subscript included, and `${x:i:n}`
        evaluates `i` and `n` as arithmetic."""
        inner = text[2:-1]
        if inner.startswith("!"):
            self.arithmetic_names = True
            return
        match = re.match(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?:(?![-=?+])(.*)", inner, re.S)
        if match is not None:
            for piece in match.group(1).split(":"):
                self.arithmetic(piece)

    def structure_effects(self, node: Any, data: bytes) -> None:
        """Arithmetic and assignments of a statement that is not a simple command."""
        kind = node.type
        children = node.children
        if kind == "compound_statement" and children and children[0].type == "((":
            self.arithmetic(_text(node, data).strip()[2:-2])
        elif kind == "c_style_for_statement":
            self.assigns = True
            text = _text(node, data)
            start, end = text.find("(("), text.find("))")
            self.arithmetic(text[start + 2:end] if 0 <= start < end else text)
        elif kind == "for_statement":
            self.assigns = True
        elif kind == "test_command":
            text = _text(node, data)
            if re.search(r"(?:^|\s)-[vR](?:\s|$)", text):
                self.arithmetic_names = True  # `-v a[i]` evaluates the subscript
            for expression in _descendants(node, "binary_expression"):
                operator = expression.child_by_field_name("operator")
                if operator is not None and _text(operator, data) in ARITHMETIC_TESTS:
                    for side in expression.named_children:
                        if side.type != "test_operator":
                            self.arithmetic(_text(side, data))
        elif kind in ("variable_assignment", "variable_assignments"):
            self.assigns = True
            for assignment in [node, *_descendants(node, "variable_assignment")]:
                name = assignment.child_by_field_name("name")
                if name is not None:
                    self.variable(_text(name, data))
                if name is not None and name.type == "subscript":
                    self.arithmetic(_subscript_index(name, data))
                value = assignment.child_by_field_name("value")
                if value is not None and value.type == "array" and "[" in _text(value, data):
                    self.cannot_model("assigns an array with subscripts, which bash evaluates "
                                      "as arithmetic")
        elif kind in ("declaration_command", "unset_command"):
            self.declaration(node, data)

    def declaration(self, node: Any, data: bytes) -> None:
        """`declare`/`local`/`export`/`readonly`/`unset` NAME…: every name is assigned (or
        removed) through arithmetic subscripts; with `-i` the values are arithmetic too."""
        self.assigns = True
        integer = False
        for child in node.named_children:
            text = _text(child, data)
            if child.type == "word" and text.startswith(("-", "+")):
                integer = integer or "i" in text
                if "n" in text:
                    self.cannot_model("declares a name reference, which resolves names (and "
                                      "their subscripts) at run time")
            elif child.type == "variable_assignment":
                name = child.child_by_field_name("name")
                self.assigned_name(_text(name, data) if name is not None else text)
                value = child.child_by_field_name("value")
                if integer and value is not None:
                    self.arithmetic(_text(value, data))
            elif child.type in ("word", "variable_name"):
                self.assigned_name(text)
            else:
                self.cannot_model(f"declares a variable whose name is computed (`{_shortened(text)}`)")

    def builtin_effects(self, words: tuple[Word, ...]) -> None:
        """Arithmetic and assignments of simple commands: `let`, `read`, `printf -v`, `getopts`,
        `wait -p`, `mapfile`, …; `.`/`source` of the process's input."""
        if not words:
            return
        program = _basename(words[0].value)
        values = [w.value if w.value is not None else w.written for w in words[1:]]
        if program == "let":
            for value in values:
                self.arithmetic(value)
        elif program == "env":
            for value in values:
                if re.match(r"[A-Za-z_][A-Za-z0-9_]*=", value):
                    self.variable(value.split("=", 1)[0])
        elif program in (".", "source") and values and INPUT_FILES.match(values[0]):
            self.cannot_model(f"runs `{program}` on code it reads from its input")
        elif program in ("printf", "wait"):
            option = "-v" if program == "printf" else "-p"
            for index, value in enumerate(values[:-1]):
                if value == option:
                    self.assigned_name(values[index + 1])
        elif program == "getopts" and len(values) >= 2:
            self.assigned_name(values[1])
        elif program in ASSIGNING_BUILTINS:
            with_value = ASSIGNING_BUILTINS[program]
            skip = False
            for value in values:
                if skip:
                    skip = False
                elif value in with_value:
                    skip = True
                elif not value.startswith(("-", "+")):
                    self.assigned_name(value)

    def source(self, command: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            self.cannot_model("nests shell code too deeply")
            return
        if "\x00" in command:
            self.cannot_model("contains a NUL character")
            return
        if len(command) > MAX_COMMAND_CHARS:
            self.cannot_model(f"is {len(command):,} characters long; the permission engine reads "
                              f"commands of at most {MAX_COMMAND_CHARS:,}")
            return
        if INVISIBLE.search(command):
            self.cannot_model("contains invisible or bidirectional control characters, which make "
                              "the text shown differ from the text run")
        data = command.encode("utf-8", "surrogatepass")
        tree = _parser().parse(data)
        root = tree.root_node
        if root.has_error:
            self.cannot_model("cannot be parsed as a shell command")
        self.statement(root, data, depth)

    # statements ------------------------------------------------------------------------------
    def statement(self, node: Any, data: bytes, depth: int) -> None:
        kind = node.type
        if kind == "comment":
            return
        if kind in CONTAINERS:
            named = 0
            for child in node.children:
                if child.type in OPERATORS:
                    self.operators += 1
                elif child.is_named:
                    named += 1
                    self.statement(child, data, depth)
                elif child.type not in ("\n",):
                    self.operators += 1
            if kind == "program" and named > 1:
                self.operators += 1
            return
        if kind == "command":
            self.command(node, [], data, depth)
            return
        if kind == "redirected_statement":
            body = node.child_by_field_name("body")
            redirects = [c for c in node.children if c.is_named and c.type in REDIRECTS]
            if body is not None and body.type == "command":
                self.command(body, redirects, data, depth, node)
                return
            if body is None:
                self.problem = self.problem or "contains a redirection without a command"
            else:
                self.statement(body, data, depth)
            for redirect in redirects:
                self.expression(redirect, data, depth)
                if _is_input(redirect):
                    self.inputs.append(_text(redirect, data))
                target = self.write_target(redirect, data, depth)
                if target is not None:
                    self.writes.append(target)
                extras = _redirect_arguments(redirect)
                if extras:
                    # tree-sitter-bash misplaces words after a redirection that follows a list
                    # (`a || b >f c`): `c` belongs to `b`; deny rules see the words on their own
                    self.cannot_model("has words after a redirection the engine cannot place")
                    words = tuple(self.word(extra, data, depth) for extra in extras)
                    self.parts.append(Part(" ".join(w.written for w in words),
                                           " ".join(w.written for w in words), None, (), words))
            return
        self.structure_effects(node, data)
        if kind == "function_definition":
            self.cannot_model("defines a function")
        elif kind in STRUCTURES:
            self.problem = self.problem or f"contains a {STRUCTURES[kind]}"
        elif kind not in ("elif_clause", "else_clause", "case_item", "do_group"):
            self.cannot_model(f"contains shell syntax the permission engine does not model "
                              f"({kind})")
        for child in node.children:
            if not child.is_named:
                continue
            if child.type in STATEMENTS:
                self.statement(child, data, depth)
            else:
                self.expression(child, data, depth)

    def command(self, node: Any, outer_redirects: list[Any], data: bytes, depth: int,
                whole: Any = None) -> None:
        whole = node if whole is None else whole
        index = len(self.parts)  # the part comes before the commands nested in it
        assignments: list[tuple[str, Word]] = []
        words: list[Word] = []
        written: list[str] = []
        expansion: str | None = None
        writes: list[Word] = []
        inputs: list[str] = []
        for child in [*node.children, *outer_redirects]:
            kind = child.type
            if kind in REDIRECTS:
                expansion = self.expression(child, data, depth) or expansion
                if _is_input(child):
                    inputs.append(_text(child, data))
                target = self.write_target(child, data, depth)
                if target is not None:
                    writes.append(target)
                # tree-sitter-bash puts the words after a redirection (`cmd >f arg`, `<<EOF arg`)
                # inside the redirection node: they are arguments of the command
                for extra in _redirect_arguments(child):
                    word = self.word(extra, data, depth)
                    if word.value is None:
                        expansion = expansion or _expansion_kind(extra, data)
                    if not words:
                        self.cannot_model("starts with a redirection the engine cannot place")
                    words.append(word)
                    written.append(word.written)
                continue
            if kind == "variable_assignment":
                name_node = child.child_by_field_name("name")
                value_node = child.child_by_field_name("value")
                name = _text(name_node, data) if name_node is not None else ""
                value = (self.word(value_node, data, depth) if value_node is not None
                         else Word("", ""))
                if value.value is None:
                    expansion = expansion or _expansion_kind(value_node, data)
                if name_node is None or name_node.type != "variable_name":
                    self.cannot_model("assigns to something other than a plain variable")
                self.assigns = True
                self.variable(name)
                assignments.append((name, value))
                written.append(_text(child, data))
                continue
            if not child.is_named:
                continue
            target = child.named_children[0] if kind == "command_name" and child.named_children \
                else child
            word = self.word(target, data, depth)
            if word.value is None:
                expansion = expansion or _expansion_kind(target, data)
            words.append(word)
            written.append(word.written)
        text = _text(whole, data).strip()
        part = Part(text, " ".join(written), expansion, tuple(assignments), tuple(words),
                    tuple(writes), inputs=tuple(inputs))
        self.parts.insert(index, part)
        self.builtin_effects(part.words)
        if words:
            first = words[0]
            if first.value in RESERVED and first.written == first.value:
                self.cannot_model(f"uses the reserved word `{first.value}` where the parser "
                                  "expected a command")
            if first.value is None or first.pattern:
                self.cannot_model(f"runs a command whose name is computed at run time "
                                  f"(`{first.written}`)")
        self.nested(part, data, depth)
        inner = _wrapped_command(part.words)
        while inner:
            if inner[0].value is None or inner[0].pattern:
                self.cannot_model(f"runs a command whose name is computed at run time "
                                  f"(`{inner[0].written}`)")
            joined = " ".join(w.written for w in inner)
            self.parts.append(Part(joined, joined, part.expansion, (), inner, (), True))
            inner = _wrapped_command(inner)

    def nested(self, part: Part, data: bytes, depth: int) -> None:
        """Shell code inside the arguments (`sh -c '…'`, `eval …`, `find -exec sh -c …`)."""
        words = part.words
        if not words:
            return
        program = _basename(words[0].value)
        arguments = [w.value or "" for w in words[1:]]
        if ((program == "alias" and any("=" in v for v in arguments))
                or (program == "enable" and arguments)
                or (program == "hash" and any(v.startswith("-") and "p" in v for v in arguments))
                or (program == "shopt" and "expand_aliases" in arguments)):
            self.cannot_model(f"uses `{program}` to change what a command name runs")
        code_option = _code_option(words)
        if code_option is not None:
            self.cannot_model(f"passes `{code_option}`, an option that makes "
                              f"`{_basename(words[0].value)}` run other commands")
        starts = [0]
        if _basename(words[0].value) in RUNNERS or words[0].value in RESERVED:
            starts = list(range(len(words)))
        for start in starts:
            name = _basename(words[start].value)
            rest = words[start + 1:]
            if name in SHELLS:
                mode, code = _shell_code(rest)
                if mode == "input" or (mode == "script" and code is not None
                                       and INPUT_FILES.match(code.value or "-")):
                    self.cannot_model(f"runs `{name}` on code it reads from its input")
                elif mode == "dynamic" or (code is not None and code.value is None):
                    self.cannot_model(f"runs shell code computed at run time with `{name}`")
                elif mode == "code" and code is not None and code.value is not None:
                    self.source(code.value, depth + 1)
            elif name == "env" and any((w.value or "-S").startswith(("-S", "--split-string"))
                                       for w in rest):
                self.cannot_model("runs `env -S`, whose split string the engine does not model")
            elif name in DASH_C:
                code_word = _option_value(rest, ("-c", "--command"))
                if code_word is not None:
                    if code_word.value is None:
                        self.cannot_model(f"runs shell code computed at run time with `{name}`")
                    else:
                        self.source(code_word.value, depth + 1)
            elif name in CODE_RUNNERS:
                values = [w.value for w in rest]
                if any(v is None for v in values):
                    self.cannot_model(f"runs shell code computed at run time with `{name}`")
                elif name == "trap":
                    if values and values[0] not in ("-", "--"):
                        self.source(values[0] or "", depth + 1)
                elif name == "eval":
                    self.source(" ".join(v for v in values if v is not None), depth + 1)
                else:  # watch: the command follows its options
                    for index in range(len(values)):
                        self.source(" ".join(v for v in values[index:] if v is not None),
                                    depth + 1)

    def write_target(self, node: Any, data: bytes, depth: int) -> Word | None:
        """The file an output redirection writes (None for input, here-documents, `2>&1`)."""
        if node.type != "file_redirect":
            return None
        operator = next((c.type for c in node.children if not c.is_named), "")
        if ">" not in operator:
            return None
        target = node.child_by_field_name("destination") or (
            node.named_children[-1] if node.named_children else None)
        if target is None:
            return None
        if operator in (">&", "<&") and target.type == "number":
            return None
        return self.word(target, data, depth)

    # words -----------------------------------------------------------------------------------
    def word(self, node: Any, data: bytes, depth: int) -> Word:
        written = _text(node, data)
        if node.type == "word" and UNESCAPED_NEWLINE.search(written):
            # tree-sitter-bash reads `a\n\\b` as one word; bash ends the command at the newline
            self.cannot_model("has a line break the parser read as part of a word")
            self.source(UNESCAPED_NEWLINE.split(written, maxsplit=1)[1], depth + 1)
        value = self.value(node, data, depth)
        pattern = value is not None and node.type in ("word", "concatenation") and bool(
            GLOB_OR_BRACE.search(_unquoted_text(node, data)))
        decoded = _decoded(node, data) if value is None and "$'" in written else None
        return Word(written, value, pattern, decoded)

    def value(self, node: Any, data: bytes, depth: int) -> str | None:
        kind = node.type
        if kind == "word" or kind == "number":
            return _unescape_word(_text(node, data))
        if kind == "raw_string":
            return _text(node, data)[1:-1]
        if kind == "string":
            pieces = []
            dynamic = False
            for child in node.named_children:
                if child.type == "string_content":
                    pieces.append(_unescape_double(_text(child, data)))
                else:
                    dynamic = True
                    self.expression(child, data, depth)
            return None if dynamic else "".join(pieces)
        if kind == "concatenation":
            values = [self.value(child, data, depth) for child in node.named_children]
            unnamed = [c for c in node.children if not c.is_named]
            if any(v is None for v in values) or unnamed:
                return None
            return "".join(v for v in values if v is not None)
        self.expression(node, data, depth)
        return None

    def expression(self, node: Any, data: bytes, depth: int) -> str | None:
        """Walk a word or redirection for command substitutions (each inner command becomes a part)
        and other expansions; returns the first expansion's kind."""
        kind = node.type
        found: str | None = None
        if kind == "command_substitution":
            for child in node.named_children:
                self.statement(child, data, depth)
            self.operators += 1
            return "command substitution"
        if kind == "process_substitution":
            self.cannot_model("contains process substitution")
            for child in node.named_children:
                self.statement(child, data, depth)
            return "process substitution"
        if kind in ("simple_expansion", "expansion"):
            found = "parameter expansion"
            if kind == "expansion":
                self.expansion_arithmetic(_text(node, data))
        elif kind == "arithmetic_expansion":
            found = "arithmetic expansion"
            if _contains(node, "command_substitution"):
                self.cannot_model("contains a command substitution inside arithmetic")
            self.arithmetic(_text(node, data)[3:-2])
        elif kind == "subscript":
            self.arithmetic(_subscript_index(node, data))
        elif kind in ("ansi_c_string", "translated_string"):
            found = "quoted expansion"
        elif kind == "heredoc_redirect":
            start = next((c for c in node.children if c.type == "heredoc_start"), None)
            quoted = start is not None and any(q in _text(start, data) for q in "'\"\\")
            body = next((c for c in node.children if c.type == "heredoc_body"), None)
            if body is not None and not quoted:
                text = _text(body, data)
                if "$" in text or "`" in text:
                    found = "expansion in a here-document"
                    if "`" in text and not _contains(body, "command_substitution"):
                        self.cannot_model("contains a here-document the engine cannot read")
        elif kind in STATEMENTS and kind not in ("variable_assignment", "comment"):
            self.statement(node, data, depth)
            return None
        for child in node.named_children:
            inner = self.expression(child, data, depth)
            found = found or inner
        return found


#: options that take a value, per wrapper whose wrapped command is modelled (`_wrapped_command`)
WRAPPER_OPTIONS: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(), "time": frozenset(), "command": frozenset(), "builtin": frozenset(),
    "noglob": frozenset(), "exec": frozenset({"-a"}),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "sudo": frozenset({"-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C",
                       "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-U",
                       "--other-user", "-T", "--command-timeout"}),
    "doas": frozenset({"-u", "-C"}),
    "xargs": frozenset({"-I", "-i", "-n", "--max-args", "-P", "--max-procs", "-d", "--delimiter",
                        "-L", "--max-lines", "-s", "--max-chars", "-a", "--arg-file", "-E",
                        "-e", "--eof"}),
    "setsid": frozenset(), "ionice": frozenset({"-c", "-n", "-p", "-t"}),
    "chrt": frozenset(), "taskset": frozenset(), "unbuffer": frozenset(),
}


def _wrapped_command(words: tuple[Word, ...]) -> tuple[Word, ...] | None:
    """The command a wrapper runs: `timeout 5 CMD …`, `env -i A=1 CMD …`, `nice -n 5 CMD`,
    `xargs -n1 CMD`, `sudo -u x CMD`, `find … -exec CMD … ;`; None when there is none."""
    if not words or words[0].value is None:
        return None
    name = _basename(words[0].value)
    if name == "find" or name == "fd":
        for index, word in enumerate(words):
            if word.value in ("-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X",
                              "--exec-batch"):
                tail = []
                for item in words[index + 1:]:
                    if item.value in (";", "+"):
                        break
                    tail.append(item)
                return tuple(tail) or None
        return None
    options = WRAPPER_OPTIONS.get(name or "")
    if options is None:
        return None
    index = 1
    while index < len(words):
        value = words[index].value
        if value is None:
            return words[index:]
        if value == "--":
            index += 1
            break
        if name == "env" and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", value):
            index += 1
            continue
        if value.startswith("-") and len(value) > 1:
            index += 2 if value in options else 1  # `nice -5 CMD`: `-5` is one option
            continue
        break
    if name in ("timeout", "gtimeout") and index < len(words):
        index += 1  # the duration
    if name == "taskset" and index < len(words):
        index += 1  # the mask
    if name == "chrt" and index < len(words):
        index += 1  # the priority
    if name == "command" and any(w.value in ("-v", "-V") for w in words[1:index]):
        return None
    return words[index:] or None


#: options with which a common program runs a command given in the option (`git -c
#: core.pager=…`, `tar --to-command=…`, `rsync -e …`, `ssh -o ProxyCommand=…`)
CODE_OPTIONS: dict[str, re.Pattern[str]] = {
    "git": re.compile(r"--upload-pack|--receive-pack|--exec|--config-env"),
    "tar": re.compile(r"--to-command|--checkpoint-action|--use-compress-program|-I$|"
                      r"--info-script|--new-volume-script|-F$|--rsh-command"),
    "rsync": re.compile(r"-e$|--rsh|--rsync-path|-[a-zA-Z]*e[a-zA-Z]*$"),
    "ssh": re.compile(r"(?i)-o$|-oProxyCommand|-oLocalCommand|-oPermitLocalCommand"),
    "scp": re.compile(r"(?i)-o$|-S$|-oProxyCommand"),
    "sftp": re.compile(r"(?i)-o$|-S$|-oProxyCommand"),
}
#: `git -c KEY=VALUE` keys whose value is a command git runs
GIT_CODE_KEYS = re.compile(r"(?i)(core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|"
                           r"gitproxy)|alias\..*|diff\..*|merge\..*|filter\..*|credential\..*|"
                           r"sequence\.editor|gpg\..*|pager\..*|protocol\..*|uploadpack\..*|"
                           r"receivepack\..*|include\..*|includeif\..*|remote\..*|url\..*|"
                           r"submodule\..*|interactive\..*|web\..*|man\..*|http\..*|"
                           r"ssh\..*)=")


def _code_option(words: tuple[Word, ...]) -> str | None:
    """The first option in `words` that makes the program run a command it names."""
    name = _basename(words[0].value)
    pattern = CODE_OPTIONS.get(name or "")
    if pattern is None:
        return None
    global_options = name == "git"  # git's own options come before its subcommand
    skip = False
    for index, word in enumerate(words[1:], 1):
        value = word.value
        if value is None:
            continue
        if pattern.match(value):
            return value
        if global_options and value.startswith("-c") and not value.startswith("--"):
            # many keys name commands (core.pager, trailer.*.command, difftool.*, …): none is
            # read as harmless
            setting = value[2:] or (words[index + 1].value or "" if index + 1 < len(words) else "")
            return f"-c {setting}".strip()
        if skip:
            skip = False
        elif global_options and value in GIT_VALUE_OPTIONS:
            skip = True
        elif global_options and not value.startswith("-"):
            global_options = False  # the subcommand: its `-c` is its own (`git grep -c`)
    return None


#: git's global options whose value is the next word
GIT_VALUE_OPTIONS = frozenset({"-C", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                               "--super-prefix", "--list-cmds", "--attr-source"})


#: why a part with an expansion, assignment or wrapper is not read-only (the decision's own
#: text already says what it contains)
EXPANDS = "an expansion, assignment or wrapper"
#: where a read-only command's output may go (`-` is a file of that name to bash)
READ_ONLY_SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})
#: text whose words tree-sitter-bash reads differently from bash (it drops an escaped blank, a
#: quoted piece of blanks and a newline inside quotes, and splits on \v, \f and \r, which bash
#: keeps inside a word)
MISREAD_TEXT = re.compile(r"[\v\f\r\n]|\\\s")
BLANK_QUOTES = re.compile(r"(['\"])[ \t]*\1")
#: the same in a whole command line (where newlines separate commands), and the pieces after
#: which tree-sitter-bash ends or shortens a word that bash continues: a quote or a `{` followed
#: by an escape (`'a'\;'b'` and `0{\a` are one word to bash, two to the parser), a `$"…"`
#: locale string (the parser drops the text before it: `-$"x"` is `-x` to bash), a word starting
#: with `=` (`==x`: the parser drops the `==`). Looked for in the whole line: the parser may
#: leave the piece out of the part it reports.
MISREAD_LINE = re.compile(r"[\v\f\r]|\\[^\S\n]|['\"{]\\|\$\"|(?:^|[ \t])=")
#: quoted text the engine cannot read back exactly as bash does
QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")


def _misread(written: str) -> bool:
    """Word shapes where tree-sitter-bash's words differ from bash's (found by comparing both on
    generated words, `tests/security/test_word_differential.py`): an escaped blank or a newline,
    a quoted piece of blanks, an unquoted blank, an unquoted `}` or `]` (other than git's
    `@{…}`). The shapes seen only in the whole line are `MISREAD_LINE`'s."""
    if MISREAD_TEXT.search(written):
        return True
    if BLANK_QUOTES.search(written) and written not in ("''", '""'):
        return True  # a quoted piece of blanks (`" "`, `l" "/x`); an empty `''` alone is read
    unquoted = re.sub(r"@\{[^{}]*\}", "", QUOTED.sub("", written))
    if re.search(r"[ \t]", unquoted):
        return True  # the parser joined two words (`{ {` is one word to it, two to bash)
    return "}" in unquoted or "]" in unquoted


#: what makes an unquoted word expand: a glob character, a leading tilde, a brace list
LIVE_EXPANSION = re.compile(r"[*?\[]|^~|[=:]~")


def still_expands(word: Word) -> bool:
    """The shell still expands `word` (`pattern` also marks a `~` or `{` that bash leaves alone,
    as in `HEAD~3` or `stash@{0}`); a quoted or escaped pattern word counts as expanding."""
    if not word.pattern:
        return False
    written = word.written
    return bool(QUOTES_AND_ESCAPES.search(written) or LIVE_EXPANSION.search(written)
                or has_brace_list(written))


def _stays_inside(part: Part, rule: PermissionRule) -> bool:
    """A prefix or wildcard rule allows only paths it can see: no argument may step out with a
    `..` segment (`Bash(cat ${CLAUDE_SKILL_DIR}/*)` does not allow `…/skill/../../secret`), and
    an argument under a folder the rule names must still be under it once every symbolic link is
    followed."""
    folders = _rule_folders(rule.content or "")
    for word in part.words[1:]:
        value = word.value if word.value is not None else word.written
        for path in {value, value.split("=", 1)[-1]}:
            if ".." in path.split("/"):
                return False
            for folder in folders:
                if not path.startswith(folder.rstrip("/") + "/"):
                    continue
                # a glob is judged by what it matches now (`…/u*/secret` through a link `up`)
                matches = _glob_matches(path) if still_expands(word) else [path]
                if not all(_under(match, folder) for match in matches):
                    return False
    return True


def _glob_matches(pattern: str) -> list[str]:
    from wave_lsp.core.runtime.globbing import bounded_glob

    if "[" in pattern:
        return [os.sep]  # bracket expressions are matched differently by bash: never inside
    expanded = bounded_glob(pattern)  # a link loop under `*/*/…` must not explode (issue 35)
    if not expanded.complete:
        return [os.sep]  # too many matches to check them all: never inside
    return expanded.matches or [pattern]


@lru_cache(maxsize=512)
def _rule_folders(content: str) -> tuple[str, ...]:
    """The absolute folders a rule's text names before its first wildcard."""
    stars = _unescaped_stars(content)
    literal = content[:stars[0]] if stars else content.removesuffix(":*")
    folders = []
    for token in literal.split():
        if token.startswith("/"):
            folders.append(token if token.endswith("/") else os.path.dirname(token) or "/")
    return tuple(folders)


def _under(path: str, folder: str) -> bool:
    real, base = os.path.realpath(path), os.path.realpath(folder)
    return real == base or real.startswith(base.rstrip("/") + "/")


def _is_input(redirect: Any) -> bool:
    """An input redirection: `< file`, `<> file`, `<& n`, a here-document or a here-string."""
    if redirect.type in ("heredoc_redirect", "herestring_redirect"):
        return True
    operator = next((c.type for c in redirect.children if not c.is_named), "")
    return "<" in operator


def _descendants(node: Any, kind: str) -> list[Any]:
    found = []
    for child in node.named_children:
        if child.type == kind:
            found.append(child)
        found.extend(_descendants(child, kind))
    return found


def _subscript_index(node: Any, data: bytes) -> str:
    """The text between the brackets of `name[index]` (`@` and `*` are no arithmetic)."""
    text = _text(node, data)
    start, end = text.find("["), text.rfind("]")
    index = text[start + 1:end] if 0 <= start < end else text
    return "" if index in ("@", "*") else index


def _shortened(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: bash's `$'…'` escapes (bash manual, QUOTING, ANSI-C Quoting)
ANSI_C_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
                  "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
ANSI_C_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|"
                           r"U([0-9A-Fa-f]{1,8})|c(.)|(.))", re.S)


def decode_ansi_c(body: str) -> str:
    """The text of a `$'…'` string (without `$'` and `'`), as bash decodes it."""
    def one(match: re.Match[str]) -> str:
        octal, hexa, short, long, control, other = match.groups()
        try:
            if octal or hexa:
                return chr(int(octal, 8) if octal else int(hexa, 16))
            if short or long:
                return chr(int(short or long, 16))
        except (ValueError, OverflowError):
            return match.group(0)
        if control is not None:
            return chr(ord(control) & 0x1F)
        return ANSI_C_ESCAPES.get(other, "\\" + other)
    return ANSI_C_ESCAPE.sub(one, body)


def decoded_command(command: str) -> str:
    """`command` with every `$'…'` string replaced by the text bash decodes it to."""
    return ANSI_C.sub(lambda match: decode_ansi_c(match.group(1)), command)


def _decoded(node: Any, data: bytes) -> str:
    """A word's text with quotes removed and `$'…'` decoded (other expansions as written)."""
    kind = node.type
    if kind == "ansi_c_string":
        return decode_ansi_c(_text(node, data)[2:-1])
    if kind in ("word", "number"):
        return _unescape_word(_text(node, data))
    if kind == "raw_string":
        return _text(node, data)[1:-1]
    if kind == "concatenation":
        return "".join(_decoded(child, data) for child in node.children)
    if kind == "string" and all(c.type == "string_content" for c in node.named_children):
        return "".join(_unescape_double(_text(c, data)) for c in node.named_children)
    return _text(node, data)


def _redirect_arguments(node: Any) -> list[Any]:
    """The named children of a redirection after its destination (see `_Walker.command`)."""
    named = [c for c in node.named_children
             if c.type not in ("file_descriptor", "heredoc_start", "heredoc_body", "heredoc_end")]
    return named[1:] if node.type != "heredoc_redirect" else named


def _text(node: Any, data: bytes) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass")


def _contains(node: Any, kind: str) -> bool:
    return node.type == kind or any(_contains(child, kind) for child in node.named_children)


def _expansion_kind(node: Any, data: bytes) -> str:
    if _contains(node, "command_substitution"):
        return "command substitution"
    if _contains(node, "process_substitution"):
        return "process substitution"
    if _contains(node, "arithmetic_expansion"):
        return "arithmetic expansion"
    return "parameter expansion"


def _unescape_word(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text.replace("\\\n", ""), flags=re.S)


def _unescape_double(text: str) -> str:
    return re.sub(r"\\([$`\"\\])", r"\1", text.replace("\\\n", ""))


def _unquoted_text(node: Any, data: bytes) -> str:
    """The unquoted, unescaped pieces of a word (where globs and braces are live)."""
    if node.type == "word":
        return re.sub(r"\\.", "", _text(node, data), flags=re.S)
    if node.type == "concatenation":
        return "".join(_unquoted_text(c, data) for c in node.named_children)
    return ""


def _basename(value: str | None) -> str | None:
    if value is None:
        return None
    return value.rsplit("/", 1)[-1]


def _shell_code(rest: tuple[Word, ...]) -> tuple[str, Word | None]:
    """What a shell invoked with the words `rest` runs: ("code", the `-c` string), ("script",
    None) for a script file, ("input", None) when it reads code from its input, ("dynamic", word)
    when an option is computed at run time. Options may come first (`bash -lc`, `sh -e -o x -c`)."""
    has_c = False
    index = 0
    while index < len(rest):
        value = rest[index].value
        if value is None:
            return "dynamic", rest[index]
        if value == "--":
            index += 1
            break
        if value in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            index += 2
            continue
        if len(value) > 1 and value[0] in "-+":
            if value[0] == "-" and not value.startswith("--") and "c" in value[1:]:
                has_c = True
            index += 1
            continue
        break
    if has_c:
        return "code", rest[index] if index < len(rest) else Word("", "")
    if index >= len(rest) or rest[index].value == "-":
        return "input", None
    if rest[index].value is None:
        return "dynamic", rest[index]
    return "script", rest[index]


def _option_value(rest: tuple[Word, ...], names: tuple[str, ...]) -> Word | None:
    for index, word in enumerate(rest):
        value = word.value
        if value is None:
            return word
        if value in names:
            return rest[index + 1] if index + 1 < len(rest) else Word("", "")
        for name in names:
            if name.startswith("--") and value.startswith(name + "="):
                return Word(value, value[len(name) + 1:])
    return None


def _strip(command: str, assignments: re.Pattern[str], unsafe: bool = False) -> str:
    """Leading assignments and safe wrappers removed (repeatedly). Unless `unsafe`, an assignment
    to a variable that changes what runs (`PATH`, `LD_*`, `GIT_*`, …) is never removed."""
    previous = None
    while previous != command:
        previous = command
        match = assignments.match(command)
        if match is not None and (unsafe or UNSAFE_VARIABLE.match(match.group(1)) is None):
            command = command[match.end():]
        command = SAFE_WRAPPERS.sub("", command, count=1)
    return command.strip()


def _joined(words: Iterable[str]) -> str:
    return " ".join(words)


def lexical_forms(command: str) -> set[str]:
    """A parser-independent cross-check for deny and ask rules: the text between any two shell
    separators (`;`, `&`, `|`, parentheses, braces, redirections, backticks, `$(`, newlines), with
    white space collapsed, with and without quotes and backslashes, without leading assignments and
    with the command word's folder removed. It can only add denials (quoted text that merely looks
    like a command is denied too), never remove one."""
    forms: set[str] = set()
    for chunk in LEXICAL_SEPARATORS.split(command):
        for text in (chunk, QUOTES_AND_ESCAPES.sub("", chunk)):
            tokens = text.split()
            while tokens:
                if tokens:
                    forms.add(" ".join(tokens))
                    forms.add(" ".join([_basename(tokens[0]) or tokens[0], *tokens[1:]]))
                first = tokens[0]
                if not (re.match(r"[A-Za-z_][A-Za-z0-9_]*=", first) or first in RESERVED
                        or _basename(first) in RUNNERS):
                    break
                tokens = tokens[1:]
    forms.discard("")
    return forms


def allow_forms(part: Part) -> tuple[str, ...]:
    """What allow rules are matched against: the part as written, and (for every rule kind) with
    redirections, safe assignments (Claude Code's ENV_VAR_PATTERN, never a variable that changes
    what runs) and safe wrappers removed."""
    return (part.text, _strip(part.bare, SAFE_ASSIGNMENT))


def deny_forms(part: Part) -> set[str]:
    """Every form deny and ask rules are matched against: a superset of `allow_forms`, so that
    normalisation can only ever make a deny more likely. As written, with white space collapsed,
    quotes and escapes resolved, any assignment removed, the command word's folder removed, and
    every tail of the words of a command that runs its arguments (`xargs`, `env`, `timeout`,
    `find -exec`, `sudo`, …)."""
    forms = set(allow_forms(part))
    forms.add(" ".join(part.text.split()))
    forms.add(part.bare)
    forms.add(_strip(part.bare, ANY_ASSIGNMENT, unsafe=True))
    written = [w.written for w in part.words]
    resolved = [w.value if w.value is not None else w.written for w in part.words]
    decoded = [w.value if w.value is not None else w.decoded if w.decoded is not None
               else w.written for w in part.words]
    assigned_written = [f"{name}={value.written}" for name, value in part.assignments]
    assigned_resolved = [f"{name}={value.value if value.value is not None else value.written}"
                         for name, value in part.assignments]
    forms.add(_joined(assigned_written + written))
    forms.add(_joined(assigned_resolved + resolved))
    # every tail of every part: a program that runs the rest of its words (`setarch x86_64 CMD`,
    # `prlimit CMD`, …) need not be in RUNNERS for a deny rule to see CMD
    for words in (written, resolved, decoded):
        for start in range(len(words)):
            tail = words[start:]
            forms.add(_joined(tail))
            base = _basename(tail[0]) or tail[0]
            forms.add(_joined([base, *tail[1:]]))
    forms.discard("")
    return forms


# -- decisions ----------------------------------------------------------------------------------
def word_reading_problem(part: Part, line: str) -> str | None:
    """Why the engine cannot vouch that `part`'s words, as it read them from `line`, are the
    words bash passes to the program (None when it can): a word computed at run time, or a shape
    where tree-sitter-bash and bash split or join words differently (`_misread` on each word,
    `MISREAD_TEXT` on the part, `MISREAD_LINE` on the whole line). Words that still expand as
    globs are judged by their matches (`readonly.glob_problem`), not here.
    `tests/security/test_word_differential.py` compares this reading with bash's own."""
    if any(word.value is None for word in part.words):
        return "a word the shell still expands"
    unsure = next((word.written for word in part.words if _misread(word.written)), None)
    if unsure is not None or MISREAD_TEXT.search(part.text) or MISREAD_LINE.search(line):
        return (f"`{unsure or part.text}` has words the parser may split or join differently "
                "from bash")
    return None


@dataclass(frozen=True, slots=True)
class Decision:
    behavior: str  #: "allow", "ask" or "deny"
    reason: str
    rule: PermissionRule | None = None
    compound: bool = False
    #: the parts that no rule allows (for compound commands)
    unmatched: tuple[str, ...] = ()
    #: allowed without a rule: every part is one of the runtime's read-only commands
    read_only: bool = False
    #: an allow rule for the exact command would allow it (False: no rule can, because the
    #: engine cannot model the command or it writes outside the project)
    rule_can_allow: bool = True

    @property
    def allowed(self) -> bool:
        return self.behavior == "allow"

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.behavior, "reason": self.reason,
                "rule": self.rule.raw if self.rule else None,
                "ruleSource": self.rule.where if self.rule else None}


class PermissionEngine:
    def __init__(self, rules: Iterable[PermissionRule], tool: str = "Bash",
                 project: Path | None = None, profile: RuntimeProfile | None = None) -> None:
        self.tool = tool
        #: the runtime whose built-in read-only commands run without a rule (None: no such class)
        self.profile = profile
        self.rules = [rule for rule in rules if rule.tool == tool]
        #: the folder commands run in: writing outside it needs approval (Claude Code's path
        #: constraints); None skips the check
        self.project = project
        self._groups: dict[tuple[str, str | None], list[PermissionRule]] = {}
        for behavior in BEHAVIORS:
            for kind in (None, "tool", "specific"):
                self._groups[behavior, kind] = [
                    r for r in self.rules if r.behavior == behavior
                    and (kind is None or (r.kind == "tool") == (kind == "tool"))]

    def _of(self, behavior: str, kind: str | None = None) -> list[PermissionRule]:
        return self._groups[behavior, kind]

    def check(self, command: str) -> Decision:
        """The decision for `command`: the rules' (`_decide`), except that a command no rule
        matched runs anyway when every part is one of the runtime's built-in read-only commands
        (`wave_lsp.core.runtime.readonly`); a deny or ask rule always wins."""
        decision = self._decide(command)
        if decision.allowed or decision.rule is not None:
            return decision
        problem = self._read_only_problem(decision, command)
        if problem is None:
            return Decision("allow", f"allowed without a rule: {self._runtime()} runs read-only "
                                     "commands as they are", None, decision.compound,
                            read_only=True)
        if self._offers_read_only() and decision.behavior == "ask" and problem != EXPANDS:
            return Decision("ask", f"{decision.reason} (not read-only for {self._runtime()}: "
                                   f"{problem})", None, decision.compound,
                            decision.unmatched, rule_can_allow=decision.rule_can_allow)
        return decision

    def _offers_read_only(self) -> bool:
        profile = self.profile
        return profile is not None and profile.auto_allows_read_only and self.tool == "Bash"

    def _runtime(self) -> str:
        return self.profile.runtime if self.profile is not None else "the runtime"

    def _read_only_problem(self, decision: Decision, command: str) -> str | None:
        """Why the parts no rule allows are not all plain read-only commands (None when they
        are): no expansion, glob, assignment, wrapper, input redirection or write other than to
        a device, and each on the runtime's allow-list (`readonly.read_only_problem`), with its
        files resolved in the working directory."""
        profile = self.profile
        if profile is None or not self._offers_read_only():
            return "no read-only commands"
        texts = decision.unmatched if decision.compound and decision.unmatched else (command,)
        for text in texts:
            split = split_command(text)
            if split.problem or split.unmodelled or not split.parts:
                return split.problem or split.unmodelled or "no command"
            if split.inputs or split.writes:
                return "a redirection of a command group"
            for part in split.parts:
                problem = self._part_problem(part, text, profile)
                if problem is not None:
                    return problem
        return None

    def _part_problem(self, part: Part, text: str, profile: RuntimeProfile) -> str | None:
        if part.expansion or part.assignments or part.wrapped:
            return EXPANDS
        if part.inputs:
            return f"the input redirection `{part.inputs[0]}`"
        if any(word.value not in READ_ONLY_SINKS for word in part.writes):
            return "an output redirection"
        problem = word_reading_problem(part, text)
        if problem is not None:
            return problem
        program = _basename(part.program) or ""
        for word in part.words[1:]:
            if still_expands(word):
                problem = glob_problem(program, word.written, self.project)
                if problem:
                    return problem
        words = [word.value for word in part.words if word.value is not None]
        return read_only_problem(words, profile, self.project)

    def _decide(self, command: str) -> Decision:
        """Deny, then ask, then allow (docs/design/runtime-facts.md §3.8), default-deny: deny and ask
        rules are matched against every form of the whole command and of every simple command
        found anywhere in it (`deny_forms`); a command the engine cannot model is never allowed;
        otherwise every part must be allowed on its own."""
        command = command.strip()
        for behavior in ("deny", "ask"):
            for rule in self._of(behavior, "tool"):
                return self._blocked(rule, command)
        split = split_command(command)
        specific = {behavior: self._of(behavior, "specific") for behavior in BEHAVIORS}
        if specific["deny"] or specific["ask"]:
            candidates = {command, " ".join(command.split())} | lexical_forms(command)
            if "$'" in command:  # `$'\x74ouch'` is `touch`: decoded before deny rules look
                candidates |= lexical_forms(decoded_command(command))
            for part in split.parts:
                candidates |= deny_forms(part)
            for behavior in ("deny", "ask"):
                for rule in specific[behavior]:
                    if rule.matches_any(candidates):
                        return self._blocked(rule, command)
        if split.unmodelled is not None:
            return Decision("ask", f"This {self.tool} command {split.unmodelled}: the permission "
                                   "engine cannot tell what it would run, so no rule allows it, "
                                   "and an injected command cannot ask for approval",
                            None, True, (command,), rule_can_allow=False)
        outside = self._writes_outside(split)
        if outside is not None:
            return Decision("ask", f"This {self.tool} command writes outside the project "
                                   f"(`{outside}`): that needs approval, and an injected command "
                                   "cannot ask for approval", None, split.compound, (command,),
                            rule_can_allow=False)
        for rule in specific["allow"]:
            if rule.kind == "exact" and rule.matches(command):
                return Decision("allow", f"allowed by `{rule.raw}` from {rule.source}", rule,
                                split.compound)
        tool_wide = next(iter(self._of("allow", "tool")), None)
        if split.problem is not None:
            if tool_wide is not None:
                return Decision("allow", f"allowed by `{tool_wide.raw}` from {tool_wide.source}",
                                tool_wide, True)
            return Decision("ask", f"This {self.tool} command {split.problem}: only an exact rule "
                                   "can allow it, and an injected command cannot ask for approval",
                            None, True, (command,))
        return self._allow_parts(command, split, tool_wide, specific["allow"])

    def _writes_outside(self, split: Split) -> str | None:
        """The first path a part writes (redirection target, or an argument of a command that
        writes its arguments) that is outside the project, computed at run time, or in a home
        folder (`~`)."""
        if self.project is None:
            return None
        root = os.path.normpath(str(self.project))
        moves = any(_basename(part.program) in ("cd", "pushd", "popd") for part in split.parts)
        for part in [*split.parts, Part("", "", writes=split.writes)]:
            targets = list(part.writes)
            if _basename(part.program) in WRITE_COMMANDS:
                targets += [w for w in part.words[1:] if w.value is None
                            or not w.value.startswith("-")]
            for target in targets:
                value = target.value
                if value is None or (target.pattern and "~" in value.split("/")[0]):
                    return target.written
                if value in SAFE_DEVICES or value.startswith("/dev/fd/"):
                    continue
                if moves and not value.startswith("/"):
                    return target.written  # relative to a folder `cd` chose, not the project
                if _basename(part.program) == "dd":
                    if not value.startswith("of="):
                        continue
                    value = value[3:]
                path = os.path.normpath(os.path.join(root, value))
                if path != root and not path.startswith(root.rstrip("/") + "/"):
                    return target.written
        return None

    def _allow_parts(self, command: str, split: Split, tool_wide: PermissionRule | None,
                     allow: list[PermissionRule]) -> Decision:
        matched: list[PermissionRule] = []
        unmatched: list[Part] = []
        for part in split.parts:
            rule = self._allowing(part, allow)
            if rule is None:
                unmatched.append(part)
            else:
                matched.append(rule)
        if not unmatched and matched:
            # the weakest link decides where the permission comes from (personal beats shared)
            rule = next((r for r in matched if r.personal), matched[0])
            return Decision("allow", f"allowed by `{rule.raw}` from {rule.source}", rule,
                            split.compound)
        if tool_wide is not None:
            return Decision("allow", f"allowed by `{tool_wide.raw}` from {tool_wide.source}",
                            tool_wide, split.compound)
        return Decision("ask", self._why_not(command, split, unmatched), None, split.compound,
                        tuple(p.text for p in unmatched) or (command,))

    @staticmethod
    def _allowing(part: Part, allow: list[PermissionRule]) -> PermissionRule | None:
        text, safe = allow_forms(part)
        for rule in allow:
            if rule.kind == "exact":
                if rule.matches(text) or rule.matches(safe):
                    return rule
            elif part.expansion is None and rule.matches(safe) and _stays_inside(part, rule):
                return rule
        return None

    def _why_not(self, command: str, split: Split, unmatched: list[Part]) -> str:
        if split.compound and unmatched:
            listed = ", ".join(f"`{p.text}`" for p in unmatched)
            return (f"This {self.tool} command contains multiple operations. The following "
                    f"part{'s' if len(unmatched) > 1 else ''} require{'' if len(unmatched) > 1 else 's'}"
                    f" approval: {listed}")
        part = unmatched[0] if unmatched else None
        if part is not None and part.expansion is not None:
            return (f"This {self.tool} command contains {part.expansion}: prefix and wildcard "
                    "rules never allow it, and an injected command cannot ask for approval")
        return (f"This {self.tool} command requires approval: no allow rule matches `{command}`, "
                "and an injected command cannot ask for approval")

    def _blocked(self, rule: PermissionRule, command: str) -> Decision:
        if rule.behavior == "deny":
            return Decision("deny", f"Permission to use {self.tool} with command {command} has been "
                                    "denied.", rule)
        return Decision("ask", f"Permission rule '{rule.raw}' from {rule.where} requires approval "
                               f"for this {self.tool} command", rule)


def narrowest_rule(command: str, tool: str = "Bash") -> str:
    """The exact rule that allows `command` and nothing else (parentheses escaped)."""
    escaped = command.strip().replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    escaped = escaped.replace("*", "\\*")
    return f"{tool}({escaped})"
