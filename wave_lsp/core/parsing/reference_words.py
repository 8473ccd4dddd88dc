"""What a skill's own words say about a path it names (docs/design/rules.md *Body*, file
references; issue 37): whether the skill marks the file as optional or as the user's, and which
skill or repository a sentence scopes the path to.

The words are read where a reader reads them, as the placeholder rules read a `$1`'s heading and
prose (`placeholders._under_input_heading`): the headings over the path (`## Optional Helpers (if
present in repo)`, `### Scripts (If Available)`, `# sync スクリプトがある場合`), the sentence around
it, and, for a path in a code block, the comment lines above it in the block and the paragraph
right after the block ("If it doesn't exist, fall back to …"). English, Japanese, Chinese and
Korean wordings are read; nothing here looks at the disk (the rules decide with the files).
"""

from __future__ import annotations

import re

from wave_lsp.core.parsing.markdown import MarkdownBody
from wave_lsp.core.parsing.text import Span

#: a condition on the file being there: "(if present in repo)", "(If Available)", "if it
#: exists", "when present"; "がある場合", "があれば", "如果存在", "있는 경우"
_PRESENCE = re.compile(
    r"\b(?:if|when|where|whenever)\s+(?:present|available|exists?|provided|installed)\b|"
    r"\b(?:if|when|whenever)\s+(?:it|they|one|this|that|the\s+(?:file|script|helper|folder|"
    r"directory|tool)s?)\s+(?:is\s+|are\s+)?(?:present|available|exists?|there|provided|"
    r"installed)\b|\bif\s+any\b|"
    r"(?:スクリプト|ファイル|ツール|ヘルパー|ディレクトリ|フォルダ|[A-Za-z0-9_./`-])\s*"
    r"(?:が|も)(?:ある|存在する|あれば|存在すれば)|"
    r"(?:如果|若|如)(?:存在|有)\s*(?:脚本|文件|工具|目录|[A-Za-z`])|"
    r"(?:脚本|文件|工具|目录|[A-Za-z0-9_./`-])\s*(?:存在|有)的话|"
    r"(?:스크립트|파일|도구|[A-Za-z0-9_./`-])\s*(?:이|가)?\s*(?:있는\s*경우|있으면|존재하면)",
    re.I)
#: what to do when the file is not there: "If it doesn't exist, fall back to …", "if missing";
#: "が存在しない場合", "不存在时", "없으면"
_ABSENCE = re.compile(
    r"\b(?:if|when|where)\s+(?:(?:it|they|this|that|the\s+\w+)\s+)?"
    r"(?:(?:does|do)\s*n[o']t\s+exist|(?:is|are)\s*(?:n[o']t\s+(?:there|present|available|found)|"
    r"missing|absent)|(?:'s|’s)\s+(?:missing|absent|not\s+there))\b|"
    r"\bif\s+(?:missing|absent|not\s+(?:present|found|available))\b|"
    r"(?:存在しない|見つからない)(?:場合|なら|とき|時)|存在しなければ|"
    r"不存在(?:时|的话)|존재하지\s*않(?:으면|는\s*경우)", re.I)
#: the user's file, right before the path: "your `references/INDEX.md`", "the user's scripts/x"
_USERS_BEFORE = re.compile(r"(?:\byour|\bthe\s+user['’]s|\bthe\s+user\s+project['’]s)"
                           r"(?:\s+(?:own|project['’]s|repo(?:sitory)?['’]s))?\s*[`*\"']*$", re.I)
#: the user's file, right after the path: "`scripts/x.sh` in your repository", "(if present in
#: repo)"
_USERS_AFTER = re.compile(r"^[`*\"']*\s*[,(]?\s*(?:in|from|of|into|to)\s+(?:your|the\s+user['’]s)\s+"
                          r"(?:own\s+)?(?:project|repo|repository|codebase|workspace|checkout)\b",
                          re.I)
#: a sentence end (`.` before a space, a line end or a closing mark; `。`, `！`, `？`)
_SENTENCE_END = re.compile(r"[.!?](?=[\s)\]*_`\"']|$)|[。！？]")
#: a line that starts a block of its own: a list item, a heading, a table row, a fence
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\||```|~~~)")
#: a shell or script comment line in a code block (`# sync スクリプトがある場合`, `// …`)
_COMMENT = re.compile(r"^\s*(?:#|//|--|;|rem\b)", re.I)
MAX_CLAUSE = 400


