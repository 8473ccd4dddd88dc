"""Arguments of an invocation: splitting the raw string and substituting placeholders
(docs/design/product.md *Preview* step 2; docs/design/runtime-facts.md §3.6 for Claude Code, §4.3 for Wave).

- `wave` (Wave's `substituteCommandParameters`): a body with `/\\$(?:ARGUMENTS|\\d+)/` anywhere is
  substituted, **with or without arguments**: every `$ARGUMENTS` (no look-ahead:
  `$ARGUMENTS[0]` is the raw string then `[0]`) becomes the raw string; then every `$N` of the
  result (no look-ahead either: `$250K` is `$250` and `K`), highest N first, becomes word N
  (1-based; `$0` and a missing word are empty). There is no escape (`\\$1` keeps its backslash
  before the word), no named argument and no `$ARGUMENTS[N]`; argument text that holds `$1` is
  substituted by the second pass, and `$$`, `$&`, `` $` `` and `$'` in argument text are
  JavaScript replacement patterns. Words: quote-aware, a backslash escapes only the quote or a
  backslash inside quotes, empty words dropped.
- `claude-code`: shell-quote words of the first command (operators before it dropped, the first
  operator after a word ends the words), `$N` and `$ARGUMENTS[N]` 0-based, an indexed
  placeholder with no word stays as written, a declared name with no word is empty;
  `$ARGUMENTS` is the raw string; a declared name (`arguments: [issue]`) becomes `$issue`;
  `\\$` before a placeholder keeps it literal. Substitution is one pass, so argument text is
  never substituted again.
- `opencode` (`argument_syntax = "last-takes-rest"`, OpenCode 1.18.33's command template,
  measured by the differential harness: cases oc-args-indexed, oc-args-escape, oc-args-names):
  words are OpenCode's `argsRegex` matches (an `[Image N]`, a double- or single-quoted run, or a
  run without white space or quotes), one quote trimmed at each end; every `$N` (no look-ahead,
  so `$1x` is `$1` and `x`; no escape, so a backslash before it stays) is word N (1-based) or
  nothing past the last word, the highest N written takes every word from N on (joined by
  spaces; `takes_rest`), and `$0` is JavaScript's `undefined` (the last word when it is the
  highest); then `$ARGUMENTS` is the raw string. Like Wave's, these placeholders are plain
  (`plain_placeholders`): no `$ARGUMENTS[N]` (`$ARGUMENTS[1]` is the raw string then `[1]`) and
  no named arguments (a declared `$issue` stays as written).

Every module that asks which placeholders a target has reads it here (`plain_placeholders`,
`takes_rest`, `declared_names`), from the one profile fact `argument_syntax`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.text import Span

PLACEHOLDER = re.compile(r"(\\)?\$(?:ARGUMENTS\[(\d+)\]|(ARGUMENTS)(?![\w\[])|(\d+)(?!\w)|"
                         r"([A-Za-z_]\w*)(?!\[))")
#: `PLACEHOLDER` without its escape, for finding unescaped placeholders: a pattern that starts with
#: `(\\)?` is tried at every offset, one that starts with `$` is found at C speed (group 1 stays,
#: always empty, so that the groups keep their numbers)
_UNESCAPED = re.compile(r"()\$(?:ARGUMENTS\[(\d+)\]|(ARGUMENTS)(?![\w\[])|(\d+)(?!\w)|"
                        r"([A-Za-z_]\w*)(?!\[))")
#: Wave's placeholders in the groups of `PLACEHOLDER` (1 escape, 2 `$ARGUMENTS[N]`'s N,
#: 3 `ARGUMENTS`, 4 `N`, 5 a name): groups 1, 2 and 5 never take part, since Wave has no escape,
#: no indexed `$ARGUMENTS` and no names (`(?!)` is a branch that never matches)
WAVE_PLACEHOLDER = re.compile(r"()\$(?:(?!)(\d)|(ARGUMENTS)|(\d+)|(?!)(\w))")
#: Claude Code 2.1.332 substitutes the first this-many declared names, each at most this long
MAX_NAMES = 64
MAX_NAME_LENGTH = 64
#: OpenCode's `placeholderRegex`: every `$N`, with no look-ahead and no escape
_POSITIONAL = re.compile(r"\$(\d+)")
_OPERATOR_CHARS = frozenset(";&|<>()")


#: the `argument_syntax`es whose placeholders are plain text (Wave's `plain`, OpenCode's
#: `last-takes-rest`): `$ARGUMENTS` and `$N` with no look-ahead, no escape (`\\$1` keeps its
#: backslash), no `$ARGUMENTS[N]` (all the arguments, then `[N]`) and no named arguments
PLAIN_SYNTAXES = frozenset({"plain", "last-takes-rest"})


def plain_placeholders(profile: RuntimeProfile | None) -> bool:
    """`profile` substitutes plain placeholders (`PLAIN_SYNTAXES`); Claude Code's when None."""
    return profile is not None and profile.argument_syntax in PLAIN_SYNTAXES


