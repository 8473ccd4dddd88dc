"""The preview as people read it (`preview_markdown`, `preview_summary`, `injection_lines`): what the
editor shows when it opens the preview as a document or as a message (docs/design/lsp.md *Preview
in any client*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_preview import run, skill
from wave_lsp.core.invocation.preview import (
    commands_that_run,
    injection_lines,
    preview_markdown,
    preview_summary,
)

ALLOWED = ("allowed-tools:", "  - Bash(echo *)")


@pytest.mark.parametrize(("body", "ran", "ok"), [
    ("Fix $ARGUMENTS.\n", 0, True),
    ("Say !`echo one` and !`echo two`.\n", 2, True),
    ("Say !`echo one`, then !`git push --force`.\n", 0, False),  # one refusal aborts all
])
def test_commands_that_run(tmp_path: Path, body: str, ran: int, ok: bool) -> None:
    result = run(skill(tmp_path, body, *ALLOWED), "42")
    assert result.ok is ok
    assert commands_that_run(result) == ran


def test_markdown_holds_the_prompt_verbatim_in_a_longer_fence(tmp_path: Path) -> None:
    body = "Fix $ARGUMENTS.\n\n~~~~~\nkept as is\n~~~~~\nSay !`echo hi`\n"
    result = run(skill(tmp_path, body, *ALLOWED), "42")
    text = preview_markdown(result)
    assert text.startswith("# Preview of /demo (dry-run, target wave)\n\nArguments: `42`\n")
    assert "## Commands (1 of 1 run)\n\n- injection 1 (line 12) `echo hi`: allow" in text
    fence = "~~~~~~"  # one longer than the prompt's own
    assert f"## Prompt\n\n{fence}\n{result.text.rstrip()}\n{fence}\n" in text


def test_markdown_of_a_refusal_has_the_error_and_no_prompt(tmp_path: Path) -> None:
    result = run(skill(tmp_path, "Then !`git push --force`\n", *ALLOWED))
    text = preview_markdown(result)
    assert "No arguments." in text
    assert f"## Error\n\n{result.error}\n" in text and "## Prompt" not in text
    assert preview_summary(result) == (
        "Preview of /demo (dry-run, target wave): 0 commands would run.\n" + str(result.error))


def test_summary_has_the_first_lines_and_how_many_more(tmp_path: Path) -> None:
    body = "".join(f"Line {n}\n" for n in range(1, 11)) + "Say !`echo hi`\n"
    result = run(skill(tmp_path, body, *ALLOWED))
    lines = preview_summary(result, first_lines=4).splitlines()
    assert lines[0] == "Preview of /demo (dry-run, target wave): 1 command would run."
    assert lines[1].startswith("Base directory for this skill: ")
    assert lines[2:5] == ["", "Line 1", "Line 2"]
    total = len(result.text.splitlines())  # type: ignore[union-attr]
    assert lines[5] == f"… {total - 4} more lines"


def test_injection_lines_are_what_the_cli_prints(tmp_path: Path) -> None:
    result = run(skill(tmp_path, "A\n\nSay !`echo hi`\n", *ALLOWED))
    [line] = injection_lines(result)
    assert line.startswith("injection 1 (line 9) `echo hi`: allow — ")
    assert line.endswith("[not run]")

