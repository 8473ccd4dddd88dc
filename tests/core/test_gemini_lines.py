"""Gemini CLI's line parser (`yaml_loader = "line-fallback"`, docs/design/runtime-facts.md §9.6):
where js-yaml throws or does not give `name` and `description` as text, Gemini CLI 0.61.0 reads
the two lines instead. One reading (`reads.read_as`, through `loaders.rescue`) is what the listing
line, the load verdict and the rules all use. Each row was observed on Gemini CLI 0.61.0 by the
differential harness (tests/oracle/cases gm-fallback-*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.facts.profiles import GEMINI_CLI
from wave_lsp.core.facts.reads import read_as
from wave_lsp.core.invocation.listing import runtime_listing_entry
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate

W, INFO, E = Severity.WARNING, Severity.INFORMATION, Severity.ERROR


@pytest.mark.parametrize(("frontmatter", "name", "description", "finding"), [
    # gm-fallback-missing: valid YAML, no top-level description: the indented line is read
    ("name: s\nmetadata:\n  description: Nested only.\n", "s", "Nested only.", ("SK050", INFO)),
    ("description: Top.\nmetadata:\n  name: s\n", "s", "Top.", ("SK030", INFO)),
    # gm-fallback-duplicate: after another YAML error, the last `description:` line wins
    ("name: s\ndescription: First. Use when: x\ndescription: Second.\n", "s", "Second.",
     ("SK022", W)),
    # gm-fallback-alias: an alias to no anchor fails js-yaml; the block keeps its indicator
    ("name: s\ndescription: >-\n  Globs.\n  Files.\npaths: **/*.ts\n", "s", ">- Globs. Files.",
     ("SK023", W)),
    # gm-fallback-number: `name: 123` is no string: the line parser's name is `123`
    ("name: 123\ndescription: Numbered.\n", "123", "Numbered.", ("SK031", INFO)),
    # valid YAML with both strings: js-yaml's values, no line parser (the block is folded)
    ("name: s\ndescription: >-\n  Globs.\n  Files.\n", "s", "Globs. Files.", None),
    # the line parser finds no `description:` line: the skill is dropped
    ("name: s\nusage: a: b\n", None, None, ("SK021", E)),
])
def test_one_reading_for_the_listing_the_verdict_and_the_rules(
        tmp_path: Path, frontmatter: str, name: str | None, description: str | None,
        finding: tuple[str, Severity] | None) -> None:
    text = f"---\n{frontmatter}---\nBody.\n"
    relpath = ".agents/skills/s/SKILL.md"
    reading = read_as(SkillDocument.from_text(text), GEMINI_CLI)
    assert (reading.values.value("name"), reading.description) == (name, description)
    report = run(tmp_path, text, target="gemini-cli", relpath=relpath)
    assert report.verdict is not None and report.verdict.loads is (name is not None)
    if name is not None:
        entry = runtime_listing_entry(SkillDocument.from_text(text),
                                      locate(tmp_path / relpath, home=tmp_path / "home"),
                                      GEMINI_CLI)
        assert f"<name>{name}</name>" in entry.text
        assert f"<description>{description}</description>" in entry.text
    codes = {f.code: f.severity for f in report.findings}
    if finding is not None:
        code, level = finding
        assert codes.get(code) == level, [(f.code, f.severity, f.message) for f in report.findings]
    else:
        assert not {"SK020", "SK021", "SK022", "SK023", "SK030", "SK050"} & codes.keys()
