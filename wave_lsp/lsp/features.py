"""Request handlers for the editor features: each gets the analysis, asks the core, converts.

Completion, hover, code actions (the core's fixes plus "disable for this line/file"), document
symbols, document links, go to definition and code lenses. Core modules:
`wave_lsp.core.features.*`. In the files that mention skills without being skills (`CLAUDE.md`,
`AGENTS.md`, agent and command files), hover, definition and quick fixes come from
`wave_lsp.lsp.mention_files`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types

from wave_lsp.core.parsing.text import Span
from wave_lsp.lsp.server import COMPLETION_TRIGGERS, WaveLanguageServer, safe

if TYPE_CHECKING:
    from collections.abc import Sequence

    from wave_lsp.core.features import completion, symbols
    from wave_lsp.lsp import convert

_KINDS = {
    "field": types.CompletionItemKind.Property, "value": types.CompletionItemKind.EnumMember,
    "model": types.CompletionItemKind.EnumMember, "tool": types.CompletionItemKind.Function,
    "snippet": types.CompletionItemKind.Snippet, "variable": types.CompletionItemKind.Variable,
    "argument": types.CompletionItemKind.Variable, "skill": types.CompletionItemKind.Reference,
    "file": types.CompletionItemKind.File, "agent": types.CompletionItemKind.Class,
    "event": types.CompletionItemKind.Event,
}
_SNIPPET_FIELD = re.compile(r"\$\{\d+\|([^,|]*)[^}]*\|\}|\$\{\d+:((?:[^{}\\]|\\.)*)\}|\$\d+")


def plain_text(snippet: str) -> str:
    """A snippet's text with every placeholder replaced by its default (for clients without
    snippet support)."""
    def default(match: re.Match[str]) -> str:
        return match.group(1) if match.group(1) is not None else match.group(2) or ""

    previous = None
    while previous != snippet:
        previous, snippet = snippet, _SNIPPET_FIELD.sub(default, snippet)
    return re.sub(r"\\([$}\\,|])", r"\1", snippet)


def register(server: WaveLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=COMPLETION_TRIGGERS))
    @safe(lambda: types.CompletionList(is_incomplete=False, items=[]))
    def on_completion(ls: WaveLanguageServer, params: types.CompletionParams) -> types.CompletionList:
        analysis = ls.analysis(params.text_document.uri)
        if analysis is None:
            return types.CompletionList(is_incomplete=False, items=[])
        from wave_lsp.core.features import completion

        offset = analysis.positions.offset(params.position)
        snippets = ls.client_supports(
            "text_document.completion.completion_item.snippet_support", False)
        markdown = reads_markdown(
            ls, "text_document.completion.completion_item.documentation_format")
        insert_replace = ls.client_supports(
            "text_document.completion.completion_item.insert_replace_support", False)
        candidates = completion.complete(analysis.context, offset)
        text = analysis.context.document.text
        rest = _WORD_REST.match(text, offset)
        word_end = offset + (len(rest.group()) if rest else 0)
        items = [_completion_item(candidate, analysis.positions, snippets, markdown,
                                  word_end if insert_replace else None)
                 for candidate in candidates]
        skills = sum(1 for candidate in candidates if candidate.kind == "skill")
        return types.CompletionList(is_incomplete=skills >= completion.MAX_SKILL_CANDIDATES,
                                    items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @safe(lambda: None)
    def on_hover(ls: WaveLanguageServer, params: types.HoverParams) -> types.Hover | None:
        analysis = ls.analysis(params.text_document.uri)
        if analysis is None:  # a CLAUDE.md, AGENTS.md, agent or command file: its mentions
            from wave_lsp.lsp import mention_files

            mentioned = mention_files.hover(ls, params)
            if mentioned is None:
                return None
            return types.Hover(contents=markup_content(mentioned[0], reads_markdown(
                ls, "text_document.hover.content_format")), range=mentioned[1])
        from wave_lsp.core.features import hover

        found = hover.hover(analysis.context, analysis.positions.offset(params.position))
        if found is None:
            return None
        contents = markup_content(found.markdown,
                                  reads_markdown(ls, "text_document.hover.content_format"))
        return types.Hover(contents=contents, range=analysis.positions.range(found.span))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, PREVIEW_ACTION_KIND]))
    @safe(list)
    def on_code_action(ls: WaveLanguageServer,
                       params: types.CodeActionParams) -> list[types.CodeAction]:
        return _code_actions(ls, params)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @safe(list)
    def on_symbols(ls: WaveLanguageServer, params: types.DocumentSymbolParams
                   ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
        analysis = ls.analysis(params.text_document.uri)
        if analysis is None:
            return []
        from wave_lsp.core.features import symbols

        found = symbols.document_symbols(analysis.context.document)
        if ls.client_supports(
                "text_document.document_symbol.hierarchical_document_symbol_support", False):
            return [_document_symbol(symbol, analysis.positions) for symbol in found]
        return _flat_symbols(found, analysis.positions, params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions())
    @safe(list)
    def on_links(ls: WaveLanguageServer,
                 params: types.DocumentLinkParams) -> list[types.DocumentLink]:
        analysis = ls.analysis(params.text_document.uri)
        if analysis is None:
            return []
        from wave_lsp.core.features import navigation

        tooltips = ls.client_supports("text_document.document_link.tooltip_support", False)
        return [types.DocumentLink(range=analysis.positions.range(link.span),
                                   target=link.target.as_uri(),
                                   tooltip=link.tooltip if tooltips else None)
                for link in navigation.document_links(analysis.context)]

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @safe(list)
    def on_definition(ls: WaveLanguageServer,
                      params: types.DefinitionParams) -> list[types.Location]:
        analysis = ls.analysis(params.text_document.uri)
        if analysis is None:
            from wave_lsp.lsp import mention_files

            return mention_files.definition(ls, params)
        from wave_lsp.core.features import navigation

        offset = analysis.positions.offset(params.position)
        start = types.Range(types.Position(0, 0), types.Position(0, 0))
        found = [types.Location(uri=path.as_uri(), range=start)
                 for path, _span in navigation.definition(analysis.context, offset)]
        if not found:  # `` `other-skill` `` or a link to another skill's folder
            from wave_lsp.lsp import mention_files

            found = mention_files.definition(ls, params, skills_too=True)
        return found

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    @safe(list)
    def on_code_lens(ls: WaveLanguageServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        analysis = ls.analysis(params.text_document.uri)
        if analysis is None:
            return []
        from wave_lsp.core.features import lens

        return [types.CodeLens(range=analysis.positions.range(item.span),
                               command=types.Command(title=item.title, command=item.command,
                                                     arguments=item.arguments or None))
                for item in lens.code_lenses(analysis.context, params.text_document.uri)]


def reads_markdown(ls: WaveLanguageServer, capability: str) -> bool:
    """The client renders Markdown where `capability` (a list of markup kinds) applies; a client
    that does not say is given Markdown."""
    formats = ls.client_supports(capability, None)
    return formats is None or types.MarkupKind.Markdown in formats


def markup_content(markdown: str, client_reads_markdown: bool) -> types.MarkupContent:
    """Markdown for clients that render it, the same words as plain text for the others."""
    if client_reads_markdown:
        return types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown)
    from wave_lsp.core.features.markup import plain_text as plain

    return types.MarkupContent(kind=types.MarkupKind.PlainText, value=plain(markdown))


#: the rest of the word after the cursor, which an insert-replace completion may replace
_WORD_REST = re.compile(r"[\w.-]*")


def _completion_item(candidate: completion.Candidate, positions: convert.Positions,
                     snippets: bool, markdown: bool, word_end: int | None) -> types.CompletionItem:
    """`word_end`: where the word under the cursor ends, for clients that support
    `InsertReplaceEdit` (None: a plain text edit over what was typed)."""
    text = candidate.insert_text if candidate.insert_text is not None else candidate.label
    use_snippet = candidate.snippet and snippets
    if candidate.snippet and not snippets:
        text = plain_text(text)
    documentation = (markup_content(candidate.documentation, markdown)
                     if candidate.documentation else None)
    inserted = positions.range(candidate.replace)
    edit: types.TextEdit | types.InsertReplaceEdit = types.TextEdit(range=inserted, new_text=text)
    if word_end is not None and word_end > candidate.replace.end:
        replaced = positions.range(Span(candidate.replace.start, word_end))
        edit = types.InsertReplaceEdit(new_text=text, insert=inserted, replace=replaced)
    return types.CompletionItem(
        label=candidate.label, kind=_KINDS.get(candidate.kind), detail=candidate.detail or None,
        documentation=documentation, sort_text=candidate.sort_text,
        filter_text=candidate.filter_text, text_edit=edit,
        insert_text_format=(types.InsertTextFormat.Snippet if use_snippet
                            else types.InsertTextFormat.PlainText))


def _code_actions(ls: WaveLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    from wave_lsp.core.features import actions
    from wave_lsp.lsp import convert

    uri = params.text_document.uri
    analysis = ls.analysis(uri)
    if analysis is None:
        from wave_lsp.lsp import mention_files

        wanted = _wanted(params.context.only, types.CodeActionKind.QuickFix)
        return mention_files.code_actions(ls, params) if wanted else []
    positions = analysis.positions
    start, end = positions.offset(params.range.start), positions.offset(params.range.end)
    document = ls.workspace.text_documents.get(uri)
    version = document.version if document else None
    changes = ls.client_supports("workspace.workspace_edit.document_changes", False)
    result = []
    only = params.context.only
    for finding in analysis.report.findings if _wanted(only, types.CodeActionKind.QuickFix) else ():
        if finding.span.end < start or finding.span.start > end:
            continue
        diagnostic = convert.diagnostic(finding, positions, uri)
        fixes = [(fix, True) for fix in finding.fixes]
        fixes += [(fix, False) for fix in actions.suppression_fixes(analysis.context.document,
                                                                      finding)]
        for fix, quick in fixes:
            edit = convert.workspace_edit(uri, version, convert.text_edits(fix.edits, positions),
                                          changes)
            result.append(types.CodeAction(
                title=fix.title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                is_preferred=fix.preferred if quick else None, edit=edit))
    if _wanted(only, PREVIEW_ACTION_KIND):
        # the preview for every client, also those without code lenses (Neovim, Emacs, Helix…)
        from wave_lsp.core.features.lens import PREVIEW_COMMAND

        result.append(types.CodeAction(
            title="Preview skill invocation (what the model receives)", kind=PREVIEW_ACTION_KIND,
            command=types.Command(title="Preview invocation", command=PREVIEW_COMMAND,
                                  arguments=[{"uri": uri, "arguments": "", "mode": "dry-run"}])))
    return result


#: the preview's code action kind: a source action on the whole skill
PREVIEW_ACTION_KIND = f"{types.CodeActionKind.Source.value}.preview"


def _wanted(only: Sequence[types.CodeActionKind | str] | None,
            kind: types.CodeActionKind | str) -> bool:
    """The client asked for every kind, or for this kind or one it belongs to (`source`)."""
    def value(item: types.CodeActionKind | str) -> str:
        return item.value if isinstance(item, types.CodeActionKind) else item

    name = value(kind)
    return only is None or any(name == value(wanted) or name.startswith(f"{value(wanted)}.")
                               for wanted in only)


_SYMBOL_KINDS = {"field": types.SymbolKind.Property, "key": types.SymbolKind.Key,
                 "heading": types.SymbolKind.String}


def _document_symbol(symbol: symbols.Symbol, positions: convert.Positions) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=symbol.name or " ", kind=_SYMBOL_KINDS[symbol.kind], range=positions.range(symbol.span),
        selection_range=positions.range(symbol.selection), detail=symbol.detail or None,
        children=[_document_symbol(child, positions) for child in symbol.children] or None)


def _flat_symbols(found: list[symbols.Symbol], positions: convert.Positions, uri: str,
                  container: str | None) -> list[types.SymbolInformation]:
    result = []
    for symbol in found:
        result.append(types.SymbolInformation(
            name=symbol.name or " ", kind=_SYMBOL_KINDS[symbol.kind],
            location=types.Location(uri=uri, range=positions.range(symbol.span)),
            container_name=container))
        result += _flat_symbols(symbol.children, positions, uri, symbol.name)
    return result