def marked_optional(text: str, span: Span, structure: MarkdownBody) -> bool:
    """Whether the skill's words near the path make the file optional or the user's: a heading
    over it that makes its section conditional on the file being there, the sentence around it
    (a presence condition on it or a pronoun, "your …", "in your repository"), the comment lines
    above it in its code block, or the next sentence (the paragraph after its block) saying what
    to do when it is missing."""
    if any(_PRESENCE.search(heading.text) for heading in structure.sections_at(span.start)):
        return True
    before, after = clause_parts(text, span)
    if _USERS_BEFORE.search(before) or _USERS_AFTER.match(after):
        return True
    if _conditional_on_itself(before, after):
        return True
    fence = structure.fence_at(span.start)
    if fence is not None:
        if _PRESENCE.search(_comments_above(text, span.start, fence.content.start)) or \
                _PRESENCE.search(_heading_in_block(text, span.start, fence.content.start)):
            return True
        following = _paragraph_after(text, fence.span.end)
    else:
        following = _next_sentence(text, span.end)
    return bool(_ABSENCE.search(following))


def _conditional_on_itself(before: str, after: str) -> bool:
    """"If `scripts/x.sh` exists, run it", "Run `scripts/x.sh` (if present)", "… if it exists",
    or the sentence says what to do without it ("if it does not exist, …")."""
    head = after[:80]
    if re.match(r"^[`*\"']*\s*(?:exists?|is\s+(?:present|available|there))\b", head, re.I) \
            and re.search(r"\b(?:if|when)\s+[`*\"']*$", before, re.I):
        return True
    if re.match(r"^[`*\"']*\s*[,(]?\s*(?:if|when)\s+(?:(?:it|one)\s+(?:is\s+)?)?"
                r"(?:present|available|exists?|there)\b", head, re.I):
        return True
    if _OPTIONAL_AT_END.search(after.split("\n", 1)[0]):
        return True  # "- [FastAPI](../fastapi/SKILL.md) — for the API layer (if exists)"
    return bool(_ABSENCE.search(after)) or bool(re.match(r"^[`*\"']*\s*(?:が|も)?(?:ある|存在する)"
                                                         r"(?:場合|なら|とき|時)", head))


#: a parenthesis that ends the line after the path and makes it optional: "(if exists)",
#: "(if present)", "(only if available)", "(optional)" (sample 6)
_OPTIONAL_AT_END = re.compile(r"\((?:only\s+)?(?:(?:if|when)\s+(?:it\s+)?(?:(?:is|are)\s+)?"
                              r"(?:present|available|exists?|installed)|optional)\)[.;:]?\s*$",
                              re.I)


def clause_parts(text: str, span: Span) -> tuple[str, str]:
    """The sentence around `span`, as the text before it and the text after it (at most
    `MAX_CLAUSE` characters each): a table row is one clause; in a paragraph the sentence may
    run over several lines; a list item or a heading ends it."""
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = _line_end(text, span.end)
    if text[line_start:span.start].lstrip().startswith("|"):
        return text[line_start:span.start], text[span.end:line_end]
    start, end = _paragraph_bounds(text, line_start, line_end)
    start = max(start, span.start - MAX_CLAUSE)
    end = min(end, span.end + MAX_CLAUSE)
    before = text[start:span.start]
    ends = list(_SENTENCE_END.finditer(before))
    if ends:
        before = before[ends[-1].end():]
    after = text[span.end:end]
    stop = _SENTENCE_END.search(after)
    if stop is not None:
        after = after[:stop.end()]
    return before.replace("\r", ""), after.replace("\r", "")


def _line_end(text: str, offset: int) -> int:
    end = text.find("\n", offset)
    return len(text) if end < 0 else end


def _paragraph_bounds(text: str, line_start: int, line_end: int) -> tuple[int, int]:
    """The lines around one line that form its paragraph (or list item): no blank line, no line
    that starts a block of its own between."""
    start = line_start
    while start > 0 and not _BLOCK_START.match(text[start:_line_end(text, start)]):
        previous = text.rfind("\n", 0, start - 1) + 1
        line = text[previous:start - 1]
        if not line.strip() or line.lstrip().startswith(("```", "~~~", "|", "#")):
            break
        start = previous
    end = line_end
    while end < len(text):
        following_end = _line_end(text, end + 1)
        line = text[end + 1:following_end]
        if not line.strip() or _BLOCK_START.match(line):
            break
        end = following_end
    return start, end


