"""Issue 15's red-team cases over the language server: `wave.previewInvocation` in execute mode,
with execution enabled by the user, refuses every attack and no canary file is ever created."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.helpers import sandbox_or_skip
from tests.lsp.conftest import start
from tests.lsp.helpers import make_client, open_document
from tests.security.cases import ATTACKS, Attack
from tests.security.harness import build, canaries

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: created by the fixture (not at import) and removed after the module
ROOT = Path(tempfile.gettempdir()) / f"wave-lsp-security-{os.getpid()}"
HOME = ROOT / "home"
WORKSPACE = ROOT / "ws"
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "wave_lsp", "serve", "--stdio"],
                            client_factory=make_client,
                            server_env={**os.environ, "HOME": str(HOME)})


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient):
    (WORKSPACE / ".git").mkdir(parents=True, exist_ok=True)
    HOME.mkdir(parents=True, exist_ok=True)
    await start(lsp_client, "visual-studio-code", WORKSPACE,
                {"personalSkills": False, "preview": {"allowExecution": True}})
    yield
    await lsp_client.shutdown_session()
    shutil.rmtree(ROOT, ignore_errors=True)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.id for a in ATTACKS])
async def test_lsp_execute_runs_nothing(client: LanguageClient, attack: Attack) -> None:
    root = WORKSPACE / attack.id
    path = build(root, attack, home=HOME)
    uri = open_document(client, path, path.read_text("utf-8"))
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.previewInvocation",
        arguments=[{"uri": uri, "arguments": "", "mode": "execute"}]))
    assert canaries(root) == [] and canaries(HOME) == [], result
    assert result["ok"] is False, result
    assert "allowExecution" not in (result["error"] or ""), result  # execution was enabled
    assert not any(item["executed"] for item in result.get("injections", []))
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        types.TextDocumentIdentifier(uri=uri)))


async def test_execution_really_runs_when_allowed(client: LanguageClient) -> None:
    """The control: the same harness does run an allowed command (in the sandbox, where it
    cannot write the project, so no canary appears even then)."""
    sandbox_or_skip()
    attack = Attack("control", 0, "Run: !`echo ran; touch CANARY`\n",
                    ("Bash(echo ran)", "Bash(touch CANARY)"))
    root = WORKSPACE / "control"
    path = build(root, attack, home=HOME)
    uri = open_document(client, path, path.read_text("utf-8"))
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.previewInvocation",
        arguments=[{"uri": uri, "arguments": "", "mode": "execute"}]))
    assert result["ok"] is True, result
    assert result["injections"][0]["executed"] is True, result
    assert "<error>Command failed (exit code 1): touch: cannot touch 'CANARY': Read-only " \
           "file system</error>" in result["text"], result
    assert canaries(root) == []
