"""`.gitignore` patterns matched in time polynomial in the pattern and the path, never
exponential (issue 35 item 3, *Bounded everywhere*; docs/design/product.md *Command line*: the
walk skips gitignored paths; rules.md *Workspace*, SK133).

The semantics are those of pathspec's `GitIgnoreSpec` (its `gitwildmatch` patterns), which
wave-lsp used before: a blank line or `#` comment is nothing, trailing white space is dropped
(unless escaped: `a\\ `), a leading `!` negates, a pattern with a `/` before its end is anchored
to the folder of its `.gitignore` and one without matches at any depth, a trailing `/` matches
only what lies below the name (`build/` matches `build/x` and the folder `build/` given with its
slash), `**` as a whole segment matches any number of segments, `*` any text within one segment
(a lone `*` segment at least one character), `?` one character, `[...]` a class (`!` or `^`
negates it, `a-z` ranges, a `]` right after the opening is literal, a backslash inside is
literal), and a backslash outside a class makes the next character literal. A class with no
closing `]` discards its pattern (as git does). Where several patterns match, pathspec's rule
holds: the last pattern matching the path itself wins over any pattern that matches only one of
its folders (the regular expression's directory mark); among those, the last one wins.

pathspec compiles each pattern to a backtracking regular expression: `*a*a*a*a*a*a*a*b` against
a folder named with 40 `a`s took seconds, a few more stars minutes. Here a pattern is split at
its `**` segments into runs of segments. Every run but the last is placed leftmost (a later
placement never leaves more room), the last run is tried at the end of the path (the path
itself matches) and leftmost (a folder of the path matches). Within one segment the glob is split
at its stars into fixed-length pieces, placed leftmost the same way. No choice is ever retried:
the work is at most the product of the pattern's and the path's lengths (tests count it,
tests/core/test_gitignore.py).

Most lines of a real `.gitignore` are one segment at any depth (`node_modules/`, `*.log`,
`.coverage.*`): those are not tried one by one but looked up for each segment of the path (a
dictionary of names, of `*`-suffixes and of `*`-prefixes; any other one-segment glob matched
once per distinct segment, the answer remembered), so a path costs about its segments, not the
file's lines; the few other patterns are tried from the last down (benchmarks/bounded.py).

Two deliberate departures from pathspec, where git (the runtime that decides, `git
check-ignore`) behaves otherwise: a class never matches `/` (pathspec's `a[!x]b` matched `a/b`),
and a reversed range (`[z-a]`) matches nothing instead of failing the whole file with an error.
A pattern ending in a lone backslash is invalid and never matches. Paths are relative and
`/`-separated, with no empty segment except a final one that marks a folder (`build/`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

#: how a pattern ends: `opt` (the name itself, or a folder of the path: the directory mark),
#: `slash` (a trailing `/**`: something below it), `dirslash` (a trailing `/`: something below,
#: as a directory mark)
Tail = Literal["opt", "slash", "dirslash"]


class GitIgnorePatternError(ValueError):
    """A pattern git cannot use (a trailing lone backslash, a pattern that is only slashes)."""


@dataclass(frozen=True, slots=True)
class CharClass:
    """`[...]`: the characters and ranges it holds, maybe negated; never matches `/`."""

    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    negated: bool

    def accepts(self, char: str) -> bool:
        if char == "/":
            return False
        inside = char in self.chars or any(low <= char <= high for low, high in self.ranges)
        return inside != self.negated


#: one character of a piece: a literal character, `?` (ANY) or a class
Atom = str | CharClass | None
ANY: Atom = None


@dataclass(frozen=True, slots=True)
class SegmentGlob:
    """One segment of a pattern: fixed-length pieces between its stars."""

    pieces: tuple[tuple[Atom, ...], ...]
    #: a lone `*`: any segment of at least one character
    nonempty: bool = False
    #: a glob of literal characters with at most one star (`name`, `*.ext`, `pre*`, `pre*.ext`):
    #: (before, after) the star, or the whole name and None; matched with plain string tests
    plain: tuple[str, str | None] | None = None
    #: each piece's leading literal characters (`.py` of `.py[cod]`), compared as one string
    heads: tuple[str, ...] = ()

    @classmethod
    def of(cls, pieces: tuple[tuple[Atom, ...], ...]) -> SegmentGlob:
        literal = len(pieces) <= 2 and all(isinstance(atom, str) for piece in pieces
                                           for atom in piece)
        plain: tuple[str, str | None] | None = None
        if literal:
            texts = ["".join(piece) for piece in pieces]  # type: ignore[arg-type]
            plain = (texts[0], texts[1] if len(texts) == 2 else None)
        return cls(pieces, plain=plain, heads=tuple(_literal_head(piece) for piece in pieces))


def _literal_head(piece: tuple[Atom, ...]) -> str:
    head = []
    for atom in piece:
        if not isinstance(atom, str):
            break
        head.append(atom)
    return "".join(head)


@dataclass(slots=True)
class Steps:
    """Counts character comparisons (tests bound the work without a clock)."""

    count: int = 0


@dataclass(frozen=True, slots=True)
class GitIgnorePattern:
    """One parsed line: what it decides and where it matches."""

    include: bool
    #: None: matching by segments; else a special form as pathspec has them: `any` (every path),
    #: `slash` (every path below a folder), `dirslash` (the same, as a directory mark)
    special: Literal["any", "slash", "dirslash"] | None = None
    #: the pattern starts with `**` (any folders first)
    floating: bool = False
    runs: tuple[tuple[SegmentGlob, ...], ...] = ()
    tail: Tail = "opt"
    #: a floating pattern of one segment (`*.log`, `node_modules/`, `.env`): its glob, matched
    #: segment by segment without placing runs
    single: SegmentGlob | None = None


def parse_line(line: str) -> GitIgnorePattern | None:
    """One `.gitignore` line parsed; None for a line that matches nothing (blank, comment, `/`,
    a class with no closing `]`). Raises `GitIgnorePatternError` for an invalid pattern."""
    text = line if line.endswith("\\ ") else line.rstrip()
    if not text or text.startswith("#") or text == "/":
        return None
    include = not text.startswith("!")
    segments = (text if include else text[1:]).split("/")
    is_dir = not segments[-1]
    segments = _normalized(segments, text)
    special = _special(segments, is_dir)
    if special is not None:
        return GitIgnorePattern(include, special)
    floating = segments[0] == "**"
    tail: Tail = "opt"
    if segments[-1] == "**":
        tail = "dirslash" if is_dir else "slash"
    inner = segments[1 if floating else 0:len(segments) - (tail != "opt")]
    try:
        runs = _runs(inner, text)
    except _RangeError:
        return None
    single = runs[0][0] if floating and len(runs) == 1 and len(runs[0]) == 1 else None
    return GitIgnorePattern(include, None, floating, runs, tail, single)


def _normalized(segments: list[str], text: str) -> list[str]:
    """pathspec's normalisation: anchored or floating, a trailing `/` as `/**`, `**/**` once."""
    if not segments[0]:
        del segments[0]
    elif segments[0] != "**" and (len(segments) == 1 or (len(segments) == 2 and not segments[1])):
        segments.insert(0, "**")  # one name (maybe with a trailing `/`): at any depth
    if not segments:
        raise GitIgnorePatternError(f"Invalid git pattern: {text!r}")
    if not segments[-1]:
        segments[-1] = "**"
    collapsed = [segments[0]]
    for segment in segments[1:]:
        if not (segment == "**" and collapsed[-1] == "**"):
            collapsed.append(segment)
    return collapsed


