"""What the rules say under `claude-code` about a frontmatter strict YAML rejects, and a file
without one: what Claude Code 2.1.332 does with it (issue 26 measurements), not what a validator
does. Each case: the finding's code, its level, and the words that must be in the message."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.checking.catalog import Severity

CASES = [
    # the quoting retry loads an LF file…
    ("---\nname: my-skill\ndescription: Use when: asked\n---\n# Body\n", "SK021",
     Severity.INFORMATION, ["quoting retry quotes the value and loads it",
                            "Wave and Copilot CLI do not load"]),
    # …but not the same bytes with CRLF: the listing falls back to the body's first line
    ("---\r\nname: my-skill\r\ndescription: Use when: asked\r\n---\r\n# Body line\r\n", "SK021",
     Severity.WARNING, ["never rewrites a line that ends in CRLF", "`Body line`"]),
    # Bun's parser loads these as written
    ("---\nname: my-skill\ndescription: , it might predict\n---\n", "SK020",
     Severity.INFORMATION, ["YAML parser (Bun) accepts this as written"]),
    ("---\nname: my-skill\ndescription: caf\u0080 menu\n---\n", "SK020",
     Severity.INFORMATION, ["YAML parser (Bun) accepts this as written"]),
    # the tab retry of 2.1.332 loads a tab-indented frontmatter
    ("---\nname: my-skill\ndescription: D. Use when asked.\nmetadata:\n\tv: '1'\n---\n", "SK026",
     Severity.WARNING, ["turns each leading tab into two spaces", "skills-ref rejects the skill"]),
    # a BOM is removed
    ("\ufeff---\nname: my-skill\ndescription: D. Use when asked.\n---\n", "SK004",
     Severity.WARNING, ["Claude Code removes it and reads the frontmatter"]),
    # no frontmatter: no fields, and the body's first line as the description
    ("# My title\nText.\n", "SK005", Severity.WARNING,
     ["lists it with the body's first line as its description (`My title`)"]),
    # `name` differs from the folder: a label, and `/name` works too; an invalid one is not shown
    ("---\nname: other-name\ndescription: D. Use when asked.\n---\n", "SK039",
     Severity.INFORMATION, ["lists it as `- my-skill (other-name): …` and accepts `/other-name`"]),
    ("---\nname: Other Name\ndescription: D. Use when asked.\n---\n", "SK039",
     Severity.INFORMATION, ["does not show this `name` at all"]),
    # an injection in a code span is text to Claude Code 2.1.332
    ("---\nname: my-skill\ndescription: D. Use when asked.\n---\nSee `run !`date` now`.\n",
     "SK121", Severity.WARNING, ["inside a code span", "does not run it"]),
    # nothing rescues an unterminated quote: empty metadata, described by the body
    ('---\nname: my-skill\ndescription: "open\n---\nFirst line\n', "SK020", Severity.ERROR,
     ["empty metadata", "(`First line`)"]),
]


@pytest.mark.parametrize(("text", "code", "level", "words"), CASES)
def test_claude_code_messages(tmp_path: Path, text: str, code: str, level: Severity,
                              words: list[str]) -> None:
    report = run(tmp_path, text, target="claude-code")
    found = [f for f in report.findings if f.code == code]
    assert found, [(f.code, f.message) for f in report.findings]
    assert found[0].severity == level
    for word in words:
        assert word in found[0].message, found[0].message


def test_a_file_claude_code_loads_says_no_empty_metadata(tmp_path: Path) -> None:
    """None of the findings of a file Claude Code loads with its description claims that the
    skill has empty metadata or no description."""
    for text, _, level, _ in CASES:
        if level == Severity.INFORMATION:
            report = run(tmp_path, text, target="claude-code")
            assert all("empty metadata:" not in f.message and "no description" not in f.message
                       for f in report.findings)
