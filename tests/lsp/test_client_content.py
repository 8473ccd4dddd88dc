"""What each client is sent depends on what it declared: plain text for clients without Markdown,
`InsertReplaceEdit` for clients that support it, and completion lists filtered by what is typed,
with a filter text and a stable sort text on every item (docs/design/lsp.md)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.lsp.conftest import SERVER, make_workspace, start
from tests.lsp.helpers import answer, encoding_of, open_document, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")


def _plain_text_client() -> types.ClientCapabilities:
    """Neovim's capabilities, but reading only plain text and supporting insert/replace edits."""
    capabilities = copy.deepcopy(client_capabilities("neovim"))
    document = capabilities.text_document
    assert document is not None and document.hover is not None
    assert document.completion is not None and document.completion.completion_item is not None
    document.hover.content_format = [types.MarkupKind.PlainText]
    document.completion.completion_item.documentation_format = [types.MarkupKind.PlainText]
    document.completion.completion_item.insert_replace_support = True
    return capabilities


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_workspace(tmp_path_factory.mktemp("content"))
    spaced = root / ".wave/skills/team notes/SKILL.md"
    spaced.parent.mkdir(parents=True)
    spaced.write_text("---\nname: Team Notes\ndescription: Notes. Use when asked.\n---\n", "utf-8")
    return root


@pytest_lsp.fixture(scope="module", config=SERVER)
async def plain(lsp_client: LanguageClient, root: Path):
    await start(lsp_client, _plain_text_client(), root)
    yield
    await lsp_client.shutdown_session()


TEXT = """---
name: demo
description: Runs the demo. Use when the user asks for a demo.
effort: hi
context: forkx
---
Use ${CLAUDE_SKILL_DIR}/scripts/run.sh and /
"""


async def _complete(client: LanguageClient, uri: str, needle: str, offset: int):
    position = position_of(TEXT, needle, offset, encoding_of(client))
    result = await answer(client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position)), "completion")
    return list(result.items)


async def test_hover_is_plain_text_for_a_plain_text_client(plain: LanguageClient,
                                                           root: Path) -> None:
    uri = open_document(plain, root / ".wave/skills/demo/SKILL.md", TEXT)
    position = position_of(TEXT, "${CLAUDE_SKILL_DIR}", 3, encoding_of(plain))
    hover = await answer(plain.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position)), "hover")
    assert hover is not None
    assert hover.contents.kind == types.MarkupKind.PlainText
    assert "`" not in hover.contents.value and "**" not in hover.contents.value
    assert "${CLAUDE_SKILL_DIR}" in hover.contents.value


async def test_inlay_hint_tooltips_are_plain_text_for_a_plain_text_client(plain: LanguageClient,
                                                                         root: Path) -> None:
    uri = open_document(plain, root / ".wave/skills/demo/SKILL.md", TEXT)
    hints = await answer(plain.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(types.Position(0, 0), types.Position(TEXT.count("\n"), 0)))), "inlayHint")
    (hint,) = hints
    assert hint.position == position_of(TEXT, "${CLAUDE_SKILL_DIR}", len("${CLAUDE_SKILL_DIR}"),
                                        encoding_of(plain))
    # the same words as the Markdown tooltip, as a plain string
    assert isinstance(hint.tooltip, str)
    assert "`" not in hint.tooltip and "Resolves to /" in hint.tooltip


async def test_completion_is_filtered_and_ordered(plain: LanguageClient, root: Path) -> None:
    uri = open_document(plain, root / ".wave/skills/demo/SKILL.md", TEXT)
    items = await _complete(plain, uri, "effort: hi", len("effort: hi"))
    labels = [item.label for item in items]
    assert "high" in labels and "low" not in labels  # filtered by the typed `hi`
    assert all(item.filter_text and item.sort_text for item in items)
    assert [item.sort_text for item in items] == sorted(item.sort_text for item in items)
    documented = [item for item in items if item.documentation is not None]
    assert all(item.documentation.kind == types.MarkupKind.PlainText for item in documented)


async def test_completion_in_a_word_replaces_the_rest_when_supported(plain: LanguageClient,
                                                                     root: Path) -> None:
    uri = open_document(plain, root / ".wave/skills/demo/SKILL.md", TEXT)
    items = await _complete(plain, uri, "context: fork", len("context: fo"))
    fork = next(item for item in items if item.label == "fork")
    edit = fork.text_edit
    assert isinstance(edit, types.InsertReplaceEdit)
    assert edit.insert.end.character == len("context: fo")
    assert edit.replace.end.character == len("context: forkx")


async def test_skill_names_with_spaces_are_not_offered_after_a_slash(plain: LanguageClient,
                                                                     root: Path) -> None:
    uri = open_document(plain, root / ".wave/skills/demo/SKILL.md", TEXT)
    items = await _complete(plain, uri, "and /", len("and /"))
    labels = {item.label for item in items}
    assert "/other" in labels
    assert not any(" " in label for label in labels)
