"""docs/design/targets-facts.md stays in step with the tests: every test it names exists, and
every `test_fact[…]` entry names a fixture of the fact table of tests/core/test_targets.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.core.test_targets import FACTS

REPO = Path(__file__).resolve().parents[2]
AUDIT = REPO / "docs" / "design" / "targets-facts.md"
#: `tests/…/file.py::test_name`
_NAMED = re.compile(r"`(?P<file>tests/[\w/]+\.py)::(?P<test>test_\w+)`")
#: `test_fact[target:§… start of the fact]` (the fact may hold backticks, not `]`)
_FACT = re.compile(r"test_fact\[(?P<id>[\w-]+:§[^\]]+)\]")


def _tests_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return {node.name for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")}


def test_every_named_test_exists() -> None:
    text = AUDIT.read_text("utf-8")
    named = [(m["file"], m["test"]) for m in _NAMED.finditer(text)]
    assert len(named) >= 60  # the audit's tables, not an empty page
    missing = [f"{file}::{test}" for file, test in named
               if not (REPO / file).is_file() or test not in _tests_of(REPO / file)]
    assert not missing, missing


def test_every_named_fact_fixture_exists() -> None:
    ids = [f"{fact.target}:{fact.fact}" for fact in FACTS]
    named = [m["id"] for m in _FACT.finditer(AUDIT.read_text("utf-8"))]
    assert len(named) >= 40
    missing = [name for name in named if not any(i.startswith(name) for i in ids)]
    assert not missing, missing


def test_the_readme_target_table_lists_every_target_with_its_sources() -> None:
    """docs/targets.md *The targets*: one row per target, each saying what it models and where its
    facts come from, and every `§N` it cites is a section of docs/design/runtime-facts.md."""
    from wave_lsp.core.facts.profiles import TARGETS

    page = (REPO / "docs" / "targets.md").read_text("utf-8")
    table = page.split("\n## The targets\n", 1)[1].split("\n\n| target | models | facts from |\n", 1)[1]
    rows = [line.split(" | ") for line in table.split("\n\n", 1)[0].splitlines()[1:]]
    assert sorted(row[0].strip("| `") for row in rows) == sorted(TARGETS)
    from tests.core.test_citations import facts_sections

    sections = facts_sections()  # every § of runtime-facts.md, in the file its index names
    for target, models, sources in rows:
        assert len(models) > 20 and sources.strip(" |"), target
        cited = re.findall(r"§(\d+(?:\.\d+)*)", sources)
        if "all of the above" not in sources:
            assert cited, target
        assert set(cited) <= sections, (target, cited)
