"""Document links and go-to-definition (PRODUCT.md *Language server*).

Links: every file reference of the body (`wave_lsp.core.references`) that exists inside the skill
folder. Definition: on a file reference, the file; on `/skill-name`, that skill's SKILL.md (every
skill of that name when several exist).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from wave_lsp.core.features import FeatureContext
from wave_lsp.core.references import escapes, find_references
from wave_lsp.core.text import Span

_SKILL_REFERENCE = re.compile(r"(?:^|(?<=\s))/([a-z0-9][\w:-]*)", re.M)


@dataclass(frozen=True, slots=True)
class Link:
    span: Span
    target: Path
    tooltip: str = ""


def document_links(ctx: FeatureContext) -> list[Link]:
    skill_dir = ctx.location.skill_dir
    if skill_dir is None:
        return []
    links = []
    for reference in find_references(ctx.document):
        if escapes(reference, skill_dir) is not None:
            continue
        path = reference.resolve(skill_dir)
        if path.exists():
            links.append(Link(reference.span, path, f"Open {reference.target}"))
    return links


def definition(ctx: FeatureContext, offset: int) -> list[tuple[Path, Span | None]]:
    for link in document_links(ctx):
        if link.span.start <= offset <= link.span.end:
            return [(link.target, None)]
    if offset < ctx.document.body_offset:
        return []
    lines = ctx.document.lines
    line = lines.span_of_line(lines.line_of(offset))
    for match in _SKILL_REFERENCE.finditer(ctx.document.text, line.start, line.end):
        if match.start() <= offset <= match.end():
            return [(entry.path, None) for entry in ctx.index.named(match.group(1))]
    return []