def takes_rest(profile: RuntimeProfile | None) -> bool:
    """The highest `$N` written takes every word from N on, joined by spaces (OpenCode's
    `last-takes-rest`, cases oc-args-indexed and oc-args-names)."""
    return profile is not None and profile.argument_syntax == "last-takes-rest"


def highest_positional(text: str, start: int = 0) -> int | None:
    """The highest N of the `$N`s of `text[start:]` (OpenCode's `last`, over the whole body:
    prose, code and commands alike), None without one."""
    return max((int(found) for found in _POSITIONAL.findall(text, start)), default=None)


def missing_below_base(profile: RuntimeProfile, rest: bool = False) -> str:
    """What a plain `$N` below the profile's first argument (`$0`) becomes, in words; `rest`:
    it is the highest `$N` written, under a profile where that one takes the rest."""
    if takes_rest(profile):  # `args[-1]`, or `args.slice(-1)` for the highest
        return "becomes the last argument (as the highest `$N` written)" if rest else \
            "becomes `undefined`"
    return "is always empty"


def below_base_label(profile: RuntimeProfile, rest: bool = False) -> str:
    """`missing_below_base` as a short label (an inlay hint)."""
    if takes_rest(profile):
        return "last arg" if rest else "undefined"
    return "empty"


def arguments_from(position: int, rest: bool) -> str:
    """The argument (1-based `position`) a `$N` becomes, in words: with the rest when it is the
    highest `$N` under a profile where that one takes the rest."""
    return f"argument {position} and every argument after it" if rest else f"argument {position}"


#: why the highest `$N` takes more than one argument, in words
REST_REASON = "the highest `$N` written takes the rest, joined by spaces"


def _syntax(profile: RuntimeProfile | None) -> str:
    return "escapable" if profile is None else profile.argument_syntax


def unescaped_placeholders(text: str, start: int = 0, end: int | None = None,
                           syntax: str = "escapable",
                           names: Sequence[str] | None = None) -> Iterator[re.Match[str]]:
    """The matches of `PLACEHOLDER.finditer(text, start, end)` that are not escaped (their group 1
    is empty), with the same groups and spans. A match never ends with a backslash, so a `$` is
    escaped exactly when a backslash at or after `start` stands right before it. Under Wave's
    `syntax` (a profile's `argument_syntax`), every match of `WAVE_PLACEHOLDER`: nothing escapes
    one. With `names`, group 5 is only a declared name, as the runtime matches it
    (`named_pattern`); without, any `$word` (what the author wrote)."""
    stop = len(text) if end is None else end
    if syntax in PLAIN_SYNTAXES:
        yield from WAVE_PLACEHOLDER.finditer(text, start, stop)
        return
    pattern = _UNESCAPED if names is None else named_pattern(tuple(names), escapable=False)
    for match in pattern.finditer(text, start, stop):
        begin = match.start()
        if begin > start and text[begin - 1] == "\\":
            continue
        yield match


