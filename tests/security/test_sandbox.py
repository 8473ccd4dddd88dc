"""The OS sandbox every executed command runs in (docs/security.md *The sandbox*): what a command
inside sees and cannot reach, its limits, and the refusal when no sandbox can start. Each escape
is tried for real; the controls show the same command does reach its target on the host."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from wave_lsp.core.execution import sandbox as sandbox_module
from wave_lsp.core.execution.execution import MAX_CAPTURE, run_command
from wave_lsp.core.execution.sandbox import (
    SandboxUnavailable,
    View,
    seatbelt_profile,
)

SECRET = "TOP-SECRET-sandbox-4b1d"


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox: str) -> Path:
    """A project beside a secret, and a HOME full of credentials; returns the project."""
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh/id_ed25519").write_text(SECRET, "utf-8")
    (home / ".gitconfig").write_text(f"[user]\n\tname = {SECRET}\n", "utf-8")
    (home / ".claude").mkdir()
    (home / ".claude/settings.json").write_text('{"env": {"TOKEN": "' + SECRET + '"}}', "utf-8")
    project.mkdir()
    (project / "notes.txt").write_text("hello\n", "utf-8")
    (project / "escape").symlink_to(tmp_path)
    (tmp_path / "SECRET").write_text(SECRET, "utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("WAVE_TEST_TOKEN", SECRET)
    return project


def _run(command: str, project: Path, **options: object) -> str:
    outcome = run_command(command, project, timeout=20, **options)  # type: ignore[arg-type]
    return f"{outcome.exit_code}\n{outcome.stdout}\n{outcome.stderr}"


@pytest.mark.parametrize("command", [
    "cat ../SECRET", "cat escape/SECRET", "cat ~/.ssh/id_ed25519", "cat $HOME/.gitconfig",
    "cat ~/.claude/settings.json", "env", "cat /proc/1/environ", "cat /proc/*/environ",
    "grep -r TOP-SECRET / 2>/dev/null", "ls -la ~ /tmp", "cat /etc/shadow",
    "cat /proc/1/root/" + "{root}/SECRET",
])
def test_what_a_command_cannot_read(world: Path, command: str) -> None:
    command = command.replace("{root}", str(world.parent).lstrip("/"))
    shown = _run(command, world)
    assert SECRET not in shown, shown


def test_the_control_reads_what_it_may(world: Path) -> None:
    assert _run("cat notes.txt; git --version", world).startswith("0\nhello\ngit version")
    # the same command on the host does reach the secret: the test above is not vacuous
    host = subprocess.run("cat ../SECRET", shell=True, cwd=world, capture_output=True, text=True,
                          check=False)
    assert host.stdout == SECRET


@pytest.mark.parametrize("command", [
    "touch CANARY", "touch ../CANARY", "touch escape/CANARY", "touch ~/CANARY",
    "echo x > notes.txt", "mkdir sub", "ln -s / CANARY", "cp notes.txt ../CANARY",
    "touch /proc/1/root/{root}/CANARY",
])
def test_what_a_command_cannot_write(world: Path, command: str) -> None:
    root = world.parent
    _run(command.replace("{root}", str(root).lstrip("/")), world)
    assert sorted(p.name for p in root.rglob("CANARY*")) == []
    assert (world / "notes.txt").read_text("utf-8") == "hello\n"


def test_home_and_tmp_are_empty_and_thrown_away(world: Path) -> None:
    shown = _run(f"ls -A ~ | wc -l; find /tmp -type f -not -path '{world}/*' | wc -l; "
                 "echo kept > ~/x && echo kept > /tmp/y && cat ~/x /tmp/y", world)
    assert shown.splitlines()[:5] == ["0", "0", "0", "kept", "kept"], shown
    assert not (Path.home() / "x").exists()
    assert _run("cat ~/x /tmp/y", world).startswith("1\n\n"), "a second command starts afresh"


def test_no_network_not_even_the_hosts_loopback(world: Path) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    accepted: list[object] = []
    server.settimeout(5)
    thread = threading.Thread(target=lambda: accepted.append(_accept(server)), daemon=True)
    thread.start()
    shown = _run(f"echo hi > /dev/tcp/127.0.0.1/{port} && echo connected", world)
    server.close()
    thread.join(6)
    assert "connected" not in shown and accepted in ([], [None]), shown


def _accept(server: socket.socket) -> object:
    try:
        return server.accept()
    except OSError:
        return None


def test_no_host_processes_and_no_caller_environment(world: Path) -> None:
    shown = _run("ls /proc | grep -c '^[0-9]'; echo \"[$WAVE_TEST_TOKEN]\"", world)
    count, token = shown.splitlines()[1:3]
    assert int(count) < 10 and token == "[]", shown


def test_limits_file_size_and_processes(world: Path) -> None:
    shown = _run(f"head -c {MAX_CAPTURE + 4096} /dev/zero > /tmp/big; echo $?; "
                 "stat -c %s /tmp/big", world)
    status, size = shown.splitlines()[1:3]
    assert status != "0" and int(size) <= MAX_CAPTURE, shown
    many = _run("for i in $(seq 600); do sleep 5 & done 2>&1 | tail -1; kill $(jobs -p) 2>/dev/null",
                world)
    assert "fork" in many or "Resource temporarily unavailable" in many, many


def test_the_timeout_kills_the_whole_sandbox(world: Path) -> None:
    outcome = run_command("(sleep 30; echo late) & sleep 30", world, timeout=0.5)
    assert outcome.timed_out and outcome.exit_code == 124


def test_credentials_inside_an_installation_on_path_are_masked(world: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    tool = tmp_path / "tool"
    (tool / "bin").mkdir(parents=True)
    (tool / "bin/hello").write_text("#!/bin/sh\necho from-the-tool\n", "utf-8")
    (tool / "bin/hello").chmod(0o755)
    (tool / "credentials.toml").write_text(SECRET, "utf-8")
    monkeypatch.setenv("PATH", f"{tool / 'bin'}{os.pathsep}{os.environ['PATH']}")
    sandbox_module._path_installations.cache_clear()
    shown = _run("hello; cat " + str(tool / "credentials.toml"), world)
    assert "from-the-tool" in shown and SECRET not in shown


def test_a_view_that_contains_the_home_folder_is_refused(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    for folder in (tmp_path, Path("/")):
        with pytest.raises(SandboxUnavailable, match="contains your home folder"):
            run_command("true", folder)


def test_without_a_sandbox_nothing_runs_and_the_message_says_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_module, "_platform", lambda: "linux")
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name: None)
    sandbox_module._bubblewrap.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable, match="apt install bubblewrap"):
            run_command("touch CANARY", tmp_path)
    finally:
        sandbox_module._bubblewrap.cache_clear()
    assert not (tmp_path / "CANARY").exists()


def test_preview_execute_refuses_without_a_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from wave_lsp.cli import main

    skill = tmp_path / ".wave/skills/demo/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: demo\ndescription: Demo. Use when asked.\nallowed-tools: "
                     "Bash(touch *)\n---\n!`touch CANARY`\n", "utf-8")
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sandbox_module, "_platform", lambda: "plan9")
    assert main(["preview", str(skill), "--execute", "--format", "json", "--no-personal"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and "only inside an OS sandbox" in result["error"], result
    assert not any(item["executed"] for item in result["injections"])
    assert not (tmp_path / "CANARY").exists()


def test_the_macos_profile_denies_by_default_and_shows_only_the_view(tmp_path: Path) -> None:
    view = View(tmp_path, home=tmp_path / "home")
    profile = seatbelt_profile(view, tmp_path / "scratch")
    assert profile.startswith("(version 1)\n(deny default)\n")
    assert "(deny network*)" in profile
    assert f'(subpath "{tmp_path.resolve()}")' in profile
    assert f'(allow file-read* file-write* (subpath "{tmp_path / "scratch"}"))' in profile
    assert f'(subpath "{tmp_path / "home"}")' not in profile  # HOME itself is not readable


@pytest.mark.skipif(sys.platform != "darwin", reason="sandbox-exec exists only on macOS")
def test_the_macos_sandbox_contains_a_command(world: Path) -> None:  # pragma: no cover - macOS
    assert SECRET not in _run("cat ../SECRET ~/.ssh/id_ed25519", world)
    _run("touch CANARY ../CANARY", world)
    assert not list(world.parent.rglob("CANARY"))
