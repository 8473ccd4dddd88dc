"""The placeholder rules under `wave`, whose substitution is Wave's own (docs/design/runtime-facts.md
§4.3): no escape, no look-ahead, no `$ARGUMENTS[N]`, no names, applied on every invocation. Each
row: a body, and the findings (code, level, words of the message, the quick fix's new text) the
rules give under `wave`; the same body under `claude-code` for contrast where it differs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.rules.placeholders import MAX_PLACEHOLDER_FINDINGS

HEAD = "---\nname: my-skill\ndescription: Deploys. Use when asked.\n---\n"
W, INFO = Severity.WARNING, Severity.INFORMATION


@pytest.mark.parametrize(("body", "code", "level", "words", "fix"), [
    # an amount in prose always loses its `$` and figures: Wave substitutes without arguments too
    ("It costs $5/month.\n", "SK115", W, "`$5` reads as an amount", None),
    ("A budget of $2,000 per seat.\n", "SK115", W, "(`2,000 USD`)", None),
    ("Raise $250K first.\n", "SK115", W, "`$250K` reads as an amount of money, but Wave substitutes `$250`",
     None),
    ("Use $0 here.\n", "SK115", W, "`$0` is always empty in Wave", None),
    ("Deploy to $1.\n", "SK115", INFO, "`$1` is argument 1 here (Wave counts from 1)", None),
    ("Fix $ARGUMENTS[0] now.\n", "SK115", W, "write `$1` for that argument", None),
    # in code: the fix keeps a shell's or awk's meaning without a backslash
    ("```bash\nshift\necho \"$1\"\n```\n", "SK116", W, "write `${1}` to keep it", "${1}"),
    ("```bash\nawk '{print $2}' f\n```\n", "SK116", W, "write `$(2)` to keep it", "$(2)"),
    ("```\nTotal: $0.50 each\n```\n", "SK116", W, "(`0.50 USD`)", None),
    # names: Wave reads no `arguments`, so a declared `$issue` stays literal
    ("Fix $issue.\n", "SK118", INFO, "`$issue` stays literal in Wave", None),
])
def test_wave_placeholder_findings(tmp_path: Path, body: str, code: str, level: Severity,
                                   words: str, fix: str | None) -> None:
    head = HEAD.replace("---\n", "---\narguments: [issue]\n", 1) if "$issue" in body else HEAD
    report = run(tmp_path, head + body, target="wave")
    found = [f for f in report.findings if f.code == code]
    assert len(found) == 1, [f.message for f in report.findings]
    (finding,) = found
    assert finding.severity == level and words in finding.message, finding.message
    assert "\\$" not in finding.message.split(".")[0]  # never the escape Wave does not have
    edits = [edit.new_text for item in finding.fixes for edit in item.edits]
    assert edits == ([fix] if fix else [])


@pytest.mark.parametrize("body", ["It costs $5/month.\n", "Fix $ARGUMENTS[0] now.\n"])
def test_what_claude_code_reads_differently(tmp_path: Path, body: str) -> None:
    """Under Claude Code `$5/month` is an argument nobody passes (it stays as written) and
    `$ARGUMENTS[0]` the first word: neither is a warning there."""
    report = run(tmp_path, HEAD + body, target="claude-code")
    assert not [f for f in report.findings if f.code == "SK115" and f.severity == W]


def test_an_amount_in_a_skill_that_takes_arguments_is_still_one(tmp_path: Path) -> None:
    """Wave empties `$400K` whether or not the skill declares arguments (labeller, forecast)."""
    head = HEAD.replace("---\n", "---\nargument-hint: [company]\n", 1)
    report = run(tmp_path, head + "Revenue of $400K and costs of $120K.\n", target="wave")
    found = [f for f in report.findings if f.code == "SK115"]
    assert [f.severity for f in found] == [W, W], [f.message for f in found]


def test_both_ends_of_a_range_are_amounts(tmp_path: Path) -> None:
    report = run(tmp_path, HEAD + "Prices range $8–$25.\n", target="wave")
    found = [f for f in report.findings if f.code == "SK115"]
    assert [(f.severity, f.message.split(" reads")[0]) for f in found] == [
        (W, "`$8`"), (W, "`$25`")]


def test_a_long_price_list_is_reported_whole_and_hostile_input_is_bounded(tmp_path: Path) -> None:
    prices = "".join(f"- Plan {i}: ${i + 1}/month\n" for i in range(120))
    report = run(tmp_path / "prices", HEAD + prices, target="wave")
    assert len([f for f in report.findings if f.code == "SK115"]) == 120
    report = run(tmp_path / "hostile", HEAD + "$1 " * 10_000 + "\n", target="wave")
    assert len([f for f in report.findings if f.code == "SK115"]) == MAX_PLACEHOLDER_FINDINGS


@pytest.mark.parametrize(("body", "code", "expected"), [
    # OpenCode 1.18.33's placeholders are plain too (cases oc-args-escape, oc-args-indexed,
    # oc-args-names): `\$1` renders `\A`, `$ARGUMENTS[1]` renders `A B[1]`, `$issue` stays
    ("Costs \\$1 each.\n", "SK115", [(W, "OpenCode has no escape: `\\$1` keeps the backslash")]),
    ("Fix $ARGUMENTS[1] now.\n", "SK115", [(W, "OpenCode has no `$ARGUMENTS[N]`")]),
    ("Fix $issue.\n", "SK118", [(INFO, "`$issue` stays literal in OpenCode")]),
    # the highest `$N` written takes every argument from N on (`only=$0` renders the last word)
    ("Deploy to $1.\n", "SK115", [(INFO, "`$1` is argument 1 and every argument after it here "
                                         "(OpenCode counts from 1, and the highest `$N` written "
                                         "takes the rest")]),
    ("Copy $1 to $2.\n", "SK115", [(INFO, "`$1` is argument 1 here (OpenCode counts from 1)"),
                                   (INFO, "`$2` is argument 2 and every argument after it")]),
    ("Use $0 here.\n", "SK115", [(W, "`$0` becomes the last argument (as the highest `$N`")]),
    ("Use $0 and $1.\n", "SK115", [(W, "`$0` becomes `undefined` in OpenCode"),
                                   (INFO, "`$1` is argument 1 and every argument after it")]),
    # the highest is the body's, code included
    ("Use $1.\n\n```\necho $2\n```\n", "SK115", [(INFO, "`$1` is argument 1 here (")]),
    ("It costs $5/month.\n", "SK115", [(W, "`$5` becomes argument 5 and every argument after "
                                           "it, or empty without arguments")]),
    ("Use $1.\n\n```bash\nshift\necho \"$2\"\n```\n", "SK116",
     [(W, "it becomes the user's argument 2 and every argument after it")]),
])
def test_opencode_placeholder_findings(tmp_path: Path, body: str, code: str,
                                       expected: list[tuple[Severity, str]]) -> None:
    head = HEAD.replace("---\n", "---\narguments: [issue]\n", 1) if "$issue" in body else HEAD
    report = run(tmp_path, head + body, target="opencode")
    found = [f for f in report.findings if f.code == code]
    assert len(found) == len(expected), [f.message for f in report.findings]
    for finding, (level, words) in zip(found, expected, strict=True):
        assert finding.severity == level and words in finding.message, finding.message
        assert "named `arguments`" not in finding.message.split(".")[0]  # OpenCode reads none


@pytest.mark.parametrize("target", ["opencode", "wave"])
def test_a_declared_name_in_an_injected_command_is_no_argument_under_plain_placeholders(
        tmp_path: Path, target: str) -> None:
    """SK119 asks the target's own placeholders: a `\\$1` there is substituted (no escape), a
    declared `$issue` is not (no names)."""
    head = HEAD.replace("---\n", "---\narguments: [issue]\n", 1)
    report = run(tmp_path, head + "Issue: !`gh issue view $issue \\$1`\n", target=target)
    assert [f.message.split(" ")[0] for f in report.findings if f.code == "SK119"] == ["`$1`"]
    claude = run(tmp_path / "claude", head + "Issue: !`gh issue view $issue \\$1`\n",
                 target="claude-code")
    assert [f.message.split(" ")[0] for f in claude.findings if f.code == "SK119"] == ["`$issue`"]
