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
