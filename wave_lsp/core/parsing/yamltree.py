"""The frontmatter as a YAML node tree with exact spans, built from ruamel.yaml's event stream.

Implements what docs/design/rules.md *YAML* (SK020-SK028) needs to see: every key and value with its span
in the file, the scalar style (plain, quoted, block) and its resolved text, explicit tags, anchors, aliases
(kept as alias nodes: never expanded, so an alias bomb costs nothing), flow collections and duplicate
keys. Parse errors become a `YamlProblem` with a kind that picks the rule (SK020 syntax, SK021 the
unquoted `: `, SK023 an alias-like `*` value, SK026 a tab).

Scalars resolve with the YAML 1.2 core schema (what the `wave` target models); `yaml11_type` tells
what a YAML 1.1 loader (PyYAML, the claude.ai upload) would make of a plain scalar (SK027).

After a parse error the tree is rebuilt, when possible, from Claude Code's quoting retry
(docs/design/runtime-facts.md §3.1 `quoteProblematicValues`), with spans mapped back to the original text,
so that the other rules can still speak about the rest of the frontmatter.
"""

from __future__ import annotations

import bisect
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ruamel.yaml import YAML, events

try:  # the C parser (libyaml) of ruamel.yaml.clib, when installed
    from _ruamel_yaml import CParser as _CParser
except ImportError:  # pragma: no cover - the pure-Python parser serves alone
    _CParser = None
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.reader import ReaderError

from wave_lsp.core.parsing.text import LONE_CR, Span

MAX_DEPTH = 100
MAX_FRONTMATTER_CHARS = 1_048_576

NodeKind = Literal["scalar", "mapping", "sequence", "alias"]
ProblemKind = Literal["syntax", "colon", "alias", "tab", "depth", "size"]


class _Alias:
    """Stands in for the value of an alias node: aliases are never expanded."""

    def __repr__(self) -> str:
        return "<alias>"


ALIAS = _Alias()


@dataclass(eq=False, slots=True)
class YamlNode:
    """A frontmatter node: kind, spans, style, tag, anchor and children."""

    kind: NodeKind
    span: Span  #: the node including its anchor and tag
    content_span: Span  #: the value itself (after anchor and tag; trailing blank lines trimmed)
    tag: str | None = None  #: explicit tag as written (`!!str`, `!foo`)
    tag_span: Span | None = None
    anchor: str | None = None  #: the anchor defined on this node, or the alias' target name
    anchor_span: Span | None = None
    style: str | None = None  #: scalars: None (plain), `'`, `"`, `|`, `>`
    flow: bool = False  #: collections written as `[...]` / `{...}`
    text: str = ""  #: scalars: the value text as YAML resolves it (folded, unescaped)
    pairs: list[tuple[YamlNode, YamlNode]] = field(default_factory=list)
    items: list[YamlNode] = field(default_factory=list)

    # -- values ----------------------------------------------------------------------------
    @property
    def is_plain(self) -> bool:
        return self.kind == "scalar" and self.style is None and self.tag is None

    @property
    def is_block_scalar(self) -> bool:
        return self.kind == "scalar" and self.style in ("|", ">")

    def value(self) -> Any:
        """The value with the YAML 1.2 core schema (aliases become `ALIAS`)."""
        return to_python(self)

    def walk(self) -> Iterator[YamlNode]:
        """Every node of the tree, depth first, without recursion."""
        stack: list[YamlNode] = [self]
        while stack:
            node = stack.pop()
            yield node
            children: list[YamlNode] = []
            for key_node, value_node in node.pairs:
                children += [key_node, value_node]
            children += node.items
            stack.extend(reversed(children))


@dataclass(slots=True)
class YamlProblem:
    """Why the frontmatter does not parse, and where."""

    kind: ProblemKind
    message: str
    span: Span


