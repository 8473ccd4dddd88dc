"""The three position encodings, negotiated at `initialize` and used both ways (diagnostic ranges
out, request positions in), with Chinese text, emoji and a byte-order mark before the finding."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.lsp.conftest import SERVER, make_workspace, start
from tests.lsp.helpers import diagnostics, open_document, position_of

TEXT = "---\nname: enc\ndescription: 中文😀🎉 说明 <tag>. Use when asked.\n---\n# 标题😀\n"


@pytest_lsp.fixture(params=["utf-8", "utf-16", "utf-32"], config=SERVER)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest, tmp_path: Path):
    capabilities = client_capabilities("visual-studio-code")
    capabilities = attrs.evolve(capabilities, general=types.GeneralClientCapabilities(
        position_encodings=[request.param]))
    await start(lsp_client, capabilities, make_workspace(tmp_path))
    lsp_client.encoding = request.param
    yield
    await lsp_client.shutdown_session()


async def test_encoding_is_negotiated(client: LanguageClient) -> None:
    assert client.initialize_result.capabilities.position_encoding == client.encoding


async def test_diagnostic_ranges_and_hover_positions(client: LanguageClient, tmp_path: Path) -> None:
    uri = open_document(client, tmp_path / ".wave/skills/enc/SKILL.md", TEXT)
    found = [d for d in await diagnostics(client, uri) if d.code == "SK054"]
    assert found[0].range.start == position_of(TEXT, "<tag>", 0, client.encoding)
    # a request position in the client's units lands on the right character
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(TEXT, "description", 3, client.encoding)))
    assert hover is not None and "description" in hover.contents.value
    assert hover.range.start == types.Position(2, 0)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    heading = next(s for s in symbols if s.name == "标题😀")
    assert heading.selection_range.end == position_of(TEXT, "标题😀", len("标题😀"), client.encoding)


async def test_byte_order_mark_in_the_client_text(client: LanguageClient, tmp_path: Path) -> None:
    text = "\ufeff" + TEXT.replace("name: enc", "name: bom")
    uri = open_document(client, tmp_path / ".wave/skills/bom/SKILL.md", text)
    found = {d.code: d for d in await diagnostics(client, uri)}
    assert found["SK054"].range.start == position_of(text, "<tag>", 0, client.encoding)
    assert "SK004" in found
    # the finding marks the `---` right after the mark, which the client counts
    assert found["SK004"].range.start == position_of(text, "---", 0, client.encoding)
