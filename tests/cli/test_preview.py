"""`wave-lsp preview` end to end: output formats, exit codes, execution only on request."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wave_lsp.cli import main

SKILL = ("---\nname: demo\ndescription: Demo. Use when asked.\nallowed-tools: Bash(touch *), "
         "Bash(echo *)\n---\nFix $1.\n\n!`touch RAN`\n!`echo done`\n")


def project(tmp_path: Path, body_extra: str = "") -> Path:
    path = tmp_path / ".wave/skills/demo/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(SKILL + body_extra, "utf-8")
    (tmp_path / ".git").mkdir()
    return path


def test_dry_run_json(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = project(tmp_path)
    assert main(["preview", str(path.parent), "42", "--format", "json", "--no-personal"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is True and result["mode"] == "dry-run"
    assert result["text"].startswith(f"Base directory for this skill: {path.parent.as_posix()}\n\n")
    assert "Fix 42." in result["text"]
    assert [i["decision"] for i in result["injections"]] == ["allow", "allow"]
    assert [i["executed"] for i in result["injections"]] == [False, False]
    assert result["injections"][0]["range"]["start"] == {"line": 7, "character": 0}
    assert not (tmp_path / "RAN").exists()


def test_execute_runs_allowed_commands_in_the_sandbox_with_the_project_read_only(
        tmp_path: Path, capsys, monkeypatch, sandbox: str) -> None:
    monkeypatch.chdir(tmp_path)
    path = project(tmp_path)
    assert main(["preview", str(path), "--execute", "--no-personal"]) == 0
    captured = capsys.readouterr()
    assert captured.out.endswith("Fix .\n\n<error>Command failed (exit code 1): touch: cannot "
                                 "touch 'RAN': Read-only file system</error>\ndone\n")
    assert not (tmp_path / "RAN").exists()
    assert "injection 2 (line 9) `echo done`: allow" in captured.err
    assert ("`touch RAN` could not write: wave-lsp shows the project read-only to the commands "
            "it runs, and Wave would have written to it") in captured.err


def test_denied_invocation_exits_1_and_runs_nothing(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = project(tmp_path, "!`rm -rf build`\n")
    assert main(["preview", str(path), "--execute", "--format", "json", "--no-personal"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["text"] is None
    assert result["error"].startswith(
        'Shell command permission check failed for pattern "!`rm -rf build`": ')
    assert not (tmp_path / "RAN").exists()


def test_unreadable_skill_exits_2_with_json(tmp_path: Path, capsys) -> None:
    assert main(["preview", str(tmp_path / "missing/SKILL.md"), "--format", "json"]) == 2
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and "does not exist" in result["error"]


def test_usage_errors_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["preview"])
    assert raised.value.code == 2


def test_console_script_prints_only_json(tmp_path: Path) -> None:
    path = project(tmp_path)
    completed = subprocess.run([sys.executable, "-m", "wave_lsp", "preview", str(path), "a b",
                                "--format", "json", "--no-personal"],
                               capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["arguments"] == "a b"
