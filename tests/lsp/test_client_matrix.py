"""The client matrix: the feature tests of test_features.py, and an edit session (open, diagnostics,
apply a completion, diagnostics again, hover), once per further client — Neovim 0.7, Emacs eglot,
Helix, Zed and a push-only client (`MATRIX_PROFILES` in conftest.py; where each capability set
comes from: tests/lsp/capabilities/README.md).

VS Code and Neovim 0.11 run every end-to-end test already (conftest.py `PROFILES`); these clients
differ from them in what the server must adapt to: push or pull diagnostics, UTF-8, UTF-16 or
UTF-32 positions, snippets or plain text, work-done progress or none, `workspace/configuration`
or none (design: docs/design/lsp.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp import test_features
from tests.lsp.conftest import MATRIX_PROFILES, SERVER, start
from tests.lsp.helpers import (
    RecordingClient,
    change_document,
    diagnostics,
    diagnostics_until,
    encoding_of,
    open_document,
    position_of,
    pulls,
)

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    # eglot 29.1 and Helix render Markdown documentation but do not declare
    # `completionItem.documentationFormat`; the server sends Markdown unless a client lists formats
    # without it (wave_lsp/lsp/features.py `_markdown`), which pytest-lsp's check warns about
    pytest.mark.filterwarnings("ignore:Client does not support documentation format 'markdown'"),
]

#: every feature test of test_features.py, collected again here, where `client` is each matrix client
globals().update({name: test for name, test in vars(test_features).items()
                  if name.startswith("test_") and callable(test)})


@pytest_lsp.fixture(scope="module", params=MATRIX_PROFILES, config=SERVER)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest, workspace: Path):
    await start(lsp_client, request.param, workspace)
    yield
    await lsp_client.shutdown_session()


# -- what the server negotiated with each client ------------------------------------------------
#: (diagnostics pulled, position encoding) each client must get: pull only with refresh support,
#: the first encoding the client prefers among those the server speaks, else UTF-16
NEGOTIATED = {"neovim-0.7": (False, "utf-16"), "emacs-eglot": (False, "utf-32"),
              "helix": (False, "utf-8"), "zed": (True, "utf-16"), "push-only": (False, "utf-16")}


async def test_the_server_adapts_to_the_client(client: LanguageClient,
                                               request: pytest.FixtureRequest) -> None:
    profile = request.node.callspec.params["client"]
    assert (pulls(client), encoding_of(client)) == NEGOTIATED[profile]


# -- an edit session: open, diagnostics, apply a completion, diagnostics, hover -------------------
SESSION = "---\nname: applied\n\n---\n# Applied ✓ — ünïcode\n\nRun it.\n"


def expand(new_text: str, is_snippet: bool) -> str:
    """The text an editor inserts for a completion: a snippet with each field at its default (what
    the user sees before typing over it), plain text as is."""
    if not is_snippet:
        return new_text
    while True:
        replaced = re.sub(r"\$\{\d+:([^{}$]*)\}", r"\1", new_text)
        replaced = re.sub(r"\$\{\d+\}|\$\d+", "", replaced)
        if replaced == new_text:
            return re.sub(r"\\([$}\\])", r"\1", new_text)
        new_text = replaced


def offset_of(text: str, position: types.Position, encoding: str) -> int:
    """The string index of an LSP position given in `encoding` units (one past the line's end, or
    inside a character, fails)."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[:position.line])
    line, units, index = lines[position.line], 0, 0
    while units < position.character and index < len(line):
        character = line[index]
        units += {"utf-8": len(character.encode("utf-8")), "utf-32": 1}.get(
            encoding, len(character.encode("utf-16-le")) // 2)
        index += 1
    assert units == position.character, f"{position} is not a character boundary in {encoding}"
    return start + index


def apply_completion(text: str, item: types.CompletionItem, encoding: str) -> str:
    edit = item.text_edit
    assert isinstance(edit, types.TextEdit), item
    start = offset_of(text, edit.range.start, encoding)
    end = offset_of(text, edit.range.end, encoding)
    inserted = expand(edit.new_text, item.insert_text_format == types.InsertTextFormat.Snippet)
    return text[:start] + inserted + text[end:]


async def test_open_diagnose_apply_completion_and_hover(client: RecordingClient,
                                                         workspace: Path) -> None:
    path = workspace / ".wave/skills/applied/SKILL.md"
    uri = open_document(client, path, SESSION)
    missing = [d for d in await diagnostics(client, uri) if d.code == "SK050"]
    assert missing and missing[0].range.start == types.Position(0, 0), missing
    assert missing[0].severity == types.DiagnosticSeverity.Error and missing[0].source == "wave-lsp"

    encoding = encoding_of(client)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(SESSION, "\n\n---", 1, encoding)))
    items = result.items if isinstance(result, types.CompletionList) else result or []
    description = next(item for item in items if item.label == "description")
    assert client.declared is not None
    snippets = bool(client.declared.text_document and client.declared.text_document.completion
                    and client.declared.text_document.completion.completion_item
                    and client.declared.text_document.completion.completion_item.snippet_support)
    assert (description.insert_text_format == types.InsertTextFormat.Snippet) == snippets
    edited = apply_completion(SESSION, description, encoding)
    inserted = edited.split("\n")[2]
    assert inserted.startswith("description: ") and "$" not in inserted, edited

    change_document(client, uri, edited, version=2)
    remaining = await diagnostics_until(
        client, uri, lambda found: not any(d.code == "SK050" for d in found), version=2)
    assert [d for d in remaining if d.severity == types.DiagnosticSeverity.Error] == []

    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(edited, "description:", 2, encoding)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent), hover
    assert "when" in hover.contents.value.lower(), hover
    # the heading's selection range ends at its line's end, past non-ASCII text, in every encoding
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri))) or []
    heading = next(s for s in symbols if s.name.startswith("Applied"))
    line = edited.split("\n").index("# Applied ✓ — ünïcode")
    if isinstance(heading, types.DocumentSymbol):
        assert heading.selection_range.start == types.Position(line, 0)
        end = heading.selection_range.end
        assert end.line == line
        assert offset_of(edited, end, encoding) == edited.index("ünïcode") + len("ünïcode")
    else:  # flat symbols (clients without hierarchical support): the section starts at the heading
        assert heading.location.range.start == types.Position(line, 0)