def _next_sentence(text: str, offset: int) -> str:
    """The sentence after the one that holds `offset`, in the same paragraph (or the paragraph
    that follows the line, when the sentence ends with it)."""
    line_end = _line_end(text, offset)
    _start, end = _paragraph_bounds(text, text.rfind("\n", 0, offset) + 1, line_end)
    rest = text[offset:min(end, offset + MAX_CLAUSE)]
    stop = _SENTENCE_END.search(rest)
    if stop is None:
        return ""
    rest = rest[stop.end():]
    following = _SENTENCE_END.search(rest)
    return (rest[:following.end()] if following is not None else rest).replace("\r", "")


def _comments_above(text: str, offset: int, content_start: int) -> str:
    """The comment lines right above the line at `offset` in its code block (up to a blank line
    or a line of code)."""
    lines: list[str] = []
    start = text.rfind("\n", 0, offset) + 1
    while start > content_start:
        previous = text.rfind("\n", 0, start - 1) + 1
        line = text[max(previous, content_start):start - 1]
        if not _COMMENT.match(line):
            if line.strip() and not lines:
                start = previous  # a command line of the same group: keep looking up
                continue
            break
        lines.append(line)
        start = previous
    return "\n".join(lines)


#: a heading-shaped line inside a code block (`## `, `### `: a shell comment has one `#`)
_BLOCK_HEADING = re.compile(r"^ {0,3}#{2,6}[ \t]+\S")
MAX_BLOCK_LINES = 40


def _heading_in_block(text: str, offset: int, content_start: int) -> str:
    """The nearest heading-shaped line above `offset` inside its code block: a block left open by
    a stray fence holds the headings the model still reads as such (`### Scripts (If Available)`
    after a ```` line that opened a block)."""
    start = text.rfind("\n", 0, offset) + 1
    for _ in range(MAX_BLOCK_LINES):
        if start <= content_start:
            return ""
        previous = max(text.rfind("\n", 0, start - 1) + 1, content_start)
        line = text[previous:start - 1]
        if _BLOCK_HEADING.match(line):
            return line
        start = previous
    return ""


def _paragraph_after(text: str, offset: int) -> str:
    """The paragraph that follows a code block ending at `offset` (after at most one blank
    line), at most `MAX_CLAUSE` characters."""
    rest = text[offset:offset + MAX_CLAUSE + 4].replace("\r", "")
    rest = rest.lstrip("\n")
    end = rest.find("\n\n")
    return rest if end < 0 else rest[:end]


#: a name followed by the word that makes it a skill or a repository: "the spec skill", "the
#: `takt-sdd` repository", "the **zod** skill's" (bold, sample 5), "`obsidian` スキル"
_NAMED_OWNER = re.compile(
    r"[`*\"']{0,2}((?:[\w.-]+:)?[\w.-]*\w)(?:[`*\"']{1,2}\s*|\s+)"
    r"(?P<kind>skill|repo(?:sitory)?|スキル|リポジトリ|レポジトリ|技能|仓库|저장소|스킬)"
    r"(?:['’]s)?(?![A-Za-z0-9_-]|\.\w)", re.I)
#: the owner phrase right after a path: "… in the spec skill", "of the `obsidian` skill"
_OWNER_AFTER = re.compile(r"^[`*\"']*\s*[,(]?\s*(?:in|of|from|inside|under|within)\s+"
                          r"(?:the\s+)?(?=\S)", re.I)
#: words that name this skill or no particular one
_NOT_A_NAME = frozenset({"this", "the", "its", "our", "my", "same", "current", "that", "a", "an",
                         "your", "each", "every", "any", "another", "other", "new", "target",
                         "parent", "sibling", "main", "base", "own"})


