"""Smoke test with a real editor: batch Emacs with eglot, configured by docs/editors.md's own eglot
snippet, starts `wave-lsp serve` for a SKILL.md in markdown-mode; eglot_session.el reports the
diagnostics eglot received, the completion `completion-at-point` applied, the diagnostics of the
edited buffer, a hover, the code actions on a body line and what running the preview action
answered (the preview is reachable without code lenses).

Debian 12 has Emacs 28.2, where eglot is not built in: `.ci/run` installs `emacs-nox` with
Debian's `elpa-eglot` (eglot 1.9) and `elpa-markdown-mode`. Skipped when Emacs, eglot or
markdown-mode is missing, unless `WAVE_LSP_REQUIRE_EDITORS=1` turns the skip into a failure
(tests/clients/editors.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.editors import EMACS_STARTUP, editor_env, make_settings_skill, require, snippet_target
from tests.clients.readme_snippets import readme_snippet

SCRIPT = Path(__file__).with_name("eglot_session.el")


def emacs_with_eglot() -> str | None:
    """An Emacs that can load eglot and markdown-mode (site-start included: Debian's elpa-*
    packages are found through it)."""
    emacs = shutil.which("emacs")
    if emacs is None:
        return None
    probe = subprocess.run([emacs, "--batch", "--eval", "(progn (require 'eglot) (require 'markdown-mode))"],
                           capture_output=True, text=True, timeout=60)
    return emacs if probe.returncode == 0 else None


# One session takes about 3 s here; eglot_session.el waits at most 15 s for each of connection,
# diagnostics and the diagnostics after the edit; the subprocess gets 90 s and the test 120 s.
@pytest.mark.timeout(120)
def test_emacs_eglot_with_the_readme_snippet(tmp_path: Path) -> None:
    emacs = require(emacs_with_eglot(), "Emacs with eglot and markdown-mode")
    # eglot finds the project with project.el: the version-control root
    snippet = readme_snippet("emacs-eglot")
    skill, severity = make_settings_skill(tmp_path, snippet_target(snippet), ".git")
    init = tmp_path / "init.el"
    init.write_text(snippet, "utf-8")
    completed = subprocess.run(
        [emacs, *EMACS_STARTUP, "-l", str(init), "-l", str(SCRIPT)], capture_output=True, text=True,
        timeout=90, env={**editor_env(tmp_path), "SKILL_FILE": str(skill)}, cwd=tmp_path)
    assert completed.stdout.strip(), completed.stderr
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert completed.returncode == 0 and result["timed_out"] == [], (result, completed.stderr)
    assert result["major_mode"] == "markdown-mode"
    assert Path(result["root"]) == tmp_path / "project"
    missing = [d for d in result["diagnostics"] if d["code"] == "SK050"]
    assert missing and (missing[0]["line"], missing[0]["character"]) == (0, 0), result["diagnostics"]
    # the target the server used: the snippet's, or (none set) the one where the skill lives
    assert missing[0]["severity"] == severity and missing[0]["source"] == "wave-lsp"
    applied = result["applied_line"]
    assert applied.startswith("description: ") and "descri" not in applied[len("description"):], applied
    assert "SK050" not in result["codes_after"] and "SK020" not in result["codes_after"], result
    assert "name" in result["hover"]
    # the preview without code lenses: a source action on a body line, whose command answers it
    previews = [a for a in result["code_actions"] if a["kind"] == "source.preview"]
    assert len(previews) == 1 and previews[0]["title"].startswith("Preview skill invocation"), (
        result["code_actions"])
    assert result["preview_ok"] is True
    assert result["preview_first_line"].startswith("Base directory for this skill: ")
    # issue 38 item 4: the preview opens as a document, read-only and outside the project (the
    # snippet's window/showDocument handler; Emacs 28's eglot has none of its own)
    document = Path(result["preview_document"])
    assert document.name == "demo.preview.md" and "/project/" not in document.as_posix(), result
    assert result["preview_answer_document"] == document.as_uri()
    assert result["preview_document_read_only"] is True and result["preview_document_shown"] is True
    assert "Base directory for this skill: " in result["preview_document_text"]