def split_arguments(raw: str, profile: RuntimeProfile) -> list[str]:
    if profile.argument_words == "shell":
        return _shell_words(raw)
    if profile.argument_words == "quoted-strict":
        return _wave_words(raw)
    if profile.argument_words == "regex-quoted":
        return [_QUOTE_ENDS.sub("", word) for word in _REGEX_WORD.findall(raw)]
    return _quoted_words(raw)


#: OpenCode's `argsRegex` and `quoteTrimRegex` (session/prompt.ts)
_REGEX_WORD = re.compile(r"""\[Image\s+\d+\]|"[^"]*"|'[^']*'|[^\s"']+""", re.I)
_QUOTE_ENDS = re.compile(r"""^["']|["']$""")


def _wave_words(raw: str) -> list[str]:
    """Wave's `parseCommandArguments`: white space outside quotes separates words; `"` or `'`
    opens a quotation closed by the same character; inside one, a backslash before that quote
    character or a backslash escapes it, and is literal elsewhere (outside quotes always); an
    empty word (`""`) is dropped; an unterminated quotation runs to the end."""
    words: list[str] = []
    current: list[str] = []
    quote = ""
    index = 0
    while index < len(raw):
        char = raw[index]
        following = raw[index + 1] if index + 1 < len(raw) else ""
        if char == "\\" and quote and following in (quote, "\\"):
            current.append(following)
            index += 2
            continue
        if not quote and char in "\"'":
            quote = char
        elif quote and char == quote:
            quote = ""
        elif not quote and char.isspace():
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(char)
        index += 1
    if current:
        words.append("".join(current))
    return words


def _shell_words(raw: str) -> list[str]:
    """Claude Code's words: npm shell-quote's `parse` up to the first operator that follows a
    word (2.1.332: `a | b` gives `a` only, `| a b` gives `a`, `b`). Outside quotes a backslash
    escapes any character; inside double quotes it escapes only `"`, `\\` and `$` (`"\\n"` keeps
    its backslash); single quotes are literal; an unquoted `#` starting a word begins a comment.
    An unterminated quote falls back to splitting on white space."""
    words: list[str] = []
    out: list[str] = []
    started = False
    quote: str | None = None
    index = 0
    while index < len(raw):
        char = raw[index]
        if quote is not None:
            if char == quote:
                quote = None
            elif quote == "'" or char != "\\":
                out.append(char)
            elif index + 1 < len(raw):
                index += 1
                following = raw[index]
                out.append(following if following in '"\\$' else "\\" + following)
        elif char in "\"'":
            quote, started = char, True
        elif char == "\\":
            if index + 1 < len(raw):
                index += 1
                out.append(raw[index])
                started = True
        elif char.isspace() or char in _OPERATOR_CHARS:
            if started:
                words.append("".join(out))
                out, started = [], False
            if char in _OPERATOR_CHARS and words:
                return words
        elif char == "#" and not started:
            break
        else:
            out.append(char)
            started = True
        index += 1
    if quote is not None:
        return raw.split()
    if started:
        words.append("".join(out))
    return words


def _quoted_words(raw: str) -> list[str]:
    words: list[str] = []
    current: list[str] = []
    quote: str | None = None
    started = False
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            current.append(raw[index + 1])
            started = True
            index += 2
            continue
        if quote:
            if char == quote:
                quote = None
            else:
                current.append(char)
        elif char in "\"'":
            quote, started = char, True
        elif char.isspace():
            if started:
                words.append("".join(current))
                current, started = [], False
        else:
            current.append(char)
            started = True
        index += 1
    if started:
        words.append("".join(current))
    return words


def declared_names(value: object, profile: RuntimeProfile | None = None) -> list[str]:
    """The argument names of an `arguments` value (a string split on white space, or a list), as
    Claude Code 2.1.332 keeps them: every text that is not blank and not all digits (`my-arg`,
    `v1.2` included; probe arg-named-dashes), in order: name N binds argument word N. None under
    a profile that substitutes no names (Wave reads no `arguments`)."""
    if plain_placeholders(profile):
        return []
    names = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
    return [name for name in names if isinstance(name, str) and name.strip()
            and not re.fullmatch(r"[0-9]+", name)]


