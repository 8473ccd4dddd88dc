"""The invocation preview: rendering, arguments, variables, permission decisions and execution —
Wave's acceptance scenarios (docs/design/runtime-facts.md §8), and canary files proving what never runs."""

from __future__ import annotations

import json
import os
import re
import stat
import time
from pathlib import Path

import pytest

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.execution.execution import run_command
from wave_lsp.core.facts.profiles import PROFILES
from wave_lsp.core.invocation.arguments import split_arguments, substitute_arguments
from wave_lsp.core.invocation.preview import Invocation, invoke
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.injections import find_injections
from wave_lsp.core.workspace.location import locate


def skill(tmp_path: Path, body: str, *frontmatter: str, name: str = "demo",
          settings: dict | None = None, home_settings: dict | None = None) -> Path:
    """A project with `.wave/skills/<name>/SKILL.md` (and settings files); returns SKILL.md."""
    project = tmp_path / "project"
    path = project / ".wave/skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    header = "".join(line + "\n" for line in (f"name: {name}",
                                              "description: Demo. Use when asked.", *frontmatter))
    path.write_text(f"---\n{header}---\n{body}", "utf-8")
    if settings is not None:
        (project / ".wave/settings.json").write_text(json.dumps(settings), "utf-8")
    if home_settings is not None:
        (tmp_path / "home/.wave").mkdir(parents=True, exist_ok=True)
        (tmp_path / "home/.wave/settings.json").write_text(json.dumps(home_settings), "utf-8")
    return path


def run(path: Path, arguments: str = "", mode: str = "dry-run", target: str = "wave",
        tmp_home: Path | None = None) -> Invocation:
    home = tmp_home or path.parents[4] / "home"
    settings = Settings.for_target(target, home=home)
    document = SkillDocument.from_text(path.read_text("utf-8"))
    return invoke(document, locate(path, home=home), settings, arguments, mode)


# -- injection parsing ----------------------------------------------------------------------------
@pytest.mark.parametrize(("body", "commands"), [
    ("Branch: !`git branch`\n", ["git branch"]),
    ("!`pwd` at line start\n", ["pwd"]),
    ("`#REF!` and `#DIV/0!` are errors\n", []),
    ("Rust: format!`x` and KEY=!`x`\n", []),
    ("```!\ngit status\ngit log -1\n```\n", ["git status\ngit log -1"]),
    ("Two: !`a` and !`b`\n", ["a", "b"]),
    ("Empty: !` `\n", [""]),
])
def test_injections_are_found_like_the_runtime(body: str, commands: list[str]) -> None:
    assert [i.command for i in find_injections(body).items] == commands


def test_injection_ranges_are_exact() -> None:
    text = "---\nname: x\n---\nSee !`git status` now\n"
    (item,) = find_injections(text, text.index("See")).items
    assert text[item.span.start:item.span.end] == "!`git status`"
    assert text[item.command_span.start:item.command_span.end] == "git status"
    assert item.pattern == "!`git status`"


# -- arguments ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("target", "raw", "words"), [
    # Wave's parseCommandArguments (commandArgumentParser.ts at 469391bb): a backslash escapes
    # only the open quote or a backslash inside quotes, and is literal elsewhere; `""` is dropped
    ("wave", 'one "two three" four', ["one", "two three", "four"]),
    ("wave", "it\\'s 'a b'", ["it\\s a", "b"]),
    ("wave", "'it\\'s' \"a\\\\b\" \"\" c\\d", ["it's", "a\\b", "c\\d"]),
    ("wave", "   ", []),
    # Claude Code 2.1.332 (tests/oracle probes arg-operators, arg-op-*): the words end at the
    # first operator after a word; operators before the first word are dropped
    ("claude-code", 'one "two three" | four', ["one", "two three"]),
    ("claude-code", "a ; b c", ["a"]),
    ("claude-code", "| a ; b", ["a"]),
    ("claude-code", "; ; a b | c", ["a", "b"]),
    ("claude-code", '"a | b" c', ["a | b", "c"]),
    ("claude-code", "a * b", ["a", "*", "b"]),
    ("claude-code", "unterminated 'quote", ["unterminated", "'quote"]),
    # shell-quote: in double quotes a backslash escapes only `"`, `\\` and `$`
    ("claude-code", 'a\\ b "c\\$d" "e\\nf" #comment', ["a b", "c$d", "e\\nf"]),
    ("claude-code", "x;y&&z", ["x"]),
])
def test_argument_words(target: str, raw: str, words: list[str]) -> None:
    assert split_arguments(raw, PROFILES[target]) == words


