"""The harness's session: the pinned Claude Code (skipped, with the reason, when it is not
installed, unless `WAVE_LSP_REQUIRE_ORACLE=1`, as in `.ci/run`), one mock server inside a
network namespace with only loopback (netns.py), one `Oracle` that runs every probe the session
collected on its first use (tests/oracle/README.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.oracle.claude import installed_or_skip
from tests.oracle.mock_api import MockApi
from tests.oracle.netns import isolation
from tests.oracle.oracle import Oracle


@pytest.fixture(scope="session")
def oracle() -> Iterator[Oracle]:
    binary = installed_or_skip()
    network = isolation()  # Claude Code runs in a namespace with only loopback (netns.py)
    try:
        with network.call(MockApi) as api:
            found = Oracle(binary, api, network.wrap)
            try:
                yield found
            finally:
                found.close()
    finally:
        network.close()
