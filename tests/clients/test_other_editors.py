"""Smoke tests with two more real editors, configured by docs/editors.md's own snippets: batch Emacs
with lsp-mode (lsp_mode_session.el) and Vim with ALE (ale_session.vim) start `wave-lsp serve` for
a SKILL.md and receive its diagnostics (SK050 at the first line: the skill has no description);
the command each snippet adds for the preview (neither client opens a document a server shows)
opens it as a read-only document (issue 38 item 4).

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

from tests.clients.editors import EMACS_STARTUP, editor_env, make_settings_skill, require, snippet_target
from tests.clients.readme_snippets import readme_snippet

HERE = Path(__file__).parent
#: a copy of ALE that is not installed where Vim finds optional packages (such as Debian's
#: vim-ale unpacked with `dpkg -x` where it cannot be installed): the test installs it into the
#: fresh HOME's `~/.vim/pack/*/opt/ale`, as a user who cloned ALE there would have it
ALE_DIR = os.environ.get("WAVE_LSP_ALE_DIR")
#: ALE's lint types by LSP severity (ALE 3.3 shows information and hints as warnings)
ALE_TYPES = {1: "E", 2: "W", 3: "W", 4: "W"}


def emacs_with_lsp_mode() -> str | None:
    emacs = shutil.which("emacs")
    if emacs is None:
        return None
    probe = subprocess.run([emacs, "--batch", "--eval",
                            "(progn (require 'lsp-mode) (require 'markdown-mode))"],
                           capture_output=True, text=True, timeout=60)
    return emacs if probe.returncode == 0 else None


def vim_with_ale() -> str | None:
    """A Vim with +job, +channel and +lambda in which `packadd ale` finds ALE (Debian's vim-ale
    puts it in /usr/share/vim/vimfiles/pack/dist-bundle/opt), or WAVE_LSP_ALE_DIR names a copy."""
    vim = shutil.which("vim")
    if vim is None:
        return None
    features = "has('job') && has('channel') && has('lambda')"
    found = "1" if ALE_DIR else "exists('g:loaded_ale')"
    probe = subprocess.run([vim, "-N", "-u", "NONE", "-i", "NONE", "-es", "-c", "silent! packadd ale",
                            "-c", f"if {features} && {found} | qall! | else | cquit | endif"],
                           capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    return vim if probe.returncode == 0 else None


def check_preview_document(path: str | None, text: str) -> None:
    """The preview document a snippet's command opened: the server's read-only file for the
    skill, outside the project, holding the rendered prompt."""
    assert path, "no preview document was opened"
    document = Path(path)
    assert document.name == "demo.preview.md" and "/project/" not in document.as_posix(), path
    assert "Base directory for this skill: " in text, text


@pytest.mark.timeout(120)
def test_emacs_lsp_mode_with_the_readme_snippet(tmp_path: Path) -> None:
    emacs = require(emacs_with_lsp_mode(), "Emacs with lsp-mode and markdown-mode")
    snippet = readme_snippet("emacs-lsp-mode")
    skill, severity = make_settings_skill(tmp_path, snippet_target(snippet), ".git")
    init = tmp_path / "init.el"
    init.write_text(snippet, "utf-8")
    # lsp-mode asks once which folder is the project root (README): lsp_mode_session.el presses
    # `i`, "Import project root" (the version-control root it suggests), as the user does
    completed = subprocess.run(
        [emacs, *EMACS_STARTUP, "-l", str(init), "-l", str(HERE / "lsp_mode_session.el")],
        capture_output=True, text=True, timeout=90, cwd=tmp_path, stdin=subprocess.DEVNULL,
        env={**editor_env(tmp_path), "SKILL_FILE": str(skill)})
    assert completed.returncode == 0 and completed.stdout.strip(), completed.stderr
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["major_mode"] == "markdown-mode" and result["server"] == "wave-lsp", result
    assert Path(result["root"]) == tmp_path / "project"
    assert "SK050" in result["codes"], (result, completed.stderr[-2000:])
    index = result["codes"].index("SK050")
    assert result["lines"][index] == 0
    # the target the snippet gives (none: where the skill lives)
    assert result["severities"][index] == severity, result
    # issue 38 item 4: the snippet's `wave-lsp-preview` opens the preview as a read-only document
    check_preview_document(result["preview_document"], result["preview_document_text"])
    assert result["preview_document_read_only"] is True and result["preview_document_shown"] is True


@pytest.mark.timeout(120)
def test_vim_ale_with_the_readme_snippet(tmp_path: Path) -> None:
    """The snippet is the whole `~/.vimrc` of a fresh HOME, as printed (no `-u`, nothing added:
    Vim also reads Debian's system vimrc, as it does for a user)."""
    vim = require(vim_with_ale(), "Vim (with +job, +channel, +lambda) and ALE")
    snippet = readme_snippet("vim-ale")
    skill, severity = make_settings_skill(tmp_path, snippet_target(snippet), ".git")
    env = editor_env(tmp_path)
    (tmp_path / "home/.vimrc").write_text(snippet, "utf-8")
    if ALE_DIR:
        package = tmp_path / "home/.vim/pack/ale/opt"
        package.mkdir(parents=True)
        (package / "ale").symlink_to(ALE_DIR, target_is_directory=True)
    result_file = tmp_path / "result.json"
    completed = subprocess.run(
        [vim, "--not-a-term", "-S", str(HERE / "ale_session.vim"), str(skill)],
        capture_output=True, text=True, timeout=90, cwd=tmp_path, stdin=subprocess.DEVNULL,
        env={**env, "RESULT_FILE": str(result_file)})
    assert completed.returncode == 0 and result_file.is_file(), completed.stdout + completed.stderr
    result = json.loads(result_file.read_text("utf-8"))
    assert result["filetype"] == "markdown", result  # the snippet's `filetype plugin on`
    assert "SK050" in result["codes"], result
    index = result["codes"].index("SK050")
    assert result["lines"][index] == 1  # Vim counts lines from 1
    # the target the snippet gives (none: where the skill lives)
    assert result["types"][index] == ALE_TYPES[severity], result
    # issue 38 item 4: the snippet's :WavePreview opens the preview as a read-only document
    preview = result["preview"]
    assert preview, result
    check_preview_document(preview["document"], "\n".join(preview["lines"]))
    assert preview["readonly"] == 1
