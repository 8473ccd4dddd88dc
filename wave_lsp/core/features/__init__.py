"""Editor features computed by the pure core: completion, hover, symbols, links, lenses, actions.

Each module answers one question about a document at an offset and returns plain dataclasses in
document offsets; the language server only converts them to the protocol (one module per feature,
as vscode-markdown-languageservice does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.index import SkillIndex
from wave_lsp.core.workspace.location import SkillLocation, locate


@dataclass(slots=True)
class FeatureContext:
    """Everything a feature may look at besides the offset."""

    document: SkillDocument
    location: SkillLocation
    settings: Settings = field(default_factory=Settings)
    index: SkillIndex = field(default_factory=SkillIndex)

    @property
    def profile(self) -> RuntimeProfile:
        return self.settings.profile

    @staticmethod
    def for_text(text: str, path: Path | None, settings: Settings | None = None,
                 index: SkillIndex | None = None) -> FeatureContext:
        settings = settings or Settings()
        return FeatureContext(SkillDocument.from_text(text), locate(path, home=settings.home),
                              settings, index or SkillIndex())


def match_at(ctx: FeatureContext, pattern: re.Pattern[str], offset: int,
             body_only: bool = True) -> re.Match[str] | None:
    """The match of `pattern` on the offset's line that contains the offset."""
    document = ctx.document
    if body_only and offset < document.body_offset:
        return None
    line = document.lines.span_of_line(document.lines.line_of(offset))
    return next((m for m in pattern.finditer(document.text, line.start, line.end)
                 if m.start() <= offset < m.end()), None)
