"""Suite-wide options: `--update-golden` rewrites the reviewed snapshot files (golden findings,
the corpus output baseline) instead of comparing against them; `--slow` also runs the tests marked
`slow` (they build and install packages: `.ci/run` runs them in a second step), which are skipped
otherwise, saying so."""

from __future__ import annotations

import pytest

from tests.helpers import sandbox_or_skip


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden/baseline files from the current output")
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow (building and installing packages)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: builds or installs packages, or runs the real "
                                       "Claude Code (run with --slow)")
    # Under xdist (`-n N`), the tests marked `xdist_group` go to one worker per group: the
    # differential harness groups each runtime's tests (and Claude Code's probes), whose first
    # test runs the whole group's runtime processes; without groups every worker would run them
    # all (each worker collects every test). The other tests are spread as with `load`.
    if getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadgroup"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: builds or installs packages, or runs the real Claude "
                                   "Code; run with --slow (.ci/run does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def sandbox() -> str:
    """Tests that execute commands take this fixture: skipped without a sandbox (see
    `sandbox_or_skip`)."""
    return sandbox_or_skip()