def named_owners(text: str, span: Span) -> list[tuple[str, str]]:
    """The skills and repositories the sentence around `span` scopes it to, as (name, kind) with
    kind "skill" or "repository": right after the path ("`references/x.md` in the spec skill",
    "… of the `obsidian` skill"), or before it in the sentence by a name in code or quotes, or one
    no prose word looks like ("`takt-sdd` リポジトリ実体では `references/…` を読む", "in the
    `takt-sdd` repository, read …"; not "a Claude Code skill"). Words that name this skill or no
    particular one ("this skill", "the skill") are left out; the caller compares the rest with the
    skill's own name."""
    before, after = clause_parts(text, span)
    found: list[tuple[str, str]] = []
    lead = _OWNER_AFTER.match(after)
    if lead is not None:
        owner = _NAMED_OWNER.match(after, lead.end())
        if owner is not None:
            found.append(_owner(owner))
    for owner in _NAMED_OWNER.finditer(before):
        if owner.group(0)[0] in "`*\"'" or _distinctive(owner.group(1)):
            found.append(_owner(owner))
    return [(name, kind) for name, kind in found if name.lower() not in _NOT_A_NAME]


def _distinctive(name: str) -> bool:
    """A name no prose word looks like: ASCII, with a hyphen, an underscore or a digit, at least
    five characters (`takt-task-builder`, `jupyter-to-marimo`)."""
    return name.isascii() and len(name) >= 5 and bool(re.search(r"[-_\d]", name))


def _owner(match: re.Match[str]) -> tuple[str, str]:
    kind = match.group("kind").lower()
    repository = kind.startswith(("repo", "リポ", "レポ", "仓库", "저장소"))
    name = match.group(1).rsplit(":", 1)[-1]
    return name, "repository" if repository else "skill"


def names_skill(text: str, span: Span, name: str) -> bool:
    """Whether the sentence around `span` names the skill `name` as a skill: in code
    (`` `blog` ``, `` `plugin:blog` ``, `` `/blog` ``), with the word skill ("the blog skill",
    "skill `blog`", "blog スキル"), or, for a name no prose word looks like (`takt-task-builder`:
    a hyphen, an underscore or a digit), anywhere as a word."""
    before, after = clause_parts(text, span)
    clause = f"{before} {after}"
    escaped = re.escape(name)
    if re.search(r"`[/$]?(?:[\w.-]+:)?" + escaped + r"`", clause, re.I):
        return True
    if re.search(r"(?<![\w-])(?:[\w.-]+:)?" + escaped + r"[`*\"']?\s*(?:skill|スキル|技能|스킬)",
                 clause, re.I) or re.search(r"\bskill\s+[`*\"']?" + escaped + r"(?![\w-])",
                                            clause, re.I):
        return True
    return _distinctive(name) and re.search(r"(?<![\w-])" + escaped + r"(?![\w-])",
                                            clause) is not None


#: a command that only looks for a file: `ls`, `test -f`, `[ -e …`, `stat`, `find`, `file`
_PROBE_COMMAND = re.compile(r"(?:^|[;&|(]|\bif|\bthen|\$)\s*(?:ls|stat|find|file|test\s+-[a-z]|"
                            r"\[\[?\s+!?\s*-[a-z])\s[^;&|\n]*$")
#: the command's errors are thrown away (`2>/dev/null`, `&>/dev/null`) or its failure ignored
_QUIET = re.compile(r"(?:[12&]?>\s*/dev/null|\|\|\s*(?:true|:|echo)\b)")
#: a test of a file in any command (`[ -f x ]`, `test -d x`) right before the path
_FILE_TEST = re.compile(r"(?:\btest|\[\[?)\s+!?\s*-[efdrsx]\s+[\"']?$")


def probed(text: str, span: Span, structure: MarkdownBody) -> bool:
    """Whether the path is one the skill looks for in the user's project, not a file of its own:
    in code, a file test right before it (`[ -f scripts/dev.sh ]`), or a listing command whose
    errors are thrown away (`ls Makefile scripts/dev.sh 2>/dev/null`: the skill expects some not
    to be there). Running a file (`bash scripts/x.sh 2>/dev/null`) is not a probe."""
    if not structure.in_code(span.start):
        return False
    line_start = text.rfind("\n", 0, span.start) + 1
    before = text[line_start:span.start]
    if _FILE_TEST.search(before):
        return True
    line = text[line_start:_line_end(text, span.end)]
    return bool(_QUIET.search(line)) and bool(_PROBE_COMMAND.search(before))


