"""Issue 25's attacks on the read-only auto-allow (tests/security/readonly_cases.py) through
`wave-lsp preview --execute` and over the language server with `wave.target = claude-code`: each
is refused, no canary file appears and the secret beside the project is never read; the commands
Claude Code really runs without a rule still run."""

from __future__ import annotations

import json
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
from tests.security.cases import Attack, inline
from tests.security.harness import SECRET, build, canaries, stand_ins
from tests.security.readonly_cases import READ_ONLY_ATTACKS
from wave_lsp.cli import main

IDS = [attack.id for attack in READ_ONLY_ATTACKS]


def test_every_class_of_the_issue_has_attacks() -> None:
    classes = {attack.cls for attack in READ_ONLY_ATTACKS}
    assert classes == {7, 8, 9, 10, 11, 12}
    assert len(READ_ONLY_ATTACKS) >= 100 and len(set(IDS)) == len(IDS)


def _preview(path: Path, tmp_path: Path, monkeypatch, capsys) -> tuple[int, dict]:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", stand_ins(tmp_path / "project" / "stand-ins"))
    monkeypatch.chdir(tmp_path)
    code = main(["preview", str(path), "--execute", "--format", "json", "--target",
                 "claude-code"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("attack", READ_ONLY_ATTACKS, ids=IDS)
def test_cli_execute_refuses(attack: Attack, tmp_path: Path, monkeypatch, capsys) -> None:
    path = build(tmp_path, attack)
    code, result = _preview(path, tmp_path, monkeypatch, capsys)
    assert canaries(tmp_path) == [], result
    assert SECRET not in json.dumps(result), result
    assert code == 1 and result["ok"] is False, result
    assert not any(item["executed"] for item in result.get("injections", []))


@pytest.mark.parametrize("command", ["git status", "git diff HEAD", "git log --oneline -10",
                                     "ls", "cat f.txt", "git branch --show-current",
                                     "grep -rn x .", "head -1 f.txt | wc -l"])
@pytest.mark.usefixtures("sandbox")
def test_what_claude_code_runs_without_a_rule_still_runs(command: str, tmp_path: Path,
                                                         monkeypatch, capsys) -> None:
    attack = Attack("control", 0, inline(command), files={"f.txt": "x\n"},
                    target="claude-code")
    path = build(tmp_path, attack)
    _code, result = _preview(path, tmp_path, monkeypatch, capsys)
    # run (in an empty repository `git diff HEAD` itself fails: that is not a refusal)
    assert all(item["decision"] == "allow" and item["executed"]
               for item in result["injections"]), result


# -- over the language server -----------------------------------------------------------------------
ROOT = Path(tempfile.gettempdir()) / f"wave-lsp-readonly-{os.getpid()}"
HOME = ROOT / "home"
WORKSPACE = ROOT / "ws"
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "wave_lsp", "serve", "--stdio"],
                            client_factory=make_client,
                            server_env={**os.environ, "HOME": str(HOME),
                                        "PATH": stand_ins(ROOT / "stand-ins")})


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient):
    (WORKSPACE / ".git").mkdir(parents=True, exist_ok=True)
    HOME.mkdir(parents=True, exist_ok=True)
    await start(lsp_client, "visual-studio-code", WORKSPACE,
                {"target": "claude-code", "personalSkills": False,
                 "preview": {"allowExecution": True}})
    yield
    await lsp_client.shutdown_session()
    shutil.rmtree(ROOT, ignore_errors=True)


async def _execute(client: LanguageClient, path: Path) -> dict:
    uri = open_document(client, path, path.read_text("utf-8"))
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.previewInvocation",
        arguments=[{"uri": uri, "arguments": "", "mode": "execute"}]))
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        types.TextDocumentIdentifier(uri=uri)))
    return result


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("attack", READ_ONLY_ATTACKS, ids=IDS)
async def test_lsp_execute_refuses(client: LanguageClient, attack: Attack) -> None:
    root = WORKSPACE / attack.id
    path = build(root, attack, home=HOME)
    result = await _execute(client, path)
    assert canaries(root) == [] and canaries(HOME) == [], result
    assert SECRET not in json.dumps(result), result
    assert result["ok"] is False, result
    assert not any(item["executed"] for item in result.get("injections", []))


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.usefixtures("sandbox")
async def test_lsp_still_runs_a_read_only_command(client: LanguageClient) -> None:
    """The control: under this server's target a read-only command does run."""
    root = WORKSPACE / "control"
    path = build(root, Attack("control", 0, inline("cat f.txt"), files={"f.txt": "hello\n"},
                              target="claude-code"), home=HOME)
    result = await _execute(client, path)
    assert result["ok"] is True, result
    assert result["injections"][0]["executed"], result


def test_a_read_only_command_is_decided_again_right_before_it_runs(tmp_path: Path, monkeypatch,
                                                                  capsys) -> None:
    """The first command (allowed by a rule) tries to turn `data` into a link out of the project;
    the sandbox shows the project read-only, so it fails, and the invocation aborts before the
    second (read-only when the plan was made) runs."""
    sandbox_or_skip()
    body = inline("./mklink.sh") + inline("cat data")
    attack = Attack("toctou", 9, body, ("Bash(./mklink.sh)",), target="claude-code",
                    files={"mklink.sh": "#!/bin/sh\nln -s ../SECRET data\n"})
    path = build(tmp_path, attack)
    code, result = _preview(path, tmp_path, monkeypatch, capsys)
    assert SECRET not in json.dumps(result), result
    assert code == 1 and "Read-only file system" in result["error"], result
    assert [item["executed"] for item in result["injections"]] == [True, False]
    assert not (tmp_path / "project" / "data").exists()


@pytest.mark.usefixtures("sandbox")
def test_a_command_that_never_stops_writing_is_stopped_by_its_file_size_limit(
        tmp_path: Path) -> None:
    from wave_lsp.core.execution.execution import MAX_CAPTURE, run_command

    outcome = run_command("cat /dev/zero", tmp_path, timeout=20)
    assert not outcome.timed_out and outcome.exit_code != 0
    assert len(outcome.stdout) <= MAX_CAPTURE
