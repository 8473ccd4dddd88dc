"""Argument text never runs: under `claude-code` the runtime substitutes the arguments into the
body before it scans for injections, so `` !`cmd` `` in the arguments is an injection there. The
preview decides it like the runtime (same abort message) and never runs it; under `wave` arguments
are never scanned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.security.harness import canaries
from wave_lsp.cli import main

ARGUMENTS = ["!`touch CANARY`", "x !`touch CANARY`", "```!\ntouch CANARY\n```",
             "!`echo ok; touch CANARY`", "a\ufeff!`touch CANARY`"]


def _skill(tmp_path: Path, folder: str, body: str, settings: dict | None = None) -> Path:
    project = tmp_path / "project"
    path = project / folder / "skills/demo/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: demo\ndescription: Demo. Use when asked.\nallowed-tools: Bash\n"
                    f"---\n{body}", "utf-8")
    if settings is not None:
        (project / folder / "settings.json").write_text(json.dumps(settings), "utf-8")
    return path


@pytest.mark.parametrize("arguments", ARGUMENTS)
@pytest.mark.parametrize("deny", [None, {"permissions": {"deny": ["Bash(touch:*)"]}}])
@pytest.mark.parametrize(("target", "folder"), [("claude-code", ".claude"), ("wave", ".wave")])
def test_arguments_never_run(tmp_path: Path, monkeypatch, capsys, arguments: str, deny,
                             target: str, folder: str) -> None:
    path = _skill(tmp_path, folder, "Do: $ARGUMENTS\n!`echo fine`\n", deny)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    main(["preview", str(path), arguments, "--execute", "--format", "json", "--target", target])
    result = json.loads(capsys.readouterr().out)
    assert canaries(tmp_path) == [], result
    if target == "claude-code":
        assert result["ok"] is False
        spliced = [i for i in result["injections"] if "CANARY" in i["command"]]
        assert spliced and not any(i["executed"] for i in spliced)
        if deny is not None:
            assert result["error"].startswith("Shell command permission check failed for pattern")
            assert "touch" in result["error"]


def test_the_abort_message_quotes_the_pattern_after_substitution(tmp_path: Path, monkeypatch,
                                                                 capsys) -> None:
    path = _skill(tmp_path, ".claude", "!`ls ${CLAUDE_SKILL_DIR} $0`\n",
                  {"permissions": {"deny": ["Bash(ls:*)"]}})
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    main(["preview", str(path), "arg", "--format", "json", "--target", "claude-code"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert error.startswith(f'Shell command permission check failed for pattern "!`ls '
                            f'{path.parent.as_posix()} arg`": ')