#: the sentence or the line that leads a list says its paths are an example of some project:
#: "Sample grouping for a typical repo:", "in a typical project", "an example layout"
_EXAMPLE_PROJECT = re.compile(
    r"\b(?:a|any|the|each|every|some)\s+(?:typical|sample|example|hypothetical|generic|"
    r"given)\s+(?:repo|repository|project|codebase|monorepo|app|application|workspace)\b|"
    r"\b(?:sample|example)\s+(?:grouping|layout|tree|structure|repo(?:sitory)?|project)\b",
    re.I)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def example_of_a_project(text: str, span: Span) -> bool:
    """Whether the words around the path make it a file of an example project, not of the
    skill: its sentence, or the line that leads the list it is an item of ("Sample grouping for
    a typical repo:" over "- Auditor A: `scripts/AGENTS.md` …")."""
    before, after = clause_parts(text, span)
    if _EXAMPLE_PROJECT.search(before) or _EXAMPLE_PROJECT.search(after):
        return True
    return bool(_EXAMPLE_PROJECT.search(_list_lead(text, span.start)))


MAX_LIST_ITEMS = 40


def _list_lead(text: str, offset: int) -> str:
    """The line that leads the list whose item holds `offset` (the last line before the list,
    after at most one blank line), or "" when `offset` is not in a list item."""
    start = text.rfind("\n", 0, offset) + 1
    if not _LIST_ITEM.match(text[start:_line_end(text, start)]):
        return ""
    blank = False
    for _ in range(MAX_LIST_ITEMS):
        if start == 0:
            return ""
        previous = text.rfind("\n", 0, start - 1) + 1
        line = text[previous:start - 1]
        start = previous
        if not line.strip():
            if blank:
                return ""
            blank = True
            continue
        if not _LIST_ITEM.match(line) and not line.startswith((" ", "\t")):
            return line
    return ""


#: commands that make a folder or a file in the working directory: the destination is the
#: last argument (`mkdir -p a b` makes each)
_MAKING_COMMAND = re.compile(
    r"(?:^|[;&|(]|\$)\s*(?:sudo\s+)?(?P<command>mkdir|cp|mv|ln|touch|install|rsync)"
    r"(?P<args>(?:[ \t]+[^\s;&|#]+)+)", re.M)
_DOWNLOAD_TO = re.compile(r"\b(?:curl|wget)\b[^\n;&|]*?\s-(?:o|O|-output)[ \t=]+([^\s;&|]+)")
#: prose that says the skill sets a folder up in the project: "Creating directory structure
#: (`.specify/memory/`, `specs/`, `scripts/`)", "copy the scripts into `scripts/ralph/`"
_SETS_UP = re.compile(r"\b(?:creat(?:e|es|ed|ing)|set(?:s|ting)?\s+up|scaffold(?:s|ed|ing)?|"
                      r"(?:download|cop(?:y|ie|y)|install)(?:s|ed|ing)?\b[^.\n]{0,60}?\b(?:in)?to)\b",
                      re.I)
_FOLDER_SPAN = re.compile(r"`((?:\./)?[\w.-]+(?:/[\w.-]+)*/)`")


def made_folders(text: str, structure: MarkdownBody) -> frozenset[str]:
    """The folders (and files) of the working directory the skill's own words make: the
    destinations of `mkdir`, `cp`, `mv`, `ln`, `touch`, `install`, `rsync` and `curl -o` in its
    code, and the folders (`` `scripts/` ``) a sentence says it creates, sets up, downloads,
    copies or installs. Each is a relative path without `./`; absolute and home paths are left
    out (they are not the project's)."""
    made: set[str] = set()
    for fence in structure.fences:
        code = text[fence.content.start:fence.content.end]
        for match in _MAKING_COMMAND.finditer(code):
            words = [w for w in match.group("args").split() if not w.startswith("-")]
            if not words:
                continue
            made.update(words if match.group("command") in ("mkdir", "touch") else words[-1:])
        made.update(match.group(1) for match in _DOWNLOAD_TO.finditer(code))
    for line in text.splitlines():
        if _SETS_UP.search(line):
            made.update(match.group(1) for match in _FOLDER_SPAN.finditer(line))
    return frozenset(cleaned for path in made if (cleaned := _relative_path(path)))


def _relative_path(path: str) -> str:
    path = path.strip("\"'`")
    if path.startswith(("/", "~", "$", "<", "{")) or "://" in path:
        return ""
    path = path.removeprefix("./").rstrip("/")
    return "" if path in ("", ".", "..") or path.startswith("../") else path
