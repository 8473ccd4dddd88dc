"""The harness's session: the pinned Claude Code (skipped, with the reason, when it is not
installed, unless `WAVE_LSP_REQUIRE_ORACLE=1`, as in `.ci/run`), one mock server, one `Oracle`
that runs every probe the session collected on its first use (tests/oracle/README.md)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.oracle.install import Unavailable, find_claude
from tests.oracle.mock_api import MockApi
from tests.oracle.oracle import Oracle


@pytest.fixture(scope="session")
def oracle() -> Iterator[Oracle]:
    try:
        binary = find_claude()
    except Unavailable as error:
        if os.environ.get("WAVE_LSP_REQUIRE_ORACLE") == "1":
            pytest.fail(f"WAVE_LSP_REQUIRE_ORACLE=1 but {error}")
        pytest.skip(str(error))
    with MockApi() as api:
        found = Oracle(binary, api)
        try:
            yield found
        finally:
            found.close()
