"""The execution guard (wave_lsp/core/permissions/guard.py, docs/design/product.md *Two
decisions*): where the prediction says Claude Code runs an attack, the guard still refuses it, the
preview says so per command, and the test-only switch turns the guard off only inside a test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.core.invocation.preview import injection_lines, invoke
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.permissions.guard import TEST_SWITCH, Guard, guard_disabled
from wave_lsp.core.permissions.prediction import Predictor, RuntimeInputs
from wave_lsp.core.permissions.rules import make_rule
from wave_lsp.core.workspace.location import locate

#: commands Claude Code runs (the prediction) that wave-lsp does not run itself, with the
#: rules that allow them in Claude Code
PREDICTED_TO_RUN = [
    ("grep -R secret .", []),  # follows links out of the project
    ("ls -L", []),
    ("tail -f notes.txt", []),  # never ends
    ("git diff --no-index a /etc/hostname", []),  # compares a file outside
    ("cat {root}/skill/../../outside", ["Bash(cat {root}/*)"]),  # `..` under a wildcard rule
]


@pytest.mark.parametrize(("command", "rules"), PREDICTED_TO_RUN)
def test_the_guard_refuses_what_the_runtime_runs(tmp_path: Path, command: str,
                                                 rules: list[str]) -> None:
    made = [make_rule(rule.format(root=tmp_path), "allow", "allowed-tools") for rule in rules]
    allow = [rule for rule in made if rule is not None]
    command = command.format(root=tmp_path)
    prediction = Predictor(allow, profile=CLAUDE_CODE,
                           inputs=RuntimeInputs((tmp_path,))).check(command)
    assert prediction.allowed, prediction
    verdict = Guard(allow, "Bash", tmp_path, CLAUDE_CODE).check(command, command)
    assert verdict.refusal is not None


def test_the_preview_says_why_it_did_not_run(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(TEST_SWITCH, raising=False)
    project = tmp_path / "project"
    folder = project / ".claude" / "skills" / "demo"
    folder.mkdir(parents=True)
    (project / ".git").mkdir()
    path = folder / "SKILL.md"
    path.write_text("---\nname: demo\ndescription: D. Use when asked.\n---\nS: !`sleep 1`\n")
    document = SkillDocument.from_text(path.read_text("utf-8"))
    result = invoke(document, locate(path, home=tmp_path / "home"),
                    Settings.for_target("claude-code", home=tmp_path / "home"), mode="execute")
    assert not result.ok and result.error is not None
    assert "Claude Code runs this; wave-lsp did not:" in result.error
    assert result.injections[0].decision.allowed and not result.injections[0].executed
    assert "[not run: Claude Code runs this; wave-lsp did not:" in injection_lines(result)[0]


def test_the_switch_works_only_inside_a_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_SWITCH, "1")
    assert guard_disabled()  # pytest sets PYTEST_CURRENT_TEST while a test runs
    assert Guard([], "Bash", Path.cwd(), CLAUDE_CODE).check("sleep 1").refusal is None
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    assert not guard_disabled()
    monkeypatch.setenv(TEST_SWITCH, "0")
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "x")
    assert not guard_disabled()
    assert os.environ[TEST_SWITCH] == "0"


@pytest.mark.parametrize(("command", "rules", "said"), [
    ("cat {root}/skill/../../outside", ["Bash(cat {root}/*)"],
     "`Bash(cat {root}/*)` matches `cat {root}/skill/../../outside`, but wave-lsp's execution "
     "policy, stricter than the runtime's, never lets a prefix or wildcard rule reach a path "
     "that steps out with `..` or through a symbolic link"),
    ("node x.js", [], "wave-lsp's execution policy, stricter than the runtime's, needs an allow "
                      "rule that matches `node x.js` as wave-lsp reads it"),
    ("echo $HOME", ["Bash(echo *)"], "wave-lsp's execution policy, stricter than the runtime's, "
                                     "never runs parameter expansion under a prefix or wildcard "
                                     "rule"),
    ("true && node x.js", ["Bash(true)"], "wave-lsp's execution policy, stricter than the "
                                          "runtime's, needs an allow rule for each of `node x.js`"),
])
def test_a_guard_refusal_speaks_as_wave_lsp_not_as_the_runtime(tmp_path: Path, command: str,
                                                               rules: list[str],
                                                               said: str) -> None:
    made = [make_rule(rule.format(root=tmp_path), "allow", "allowed-tools") for rule in rules]
    verdict = Guard([rule for rule in made if rule is not None], "Bash", tmp_path,
                    CLAUDE_CODE).check(command.format(root=tmp_path))
    assert verdict.refusal is not None and verdict.refusal.startswith(said.format(root=tmp_path))
    assert "requires approval" not in verdict.refusal
    assert "cannot ask for approval" not in verdict.refusal