@pytest.mark.parametrize(("target", "text", "expected"), [
    ("wave", "$1/$2/$0/$3", "a/b c//"),
    ("claude-code", "$0/$1/$2", "a/b c/$2"),
    # Wave's substituteCommandParameters: `/\\$ARGUMENTS/g` and `/\\$(\\d+)/g` with no look-ahead, no
    # `$ARGUMENTS[N]`, no names, no escape (the backslash stays before the word)
    ("wave", "$ARGUMENTS[1] $ARGUMENTS", 'a "b c"[1] a "b c"'),
    ("claude-code", "$ARGUMENTS[1]", "b c"),
    ("wave", "$issue and $branch and $other", "$issue and $branch and $other"),
    ("claude-code", "$issue and $branch and $other", "a and b c and $other"),
    ("wave", "costs \\$1 and \\$issue", "costs \\a and \\$issue"),
    ("claude-code", "costs \\$1 and \\$issue", "costs $1 and $issue"),
    ("wave", "$1x is cut, $12 is empty, $250K too", "ax is cut,  is empty, K too"),
    ("claude-code", "$1x stays, $12 stays", "$1x stays, $12 stays"),
    ("wave", "$10 before $1", " before a"),
])
def test_argument_substitution(target: str, text: str, expected: str) -> None:
    raw = 'a "b c"'
    profile = PROFILES[target]
    words = split_arguments(raw, profile)
    assert substitute_arguments(text, raw, words, ["issue", "branch"], profile) == expected


def test_argument_text_is_not_substituted_again_in_claude_code() -> None:
    assert substitute_arguments("$0 $1", "$1 x", ["$1", "x"], [],
                                PROFILES["claude-code"]) == "$1 x"


@pytest.mark.parametrize(("text", "raw", "expected"), [
    # the positional pass runs over the text `$ARGUMENTS` inserted, highest number first
    ("$ARGUMENTS", "x $1", "x x"),
    ("$2 $1", "a $1", "a a"),
    ("$1 $2", "$2 x", "$2 x"),  # `$2` was replaced before `$1` brought one in
    # String.replace reads `$$`, `$&`, `$\``, `$'` in the inserted text; `$1` stays (no groups)
    ("[$ARGUMENTS]", "5$$ a$&b", "[5$ a$ARGUMENTSb]"),
    ("<$ARGUMENTS>", "$`|$'", "<<|>>"),
    # substituted with no arguments at all: every placeholder becomes empty
    ("Run $1 for $250K; all: $ARGUMENTS.", "", "Run  for K; all: ."),
])
def test_wave_substitution_is_wave_s(text: str, raw: str, expected: str) -> None:
    """Wave's two passes (commandArgumentParser.ts `substituteCommandParameters`, 469391bb)."""
    profile = PROFILES["wave"]
    assert substitute_arguments(text, raw, split_arguments(raw, profile), ["x"],
                                profile) == expected


# -- rendering ------------------------------------------------------------------------------------
def test_base_directory_and_variables(tmp_path: Path) -> None:
    path = skill(tmp_path, "Run `node ${WAVE_SKILL_DIR}/tool.mjs` or ${CLAUDE_SKILL_DIR}/x.\n")
    result = run(path)
    assert result.ok
    skill_dir = path.parent.as_posix()
    assert result.text == (f"Base directory for this skill: {skill_dir}\n\n"
                           f"Run `node {skill_dir}/tool.mjs` or {skill_dir}/x.")
    assert "${" not in result.text


def test_arguments_are_appended_without_a_placeholder(tmp_path: Path) -> None:
    path = skill(tmp_path, "Do the thing.\n")
    assert run(path, "a b").text.endswith("Do the thing. a b")
    assert run(path, "a b", target="claude-code").text.endswith("Do the thing.\n\n\nARGUMENTS: a b")
    assert run(path, "").text.endswith("Do the thing.")


def test_placeholders_are_substituted_and_not_appended(tmp_path: Path) -> None:
    path = skill(tmp_path, "Fix $1 on $branch ($ARGUMENTS).\n", "arguments: [issue, branch]")
    # Wave reads no `arguments` names: `$branch` reaches the model as written
    assert run(path, "42 main").text.endswith("Fix 42 on $branch (42 main).")
    assert run(path, "42 main", target="claude-code").text.endswith("Fix main on main (42 main).\n")


