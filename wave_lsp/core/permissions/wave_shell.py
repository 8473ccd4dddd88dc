"""Wave's own reading of a shell command, ported from `utils/bashParser.ts` at commit 469391bb
(docs/design/runtime-facts.md §8.12), and its rule matcher (`permissionManager.matchesRule`).

This is not a shell parser: it is what Wave does, character for character, so the `wave`
target's prediction (`wave_prediction.py`) reads a command the way Wave does — split on `&&`,
`||`, `|&`, `;`, `|` and `&` outside quotes and parentheses (never on a newline), leading
`NAME=value` assignments and redirections dropped before matching. A Bash rule's pattern is
literal except `*`, which matches anything (newlines too); `:*` means nothing special.

JavaScript's `\\s`, `trim()` and `.` differ from Python's: `JS_SPACE` and `_JS_LINE_END` keep
Wave's. Every function is linear or close to it in its input (no backtracking regex on the
command), and the recursion into `( … )` is bounded (`TooDeep`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from wave_lsp.core.parsing.injections import JS_SPACE_CHARACTERS
from wave_lsp.core.permissions.wave_facts import DANGEROUS_FIND_FLAGS, GIT_SCOPE_FLAGS
from wave_lsp.core.permissions.wildcard import Wildcard, matches

#: JavaScript's `\s` (and what `String.prototype.trim` removes)
JS_SPACE = JS_SPACE_CHARACTERS
_JS_LINE_END = "\n\r\u2028\u2029"  #: what JavaScript's `.` does not match (no `s` flag)
_ASSIGNMENT = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*=")
_WORD = re.compile(r"\w+", re.ASCII)
#: `splitBashCommand` recursing into `( … )` deeper than this: not modelled
MAX_DEPTH = 64


class TooDeep(Exception):
    """Parentheses nested deeper than `MAX_DEPTH`."""


def js_trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] in JS_SPACE:
        start += 1
    while end > start and text[end - 1] in JS_SPACE:
        end -= 1
    return text[start:end]


def split_command(command: str, depth: int = 0) -> list[str]:
    """`splitBashCommand`: the simple commands of `command`, a `( … )` part split again."""
    if depth > MAX_DEPTH:
        raise TooDeep
    parts: list[str] = []
    last = 0
    for start, end in _operators(command):
        part = js_trim(command[last:start])
        if part:
            parts.append(part)
        last = end
    tail = js_trim(command[last:])
    if tail:
        parts.append(tail)
    result: list[str] = []
    for part in parts:
        bare = strip_env_vars(part)
        stripped = strip_redirections(bare)
        if stripped.startswith("(") and stripped.endswith(")") and stripped == bare:
            inner = js_trim(stripped[1:-1])
            if inner:
                result += split_command(inner, depth + 1)
        else:
            result.append(part)
    return result


def _operators(command: str) -> list[tuple[int, int]]:
    single = double = escaped = False
    level = 0
    found: list[tuple[int, int]] = []
    index, size = 0, len(command)
    while index < size:
        char = command[index]
        after = command[index + 1] if index + 1 < size else ""
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "'" and not double:
            single = not single
        elif char == '"' and not single:
            double = not double
        elif single or double:
            pass
        elif char == "(":
            level += 1
        elif char == ")":
            level -= 1
        elif level <= 0:
            width = _operator_width(command, index, char, after)
            if width and _unescaped(command, index):
                found.append((index, index + width))
                index += width - 1
        index += 1
    return found


def _operator_width(command: str, index: int, char: str, after: str) -> int:
    if (char, after) in (("&", "&"), ("|", "|"), ("|", "&")):
        return 2
    if char in ";|":
        return 1
    before = command[index - 1] if index > 0 else ""
    return 1 if char == "&" and after != ">" and before != ">" else 0


def _backslashes_before(command: str, index: int) -> int:
    count = 0
    while index - 1 - count >= 0 and command[index - 1 - count] == "\\":
        count += 1
    return count


def _unescaped(command: str, index: int) -> bool:
    if _backslashes_before(command, index) % 2:
        return False
    if index > 0 and command[index - 1] in "&|;":
        return _backslashes_before(command, index - 1) % 2 == 0
    return True


def strip_env_vars(command: str) -> str:
    """`stripEnvVars`: `command` without its leading `NAME=value` assignments."""
    text = js_trim(command)
    at = 0
    while True:
        match = _ASSIGNMENT.match(text, at)
        if match is None:
            break
        end = match.end()
        value_end = _value_end(text, end)
        if value_end is None:
            break
        if value_end < 0:
            return ""
        at = value_end
        while at < len(text) and text[at] in JS_SPACE:
            at += 1
    return text[at:]


def _value_end(text: str, start: int) -> int | None:
    """Where the value starting at `start` ends (None: an unclosed quote; -1: the text ends)."""
    opener = text[start] if start < len(text) else ""
    if opener == "'":
        close = text.find("'", start + 1)
        return None if close < 0 else close + 1
    if opener == '"':
        escaped = False
        for index in range(start + 1, len(text)):
            char = text[index]
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                return index + 1
        return None
    # JavaScript's `result.search(/\s/)`: the first white space of the whole remaining text
    return next((i for i in range(start, len(text)) if text[i] in JS_SPACE), -1)


def strip_redirections(command: str) -> str:
    """`stripRedirections`: `command` without its redirections, white space outside quotes
    collapsed to one space."""
    out: list[str] = []
    single = double = escaped = False
    index, size = 0, len(command)
    while index < size:
        char = command[index]
        if escaped:
            escaped = False
            out.append(char)
        elif char == "\\":
            escaped = True
            out.append(char)
        elif char == "'" and not double:
            single = not single
            out.append(char)
        elif char == '"' and not single:
            double = not double
            out.append(char)
        elif single or double:
            out.append(char)
        elif char in JS_SPACE:
            if out and out[-1] not in JS_SPACE:
                out.append(" ")
        elif char in "<>":
            if out and out[-1] in "0123456789&" and (len(out) == 1 or out[-2] in JS_SPACE):
                out.pop()
            index = _redirection_end(command, index, char) - 1
            if out and out[-1] not in JS_SPACE:
                out.append(" ")
        else:
            out.append(char)
        index += 1
    return js_trim("".join(out))


def _redirection_end(command: str, index: int, char: str) -> int:
    end, size = index + 1, len(command)
    if end < size and command[end] == char:
        end += 1
        if char == "<" and end < size and command[end] == "-":
            end += 1
    elif end < size and (command[end] == "&" or (char == ">" and command[end] == "|")):
        end += 1
    while end < size and command[end] in JS_SPACE:
        end += 1
    return _word_end(command, end)[0]


def _word_end(command: str, end: int) -> tuple[int, str]:
    """The end of the redirection target starting at `end`, and its value (quotes removed)."""
    escaped = single = double = False
    value: list[str] = []
    size = len(command)
    while end < size:
        char = command[end]
        if escaped:
            escaped = False
            value.append(char)
        elif char == "\\":
            escaped = True
        elif char == "'" and not double:
            single = not single
        elif char == '"' and not single:
            double = not double
        elif not single and not double and char in JS_SPACE:
            break
        else:
            value.append(char)
        end += 1
    return end, "".join(value)


def has_write_redirection(command: str) -> bool:
    """`hasWriteRedirections`: a `>` outside quotes whose target is neither `/dev/null` nor
    `&N`."""
    single = double = escaped = False
    index, size = 0, len(command)
    while index < size:
        char = command[index]
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "'" and not double:
            single = not single
        elif char == '"' and not single:
            double = not double
        elif not single and not double and char == ">":
            start = index + 1
            if start < size and command[start] in ">|":
                start += 1
            while start < size and command[start] in JS_SPACE:
                start += 1
            end, target = _word_end(command, start)
            if not (target == "/dev/null" or (target.startswith("&") and target[1:].isascii()
                                              and target[1:].isdigit())):
                return True
            index = end - 1
        index += 1
    return False


_QUOTED = re.compile(r'"(?:[^"\\]|\\[^' + _JS_LINE_END + r'])*"')
_SINGLE = re.compile(r"'(?:[^'\\]|\\[^" + _JS_LINE_END + r"])*'")


def _unquoted(command: str) -> str:
    return _SINGLE.sub("''", _QUOTED.sub('""', command))


def has_command_substitution(command: str) -> bool:
    """`hasCommandSubstitution`: `$( … )` or a backquoted pair outside (well-formed) quotes."""
    text = _unquoted(command)
    opened = text.find("$(")
    return (opened >= 0 and text.find(")", opened + 2) >= 0) or text.count("`") >= 2


def has_process_substitution(command: str) -> bool:
    """`hasProcessSubstitution`: `<( … )` or `>( … )` outside (well-formed) quotes."""
    text = _unquoted(command)
    starts = [at for at in (text.find("<("), text.find(">(")) if at >= 0]
    return bool(starts) and text.find(")", min(starts) + 2) >= 0


def tokens(text: str) -> list[str]:
    """`text.match(/(?:[^\\s"']+|"[^"]*"|'[^']*')+/g)`: words, quotes kept."""
    found: list[str] = []
    index, size = 0, len(text)
    while index < size:
        end = _token_end(text, index)
        if end > index:
            found.append(text[index:end])
            index = end
        else:
            index += 1
    return found


def _token_end(text: str, index: int) -> int:
    size = len(text)
    while index < size:
        char = text[index]
        if char in "\"'":
            close = text.find(char, index + 1)
            if close < 0:
                return index
            index = close + 1
        elif char in JS_SPACE:
            return index
        else:
            index += 1
    return index


def has_sed_in_place(command: str) -> bool:
    """`hasSedInPlace`: `sed` with a `-i` or `-i.suffix` word."""
    words = tokens(strip_redirections(strip_env_vars(command)))
    return bool(words) and words[0] == "sed" and any(
        word == "-i" or (word.startswith("-i.") and not any(c in _JS_LINE_END for c in word))
        for word in words)


def is_dangerous_find(command: str) -> bool:
    """`isDangerousFind`: `find` with `-exec`, `-delete`, … (a word, its quotes removed)."""
    words = tokens(strip_redirections(strip_env_vars(command)))
    return bool(words) and words[0] == "find" and any(
        _dequoted(word) in DANGEROUS_FIND_FLAGS for word in words)


def _dequoted(word: str) -> str:
    if len(word) >= 2 and word[0] in "\"'" and word[-1] == word[0]:
        return word[1:-1]
    return word


def strip_git_scope(command: str) -> str:
    """`stripGitScopePrefix`: `git -C <path> status` read as `git status`."""
    trimmed = js_trim(command)
    if not (trimmed == "git" or (trimmed.startswith("git") and trimmed[3:4] in JS_SPACE)):
        return command
    words = tokens(trimmed)
    if not words or words[0] != "git":
        return command
    index = 1
    while index < len(words):
        word = words[index]
        equals = word.find("=")
        if (word[:equals] if equals > 0 else word) not in GIT_SCOPE_FLAGS:
            break
        index += 1 if equals > 0 else 2
    return command if index == 1 else " ".join(["git", *words[index:]])


def leading_word(part: str) -> tuple[str, str] | None:
    """`processedPart.match(/^(\\w+)(\\s+.*)?$/)`: the command word and its arguments (trimmed),
    or None when the part does not start with a plain word."""
    match = _WORD.match(part)
    if match is None:
        return None
    rest = part[match.end():]
    if rest and (rest[0] not in JS_SPACE or any(c in _JS_LINE_END for c in rest.lstrip(
            "".join(JS_SPACE)))):
        return None
    return match.group(), js_trim(rest)


def rule_pattern(raw: str) -> tuple[str, str | None] | None:
    """A rule as `matchesRule` reads it: `Tool` (pattern None) or `/^(\\w+)\\((.*)\\)$/` (no
    newline inside); None: a rule that matches nothing."""
    if _WORD.fullmatch(raw):
        return raw, None
    match = re.fullmatch(r"(\w+)\((.*)\)", raw, re.ASCII)
    if match is None or any(c in _JS_LINE_END for c in match.group(2)):
        return None
    return match.group(1), match.group(2)


def glob_matches(pattern: str, text: str) -> bool:
    """`new RegExp("^" + escaped + "$", "s")` with `*` as `.*`: literal but for `*`, which
    matches anything (no escapes, unlike a Claude Code wildcard rule). Linear in `text`."""
    return matches(_glob(pattern), text)


@lru_cache(maxsize=1024)
def _glob(pattern: str) -> Wildcard:
    return Wildcard(tuple(pattern.split("*")))
