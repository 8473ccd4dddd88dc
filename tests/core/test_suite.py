"""The README's test command collects every test module: pytest's default `norecursedirs` holds
`dist`, which kept tests/dist out of every run that did not name it (pyproject.toml sets the list
without it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


# Collecting 11,000 tests takes 14 CPU-seconds: 15-45 s on two cores, and more than the 110 s it
# was given once while a VS Code end-to-end run shared the machine. The bound only stops a hang.
@pytest.mark.timeout(900)
def test_the_default_run_collects_every_test_module() -> None:
    modules = {path.relative_to(REPO).as_posix() for path in (REPO / "tests").rglob("test_*.py")
               if "data" not in path.relative_to(REPO / "tests").parts}
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                             "-p", "no:cacheprovider", "-p", "no:xdist"], cwd=REPO,
                            capture_output=True, text=True, timeout=840)
    collected = {line.split("::", 1)[0] for line in listed.stdout.splitlines() if "::" in line}
    assert "tests/dist/test_packaging.py" in modules
    assert modules <= collected, sorted(modules - collected)



#: one test module of two groups, each test marked on its parameter as the harness marks them
_GROUPED = """
import os
import re
from pathlib import Path

import pytest


@pytest.mark.parametrize("group", [pytest.param(name, marks=pytest.mark.xdist_group(name))
                                   for name in ("one", "two")])
@pytest.mark.parametrize("number", range(4))
def test_grouped(group, number):
    folder = Path(__file__).parent / "seen"
    folder.mkdir(exist_ok=True)
    (folder / f"{group}-{number}").write_text(os.environ["PYTEST_XDIST_WORKER"])
"""


@pytest.mark.timeout(900)  # two xdist workers start: seconds idle, minutes under heavy load
def test_an_xdist_group_runs_on_one_worker(tmp_path: Path) -> None:
    """`-n N` keeps each `xdist_group` on one worker (tests/conftest.py): the differential
    harness starts all of a runtime's runs from the group's first test, so a group spread over
    two workers runs that runtime twice (pytest-xdist 3.8 under pytest 9.2 did)."""
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["tests.conftest"]\n')
    (tmp_path / "test_grouped.py").write_text(_GROUPED)
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider",
                           "-o", "addopts=", "--rootdir", str(tmp_path), str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=840,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for group in ("one", "two"):
        seen = list((tmp_path / "seen").glob(f"{group}-*"))
        assert len(seen) == 4, (group, done.stdout[-2000:])
        assert len({path.read_text() for path in seen}) == 1, (group, done.stdout[-2000:])


def test_every_slow_test_lives_where_the_slow_step_looks() -> None:
    """`.ci/run`'s slow step collects only the folders of `SLOW_TESTS`: a test marked slow
    anywhere else would never run."""
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    found = re.search(r'^SLOW_TESTS="([^"]+)"$', script, re.M)
    assert found, "no SLOW_TESTS= line in .ci/run"
    folders = [REPO / folder for folder in found.group(1).split()]
    assert all(folder.is_dir() for folder in folders), folders
    assert "$SLOW_TESTS" in script.split(found.group(0), 1)[1]
    slow = {path for path in (REPO / "tests").rglob("*.py")
            if re.search(r"mark\.slow\b", path.read_text(encoding="utf-8"))
            and path != Path(__file__).resolve()}
    assert slow, "no slow test found: the pattern is stale"
    outside = [path.relative_to(REPO).as_posix() for path in slow
               if not any(path.is_relative_to(folder) for folder in folders)]
    assert outside == [], outside


@pytest.mark.parametrize(("load", "cores", "expected"), [
    (0.2, 2, 1.0), (2.0, 2, 1.0), (16.0, 2, 8.0), (26.0, 2, 10.0), (16.0, 16, 1.0), (3.0, 0, 3.0),
])
def test_the_load_factor(load: float, cores: int, expected: float) -> None:
    from tests.conftest import load_factor

    assert load_factor(load, cores) == expected


@pytest.mark.timeout(7, method="thread")
def test_a_timeout_grows_with_the_load(request: pytest.FixtureRequest) -> None:
    """The test's own mark, times the factor, goes first (pytest-timeout reads the closest mark);
    its method is kept; a factor of 1 changes nothing."""
    from tests.conftest import scale_timeout

    item = request.node
    before = list(item.own_markers)
    # the limit this test runs under: 7 s, already times the load when it started
    base = float(item.get_closest_marker("timeout").args[0])
    assert base >= 7.0
    try:
        assert scale_timeout(item, 1.0) is None
        assert scale_timeout(item, 4.0) == base * 4
        marker = item.get_closest_marker("timeout")
        assert (marker.args, marker.kwargs) == ((base * 4,), {"method": "thread"})
    finally:
        item.own_markers[:] = before