def _special(segments: list[str], is_dir: bool) -> Literal["any", "slash", "dirslash"] | None:
    if segments == ["**"]:
        return "dirslash" if is_dir else "any"
    if segments == ["**", "*"]:
        return "any"
    if segments == ["**", "*", "**"]:
        return "dirslash" if is_dir else "slash"
    return None


def _runs(inner: list[str], text: str) -> tuple[tuple[SegmentGlob, ...], ...]:
    runs: list[tuple[SegmentGlob, ...]] = []
    current: list[SegmentGlob] = []
    for segment in inner:
        if segment == "**":
            runs.append(tuple(current))
            current = []
        else:
            current.append(parse_segment(segment, text))
    runs.append(tuple(current))
    return tuple(runs)


class _RangeError(GitIgnorePatternError):
    """A `[` with no closing `]`: git discards the pattern."""


def parse_segment(segment: str, text: str = "") -> SegmentGlob:
    """One segment's glob (`_translate_segment_glob` of pathspec, as pieces)."""
    if segment == "*":
        return SegmentGlob(((), ()), nonempty=True, heads=("", ""))
    pieces: list[tuple[Atom, ...]] = []
    current: list[Atom] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        index += 1
        if char == "\\":
            if index == len(segment):
                raise GitIgnorePatternError(f"Invalid git pattern: {text or segment!r}")
            current.append(segment[index])
            index += 1
        elif char == "*":
            pieces.append(tuple(current))
            current = []
        elif char == "?":
            current.append(ANY)
        elif char == "[":
            atom, index = _char_class(segment, index)
            current.append(atom)
        else:
            current.append(char)
    pieces.append(tuple(current))
    return SegmentGlob.of(tuple(pieces))


