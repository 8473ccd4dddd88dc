"""File references in a SKILL.md body (docs/rules/SK112.md, SK113.md; docs/design/product.md *Language
server* links).

A reference is a relative Markdown link or image (`[x](references/api.md)`, not inside code), a path
after `${WAVE_SKILL_DIR}/`, `${CLAUDE_SKILL_DIR}/` or `{baseDir}/`, or a bare `scripts/…`,
`references/…` or `assets/…` path (also inside code: `python scripts/run.py` is how skills call
their scripts). The same list feeds the broken-reference rules, document links and go-to-definition.

A bare path counts only where the text uses it as a reference of this skill (docs/design/rules.md
*Body*, issue 16): not on a line that gives it as an example ("e.g.", "for example", "such as"), not
in a skill-writing guide's list that an example or an imagined skill introduces, not when it is
another skill's file (an owner named right before it; a code block or table that names a sibling
`<folder>/SKILL.md`), a file the skill writes (a destination, the object of a verb that makes it:
"Regenerate `references/x.tsv`", the target of `>` in a command), the text of a link that goes
elsewhere, or slash-joined words in prose. Links count wherever they are. A bare or
`${…_SKILL_DIR}` path glued to Chinese, Japanese or Korean text ends where that text starts
(`scripts/x.shを実行`, issue 37); `shorthand_files` reads `scripts/run.ps1/.sh` as the two files
it stands for.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.markdown import Fence, MarkdownBody, parse_body
from wave_lsp.core.parsing.text import Span


class _LazyPattern:
    """A pattern compiled when first used: the heuristics below serve only some references, and
    compiling all of them at import costs a one-file `check` several milliseconds."""

    __slots__ = ("_compiled", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source, self.flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.search(text, pos)

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled.match(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)


#: a link or image `[text](target` (the `!` of an image is looked at separately: a pattern that
#: starts with a literal `[` is found at C speed, one that starts with `!?` is tried at every offset)
_LINK = re.compile(r"\[[^\[\]\\]*+(?:\\.[^\[\]\\]*+)*+\]\(\s*"
                   r"(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
#: a link reference definition `[label]: target` (at a line start, found with the line break
#: before it: a pattern that starts with `^` is tried at every offset)
_DEFINITION_SHAPE = r" {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)"
_DEFINITION_AT = re.compile(_DEFINITION_SHAPE)
_DEFINITION_AFTER_LF = re.compile(r"\n(" + _DEFINITION_SHAPE + ")")
#: `${WAVE_SKILL_DIR}/…`, `${CLAUDE_SKILL_DIR}/…` or `{baseDir}/…` (the `$` the first two need is
#: looked at separately, for the same reason)
_SKILL_DIR_PATH = re.compile(
    r"\{(WAVE_SKILL_DIR|CLAUDE_SKILL_DIR|baseDir)\}/([^\s`'\"()<>\[\]{},;|&]+)")
#: `{baseDir}/…`: the skill folder, as the model reads it from the "Base directory for this skill"
#: line Claude Code puts above the body (skills written for Claude Code use it in links too)
_BASE_DIR = "{baseDir}/"
#: `scripts/…`, `references/…`, `assets/…`, found from the slash (a literal first character lets the
#: regex engine skip ahead at C speed; the letters s, r and a are everywhere); `_bare_paths` adds the
#: folder word before it, a leading `./`, and requires that no word, path or placeholder character
#: comes before the path
_BARE_PATH = re.compile(r"/(?:(?<=scripts/)|(?<=references/)|(?<=assets/))[\w./@+-]*[\w@+-]")
_BARE_FOLDERS = ("scripts", "references", "assets")
_PATH_CHARACTER = re.compile(r"[\w./$}-]")
#: a letter of a script written without spaces between words (CJK ideographs, kana, Hangul and
#: their full-width forms): a path glued to such text ends where it starts (`scripts/x.shを実行`)
_CJK = _LazyPattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
                    r"\uff00-\uffef]")
#: shorthand for files that differ only in their extension: `scripts/run.ps1/.sh`
_SHORTHAND = _LazyPattern(r"^(.*[^/.])(\.[A-Za-z0-9]+)((?:/\.[A-Za-z0-9]+)+)$")
#: info strings of code blocks whose bare paths are commands the skill runs
SHELL_FENCES = {"", "bash", "sh", "shell", "zsh", "console", "terminal", "text", "!", "powershell",
                "pwsh", "cmd", "bat"}
#: a character after a path that makes it a pattern (`scripts/*.py`, `scripts/{name}.sh`)
_PATTERN_NEXT = "*{<[$%"
_SCHEME = _LazyPattern(r"^[A-Za-z][A-Za-z0-9+.-]*:")
#: a link target that is a template: a `{placeholder}` or brace alternatives (`x.{sh,ps1}`), or
#: an angle-bracket placeholder left inside (`<path>`, `%s`)
_PLACEHOLDER_TARGET = re.compile(r"\{[^{}/]*\}|<[^<>]*>|%s")
#: link targets that are the word for a link, not a file (`[text](link)`, `[x](url)`)
_PLACEHOLDER_WORDS = frozenset({"link", "url", "uri", "href", "path", "file", "target", "todo",
                                "tbd", "placeholder", "xxx", "...", "…"})


@dataclass(frozen=True, slots=True)
class Reference:
    """A path the body refers to, relative to the skill directory (or absolute)."""

    target: str  #: the path as written, without `#fragment`/`?query`
    span: Span  #: where the path is written
    kind: str  #: "link", "placeholder", "bare" or "plugin" (`plugin_root_paths`)

    @property
    def absolute(self) -> bool:
        return self.target.startswith(("/", "~")) or bool(re.match(r"^[A-Za-z]:[\\/]", self.target))

    def resolve(self, skill_dir: Path) -> Path:
        return Path(self.resolved(skill_dir))

    def resolved(self, skill_dir: Path | str) -> str:
        """`resolve` as a string (no `Path` built: a long document has hundreds of references)."""
        if self.target.startswith("~"):
            return os.path.expanduser(self.target)
        return os.path.normpath(os.path.join(skill_dir, self.target))


def find_references(document: SkillDocument) -> list[Reference]:
    """Every file reference of the body, in document order, one per span."""
    name = document.value("name")
    description = document.value("description")
    # name and description apart: `my-skill` + "Builds reports" is no "skill build…"
    guide = any(isinstance(v, str) and _SKILL_WRITING.search(v) for v in (name, description))
    return list(_find_references(document.text, document.body_offset,
                                 name if isinstance(name, str) else "", guide))


@lru_cache(maxsize=64)
def _find_references(text: str, start: int, own_name: str = "",
                     guide: bool = False) -> tuple[Reference, ...]:
    structure = parse_body(text, start)
    found: dict[Span, Reference] = {}
    link_texts: list[tuple[Span, str]] = []
    quoted: list[Span] = []
    for link_start, match in _links(text, start):
        if structure.in_code(link_start):
            continue
        link_texts.append((Span(link_start, match.start(1)), match.group(1)))
        if guide and _quoted(text, link_start):  # `"… see [reference.md](references/api.md)"`
            quoted.append(Span(match.start(1), match.end(1)))  # text to write: no reference
            continue
        _add_link(found, match.group(1), match.start(1))
    for line_start, target, target_start in _definitions(text, start):
        if not structure.in_code(line_start):
            _add_link(found, target, target_start)
    for placeholder_start, match in _skill_dir_paths(text, start):
        path = match.group(2)
        path = path[:_path_end(path)].rstrip(".:")
        fence = structure.fence_at(placeholder_start)
        if fence is not None and _command_destination(text, Span(placeholder_start,
                                                                  match.start(2) + len(path))):
            continue  # `rm -f ${CLAUDE_SKILL_DIR}/tmp/prompt.txt`: a file the skill manages
        if text[match.end(2):match.end(2) + 1] == "{":
            continue  # `${CLAUDE_SKILL_DIR}/scripts/run.{sh,ps1}`: alternatives, not one file
        if path:
            span = Span(match.start(2), match.start(2) + len(path))
            if _template_or_foreign(text, span.end, None) or _written_to(text, placeholder_start,
                                                                          span.end):
                continue  # `{baseDir}/references/vector-{a..i}-*.md`, `… in {baseDir}/reports/`
            found[span] = Reference(path, span, "placeholder")
    # bare matches never overlap each other: each is checked against the links and placeholders
    taken = _SpanIndex([*found, *quoted])
    for span in _bare_paths(text, start):
        if taken.overlaps(span):
            continue
        fence = structure.fence_at(span.start)
        if _template_or_foreign(text, span.end, fence):
            continue
        if not _not_of_this_skill(text, span, structure, fence, own_name, guide, link_texts):
            found[span] = Reference(text[span.start:span.end], span, "bare")
    # a NUL (written, or `%00` in a link) names no file on any system, and the OS refuses to look
    return tuple(sorted((ref for ref in found.values() if "\x00" not in ref.target),
                        key=lambda ref: ref.span.start))


def _links(text: str, start: int) -> Iterator[tuple[int, re.Match[str]]]:
    """Links and images after `start`, each with where it starts (at its `!` for an image)."""
    free = start  # the first offset no earlier link took
    for match in _LINK.finditer(text, start):
        begin = match.start()
        if begin > free and text[begin - 1] == "!":
            begin -= 1
        free = match.end()
        yield begin, match


def _definitions(text: str, start: int) -> Iterator[tuple[int, str, int]]:
    """Link reference definitions at line starts from `start` on (as `^` under `re.M` finds them:
    at `start` only when a line starts there): the line start, the target and where it starts."""
    position = start
    if start == 0 or text[start - 1] == "\n":
        first = _DEFINITION_AT.match(text, start)
        if first is not None:
            yield start, first.group(1), first.start(1)
            position = first.end()
    for match in _DEFINITION_AFTER_LF.finditer(text, position):
        yield match.start(1), match.group(2), match.start(2)


def _skill_dir_paths(text: str, start: int) -> Iterator[tuple[int, re.Match[str]]]:
    """`${WAVE_SKILL_DIR}/…`, `${CLAUDE_SKILL_DIR}/…` and `{baseDir}/…` after `start`, each with
    where its placeholder starts (the `$` of the first two)."""
    position = free = start
    while (match := _SKILL_DIR_PATH.search(text, position)) is not None:
        begin = match.start()
        if match.group(1) != "baseDir":
            if begin <= free or text[begin - 1] != "$":
                position = begin + 1
                continue
            begin -= 1
        yield begin, match
        position = free = match.end()


#: `${CLAUDE_PLUGIN_ROOT}/…`: a path from the plugin's root (issue 37)
_PLUGIN_ROOT_PATH = re.compile(r"\$\{CLAUDE_PLUGIN_ROOT\}/([^\s`'\"()<>\[\]{},;|&*$%]+)")


def plugin_root_paths(document: SkillDocument) -> list[Reference]:
    """The `${CLAUDE_PLUGIN_ROOT}/…` paths of the body, each relative to the plugin's root (kind
    "plugin"; not in `find_references`, whose paths are the skill folder's), outside a command
    that writes or removes it, without a pattern or placeholder after it (`…/run.{sh,ps1}`,
    `…/config/$1.json`)."""
    text, start = document.text, document.body_offset
    structure = parse_body(text, start)
    found: list[Reference] = []
    for match in _PLUGIN_ROOT_PATH.finditer(text, start):
        path = match.group(1)
        path = path[:_path_end(path)].rstrip(".:")
        span = Span(match.start(1), match.start(1) + len(path))
        after = text[match.end(1):match.end(1) + 1]
        if not path or (after and after in _PATTERN_NEXT) or "\x00" in path:
            continue
        fence = structure.fence_at(match.start())
        if (fence is not None and _command_destination(text, Span(match.start(), span.end))) \
                or _written_to(text, match.start(), span.end):
            continue  # `mkdir -p ${CLAUDE_PLUGIN_ROOT}/cache`: a file the skill makes
        found.append(Reference(path, span, "plugin"))
    return found


def _bare_paths(text: str, start: int) -> Iterator[Span]:
    """Bare `scripts/…`, `references/…` and `assets/…` paths after `start` (with a leading `./`),
    not glued to a word, a path or a placeholder before them."""
    position = free = start  # `free`: the first offset no earlier path took
    while (match := _BARE_PATH.search(text, position)) is not None:
        slash = match.start()
        folder = next(word for word in _BARE_FOLDERS if text.startswith(word, slash - len(word)))
        begin = slash - len(folder)
        if begin < position:  # the folder word starts before the search did
            position = slash + 1
            continue
        if begin - 2 >= free and text[begin - 2:begin] == "./":
            begin -= 2
        if begin > 0 and _PATH_CHARACTER.match(text, begin - 1) \
                and not _CJK.compiled.match(text, begin - 1):
            position = slash + 1  # no other folder word ends at this slash
            continue
        end = match.end()
        path = text[begin:end]
        if not path.isascii():  # `scripts/x.shを実行`: the path ends where the sentence goes on
            end = begin + len(path[:_path_end(path)].rstrip("."))
        end = _delimited_end(text, begin, end)
        yield Span(begin, end)
        position = free = match.end()


#: the rest of a delimited path after its first space: words of a file name, ending in an
#: extension (`SAFE User Guide.pdf`), no option, operator or placeholder among them
_SPACED_REST = re.compile(r"(?: [\w.@+,()&'-]+)+\.[A-Za-z0-9]{1,6}")


def _delimited_end(text: str, begin: int, end: int) -> int:
    """Where a bare path that the text delimits ends when its file name has spaces (sample 6):
    `` `references/YC SAFE User Guide.pdf` `` or `"…"` is one path when what follows the cut up
    to the closing delimiter, on the same line, is words ending in an extension and the cut part
    names no file of its own; never under `scripts/`, whose paths are commands followed by their
    arguments (`scripts/deploy prod.yml`)."""
    opener = text[begin - 1:begin] if begin > 0 else ""
    if opener not in ("`", '"', "'") or text[end:end + 1] != " " \
            or text.startswith(("scripts/", "./scripts/"), begin) \
            or "." in text[begin:end].rsplit("/", 1)[-1]:
        return end
    close = text.find(opener, end)
    line_end = text.find("\n", end)
    if close < 0 or (0 <= line_end < close):
        return end
    return close if _SPACED_REST.fullmatch(text, end, close) else end


def _path_end(path: str) -> int:
    """Where a path glued to CJK text ends: at the first CJK letter that follows an ASCII
    character, unless a file name with an extension follows before the next `/`
    (`references/api設計.md` is one file name; `scripts/x.shを実行` is `scripts/x.sh`)."""
    if path.isascii():
        return len(path)
    for match in _CJK.finditer(path):
        index = match.start()
        if index == 0 or not path[index - 1].isascii() or path[index - 1] == "/":
            continue
        if "." not in path[index:].split("/", 1)[0]:
            return index
    return len(path)


class _SpanIndex:
    """Spans sorted by start with the running maximum of their ends: whether a span overlaps any
    of them in logarithmic time (a long document has hundreds of links)."""

    def __init__(self, spans: list[Span]) -> None:
        spans.sort()
        self.starts = [span.start for span in spans]
        self.max_ends = list(accumulate((span.end for span in spans), max))

    def overlaps(self, span: Span) -> bool:
        before = bisect.bisect_left(self.starts, span.end)
        return before > 0 and self.max_ends[before - 1] > span.start


#: a line that gives bare paths as examples (a skill-writing guide's `scripts/rotate_pdf.py`), not
#: as files of this skill; links are references wherever they are
_EXAMPLE = _LazyPattern(r"\b(?:e\.g\.|for example|for instance|such as)|\bexamples?\b[*_]*\s*:|"
                      r"\blike `", re.I)
#: a skill whose subject is writing skills: in a list that an example or an imagined skill
#: introduces, its `scripts/…`, `references/…` are a generic skill's
_SKILL_WRITING = re.compile(
    r"\bskills?[- ](?:creat|develop|author|writ|optimi[sz]|refactor)\w*|"
    r"\b(?:creat|writ|author|build|develop|design|optimi[sz]|improv|refactor)\w*\s+"
    r"(?:of\s+)?(?:(?:a|an|the|new|effective|good|your)\s+)*skills?\b", re.I)
#: the line before a guide's list that makes its items hypothetical: a skill being imagined, or
#: content to move into files that do not exist yet
_HYPOTHETICAL_LEAD = _LazyPattern(
    r"\bwhen (?:building|designing|creating|writing|developing) (?:a|an|the|your)\b|"
    r"\b(?:move|put|split)\b[^.\n]*\bto\b[^\n]*:[*_\s]*$", re.I)
_LIST_ITEM = _LazyPattern(r"^\s*(?:[-*+]|\d+[.)])\s")
MAX_LIST_LINES = 40
#: `<folder>/SKILL.md`: a skill folder beside this one named by its entry file (`./SKILL.md` is
#: this one; `.claude/skills/x/SKILL.md` is where a skill is installed, not a sibling)
_SKILL_FILE = _LazyPattern(r"(?<![\w./-])([\w.-]+)/SKILL\.md\b")
#: the owner named right before a path: "`memory-sync`'s `references/x.md`", "the target's",
#: "the `rai-planner` skill `references/x.md`"
_OWNER = _LazyPattern(r"(`[^`\n]+`|[\w.-]+)(?:['\u2019]s|\s+skill(?:['\u2019]s)?)\s*`?$")
_SELF = {"this", "the", "its", "our", "my", "same", "skill", "this skill", "the skill"}
#: a write verb with the path as its destination: "Document findings in {baseDir}/test-reports/",
#: "extract the section … to `references/x.md`", "the emitted SKILL.md + `references/scope.md`"
_WRITTEN_TO = _LazyPattern(
    r"\b(?:writes?|written|save[sd]?|store[sd]?|document|record|log|append|add|put|place|move[sd]?|"
    r"copy|copies|extract|emit(?:s|ted)?|generates?|creates?|output)\b"
    r"(?:(?!\b(?:according|described|defined|documented|listed|specified|explained|outlined|"
    r"shown|by|from|per|following|using|with)\b)[^.;!?\n]){0,80}?"
    r"\b(?:to|into|in|under|as)\s+(?:the\s+|a\s+)?[`*]*$|"
    r"\b(?:emitted|generated)\s+\S+\s+\+\s*`?$", re.I)
#: how a `_WRITTEN_TO` match ends, once trailing `` ` ``, `*` and spaces are stripped (same flags)
_DESTINATION_END = _LazyPattern(r"(?:to|in|under|as|the|a|\+)\Z", re.I)
_WRITTEN_AFTER = _LazyPattern(r"^`?\s*\((?:\w+\s+)?(?:emitted|generated|created|written)\b", re.I)
#: the destination of a shell command that creates it: the last word of `cp SRC DEST`, any
#: argument of `mkdir`/`touch`, the file after `>`
_COPY = _LazyPattern(r"^\s*(?:\$\s+)?(?:sudo\s+)?(?:cp|mv|ln|install)\s.*\s[\"']?$")
_CREATE = _LazyPattern(r"^\s*(?:\$\s+)?(?:sudo\s+)?(?:mkdir|touch|rm)\s.*$|>>?\s*[\"']?$")


def _not_of_this_skill(text: str, span: Span, structure: MarkdownBody, fence: Fence | None,
                       own_name: str, guide: bool,
                       link_texts: list[tuple[Span, str]]) -> bool:
    """A bare path that names no file of this skill: an example, slash-joined words, the text of a
    link that goes elsewhere, another skill's file, or a file the skill writes (issue 16:
    benchmarks/RESULTS.md *Precision on real skills*)."""
    return (_an_example(text, span, fence, guide)
            or _words_in_prose(text, span, structure)
            or _link_text_elsewhere(text, span, link_texts)
            or _another_skills(text, span, own_name)
            or _block_of_another_skill(text, span.start, fence)
            or _written_to(text, span.start, span.end)
            or (fence is not None and _command_destination(text, span))
            or _inline_destination(text, span, structure, fence)
            or (fence is None and _made_object(text[text.rfind("\n", 0, span.start) + 1:
                                                    span.start])))


def _an_example(text: str, span: Span, fence: Fence | None, guide: bool) -> bool:
    """Given as an example: on a line that says so, or in a skill-writing guide, in a list that
    an example or a hypothetical skill introduces ("Example: When building a `pdf-editor` skill,
    the analysis shows:", "Move detailed content to references/:")."""
    if fence is None and _EXAMPLE.search(_line_around(text, span.start)):
        return True
    if not guide or fence is not None:
        return False
    lead = list_lead_in(text, span.start)
    return lead is not None and bool(_EXAMPLE.search(lead) or _HYPOTHETICAL_LEAD.search(lead))


def list_lead_in(text: str, offset: int) -> str | None:
    """The line that introduces the list whose item holds `offset` (None outside a list): the
    nearest line above, within `MAX_LIST_LINES`, that is neither an item nor indented (an item's
    continuation). The one reading of a list's lead-in words, for a skill's lists and for the
    project's instructions to agents (`neighbours`)."""
    start = text.rfind("\n", 0, offset) + 1
    if not _LIST_ITEM.match(text[start:offset]):
        return None
    for _ in range(MAX_LIST_LINES):
        if start == 0:
            return None
        start = text.rfind("\n", 0, start - 1) + 1
        line = text[start:text.find("\n", start)]
        if line.strip() and not _LIST_ITEM.match(line) and not line[:1].isspace():
            return line
    return None


def _words_in_prose(text: str, span: Span, structure: MarkdownBody) -> bool:
    """"links to assets/code", "a references/citations section": words joined by a slash in
    prose, with no file extension and no trailing `/`."""
    name = text[span.start:span.end].rsplit("/", 1)[-1]
    return not structure.in_code(span.start) and "." not in name \
        and text[span.end:span.end + 1] != "/"


def _link_text_elsewhere(text: str, span: Span, link_texts: list[tuple[Span, str]]) -> bool:
    """[`references/x.md`](../other/references/x.md): the reader follows the target. Link texts
    are in document order and do not nest."""
    index = bisect.bisect_right(link_texts, span.start, key=lambda item: item[0].start) - 1
    if index < 0:
        return False
    inner, target = link_texts[index]
    path = text[span.start:span.end].removeprefix("./")
    return span.start < inner.end and target.removeprefix("./") != path


def _another_skills(text: str, span: Span, own_name: str) -> bool:
    """`wiki-lint`'s `references/x.md`, the `rai-planner` skill `references/x.md`, the target's."""
    owner = _OWNER.search(text[text.rfind("\n", 0, span.start) + 1:span.start])
    if owner is None:
        return False
    name = owner.group(1).strip("`").lower()
    return name not in _SELF and name != own_name.lower()


def _quoted(text: str, offset: int) -> bool:
    """Whether `offset` lies inside a double-quoted string on its line (an odd number of `"`
    before it, and one after it)."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    before = text[line_start:offset]
    after = text[offset:line_end if line_end >= 0 else len(text)]
    return before.count('"') % 2 == 1 and '"' in after


def _command_destination(text: str, span: Span) -> bool:
    """A path a command line creates (`cp "$SKILL/scripts/a.sh" scripts/b.sh`, `> out/x.md`)."""
    before = text[text.rfind("\n", 0, span.start) + 1:span.start]
    rest = _line_around(text, span.start)[len(before) + span.end - span.start:]
    return bool(_CREATE.search(before)) or (bool(_COPY.search(before)) and not rest.strip(" \"'\r"))


def _inline_destination(text: str, span: Span, structure: MarkdownBody,
                        fence: Fence | None) -> bool:
    """A path an inline command creates: "`python scripts/gen.py > references/out.md`"."""
    if fence is not None:
        return False
    code = structure.code_at(span.start)
    return code is not None and bool(_REDIRECTED.compiled.search(text, code.start, span.start))


#: a redirection right before the path, in a command
_REDIRECTED = _LazyPattern(r">>?\s*[\"']?\Z")


def _written_to(text: str, start: int, end: int) -> bool:
    """The path at `start:end` is where the sentence writes something, not a file it reads."""
    window = text[max(0, start - 160):start]
    cut = max(window.rfind("\n\n"), window.rfind(". "), window.rfind("\n- "), window.rfind("|"))
    window = window[cut + 1:].replace("\n", " ")
    line_end = text.find("\n", end)
    after = text[end:line_end if line_end >= 0 else len(text)]
    return bool((_may_end_a_destination(window) and _WRITTEN_TO.search(window))
                or _WRITTEN_AFTER.search(after))


#: a verb whose object is a file it makes: "Regenerate `a.json` and `b.tsv` from the spec" (not
#: a past participle: "the emitted `references/x.md`" is what the skill's output holds, a guess
#: that `_meant_as_own_file` keeps at information)
_MAKING = _LazyPattern(
    r"\b(?:re)?(?:generat(?:e|es|ing)|creat(?:e|es|ing)|writ(?:e|es|ing)|produc(?:e|es|ing)|"
    r"emit(?:s|ting)?|render(?:s|ing)?|export(?:s|ing)?|dump(?:s|ing)?)\Z", re.I)
#: what may stand between that verb and the path: other paths it makes, joined by `,`/and/or
_OBJECT_BEFORE = _LazyPattern(r"(?:`[^`\n]+`|[\w-]*[./][\w./-]*)\s*(?:,|\band\b|\bor\b|&)\s*\Z|"
                              r"(?:,|\band\b|\bor\b|&)\s*\Z|\b(?:the|a|an|new|fresh)\s*\Z",
                              re.I)


def _made_object(window: str) -> bool:
    """The path is the object of a verb that makes it, alone or in a list of paths, in the prose
    of its line (`window`: the line up to the path): "Regenerate `references/operation_catalog.
    json` and `references/operations.tsv`", "Create `scripts/validate.py`" (not "Create a plan
    from `references/x.md`")."""
    rest = window.rstrip("`*\"' ")
    for _ in range(8):
        if _MAKING.search(rest[-16:]):
            return True
        step = _OBJECT_BEFORE.search(rest, max(0, len(rest) - 120))
        if step is None or step.start() == len(rest):
            return False
        rest = rest[:step.start()].rstrip("`*\"' ")
    return False