def test_allowed_tools_placeholders_resolved_or_dropped(tmp_path: Path) -> None:
    path = skill(tmp_path, "Hi\n", "allowed-tools:",
                 "  - Bash(node ${WAVE_SKILL_DIR}/scripts/x.mjs *)",
                 "  - Bash(${WAVE_PLUGIN_ROOT}/y.sh)", "  - Read")
    result = run(path)
    resolved = {item.original: item for item in result.allowed}
    assert resolved["Bash(node ${WAVE_SKILL_DIR}/scripts/x.mjs *)"].resolved == (
        f"Bash(node {path.parent.as_posix()}/scripts/x.mjs *)")
    dropped = resolved["Bash(${WAVE_PLUGIN_ROOT}/y.sh)"]
    assert dropped.dropped and "plugin" in dropped.reason
    assert any("WAVE_PLUGIN_ROOT" in warning for warning in result.warnings)
    assert resolved["Read"].resolved == "Read"


# -- Wave's injection scenarios (docs/design/runtime-facts.md §8.7) ----------------------------------------
def test_deny_rule_aborts_with_the_exact_message(tmp_path: Path) -> None:
    path = skill(tmp_path, "Fetch: !`curl http://example.invalid`\n",
                 settings={"permissions": {"deny": ["Bash(curl*)"]}})
    result = run(path, mode="execute")
    assert not result.ok and result.text is None
    # Wave's own text (runtime-facts §8.12)
    assert result.error == ('Shell command permission check failed for pattern '
                            '"!`curl http://example.invalid`": Access to tool \'Bash\' is '
                            "explicitly denied by rule: Bash(curl*)")
    assert result.injections[0].decision.rule.source == "project settings"
    assert not result.injections[0].executed


@pytest.mark.usefixtures("sandbox")
def test_allowed_tools_match_runs_without_prompting(tmp_path: Path) -> None:
    # `nproc`: not one of Wave's read-only commands, so only the rule allows it
    path = skill(tmp_path, "Say: !`nproc`\n", "allowed-tools: Bash(nproc*)")
    result = run(path, mode="execute")
    assert result.ok, result.error
    assert re.search(r"Say: \d+\n$", result.text)
    assert result.injections[0].executed and result.injections[0].exit_code == 0
    assert result.injections[0].decision.rule.source == "allowed-tools"


def test_no_matching_rule_is_denied(tmp_path: Path) -> None:
    path = skill(tmp_path, "Say: !`nproc`\n")
    result = run(path, mode="execute")
    assert not result.ok
    assert result.error.startswith('Shell command permission check failed for pattern "!`nproc`": ')
    assert "requires permission approval" in result.error


@pytest.mark.usefixtures("sandbox")
def test_non_zero_exit_keeps_going_with_an_error_block(tmp_path: Path) -> None:
    path = skill(tmp_path, "A: !`ls /nonexistent-wave-lsp-dir`\nB: !`echo next`\n",
                 "allowed-tools: Bash(ls *), Bash(echo *)")
    result = run(path, mode="execute")
    assert result.ok
    assert "<error>Command failed (exit code 2): " in result.text
    assert result.text.endswith("B: next\n")
    assert [i.exit_code for i in result.injections] == [2, 0]


@pytest.mark.usefixtures("sandbox")
def test_claude_code_aborts_on_non_zero_exit(tmp_path: Path) -> None:
    (tmp_path / "project/.claude/skills/demo").mkdir(parents=True)
    path = tmp_path / "project/.claude/skills/demo/SKILL.md"
    path.write_text("---\nname: demo\ndescription: D. Use when asked.\nallowed-tools: Bash(ls *), "
                    "Bash(touch *)\n---\nA: !`ls /nonexistent-wave-lsp-dir`\nB: !`touch B`\n", "utf-8")
    result = run(path, mode="execute", target="claude-code")
    assert not result.ok and result.error.startswith('Shell command failed for pattern "!`ls ')
    assert not (tmp_path / "project/B").exists()


def test_first_denial_stops_every_command(tmp_path: Path) -> None:
    project = tmp_path / "project"
    path = skill(tmp_path, "!`touch A`\n!`curl http://example.invalid`\n!`touch C`\n",
                 "allowed-tools: Bash(touch *)")
    result = run(path, mode="execute")
    assert not result.ok and "curl" in result.error
    assert not (project / "A").exists() and not (project / "C").exists()
    assert [i.decision.behavior for i in result.injections] == ["allow", "ask", "allow"]
    assert not any(i.executed for i in result.injections)


def test_ref_error_text_is_not_a_command(tmp_path: Path) -> None:
    path = skill(tmp_path, "`#REF!`: invalid reference; `#DIV/0!`: division by zero.\n")
    result = run(path, mode="execute")
    assert result.ok and result.injections == []
    assert "`#REF!`: invalid reference" in result.text


# -- execution details ------------------------------------------------------------------------------
@pytest.mark.usefixtures("sandbox")
def test_commands_run_in_the_project_root(tmp_path: Path) -> None:
    (tmp_path / "project/.git").mkdir(parents=True)
    path = skill(tmp_path, "Here: !`pwd`\n", "allowed-tools: Bash(pwd)")
    result = run(path, mode="execute")
    assert result.text.endswith(f"Here: {(tmp_path / 'project').resolve()}\n")


