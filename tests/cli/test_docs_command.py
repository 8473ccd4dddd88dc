"""`python -m wave_lsp.docs [DIR]` (issue 36): `--help` explains and writes nothing (it once
wrote the rule pages into a folder named `--help`), an unknown option is an error, and DIR
receives exactly the pages `pages()` makes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wave_lsp.docs import main, pages


@pytest.mark.parametrize("option", ["--help", "-h"])
def test_help_explains_and_writes_nothing(option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main([option])
    assert stop.value.code == 0
    assert "usage: python -m wave_lsp.docs [-h] [DIR]" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("arguments", [["--bogus"], ["-x"], ["a", "b"]])
def test_a_wrong_command_line_is_an_error(arguments: list[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(arguments)
    assert stop.value.code == 2
    assert list(tmp_path.iterdir()) == []


def test_dir_gets_every_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out" / "rules"
    assert main([str(target)]) == 0
    expected = pages()
    assert {path.name: path.read_text("utf-8") for path in target.iterdir()} == expected
    assert capsys.readouterr().out == f"wrote {len(expected)} pages to {target}\n"


def test_the_module_runs_as_a_command(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "wave_lsp.docs", "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "DIR" in done.stdout
    assert not (tmp_path / "--help").exists()
