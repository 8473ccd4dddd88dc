"""`preview --target claude-code` against what Claude Code 2.1.332 renders (issue 26 measurements;
docs/design/runtime-facts.md §3.6, §3.7): the body's leading blank lines, `---` mid-line, appended
arguments, injections in code spans, command output, `user-invocable: false`, and the refusal to
run a command with the arguments spliced in."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_preview import run
from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE
from wave_lsp.core.invocation.preview import placed_output


def claude_skill(tmp_path: Path, text: str, folder: str = "demo") -> Path:
    path = tmp_path / "project/.claude/skills" / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def rendered_body(text: str, base: Path) -> str:
    header = f"Base directory for this skill: {base.as_posix()}\n\n"
    assert text.startswith(header)
    return text[len(header):]


@pytest.mark.parametrize(("text", "arguments", "body"), [
    # the body's leading blank lines are not sent; trailing ones are
    ("---\ndescription: d\n---\n\n\n# Title\nText\n\n", "", "# Title\nText\n\n"),
    # `---` mid-line ends the frontmatter: the rest of that line and what follows is body
    ("---\ndescription: a --- b\n---\nText\n", "", "b\n---\nText\n"),
    # only an out-of-range `$5`: nothing is substituted, so the arguments are appended
    ("---\ndescription: d\n---\nUse $5 here.\n", "one", "Use $5 here.\n\n\nARGUMENTS: one"),
    ("---\ndescription: d\n---\nUse $0 here.\n", "one", "Use one here.\n"),
    # an injection inside a single-backtick code span is text
    ("---\ndescription: d\n---\nSee `run !`echo hi` now`.\n", "", "See `run !`echo hi` now`.\n"),
])
def test_rendered_text(tmp_path: Path, text: str, arguments: str, body: str) -> None:
    path = claude_skill(tmp_path, text)
    result = run(path, arguments, target="claude-code")
    assert result.ok, result.error
    assert result.injections == []
    assert rendered_body(result.text or "", path.parent) == body


@pytest.mark.usefixtures("sandbox")
def test_injection_in_a_fence_still_runs(tmp_path: Path) -> None:
    """A ```` ```md ```` fence is not a code span: Claude Code runs the injection inside it."""
    path = claude_skill(tmp_path, "---\ndescription: d\nallowed-tools: Bash(echo *)\n---\n"
                                  "```md\nSay !`echo hi`\n```\n")
    result = run(path, mode="execute", target="claude-code")
    assert result.ok, result.error
    assert rendered_body(result.text or "", path.parent) == "```md\nSay hi\n```\n"


@pytest.mark.parametrize(("output", "claude", "wave"), [
    ("hi\n", "hi", "hi\n"),
    ("\n\n  hi\n  there  \n\n", "  hi\n  there", "\n\n  hi\n  there  \n\n"),
    ("", "(Bash completed with no output)", ""),
    ("\n \n", "(Bash completed with no output)", "\n \n"),
])
def test_placed_output(output: str, claude: str, wave: str) -> None:
    assert placed_output(output, CLAUDE_CODE, "Bash") == claude
    assert placed_output(output, WAVE, "Bash") == wave


@pytest.mark.usefixtures("sandbox")
def test_executed_output_is_placed_as_claude_code_does(tmp_path: Path) -> None:
    path = claude_skill(tmp_path, "---\ndescription: d\nallowed-tools: Bash(echo *), Bash(true)\n"
                                  "---\nA: !`echo hi` B: !`true`\n")
    result = run(path, mode="execute", target="claude-code")
    assert result.ok, result.error
    assert rendered_body(result.text or "", path.parent) == (
        "A: hi B: (Bash completed with no output)\n")


@pytest.mark.parametrize(("value", "refused"), [("false", True), ('"false"', True),
                                                 ("true", False)])
def test_user_invocable_false_refuses_the_command(tmp_path: Path, value: str,
                                                  refused: bool) -> None:
    path = claude_skill(tmp_path, f"---\nname: other\ndescription: d\nuser-invocable: {value}\n"
                                  "---\nBody\n", folder="helper")
    result = run(path, target="claude-code")
    if refused:
        assert not result.ok and result.text is None
        assert result.error == ('This skill can only be invoked by Claude, not directly by users. '
                                'Ask Claude to use the "helper" skill for you.')
    else:
        assert result.ok
    assert run(path, target="wave").ok  # Wave only hides it from the menu


@pytest.mark.usefixtures("sandbox")
def test_spliced_arguments_refusal_says_what_claude_code_does(tmp_path: Path) -> None:
    path = claude_skill(tmp_path, "---\ndescription: d\nallowed-tools: Bash(echo *)\n---\n"
                                  "!`echo $ARGUMENTS`\n")
    dry = run(path, "hello", target="claude-code")
    assert dry.ok and dry.injections[0].shell_command == "echo hello"
    assert dry.injections[0].decision.allowed  # the prediction: Claude Code runs it
    executed = run(path, "hello", mode="execute", target="claude-code")
    assert not executed.ok and not executed.injections[0].executed
    assert executed.error == (
        'Shell command not run for pattern "!`echo hello`": Claude Code runs this; wave-lsp did '
        "not: the arguments are spliced into it: they are user text, and spliced into a command "
        "they run as shell code (SK119). The dry-run shows what Claude Code does.")
    assert executed.injections[0].not_run_because is not None


def test_preview_names_the_command_by_folder(tmp_path: Path) -> None:
    path = claude_skill(tmp_path, "---\nname: other-name\ndescription: d\n---\nBody\n",
                        folder="folder")
    result = run(path, target="claude-code")
    assert result.to_json()["skill"]["name"] == "folder"


@pytest.mark.parametrize(("command", "claude"), [
    # Claude Code merges stderr into the output in the order written (probes inj-stderr-*)
    ("echo err >&2; echo out; echo err2 >&2", "err\nout\nerr2"),
    ("echo err >&2", "err"),
])
@pytest.mark.usefixtures("sandbox")
def test_a_successful_commands_stderr(tmp_path: Path, command: str, claude: str) -> None:
    """Claude Code shows it in the order written; Wave shows stdout only."""
    text = f"---\ndescription: d\nallowed-tools: Bash(echo *)\n---\nA: !`{command}`\n"
    path = claude_skill(tmp_path / "claude", text)
    result = run(path, mode="execute", target="claude-code")
    assert result.ok, result.error
    assert rendered_body(result.text or "", path.parent) == f"A: {claude}\n"
    path = claude_skill(tmp_path / "wave", text)
    result = run(path, mode="execute", target="wave")
    assert result.ok, result.error
    assert "err" not in (result.text or "")


@pytest.mark.usefixtures("sandbox")
def test_a_failing_commands_streams_are_one_under_stderr(tmp_path: Path) -> None:
    """Claude Code's failure message shows the one merged stream under `[stderr]` (probe
    inj-failing-streams)."""
    path = claude_skill(tmp_path, "---\ndescription: d\nallowed-tools: Bash(echo *), Bash(ls *)\n"
                                  "---\nA: !`echo out; echo err >&2; ls nosuchfile`\n")
    result = run(path, mode="execute", target="claude-code")
    assert not result.ok
    assert result.error is not None
    assert result.error.split(": ", 1)[1].startswith("[stderr]\nout\nerr\nls: ")


def test_disable_skill_shell_execution_replaces_every_command(tmp_path: Path) -> None:
    """`disableSkillShellExecution: true` in the project's settings: Claude Code runs no
    injection, not even a denied one, and shows its policy text in each place (probe
    inj-disabled-by-setting); Wave has no such setting."""
    text = ("---\ndescription: d\nallowed-tools: Bash(echo *)\n---\n"
            "A: !`echo hi` B: !`rm -rf build`\n")
    path = claude_skill(tmp_path, text)
    settings = tmp_path / "project/.claude/settings.json"
    settings.write_text('{"disableSkillShellExecution": true}', "utf-8")
    for mode in ("dry-run", "execute"):
        result = run(path, mode=mode, target="claude-code")
        assert result.ok, result.error
        assert result.injections == []
        assert rendered_body(result.text or "", path.parent) == (
            "A: [shell command execution disabled by policy] "
            "B: [shell command execution disabled by policy]\n")
        assert any("disableSkillShellExecution" in warning for warning in result.warnings)
    settings.write_text('{"disableSkillShellExecution": false}', "utf-8")
    assert not run(path, target="claude-code").ok  # `rm` has no rule: the invocation aborts
