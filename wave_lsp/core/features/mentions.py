"""Mentions of skills in a text: `/name`, `/plugin:name`, `` `name` ``, a Markdown link into a
skill's folder, and a distinctive (hyphenated) name in prose (docs/features/references.md; the
find-references and rename parts of docs/design/lsp.md *Renaming a skill*).

Pure text work, no file system: `find_mentions` reads one text (a SKILL.md, `CLAUDE.md`,
`AGENTS.md`, an agent or command file, a plugin manifest) and returns every place that names a
skill, in offsets of the text (without its byte-order mark). It is precise on purpose:

- `/name` counts after a line start, white space or an opening bracket or quote, and only when
  what follows cannot continue a path, URL or word (`/usr/bin`, `https://x/deploy`, `and/or`,
  `/file.txt` and `[x](/route)` are not mentions); POSIX top-level folders (`/tmp`) are not.
  Inside code (a fenced block or an inline code span) only a `/name` that starts the code or a
  line of it counts, as typed at a prompt: `` `/deploy prod` `` is a mention, `cd /app` is not.
- A name in backticks counts only when it is exactly a known skill's name: `` `review` `` with a
  skill `review`, never the bare word review.
- A bare word in prose counts only for names with a `-` or `:` (`pdf-tools`), which are
  distinctive; one-word names (`review`, `deploy`) are ordinary words.
- A link counts when its path goes through a folder named like a known skill (the caller, who
  knows the file system, checks that it is that skill's folder).

Slash mentions are found whatever their name (the diagnostics of unknown `/name` need them); the
others only for the names the caller knows.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from wave_lsp.core.parsing.markdown import MarkdownBody, parse_body
from wave_lsp.core.parsing.text import Span

#: the kinds of mention, as `Mention.kind`
SLASH, CODE, PROSE, LINK = "slash", "code", "prose", "link"

#: `/name` or `/plugin:name`; what may stand before it is checked by `_starts_a_mention`
_SLASH = re.compile(r"/([^\W_][\w-]*(?::[^\W_][\w-]*)?)")
#: characters that may stand right before a mention's `/` (besides a line start and white space)
_OPENERS = frozenset("([{\"'`*_>|")
#: a character right after the name that makes it part of something longer (a path, a URL, a
#: word, a file name); `.` only when a word character follows (`/file.txt`, not `/deploy.`)
_CONTINUES = re.compile(r"[\w/\\:@$%&=+#-]|\.\w|\(")
#: names that after `/` are folders of the file system, not commands
POSIX_FOLDERS = frozenset({"bin", "boot", "dev", "etc", "home", "lib", "lib64", "media", "mnt",
                           "opt", "proc", "root", "run", "sbin", "srv", "sys", "tmp", "usr",
                           "var", "users", "volumes", "private", "applications", "library",
                           "system", "workspace", "workspaces", "app", "data", "src", "code"})
#: a Markdown inline link or image: `[text](target "title")`
_LINK = re.compile(r"!?\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"\n]*\")?\s*\)")
#: characters a name in prose may not touch (it would be part of a longer word or path)
_WORD_CHAR = re.compile(r"[\w/.:@-]")
#: more mentions than this in one text are not collected (hostile input)
MAX_MENTIONS = 10_000


@dataclass(frozen=True, slots=True)
class Mention:
    """One place that names a skill."""

    span: Span  #: the mention as written (`/acme:deploy`, `` `deploy` `` without its backticks)
    name_span: Span  #: the skill's own name in it (what a rename replaces: `deploy`)
    invoked: str  #: what names the skill: `acme:deploy`, `deploy`, or a link's folder name
    kind: str  #: SLASH, CODE, PROSE or LINK
    target: str = ""  #: for a LINK: the path as written (the caller resolves it)

    @property
    def name(self) -> str:
        """The skill's own name (the part after a plugin's `plugin:`)."""
        return self.invoked.rsplit(":", 1)[-1]


def base_name(invocation: str) -> str:
    """`acme:deploy` -> `deploy`."""
    return invocation.rsplit(":", 1)[-1]


def find_mentions(text: str, known: Collection[str] = (), *, body_offset: int = 0,
                  markdown: bool = True) -> list[Mention]:
    """Every mention in `text`, in document order. `known`: the names skills are invoked by
    (`deploy`, `acme:deploy`); `body_offset`: where the Markdown body starts (after a
    frontmatter), so that code is told from prose; `markdown` false for JSON manifests (every
    string is prose there: only slash mentions and exact names in quotes count)."""
    structure = parse_body(text, body_offset) if markdown else None
    found: dict[Span, Mention] = {}
    for mention in _slash_mentions(text, structure):
        found.setdefault(mention.span, mention)
    names = {name for name in known if name}
    if names:
        sources = (_code_mentions(text, structure, names), _link_mentions(text, structure, names),
                   _prose_mentions(text, structure, names)) if structure is not None else \
            (_quoted_names(text, names),)
        for source in sources:
            for mention in source:
                if not any(_overlaps(mention.span, other) for other in found):
                    found[mention.span] = mention
                if len(found) >= MAX_MENTIONS:
                    break
    return sorted(found.values(), key=lambda m: (m.span.start, m.span.end))[:MAX_MENTIONS]


def mention_at(mentions: list[Mention], offset: int) -> Mention | None:
    """The mention under the cursor (also just after its last character)."""
    return next((m for m in mentions if m.span.start <= offset <= m.span.end), None)


def _overlaps(first: Span, second: Span) -> bool:
    return first.start < second.end and second.start < first.end


# -- slash mentions -------------------------------------------------------------------------------
def _slash_mentions(text: str, structure: MarkdownBody | None) -> Iterator[Mention]:
    count = 0
    for match in _SLASH.finditer(text):
        if count >= MAX_MENTIONS:
            return
        start, end = match.span()
        invoked = match.group(1)
        if not _starts_a_mention(text, start) or _CONTINUES.match(text, end):
            continue
        if invoked.lower() in POSIX_FOLDERS or not re.search(r"[^\W\d_]", invoked):
            continue
        if structure is not None and structure.in_code(start) and \
                not _starts_code(text, structure, start):
            continue
        name = base_name(invoked)
        count += 1
        yield Mention(Span(start, end), Span(end - len(name), end), invoked, SLASH)


def _starts_a_mention(text: str, start: int) -> bool:
    """What stands before the `/`: nothing, white space or an opener (not `](`: a link target)."""
    if start == 0:
        return True
    before = text[start - 1]
    if before.isspace():
        return True
    if before == "(" and start >= 2 and text[start - 2] == "]":
        return False
    return before in _OPENERS


def _starts_code(text: str, structure: MarkdownBody, start: int) -> bool:
    """Whether `start` begins its code region or a line of it (after indentation, a `$ ` or
    `> ` prompt)."""
    region = structure.code_at(start)
    if region is None:
        return True
    line_start = max(region.start, text.rfind("\n", 0, start) + 1)
    return re.fullmatch(r"[ \t]*(?:[$>][ \t]+)?", text[line_start:start]) is not None


# -- mentions of known names ----------------------------------------------------------------------
def _code_mentions(text: str, structure: MarkdownBody, names: set[str]) -> Iterator[Mention]:
    """Inline code whose whole content is a known name: `` `deploy` ``, `` `acme:deploy` ``."""
    for span in structure.code_spans:
        content = text[span.start:span.end]
        stripped = content.strip()
        if stripped in names:
            start = span.start + content.index(stripped)
            end = start + len(stripped)
            yield Mention(Span(start, end), Span(end - len(base_name(stripped)), end), stripped,
                          CODE)


def _link_mentions(text: str, structure: MarkdownBody, names: set[str]) -> Iterator[Mention]:
    """Each path segment of a link target that is a known skill's name (`../deploy/SKILL.md`):
    a candidate the caller confirms by resolving the path."""
    folders = {base_name(name) for name in names}
    for match in _LINK.finditer(text):
        if structure.in_code(match.start()):
            continue
        target = match.group(1)
        if "://" in target or target.startswith(("#", "mailto:", "/", "~")):
            continue
        position = match.start(1)
        for segment in target.split("/"):
            if segment in folders:
                span = Span(position, position + len(segment))
                yield Mention(span, span, segment, LINK, target)
            position += len(segment) + 1


def _prose_mentions(text: str, structure: MarkdownBody, names: set[str]) -> Iterator[Mention]:
    """A distinctive name (with `-` or `:`) as a whole word outside code."""
    distinctive = sorted((n for n in names if "-" in n or ":" in n), key=len, reverse=True)
    if not distinctive:
        return
    pattern = re.compile("|".join(re.escape(name) for name in distinctive[:2000]))
    for match in pattern.finditer(text):
        start, end = match.span()
        if structure.in_code(start) or (start and _WORD_CHAR.match(text[start - 1])):
            continue
        if end < len(text) and (_WORD_CHAR.match(text[end]) and not
                                (text[end] in ".:" and (end + 1 >= len(text)
                                                        or not _WORD_CHAR.match(text[end + 1])))):
            continue
        invoked = match.group()
        yield Mention(Span(start, end), Span(end - len(base_name(invoked)), end), invoked, PROSE)


def _quoted_names(text: str, names: set[str]) -> Iterator[Mention]:
    """In a JSON manifest: a string that is exactly a known name (`"skills": ["deploy"]`), or a
    path whose segment is one (`"./skills/deploy"`, given as a LINK for the caller to confirm)."""
    folders = {base_name(name) for name in names}
    for match in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        value, start = match.group(1), match.start(1)
        if value in names and not re.search(r'"name"\s*:\s*$', text[max(0, start - 40):start - 1]):
            end = start + len(value)
            yield Mention(Span(start, end), Span(end - len(base_name(value)), end), value, CODE)
        elif "/" in value and "://" not in value:
            position = start
            for segment in value.split("/"):
                if segment in folders:
                    span = Span(position, position + len(segment))
                    yield Mention(span, span, segment, LINK, value)
                position += len(segment) + 1
