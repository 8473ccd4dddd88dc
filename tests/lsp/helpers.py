"""Client-side helpers for the end-to-end tests: open, edit, get diagnostics (push or pull)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient


def pulls(client: LanguageClient) -> bool:
    """The server offered pull diagnostics to this client (so it pushes none)."""
    return client.initialize_result.capabilities.diagnostic_provider is not None


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1,
                  language_id: str = "markdown") -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id=language_id, version=version, text=text)))
    return uri


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def diagnostics(client: LanguageClient, uri: str, version: int = 1) -> list[types.Diagnostic]:
    """The document's diagnostics, pulled or waited for, whichever the client does."""
    if pulls(client):
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        assert report.kind == "full"
        return list(report.items)
    for _ in range(50):
        params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri and params.version == version:
            return list(params.diagnostics)
    raise AssertionError(f"no diagnostics for {uri} version {version}")


async def diagnostics_until(client: LanguageClient, uri: str, predicate, version: int = 1,
                            limit: int = 10) -> list[types.Diagnostic]:
    """Diagnostics of `uri` once they satisfy `predicate` (a settings change is published after
    the notification that caused it; earlier publishes may still be in flight)."""
    found: list[types.Diagnostic] = []
    for _ in range(limit):
        found = await diagnostics(client, uri, version)
        if predicate(found):
            return found
    raise AssertionError(f"diagnostics never satisfied the condition: {[d.code for d in found]}")


def position_of(text: str, needle: str, offset: int = 0, encoding: str = "utf-16") -> types.Position:
    """The LSP position of `needle` (+ `offset` code points) in `text`, in `encoding` units."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    prefix = text[start:index]
    if encoding == "utf-8":
        units = len(prefix.encode("utf-8"))
    elif encoding == "utf-32":
        units = len(prefix)
    else:
        units = len(prefix.encode("utf-16-le")) // 2
    return types.Position(line, units)


def encoding_of(client: LanguageClient) -> str:
    """The position encoding the server chose for this client."""
    return str(client.initialize_result.capabilities.position_encoding or "utf-16")
