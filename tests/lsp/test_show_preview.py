"""The preview in any client: `wave.previewInvocation` opens a read-only document with the rendered
prompt (`window/showDocument`, in a temporary folder of the server, never in the project) when the
client can show one, and sends a short `window/showMessage` naming that document's path otherwise
(any editor opens it as a buffer: issue 38 item 4); the command still answers
the preview, and names the document (`document`) for a client's own command to open
(docs/design/lsp.md *Preview in any client*)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, capabilities_of, make_workspace, start
from tests.lsp.helpers import answer, open_document, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="function")

SKILL = ("---\nname: shown\ndescription: Shows things. Use when asked.\nallowed-tools:\n"
         "  - Bash(echo *)\n---\nFix $ARGUMENTS now.\n\nSay: !`echo hello`\n"
         + "".join(f"Line {n}.\n" for n in range(1, 13)))


@pytest_lsp.fixture(config=SERVER, params=["neovim-0.11", "emacs"])
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest, tmp_path: Path):
    lsp_client.profile = request.param
    await start(lsp_client, capabilities_of(request.param), make_workspace(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def preview(client: LanguageClient, uri: str, **extra: object) -> dict:
    return await answer(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.previewInvocation",
        arguments=[{"uri": uri, "arguments": "42", "mode": "dry-run", **extra}])),
        "wave.previewInvocation")


def open_skill(client: LanguageClient, root: Path) -> str:
    path = root / ".wave/skills/shown/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(SKILL, "utf-8")
    return open_document(client, path, SKILL)


async def test_preview_is_shown_as_a_document_or_a_message(client: LanguageClient,
                                                           tmp_path: Path) -> None:
    uri = open_skill(client, tmp_path)
    result = await preview(client, uri)
    assert result["ok"] is True and "Fix 42 now." in result["text"]  # the answer is unchanged
    if client.profile == "emacs":  # no window.showDocument: a message with the first lines
        message = await wait_until(client, lambda: next(
            (m for m in client.messages if m.message.startswith("Preview of /shown")), None),
            "the preview message")
        assert message.type == types.MessageType.Info
        lines = message.message.splitlines()
        assert lines[0] == "Preview of /shown (dry-run, target wave): 1 command would run."
        assert lines[1] == f"Base directory for this skill: {(tmp_path / '.wave/skills/shown').as_posix()}"
        assert "Fix 42 now." in lines and lines[-2].startswith("… ") and len(lines) < 13
        assert lines[-1].startswith("The whole preview, with every decision: ")
        written = Path(lines[-1].split(": ", 1)[1])
        assert not written.is_relative_to(tmp_path)  # never in the user's project
        assert result["text"].rstrip("\n") in written.read_text("utf-8")
        assert written.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) == 0
        assert client.shown_documents == []
        # the answer names the same document, for a client's own command to open
        assert Path(to_fs_path(result["document"]) or "") == written
        return
    shown = await wait_until(client, lambda: client.shown_documents[-1:] or None,
                             "window/showDocument")
    params = shown[0]
    assert params.take_focus is True and params.external is False
    path = Path(to_fs_path(params.uri) or "")
    assert not path.is_relative_to(tmp_path)  # never in the user's project
    content = path.read_text("utf-8")
    assert result["text"].rstrip("\n") in content
    assert "`echo hello`: allow" in content
    assert path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) == 0  # read-only
    assert result["document"] == params.uri


async def test_show_false_answers_only(client: LanguageClient, tmp_path: Path) -> None:
    uri = open_skill(client, tmp_path)
    result = await preview(client, uri, show=False)
    # a showDocument request or message would have been sent before this answer
    assert result["ok"] is True and "document" not in result
    assert client.shown_documents == []
    assert not [m for m in client.messages if m.message.startswith("Preview of")]