@dataclass(slots=True)
class YamlDocument:
    """The result of parsing one frontmatter."""

    root: YamlNode | None = None
    problem: YamlProblem | None = None
    #: the tree was rebuilt after `problem` from a lenient reading (Bun's parser, Claude Code's
    #: quoting retry), so that the other rules can still speak about the fields
    recovered: bool = False
    #: the lenient readings (`READINGS`) under which the frontmatter parses after `problem`; a
    #: runtime loads the fields when it uses one of them (`RuntimeProfile.frontmatter_readings`)
    readings: frozenset[str] = frozenset()
    #: spans of every duplicated key: (first occurrence, later occurrence)
    duplicates: list[tuple[YamlNode, YamlNode]] = field(default_factory=list)

    @property
    def mapping(self) -> YamlNode | None:
        return self.root if self.root is not None and self.root.kind == "mapping" else None


# -- resolution -----------------------------------------------------------------------------

_NULL_12 = re.compile(r"~|null|Null|NULL|")
_BOOL_12 = re.compile(r"true|True|TRUE|false|False|FALSE")
_INT_12 = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT_12 = re.compile(
    r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
)
# YAML 1.1 implicit types, as PyYAML resolves them (resolver.py)
_BOOL_11 = re.compile(
    r"yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"
)
#: the YAML 1.1 numbers and dates, left as pattern texts that `re` compiles (and caches) when a
#: value first needs them: each starts with a sign, a digit or a dot, most values with neither
_NUMERIC_START = frozenset("+-.0123456789")
_INT_11 = (
    r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
    r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"
)
_FLOAT_11 = (
    r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_TIMESTAMP_11 = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?"
)


#: the first characters of every null, boolean, integer and float of the core schema (any other
#: non-empty plain scalar is a string)
_NON_STRING_STARTS = frozenset("~nNtTfF-+.0123456789")


def resolve_plain_12(text: str) -> Any:
    """A plain scalar under the YAML 1.2 core schema."""
    if text and text[0] not in _NON_STRING_STARTS:
        return text
    if _NULL_12.fullmatch(text):
        return None
    if _BOOL_12.fullmatch(text):
        return text.lower() == "true"
    if _INT_12.fullmatch(text):
        return int(text, 0) if text[:2] in ("0o", "0x") else int(text)
    if _FLOAT_12.fullmatch(text):
        lowered = text.lower()
        if lowered.endswith(".inf"):
            return float("-inf") if lowered.startswith("-") else float("inf")
        if lowered.endswith(".nan"):
            return float("nan")
        return float(text)
    return text


def yaml11_type(text: str) -> str | None:
    """The type a YAML 1.1 loader gives a plain scalar, or None when it stays a string."""
    if _NULL_12.fullmatch(text):
        return "null"
    if _BOOL_11.fullmatch(text):
        return "boolean"
    if text[:1] not in _NUMERIC_START:
        return None
    if re.fullmatch(_INT_11, text):
        return "integer"
    if re.fullmatch(_FLOAT_11, text):
        return "number"
    if re.fullmatch(_TIMESTAMP_11, text):
        return "date"
    return None


def yaml12_type(text: str) -> str | None:
    value = resolve_plain_12(text)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return None


def to_python(node: YamlNode, *, scalar_aliases: bool = False) -> Any:
    """Convert a node tree to Python values, iteratively (deep trees do not recurse).
    `scalar_aliases`: an alias of an anchored scalar defined before it takes that scalar's value,
    as a loader that resolves aliases reads it (`description: *w` after `when_to_use: &w text`);
    other aliases stay `ALIAS` (a collection is never expanded, so an alias bomb costs nothing)."""
    results: dict[int, Any] = {}
    order: list[YamlNode] = list(node.walk())
    targets = scalar_alias_targets(order) if scalar_aliases else {}
    for current in reversed(order):
        results[id(current)] = _convert_one(targets.get(id(current), current), results)
    return results[id(node)]


def scalar_alias_targets(nodes: list[YamlNode]) -> dict[int, YamlNode]:
    """For each alias among `nodes` (in document order) whose anchor names a scalar defined
    before it (the latest such definition, as YAML has it): id(alias) -> that scalar."""
    defined: dict[str, YamlNode] = {}
    targets: dict[int, YamlNode] = {}
    for current in nodes:
        if current.kind == "alias":
            target = defined.get(current.anchor or "")
            if target is not None and target.kind == "scalar":
                targets[id(current)] = target
        elif current.anchor is not None:
            defined[current.anchor] = current
    return targets


