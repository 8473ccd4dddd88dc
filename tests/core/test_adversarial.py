"""Adversarial skill trees (issue "Robustness and security suite", item 3): symlink loops, links
that escape the skill through a symlink, and a skill folder with 100,000 files. Each gets a clear
finding, and nothing hangs: each test has a pytest timeout of at least 10x what it takes on a
loaded two-core machine (the figures: `benchmarks/bad_input.py`). (Inputs to the parser itself —
alias bombs, 10 MB files, 10,000-deep nesting, invalid UTF-8, NUL, FIFOs, directories, unreadable
files — are in test_input.py.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import run

TEXT = "---\nname: my-skill\ndescription: X. Use when asked.\n---\n"


@pytest.mark.timeout(10)  # following the loops would never end; the check takes < 20 ms
def test_symlink_loops_in_the_skill_tree(tmp_path: Path) -> None:
    folder = tmp_path / "my-skill"
    (folder / "references").mkdir(parents=True)
    (folder / "references/loop").symlink_to(folder)
    (folder / "references/self").symlink_to(folder / "references/self")
    report = run(tmp_path, TEXT + "See [loop](references/loop/references/loop/SKILL.md).\n")
    codes = [f.code for f in report.findings]
    assert "SK140" in codes  # the symlinks themselves are unreadable resources


def test_links_that_escape_through_a_symlink(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("do not quote me\n", "utf-8")
    folder = tmp_path / "my-skill"
    folder.mkdir()
    (folder / "references").symlink_to(outside)
    report = run(tmp_path, TEXT + "See [a](references/secret.md), [b](../outside/secret.md) and "
                                  "[c](/etc/hostname).\n")
    escapes = [f for f in report.findings if f.code == "SK113"]
    assert len(escapes) == 3
    assert any("symbolic link" in f.message for f in escapes)
    assert not any("do not quote me" in f.message for f in report.findings)


@pytest.mark.timeout(300)  # creating the files takes 5-30 s (idle-loaded), the check < 1 s
def test_a_skill_folder_with_100000_files(tmp_path: Path) -> None:
    folder = tmp_path / "my-skill" / "references"
    folder.mkdir(parents=True)
    for index in range(100_000):
        os.close(os.open(folder / f"f{index:06d}.md", os.O_CREAT | os.O_WRONLY, 0o644))
    report = run(tmp_path, TEXT, target="portable")
    limits = [f for f in report.findings if f.code == "SK141"]
    assert limits and "100000 entries" in limits[0].message
