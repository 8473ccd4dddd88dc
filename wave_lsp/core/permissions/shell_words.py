"""The words of a shell command as tree-sitter-bash reads them, and what is derived from them
(docs/design/product.md *Permission engine*): the `Word`/`Part`/`Split` shapes `shell.py` fills,
the grammar's constants, the wrapped command of a wrapper (`timeout 5 CMD`), options that make a
program run a command, `$'…'` decoding, and the forms allow, deny and ask rules are matched
against (`allow_forms`, `deny_forms`, `lexical_forms`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from wave_lsp.core.permissions.readonly import has_brace_list
from wave_lsp.core.permissions.rules import ANY_ASSIGNMENT, SAFE_ASSIGNMENT, SAFE_WRAPPERS

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

