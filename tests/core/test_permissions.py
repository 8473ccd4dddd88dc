"""The permission engine, case by case (docs/design/runtime-facts.md §3.8): rule kinds, word boundaries,
escapes, compound splitting, wrappers, environment assignments, expansions and precedence across sources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE
from wave_lsp.core.permissions.guard import StrictEngine as PermissionEngine
from wave_lsp.core.permissions.rules import make_rule, narrowest_rule
from wave_lsp.core.permissions.settings import load_settings, settings_files
from wave_lsp.core.permissions.shell import split_command


def engine(*rules: str, behavior: str = "allow") -> PermissionEngine:
    return PermissionEngine([make_rule(rule, behavior, "allowed-tools") for rule in rules])


ALLOW_CASES = [
    # exact
    ("Bash(npm run build)", "npm run build", True),
    ("Bash(npm run build)", "npm run build --watch", False),
    ("Bash(npm run build)", "  npm run build  ", True),
    # legacy prefix: word boundary
    ("Bash(git log:*)", "git log", True),
    ("Bash(git log:*)", "git log -5 --oneline", True),
    ("Bash(git log:*)", "git logs", False),
    ("Bash(git:* push)", "git:x push", True),  # `:*` mid-pattern: a literal colon, a wildcard
    ("Bash(git:* push)", "git push", False),
    # wildcard, with and without the word boundary
    ("Bash(ls *)", "ls -la", True),
    ("Bash(ls *)", "ls", True),  # a trailing ` *` also matches the bare command
    ("Bash(ls *)", "lsof", False),
    ("Bash(ls*)", "lsof", True),
    ("Bash(ls*)", "ls -la", True),
    ("Bash(git * main)", "git push origin main", True),
    ("Bash(git * main)", "git push origin dev", False),
    ("Bash(echo a\\*b)", "echo a*b", True),  # escaped star is literal
    ("Bash(echo a\\*b)", "echo axxb", False),
    ("Bash(echo \\(x\\))", "echo (x)", True),  # escaped parentheses
    # tool-wide
    ("Bash", "anything at all; rm -rf /tmp/x", True),
    ("Bash(*)", "whoami", True),
    # wrappers and environment assignments are skipped by allow rules
    ("Bash(npm test:*)", "timeout 30 npm test", True),
    ("Bash(npm test:*)", "nice -n 5 npm test --ci", True),
    ("Bash(npm test:*)", "NODE_ENV=test npm test", True),
    ("Bash(npm test:*)", "NODE_ENV=$(id) npm test", False),  # unsafe assignment value
    ("Bash(ls *)", "ls -la > listing.txt", True),  # output redirection stripped
    # compound commands: every part must be allowed
    ("Bash(git status)", "git status && git log -1", False),
    ("Bash(git *)", "git status && git log -1", True),
    ("Bash(git *)", "git status; rm -rf /", False),
    ("Bash(git *)", "git status | grep x", False),
    ("Bash(git status && git log -1)", "git status && git log -1", True),  # exact, whole
    # expansions are never allowed by prefix or wildcard rules
    ("Bash(echo *)", "echo $(whoami)", False),
    ("Bash(echo *)", "echo `whoami`", False),
    ("Bash(echo *)", "echo $HOME", False),
    ("Bash(echo:*)", "echo ${HOME}", False),
    ("Bash(echo $HOME)", "echo $HOME", True),  # an exact rule may
    # unparseable or control flow: only exact rules
    ("Bash(if *)", "if true; then ls; fi", False),
    ("Bash(echo *)", "echo 'unterminated", False),
    # other tools never allow Bash
    ("Read", "cat x", False),
    # issue 15: assignments that change what runs are never skipped
    ("Bash(git *)", "PATH=/tmp git status", False),
    ("Bash(npm test:*)", "LD_PRELOAD=x.so npm test", False),
    ("Bash(git *)", "GIT_EXTERNAL_DIFF=./x git diff", False),
    # what the engine cannot model is never allowed, not even by a tool-wide rule
    ("Bash", "$(echo rm) x", False),
    ("Bash", "f() { ls; }; f", False),
    ("Bash", "cat <(ls)", False),
    ("Bash", "echo 'touch x' | sh", False),
    ("Bash", "echo 'unterminated", False),
    # the command a wrapper runs must be allowed too
    ("Bash(timeout *)", "timeout 5 rm x", False),
    ("Bash(xargs *)", "xargs rm", False),
    ("Bash(sh *)", "sh -c 'rm x'", False),
]


@pytest.mark.parametrize(("rule", "command", "allowed"), ALLOW_CASES)
def test_allow_rules(rule: str, command: str, allowed: bool) -> None:
    decision = engine(rule).check(command)
    assert decision.allowed is allowed, decision.reason
    if allowed:
        assert decision.rule is not None and decision.rule.raw == rule
    else:
        assert decision.behavior == "ask" and decision.reason


def test_no_rule_means_ask() -> None:
    decision = engine().check("git status")
    assert decision.behavior == "ask"
    assert decision.reason == ("wave-lsp's execution policy, stricter than the runtime's, needs "
                               "an allow rule that matches `git status` as wave-lsp reads it")


def test_compound_reason_names_the_parts() -> None:
    decision = engine("Bash(git status)").check("git status && curl x")
    assert decision.reason == ("wave-lsp's execution policy, stricter than the runtime's, needs "
                               "an allow rule for each of `curl x`")


def test_deny_beats_allow_and_ask_beats_allow() -> None:
    rules = [make_rule("Bash(curl *)", "allow", "allowed-tools"),
             make_rule("Bash(curl*)", "deny", "user settings"),
             make_rule("Bash(rm:*)", "ask", "project settings")]
    engine_ = PermissionEngine(rules)
    denied = engine_.check("curl http://x")
    assert denied.behavior == "deny" and denied.rule.raw == "Bash(curl*)"
    assert denied.reason == "Permission to use Bash with command curl http://x has been denied."
    asked = engine_.check("rm -rf build")
    assert asked.behavior == "ask" and "Permission rule 'Bash(rm:*)' from project settings" in asked.reason


@pytest.mark.parametrize("command", [
    "git status && curl http://x",  # a part
    "echo $(curl http://x)",  # inside a command substitution
    "timeout 5 curl http://x",  # behind a wrapper
    "FOO=$(x) curl http://x",  # behind any assignment
    "curl http://x | sh",
])
def test_deny_rules_match_every_part(command: str) -> None:
    rules = [make_rule("Bash", "allow", "allowed-tools"), make_rule("Bash(curl:*)", "deny", "user")]
    assert PermissionEngine(rules).check(command).behavior == "deny"


def test_tool_wide_deny_and_ask() -> None:
    assert engine("Bash", behavior="deny").check("ls").behavior == "deny"
    rules = [make_rule("Bash(ls)", "allow", "a"), make_rule("Bash()", "ask", "b")]
    assert PermissionEngine(rules).check("ls").behavior == "ask"


def test_split_command() -> None:
    split = split_command("FOO=1 git status 2>/dev/null && echo $(id) | wc -l")
    assert split.compound
    assert [p.text for p in split.parts][:2] == ["FOO=1 git status 2>/dev/null", "echo $(id)"]
    assert split.parts[0].bare == "FOO=1 git status"
    assert split.parts[1].expansion == "command substitution"
    assert "id" in [p.text for p in split.parts]
    assert split_command("git status").compound is False
    assert split_command("a\nb").compound is True
    assert split_command("for x in 1; do echo $x; done").problem


def test_narrowest_rule_round_trips() -> None:
    for command in ["git log -5", "echo '(x)' *", "node /a\\b.mjs"]:
        rule = narrowest_rule(command)
        decision = engine(rule).check(command)
        assert decision.allowed, (rule, decision.reason)
        assert not engine(rule).check(command + " extra").allowed


def test_settings_sources_and_labels(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    files = settings_files(WAVE, project, home)
    assert [(label, path.relative_to(tmp_path).as_posix(), personal)
            for label, path, personal in files] == [
        ("user settings", "home/.wave/settings.json", True),
        ("project settings", "project/.wave/settings.json", False),
        ("local project settings", "project/.wave/settings.local.json", False)]
    assert settings_files(CLAUDE_CODE, project, home)[0][1] == home / ".claude/settings.json"
    assert settings_files(WAVE, project, home, personal=False)[0][0] == "project settings"
    path = project / ".wave/settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"permissions": {"allow": ["Bash(ls)", 3], "deny": ["Bash(rm:*)"],
                                                "ask": "nope"}}), "utf-8")
    loaded = load_settings("project settings", path, False)
    assert [(r.raw, r.behavior) for r in loaded.rules] == [("Bash(rm:*)", "deny"),
                                                          ("Bash(ls)", "allow")]
    assert loaded.problems == [f"{path}: permissions.ask is not a list"]
    path.write_text("{broken", "utf-8")
    assert load_settings("project settings", path, False).problems
    assert load_settings("x", tmp_path / "missing.json", False).rules == []


def test_a_deeply_nested_settings_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    """json.loads raises RecursionError (not JSONDecodeError) on deeply nested input."""

    path = tmp_path / "settings.json"
    path.write_text("[" * 100_000, "utf-8")
    result = load_settings("project settings", path, False)
    assert result.rules == [] and len(result.problems) == 1
    assert "cannot be read as JSON" in result.problems[0]


def test_the_project_root_is_a_folder_not_a_prefix_of_a_name(tmp_path) -> None:
    from wave_lsp.mcp.handlers import ProjectTools

    (tmp_path / "root").mkdir()
    (tmp_path / "rootless").mkdir()
    tools = ProjectTools(tmp_path / "root")
    assert tools.contains(tmp_path / "root" / "x") and tools.contains(tmp_path / "root")
    assert not tools.contains(tmp_path / "rootless" / "x")
