"""docs/design/rules.md *Body*: SK110, SK111 and SK151 (the reference and placeholder rules come
with the preview); each message says what to do in its first sentence (docs/design/rules.md *How a
message reads*).

SK151 (issue 37) reads the body of a skill with `context: fork` for words that have it work on the
conversation ("this conversation", "the discussion above"), outside code: the forked sub-agent
starts from the skill's text alone and never sees the conversation, so such a skill works on
nothing. The finding sits on `context` and names the words and their line."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Related
from wave_lsp.core.checking.messages import agree, who_reports
from wave_lsp.core.parsing.markdown import parse_body
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.helpers import shown
from wave_lsp.core.rules.registry import check

MAX_BODY_LINES = 500
MAX_BODY_TOKENS = 5000
#: a soft recommendation is reported when the body is clearly over it, a fifth over (samples 3-6:
#: bodies of 517-565 lines and just over 5,000 tokens were labelled noise, 8 of 8)
MARGIN = 1.2
CHARS_PER_TOKEN = 4
MAX_FILE_BYTES = 64 * 1024


def estimated_tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


@check("SK110")
def body_too_long(ctx: CheckContext) -> Iterator[Finding]:
    document = ctx.document
    lines = document.lines
    first = lines.line_of(document.body_offset)
    body_lines = lines.line_count - first - (1 if document.text.endswith(("\n", "\r")) else 0)
    if body_lines > MAX_BODY_LINES * MARGIN:
        line = first + MAX_BODY_LINES
        yield ctx.finding("SK110", lines.span_of_line(line),
                          f"The body has {body_lines} lines: move reference material from here on "
                          "into `references/` files and link them. The spec recommends under "
                          f"{MAX_BODY_LINES}, because the whole body enters the context on every "
                          "invocation.")
        return
    tokens = estimated_tokens(document.body)
    if tokens > MAX_BODY_TOKENS * MARGIN:
        yield ctx.finding("SK110", lines.span_of_line(first),
                          f"The body is about {tokens:,} tokens (characters / 4): move details "
                          f"into referenced files. The spec recommends under {MAX_BODY_TOKENS:,}.",
                          level=Severity.INFORMATION)


@check("SK111")
def file_too_large(ctx: CheckContext) -> Iterator[Finding]:
    size = len(ctx.text.encode("utf-8", errors="surrogatepass")) + (3 if ctx.document.bom else 0)
    if size <= MAX_FILE_BYTES:
        return
    yield ctx.finding("SK111", Span(0, min(3, len(ctx.text))),
                      f"Split this SKILL.md ({size / 1024:,.1f} KiB) into referenced files: "
                      f"the whole text costs context on every invocation, and skill indexers "
                      f"that read skills for search (Wisp's, for one) refuse text files over "
                      f"{MAX_FILE_BYTES // 1024} KiB.")


#: words that have the skill work on the conversation it was invoked in (SK151)
_CONVERSATION = re.compile(
    r"\b(?:this|the current|our|the (?:whole|entire|preceding|previous|prior|ongoing))\s+"
    r"(?:conversation|chat|discussion|dialogue)\b|"
    r"\b(?:conversation|chat|discussion|messages?)\s+(?:above|so far)\b|"
    r"\b(?:earlier|above|previously)\s+in\s+(?:the|this)\s+(?:conversation|chat|discussion)\b|"
    r"\bwhat\s+(?:we|you and I|the user and you)\s+(?:have\s+)?(?:discussed|talked about)\b",
    re.I)


@check("SK151")
def fork_without_conversation(ctx: CheckContext) -> Iterator[Finding]:
    if ctx.value("context") != "fork":
        return
    entry = ctx.field("context")
    structure = parse_body(ctx.text, ctx.document.body_offset)
    found = next((match for match in _CONVERSATION.finditer(ctx.text, ctx.document.body_offset)
                  if not structure.in_code(match.start())), None)
    if entry is None or found is None:
        return
    line = ctx.document.lines.line_of(found.start()) + 1
    yield ctx.finding("SK151", ctx.entry_span(entry),
                      f"Remove `context: fork`, or pass what the skill needs as its arguments: "
                      f"the body works on \u201c{shown(found.group(0))}\u201d (line {line}), but "
                      + agree(who_reports("SK151", ctx.profile), "runs", "run")
                      + " a forked skill in a sub-agent that starts from the skill's text alone "
                      "and does not see the conversation.",
                      related=[Related("the words that need the conversation",
                                       Span(found.start(), found.end()))])