def _convert_one(node: YamlNode, done: dict[int, Any]) -> Any:
    if node.kind == "alias":
        return ALIAS
    if node.kind == "scalar":
        if node.tag in ("!!str", "!"):
            return node.text
        if node.tag in ("!!int", "!!float", "!!bool", "!!null") or node.is_plain:
            return resolve_plain_12(node.text)
        return node.text
    if node.kind == "sequence":
        return [done[id(item)] for item in node.items]
    mapping: dict[Any, Any] = {}
    for key_node, value_node in node.pairs:
        key = done[id(key_node)]
        if isinstance(key, (list, dict)) or key is ALIAS:
            key = str(key)
        mapping[key] = done[id(value_node)]
    return mapping


# -- parsing --------------------------------------------------------------------------------


#: texts on which libyaml and ruamel.yaml's pure parser may disagree, found by comparing the two
#: (tests/core/test_yaml_paths.py): tabs (libyaml accepts some that YAML forbids), a lone carriage
#: return, line separators, next-line and byte-order marks (YAML 1.1 breaks, YAML 1.2 content),
#: a block scalar header with `#` right after it, and tag indicators and anchor and alias
#: indicators with a name after them (`R & D`, `a * b` are text to both, and `key: & x` an error
#: to both, which the pure parser then reports); `_c_can_parse` searches each only when the text
#: holds a character it needs
_UNSAFE_NON_ASCII = re.compile("[\u0085\u2028\u2029\ufeff]")
_HEADER_COMMENT = re.compile("[|>][-+0-9]*#")
_PROPERTY_INDICATOR = re.compile(r"(?:^|[\s\[{,])(?:!|[&*](?=[\w-]))")
#: the same as one pattern (what the piecewise search must agree with: tests/core/test_quick_values.py)
_C_UNSAFE = re.compile("|".join(["\t", _UNSAFE_NON_ASCII.pattern, LONE_CR.pattern,
                                 _HEADER_COMMENT.pattern, _PROPERTY_INDICATOR.pattern]))
#: with `_BLOCK_HEADER`: a comment line in a text that has a block scalar (also unsafe)
_COMMENT_LINE = re.compile(r"^[ ]*#", re.M)
#: document markers (`---`, `...`): libyaml accepts sequences of them the pure parser rejects
_DOCUMENT_MARKER = re.compile(r"^(?:---|\.\.\.)", re.M)
_BLOCK_HEADER = re.compile(r"[|>][-+0-9]*[ ]*(?:#.*)?$", re.M)


def _c_can_parse(text: str) -> bool:
    """libyaml gives exactly the pure parser's events for `text` (see `_C_UNSAFE`). Each
    alternative of `_C_UNSAFE` is searched for only when the text holds a character it needs
    (the same answer, a few times faster: tests/core/test_yaml_paths.py)."""
    if _CParser is None or "\t" in text:
        return False
    if not text.isascii() and _UNSAFE_NON_ASCII.search(text):
        return False
    if "\r" in text and LONE_CR.search(text):
        return False
    if ("|" in text or ">" in text) and _HEADER_COMMENT.search(text):
        return False
    if ("&" in text or "*" in text or "!" in text) and _PROPERTY_INDICATOR.search(text):
        return False
    if ("---" in text or "..." in text) and _DOCUMENT_MARKER.search(text):
        return False
    return not ("#" in text and _COMMENT_LINE.search(text) and _BLOCK_HEADER.search(text))


