"""Hover and completion documentation for clients that ask for plain text
(docs/design/lsp.md: content by client capability).

The features write Markdown; a client whose `contentFormat` or `documentationFormat` lists only
`plaintext` gets the same words without the markup: code spans lose their backticks, emphasis its
asterisks, links become `text (target)`, fenced blocks keep their lines without the fences, and
headings lose their `#`s.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n?", re.M)
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+", re.M)
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)\)")
_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1|(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])")
_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|])")


def plain_text(markdown: str) -> str:
    """`markdown` as plain text for a client that cannot render Markdown."""
    text = _FENCE.sub("", markdown)
    text = _HEADING.sub("", text)
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(2) else m.group(1), text)
    text = _CODE.sub(lambda m: m.group(2).strip() if m.group(1) != "`" else m.group(2), text)
    text = _EMPHASIS.sub(lambda m: m.group(2) or m.group(3), text)
    return _ESCAPE.sub(r"\1", text)