def _char_class(segment: str, start: int) -> tuple[CharClass, int]:
    """The class opened just before `start`, and the index after its `]`."""
    end = start
    if end < len(segment) and segment[end] in "!^":
        end += 1
    if end < len(segment) and segment[end] == "]":
        end += 1
    while end < len(segment) and segment[end] != "]":
        end += 1
    if end >= len(segment):
        raise _RangeError(segment)
    negated = segment[start] in "!^"
    body = segment[start + negated:end]
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    index = 0
    while index < len(body):
        char = body[index]
        if index + 2 < len(body) and body[index + 1] == "-":
            ranges.append((char, body[index + 2]))  # reversed: matches nothing, as in git
            index += 3
        else:
            chars.add(char)
            index += 1
    return CharClass(frozenset(chars), tuple(ranges), negated), end + 1


# -- matching --------------------------------------------------------------------------------


def _piece_at(piece: tuple[Atom, ...], head: str, text: str, at: int, steps: Steps) -> bool:
    """Whether the piece matches the text at `at` (the caller checked the room): its literal
    head as one string comparison, then the rest character by character."""
    if head:
        steps.count += len(head)
        if not text.startswith(head, at):
            return False
    for offset in range(len(head), len(piece)):
        atom = piece[offset]
        steps.count += 1
        char = text[at + offset]
        if atom is ANY:
            continue
        if isinstance(atom, CharClass):
            if not atom.accepts(char):
                return False
        elif atom != char:
            return False
    return True


def segment_matches(glob: SegmentGlob, text: str, steps: Steps | None = None) -> bool:
    """Whether one segment (no `/`) matches the glob: the first piece at the start, the last at
    the end, every one between leftmost after the previous."""
    steps = steps if steps is not None else Steps()
    plain = glob.plain
    if plain is not None:  # string tests, each linear in the segment
        steps.count += 1
        before, after = plain
        if after is None:
            return text == before
        return len(text) >= len(before) + len(after) and text.startswith(before) and \
            text.endswith(after)
    pieces, heads = glob.pieces, glob.heads
    if glob.nonempty:
        return bool(text)
    head = pieces[0]
    if len(pieces) == 1:
        return len(text) == len(head) and _piece_at(head, heads[0], text, 0, steps)
    tail = pieces[-1]
    if len(head) + len(tail) > len(text) or not _piece_at(head, heads[0], text, 0, steps) or \
            not _piece_at(tail, heads[-1], text, len(text) - len(tail), steps):
        return False
    position, end = len(head), len(text) - len(tail)
    for piece, piece_head in zip(pieces[1:-1], heads[1:-1], strict=True):
        while position + len(piece) <= end and \
                not _piece_at(piece, piece_head, text, position, steps):
            position += 1
        if position + len(piece) > end:
            return False
        position += len(piece)
    return True


def _run_at(run: tuple[SegmentGlob, ...], parts: list[str], at: int, steps: Steps) -> bool:
    return at + len(run) <= len(parts) and all(
        segment_matches(glob, parts[at + offset], steps) for offset, glob in enumerate(run))


def _leftmost(run: tuple[SegmentGlob, ...], parts: list[str], start: int, steps: Steps) -> int:
    """The first segment index >= start where the run matches, or -1."""
    for at in range(start, len(parts) - len(run) + 1):
        if _run_at(run, parts, at, steps):
            return at
    return -1


