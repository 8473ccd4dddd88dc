"""Edits coalesce (issue 17; docs/design/lsp.md *Edits coalesce*), through a real client.

The server runs with `WAVE_LSP_TEST_ANALYSIS_HOLD`: an analysis of an edited document, once started
(the document parsed, the rules not yet run), waits until a newer version arrives, a request needs
that analysis, or the hold ends. So "the edits arrive while an older version is being analysed"
is true by construction, not by timing,
and the assertions are exact: of a burst only the last version is published; a request during an
analysis answers for the current text (and finishes that analysis instead of starting another);
nothing older is published after the newest.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.conftest import PROFILES, SERVER_COMMAND, start
from tests.lsp.helpers import (
    answer,
    diagnostics,
    encoding_of,
    make_client,
    open_document,
    position_of,
    published,
    pulls,
    wait_until,
)
from wave_lsp.lsp.server import ANALYSIS_HOLD_ENV

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: seconds a held analysis waits when nothing newer comes (the last version of a burst): long
#: enough that the next edit of a burst always arrives first, short against the 20 s deadlines
HOLD = 2.0
HELD_SERVER = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client,
                                 server_env={**os.environ, ANALYSIS_HOLD_ENV: str(HOLD)})


@pytest_lsp.fixture(scope="module", params=PROFILES, config=HELD_SERVER)
async def held(lsp_client: LanguageClient, request: pytest.FixtureRequest, workspace: Path):
    await start(lsp_client, request.param, workspace)
    yield
    await lsp_client.shutdown_session()


def version_text(version: int) -> str:
    """A skill whose findings name its version: a link to a file that does not exist (SK112)."""
    return (f"---\nname: burst\ndescription: Changes often. Use when asked.\n---\n# Burst\n\n"
            f"Read [notes](references/missing-{version}.md).\n\n## Edit {version}\n")


def change(client: LanguageClient, uri: str, version: int, text: str | None = None) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text=version_text(version) if text is None else text)]))


def missing_targets(found: list[types.Diagnostic]) -> list[str]:
    return [d.message.split("`")[1] for d in found if d.code == "SK112"]


async def symbols(client: LanguageClient, uri: str) -> list[str]:
    found = await answer(client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri))), "documentSymbol")
    return [symbol.name for symbol in _flat(found)]


def _flat(found: list[types.DocumentSymbol] | list[types.SymbolInformation]) -> list:
    flat: list = []
    for symbol in found:
        flat.append(symbol)
        flat.extend(_flat(getattr(symbol, "children", None) or []))
    return flat


async def roundtrip(client: LanguageClient) -> None:
    """A request answered after everything the server received before it was handled."""
    await answer(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.indexStatus", arguments=[{}])), "wave.indexStatus")


async def test_of_a_burst_only_the_last_version_is_published(held: LanguageClient,
                                                            workspace: Path) -> None:
    client = held
    folder = workspace / ".wave/skills/burst"
    folder.mkdir(parents=True, exist_ok=True)  # a skill without a folder has no references checked
    uri = open_document(client, folder / "SKILL.md", version_text(1))
    for version in range(2, 12):
        change(client, uri, version)
    found = await diagnostics(client, uri, 11)
    assert missing_targets(found) == ["references/missing-11.md"]
    if pulls(client):
        assert published(client, uri) == []  # a pull client is never pushed to
        return
    await roundtrip(client)
    # every earlier version was superseded while its analysis was held: abandoned, not published
    assert [params.version for params in published(client, uri)] == [11]


async def test_requests_during_an_analysis_answer_for_the_current_text(held: LanguageClient,
                                                                      workspace: Path) -> None:
    client = held
    path = workspace / ".wave/skills/asked/SKILL.md"
    text = version_text(1).replace("name: burst\n", "name: asked\ncontext: \n")
    uri = open_document(client, path, text)  # its analysis is held: the requests come first
    hover = await answer(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(text, "description", 1, encoding_of(client)))), "hover")
    assert hover is not None and "when" in hover.contents.value.lower()
    completion = await answer(client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(text, "context: ", len("context: "), encoding_of(client)))),
        "completion")
    assert {item.label for item in completion.items} == {"fork", "inline"}
    assert "Edit 1" in await symbols(client, uri)
    if not pulls(client):  # the requests finished the held analysis: published once, not redone
        await wait_until(client, lambda: published(client, uri) or None, "the publish of version 1")
        assert [params.version for params in published(client, uri)] == [1]
    # edits, then a request at once: it answers for the newest text, never an older one
    for version in range(2, 6):
        change(client, uri, version, text.replace("Edit 1", f"Edit {version}"))
    names = await symbols(client, uri)
    assert "Edit 5" in names and "Edit 4" not in names
    if pulls(client):
        return
    await wait_until(client, lambda: [p for p in published(client, uri) if p.version == 5] or None,
                     "the publish of version 5")
    await roundtrip(client)
    assert [params.version for params in published(client, uri)] == [1, 5]
