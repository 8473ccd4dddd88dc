"""Whether one path is a folder or below it, compared as written (docs/design/README.md, the
core's layout): the one test the permissions, the sandbox and the workspace snapshot share.

The paths are compared as strings, trailing separators dropped (no `..` or link is resolved):
the callers resolve links (`os.path.realpath`) first where links matter. A folder's sibling that
shares its prefix (`/a/bc` beside `/a/b`) is not inside it. Wave's own test
(`wave_prediction._within`, node's `path.relative` result starting with `..`) is a runtime fact and
stays there.
"""

from __future__ import annotations

import os


def _trimmed(path: str) -> str:
    """`path` without trailing separators (the root stays `/`)."""
    return path.rstrip(os.sep) or path[:1]


def is_within(path: str, folder: str) -> bool:
    """`path` is `folder` itself or anything below it."""
    text, base = _trimmed(path), _trimmed(folder)
    return text == base or text.startswith(base if base == os.sep else base + os.sep)


def is_below(path: str, folder: str) -> bool:
    """`path` is strictly below `folder` (not `folder` itself)."""
    return _trimmed(path) != _trimmed(folder) and is_within(path, folder)