def pattern_priority(pattern: GitIgnorePattern, path: str, steps: Steps | None = None) -> int:
    """0: no match; 2: the pattern matches the path itself; 1: only a folder of it (a directory
    mark). `path` is normalised (no leading `/` or `./`)."""
    return _priority(pattern, path, path.split("/"), steps if steps is not None else Steps())


def _priority(pattern: GitIgnorePattern, path: str, parts: list[str], steps: Steps) -> int:
    """`pattern_priority` with the path split at its `/` (once for every pattern)."""
    if pattern.special == "any":
        return 2 if path else 0
    if pattern.special is not None:
        return 0 if "/" not in path else 2 if pattern.special == "slash" else 1
    if pattern.single is not None:
        return _single_priority(pattern.single, pattern.tail, parts, steps)
    runs = pattern.runs
    if pattern.floating:
        start = 0
    elif not _run_at(runs[0], parts, 0, steps):
        return 0
    else:
        start = len(runs[0])
        runs = runs[1:]
        if not runs:  # one anchored run: it ends where it ends
            return _ending(pattern.tail, start, len(parts))
    for run in runs[:-1]:
        found = _leftmost(run, parts, start, steps)
        if found < 0:
            return 0
        start = found + len(run)
    last = runs[-1]
    if pattern.tail == "opt" and len(parts) - len(last) >= start and \
            _run_at(last, parts, len(parts) - len(last), steps):
        return 2
    found = _leftmost(last, parts, start, steps)
    if found < 0:
        return 0
    return _ending(pattern.tail, found + len(last), len(parts))


def _single_priority(glob: SegmentGlob, tail: Tail, parts: list[str], steps: Steps) -> int:
    """A floating one-segment pattern: the last segment matching it is the path itself (with
    `opt`), else the leftmost segment matching it ends a folder of the path."""
    count = len(parts)
    if tail == "opt" and segment_matches(glob, parts[-1], steps):
        return 2
    plain = glob.plain
    if plain is not None and plain[1] is None:  # a literal name: one search of the list
        steps.count += count
        try:
            found = parts.index(plain[0])
        except ValueError:
            return 0
        return _ending(tail, found + 1, count)
    for at in range(count):
        if segment_matches(glob, parts[at], steps):
            return _ending(tail, at + 1, count)
    return 0


def _ending(tail: Tail, end: int, count: int) -> int:
    """The priority of a match whose segments end at `end` of `count`."""
    if end == count:
        return 2 if tail == "opt" else 0
    return 2 if tail == "slash" else 1


def normalize_path(path: str) -> str:
    """pathspec's `normalize_file` for a `/`-separated path: no leading `/` or `./`."""
    if path.startswith("/"):
        return path[1:]
    return path[2:] if path.startswith("./") else path


#: how many segments a `_Lookup` remembers before it forgets them all (a bound on its memory)
_REMEMBERED = 4096