def parse_frontmatter(text: str, offset: int = 0) -> YamlDocument:
    """Parse the YAML text of a frontmatter that starts at `offset` in the file."""
    if len(text) > MAX_FRONTMATTER_CHARS:
        return YamlDocument(
            problem=YamlProblem(
                "size",
                f"the frontmatter is {len(text):,} characters long; it is not parsed "
                f"(more than {MAX_FRONTMATTER_CHARS:,})",
                Span(offset, offset + 3),
            )
        )
    too_deep = _nesting_guard(text)
    if too_deep is not None:
        return YamlDocument(
            problem=YamlProblem(
                "depth",
                f"the frontmatter nests more than {MAX_DEPTH} levels deep; it is not parsed",
                Span(offset + too_deep, offset + too_deep + 1),
            )
        )
    parse_text = _neutralise_inner_tabs(text)
    try:
        return _build(parse_text, offset, _identity)
    except (MarkedYAMLError, ReaderError) as error:
        problem = _problem_from_error(error, parse_text, offset)
    return lenient_reading(text, offset, problem)


def _identity(index: int) -> int:
    return index


#: compiled by `re` when first needed (a frontmatter with a tab)
_INNER_TAB = r"(?m)(?<=[^\s])([^\S\r\n]*)\t"


def _neutralise_inner_tabs(text: str) -> str:
    """Tabs after the first non-blank character of a line, as spaces (same length).

    YAML 1.2 allows tabs inside a line (`a: x<TAB>y`), but ruamel.yaml's scanner rejects them;
    the runtimes' parsers accept them. Leading tabs stay, so indentation by tab is still an error.
    """
    if "\t" not in text:
        return text
    return re.sub(_INNER_TAB, lambda m: m.group(1) + " ", text)


def _nesting_guard(text: str) -> int | None:
    """Index where flow brackets or block indentation nest deeper than MAX_DEPTH, else None.

    ruamel.yaml's scanner is quadratic in the flow nesting depth (10,000 levels take seconds), so
    absurd nesting is refused before parsing; no frontmatter of a real skill comes near the limit.
    """
    depth = 0
    for match in re.finditer(r"[\[\]{}]", text):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return match.start()
        depth = max(depth, 0)
    indents: list[int] = []
    position = 0
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip(" -")
        if stripped.strip() and not stripped.startswith("#"):
            width = len(line) - len(stripped)
            while indents and indents[-1] >= width:
                indents.pop()
            indents.append(width)
            if len(indents) > MAX_DEPTH:
                return position
        position += len(line)
    return None


def _problem_from_error(error: Exception, text: str, offset: int) -> YamlProblem:
    if isinstance(error, ReaderError):
        index = min(error.position, len(text))
        return YamlProblem(
            "syntax",
            f"character U+{error.character:04X} is not allowed in YAML "
            f"({error.reason})",
            Span(offset + index, offset + min(index + 1, len(text))),
        )
    assert isinstance(error, MarkedYAMLError)
    mark = error.problem_mark or error.context_mark
    at_end = mark is not None and not text[mark.index :].strip()
    if at_end and error.context_mark is not None:
        mark = error.context_mark  # "found unexpected end of stream": show where it started
    index = min(mark.index, len(text)) if mark is not None else 0
    problem = (error.problem or "").strip()
    context = (error.context or "").strip()
    span = Span(offset + index, offset + min(index + 1, len(text)))
    if problem.startswith("mapping values are not allowed"):
        return YamlProblem("colon", problem, span)
    if "'\\t'" in problem or "\t" in problem:
        return YamlProblem("tab", problem, span)
    if context.startswith(("while scanning an alias", "while scanning an anchor")):
        return YamlProblem("alias", f"{context}: {problem}", span)
    message = f"{context}: {problem}" if context else problem
    return YamlProblem("syntax", message, span)


# Lenient readings (docs/design/runtime-facts.md §3.1): how Claude Code still reads a frontmatter
# that strict YAML rejects, reproduced exactly.
#: Bun's YAML parser (Claude Code's native builds) accepts characters YAML 1.2 does not allow
#: (U+0080, other C1 controls) and a plain value that starts with `,`
BUN = "bun"
#: the quoting retry: top-level `key: value` lines whose value holds a special character are
#: quoted. Its line pattern ends in `$` without the multi-line flag, so a line that ends in CR
#: (a CRLF file) never matches and is never rewritten
QUOTE_RETRY = "quote-retry"
#: the retry also turns each leading tab into two spaces (Claude Code 2.1.332; not in 2.1.88)
TAB_RETRY = "tab-retry"
READINGS = (BUN, QUOTE_RETRY, TAB_RETRY)

