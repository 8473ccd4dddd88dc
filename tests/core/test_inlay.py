"""Inlay hints of the pure core (`wave_lsp.core.features.inlay`): labels and exact offsets after
`${…}`, argument placeholders and injections, per target — table-driven, in document offsets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.features.hover import hover
from wave_lsp.core.features.inlay import InlayHint, inlay_hints, short_label
from wave_lsp.core.parsing.text import Span

SKILL = ".wave/skills/x/SKILL.md"


def context(tmp_path: Path, text: str, target: str = "wave",
            settings: dict | None = None) -> FeatureContext:
    project = tmp_path / "project"
    path = project / SKILL
    path.parent.mkdir(parents=True, exist_ok=True)
    (project / ".git").mkdir(exist_ok=True)
    path.write_text(text, "utf-8")
    if settings is not None:
        (project / ".wave/settings.json").write_text(json.dumps(settings), "utf-8")
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return FeatureContext.for_text(text, path, Settings.for_target(target, home=home))


def after(text: str, needle: str, occurrence: int = 0) -> int:
    """The offset right after the `occurrence`-th `needle` in `text`."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    return index + len(needle)


def labels(hints: list[InlayHint]) -> list[tuple[int, str]]:
    return [(hint.offset, hint.label) for hint in hints]


HEAD = "---\nname: x\ndescription: D. Use when asked.\narguments: [issue, branch]\n---\n"
ARGUMENTS = HEAD + "Fix $0, $1 and $2; $ARGUMENTS[1] on $issue/$branch. All: $ARGUMENTS. \\$1 $HOME\n"


def test_argument_hints_follow_wave_s_substitution(tmp_path: Path) -> None:
    """Wave counts from 1 (`$0` always empty) and reads no `arguments` names, no `$ARGUMENTS[N]`
    (its `$ARGUMENTS` part is all arguments) and no escape (`\\$1` is substituted)."""
    hints = inlay_hints(context(tmp_path, ARGUMENTS, "wave"))
    expected = [(after(ARGUMENTS, "$0"), "empty"), (after(ARGUMENTS, "$1"), "arg 1"),
                (after(ARGUMENTS, "$2"), "arg 2"), (after(ARGUMENTS, "$ARGUMENTS"), "all args"),
                (after(ARGUMENTS, "$ARGUMENTS", 1), "all args"),
                (after(ARGUMENTS, "\\$1"), "arg 1")]
    assert labels(hints) == expected


@pytest.mark.parametrize(("body", "expected"), [
    # OpenCode: plain placeholders as Wave's (no names, no `$ARGUMENTS[N]`, no escape), and the
    # highest `$N` of the body takes every argument from N on; a `$0` below it is `undefined`
    (ARGUMENTS, [("$0", "undefined"), ("$1", "arg 1"), ("$2", "args 2…"),
                 ("$ARGUMENTS", "all args"), ("$ARGUMENTS", "all args"), ("\\$1", "arg 1")]),
    (HEAD + "Use $0.\n", [("$0", "last arg")]),  # `args.slice(-1)`
    (HEAD + "Use $1, then\n\n```\necho $3\n```\n", [("$1", "arg 1"), ("$3", "args 3…")]),
])
def test_argument_hints_follow_opencode_s_substitution(tmp_path: Path, body: str,
                                                       expected: list[tuple[str, str]]) -> None:
    hints = inlay_hints(context(tmp_path, body, "opencode"))
    offsets, position = [], len(HEAD)
    for needle, _ in expected:
        position = body.index(needle, position) + len(needle)
        offsets.append(position)
    assert labels(hints) == [(offset, label) for offset, (_, label) in zip(offsets, expected,
                                                                           strict=True)]


def test_opencode_tooltips_say_which_placeholder_takes_the_rest(tmp_path: Path) -> None:
    tips = {h.label: h.tooltip for h in inlay_hints(context(tmp_path, ARGUMENTS, "opencode"))}
    assert tips["args 2…"].startswith("`$2` — argument 2 and every argument after it: `opencode` "
                                      "counts from 1, and the highest `$N` written takes the rest")
    assert "`$0` becomes `undefined` in `opencode`" in tips["undefined"]
    assert "and every" not in tips["arg 1"]
    last = inlay_hints(context(tmp_path, HEAD + "Use $0.\n", "opencode"))
    assert "becomes the last argument" in last[0].tooltip


@pytest.mark.parametrize(("target", "expected"), [
    # claude-code counts from 0: `$0` is the first argument, `$2` a third nobody declared
    ("claude-code", [("$0", "issue"), ("$1", "branch"), ("$2", "arg 3"),
                     ("$ARGUMENTS[1]", "branch"), ("$issue", "arg 1"), ("$branch", "arg 2"),
                     ("$ARGUMENTS", "all args")]),
])
def test_argument_hints_follow_the_profiles_base(tmp_path: Path, target: str,
                                                 expected: list[tuple[str, str]]) -> None:
    hints = inlay_hints(context(tmp_path, ARGUMENTS, target))
    # `$ARGUMENTS` also ends `$ARGUMENTS[1]`'s prefix: find each needle after the previous one
    offsets, position = [], 0
    for needle, _ in expected:
        position = ARGUMENTS.index(needle + ("" if needle != "$ARGUMENTS" else "."), position)
        offsets.append(position + len(needle))
    assert labels(hints) == [(offset, label) for offset, (_, label) in zip(offsets, expected,
                                                                           strict=True)]
    assert all(hint.kind == "argument" for hint in hints)