class _Lookup:
    """The floating one-segment patterns (`node_modules/`, `*.log`, `.coverage.*`, `*.py[cod]`:
    most lines of a real `.gitignore`), found per segment of a path instead of per pattern: the
    literal ones (a name, at most one star) by dictionary look-ups, the rest by `segment_matches`;
    what a segment matches is remembered (the walk meets the same names in every folder). The
    answers are `_single_priority`'s; the other patterns are tried one by one (`others`)."""

    __slots__ = ("_known", "globs", "names", "others", "prefix_lengths", "prefixes",
                 "suffix_lengths", "suffixes")

    def __init__(self, patterns: tuple[GitIgnorePattern, ...]) -> None:
        #: a literal name: the patterns (indexes) naming it
        self.names: dict[str, list[int]] = {}
        #: `before*after` with `after` set: by `after`, each with its `before`
        self.suffixes: dict[str, list[tuple[int, str]]] = {}
        #: `before*`: by `before`
        self.prefixes: dict[str, list[int]] = {}
        #: the other one-segment patterns, with their globs
        self.globs: list[tuple[int, SegmentGlob]] = []
        #: the patterns tried one by one (in order)
        self.others: list[int] = []
        for index, pattern in enumerate(patterns):
            if pattern.single is None:
                self.others.append(index)
            else:
                self._add(index, pattern.single)
        self.suffix_lengths = sorted({len(after) for after in self.suffixes})
        self.prefix_lengths = sorted({len(before) for before in self.prefixes})
        self._known: dict[str, tuple[int, ...]] = {}

    def _add(self, index: int, glob: SegmentGlob) -> None:
        plain = glob.plain
        if plain is None:
            self.globs.append((index, glob))
        elif plain[1] is None:
            self.names.setdefault(plain[0], []).append(index)
        elif plain[1]:
            self.suffixes.setdefault(plain[1], []).append((index, plain[0]))
        elif plain[0]:
            self.prefixes.setdefault(plain[0], []).append(index)
        else:
            self.globs.append((index, glob))

    def matching(self, segment: str, steps: Steps) -> tuple[int, ...]:
        """The one-segment patterns whose glob matches this segment."""
        found = self._known.get(segment)
        if found is None:
            found = tuple(self._matching(segment, steps))
            if len(self._known) >= _REMEMBERED:
                self._known.clear()
            self._known[segment] = found
        return found

    def _matching(self, segment: str, steps: Steps) -> list[int]:
        found = list(self.names.get(segment, ()))
        size = len(segment)
        steps.count += size
        for length in self.suffix_lengths:
            if length > size:
                break
            for index, before in self.suffixes.get(segment[size - length:], ()):
                if size >= len(before) + length and segment.startswith(before):
                    found.append(index)
        for length in self.prefix_lengths:
            if length > size:
                break
            found += self.prefixes.get(segment[:length], ())
        found += [index for index, glob in self.globs if segment_matches(glob, segment, steps)]
        return found

    def best(self, patterns: tuple[GitIgnorePattern, ...], parts: list[str], steps: Steps
             ) -> tuple[int, int]:
        """The last indexed pattern matching the path itself and the last matching only a folder
        of it (-1: none)."""
        first: dict[int, int] = {}  # pattern: the first segment it matches
        last = len(parts) - 1
        best_path = best_folder = -1
        for at, segment in enumerate(parts):
            steps.count += 1
            for index in self.matching(segment, steps):
                if index not in first:
                    first[index] = at
                if at == last and patterns[index].tail == "opt":
                    best_path = max(best_path, index)  # the path itself (`_single_priority`)
        for index, at in first.items():
            priority = _ending(patterns[index].tail, at + 1, last + 1)
            if priority == 2:
                best_path = max(best_path, index)
            elif priority == 1:
                best_folder = max(best_folder, index)
        return best_path, best_folder


@dataclass(frozen=True, slots=True)
class GitIgnore:
    """A `.gitignore` file's patterns, in order."""

    patterns: tuple[GitIgnorePattern, ...]
    #: the lines that are not valid patterns (never match)
    invalid: tuple[str, ...] = field(default=())
    _lookup: _Lookup = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_lookup", _Lookup(self.patterns))

    @classmethod
    def from_lines(cls, lines: Iterable[str]) -> GitIgnore:
        patterns, invalid = [], []
        for line in lines:
            try:
                parsed = parse_line(line)
            except GitIgnorePatternError:
                invalid.append(line)
                continue
            if parsed is not None:
                patterns.append(parsed)
        return cls(tuple(patterns), tuple(invalid))

    def match_file(self, path: str, steps: Steps | None = None) -> bool:
        """Whether the path is ignored: the last pattern matching the path itself decides; with
        none, the last one matching a folder of it. The path is split once; the indexed patterns
        are looked up, the others tried from the last down to the best indexed one."""
        path = normalize_path(path)
        parts = path.split("/")
        steps = steps if steps is not None else Steps()
        patterns = self.patterns
        best_path, best_folder = self._lookup.best(patterns, parts, steps)
        for index in reversed(self._lookup.others):
            if index < best_path:
                break
            priority = _priority(patterns[index], path, parts, steps)
            if priority == 2:
                return patterns[index].include
            if priority == 1:
                best_folder = max(best_folder, index)
        if best_path >= 0:
            return patterns[best_path].include
        return best_folder >= 0 and patterns[best_folder].include