#: compiled by `re` when first needed (a frontmatter that does not parse)
_RETRY_LINE = r"^([a-zA-Z_-]+):\s+(\S.*)$"
_YAML_SPECIAL_CHARS = r"[{}[\]*&#!|>%@`]|: "
_COMMA_START = r"^([a-zA-Z_-]+):[ \t]+(,.*)$"
#: what YAML 1.2 allows in a stream besides tab, LF and CR (`c-printable`)
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass(slots=True)
class _Rewrite:
    """A value the quoting retry rewrote: its place in the new text and in the old."""

    new_start: int
    new_end: int
    old_start: int
    old_end: int


def quote_problematic_values(text: str) -> tuple[str, list[_Rewrite]]:
    """Quote top-level `key: value` lines whose value holds YAML special characters, as Claude
    Code's retry does (so lines ending in CR stay as they are)."""
    return _rewrite(text, (QUOTE_RETRY,))


def _rewrite(text: str, readings: tuple[str, ...],
             crlf_lines: bool = False) -> tuple[str, list[_Rewrite]]:
    """`text` as the lenient `readings` see it. `crlf_lines`: also quote lines that end in CR
    (no runtime does; the analysis tree does, to speak about the fields of a CRLF file)."""
    out: list[str] = []
    rewrites: list[_Rewrite] = []
    old_pos = new_pos = 0
    for raw_line in text.splitlines(keepends=True):
        content = raw_line.rstrip("\r\n")
        ending = raw_line[len(content) :]
        cr_ended = ending.startswith("\r") and not crlf_lines
        new_content: str | None = None
        if TAB_RETRY in readings and content.startswith("\t"):
            # a key at column 0 is all the quoting retry rewrites, so an indented line is only
            # ever re-indented
            tabs = len(content) - len(content.lstrip("\t"))
            new_content = "  " * tabs + content[tabs:]
            rewrites.append(_Rewrite(new_pos, new_pos + 2 * tabs, old_pos, old_pos + tabs))
        else:
            new_content, value_start = _rewrite_line(content, cr_ended, readings)
            if new_content is not None:
                rewrites.append(_Rewrite(new_pos + value_start, new_pos + len(new_content),
                                         old_pos + value_start, old_pos + len(content)))
        if new_content is None:
            new_content = content
        out.append(new_content + ending)
        new_pos += len(new_content) + len(ending)
        old_pos += len(raw_line)
    return "".join(out), rewrites


def _rewrite_line(content: str, cr_ended: bool,
                  readings: tuple[str, ...]) -> tuple[str | None, int]:
    """The line as a reading rewrites it (None: unchanged), and where its value starts.
    `cr_ended`: the line ends in CR, which the retry's `(\\S.*)$` (JavaScript's `.` stops at CR)
    never matches."""
    if BUN in readings:
        match = re.match(_COMMA_START, content)
        if match:
            return _quoted(match), match.start(2)
    if QUOTE_RETRY in readings and not cr_ended:
        match = re.match(_RETRY_LINE, content)
        value = match.group(2) if match else ""
        if (match and not (value.startswith('"') and value.endswith('"'))
                and not (value.startswith("'") and value.endswith("'"))
                and re.search(_YAML_SPECIAL_CHARS, value)):
            return _quoted(match), match.start(2)
    return None, 0


def _quoted(match: re.Match[str]) -> str:
    escaped = match.group(2).replace("\\", "\\\\").replace('"', '\\"')
    return f'{match.group(1)}: "{escaped}"'