def test_argument_tooltips_say_how_the_target_counts(tmp_path: Path) -> None:
    wave = {h.label: h.tooltip for h in inlay_hints(context(tmp_path, ARGUMENTS, "wave"))}
    assert "always empty in `wave`" in wave["empty"]
    assert "`wave` counts from 1" in wave["arg 1"] and "is empty when fewer" in wave["arg 1"]
    claude = {h.label: h.tooltip for h in inlay_hints(context(tmp_path, ARGUMENTS, "claude-code"))}
    assert "`claude-code` counts from 0" in claude["arg 3"]
    assert "stays as written when fewer" in claude["arg 3"]


@pytest.mark.parametrize(("target", "body", "expected"), [
    ("wave", "Read ${WAVE_SKILL_DIR}/a and ${CLAUDE_SKILL_DIR}/b\n",
     [("${WAVE_SKILL_DIR}", "SKILL_DIR"), ("${CLAUDE_SKILL_DIR}", "SKILL_DIR")]),
    ("wave", "Session ${WAVE_SESSION_ID}, ${CLAUDE_SESSION_ID}\n",
     [("${WAVE_SESSION_ID}", "per session"), ("${CLAUDE_SESSION_ID}", "per session")]),
    # a variable the target does not know gets no hint (SK117 reports it)
    ("wave", "Project ${CLAUDE_PROJECT_DIR} and ${NOPE}\n", []),
    ("claude-code", "Project ${CLAUDE_PROJECT_DIR}, effort ${CLAUDE_EFFORT}, ${WAVE_SKILL_DIR}\n",
     # the effort Claude Code 2.1.332 substitutes when nothing sets one (probe arg-effort)
     [("${CLAUDE_PROJECT_DIR}", "PROJECT"), ("${CLAUDE_EFFORT}", "medium")]),
    # known, but without a value here: the plugin root outside a plugin, the arguments file in prose
    ("wave", "Root ${WAVE_PLUGIN_ROOT}, file ${WAVE_ARGUMENTS_FILE}\n",
     [("${WAVE_PLUGIN_ROOT}", "literal"), ("${WAVE_ARGUMENTS_FILE}", "literal")]),
    ("claude-code", "Setting ${user_config.token}\n", [("${user_config.token}", "plugin setting")]),
])
def test_variable_hints(tmp_path: Path, target: str, body: str,
                        expected: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_CODE_EFFORT_LEVEL", raising=False)
    text = HEAD + body
    ctx = context(tmp_path, text, target)
    project = (tmp_path / "project").as_posix()
    resolved = {"SKILL_DIR": short_label(f"{project}/.wave/skills/x"), "PROJECT": short_label(project)}
    hints = inlay_hints(ctx)
    assert labels(hints) == [(after(text, needle), resolved.get(label, label))
                             for needle, label in expected]
    assert all(hint.kind == "value" for hint in hints)


def test_a_resolved_path_is_shortened_in_the_label_and_whole_in_the_tooltip(tmp_path: Path) -> None:
    deep = tmp_path / "a-rather-long-folder-name" / "and-another-one"
    ctx = context(deep, HEAD + "Run ${WAVE_SKILL_DIR}/x\n")
    (hint,) = inlay_hints(ctx)
    full = (deep / "project/.wave/skills/x").as_posix()
    assert hint.label == "…/project/.wave/skills/x" and len(hint.label) <= 32
    assert f"Resolves to `{full}`" in hint.tooltip


@pytest.mark.parametrize(("value", "label"), [
    ("/short/path", "/short/path"),
    ("/very/long/prefix/that/goes/on/and/on/skills/demo", "…/goes/on/and/on/skills/demo"),
    ("/x/" + "a" * 40, "…" + "a" * 31),
    ("a" * 40, "…" + "a" * 31),
])
def test_short_label(value: str, label: str) -> None:
    assert short_label(value) == label


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_offsets_are_code_points_after_non_ascii_tabs_and_crlf(tmp_path: Path, newline: str) -> None:
    body = "中文😀\t${WAVE_SESSION_ID}\t$1 !`ls`" + newline + "\t😀😀 $ARGUMENTS" + newline
    text = HEAD.replace("\n", newline) + body
    hints = inlay_hints(context(tmp_path, text))
    assert labels(hints) == [(after(text, "${WAVE_SESSION_ID}"), "per session"),
                             (after(text, "$1"), "arg 1"), (after(text, "!`ls`"), "read-only"),
                             (after(text, "$ARGUMENTS"), "all args")]


INJECTIONS = HEAD + "A !`git status` B !`touch out`\n```!\ncurl x\n```\nC !`rm -rf tmp`\n"


@pytest.mark.parametrize(("target", "settings", "expected"), [
    # Wave runs `git status` by its default rule (runtime-facts §8.12); the rest needs approval
    ("wave", None, ["read-only", "needs approval", "needs approval", "needs approval"]),
    ("wave", {"permissions": {"allow": ["Bash(touch *)", "Bash(git status)"],
                              "deny": ["Bash(curl *)"]}},
     ["allowed", "allowed", "denied", "needs approval"]),
    # Claude Code runs its built-in read-only commands without a rule
    ("claude-code", None, ["read-only", "needs approval", "needs approval", "needs approval"]),
])
def test_injection_hints_are_the_permission_engines_decisions(
        tmp_path: Path, target: str, settings: dict | None, expected: list[str]) -> None:
    ctx = context(tmp_path, INJECTIONS, target, settings)
    hints = [hint for hint in inlay_hints(ctx) if hint.kind == "permission"]
    ends = [after(INJECTIONS, needle) for needle in ("!`git status`", "!`touch out`",
                                                     "curl x\n```", "!`rm -rf tmp`")]
    assert labels(hints) == list(zip(ends, expected, strict=True))


def test_injection_tooltip_is_the_hovers_account(tmp_path: Path) -> None:
    ctx = context(tmp_path, INJECTIONS, "wave", {"permissions": {"deny": ["Bash(curl *)"]}})
    hints = [hint for hint in inlay_hints(ctx) if hint.kind == "permission"]
    for hint, needle in zip(hints, ("git status", "touch out", "curl x", "rm -rf tmp"), strict=True):
        found = hover(ctx, INJECTIONS.index(needle))
        assert found is not None and found.markdown == hint.tooltip
    assert "⛔ **denied**" in hints[2].tooltip and "Bash(curl *)" in hints[2].tooltip


@pytest.mark.parametrize(("target", "label"), [("wave", "literal"), ("claude-code", "branch")])
def test_arguments_inside_commands(tmp_path: Path, target: str, label: str) -> None:
    """Wave never splices arguments into a command (it stays literal); Claude Code does (SK119)."""
    text = HEAD + "Run !`echo $1`\n"
    hint = next(h for h in inlay_hints(context(tmp_path, text, target)) if h.kind == "argument")
    assert (hint.offset, hint.label) == (after(text, "$1"), label)
    if target == "claude-code":
        assert "SK119" in hint.tooltip


def test_empty_injection_gets_no_hint(tmp_path: Path) -> None:
    assert inlay_hints(context(tmp_path, HEAD + "Empty: !` `\n")) == []


def test_frontmatter_placeholders_get_no_hints(tmp_path: Path) -> None:
    text = ("---\nname: x\ndescription: Uses $1. Use when asked.\nallowed-tools: "
            "Bash(${WAVE_SKILL_DIR}/x.sh)\n---\nBody\n")
    assert inlay_hints(context(tmp_path, text)) == []


def test_only_hints_in_the_range_are_returned(tmp_path: Path) -> None:
    text = HEAD + "One $1\nTwo $2 !`ls`\nThree $ARGUMENTS\n"
    ctx = context(tmp_path, text)
    line = Span(text.index("Two"), text.index("\nThree"))
    # (wave, the default, reads no `arguments` names: `arg 2`, not `branch`)
    assert labels(inlay_hints(ctx, line)) == [(after(text, "$2"), "arg 2"),
                                              (after(text, "!`ls`"), "read-only")]
    # a range inside the frontmatter has none; the end of a range is inclusive
    assert inlay_hints(ctx, Span(0, 4)) == []
    assert labels(inlay_hints(ctx, Span(after(text, "$1"), after(text, "$1")))) == [
        (after(text, "$1"), "arg 1")]


@pytest.mark.parametrize("target", ["wave", "claude-code"])
def test_argument_tooltips_are_the_hovers(tmp_path: Path, target: str) -> None:
    """The hint and the hover explain a placeholder in the same words, declared names included."""
    ctx = context(tmp_path, ARGUMENTS, target)
    hints = inlay_hints(ctx)
    assert len(hints) == {"wave": 6, "claude-code": 7}[target]  # Wave: no names, no escape
    for hint in hints:
        found = hover(ctx, hint.offset - 1)
        assert found is not None and found.markdown == hint.tooltip
        assert found.span.end == hint.offset


@pytest.mark.parametrize("target", ["wave", "claude-code"])
def test_variable_tooltips_are_the_hovers(tmp_path: Path, target: str) -> None:
    text = HEAD + ("${WAVE_SKILL_DIR} ${CLAUDE_SKILL_DIR} ${CLAUDE_SESSION_ID} ${CLAUDE_EFFORT} "
                   "${WAVE_PLUGIN_ROOT} ${CLAUDE_PLUGIN_ROOT} ${user_config.x}\n")
    ctx = context(tmp_path, text, target)
    hints = inlay_hints(ctx)
    assert len(hints) == 5  # wave: no effort, no user_config; claude-code: no WAVE_* ones
    for hint in hints:
        found = hover(ctx, hint.offset - 1)
        assert found is not None and found.markdown == hint.tooltip
