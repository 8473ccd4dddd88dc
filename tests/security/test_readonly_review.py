"""The bypasses an adversarial review of the read-only allow-list found (issue 25), each decided
by the engine in a project laid out as the attack needs it: none is allowed any more. With them,
the commands Claude Code really runs without a rule, which must stay allowed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.core.permissions.guard import StrictEngine as PermissionEngine
from wave_lsp.core.permissions.rules import make_rule

#: (command, links in the project: name -> target, with {outside} the folder beside it)
NO_RULE = [
    ("git diff --relative {outside}/SECRET f.txt", {}),
    ("git diff data/SECRET f.txt", {"data": "{outside}"}),
    ("git branch --sort -committeremail NEWBR", {}),
    ("git tag --sort -committeremail NEWTAG", {}),
    ("git log --format=%GG -1", {}), ("git log --pretty=format:%GS -1", {}),
    ("git show --format=%G? HEAD", {}),
    ("file -m f.txt:{outside}/SECRET f.txt", {}), ("file -m mg f.txt", {}),
    ("strings -s @{outside}/SECRET f.txt", {}), ("strings -f *", {}),
    ("diff d1 d2", {}), ("sha256sum -c sums.txt", {}), ("md5sum --check sums.txt", {}),
    ("date -d 'TZ=\"{outside}/SECRET\" now'", {}),
    ("cat [^a]*", {"zlink": "{outside}/SECRET"}), ("wc -c [[:lower:]]link", {}),
    ("cat x=~/id_rsa", {"x=": "{outside}"}), ("grep -f x=~/k f.txt", {}),
    ('cat l" "/SECRET', {"l ": "{outside}"}), ("cat \\ l/SECRET", {" l": "{outside}"}),
    ("cat d}\\x/SECRET", {"d}x": "{outside}"}), ("cat f\vx", {}),
    ("echo pwned > -", {}),
    ("git remote show origin", {}), ("git config --get --global user.name", {}),
    ("cat " + "{" * 20_000, {}), ("cat " + "[a" * 20_000, {}),
]
#: with `Bash` allowed tool-wide and `touch` denied
DENIED = [
    "c=touch; i='a[$($c CANARY)]'; x=abc; echo ${x:i}",
    "c=touch; i='a[$($c CANARY)]'; echo ${!i}",
    "c=touch; i='a[$($c CANARY)]'; [[ -v $i ]]",
    "declare -n r='a[$(touch CANARY)]'; echo $r",
    "setarch x86_64 touch CANARY", "prlimit touch CANARY", "setpriv touch CANARY",
    "git -c trailer.x.command='touch CANARY' interpret-trailers --trailer x=1",
    "GIT_CONFIG_PARAMETERS=\"'core.pager=touch CANARY'\" git -p log -1",
    "export GIT_CONFIG_COUNT=1; git log",
]
STILL_READ_ONLY = [
    "git status", "git status --short", "git log --oneline -5", "git log --oneline -10",
    "git diff HEAD", "git diff --stat HEAD~3..HEAD", "git show stash@{0}", "git diff --name-only",
    "git branch --show-current", "git rev-parse --abbrev-ref HEAD", "git tag --sort=-version:refname",
    "grep -rn x .", "grep -n 'service_start\\|register' f.txt", "find . -name '*.md' -type f",
    "head -n 5 f.txt", "head -5 f.txt", "wc -l f.txt", "date +%F", "ls -la", "cat f.txt",
    "ls d1/", "cat d1/*", "git diff --relative=d1", "git diff --relative",
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "SECRET").write_text("TOP-SECRET\n", "utf-8")
    (root / ".git").mkdir()
    (root / "f.txt").write_text("x\n", "utf-8")
    (root / "sums.txt").write_text(f"0  {outside}/SECRET\n", "utf-8")
    for folder in ("d1", "d2", "mg"):
        (root / folder).mkdir()
        (root / folder / "a").write_text("a\n", "utf-8")
    (root / "@resp").write_text("", "utf-8")
    return root


def _lay(project: Path, links: dict[str, str]) -> None:
    outside = project.parent / "outside"
    for name, target in links.items():
        os.symlink(target.format(outside=outside), project / name)


def _command(text: str, project: Path) -> str:
    return text.replace("{outside}", str(project.parent / "outside")) if "{outside}" in text \
        else text


@pytest.mark.parametrize(("command", "links"), NO_RULE, ids=[c[:40] for c, _ in NO_RULE])
def test_no_rule_no_run(command: str, links: dict[str, str], project: Path) -> None:
    _lay(project, links)
    engine = PermissionEngine([], project=project, profile=CLAUDE_CODE)
    decision = engine.check(_command(command, project))
    assert not decision.allowed, (command, decision.reason)


def test_a_bare_repository_as_git_sees_one_is_not_read_only(project: Path) -> None:
    (project / ".git").rmdir()
    (project / "HEAD").write_text("0" * 40 + "\n", "utf-8")
    (project / "objects").mkdir()
    (project / "refs").write_text("", "utf-8")  # git only needs to enter it
    (project / "refs").chmod(0o755)
    engine = PermissionEngine([], project=project, profile=CLAUDE_CODE)
    assert not engine.check("git diff HEAD~1 HEAD").allowed


@pytest.mark.parametrize("command", DENIED)
def test_deny_rules_see_through(command: str, project: Path) -> None:
    rules = [make_rule("Bash", "allow", "allowed-tools"),
             make_rule("Bash(touch:*)", "deny", "user settings")]
    decision = PermissionEngine(rules, project=project, profile=CLAUDE_CODE).check(command)
    assert not decision.allowed, (command, decision.reason)


def test_an_allow_rule_folder_is_checked_against_what_a_glob_matches(project: Path) -> None:
    skill = project / "skill"
    skill.mkdir()
    os.symlink(project.parent / "outside", skill / "up")
    rule = make_rule(f"Bash(cat {skill}/*)", "allow", "allowed-tools")
    engine = PermissionEngine([rule], project=project, profile=CLAUDE_CODE)
    assert not engine.check(f"cat {skill}/u*/SECRET").allowed
    (skill / "notes.md").write_text("n\n", "utf-8")
    assert engine.check(f"cat {skill}/notes.md").allowed


@pytest.mark.parametrize("command", STILL_READ_ONLY)
def test_what_claude_code_runs_stays_read_only(command: str, project: Path) -> None:
    decision = PermissionEngine([], project=project, profile=CLAUDE_CODE).check(command)
    assert decision.allowed and decision.read_only, (command, decision.reason)