def _may_end_a_destination(window: str) -> bool:
    """A cheap necessary condition for `_WRITTEN_TO` (whose search costs most of the references
    of a long skill): a match ends the window with `to`/`into`/`in`/`under`/`as`, maybe `the` or
    `a`, then spaces and `` ` ``/`*`, or with `+`, spaces and a backtick."""
    tail = window.rstrip("`*").rstrip()
    return _DESTINATION_END.search(tail[-6:]) is not None


def _block_of_another_skill(text: str, offset: int, fence: Fence | None) -> bool:
    """A code block or table that names a skill folder's `SKILL.md` (`read pdf-skill/SKILL.md`,
    a file map listing `slack-respond/SKILL.md`) is written from outside this skill folder: its
    bare paths are that skill's, or relative to the folder above, not this skill's files."""
    if fence is not None:
        block = text[fence.content.start:fence.content.end]
    elif _line_around(text, offset).lstrip().startswith("|"):
        block = _table_around(text, offset)
    else:
        return False
    return "/SKILL.md" in block and any(match.group(1) != "." for match in
                                        _SKILL_FILE.finditer(block))


def _table_around(text: str, offset: int) -> str:
    """The rows (lines starting with `|`) next to each other around `offset`."""
    start = text.rfind("\n", 0, offset) + 1
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        if not text[previous:start].lstrip().startswith("|"):
            break
        start = previous
    end = text.find("\n", offset)
    while end >= 0:
        following = text.find("\n", end + 1)
        if not text[end + 1:following if following >= 0 else len(text)].lstrip().startswith("|"):
            break
        end = following
    return text[start:end if end >= 0 else len(text)]


