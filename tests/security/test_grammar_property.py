"""Property: compound commands generated from a grammar of bash constructs; a deny rule on any one
simple command inside denies the whole command, whatever allow rules say, and a command no rule
allows is never allowed."""

from __future__ import annotations

import shlex
import subprocess

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wave_lsp.core.permissions.guard import StrictEngine as PermissionEngine
from wave_lsp.core.permissions.rules import make_rule

SAFE = st.sampled_from(["ls -la", "git status", "echo hi", "cat README.md", "wc -l x", "true",
                        "printf '%s' a", "grep -n x y"])
TARGET = st.sampled_from(["rm -rf build", "rm x", "'rm' x", "\\rm x", "/bin/rm x", "rm  -f\tx",
                          "FOO=1 rm x", "PATH=/x rm y", ">/dev/null rm x", "r\\m x"])


def wrap(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """One grammar step around `inner` (a command line that contains the target somewhere).
    Parentheses are written with a space inside: `((` and `$((` would be arithmetic, another
    construct (never allowed, but not a command whose parts a deny rule can name)."""
    def step(draw_inner: str, other: str, form: int) -> str:
        forms = [
            f"{draw_inner} && {other}", f"{other} || {draw_inner}", f"{other}; {draw_inner}",
            f"{other} | {draw_inner}", f"{draw_inner} |& {other}", f"( {draw_inner} )",
            f"{{ {draw_inner}; }}", f"if {other}; then {draw_inner}; fi",
            f"if {draw_inner}; then {other}; fi", f"while {other}; do {draw_inner}; break; done",
            f"for i in 1 2; do {draw_inner}; done", f"case x in x) {draw_inner};; esac",
            f"echo $( {draw_inner} )", f'echo "$( {draw_inner} )"', f"echo `{draw_inner}`"
            if "`" not in draw_inner else f"echo $( {draw_inner} )",
            f"{draw_inner} &", f"! {draw_inner}", f"timeout 5 {draw_inner}",
            f"nice -n 5 {draw_inner}", f"env X=1 {draw_inner}", f"sh -c {shlex.quote(draw_inner)}",
            f"bash -c {shlex.quote(draw_inner)}", f"eval {shlex.quote(draw_inner)}",
            f"f() {{ {draw_inner}; }}; f", f"cat <<< \"$( {draw_inner} )\"",
            f"{other}\n{draw_inner}", f"X=$( {draw_inner} ) {other}",
            f"{draw_inner} 2>&1 > /dev/null",
        ]
        return forms[form % len(forms)]
    return st.builds(step, inner, SAFE, st.integers(min_value=0, max_value=100))


COMMANDS = st.recursive(TARGET, wrap, max_leaves=6)
ALLOW_ALL = [make_rule("Bash", "allow", "allowed-tools"),
             make_rule("Bash(git *)", "allow", "allowed-tools"),
             make_rule("Bash(echo *)", "allow", "allowed-tools")]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(COMMANDS)
def test_a_deny_rule_on_any_part_denies_the_whole(command: str) -> None:
    """Denied, even under a tool-wide allow. A generated line that bash itself cannot parse (the
    grammar can produce `timeout 5 f() { …; }`) runs nothing at all: for it, never allowed is the
    promise, whatever the reason given."""
    valid = subprocess.run(["bash", "-n", "-c", command], capture_output=True).returncode == 0
    for deny in ("Bash(rm:*)", "Bash(rm *)"):
        engine = PermissionEngine([*ALLOW_ALL, make_rule(deny, "deny", "user settings")])
        decision = engine.check(command)
        if valid:
            assert decision.behavior == "deny", (command, deny, decision.reason)
        else:
            assert not decision.allowed, (command, deny, decision.reason)


@settings(max_examples=150, deadline=None)
@given(COMMANDS)
def test_an_ask_rule_on_any_part_is_never_allowed(command: str) -> None:
    engine = PermissionEngine([*ALLOW_ALL, make_rule("Bash(rm *)", "ask", "project settings")])
    assert not engine.check(command).allowed, command


@settings(max_examples=150, deadline=None)
@given(COMMANDS)
def test_no_allow_rule_for_a_part_means_not_allowed(command: str) -> None:
    rules = [make_rule(r, "allow", "allowed-tools")
             for r in ("Bash(git *)", "Bash(echo *)", "Bash(ls *)", "Bash(cat *)", "Bash(true)",
                       "Bash(sh *)", "Bash(bash *)", "Bash(timeout *)", "Bash(env *)")]
    assert not PermissionEngine(rules).check(command).allowed, command
