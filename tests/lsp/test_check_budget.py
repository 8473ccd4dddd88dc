"""The server keeps answering while a slow document is open (issue 35 item 3: "a time budget per
check, cancellation"). The server runs with two test seams (wave_lsp/lsp/state.py, read only
under pytest): every rule of a document holding `SLOW_MARK` sleeps 0.05 s per step, and the
budget per check is 2 s. Asserted: another document's hover is answered while the slow one is
checked; the slow document's diagnostics arrive with the note that its check was cut short, naming
the rule that took the time; a pull of it cancelled with `$/cancelRequest` is answered with the
RequestCancelled error; a newer version abandons the older check. Generous deadlines only (a hang
fails); no speed is asserted."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.conftest import PROFILES, SERVER_COMMAND, start
from tests.lsp.helpers import (
    answer,
    change_document,
    diagnostics_until,
    encoding_of,
    make_client,
    open_document,
    position_of,
    pulls,
)
from wave_lsp.lsp.server import CUT_SHORT_CODE
from wave_lsp.lsp.state import BUDGET_ENV, SLOW_MARK, SLOW_RULE_ENV

pytestmark = pytest.mark.asyncio(loop_scope="module")

SLOW_SERVER = ClientServerConfig(
    server_command=SERVER_COMMAND, client_factory=make_client,
    server_env={**os.environ, BUDGET_ENV: "2", SLOW_RULE_ENV: "*:0.05",
                # the seams are read only under pytest: the server is started before any test
                "PYTEST_CURRENT_TEST": "tests/lsp/test_check_budget.py (server)"})
#: no `description` (SK050, an early rule): a finding the cut-short check still reports
SLOW = f"---\nname: slow\n---\n# Slow\n\n<!-- {SLOW_MARK} -->\n"
NORMAL = "---\nname: normal\ndescription: Formats notes. Use when asked.\n---\n# Notes\n"


@pytest_lsp.fixture(scope="module", params=PROFILES, config=SLOW_SERVER)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("budget")
    (root / ".git").mkdir()
    lsp_client.root = root  # type: ignore[attr-defined]
    await start(lsp_client, request.param, root)
    yield
    await lsp_client.shutdown_session()


def cut_short(found: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in found if d.code == CUT_SHORT_CODE]


async def test_a_slow_check_is_cut_short_and_the_server_keeps_answering(
        client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    normal = open_document(client, root / ".claude/skills/normal/SKILL.md", NORMAL)
    slow = open_document(client, root / ".claude/skills/slow/SKILL.md", SLOW)
    hover = await answer(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=normal),
        position=position_of(NORMAL, "description", 1, encoding_of(client)))), "hover", 30)
    assert hover is not None and "description" in hover.contents.value.lower()
    found = await diagnostics_until(client, slow, lambda found: bool(cut_short(found)))
    note = cut_short(found)[0]
    assert note.severity == types.DiagnosticSeverity.Information
    assert "stopped checking this version" in note.message and " took " in note.message
    assert any(d.code == "SK050" for d in found), [d.code for d in found]  # what it has
    normal_found = await diagnostics_until(client, normal, lambda found: True)
    assert not cut_short(normal_found)


async def test_a_newer_version_is_checked_again(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    slow = open_document(client, root / ".claude/skills/again/SKILL.md",
                         SLOW.replace("slow", "again", 1))
    change_document(client, slow, NORMAL.replace("normal", "again"), 2)
    found = await diagnostics_until(client, slow, lambda found: not cut_short(found)
                                    and not any(d.code == "SK050" for d in found), version=2)
    assert not cut_short(found)


async def test_a_cancelled_pull_is_answered_as_cancelled(client: LanguageClient) -> None:
    if not pulls(client):
        pytest.skip("this client receives pushed diagnostics: nothing to cancel")
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_document(client, root / ".claude/skills/cancelled/SKILL.md",
                        SLOW.replace("slow", "cancelled", 1))
    # pytest-lsp sends a request when its coroutine runs: a task sends it now
    pending = asyncio.ensure_future(client.protocol.send_request_async(
        types.TEXT_DOCUMENT_DIAGNOSTIC, types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri)), msg_id="cancel-me"))
    # the cancel follows once the request is surely on its way, while the check (0.05 s per
    # rule, cut at 2 s) is surely still running
    await asyncio.sleep(0.3)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="cancel-me"))
    with pytest.raises(JsonRpcRequestCancelled):
        await answer(pending, "the cancelled pull", 30)
    found = await diagnostics_until(client, uri, lambda found: bool(cut_short(found)))
    assert cut_short(found)  # the next pull still gets the (cut-short) check
