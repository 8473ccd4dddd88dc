"""Findings on skill files that are not open reach the client: pulled with `workspace/diagnostic`
(with result ids: an unchanged file comes back `unchanged`), or pushed after indexing and file
events, replaced by the document's own diagnostics while it is open and back when it is closed
(docs/design/lsp.md *Findings on files that are not open*)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, capabilities_of, make_workspace, start
from tests.lsp.helpers import (
    answer,
    diagnostics,
    open_document,
    published,
    pulls,
    wait_until,
)

pytestmark = pytest.mark.asyncio(loop_scope="function")

FIRST = "---\nname: twin\ndescription: Does one thing. Use when asked for one.\n---\n# One\n"
SECOND = "---\nname: twin\ndescription: Does another thing. Use when asked for two.\n---\n# Two\n"
RENAMED = "---\nname: twin-b\ndescription: Does another thing. Use when asked for two.\n---\n"


def colliding_workspace(root: Path) -> tuple[Path, Path]:
    """The test workspace plus two skills named `twin`: `twin-b` loses (SK130), `twin` wins."""
    make_workspace(root)
    winner = root / ".wave/skills/twin/SKILL.md"
    loser = root / ".wave/skills/twin-b/SKILL.md"
    for path, text in ((winner, FIRST), (loser, SECOND)):
        path.parent.mkdir(parents=True)
        path.write_text(text, "utf-8")
    return winner, loser


async def _session(client: LanguageClient, profile: str, root: Path):
    client.paths = colliding_workspace(root)
    await start(client, capabilities_of(profile), root)
    yield
    await client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, params=["neovim-0.11"])
async def pull_client(lsp_client: LanguageClient, request: pytest.FixtureRequest, tmp_path: Path):
    async for _ in _session(lsp_client, request.param, tmp_path):
        yield


@pytest_lsp.fixture(config=SERVER, params=["visual-studio-code"])
async def push_client(lsp_client: LanguageClient, request: pytest.FixtureRequest, tmp_path: Path):
    async for _ in _session(lsp_client, request.param, tmp_path):
        yield


async def workspace_report(client: LanguageClient,
                           previous: dict[str, str] | None = None) -> dict[str, object]:
    report = await answer(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(
        previous_result_ids=[types.PreviousResultId(uri=uri, value=value)
                             for uri, value in (previous or {}).items()])),
        "workspace/diagnostic")
    return {item.uri: item for item in report.items}


def codes(items: object) -> set[str]:
    return {str(d.code) for d in items}  # type: ignore[attr-defined]


async def test_pull_reports_unopened_files_with_result_ids(pull_client: LanguageClient) -> None:
    client = pull_client
    assert pulls(client)
    assert client.initialize_result.capabilities.diagnostic_provider.workspace_diagnostics is True
    winner, loser = client.paths
    first = await workspace_report(client)
    report = first[loser.as_uri()]
    assert report.kind == "full" and "SK130" in codes(report.items), report
    assert report.result_id
    assert "SK130" in codes(first[winner.as_uri()].items)  # the winner names its rival
    assert not any(uri.endswith("/other/SKILL.md") for uri in first)  # no findings: not reported
    # the same request with the ids the client has: nothing changed, so `unchanged`
    second = await workspace_report(client, {uri: item.result_id for uri, item in first.items()})
    assert second[loser.as_uri()].kind == "unchanged"
    assert second[loser.as_uri()].result_id == report.result_id
    # an open document is answered by textDocument/diagnostic, not by the workspace report
    uri = open_document(client, loser, SECOND)
    assert "SK130" in {str(d.code) for d in await diagnostics(client, uri)}
    assert uri not in await workspace_report(client)


async def test_pull_clears_a_file_whose_findings_went_away(pull_client: LanguageClient) -> None:
    client = pull_client
    winner, loser = client.paths
    first = await workspace_report(client)
    assert loser.as_uri() in first
    before = client.diagnostic_refresh_count
    loser.write_text(RENAMED, "utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=loser.as_uri(), type=types.FileChangeType.Changed)]))
    await wait_until(client, lambda: client.diagnostic_refresh_count > before or None,
                     "workspace/diagnostic/refresh after a file event")
    previous = {uri: item.result_id for uri, item in first.items()}
    second = await workspace_report(client, previous)
    cleared = second[loser.as_uri()]
    assert cleared.kind == "full" and len(cleared.items) == 0, cleared
    assert "SK130" not in codes(getattr(second.get(winner.as_uri()), "items", ()))


def latest_codes(client: LanguageClient, uri: str) -> set[str] | None:
    """The codes of the latest publish for `uri` (None before the first)."""
    found = published(client, uri)
    return codes(found[-1].diagnostics) if found else None


def shows(client: LanguageClient, uri: str, code: str, present: bool = True) -> bool | None:
    """True once the latest publish for `uri` has (or, with `present=False`, lacks) `code`."""
    latest = latest_codes(client, uri)
    return True if latest is not None and (code in latest) == present else None


async def test_push_publishes_unopened_files(push_client: LanguageClient) -> None:
    client = push_client
    assert not pulls(client)
    winner, loser = client.paths
    uri = loser.as_uri()
    await wait_until(client, lambda: shows(client, uri, "SK130"),
                     "SK130 pushed for the unopened losing skill")
    # opened: its own versioned publish; closed: back to its findings on disk
    opened = open_document(client, loser, SECOND, version=3)
    await wait_until(client, lambda: [p for p in published(client, opened) if p.version == 3]
                     or None, "the open document's own publish")
    count = len(published(client, uri))
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    after_close = await wait_until(
        client, lambda: published(client, uri)[count:] or None, "a publish after closing")
    assert after_close[-1].version is None and "SK130" in codes(after_close[-1].diagnostics)
    # the collision goes away on disk: both files are cleared
    loser.write_text(RENAMED, "utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=uri, type=types.FileChangeType.Changed)]))
    await wait_until(client, lambda: shows(client, uri, "SK130", present=False),
                     "SK130 cleared on the renamed skill")
    await wait_until(client, lambda: shows(client, winner.as_uri(), "SK130", present=False),
                     "SK130 cleared on the winner")
