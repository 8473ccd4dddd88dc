"""Smoke tests with two more real editors, configured by the README's own snippets: batch Emacs
with lsp-mode (lsp_mode_session.el) and Vim with ALE (ale_session.vim) start `wave-lsp serve` for
a SKILL.md and receive its diagnostics (SK050 at the first line: the skill has no description).

Debian 12 packages both (`elpa-lsp-mode`, `vim-ale` with `vim-nox`); `.ci/run` installs them.
Skipped when an editor or its plugin is missing, unless `WAVE_LSP_REQUIRE_EDITORS=1`
(tests/clients/editors.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.editors import editor_env, make_skill, require
from tests.clients.readme_snippets import readme_snippet

HERE = Path(__file__).parent
#: where Debian's vim-ale puts the plugin (WAVE_LSP_ALE_DIR names another copy, such as the
#: package unpacked with `dpkg -x` where it cannot be installed)
ALE = Path(os.environ.get("WAVE_LSP_ALE_DIR", "/usr/share/vim-ale"))


def emacs_with_lsp_mode() -> str | None:
    emacs = shutil.which("emacs")
    if emacs is None:
        return None
    probe = subprocess.run([emacs, "--batch", "--eval",
                            "(progn (require 'lsp-mode) (require 'markdown-mode))"],
                           capture_output=True, text=True, timeout=60)
    return emacs if probe.returncode == 0 else None


def vim_with_ale() -> str | None:
    vim = shutil.which("vim")
    if vim is None or not (ALE / "plugin" / "ale.vim").is_file():
        return None
    probe = subprocess.run([vim, "-N", "-u", "NONE", "-i", "NONE", "-es", "-c",
                            "if has('job') && has('channel') && has('lambda') | qall! | "
                            "else | cquit | endif"], capture_output=True, timeout=30,
                           stdin=subprocess.DEVNULL)
    return vim if probe.returncode == 0 else None


@pytest.mark.timeout(120)
def test_emacs_lsp_mode_with_the_readme_snippet(tmp_path: Path) -> None:
    emacs = require(emacs_with_lsp_mode(), "Emacs with lsp-mode and markdown-mode")
    skill = make_skill(tmp_path, ".git")
    init = tmp_path / "init.el"
    init.write_text(readme_snippet("emacs-lsp-mode"), "utf-8")
    (tmp_path / "home").mkdir()
    completed = subprocess.run(
        [emacs, "--batch", "-l", str(init), "-l", str(HERE / "lsp_mode_session.el")],
        capture_output=True, text=True, timeout=90, cwd=tmp_path,
        env={**editor_env(tmp_path), "SKILL_FILE": str(skill)})
    assert completed.returncode == 0 and completed.stdout.strip(), completed.stderr
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["major_mode"] == "markdown-mode" and result["server"] == "wave-lsp", result
    assert Path(result["root"]) == tmp_path / "project"
    assert "SK050" in result["codes"], (result, completed.stderr[-2000:])
    assert result["lines"][result["codes"].index("SK050")] == 0


@pytest.mark.timeout(120)
def test_vim_ale_with_the_readme_snippet(tmp_path: Path) -> None:
    vim = require(vim_with_ale(), "Vim (with +job, +channel, +lambda) and ALE")
    skill = make_skill(tmp_path, ".git")
    vimrc = tmp_path / "vimrc"
    vimrc.write_text(readme_snippet("vim-ale"), "utf-8")
    result_file = tmp_path / "result.json"
    completed = subprocess.run(
        [vim, "-N", "-u", "NONE", "-i", "NONE", "-es", "--cmd", f"set rtp^={ALE}",
         "--cmd", "filetype plugin on", "--cmd", "runtime plugin/ale.vim",
         "-S", str(vimrc), "-S", str(HERE / "ale_session.vim")],
        capture_output=True, text=True, timeout=90, cwd=tmp_path, stdin=subprocess.DEVNULL,
        env={**editor_env(tmp_path), "SKILL_FILE": str(skill), "RESULT_FILE": str(result_file)})
    assert completed.returncode == 0 and result_file.is_file(), completed.stdout + completed.stderr
    result = json.loads(result_file.read_text("utf-8"))
    assert "SK050" in result["codes"], result
    assert set(result["linters"]) == {"wave-lsp"}
    assert result["lines"][result["codes"].index("SK050")] == 1  # Vim counts lines from 1