def lenient_reading(text: str, offset: int, problem: YamlProblem) -> YamlDocument:
    """After `problem` (also one the tree does not show: an alias to an anchor never defined):
    which lenient readings parse the text, and the tree of the first one that does (with spans
    in the original text); the problem alone when none does."""
    found: YamlDocument | None = None
    readings: set[str] = set()
    attempts: list[tuple[tuple[str, ...], bool]] = [
        ((BUN,), False), ((BUN, QUOTE_RETRY), False), ((BUN, QUOTE_RETRY, TAB_RETRY), False),
        ((BUN, QUOTE_RETRY, TAB_RETRY), True)]
    for used, crlf_lines in attempts:
        built = _lenient_build(text, offset, used, crlf_lines)
        if built is None:
            continue
        if not crlf_lines:
            readings.add(used[-1])
        if found is None:
            found = built
    if found is None:
        return YamlDocument(problem=problem)
    found.problem, found.recovered, found.readings = problem, True, frozenset(readings)
    return found


def _lenient_build(text: str, offset: int, readings: tuple[str, ...],
                   crlf_lines: bool) -> YamlDocument | None:
    placeholders: dict[str, str] = {}
    if BUN in readings and _NOT_PRINTABLE.search(text):
        text, placeholders = _placeholders(text)
    rewritten, rewrites = _rewrite(text, readings, crlf_lines)
    if not rewrites and not placeholders:
        return None
    new_starts = [r.new_start for r in rewrites]

    def to_old(index: int) -> int:
        position = bisect.bisect_right(new_starts, index) - 1
        if position < 0:
            return index
        rewrite = rewrites[position]
        if index <= rewrite.new_end:
            # inside the rewritten value: map onto the original value text
            return min(rewrite.old_start + max(index - rewrite.new_start - 1, 0), rewrite.old_end)
        return index - rewrite.new_end + rewrite.old_end

    try:
        document = _build(_neutralise_inner_tabs(rewritten), offset, to_old)
    except (MarkedYAMLError, ReaderError):
        return None
    if placeholders and document.root is not None:
        for node in document.root.walk():
            for stand_in, original in placeholders.items():
                node.text = node.text.replace(stand_in, original)
    return document


def _placeholders(text: str) -> tuple[str, dict[str, str]]:
    """`text` with each character YAML does not allow replaced by a private-use character that
    the text does not hold (one per distinct character, same length), and the replacements."""
    free = (chr(code) for code in range(0xE000, 0xF900) if chr(code) not in text)
    chosen: dict[str, str] = {}
    for character in sorted(set(_NOT_PRINTABLE.findall(text))):
        chosen[character] = next(free)
    for character, stand_in in chosen.items():
        text = text.replace(character, stand_in)
    return text, {stand_in: character for character, stand_in in chosen.items()}


def _events(text: str, pure: bool) -> Iterator[events.Event]:
    """The YAML event stream of `text`: from libyaml through ruamel.yaml.clib when it is installed
    (about five times faster), else from ruamel.yaml's pure-Python parser.

    The two agree on every event, its style, anchor, tag and character offsets for the documents
    the C parser accepts (tests/core/test_yaml_paths.py compares them on the whole corpus and on
    generated texts). Where they could disagree the pure parser decides: anything libyaml rejects
    is parsed again by the pure parser (so errors and their positions always come from it), and a
    text libyaml may read differently (`_c_can_parse`) goes to the pure parser directly."""
    if not pure and _c_can_parse(text):
        parser = _CParser(io.StringIO(text))
        stream: list[events.Event] = []
        try:
            while True:
                event = parser.get_event()
                if _c_differs(event):
                    stream = []
                    break
                stream.append(event)
                if isinstance(event, events.StreamEndEvent):
                    break
        except Exception:  # any libyaml complaint: the pure parser gives the exact error
            stream = []
        finally:
            parser.dispose()
        if stream:
            yield from stream
            return
    yield from YAML(typ="safe", pure=True).parse(text)


# -- the values alone ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QuickValues:
    """The values of a frontmatter's top-level mapping, as `parse_frontmatter` and `to_python`
    give them, without the tree: `values` is `root.value()` ({} when the root is not a mapping)
    and `scalar_keys` the texts of its scalar keys (the names `SkillDocument.fields` holds)."""

    values: dict[Any, Any]
    scalar_keys: frozenset[str]


