"""Push or pull by capability: a client gets pull diagnostics only when it can also be told to pull
again (`workspace.diagnostics.refreshSupport`); a client that pulls but cannot be refreshed gets
pushed diagnostics, so an external change (a file created, the index finished) always reaches it;
a pull client is asked to pull again after such a change."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, capabilities_of, make_workspace, start
from tests.lsp.helpers import diagnostics, open_document, pulls, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="function")

SKILL = "---\nname: modes\n---\nRead [the guide](references/modes-guide.md).\n"


@pytest_lsp.fixture(config=SERVER, params=["neovim", "neovim-0.11"])
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest,
                 tmp_path: Path):
    lsp_client.profile = request.param
    await start(lsp_client, capabilities_of(request.param), make_workspace(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def test_pull_only_with_refresh_support(client: LanguageClient, tmp_path: Path) -> None:
    refreshable = client.profile == "neovim-0.11"
    assert pulls(client) == refreshable
    path = tmp_path / ".wave/skills/modes/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(SKILL, "utf-8")
    uri = open_document(client, path, SKILL)
    assert "SK112" in {d.code for d in await diagnostics(client, uri)}  # the guide is missing
    if refreshable:  # a file event makes the server ask the client to pull again
        before = client.diagnostic_refresh_count  # counted by pytest-lsp's client
        guide = path.parent / "references/modes-guide.md"
        guide.parent.mkdir(parents=True)
        guide.write_text("# Guide\n", "utf-8")
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=guide.as_uri(), type=types.FileChangeType.Created)]))
        await wait_until(client, lambda: client.diagnostic_refresh_count > before or None,
                         "workspace/diagnostic/refresh after a file event")
        assert "SK112" not in {d.code for d in await diagnostics(client, uri)}
