"""The server's readiness signal, and requests that come before it.

The workspace index is built after `initialized`, in the background. Clients that declare
`window.workDoneProgress` see the `wave-lsp-index` progress end; the others can ask
`wave.indexStatus` (with `{"wait": true}` it answers once the index is ready). Until then requests
are answered with what is known: the frontmatter, the built-in agents, the documents opened so far.

"Before the index is ready" is made certain, not hoped for: the server creates its progress
(`window/workDoneProgress/create`, a request to the client) before it indexes, and the gated client
below answers that request only when the test opens its gate.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import SERVER, SERVER_COMMAND, make_workspace, start
from tests.lsp.helpers import (
    INDEX_TOKEN,
    RecordingClient,
    answer,
    diagnostics,
    encoding_of,
    index_reports,
    make_client,
    open_document,
    position_of,
    wait_for_index,
    wait_until,
)

EARLY = ("---\nname: early\ndescription: Early. Use when asked.\nagent: \n---\n"
         "Run /\nThen /other.\n")


def gated_client() -> RecordingClient:
    """A client whose answer to `window/workDoneProgress/create` waits for `client.gate`."""
    gate = asyncio.Event()

    async def hold_progress(ls: RecordingClient, params: types.WorkDoneProgressCreateParams) -> None:
        ls.progress_reports.setdefault(params.token, [])
        await gate.wait()

    client = make_client({types.WINDOW_WORK_DONE_PROGRESS_CREATE: hold_progress})
    client.gate = gate  # type: ignore[attr-defined]
    return client


def hover_text(hover: types.Hover | None) -> str:
    assert hover is not None and isinstance(hover.contents, types.MarkupContent), hover
    return hover.contents.value


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"],
                    config=ClientServerConfig(server_command=SERVER_COMMAND,
                                              client_factory=gated_client))
async def gated(lsp_client: LanguageClient, request: pytest.FixtureRequest, tmp_path: Path):
    await start(lsp_client, request.param, make_workspace(tmp_path), ready=False)
    yield
    lsp_client.gate.set()  # type: ignore[attr-defined]
    await lsp_client.shutdown_session()


async def command(client: LanguageClient, name: str, *arguments):
    return await answer(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=name, arguments=list(arguments) or None)), name)


async def complete(client: LanguageClient, uri: str, needle: str) -> set[str]:
    result = await answer(client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(EARLY, needle, len(needle), encoding_of(client)))), "completion")
    return {item.label for item in result.items}


async def hover(client: LanguageClient, uri: str, needle: str, offset: int) -> types.Hover | None:
    return await answer(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(EARLY, needle, offset, encoding_of(client)))), "hover")


async def test_requests_before_the_index_is_ready_answer_with_what_is_known(
        gated: LanguageClient, tmp_path: Path) -> None:
    # the server has read the settings and asked to create its progress: it has not indexed
    await wait_until(gated, lambda: True if INDEX_TOKEN in gated.progress_reports else None,
                     "the server's request to create the indexing progress")
    assert await command(gated, "wave.indexStatus") == {"version": 1, "ready": False, "skills": 0}
    uri = open_document(gated, tmp_path / ".wave/skills/early/SKILL.md", EARLY)
    assert "SK027" in {d.code for d in await diagnostics(gated, uri)}  # the empty `agent:`
    # what does not need the index is complete
    assert {"general-purpose", "Explore", "Plan"} <= await complete(gated, uri, "agent: ")
    assert "when" in hover_text(await hover(gated, uri, "description", 1)).lower()
    # what needs it is answered with what is known: not an error, not the unindexed skill
    assert "/other" not in await complete(gated, uri, "Run /")
    assert "reviewer" not in await complete(gated, uri, "agent: ")
    await hover(gated, uri, "/other", 2)
    assert index_reports(gated) == []

    gated.gate.set()  # type: ignore[attr-defined]
    await wait_for_index(gated)
    assert "/other" in await complete(gated, uri, "Run /")
    assert "reviewer" in await complete(gated, uri, "agent: ")
    assert "release notes" in hover_text(await hover(gated, uri, "/other", 2))
    status = await command(gated, "wave.indexStatus")
    assert status["ready"] is True and status["skills"] >= 2


def without_progress() -> types.ClientCapabilities:
    capabilities = client_capabilities("visual-studio-code")
    assert capabilities.window is not None
    return attrs.evolve(capabilities, window=attrs.evolve(capabilities.window,
                                                          work_done_progress=False))


@pytest_lsp.fixture(config=SERVER)
async def quiet(lsp_client: LanguageClient, tmp_path: Path):
    # waits with `wave.indexStatus` (see helpers.wait_for_index)
    await start(lsp_client, without_progress(), make_workspace(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def test_a_client_without_progress_waits_with_index_status(quiet: LanguageClient,
                                                                 tmp_path: Path) -> None:
    assert INDEX_TOKEN not in quiet.progress_reports  # no progress was created
    assert await command(quiet, "wave.indexStatus", {"wait": True}) == {
        "version": 1, "ready": True, "skills": 2}
    uri = open_document(quiet, tmp_path / ".wave/skills/early/SKILL.md", EARLY)
    assert "/other" in await complete(quiet, uri, "Run /")