@lru_cache(maxsize=256)
def named_pattern(names: tuple[str, ...], escapable: bool = True) -> re.Pattern[str]:
    """`PLACEHOLDER` (`_UNESCAPED` when not `escapable`) whose group 5 is a declared name as
    Claude Code 2.1.332 matches it: the text as written (`$my-arg`), not followed by `[` or a
    word character, the longest name first and before the other placeholders (its names pass
    runs first); only the first `MAX_NAMES` names of at most `MAX_NAME_LENGTH` characters."""
    short = [name for name in names if len(name) <= MAX_NAME_LENGTH][:MAX_NAMES]
    usable = sorted(dict.fromkeys(short), key=len, reverse=True)
    if not usable:
        alternatives, guard = "(?!)", ""
    else:
        alternatives = "|".join(re.escape(name) for name in usable)
        guard = f"(?!(?:{alternatives})(?![\\[A-Za-z0-9_]))"
    start = r"(\\)?" if escapable else "()"
    return re.compile(rf"{start}\$(?:{guard}ARGUMENTS\[(\d+)\]|{guard}(ARGUMENTS)(?![\w\[])|"
                      rf"{guard}(\d+)(?!\w)|({alternatives})(?![\[A-Za-z0-9_]))")


def has_placeholder(text: str, names: Sequence[str], profile: RuntimeProfile | None = None) -> bool:
    """`text` has a placeholder the runtime substitutes (a `$name` only when declared)."""
    return next(unescaped_placeholders(text, syntax=_syntax(profile), names=names), None) is not None


@dataclass(frozen=True, slots=True)
class ArgumentReference:
    """One argument placeholder the runtime substitutes: `$ARGUMENTS` (neither `index` nor
    `name`), `$N` / `$ARGUMENTS[N]` (`index` = N) or a declared `$name`. `rest`: the highest
    `$N` of the body under a profile where that one takes every word from N on (`takes_rest`)."""

    span: Span
    text: str
    index: int | None = None
    name: str | None = None
    rest: bool = False

    @property
    def everything(self) -> bool:
        """`$ARGUMENTS`: the raw string."""
        return self.index is None and self.name is None

    def word(self, names: Sequence[str], profile: RuntimeProfile) -> int | None:
        """The 0-based argument word it binds to under `profile` (None for `$ARGUMENTS`, and for
        an index below the profile's base: `missing_below_base`)."""
        if self.name is not None:
            return list(names).index(self.name)
        if self.index is None or self.index < profile.argument_base:
            return None
        return self.index - profile.argument_base


def argument_references(text: str, names: Sequence[str], start: int = 0,
                        end: int | None = None, profile: RuntimeProfile | None = None,
                        body_start: int | None = None) -> Iterator[ArgumentReference]:
    """The placeholders of `text[start:end]` that substitution replaces under `profile` (the same
    pattern as `substitute_arguments`; Claude Code's when None): escaped ones and undeclared
    `$name`s are left out. The body, whose highest `$N` may take the rest, starts at
    `body_start` (`start` when None)."""
    highest = (highest_positional(text, start if body_start is None else body_start)
               if takes_rest(profile) else None)
    for match in unescaped_placeholders(text, start, end, _syntax(profile), names):
        index_text = match.group(2) or match.group(4)
        index = int(index_text) if index_text is not None else None
        yield ArgumentReference(Span(match.start(), match.end()), match.group(0), index,
                                match.group(5), rest=match.group(4) is not None
                                and index == highest)


def fills_placeholder(text: str, words: Sequence[str], names: Sequence[str],
                      profile: RuntimeProfile) -> bool:
    """Substitution puts argument text (or nothing) in place of at least one placeholder of
    `text`: `$ARGUMENTS`, a declared `$name`, or an indexed one with an argument. An indexed one
    without an argument counts only under a profile that empties it; one that stays as written
    is no substitution, so Claude Code 2.1.332 still appends the arguments to a body whose only
    placeholder is an out-of-range `$5`. Wave and OpenCode substitute whenever they find one."""
    if plain_placeholders(profile):  # Wave and OpenCode substitute whenever they find one
        return WAVE_PLACEHOLDER.search(text) is not None
    for reference in argument_references(text, names, profile=profile):
        if reference.everything or reference.name is not None:
            return True
        word = reference.word(names, profile)
        if (word is not None and word < len(words)) or not profile.keeps_missing_indexed_argument:
            return True
    return False


