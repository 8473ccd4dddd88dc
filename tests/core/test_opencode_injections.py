"""OpenCode's `` !`cmd` `` injections in the preview (docs/design/runtime-facts.md §9.7,
docs/design/product.md *Preview* step 4): OpenCode's pattern has no look-behind, so
`` format!`x` `` is a command too; OpenCode runs every match with no permission check, so the
dry-run lists each one without aborting; wave-lsp's own permission engine still decides every
command, and `preview --execute` runs nothing unless the engine allows all of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.invocation.preview import Invocation, commands_that_run, injection_lines, invoke
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.injections import find_injections, find_unanchored_injections
from wave_lsp.core.workspace.location import locate


def _skill(body: str, *extra: str) -> str:
    lines = "".join(f"{line}\n" for line in extra)
    return f"---\nname: my-skill\ndescription: Does X. Use when Y.\n{lines}---\n{body}"


def _invoke(tmp_path: Path, text: str, target: str = "opencode", mode: str = "dry-run",
            arguments: str = "") -> Invocation:
    path = tmp_path / ".agents/skills/my-skill/SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    home = tmp_path / "home"
    return invoke(SkillDocument.from_text(text), locate(path, home=home),
                  Settings.for_target(target, home=home), arguments, mode)


@pytest.mark.parametrize(("body", "commands"), [
    ("Fetch: !`git fetch`\n", ["git fetch"]),
    ("Rust: format!`x` and KEY=!`y`\n", ["x", "y"]),  # no look-behind
    ("```!\ngit status\n```\n", []),  # no blocks
    ("In code: `see !`ls` here`\n", ["ls"]),  # no code-span rule
    ("!`a`!`b`\n", ["a", "b"]),
])
def test_opencode_pattern_finds_every_bang_backtick(body: str, commands: list[str]) -> None:
    found = find_unanchored_injections(body)
    assert [item.command for item in found] == commands
    assert all(body[i.span.start:i.span.end] == i.pattern for i in found)


def test_the_anchored_pattern_does_not_find_format_bang() -> None:
    assert [i.command for i in find_injections("format!`x` !`y`\n").items] == ["y"]


@pytest.mark.parametrize(("target", "found"), [("opencode", ["x", "git fetch"]),
                                               ("claude-code", []), ("wave", [])])
def test_the_dry_run_lists_what_the_runtime_runs(tmp_path: Path, target: str,
                                                 found: list[str]) -> None:
    body = "Rust: format!`x`\n\n" + ("Fetch: !`git fetch`\n" if target == "opencode" else "")
    result = _invoke(tmp_path, _skill(body), target)
    assert [p.shell_command for p in result.injections] == found


def test_opencode_dry_run_does_not_abort_and_shows_the_engines_decision(tmp_path: Path) -> None:
    result = _invoke(tmp_path, _skill("Rust: format!`x`, then !`git fetch`\n"))
    assert result.ok and result.text is not None
    assert "format!`x`" in result.text and "!`git fetch`" in result.text  # nothing ran
    assert [p.unchecked_by_runtime for p in result.injections] == [True, True]
    # the prediction: OpenCode runs both, whatever the rules
    assert [p.decision.allowed for p in result.injections] == [True, True]
    assert commands_that_run(result) == 2
    lines = injection_lines(result)
    assert all("OpenCode runs it" in line and "with no permission check" in line
               for line in lines)
    shown = result.to_json()["injections"]
    assert [item["runtimeChecks"] for item in shown] == [False, False]


def test_opencode_execute_runs_nothing_the_engine_does_not_allow(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = _skill(f"!`echo ok`\n!`touch {marker}`\n", "allowed-tools: Bash(echo:*)")
    result = _invoke(tmp_path, text, mode="execute")
    assert not result.ok and result.error is not None
    assert result.error.startswith(f'Shell command not run for pattern "!`touch {marker}`": '
                                   "OpenCode runs this; wave-lsp did not: ")
    assert not marker.exists()
    assert [p.executed for p in result.injections] == [False, False]
    assert commands_that_run(result) == 0


@pytest.mark.usefixtures("sandbox")
def test_opencode_execute_runs_what_the_engine_allows(tmp_path: Path) -> None:
    result = _invoke(tmp_path, _skill("Say !`echo ok`.\n", "allowed-tools: Bash(echo:*)"),
                     mode="execute")
    assert result.ok, result.error
    assert result.text is not None and result.text.startswith("Say ok\n.")  # stdout as it is
    assert [p.executed for p in result.injections] == [True]


@pytest.mark.usefixtures("sandbox")
def test_opencode_never_executes_a_command_the_arguments_changed(tmp_path: Path) -> None:
    text = _skill("Fix !`echo $1`\n", "allowed-tools: Bash(echo:*)")
    result = _invoke(tmp_path, text, mode="execute", arguments="bug")
    assert not result.ok and result.error is not None
    assert "the arguments are spliced into it" in result.error
    assert [p.executed for p in result.injections] == [False]


@pytest.mark.parametrize(("target", "fragment"), [
    ("opencode", "OpenCode runs it when the user types"),
    ("claude-code", None),  # `format!` is text there: no injection to hover
])
def test_the_hover_on_format_bang(tmp_path: Path, target: str, fragment: str | None) -> None:
    from wave_lsp.core.features import FeatureContext
    from wave_lsp.core.features.hover import hover

    text = _skill("Rust: format!`x`\n")
    context = FeatureContext.for_text(text, tmp_path / ".agents/skills/my-skill/SKILL.md",
                                      Settings.for_target(target))
    found = hover(context, text.index("format!") + 8)
    if fragment is None:
        assert found is None or "Injected command" not in found.markdown
    else:
        assert found is not None and fragment in found.markdown


@pytest.mark.parametrize(("target", "labels"), [("opencode", ["runs unchecked"]),
                                                ("claude-code", [])])
def test_the_inlay_hint_on_format_bang(tmp_path: Path, target: str, labels: list[str]) -> None:
    from wave_lsp.core.features import FeatureContext
    from wave_lsp.core.features.inlay import inlay_hints

    text = _skill("Rust: format!`x`\n")
    context = FeatureContext.for_text(text, tmp_path / ".agents/skills/my-skill/SKILL.md",
                                      Settings.for_target(target))
    assert [h.label for h in inlay_hints(context) if h.kind == "permission"] == labels
