"""The code that differs by operating system, tested where it runs: on every system through a
stand-in for the platform where the logic can be asked (the managed settings folder, the sandbox
each system gets), and on the system itself where only it can answer (marked by platform, so
GitHub's CI runs each on Linux, macOS and Windows: `.github/workflows/ci.yml`). Elsewhere: the
sandbox suite (tests/security/test_sandbox.py) runs against bubblewrap on Linux and sandbox-exec
on macOS; file URIs outside the current folder (tests/cli/test_check.py) and CRLF files (tests/cli/
test_fix.py, test_excerpt.py, the golden cases) run on every system."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from wave_lsp.cli import main
from wave_lsp.core.execution import sandbox as sandbox_module
from wave_lsp.core.execution.sandbox import SandboxUnavailable, View, contain, ensure_available
from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.core.permissions import settings as settings_module

SKILL = ("---\nname: demo\ndescription: Demo. Use when asked.\nallowed-tools: Bash(echo *)\n---\n"
         "Result: !`echo from-the-sandbox`\n")

#: Claude Code's managed settings folder per platform (its settings documentation)
MANAGED = [("linux", "/etc/claude-code"), ("darwin", "/Library/Application Support/ClaudeCode"),
           ("win32", "C:/ProgramData/ClaudeCode"), ("freebsd14", "/etc/claude-code")]


@pytest.mark.parametrize(("platform", "folder"), MANAGED)
def test_managed_settings_are_read_where_each_system_keeps_them(
        monkeypatch: pytest.MonkeyPatch, platform: str, folder: str) -> None:
    monkeypatch.setattr(settings_module.sys, "platform", platform)
    files = settings_module.managed_settings_files(CLAUDE_CODE)
    assert files[0] == Path(folder) / "managed-settings.json"


def test_managed_settings_of_this_system() -> None:
    expected = dict(MANAGED).get(sys.platform, "/etc/claude-code")
    assert settings_module.managed_settings_files(CLAUDE_CODE)[0].parent == Path(expected)


@pytest.mark.parametrize(("platform", "sandbox", "install"), [
    ("linux", "bubblewrap", "bubblewrap"), ("darwin", "sandbox-exec", "sandbox-exec"),
    ("win32", None, "bubblewrap on Linux, sandbox-exec on macOS"),
])
def test_each_system_gets_its_sandbox_or_a_refusal(monkeypatch: pytest.MonkeyPatch, platform: str,
                                                   sandbox: str | None, install: str) -> None:
    monkeypatch.setattr(sandbox_module, "_platform", lambda: platform)
    monkeypatch.setattr(sandbox_module, "_bubblewrap", lambda: "/usr/bin/bwrap")
    monkeypatch.setattr(sandbox_module, "_seatbelt", lambda: "/usr/bin/sandbox-exec")
    if sandbox is None:
        with pytest.raises(SandboxUnavailable, match=install):
            ensure_available()
    else:
        assert ensure_available() == sandbox


def test_the_macos_branch_runs_bash_under_sandbox_exec_with_a_profile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_module, "_platform", lambda: "darwin")
    monkeypatch.setattr(sandbox_module, "_seatbelt", lambda: "/usr/bin/sandbox-exec")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "project").mkdir()
    contained = contain("echo hi", View(tmp_path / "project", home=tmp_path / "home"))
    try:
        assert contained.argv[:2] == ["/usr/bin/sandbox-exec", "-p"]
        assert contained.argv[2].startswith("(version 1)\n(deny default)\n")
        assert contained.argv[3:] == ["/bin/bash", "-c", "echo hi"]
        assert contained.scratch is not None and contained.environment["HOME"].startswith(
            str(contained.scratch))
    finally:
        if contained.scratch is not None:
            import shutil

            shutil.rmtree(contained.scratch)


def preview_execute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> tuple[int, dict]:
    skill = tmp_path / ".wave/skills/demo/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL, "utf-8")
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    code = main(["preview", str(skill), "--execute", "--format", "json", "--no-personal"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.skipif(sys.platform != "win32", reason="the refusal of a system with no sandbox, "
                                                    "on Windows itself")
def test_windows_runs_nothing_and_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys) -> None:  # pragma: no cover - Windows
    code, result = preview_execute(tmp_path, monkeypatch, capsys)
    assert code == 1 and result["ok"] is False
    assert "only inside an OS sandbox" in result["error"] and "win32" in result["error"]
    assert not any(item["executed"] for item in result["injections"])


@pytest.mark.skipif(sys.platform != "darwin", reason="sandbox-exec exists only on macOS")
def test_macos_runs_an_allowed_command_inside_sandbox_exec(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # pragma: no cover
    assert ensure_available() == "sandbox-exec"
    code, result = preview_execute(tmp_path, monkeypatch, capsys)
    assert code == 0 and result["ok"] is True, result
    assert "from-the-sandbox" in result["text"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="bubblewrap is Linux's sandbox")
def test_linux_has_bubblewrap_or_says_how_to_install_it() -> None:
    try:
        assert ensure_available() == "bubblewrap"
    except SandboxUnavailable as error:
        assert "bubblewrap" in str(error)


def test_paths_in_reports_use_forward_slashes_on_every_system(tmp_path: Path, capsys,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    skill = tmp_path / "nested" / "deeper" / "demo" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: demo\n---\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    main(["check", "nested", "--format", "json", "--no-personal"])
    (entry,) = json.loads(capsys.readouterr().out)["files"]
    assert entry["path"] == "nested/deeper/demo/SKILL.md"
    main(["check", "nested", "--format", "github", "--no-personal"])
    assert "file=nested/deeper/demo/SKILL.md," in capsys.readouterr().out
