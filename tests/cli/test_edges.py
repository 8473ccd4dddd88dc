"""Command-line edges, as ruff behaves: nothing to check, a file that is not a skill, unknown
configuration keys, an address the server cannot listen on, a closed pipe."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from wave_lsp.cli import main


def test_no_skill_files_warns_and_exits_0(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    assert main(["check", "empty"]) == 0
    captured = capsys.readouterr()
    assert "No SKILL.md files found under empty" in captured.err
    assert captured.out == "Checked 0 files: 0 errors, 0 warnings, 0 information, 0 hints.\n"


def test_a_file_that_is_not_markdown_is_skipped(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", "utf-8")
    assert main(["check", "pyproject.toml"]) == 0
    err = capsys.readouterr().err
    assert "pyproject.toml is not a markdown file; skipped" in err


def test_unknown_configuration_keys_are_named_with_a_suggestion(tmp_path: Path, capsys,
                                                                 monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.wave-lsp]\ntraget = 'claude-code'\nignore = ['SK070']\n", "utf-8")
    skill = tmp_path / "demo/SKILL.md"
    skill.parent.mkdir()
    skill.write_text("---\nname: demo\ndescription: Does X. Use when asked.\n---\n", "utf-8")
    assert main(["check", "demo"]) == 0
    err = capsys.readouterr().err
    assert "unknown key `traget` in [tool.wave-lsp] (ignored); did you mean `target`?" in err
    assert "ignore" not in err.replace("(ignored)", "")


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "nosuchhost.invalid:8000"])
def test_serve_on_an_invalid_address_is_one_line(address: str) -> None:
    result = subprocess.run([sys.executable, "-m", "wave_lsp", "serve", "--tcp", address],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert result.stderr.startswith(f"wave-lsp: cannot listen on {address}: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_on_a_busy_port_is_one_line() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "wave_lsp", "serve", "--tcp", f"127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "cannot listen on" in result.stderr and "in use" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_closed_pipe_ends_quietly() -> None:
    command = f"{sys.executable} -m wave_lsp rule --all | head -1"
    result = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60)
    assert result.stdout.startswith("SK001")
    assert "Traceback" not in result.stderr


def test_the_readme_shows_what_check_prints_on_the_examples(capsys, monkeypatch,
                                                             tmp_path: Path) -> None:
    """The README's example output and the JSON example's summary (docs/cli.md) are the real ones."""
    import json

    repo = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(repo)
    monkeypatch.setenv("HOME", str(tmp_path))
    readme = (repo / "README.md").read_text("utf-8")
    main(["check", "examples/skills", "--no-personal"])
    text = capsys.readouterr().out
    assert text.rstrip().splitlines()[-1] in readme
    for line in readme.splitlines():
        if line.startswith("examples/skills/") and " [" in line:
            assert line.rstrip(" …").removesuffix("…").rstrip() in text, line
    main(["check", "examples/skills", "--no-personal", "--format", "json"])
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert f'"summary": {json.dumps(summary)}' in (repo / "docs" / "cli.md").read_text("utf-8")
