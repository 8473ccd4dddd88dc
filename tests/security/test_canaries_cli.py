"""Issue 15's red-team cases through `wave-lsp preview --execute`: every attack is refused and no
canary file is ever created (tests/security/cases.py lists the attacks by class)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.security.cases import ATTACKS, Attack
from tests.security.harness import build, canaries
from wave_lsp.cli import main


def test_there_are_at_least_a_hundred_attacks_across_the_six_classes() -> None:
    assert len(ATTACKS) >= 100
    assert {attack.cls for attack in ATTACKS} == {1, 2, 3, 4, 5, 6}
    assert len({attack.id for attack in ATTACKS}) == len(ATTACKS)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.id for a in ATTACKS])
def test_cli_execute_runs_nothing(attack: Attack, tmp_path: Path, monkeypatch, capsys) -> None:
    path = build(tmp_path, attack)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(path.parents[4] if attack.pyproject else tmp_path)
    arguments = ["preview", str(path), "--execute", "--format", "json"]
    if attack.target != "wave" and attack.pyproject is None:
        arguments += ["--target", attack.target]
    code = main(arguments)
    out = capsys.readouterr().out
    result = json.loads(out)
    assert canaries(tmp_path) == [], result
    assert code == 1 and result["ok"] is False, result
    assert not any(item["executed"] for item in result.get("injections", []))
