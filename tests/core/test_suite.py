"""The README's test command collects every test module: pytest's default `norecursedirs` holds
`dist`, which kept tests/dist out of every run that did not name it (pyproject.toml sets the list
without it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(120)
def test_the_default_run_collects_every_test_module() -> None:
    modules = {path.relative_to(REPO).as_posix() for path in (REPO / "tests").rglob("test_*.py")
               if "data" not in path.relative_to(REPO / "tests").parts}
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                             "-p", "no:cacheprovider", "-p", "no:xdist"], cwd=REPO,
                            capture_output=True, text=True, timeout=110)
    collected = {line.split("::", 1)[0] for line in listed.stdout.splitlines() if "::" in line}
    assert "tests/dist/test_packaging.py" in modules
    assert modules <= collected, sorted(modules - collected)
