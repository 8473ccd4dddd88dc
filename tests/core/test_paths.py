"""`wave_lsp.core.paths`: a path inside a folder, compared as written."""

from __future__ import annotations

import pytest

from wave_lsp.core.paths import is_below, is_within

CASES = [
    # path, folder, within, below
    ("/a/b", "/a/b", True, False),
    ("/a/b/", "/a/b", True, False),  # a trailing separator names the same folder
    ("/a/b/c", "/a/b", True, True),
    ("/a/b/c", "/a/b/", True, True),
    ("/a/bc", "/a/b", False, False),
    ("/a", "/a/b", False, False),
    ("/a/b/c/d", "/a/b", True, True),
    ("/x", "/", True, True),
    ("/", "/", True, False),
    ("", "/a", False, False),
    ("/a/b/../c", "/a/b", True, True),  # as written: callers resolve `..` before asking
]


@pytest.mark.parametrize(("path", "folder", "within", "below"), CASES)
def test_containment(path: str, folder: str, within: bool, below: bool) -> None:
    assert is_within(path, folder) is within
    assert is_below(path, folder) is below
