"""Find-references of a skill, and the files outside SKILL.md that mention skills: `CLAUDE.md`,
`AGENTS.md`, `.claude/agents/*.md`, `.claude/commands/*.md` and plugin manifests
(docs/features/references.md).

`textDocument/references` on a skill (its `name:` value or first heading in its SKILL.md, or a
mention anywhere) answers every mention in the workspace, and the declaration when the client asks
for it. In the mention files, which are not skills and get no skill analysis, this module answers
the diagnostics (SK152, pushed or pulled as for skills), hover, go-to-definition, the quick fix
and where a rename starts. The core (`wave_lsp.core.features.skill_references`) does the work in
file offsets; this module converts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.uris import to_fs_path

from wave_lsp.lsp.server import WaveLanguageServer, safe

if TYPE_CHECKING:
    from wave_lsp.core.features.rename import RenameTarget
    from wave_lsp.core.features.skill_references import MentionText, Place
    from wave_lsp.lsp.convert import Positions


def register(server: WaveLanguageServer) -> None:
    server.publish_other = publish

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @safe(list)
    def on_references(ls: WaveLanguageServer,
                      params: types.ReferenceParams) -> list[types.Location]:
        return references(ls, params)


# -- reading ----------------------------------------------------------------------------------------
def path_of(uri: str) -> Path | None:
    text = to_fs_path(uri)
    return Path(text) if text else None


def open_texts(ls: WaveLanguageServer) -> dict[Path, str]:
    """The open documents' texts by real path (they win over the disk)."""
    found = {}
    for uri, document in ls.workspace.text_documents.items():
        path = path_of(uri)
        if path is not None:
            found[Path(os.path.realpath(path))] = document.source
    return found


def reader(ls: WaveLanguageServer) -> Any:
    """A `read(path)` that gives an open document's text, else the file's."""
    from wave_lsp.core.features.skill_references import read_from_disk

    texts = open_texts(ls)

    def read(path: Path) -> str | None:
        text = texts.get(Path(os.path.realpath(path)))
        return text if text is not None else read_from_disk(path)
    return read


def text_of(ls: WaveLanguageServer, uri: str) -> tuple[Path, str] | None:
    path = path_of(uri)
    if path is None:
        return None
    document = ls.workspace.text_documents.get(uri)
    if document is not None:
        return path, document.source
    from wave_lsp.core.features.skill_references import read_from_disk

    text = read_from_disk(path)
    return None if text is None else (path, text)


def mention_text(ls: WaveLanguageServer, uri: str, skills_too: bool = False
                 ) -> tuple[MentionText, Positions] | None:
    """The mentions of a memory, agent, command or manifest file (with `skills_too`, of a
    SKILL.md too); None for any other file."""
    from wave_lsp.core.features.skill_references import known_names, read_mentions
    from wave_lsp.core.workspace.discovery import file_kind
    from wave_lsp.lsp.convert import Positions

    found = text_of(ls, uri)
    kind = file_kind(found[0]) if found is not None else None
    if found is None or kind is None or (kind == "skill" and not skills_too):
        return None
    path, text = found
    mentions = read_mentions(path, text, known_names(ls.state.index))
    return mentions, Positions(mentions.lines, ls.encoding, mentions.bom)


def is_mention_uri(uri: str) -> bool:
    from wave_lsp.core.workspace.discovery import is_diagnosed

    path = path_of(uri)
    return path is not None and is_diagnosed(path)


# -- diagnostics --------------------------------------------------------------------------------------
def findings(ls: WaveLanguageServer, uri: str) -> tuple[list[Any], Positions] | None:
    """The SK152 findings of a memory, agent or command file (None for another file)."""
    from wave_lsp.core.features.skill_references import (
        command_names,
        mention_findings,
        mention_settings,
    )

    if not is_mention_uri(uri):
        return None
    found = mention_text(ls, uri)
    if found is None:
        return None
    mentions, positions = found
    if not ls.index_ready.is_set():  # every skill would look unknown: the refresh after indexing
        return [], positions         # publishes the findings
    settings = mention_settings(mentions.path, ls.state.settings_for(mentions.path, per_file=False))
    index = ls.state.index
    commands = command_names(index.folders, index.home)
    return mention_findings(mentions, index, settings, commands), positions


def diagnostics(ls: WaveLanguageServer, uri: str) -> list[types.Diagnostic] | None:
    from wave_lsp.lsp import convert

    found = findings(ls, uri)
    if found is None:
        return None
    return [convert.diagnostic(finding, found[1], uri) for finding in found[0]]


def publish(ls: WaveLanguageServer, uri: str) -> bool:
    """Push a mention file's diagnostics (push clients); False when `uri` is no mention file."""
    found = diagnostics(ls, uri)
    if found is None:
        return False
    document = ls.workspace.text_documents.get(uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, diagnostics=found, version=document.version if document else None))
    return True


