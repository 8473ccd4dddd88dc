"""The disk as the reference rules see it (`core/workspace/disk_view.py`): answers equal to
`os.stat`, `os.path.islink` and `os.path.realpath` on every kind of path, and listings kept across
runs only while their folder is unchanged."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from wave_lsp.core.workspace import disk_view
from wave_lsp.core.workspace.disk_view import DiskView, ListingCache

PATHS = ["skill", "skill/SKILL.md", "skill/references", "skill/references/guide.md",
         "skill/references/missing.md", "skill/missing-folder/x.md", "skill/SKILL.md/below",
         "skill/to-file.md", "skill/to-folder", "skill/to-folder/guide.md",
         "skill/to-folder/missing.md", "skill/dangling.md", "skill/loop", "skill/outside",
         "skill/outside/secret.md", "skill/references/../SKILL.md", "skill/fifo", "nowhere",
         "skill/./references", "skill/"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    skill = tmp_path / "skill"
    (skill / "references").mkdir(parents=True)
    (skill / "SKILL.md").write_text("x", "utf-8")
    (skill / "references/guide.md").write_text("x", "utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/secret.md").write_text("x", "utf-8")
    os.symlink("references/guide.md", skill / "to-file.md")
    os.symlink("references", skill / "to-folder")
    os.symlink("nothing-here.md", skill / "dangling.md")
    os.symlink("loop", skill / "loop")
    os.symlink(tmp_path / "elsewhere", skill / "outside")
    os.mkfifo(skill / "fifo")
    return tmp_path


def _stat_kind(path: str) -> str | None:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return disk_view._kind_of(mode)


@pytest.mark.parametrize("relative", PATHS)
def test_answers_equal_the_system_calls(tree: Path, relative: str) -> None:
    path = os.path.join(str(tree), relative)
    view = DiskView(ListingCache())
    for _ in range(2):  # the second time from the run's memo
        assert view.kind(path) == _stat_kind(path)
        assert view.exists(path) == os.path.exists(path)
        assert view.is_file(path) == os.path.isfile(path)
        assert view.is_link(path) == os.path.islink(path)
        assert view.realpath(path) == os.path.realpath(path)


@pytest.mark.parametrize("through_a_link", [False, True])
@pytest.mark.parametrize("relative", PATHS)
def test_a_view_told_the_skill_folders_real_path_resolves_below_it_like_the_system(
        tree: Path, relative: str, through_a_link: bool) -> None:
    """A check tells its view the skill folder's real path (`CheckContext.disk`); the folders
    below it (`references/`, a linked folder, a missing one) are then resolved from it."""
    folder = tree / "skill"
    if through_a_link:
        os.symlink("skill", tree / "link")
        folder, relative = tree / "link", relative.replace("skill", "link", 1)
    path = os.path.join(str(tree), relative)
    view = DiskView(ListingCache())
    view.knows_real(folder, os.path.realpath(folder))
    for _ in range(2):
        assert view.realpath(path) == os.path.realpath(path)
        assert view.is_file(path) == os.path.isfile(path)


def test_relative_paths_are_answered_like_the_system(tree: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree / "skill")
    view = DiskView()
    for relative in ["SKILL.md", "references", "../skill/to-file.md", "..", "missing.md"]:
        assert view.kind(relative) == _stat_kind(relative), relative
        assert view.realpath(relative) == os.path.realpath(relative), relative


def _aged(folder: Path) -> None:
    """Set the folder's modification time well in the past: its listing is not racy."""
    old = time.time() - 10 * disk_view.RACY_SECONDS
    os.utime(folder, (old, old))


class _CountingScandir:
    def __init__(self) -> None:
        self.folders: list[str] = []
        self._real = os.scandir

    def __call__(self, folder: str):  # type: ignore[no-untyped-def]  # os.scandir's iterator
        self.folders.append(folder)
        return self._real(folder)


def test_a_listing_is_kept_across_runs_while_its_folder_is_unchanged(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    references = tree / "skill/references"
    _aged(references)
    counting = _CountingScandir()
    monkeypatch.setattr(disk_view.os, "scandir", counting)
    cache = ListingCache()
    for _ in range(3):
        view = DiskView(cache)
        assert view.exists(references / "guide.md")
        assert not view.exists(references / "new.md")
    assert counting.folders.count(str(references)) == 1
    (references / "new.md").write_text("x", "utf-8")  # the folder's mtime moves on
    assert DiskView(cache).exists(references / "new.md")
    assert counting.folders.count(str(references)) == 2


def test_a_folder_changed_moments_ago_is_listed_again_each_run(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    references = tree / "skill/references"
    now = time.time()
    os.utime(references, (now, now))  # within RACY_SECONDS: its mtime may not move on next change
    counting = _CountingScandir()
    monkeypatch.setattr(disk_view.os, "scandir", counting)
    cache = ListingCache()
    for _ in range(3):
        assert DiskView(cache).exists(references / "guide.md")
    assert counting.folders.count(str(references)) == 3


def test_a_symbolic_link_is_resolved_every_run_even_from_a_kept_listing(tree: Path) -> None:
    skill = tree / "skill"
    _aged(skill)
    cache = ListingCache()
    assert not DiskView(cache).exists(skill / "dangling.md")
    (skill / "nothing-here.md").write_text("x", "utf-8")  # the link's target appears
    _aged(skill)  # even with the folder's mtime put back, the link is looked up again
    assert DiskView(cache).exists(skill / "dangling.md")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="needs a folder this user cannot list (root can list any)")
def test_a_folder_that_cannot_be_listed_is_asked_path_by_path(tree: Path) -> None:
    locked = tree / "locked"
    locked.mkdir()
    (locked / "inside.md").write_text("x", "utf-8")
    locked.chmod(0o311)  # search but not read: a path below can be stat-ed, not listed
    try:
        view = DiskView()
        assert view.is_file(locked / "inside.md")
        assert not view.exists(locked / "other.md")
    finally:
        locked.chmod(0o755)
