"""Test helpers: range markers and running the checker on a text placed in a temporary tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wave_lsp.core.checking.checker import FileReport, check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.parsing.text import LineIndex, Position, Range

OPEN, CLOSE = "«", "»"


def strip_markers(marked: str) -> tuple[str, Range | None]:
    """Remove one «…» pair and return the text and the range it marked (in the clean text)."""
    start = marked.find(OPEN)
    if start < 0:
        return marked, None
    end = marked.find(CLOSE, start)
    text = marked[:start] + marked[start + 1 : end] + marked[end + 1 :]
    # positions do not count a leading byte-order mark, as editors do not
    bom = 1 if text.startswith("\ufeff") else 0
    lines = LineIndex(text[bom:])
    return text, Range(lines.position(start - bom), lines.position(end - 1 - bom))


def run(tmp_path: Path, text: str, *, target: str = "wave", relpath: str = "my-skill/SKILL.md",
        files: dict[str, str] | None = None, home: Path | None = None) -> FileReport:
    """Write `text` to `tmp_path/relpath` (plus `files`) and check it strictly."""
    path = tmp_path / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    for name, content in (files or {}).items():
        extra = tmp_path / name
        extra.parent.mkdir(parents=True, exist_ok=True)
        extra.write_text(content, "utf-8")
    settings = Settings.for_target(target, home=home or tmp_path / "home")
    return check_file(path, settings, strict=True)


def pos(line: int, character: int) -> Position:
    return Position(line, character)


def sandbox_or_skip() -> str:
    """The OS sandbox `preview --execute` runs commands in (docs/security.md *The sandbox*): its
    name, or the test is skipped saying why — and fails instead with WAVE_LSP_REQUIRE_SANDBOX=1
    (set by `.ci/run`, which installs bubblewrap)."""
    from wave_lsp.core.execution.sandbox import SandboxUnavailable, ensure_available

    try:
        return ensure_available()
    except SandboxUnavailable as error:
        if os.environ.get("WAVE_LSP_REQUIRE_SANDBOX") == "1":
            pytest.fail(f"WAVE_LSP_REQUIRE_SANDBOX=1 but no sandbox can start: {error}")
        pytest.skip(f"no OS sandbox here, so nothing can be executed: {error}")


def git_checkout_or_skip(repo: Path) -> None:
    """Skip the test, saying why, unless `repo` is a git checkout and git runs: an sdist or a
    downloaded archive of the project has no `.git`, and a machine may have no git."""
    import shutil
    import subprocess

    if not (repo / ".git").exists():
        pytest.skip(f"{repo} is not a git checkout (an sdist or a downloaded archive)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    inside = subprocess.run(["git", "-C", str(repo), "rev-parse", "--is-inside-work-tree"],
                            capture_output=True, text=True, check=False)
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        pytest.skip(f"git does not see {repo} as a checkout: {inside.stderr.strip()}")


def git_files_or_skip(repo: Path) -> list[str]:
    """The files git tracks in `repo` (`git ls-files`), or the test is skipped as by
    `git_checkout_or_skip`."""
    import subprocess

    git_checkout_or_skip(repo)
    listed = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True,
                            check=True)
    return [name.decode() for name in listed.stdout.split(b"\0") if name]
