"""Execution safety across the preview: what must never run, never be written, never reach a shell.
Canary files prove it (docs/design/product.md *Permission engine*; issue "Robustness and security suite")."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from tests.core.test_preview import run, skill
from wave_lsp.cli import main
from wave_lsp.core.execution import execution


@pytest.mark.parametrize(("body", "settings", "frontmatter"), [
    ("!`touch CANARY`\n", {"permissions": {"deny": ["Bash(touch:*)"]}}, ["allowed-tools: Bash(touch *)"]),
    ("!`touch CANARY`\n", {"permissions": {"ask": ["Bash(touch *)"]}}, ["allowed-tools: Bash(touch *)"]),
    ("!`touch CANARY`\n", None, []),
    ("!`touch CANARY && curl http://example.invalid`\n", None, ["allowed-tools: Bash(touch *)"]),
    ("!`touch CANARY; echo $(touch CANARY2)`\n", None, ["allowed-tools: Bash(touch *), Bash(echo *)"]),
    ("```!\ntouch CANARY\nrm -rf nothing\n```\n", None, ["allowed-tools: Bash(touch *)"]),
    ("!`echo ok`\n!`touch CANARY`\n", None, ["allowed-tools: Bash(echo *)"]),
])
@pytest.mark.parametrize("surface", ["library", "cli"])
def test_denied_asked_and_unmatched_commands_never_run(tmp_path: Path, body: str, settings,
                                                      frontmatter: list[str], surface: str,
                                                      capsys) -> None:
    path = skill(tmp_path, body, *frontmatter, settings=settings)
    project = tmp_path / "project"
    if surface == "library":
        result = run(path, mode="execute")
        assert not result.ok and not any(i.executed for i in result.injections)
    else:
        assert main(["preview", str(path), "--execute", "--format", "json", "--no-personal"]) == 1
        assert json.loads(capsys.readouterr().out)["ok"] is False
    assert not (project / "CANARY").exists() and not (project / "CANARY2").exists()


@pytest.mark.usefixtures("sandbox")
def test_huge_arguments_never_reach_shell_text(tmp_path: Path) -> None:
    path = skill(tmp_path, "Args: $ARGUMENTS\n!`wc -c < ${WAVE_ARGUMENTS_FILE}`\n!`echo $1`\n",
                 "allowed-tools: Bash(wc *), Bash(echo $1)")
    arguments = ("; touch CANARY $(touch CANARY) `touch CANARY` \n' \" " * 2000)[:100_000]
    result = run(path, arguments, mode="execute")
    assert result.ok, result.error
    assert result.injections[0].output_preview.strip() == str(len(arguments.encode()))
    assert result.injections[1].shell_command == "echo $1"
    assert not (tmp_path / "project/CANARY").exists()


def test_output_files_are_never_written_through_symlinks(tmp_path: Path, monkeypatch) -> None:
    canary = tmp_path / "canary.txt"
    canary.write_text("untouched", "utf-8")
    planted = tmp_path / "planted"
    planted.mkdir()
    (planted / "output.txt").symlink_to(canary)
    real_mkdtemp = tempfile.mkdtemp
    calls = iter([str(planted)])

    def mkdtemp(*args, **kwargs) -> str:
        return next(calls, None) or real_mkdtemp(*args, **kwargs)

    monkeypatch.setattr(execution.tempfile, "mkdtemp", mkdtemp)
    saved = execution.save_output("x" * 10)
    assert canary.read_text("utf-8") == "untouched"
    assert saved.parent != planted and saved.read_text("utf-8") == "x" * 10
    assert not saved.is_symlink() and oct(os.stat(saved).st_mode & 0o777) == "0o600"


def test_execution_over_the_lsp_surface_needs_the_setting_and_the_engine(tmp_path: Path) -> None:
    """The server refuses execute mode without `wave.preview.allowExecution` (tested end to end in
    tests/lsp/test_preview.py); here: the same request shape through the handler."""
    from wave_lsp.lsp.commands import _preview_request
    from wave_lsp.lsp.server import WaveLanguageServer

    server = WaveLanguageServer()
    path = skill(tmp_path, "!`touch CANARY`\n", "allowed-tools: Bash(touch *)")
    answer = _preview_request(server, {"uri": path.as_uri(), "arguments": "", "mode": "execute"})
    assert answer["ok"] is False and "allowExecution" in answer["error"]
    assert not (tmp_path / "project/CANARY").exists()
