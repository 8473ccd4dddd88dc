"""Inlay hints (`textDocument/inlayHint`) and semantic tokens (`textDocument/semanticTokens/full`
and `/range`): the core's answers (`wave_lsp.core.features.inlay`, `.tokens`) in protocol form
(docs/design/lsp.md *Inlay hints and semantic tokens*).

The legend is declared once, here, with standard token types and modifiers so that every theme
colours them: an injection's markers are `macro`, its command `function`, a `${…}` placeholder a
`variable` (`readonly`, `defaultLibrary` for the runtime's own), an argument placeholder a
`parameter` (`defaultLibrary` for `$ARGUMENTS` and `$N`). Tooltips follow the client's hover
format (Markdown or plain text), as the hovers do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from wave_lsp.core.parsing.text import Span
from wave_lsp.lsp.convert import semantic_token_data
from wave_lsp.lsp.features import markup_content, reads_markdown
from wave_lsp.lsp.server import WaveLanguageServer, safe

if TYPE_CHECKING:  # the feature modules load on the first request (docs/design/lsp.md)
    from wave_lsp.core.features.inlay import HintKind, InlayHint
    from wave_lsp.core.features.tokens import Token, TokenKind, TokenModifier

_TOKEN_TYPES: dict[TokenKind, str] = {
    "marker": types.SemanticTokenTypes.Macro, "command": types.SemanticTokenTypes.Function,
    "variable": types.SemanticTokenTypes.Variable, "argument": types.SemanticTokenTypes.Parameter,
}
_TOKEN_MODIFIERS: dict[TokenModifier, str] = {
    "readonly": types.SemanticTokenModifiers.Readonly,
    "builtin": types.SemanticTokenModifiers.DefaultLibrary,
}
LEGEND = types.SemanticTokensLegend(token_types=list(_TOKEN_TYPES.values()),
                                    token_modifiers=list(_TOKEN_MODIFIERS.values()))
_TYPE_INDEX = {kind: index for index, kind in enumerate(_TOKEN_TYPES)}
_MODIFIER_BIT = {modifier: 1 << index for index, modifier in enumerate(_TOKEN_MODIFIERS)}
_HINT_KINDS: dict[HintKind, types.InlayHintKind | None] = {
    "argument": types.InlayHintKind.Parameter, "value": None, "permission": None}


def register(server: WaveLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    @safe(list)
    def on_inlay_hint(ls: WaveLanguageServer,
                      params: types.InlayHintParams) -> list[types.InlayHint]:
        analysis = ls.analysis(params.text_document.uri)
        if analysis is None:
            return []
        from wave_lsp.core.features.inlay import inlay_hints

        positions = analysis.positions
        within = Span(positions.offset(params.range.start), positions.offset(params.range.end))
        markdown = reads_markdown(ls, "text_document.hover.content_format")
        hints = inlay_hints(analysis.context, within)
        return [_inlay_hint(hint, position, markdown) for hint, position
                in zip(hints, positions.many(hint.offset for hint in hints), strict=True)]

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    @safe(lambda: types.SemanticTokens(data=[]))
    def on_tokens(ls: WaveLanguageServer,
                  params: types.SemanticTokensParams) -> types.SemanticTokens:
        return _tokens(ls, params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, LEGEND)
    @safe(lambda: types.SemanticTokens(data=[]))
    def on_tokens_range(ls: WaveLanguageServer,
                        params: types.SemanticTokensRangeParams) -> types.SemanticTokens:
        return _tokens(ls, params.text_document.uri, params.range)


def _inlay_hint(hint: InlayHint, position: types.Position, markdown: bool) -> types.InlayHint:
    tooltip = markup_content(hint.tooltip, markdown) if markdown else \
        markup_content(hint.tooltip, markdown).value
    return types.InlayHint(position=position, label=hint.label,
                           kind=_HINT_KINDS[hint.kind], tooltip=tooltip, padding_left=True)


def _tokens(ls: WaveLanguageServer, uri: str, within: types.Range | None) -> types.SemanticTokens:
    analysis = ls.analysis(uri)
    if analysis is None:
        return types.SemanticTokens(data=[])
    from wave_lsp.core.features.tokens import semantic_tokens

    positions = analysis.positions
    span = (Span(positions.offset(within.start), positions.offset(within.end))
            if within is not None else None)
    found = semantic_tokens(analysis.context, span)
    return types.SemanticTokens(data=semantic_token_data(
        ((token.span, _TYPE_INDEX[token.kind], _modifier_bits(token)) for token in found),
        positions))


def _modifier_bits(token: Token) -> int:
    return sum(_MODIFIER_BIT[modifier] for modifier in token.modifiers)
