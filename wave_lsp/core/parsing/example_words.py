"""What a skill's own words say about text it shows rather than uses (docs/design/rules.md
*Body*; issues 27 and 37): a `${CLAUDE_…}` variable named on its own, a file a guide to writing
plugins shows for the reader's plugin, a template line, an `@` word that is code (SK150). The
words are read as `reference_words` reads them (the line, the code span or block around the
text); nothing here looks at the disk.
"""

from __future__ import annotations

import re

from wave_lsp.core.parsing.markdown import MarkdownBody
from wave_lsp.core.parsing.text import Span


def shown_as_text(text: str, structure: MarkdownBody, span: Span, guide: bool,
                   plugin_only: bool) -> str | None:
    """Why a `${CLAUDE_…}` the target leaves literal may be meant as written (issues 27, 37):
    named on its own, as a mention of the variable (`_named_alone`), in any skill; or, for a
    plugin's variable in a guide to writing plugins, skills or commands (`about_writing_plugins`),
    inside a block that is a file (`_FILE_LANGUAGES`, a `#!` script): the hooks.json, .mcp.json,
    command file or hook script it shows for the plugin the reader writes, where the literal is
    the content (labelled-2 `create-hook`, sample 5's plugin-devkit guides). A path the model
    opens or runs, a value passed on (`X=${X}`) and every block of other skills stay warnings:
    there the path must work. None: it is used."""
    if _named_alone(text, structure, span):
        return "it is named on its own, a mention of the variable, not a path"
    fence = structure.fence_at(span.start)
    if guide and plugin_only and fence is not None and (
            fence.info.split(" ")[0].lower() in _FILE_LANGUAGES
            or text[fence.content.start:fence.content.end].startswith("#!")):
        return "it is in a file a guide to writing plugins, skills or commands shows"
    return None


#: fences whose content is a file a guide shows for the reader's plugin (a command file, a
#: hooks.json, an .mcp.json); a shell block is the guide's own step (`mkdir -p
#: ${CLAUDE_PLUGIN_ROOT}/tasks`, labelled-2: true) unless it is a script file (`#!`)
_FILE_LANGUAGES = frozenset({"markdown", "md", "json", "jsonc", "json5", "yaml", "yml", "toml"})


#: what makes a lone variable a value passed on, not a mention: `X=${X}`, "the value of ${X}"
_PASSED_ON = re.compile(r"(?:[=:]\s*[`\"']?|\bvalue\s+of\s+[`*\"']*|\b(?:pass|provide|give|set)\s+"
                        r"[`*\"']*)$", re.I)


def _named_alone(text: str, structure: MarkdownBody, span: Span) -> bool:
    """The variable is named, not used: outside fenced blocks, alone in its inline code span
    or in prose (a heading, bold text), not followed by a path (`/…`) nor passed on as a value
    ("`CLAUDE_PLUGIN_ROOT=${CLAUDE_PLUGIN_ROOT}`" in a sub-agent's prompt, labelled-2: true).
    "Use `${CLAUDE_PLUGIN_ROOT}` for all file references", "pinned to `${CLAUDE_PLUGIN_ROOT}`"
    (sample 5: false at warning level, 30 of them)."""
    if structure.fence_at(span.start) is not None:
        return False
    start, end = span.start, span.end
    code = structure.code_at(span.start)
    if code is not None:
        if text[code.start:code.end].strip() != text[span.start:span.end]:
            return False
        start, end = code.start - 1, code.end + 1  # the backticks
    if text[end:end + 1] in ("/", "\\"):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return not _PASSED_ON.search(text[max(line_start, start - 40):start])


#: a placeholder a template line leaves for the reader: `[core idea]`, `[edge cases/advanced
#: scenarios]` (words in square brackets that are no link: not followed by `(`, `[` or `:`)
_BRACKET_PLACEHOLDER = re.compile(r"\[[A-Za-z][\w .,/-]*[ /][\w .,/-]*\](?![(\[:])")


def template_line(text: str, offset: int) -> bool:
    """Whether the line around `offset` is a template with placeholders to fill in ("Pattern:
    [core idea]. See `references/file.md` for [edge cases]."): its paths are the template's."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return bool(_BRACKET_PLACEHOLDER.search(text, start, end if end >= 0 else len(text)))


#: the last dotted part of a code name: `Matcher` of `@Acl.Matcher`, `Principal` (an extension
#: is lower case or all capitals: `.md`, `.MD`)
_CAPITALIZED_PART = re.compile(r"\.[A-Z][a-z0-9]*[a-z][A-Za-z0-9]*$")


def code_annotation(raw: str, following: str) -> bool:
    """An `@` word that is code, not a file (SK150): a Java annotation or a decorator called
    with arguments (`@Acl.Matcher(…)`, `@app.route("/")`: a file name is not followed by `(`), or
    a dotted name whose last part is a capitalized word (`@Acl.Matcher`, `@Service.Named`),
    which no file extension is. A path (`@docs/x.md`, `@./x`) is never one."""
    if "/" in raw or raw.startswith(("~", ".")):
        return False
    return following == "(" or _CAPITALIZED_PART.search(raw) is not None
