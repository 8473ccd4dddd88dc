"""The adversarial suite a second time, with the permission check turned off (issue 35 item 4):
every attack of tests/security/cases.py and readonly_cases.py, plus attacks aimed at the sandbox
itself, runs through `wave-lsp preview --execute` with every command allowed, so the OS sandbox
alone must contain it — no canary anywhere outside the sandbox, no planted secret in the output,
no hang (docs/security.md *The sandbox*).

The check is turned off only here, by `permission_check_off`, which replaces the decisions for
the duration of one test; nothing in the product can turn it off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.security.cases import ATTACKS, EVIL, Attack, inline
from tests.security.harness import SECRET, build, canaries, stand_ins
from tests.security.readonly_cases import READ_ONLY_ATTACKS
from wave_lsp.cli import main
from wave_lsp.core.invocation import preview
from wave_lsp.core.permissions.guard import TEST_SWITCH
from wave_lsp.core.permissions.rules import Decision

pytestmark = pytest.mark.timeout(300)

#: a command the sandbox alone must stop, whatever the permission check said
SANDBOX_ATTACKS = [
    Attack("sbx-absolute", 13, inline("touch {root}/CANARY {root}/home/CANARY")),
    Attack("sbx-link-out", 13, inline("touch out/CANARY; cat out/SECRET"), links={"out": ".."}),
    Attack("sbx-home", 13, inline("cat ~/.ssh/id_rsa; touch ~/CANARY; cp ~/.ssh/id_rsa ."),
           home_files={".ssh/id_rsa": SECRET}),
    Attack("sbx-proc-root", 13, inline("cat /proc/1/root{root}/SECRET; touch /proc/1/cwd/CANARY")),
    Attack("sbx-proc-parent", 13,
           inline("for p in /proc/[0-9]*; do cat $p/root{root}/SECRET; done 2>/dev/null")),
    Attack("sbx-tmp", 13, inline("touch /tmp/CANARY; ls {root}")),
    Attack("sbx-program", 13, inline("./evil; sh ./evil; cd {root} && sh project/evil"),
           files={"evil": EVIL}),
    Attack("sbx-background", 13, inline("(sleep 2; touch {root}/CANARY) & disown; nohup sh -c "
                                        "'touch {root}/CANARY' &")),
    Attack("sbx-fork-bomb", 13, inline("b() { b | b & }; b")),
    Attack("sbx-fill-disk", 13, inline("yes > /tmp/fill; yes > {root}/CANARY")),
    Attack("sbx-hang", 13, inline("sleep 600")),
    Attack("sbx-git-config", 13, inline("git -c core.pager='touch {root}/CANARY' log; "
                                        "git config --global core.pager x"),
           files={"f": "x\n"}),
]


def _permission_check_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command predicted to run and the guard off (its test-only switch,
    `WAVE_LSP_TEST_DISABLE_GUARD`): nothing but the sandbox stands between a command and the
    machine."""
    allowed = Decision("allow", "the permission check is off for this test")
    monkeypatch.setattr(preview, "predict", lambda predictor, command: allowed)
    monkeypatch.setenv(TEST_SWITCH, "1")
    original = preview.run_command

    def bounded(command: str, cwd: Path, timeout: float = 30.0, *args: object,
                **options: object) -> object:
        return original(command, cwd, min(timeout, 3.0), *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(preview, "run_command", bounded)


@pytest.fixture
def permission_check_off(monkeypatch: pytest.MonkeyPatch, sandbox: str) -> Iterator[None]:
    _permission_check_off(monkeypatch)
    yield


ALL = [*ATTACKS, *READ_ONLY_ATTACKS, *SANDBOX_ATTACKS]


@pytest.mark.parametrize("attack", ALL, ids=[attack.id for attack in ALL])
def test_the_sandbox_alone_contains_it(attack: Attack, tmp_path: Path, permission_check_off: None,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = build(tmp_path, attack)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", stand_ins(tmp_path / "project" / "stand-ins"))
    monkeypatch.chdir(path.parents[4] if attack.pyproject else tmp_path)
    arguments = ["preview", str(path), "--execute", "--format", "json"]
    if attack.pyproject is None:
        arguments += ["--target", attack.target]
    main(arguments)
    out = capsys.readouterr().out
    result = json.loads(out)
    assert canaries(tmp_path) == [], result
    assert SECRET not in out, result
    # the attack really ran (the check is off): its containment is the sandbox's alone
    assert any(item["executed"] for item in result.get("injections", [])), result


def test_the_check_really_is_off(tmp_path: Path, permission_check_off: None,
                                 monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The control: with the check off, a command no rule allows does run (in the sandbox)."""
    attack = Attack("control", 0, inline("echo ran-$((6*7))"), target="claude-code")
    path = build(tmp_path, attack)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    main(["preview", str(path), "--execute", "--format", "json", "--target", "claude-code"])
    result = json.loads(capsys.readouterr().out)
    assert result["injections"][0]["executed"] is True and "ran-42" in result["text"], result