def _line_around(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return text[start:end if end >= 0 else len(text)]


def _template_or_foreign(text: str, end: int, fence: Fence | None) -> bool:
    """A bare path that is a pattern (`scripts/*.py`, `scripts/{name}.sh`, any extension:
    `scripts/run.*`) or sits in a non-shell code block (a `docker-compose.yml` mounting
    `./scripts/init.sql` means the user's project)."""
    if end < len(text) and (text[end] in _PATTERN_NEXT or text[end:end + 2] == ".*"):
        return True
    return fence is not None and fence.info.split(" ")[0].lower() not in SHELL_FENCES


def _add_link(found: dict[Span, Reference], raw: str, offset: int) -> None:
    if raw.startswith("<") and raw.endswith(">"):
        raw, offset = raw[1:-1], offset + 1
    if raw.startswith(_BASE_DIR):
        raw, offset = raw[len(_BASE_DIR):], offset + len(_BASE_DIR)
    path = re.split(r"[#?]", raw, maxsplit=1)[0]
    if not path or (_SCHEME.match(path) and not re.match(r"^[A-Za-z]:[\\/]", path)):
        return
    if _PLACEHOLDER_TARGET.search(path) or path.lower() in _PLACEHOLDER_WORDS:
        return  # `[Source]({url1})`, `[file.ext:line](link)`, `run.{sh,ps1}`: a template, no file
    span = Span(offset, offset + len(path))
    found[span] = Reference(unquote(path), span, "link")


def shorthand_files(reference: Reference) -> list[Reference]:
    """The files a shorthand for names that differ only in their extension stands for
    (`scripts/kairos-supervisor.ps1/.sh`: `….ps1` and `….sh`), each at the part of the text that
    names it (`.sh` for the second); [] when the path is no such shorthand. Whether it is one
    is the disk's to say (`conf.d/.env` is a file too): the rules ask when the path as written
    does not exist."""
    shorthand = _SHORTHAND.match(reference.target)
    if shorthand is None or reference.kind == "link":
        return []
    stem, first, others = shorthand.groups()
    start = reference.span.start
    end = start + len(stem) + len(first)
    files = [Reference(stem + first, Span(start, end), reference.kind)]
    for extension in others.split("/")[1:]:
        begin = end + 1
        end = begin + len(extension)
        files.append(Reference(stem + extension, Span(begin, end), reference.kind))
    return files


def escapes(reference: Reference, skill_dir: Path,
            is_link: Callable[[str], bool] = os.path.islink) -> str | None:
    """Why `reference` leaves the skill directory, or None when it stays inside; `is_link` says
    which path parts are symbolic links (the rules pass their run's `DiskView.is_link`: one
    listing per folder instead of an `lstat` per part)."""
    if reference.absolute:
        return "is an absolute path"
    root = os.path.normpath(skill_dir)
    lexical = reference.resolved(root)
    if not _is_within(lexical, root):
        return "goes above the skill directory (`..`)"
    # only a symbolic link below the skill folder can lead out of it: look for one
    current = root
    for part in lexical[len(root):].split(os.sep):
        if not part:
            continue
        current = os.path.join(current, part)
        if is_link(current):
            try:
                real = os.path.realpath(current)
            except (OSError, ValueError):
                return None
            if not _is_within(real, _real(root)):
                return "is a symbolic link that points outside the skill directory"
            break
    return None


@lru_cache(maxsize=256)
def _real(path: str) -> str:
    return os.path.realpath(path)


def _is_within(path: str, root: str) -> bool:
    """Whether the normalised `path` is `root` or below it."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def skill_files(skill_dir: Path, limit: int = 2000) -> list[str]:
    """Relative POSIX paths of the files in a skill folder (no hidden or `node_modules` folders,
    symlinked folders not followed, at most `limit`), for completion and "did you mean"."""
    found: list[str] = []
    for folder, dirs, files in os.walk(skill_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules"
                         and not os.path.islink(os.path.join(folder, d)))
        relative = Path(folder).relative_to(skill_dir)
        for name in sorted(files):
            if name.startswith("."):
                continue
            found.append((relative / name).as_posix())
            if len(found) >= limit:
                return found
    return found


#: a wildcard in a file name: `*.md`, `report-?.txt`
WILDCARD = re.compile(r"[*?]")


def wildcard_matches(pattern: str, names: Callable[[str], Iterable[str]]) -> bool:
    """Whether a name of the pattern's folder (`names(folder)`) matches its file name: a glob
    the model expands (`assets/*.template.md`, SK112). A wildcard in a folder is not looked for."""
    from fnmatch import fnmatchcase

    folder, name = os.path.split(pattern)
    return not WILDCARD.search(folder) and any(fnmatchcase(entry, name) for entry in names(folder))


#: a link target that starts with a host name (`docs.claude.com/en/…`): a URL without its scheme
HOST_LIKE = re.compile(r"^(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|ai|app|"
                       r"co|edu|gov)(?:/|$)", re.I)


def same_file_name(written: str, files: list[str]) -> str | None:
    """The one file of `files` (clean relative paths) with the file name of `written`, if one."""
    name = PurePosixPath(written).name
    matches = [path for path in files if path.rpartition("/")[2] == name]
    return matches[0] if len(matches) == 1 else None
