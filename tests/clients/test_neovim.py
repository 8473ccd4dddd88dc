"""Smoke test with a real editor: headless Neovim (Debian's `neovim`) starts `wave-lsp serve`,
opens a SKILL.md and reports the diagnostics, completion and hover it received.

Skipped when `nvim` is missing, unless `WAVE_LSP_REQUIRE_EDITORS=1` (set by `.ci/run`, which
installs Neovim) turns the skip into a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("nvim_check.lua")
TEXT = "---\nname: demo\n\n---\n# Demo\n\nRun it.\n"


def _nvim() -> str:
    found = shutil.which("nvim")
    if found is None:
        if os.environ.get("WAVE_LSP_REQUIRE_EDITORS") == "1":
            pytest.fail("nvim is required here (WAVE_LSP_REQUIRE_EDITORS=1) but not installed")
        pytest.skip("nvim is not installed")
    return found


# The session takes about 3 s here. nvim_check.lua waits at most 15 s for each of diagnostics,
# completion and hover; the subprocess gets 90 s (all three waits plus start-up, 25x the usual
# time) and the test 120 s, so a stuck session fails on the subprocess's own timeout.
@pytest.mark.timeout(120)
def test_headless_neovim_receives_diagnostics_completion_and_hover(tmp_path: Path) -> None:
    nvim = _nvim()
    skill = tmp_path / ".wave/skills/demo/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(TEXT, "utf-8")
    (tmp_path / ".git").mkdir()
    env = {**os.environ, "SERVER_CMD": f"{sys.executable} -m wave_lsp serve --stdio",
           "ROOT_DIR": str(tmp_path), "HOME": str(tmp_path / "home"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    completed = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {SCRIPT}",
         str(skill)], capture_output=True, text=True, timeout=90, env=env, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["client"] == "wave-lsp" and result["timed_out"] is False
    missing = [d for d in result["diagnostics"] if d["code"] == "SK050"]
    assert missing, result["diagnostics"]
    assert missing[0]["source"] == "wave-lsp" and missing[0]["severity"] == 1
    assert (missing[0]["lnum"], missing[0]["col"]) == (0, 0)
    assert "description" in result["completion_labels"]
    assert "name" not in result["completion_labels"]
    assert "name" in result["hover"]
