"""Findings of unopened skill files (`wave_lsp.core.checking.disk_findings`): split by the file
they are about, with result ids that change exactly when the findings do, remembered per file
version until invalidated (docs/design/lsp.md *Findings on files that are not open*)."""

from __future__ import annotations

import os
from pathlib import Path

from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.disk_findings import DiskFindings, result_id, split_report
from wave_lsp.core.workspace.session import WorkspaceSession

TWIN = "---\nname: twin\ndescription: Does {what}. Use when asked for {what}.\n---\n# Twin\n"


def project(root: Path) -> tuple[Path, Path]:
    (root / ".git").mkdir(parents=True)
    paths = []
    for folder, what in (("twin", "one thing"), ("twin-b", "another thing")):
        path = root / ".wave/skills" / folder / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(TWIN.format(what=what), "utf-8")
        paths.append(path)
    return paths[0], paths[1]


def settings(root: Path) -> Settings:
    return Settings(home=root / "home", personal=False)


def codes(found: object) -> set[str]:
    return {finding.code for finding in found.findings}  # type: ignore[attr-defined]


def test_result_id_is_stable_and_follows_the_findings(tmp_path: Path) -> None:
    _, loser = project(tmp_path)
    first = check_file(loser, settings(tmp_path)).findings
    again = check_file(loser, settings(tmp_path)).findings
    assert result_id(first) == result_id(again)
    assert result_id(first) != result_id(first[:-1]) != result_id(())


def test_split_report_puts_resource_findings_on_the_resource(tmp_path: Path) -> None:
    skill = tmp_path / ".wave/skills/assets/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: assets\ndescription: Uses a logo. Use when asked.\n---\n"
                     "See [the table](assets/table.xlsx).\n", "utf-8")
    (skill.parent / "assets").mkdir()
    (skill.parent / "assets/table.xlsx").write_bytes(b"PK\x03\x04\x00\x00binary")
    report = check_file(skill, Settings.for_target("portable", home=tmp_path / "home"))
    files = split_report(report)
    assert files[0].path == skill and all(f.path is None for f in files[0].findings)
    resources = {found.path.name: codes(found) for found in files[1:]}
    assert "SK140" in resources.get("table.xlsx", set()), resources
    assert files[1].lines.text == ""  # a resource's findings are at its start


def test_unopened_skips_open_files_and_files_without_findings(tmp_path: Path) -> None:
    winner, loser = project(tmp_path)
    clean = tmp_path / ".wave/skills/clean/SKILL.md"
    clean.parent.mkdir(parents=True)
    clean.write_text("---\nname: clean\ndescription: Cleans things. Use when asked to clean.\n"
                     "---\n# Clean\n", "utf-8")
    disk = DiskFindings(WorkspaceSession())
    found = disk.unopened([winner, loser, clean], [], lambda _: settings(tmp_path))
    assert {f.path for f in found} == {winner, loser}
    assert all("SK130" in codes(f) for f in found)
    found = disk.unopened([winner, loser, clean], [winner], lambda _: settings(tmp_path))
    assert [f.path for f in found] == [loser]


def test_checks_are_remembered_per_file_version_until_invalidated(tmp_path: Path) -> None:
    winner, loser = project(tmp_path)
    disk = DiskFindings(WorkspaceSession(freshness_seconds=None))
    first = disk.of_file(loser, settings(tmp_path))
    assert disk.of_file(loser, settings(tmp_path)) is first  # same file version: not re-checked
    loser.write_text(TWIN.format(what="another thing").replace("twin", "twin-b", 1), "utf-8")
    info = loser.stat()
    os.utime(loser, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))
    changed = disk.of_file(loser, settings(tmp_path))
    assert "SK130" not in codes(changed[0]) and changed[0].result_id != first[0].result_id
    # the winner's own file did not change, but its rival did: only invalidation re-checks it
    remembered = disk.of_file(winner, settings(tmp_path))
    disk.invalidate()
    disk.session.expire()
    assert "SK130" in codes(remembered[0])
    assert "SK130" not in codes(disk.of_file(winner, settings(tmp_path))[0])
    assert disk.of_file(tmp_path / "gone/SKILL.md", settings(tmp_path)) == []


def test_the_session_survives_the_event_loop_adding_a_project_during_a_worker_check(
        tmp_path: Path, monkeypatch) -> None:
    """The language server checks unopened files in a worker thread with the session the event
    loop uses for open documents. Deterministic interleaving: while the worker is inside
    `known_document` (blocked in a `realpath` system call, the GIL released), the loop thread
    snapshots another project. The worker must not fail with "dictionary changed size during
    iteration" (nor must `expire`, which the loop runs while a worker may add a project)."""
    from wave_lsp.core.facts.profiles import WAVE
    from wave_lsp.core.workspace import session as session_module

    twin, _ = project(tmp_path / "one")
    other = tmp_path / "two"
    project(other)
    shared = WorkspaceSession()
    shared.project(WAVE, tmp_path / "one", tmp_path / "home", False)
    shared.project(WAVE, tmp_path / "one", None, False)
    real_realpath = os.path.realpath
    interleaved: list[bool] = []

    def realpath_while_the_loop_runs(path: object) -> str:
        if not interleaved:
            interleaved.append(True)
            shared.project(WAVE, other, tmp_path / "home", False)  # the loop thread's turn
        return real_realpath(path)  # type: ignore[arg-type]  # os.path.realpath's own argument

    monkeypatch.setattr(session_module.os.path, "realpath", realpath_while_the_loop_runs)
    shared.known_document(twin, twin.read_text("utf-8"))
    assert interleaved


def test_cached_disk_facts_survive_an_expire_between_store_and_read(tmp_path: Path) -> None:
    """`git_root` and `ignore_spec` stored a fact and then read it back from the shared dict; an
    `expire` by the event loop in between (the worker thread computes them) raised KeyError.
    Deterministic interleaving: the dict forgets everything right after each store."""

    class ExpiredRightAfterStore(dict):  # type: ignore[type-arg]  # a stand-in for the cache
        def __setitem__(self, key: object, value: object) -> None:
            super().__setitem__(key, value)
            self.clear()  # the loop thread's expire()

    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n", "utf-8")
    shared = WorkspaceSession()
    shared._git_roots = ExpiredRightAfterStore()
    shared._ignore_specs = ExpiredRightAfterStore()
    assert shared.git_root(tmp_path / "sub") == tmp_path
    spec = shared.ignore_spec(tmp_path / ".gitignore")
    assert spec is not None and spec.match_file("build/x")