def code_actions(ls: WaveLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """The quick fixes of the SK152 findings in the requested range."""
    from wave_lsp.lsp import convert

    uri = params.text_document.uri
    found = findings(ls, uri)
    if found is None:
        return []
    items, positions = found
    start, end = positions.offset(params.range.start), positions.offset(params.range.end)
    document = ls.workspace.text_documents.get(uri)
    version = document.version if document else None
    changes = ls.client_supports("workspace.workspace_edit.document_changes", False)
    actions = []
    for finding in items:
        if finding.span.end < start or finding.span.start > end:
            continue
        diagnostic = convert.diagnostic(finding, positions, uri)
        for fix in finding.fixes:
            edit = convert.workspace_edit(uri, version, convert.text_edits(fix.edits, positions),
                                          changes)
            actions.append(types.CodeAction(title=fix.title, kind=types.CodeActionKind.QuickFix,
                                            diagnostics=[diagnostic], is_preferred=fix.preferred,
                                            edit=edit))
    return actions


# -- hover, definition --------------------------------------------------------------------------------
def _mention_at(ls: WaveLanguageServer, uri: str, position: types.Position,
                skills_too: bool = False) -> Any:
    """(mention, skills it names, positions) under the cursor of a mention file (with
    `skills_too`, of a SKILL.md too), or None."""
    from wave_lsp.core.features.mentions import mention_at
    from wave_lsp.core.features.skill_references import skills_of

    found = mention_text(ls, uri, skills_too)
    if found is None:
        return None
    mentions, positions = found
    mention = mention_at(list(mentions.mentions), positions.offset(position))
    if mention is None:
        return None
    return mention, skills_of(mention, ls.state.index, mentions.path), positions


def hover(ls: WaveLanguageServer, params: types.HoverParams) -> tuple[str, types.Range] | None:
    """The hover of a mention in a mention file: its Markdown and range."""
    from wave_lsp.core.features.skill_references import hover_markdown

    found = _mention_at(ls, params.text_document.uri, params.position)
    if found is None or not found[1]:
        return None
    mention, entries, positions = found
    return hover_markdown(entries), positions.range(mention.span)


def definition(ls: WaveLanguageServer, params: types.DefinitionParams,
               skills_too: bool = False) -> list[types.Location]:
    """The SKILL.md of the skills a mention names (in a SKILL.md too with `skills_too`: its
    `` `name` `` and link mentions, which the body's own definition does not follow)."""
    found = _mention_at(ls, params.text_document.uri, params.position, skills_too)
    if found is None:
        return []
    start = types.Range(types.Position(0, 0), types.Position(0, 0))
    return [types.Location(uri=entry.path.as_uri(), range=start) for entry in found[1]]


# -- references ---------------------------------------------------------------------------------------
def references(ls: WaveLanguageServer, params: types.ReferenceParams) -> list[types.Location]:
    """Every mention of the skill at the cursor (a SKILL.md's `name:` value or first heading, or
    a mention in any file), and its declaration when the client asks for it."""
    from wave_lsp.core.features import skill_references as core
    from wave_lsp.core.parsing.text import LineIndex
    from wave_lsp.lsp.convert import Positions

    found = text_of(ls, params.text_document.uri)
    if found is None:
        return []
    path, text = found
    bom = text.startswith("\ufeff")
    body = text[1:] if bom else text
    offset = Positions(LineIndex(body), ls.encoding, bom).offset(params.position)
    index = ls.state.index
    skills = core.skill_at(path, body, offset, index)
    read = reader(ls)
    places: list[Place] = []
    for skill in skills:
        if params.context.include_declaration:
            declared = core.declaration(skill, read)
            if declared is not None:
                places.append(declared)
        places += core.references(skill, index, read)
    return _locations(ls, places)


def _locations(ls: WaveLanguageServer, places: list[Place]) -> list[types.Location]:
    from wave_lsp.lsp.convert import Positions

    open_uris = {Path(os.path.realpath(p)): uri for uri in ls.workspace.text_documents
                 if (p := path_of(uri)) is not None}
    seen: set[tuple[str, int, int]] = set()
    result = []
    for place in places:
        uri = open_uris.get(Path(os.path.realpath(place.path)), place.path.as_uri())
        key = (uri, place.span.start, place.span.end)
        if key in seen:
            continue
        seen.add(key)
        positions = Positions(place.lines, ls.encoding, place.bom)
        result.append(types.Location(uri=uri, range=positions.range(place.span)))
    return result


# -- rename -------------------------------------------------------------------------------------------
def rename_target(ls: WaveLanguageServer, uri: str, position: types.Position
                  ) -> tuple[RenameTarget, Positions] | None:
    """Where a rename starts in a mention file: a mention of exactly one skill (RenameError when
    it names several)."""
    from wave_lsp.core.features.rename import RenameError, RenameTarget
    from wave_lsp.core.parsing.text import Span

    found = _mention_at(ls, uri, position)
    if found is None or not found[1]:
        return None
    mention, entries, positions = found
    if len(entries) > 1:
        places = ", ".join(str(entry.path) for entry in entries)
        raise RenameError(f"Several skills are named `{mention.invoked}` ({places}): rename the "
                          "one you mean from the `name:` of its SKILL.md.")
    span = Span(mention.name_span.start, mention.name_span.end)
    return RenameTarget(span, mention.name, entries[0].path), positions
