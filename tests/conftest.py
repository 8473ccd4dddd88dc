"""Suite-wide options: `--update-golden` rewrites the reviewed snapshot files (golden findings,
the corpus output baseline) instead of comparing against them; `--slow` also runs the tests marked
`slow` (they build and install packages: `.ci/run` runs them in a second step), which are skipped
otherwise, saying so. Under xdist the tests of one `xdist_group` run on one worker (the differential
harness needs it; see `pytest_configure`)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers import sandbox_or_skip

# Hypothesis measures wall time twice: a 200 ms deadline per example and the `too_slow` health
# check of data generation. Both fail on a machine shared with other jobs (the gitignore
# properties' examples are milliseconds idle, seconds at load 16 on two cores) and neither is a
# property of the code: speed is measured in benchmarks/, never asserted. Off for every test.
settings.register_profile("wave-lsp", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("wave-lsp")


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
    # A worker parses the command line again, where `-n N` alone says `load`: the controller
    # tells it that the run is by group (`pytest_configure_node`), so that it marks its tests.
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and workerinput.get("wave_lsp_loadgroup"):
        config.option.loadgroup = True


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist's controller, before a worker starts: whether the run distributes by group."""
    node.workerinput["wave_lsp_loadgroup"] = node.config.getvalue("dist") == "loadgroup"


def group_ids(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker distributing by group: each test of an `xdist_group` gets the group as
    the suffix of its id (`…@claude-code`), which is how the controller keeps a group on one
    worker. pytest-xdist 3.8 writes that suffix into `item._nodeid`, which pytest 9.2 no longer
    reads (its ids are structured; pytest-dev/pytest-xdist#1386): every group was spread over
    both workers and, since the first test of a group starts all of its runtime's runs, each
    worker ran the whole harness (twice the work). Here the suffix goes where this pytest keeps
    the id; where xdist's own suffix took effect, nothing changes. Then the largest groups go
    first (below)."""
    if not getattr(config.option, "loadgroup", False):
        return
    names: dict[str, str] = {}
    for item in items:
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                         for mark in item.iter_markers("xdist_group")})
        if not groups:
            continue
        names[item.nodeid] = "_".join(groups)
        if "@" in item.nodeid.rpartition("]")[2]:
            continue
        grouped = f"{item.nodeid}@{names.pop(item.nodeid)}"
        names[grouped] = "_".join(groups)
        if hasattr(item, "_id"):  # pytest >= 9.2: a structured id
            from _pytest.nodeid import coerce_node_id
            item._id = coerce_node_id(grouped)
        else:
            item._nodeid = grouped
    # The largest groups first (the longest jobs first keep both workers busy to the end: the
    # controller hands out work in collection order, and Claude Code's probes, collected late,
    # made a tail of several minutes on one worker), then the tests of no group, in their order.
    sizes = Counter(names.values())
    items.sort(key=lambda item: -sizes[names[item.nodeid]] if item.nodeid in names else 0)


def load_factor(load: float, cores: int) -> float:
    """How many times longer than usual a test may take now: the load average per core (one
    test per core under `-n auto` is the usual), between 1 and 10."""
    return min(10.0, max(1.0, load / max(1, cores)))


def scale_timeout(item: pytest.Item, factor: float) -> float | None:
    """Put the test's pytest-timeout limit (its `timeout` mark, else the configured one) times
    `factor` first among its marks; the new limit, None when it has none or `factor` is 1."""
    marker = item.get_closest_marker("timeout")
    options: dict[str, Any] = {}
    base: Any = getattr(item.config, "_env_timeout", None)
    if marker is not None:
        options = {key: value for key, value in marker.kwargs.items() if key != "timeout"}
        if len(marker.args) > 1:
            options["method"] = marker.args[1]
        base = marker.kwargs.get("timeout", marker.args[0] if marker.args else base)
    if factor <= 1.0 or not base or float(base) <= 0:
        return None
    limit = float(base) * factor
    item.add_marker(pytest.mark.timeout(limit, **options), append=False)
    return limit


@pytest.hookimpl(tryfirst=True, hookwrapper=True)  # before pytest-timeout reads the limit
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Each test's timeout grows with the machine's load when it starts (`load_factor`): a
    timeout bounds a hang and must not fail a test because other jobs share the two cores (the
    collection test and the gitignore properties were cut short at load 16-26). A limit that
    only holds on an idle machine is not a property of the code; speed is measured in
    benchmarks/, never asserted."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    scale_timeout(item, load_factor(load, os.cpu_count() or 1))
    yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    group_ids(config, items)
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
