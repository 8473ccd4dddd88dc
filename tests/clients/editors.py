"""What the real-editor smoke tests share: finding an editor (skip when it is absent, fail under
`WAVE_LSP_REQUIRE_EDITORS=1`), a project with a skill to open, and an environment in which the
README's `wave-lsp serve` command runs this checkout's server and no user configuration is read."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

#: a skill without `description` (SK050 at 0:0) and an empty line to complete it on
SKILL_TEXT = "---\nname: demo\n\n---\n# Demo ✓\n\nRun it.\n"


def require(found: str | None, what: str) -> str:
    """The editor's path, or a skip (a failure under `WAVE_LSP_REQUIRE_EDITORS=1`, set by
    `.ci/run`, which installs the editors)."""
    if found is None:
        if os.environ.get("WAVE_LSP_REQUIRE_EDITORS") == "1":
            pytest.fail(f"{what} is required here (WAVE_LSP_REQUIRE_EDITORS=1) but not installed")
        pytest.skip(f"{what} is not installed")
    return found


def make_skill(root: Path, *markers: str) -> Path:
    """`root/project` with the given root markers (folders) and a skill three folders down."""
    skill = root / "project/.wave/skills/demo/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL_TEXT, "utf-8")
    for marker in markers:
        (root / "project" / marker).mkdir(exist_ok=True)
    return skill


def editor_env(tmp_path: Path) -> dict[str, str]:
    """This environment with its scripts folder (where `wave-lsp` is) first on PATH and a fresh
    HOME and XDG folders."""
    scripts = Path(sys.executable).parent
    assert (scripts / "wave-lsp").is_file(), f"no wave-lsp next to {sys.executable}"
    return {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}",
            "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state"),
            "XDG_CACHE_HOME": str(tmp_path / "cache")}
