"""The trust model of docs/security.md, case by case: the user's deny and ask rules always apply;
repository configuration can add restrictions, never remove them; a settings file that cannot be
used fails closed; execution from the editor needs the user's own setting, which VS Code ignores in
untrusted workspaces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.test_preview import skill
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.invocation.preview import invoke
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate

REPO = Path(__file__).resolve().parents[2]


def preview(path: Path, home: Path, mode: str = "dry-run", **settings) -> dict:
    document = SkillDocument.from_text(path.read_text("utf-8"))
    values = Settings(home=home).merged(**settings)
    return invoke(document, locate(path, home=home), values, mode=mode).to_json()


@pytest.mark.parametrize("changes", [{}, {"personal": False}, {"target": "claude-code"},
                                     {"target": "agentskills", "personal": False},
                                     {"target": "portable"}])
def test_user_deny_and_ask_rules_survive_any_repository_setting(tmp_path: Path, changes) -> None:
    """wave-lsp runs neither command whatever the target. The rules are in `~/.wave`, which only
    Wave reads: the prediction under `wave` is Wave's own (runtime-facts §8.12: no `:*` form, no
    `ask` rules, `allowed-tools: Bash` allows both), and Claude Code and skills-ref never read
    the file, so under every one of these it is the guard that keeps the commands from running
    (the user's rules restrict what wave-lsp runs; they are not the runtime's)."""
    path = skill(tmp_path, "!`git push`\n!`git status`\n", "allowed-tools: Bash",
                 home_settings={"permissions": {"deny": ["Bash(git push:*)"],
                                                "ask": ["Bash(git status)"]}})
    result = preview(path, tmp_path / "home", mode="execute", **changes)
    assert result["ok"] is False
    assert not any(injection["executed"] for injection in result["injections"])
    decisions = [i["decision"] for i in result["injections"]]
    if changes.get("target") == "portable":
        assert decisions == ["deny", "ask"]
    else:
        assert decisions == ["allow", "allow"]
        assert "wave-lsp did not" in result["injections"][0]["notRunBecause"]
        assert "git push has been denied" in result["injections"][0]["notRunBecause"]


def test_claude_settings_deny_also_applies_under_the_wave_target(tmp_path: Path) -> None:
    """Wave never reads `~/.claude/settings.json` (its prediction runs `git push`), but wave-lsp's
    guard applies the user's deny rules of every runtime."""
    path = skill(tmp_path, "!`git push`\n", "allowed-tools: Bash")
    (tmp_path / "home/.claude").mkdir(parents=True)
    (tmp_path / "home/.claude/settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(git push:*)"],
                                    "allow": ["Bash(git status)"]}}), "utf-8")
    result = preview(path, tmp_path / "home", mode="execute")
    injection = result["injections"][0]
    assert injection["decision"] == "allow" and not injection["executed"]
    assert "git push has been denied" in injection["notRunBecause"]


def test_user_allow_rules_are_personal_and_can_be_switched_off(tmp_path: Path) -> None:
    path = skill(tmp_path, "!`make status`\n",
                 home_settings={"permissions": {"allow": ["Bash(make status)"]}})
    assert preview(path, tmp_path / "home")["ok"] is True
    assert preview(path, tmp_path / "home", personal=False)["ok"] is False


@pytest.mark.parametrize("text", ["{broken", "[]", '{"permissions": []}',
                                  '{"permissions": {"deny": "Bash(x)"}}',
                                  '{"permissions": {"ask": [3]}}',
                                  '{"permissions": {"deny": [""]}}'])
@pytest.mark.parametrize("where", ["project", "home"])
def test_a_settings_file_that_cannot_be_used_fails_closed(tmp_path: Path, text: str,
                                                          where: str) -> None:
    path = skill(tmp_path, "!`echo hi`\n", "allowed-tools: Bash")
    folder = (tmp_path / "project" if where == "project" else tmp_path / "home") / ".wave"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(text, "utf-8")
    document = SkillDocument.from_text(path.read_text("utf-8"))
    result = invoke(document, locate(path, home=tmp_path / "home"),
                    Settings(home=tmp_path / "home"), mode="execute").to_json()
    # Wave skips a file that is not JSON and drops a configuration that fails its validation;
    # either way `allowed-tools: Bash` allows `echo hi` (runtime-facts §8.12): the prediction
    # runs it, or cannot tell. The guard fails closed: nothing runs
    assert result["ok"] is False
    assert result["injections"][0]["decision"] in ("allow", "cannot-tell")
    assert "cannot be used" in result["error"]
    assert not result["injections"][0]["executed"]
    assert result["warnings"], "the problem is also reported"


@pytest.mark.parametrize(("target", "folder"), [("wave", ".wave"), ("claude-code", ".claude")])
def test_a_settings_file_that_cannot_be_used_is_a_finding(tmp_path: Path, monkeypatch, capsys,
                                                          target: str, folder: str) -> None:
    """Even for a read-only command that Claude Code would run without a rule."""
    from wave_lsp.cli import main

    path = skill(tmp_path, "!`git log -1`\n")
    if folder != ".wave":
        moved = tmp_path / "project" / folder / "skills/demo/SKILL.md"
        moved.parent.mkdir(parents=True)
        path = path.rename(moved)
    (tmp_path / "project" / folder).mkdir(parents=True, exist_ok=True)
    # Wave skips a file that is not JSON (it would run `git log -1` by its default rule), but
    # drops its whole configuration when a file fails validation: with or without this deny rule?
    broken = "{broken" if target == "claude-code" else json.dumps(
        {"permissions": {"allow": "Bash(x)", "deny": ["Bash(git log*)"]}})
    (tmp_path / "project" / folder / "settings.json").write_text(broken, "utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    main(["check", str(path), "--format", "json", "--target", target])
    findings = json.loads(capsys.readouterr().out)["files"][0]["findings"]
    # Claude Code would run `git log -1` (read-only): what it does with a file it cannot read
    # cannot be told; nor whether Wave applies the deny rule of a file that fails validation
    expected = "cannot be used" if target == "claude-code" else "fails its validation"
    assert any(f["code"] == "SK123" and expected in f["message"] for f in findings), findings


def test_vscode_ignores_the_dangerous_settings_in_untrusted_workspaces() -> None:
    package = json.loads((REPO / "vscode-client/package.json").read_text("utf-8"))
    untrusted = package["capabilities"]["untrustedWorkspaces"]
    assert untrusted["supported"] == "limited"
    assert {"wave.preview.allowExecution", "wave.personalSkills", "wave.server.pythonPath",
            "wave.settingsFiles"} <= set(untrusted["restrictedConfigurations"])
    properties = package["contributes"]["configuration"]["properties"]
    assert properties["wave.preview.allowExecution"]["default"] is False


def test_execution_over_lsp_is_off_by_default() -> None:
    from wave_lsp.lsp.state import read_client_settings

    assert read_client_settings(None).allow_execution is False
    assert read_client_settings({"preview": {"allowExecution": "true"}}).allow_execution is False
    assert read_client_settings({"preview": {"allowExecution": True}}).allow_execution is True