#: the collections being built: (the list, or the dict with its pending key, if any)
_Open = tuple[list[Any], None] | tuple[dict[Any, Any], list[Any]]


def quick_values(text: str) -> QuickValues | None:
    """The frontmatter's top-level values without building the node tree, or None when this
    cannot be certain to agree with `parse_frontmatter`: only texts that libyaml reads exactly as
    the pure parser (`_c_can_parse`) and that it accepts, with no anchor, alias or tag (their
    spelling in the text decides the value), no empty plain scalar (`_c_differs`), one document
    and fewer than `MAX_DEPTH` lines and brackets (the nesting guard cannot refuse them).
    tests/core/test_quick_values.py compares the two on the corpus and on generated texts."""
    if len(text) > MAX_FRONTMATTER_CHARS or text.count("\n") >= MAX_DEPTH \
            or text.count("[") + text.count("{") > MAX_DEPTH or not _c_can_parse(text):
        return None
    parser = _CParser(io.StringIO(text))
    try:
        return _values_from_events(parser)
    except Exception:  # any libyaml complaint: the full parse reports it
        return None
    finally:
        parser.dispose()


def _values_from_events(parser: Any) -> QuickValues | None:
    """The values built from libyaml's events as `_convert_one` converts nodes (None: not sure)."""
    opened: list[_Open] = []
    roots: list[Any] = []
    keys: set[str] = set()
    #: the root mapping's pending-key list, once the root is a mapping
    root_pending: list[Any] | None = None
    next_event = parser.get_event
    while True:
        event = next_event()
        kind = type(event)
        if kind is _SCALAR:
            value, style = event.value, event.style
            if event.anchor is not None or event.tag is not None or not (value or style):
                return None  # (an empty plain scalar: `_c_differs`)
            found: Any = value if style in _NOT_PLAIN else resolve_plain_12(value)
            if root_pending is not None and len(opened) == 1 and not root_pending:
                keys.add(value)  # a key of the root mapping
        elif kind is _MAPPING_START or kind is _SEQUENCE_START:
            if event.anchor is not None or event.tag is not None:
                return None
            opened.append(({}, []) if kind is _MAPPING_START else ([], None))
            if len(opened) == 1:
                root_pending = opened[0][1]
            continue
        elif kind is _MAPPING_END or kind is _SEQUENCE_END:
            found = opened.pop()[0]
        elif kind is events.StreamEndEvent:
            break
        elif kind is _ALIAS_EVENT:
            return None
        else:  # stream and document start and end
            continue
        if not opened:
            roots.append(found)
            continue
        _attach(opened[-1], found)
    if len(roots) > 1:
        return None
    root = roots[0] if roots else None
    if not isinstance(root, dict):
        return QuickValues({}, frozenset())
    return QuickValues(root, frozenset(keys))


_NOT_PLAIN = ("'", '"', "|", ">")
_SCALAR, _ALIAS_EVENT = events.ScalarEvent, events.AliasEvent
_MAPPING_START, _MAPPING_END = events.MappingStartEvent, events.MappingEndEvent
_SEQUENCE_START, _SEQUENCE_END = events.SequenceStartEvent, events.SequenceEndEvent


def _attach(into: _Open, found: Any) -> None:
    """`found` as the next item of a list, or the next key or value of a mapping (a collection
    used as a key becomes its `str`, as `_convert_one` makes it)."""
    collection, pending = into
    if isinstance(collection, list):
        collection.append(found)
    elif pending:
        collection[pending.pop()] = found
    elif pending is not None:
        pending.append(str(found) if isinstance(found, (list, dict)) else found)


def _c_differs(event: events.Event) -> bool:
    """An event whose position libyaml reports differently from the pure parser: an empty plain
    scalar (`key:` with no value) is placed right after the `:` by libyaml and at the next token by
    the pure parser, whose positions the findings have always used."""
    return isinstance(event, events.ScalarEvent) and not event.value and not event.style


