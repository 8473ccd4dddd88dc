"""Splitting a shell command into the simple commands it runs (tree-sitter-bash), for both
decisions: the prediction of what the runtime does and wave-lsp's execution guard
(docs/design/product.md *Permission engine*).

The whole syntax tree is walked: every simple command anywhere in it (lists, pipelines, control
flow, groups, subshells, function bodies, command substitutions inside words, strings,
here-documents and here-strings, the code of `sh -c '…'` and `eval …`) is a part. What cannot be
modelled exactly (parse errors, process substitution, functions, a command word computed at run
time, shell code read from input or computed at run time) is reported as `Split.unmodelled`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from wave_lsp.core.permissions.shell_words import (
    ARITHMETIC_NAME,
    ARITHMETIC_TESTS,
    ARITHMETIC_TEXT,
    ASSIGNING_BUILTINS,
    CODE_RUNNERS,
    CONTAINERS,
    DASH_C,
    GIT_CODE_VARIABLES,
    GLOB_OR_BRACE,
    INPUT_FILES,
    INVISIBLE,
    MAX_COMMAND_CHARS,
    MAX_DEPTH,
    OPERATORS,
    REDIRECTS,
    RESERVED,
    RUNNERS,
    SHELLS,
    STATEMENTS,
    STRUCTURES,
    UNESCAPED_NEWLINE,
    VARIABLE_NAME,
    Part,
    Split,
    Word,
    _basename,
    _code_option,
    _contains,
    _decoded,
    _descendants,
    _expansion_kind,
    _is_input,
    _option_value,
    _redirect_arguments,
    _shell_code,
    _shortened,
    _subscript_index,
    _text,
    _unescape_double,
    _unescape_word,
    _unquoted_text,
    _wrapped_command,
)


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


