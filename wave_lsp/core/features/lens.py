"""Code lenses on the frontmatter (docs/design/product.md *Language server*, code lens).

The first line shows what the skill costs while it is *not* being used: its entry in the model's
skill listing is resident in every conversation — or, for a skill the target does not load at all
(docs/design/rules.md *Does it load?*), that it is not listed and which finding stops it. A second
lens offers the invocation preview.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wave_lsp.core.features import FeatureContext
from wave_lsp.core.invocation.listing import runtime_listing_entry
from wave_lsp.core.parsing.text import Span

PREVIEW_COMMAND = "wave.previewInvocation"


@dataclass(frozen=True, slots=True)
class Lens:
    span: Span
    title: str
    command: str = ""
    arguments: list[Any] = field(default_factory=list)


def listing_cost(ctx: FeatureContext) -> Lens:
    from wave_lsp.core.checking.loading import load_verdict

    first_line = ctx.document.lines.span_of_line(0)
    verdict = load_verdict(ctx.document, ctx.location, ctx.profile)
    if not verdict.loads:
        stop = verdict.stopped_by
        where = f" on line {stop.range.start.line + 1}" if stop and stop.range else ""
        because = f": fix {stop.code}{where} to list it" if stop else ""
        return Lens(first_line, f"Not loaded by {ctx.profile.runtime}{because}; "
                                "not in the model's skill listing, so no resident tokens")
    entry = runtime_listing_entry(ctx.document, ctx.location, ctx.profile)
    if not entry.model_invocable:
        return Lens(first_line, "Not in the model's skill listing (disable-model-invocation): "
                                "costs no resident tokens")
    cut = ", cut at 1,536 characters" if entry.truncated else ""
    return Lens(first_line, f"Listing entry: ~{entry.tokens:,} tokens ({entry.chars:,} characters"
                            f"{cut}) resident in every conversation")


def code_lenses(ctx: FeatureContext, uri: str) -> list[Lens]:
    lenses = [listing_cost(ctx)]
    lenses.append(Lens(ctx.document.lines.span_of_line(0), "Preview invocation", PREVIEW_COMMAND,
                       [{"uri": uri, "arguments": "", "mode": "dry-run"}]))
    return lenses