def _build(text: str, offset: int, to_old: Callable[[int], int], *,
           pure: bool = False) -> YamlDocument:
    """Build the node tree from the event stream, iteratively."""
    document = YamlDocument()
    # open collections: (node, pending key for mappings, local index where its content starts)
    stack: list[tuple[YamlNode, list[YamlNode], int]] = []
    roots: list[YamlNode] = []
    seen_keys: list[dict[Any, YamlNode]] = []

    def file_span(start: int, end: int) -> Span:
        return Span(offset + to_old(start), offset + to_old(max(end, start)))

    def attach(node: YamlNode) -> None:
        if not stack:
            roots.append(node)
            return
        parent, pending, _ = stack[-1]
        if parent.kind == "sequence":
            parent.items.append(node)
        elif pending:
            key_node = pending.pop()
            parent.pairs.append((key_node, node))
            _note_duplicate(document, seen_keys[-1], key_node)
        else:
            pending.append(node)

    for event in _events(text, pure):
        if isinstance(event, events.ScalarEvent):
            node, _ = _new_node("scalar", event, text, file_span)
            node.style = event.style if event.style in ("'", '"', "|", ">") else None
            node.text = event.value
            attach(node)
        elif isinstance(event, (events.MappingStartEvent, events.SequenceStartEvent)):
            kind: NodeKind = (
                "mapping" if isinstance(event, events.MappingStartEvent) else "sequence"
            )
            node, content_start = _new_node(kind, event, text, file_span)
            node.flow = bool(event.flow_style)
            attach(node)
            stack.append((node, [], content_start))
            seen_keys.append({})
        elif isinstance(event, (events.MappingEndEvent, events.SequenceEndEvent)):
            node, _, content_start = stack.pop()
            seen_keys.pop()
            end = _trimmed_end(text, content_start, event.end_mark.index)
            node.span = Span(node.span.start, offset + to_old(end))
            node.content_span = file_span(content_start, end)
        elif isinstance(event, events.AliasEvent):
            span = file_span(event.start_mark.index, event.end_mark.index)
            node = YamlNode("alias", span, span, anchor=event.anchor, anchor_span=span)
            attach(node)
    document.root = roots[0] if roots else None
    return document


def _note_duplicate(document: YamlDocument, seen: dict[Any, YamlNode], key_node: YamlNode) -> None:
    if key_node.kind != "scalar":
        return
    key = key_node.text
    if key in seen:
        document.duplicates.append((seen[key], key_node))
    else:
        seen[key] = key_node


#: compiled by `re` when first needed (a node with an anchor or a tag)
_PROPERTY = r"([&!][^\s,\[\]{}]*)[ \t]*"


def _new_node(kind: NodeKind, event: events.ScalarEvent | events.CollectionStartEvent, text: str,
              file_span: Callable[[int, int], Span]) -> tuple[YamlNode, int]:
    """A node with its anchor and tag located in the text before the content.

    Returns the node and the local index where its content starts (after anchor and tag).
    """
    start, end = event.start_mark.index, event.end_mark.index
    node = YamlNode(kind, file_span(start, end), file_span(start, end))
    node.anchor = getattr(event, "anchor", None)
    explicit_tag = getattr(event, "tag", None) is not None
    content_start = start
    if node.anchor is not None or explicit_tag:
        for _ in range(2):
            match = re.compile(_PROPERTY).match(text, content_start)
            if not match:
                break
            token = match.group(1)
            token_span = file_span(match.start(1), match.end(1))
            if token.startswith("&"):
                node.anchor_span = token_span
            else:
                node.tag, node.tag_span = token, token_span
            content_start = match.end()
    trimmed = _trimmed_end(text, content_start, max(end, content_start))
    node.content_span = file_span(content_start, trimmed)
    return node, content_start


def _trimmed_end(text: str, start: int, end: int) -> int:
    """`end` moved back over the trailing blanks and line breaks that block values swallow."""
    end = min(end, len(text))
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return max(end, start)
