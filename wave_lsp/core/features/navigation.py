"""Document links and go-to-definition (docs/design/product.md *Language server*).

Links: every file reference of the body (`wave_lsp.core.parsing.file_references`) that exists inside the skill
folder. Definition: on a file reference, the file; on `/skill-name`, that skill's SKILL.md (every
skill of that name when several exist).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from wave_lsp.core.features import FeatureContext, match_at
from wave_lsp.core.parsing.file_references import escapes, find_references
from wave_lsp.core.parsing.text import Span

#: `/skill-name` at the start of a line or after white space
SKILL_REFERENCE = re.compile(r"(?:^|(?<=\s))/([a-z0-9][\w:-]*)", re.M)


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
    match = match_at(ctx, SKILL_REFERENCE, offset)
    if match is None:
        return []
    return [(entry.path, None) for entry in ctx.index.named(match.group(1))]