def substitute_arguments(text: str, raw: str, words: Sequence[str], names: Sequence[str],
                         profile: RuntimeProfile) -> str:
    """`text` with every argument placeholder replaced (one pass; Wave's two, see the module)."""
    if profile.argument_syntax == "plain":
        return plain_substitution(text, raw, words, profile.argument_base)
    if profile.argument_syntax == "last-takes-rest":
        return last_takes_rest(text, raw, words)
    first = profile.argument_base

    def replace(match: re.Match[str]) -> str:
        if match.group(1):  # escaped: drop the backslash, keep the placeholder literal
            escaped = match.group(5) is None or match.group(5) in names
            return match.group(0)[1:] if escaped else match.group(0)
        if match.group(3):
            return raw
        index_text = match.group(2) or match.group(4)
        if index_text is not None:
            index = int(index_text) - first
            if 0 <= index < len(words):
                return words[index]
            return match.group(0) if profile.keeps_missing_indexed_argument else ""
        name = match.group(5)
        if name in names:
            position = list(names).index(name)
            return words[position] if position < len(words) else ""
        return match.group(0)

    return named_pattern(tuple(names)).sub(replace, text)


def plain_substitution(text: str, raw: str, words: Sequence[str], base: int = 1) -> str:
    """Wave's `substituteCommandParameters` after its placeholder test: `$ARGUMENTS` everywhere,
    then each `$N` of that result, highest N first (so that `$10` is not `$1` and `0`), word
    N - `base` or nothing, with JavaScript's `String.replace` reading `$$`, `$&`, `` $` `` and
    `$'` in the inserted text."""
    if WAVE_PLACEHOLDER.search(text) is None:
        return text
    result = _js_replace_all(text, "$ARGUMENTS", raw)
    numbers = sorted({int(found) for found in re.findall(r"\$(\d+)", result)}, reverse=True)
    for number in numbers:
        position = number - base
        value = words[position] if 0 <= position < len(words) else ""
        result = _js_replace_all(result, f"${number}", value)
    return result


def last_takes_rest(text: str, raw: str, words: Sequence[str]) -> str:
    """OpenCode's substitution (see the module): `$N` by a function, then `$ARGUMENTS` by
    JavaScript's `replaceAll` (whose replacement reads `$$`, `$&`, … patterns)."""
    last = highest_positional(text) or 0

    def replace(match: re.Match[str]) -> str:
        position = int(match.group(1))
        index = position - 1
        if index >= len(words):
            return ""
        if position == last:
            return " ".join(words[index:]) if index >= 0 else " ".join(words[-1:])
        return words[index] if index >= 0 else "undefined"

    return _js_replace_all(_POSITIONAL.sub(replace, text), "$ARGUMENTS", raw)


def _js_replace_all(text: str, needle: str, replacement: str) -> str:
    """`text.replace(/<needle>/g, replacement)` in JavaScript: the regex has no groups, so in
    `replacement` `$$` is `$`, `$&` the match, `` $` `` the text before it, `$'` the text after
    it, and any other `$` is literal."""
    pieces: list[str] = []
    position = 0
    while (found := text.find(needle, position)) >= 0:
        pieces.append(text[position:found])
        pieces.append(_js_expansion(replacement, needle, text[:found],
                                    text[found + len(needle):]))
        position = found + len(needle)
    pieces.append(text[position:])
    return "".join(pieces)


def _js_expansion(replacement: str, matched: str, before: str, after: str) -> str:
    if "$" not in replacement:
        return replacement
    special = {"$": "$", "&": matched, "`": before, "'": after}
    return re.sub(r"\$([$&`'])", lambda m: special[m.group(1)], replacement)