@pytest.mark.usefixtures("sandbox")
def test_long_output_is_saved_to_a_private_file(tmp_path: Path) -> None:
    path = skill(tmp_path, "Big: !`printf '%040000d' 0`\n", "allowed-tools: Bash(printf *)")
    result = run(path, mode="execute")
    assert result.ok, result.error
    (planned,) = result.injections
    saved = planned.output_file
    assert saved is not None and saved.is_absolute() and saved.read_text() == "0" * 40000
    assert stat.S_IMODE(os.stat(saved).st_mode) == 0o600
    assert f"Full output saved to: {saved}]" in result.text
    assert "[Output truncated (40,000 chars)." in result.text


@pytest.mark.usefixtures("sandbox")
def test_timeout_kills_the_whole_sandbox(tmp_path: Path) -> None:
    marker = f"{os.getpid() % 1000 + 7}.{time.monotonic_ns() % 10**6:06d}"
    outcome = run_command(f"(setsid sleep {marker} &) ; sleep {marker}", tmp_path, timeout=0.3)
    assert outcome.timed_out and outcome.exit_code == 124
    deadline = time.monotonic() + 5  # the kernel ends a dead PID namespace's processes at once
    while _processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_running(marker) == []


def _processes_running(word: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if word in command and "sleep" in command:
            found.append(command)
    return found


# -- canaries: what never runs ----------------------------------------------------------------------
def test_dry_run_runs_nothing(tmp_path: Path) -> None:
    path = skill(tmp_path, "!`touch CANARY`\n", "allowed-tools: Bash(touch *)")
    result = run(path)
    assert result.ok and result.injections[0].decision.allowed
    assert not result.injections[0].executed
    assert not (tmp_path / "project/CANARY").exists()


@pytest.mark.parametrize("arguments", [
    "; touch CANARY", "$(touch CANARY)", "`touch CANARY`", "x\ntouch CANARY",
    "' ; touch CANARY ; '", '" ; touch CANARY ; "', "&& touch CANARY", "| touch CANARY",
    "!`touch CANARY`",
])
@pytest.mark.parametrize("target", ["wave", "claude-code"])
@pytest.mark.usefixtures("sandbox")
def test_argument_text_never_reaches_a_shell(tmp_path: Path, arguments: str, target: str) -> None:
    folder = ".claude" if target == "claude-code" else ".wave"
    path = tmp_path / f"project/{folder}/skills/demo/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: demo\ndescription: D. Use when asked.\nallowed-tools: Bash\n---\n"
                    "Args: $ARGUMENTS and $1\n!`cat ${WAVE_ARGUMENTS_FILE}`\n!`echo $ARGUMENTS $1`\n",
                    "utf-8")
    result = run(path, arguments, mode="execute", target=target)
    assert not (tmp_path / "project/CANARY").exists()
    assert not (path.parent / "CANARY").exists()
    if target == "wave":
        assert result.ok, result.error
        # the file channel delivers the arguments verbatim; the command itself never sees them
        assert result.injections[0].output_preview == arguments
        assert result.injections[1].shell_command == "echo $ARGUMENTS $1"
    else:
        assert not result.ok  # Claude Code would splice them into the shell; we refuse to run it


@pytest.mark.usefixtures("sandbox")
def test_arguments_file_is_removed_after_the_invocation(tmp_path: Path) -> None:
    path = skill(tmp_path, "!`echo ${WAVE_ARGUMENTS_FILE}`\n", "allowed-tools: Bash(echo *)")
    result = run(path, "secret", mode="execute")
    used = Path(result.injections[0].output_preview.strip())
    assert used.name == "arguments" and not used.exists() and not used.parent.exists()


def test_read_only_commands_run_without_a_rule_where_the_runtime_does(tmp_path: Path) -> None:
    """The preview, the hover and SK120/SK123 share one decision: Claude Code runs its built-in
    read-only commands without any rule, and Wave its own (runtime-facts §8.12): `git status` by
    a default rule, `env …` as read-only whatever follows (Claude Code asks)."""
    path = skill(tmp_path, "Status: !`git status`\n")
    claude = run(path, target="claude-code")
    assert claude.ok, claude.error
    assert claude.injections[0].decision.read_only
    wave = run(path)
    assert wave.ok, wave.error
    assert wave.injections[0].decision.read_only
    assert "Bash(git status*)" in wave.injections[0].decision.reason
    other = skill(tmp_path / "env", "Env: !`env make`\n")
    assert run(other).ok
    assert not run(other, target="claude-code").ok
