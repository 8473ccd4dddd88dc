"""Random edit sessions through a real client: incremental edits at random places (CJK, emoji,
CRLF included), opens and closes. After every edit the server publishes for that version, every
range is valid in the client's current text, and at the end the server's findings equal the core's
for the client's text — so the server's view of the document is the client's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, make_workspace, start
from tests.lsp.helpers import diagnostics, encoding_of, open_document
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings

PIECES = ["name: x\n", "description: 说明😀 <b>\n", "---\n", "\r\n", "allowed-tools: Bash\n",
          "!`git status`\n", "$1 ", "${WAVE_SKILL_DIR}/x ", "# 标题\n", "  - Read\n", "a: b: c\n",
          "\t", "😀", "é", "[x](missing.md) ", "```\n", ""]
START = "---\nname: session\ndescription: Edits text. Use when asked.\n---\n# Body\n"


def units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def position(text: str, offset: int, encoding: str) -> types.Position:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return types.Position(line, units(text[start:offset], encoding))


def valid(text: str, rng: types.Range, encoding: str) -> bool:
    lines = text.split("\n")
    for point in (rng.start, rng.end):
        if point.line >= len(lines):
            return point.line == len(lines) and point.character == 0
        content = lines[point.line].rstrip("\r")
        if point.character > units(content, encoding):
            return False
    return (rng.start.line, rng.start.character) <= (rng.end.line, rng.end.character)


def safe_offset(text: str, rng: random.Random) -> int:
    """A random offset that does not split a `\\r\\n` pair."""
    offset = rng.randint(0, len(text))
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        offset -= 1
    return offset


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"], config=SERVER)
async def client(lsp_client: LanguageClient, request, tmp_path: Path):
    await start(lsp_client, request.param, make_workspace(tmp_path))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_random_edit_session(client: LanguageClient, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    encoding = encoding_of(client)
    path = tmp_path / ".wave/skills/session/SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    other = open_document(client, tmp_path / ".wave/skills/other-open/SKILL.md", START)
    text = START
    uri = open_document(client, path, text)
    await diagnostics(client, uri, 1)
    version = 1
    for step in range(25):
        start = safe_offset(text, rng)
        end = min(len(text), start + rng.choice([0, 0, 1, 3]))
        if end < len(text) and end > 0 and text[end - 1] == "\r" and text[end] == "\n":
            end += 1
        inserted = rng.choice(PIECES)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(position(text, start, encoding), position(text, end, encoding)),
            text=inserted)
        text = text[:start] + inserted + text[end:]
        version += 1
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[change]))
        found = await diagnostics(client, uri, version)
        for diagnostic in found:
            assert valid(text, diagnostic.range, encoding), (step, diagnostic, text)
        if step % 10 == 5:  # close and reopen the other document meanwhile
            client.text_document_did_close(types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=other)))
            other = open_document(client, tmp_path / ".wave/skills/other-open/SKILL.md", START)
    # still answering requests after the session
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert symbols is not None
    # the server's findings for the last version are the core's for the client's text
    path.write_text(text, "utf-8", errors="surrogatepass")
    expected = check_file(path, Settings(personal=False), text=text)
    assert sorted((d.code, d.message) for d in found) == sorted(
        (f.code, f.message) for f in expected.findings)
