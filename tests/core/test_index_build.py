"""Building the skill index without repeated disk work gives the same index: the walk (strings,
one listing per folder, `.gitignore` read only where the listing shows one) finds the same files in
the same order as a walk that resolves every path, `locate` with the walk's `FolderFacts` answers
as `locate` alone, and the facts spare the per-skill manifest and `.git` look-ups
(docs/design/product.md *Indexing speed*)."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pathspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.workspace import forked, location, runtime_view
from wave_lsp.core.workspace import session as session_module
from wave_lsp.core.workspace.discovery import find_skill_files
from wave_lsp.core.workspace.folder_facts import FolderFacts
from wave_lsp.core.workspace.index import SkillIndex, entry_of
from wave_lsp.core.workspace.location import find_git_root, find_plugin, locate
from wave_lsp.core.workspace.runtime_view import read_summary

SKILL = "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\n# {name}\n"


def write(root: Path, relative: str, text: str = "") -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text or SKILL.format(name=path.parent.name), "utf-8")
    return path


# -- a reference walk: every path resolved, every folder's `.gitignore` tried --------------------
def reference_walk(paths: list[Path]) -> list[Path]:
    """What `find_skill_files` means, written plainly (the walk before it was made cheaper)."""
    seen: set[str] = set()
    found: list[Path] = []
    for root in paths:
        if not root.is_dir() or root.name.lower() == "skill.md":
            if os.path.realpath(root) not in seen:
                seen.add(os.path.realpath(root))
                found.append(root)
            continue
        root = Path(os.path.abspath(root))
        specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
        git_root = find_git_root(root)
        if git_root is not None and git_root != root:
            for ancestor in reversed(root.parents):
                if ancestor == git_root or git_root in ancestor.parents:
                    _push(specs, ancestor)
        found += _reference_folder(root, specs, set(), seen)
    return found


def _push(specs: list[tuple[Path, pathspec.GitIgnoreSpec]], folder: Path) -> bool:
    try:
        lines = (folder / ".gitignore").read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return False
    specs.append((folder, pathspec.GitIgnoreSpec.from_lines(lines)))
    return True


def _reference_folder(folder: Path, specs: list[tuple[Path, pathspec.GitIgnoreSpec]],
                      visited: set[str], seen: set[str]) -> Iterator[Path]:
    if os.path.realpath(folder) in visited:
        return
    visited.add(os.path.realpath(folder))
    pushed = _push(specs, folder)
    try:
        children = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        children = []
    in_root = f"{folder.parent.name}/{folder.name}" in (
        ".agents/skills", ".claude/skills", ".wave/skills") or (
        folder.name == "skills" and any((folder.parent / m).is_file()
                                        for m in location.PLUGIN_MANIFESTS))
    subfolders = []
    for child in children:
        path = Path(child.path)
        is_dir = child.is_dir()
        if is_dir and child.name in {".git", "node_modules", ".hg", ".svn"}:
            continue
        if any(spec.match_file(path.relative_to(base).as_posix() + ("/" if is_dir else ""))
               for base, spec in specs):
            continue
        if child.name.lower() == "skill.md" or (
                in_root and not is_dir and child.name.lower().endswith(".md")):
            if os.path.realpath(path) not in seen:
                seen.add(os.path.realpath(path))
                yield path
        elif is_dir:
            subfolders.append(path)
    for sub in subfolders:
        yield from _reference_folder(sub, specs, visited, seen)
    if pushed:
        specs.pop()


# -- trees ----------------------------------------------------------------------------------------
def varied_tree(root: Path) -> Path:
    """A repository with the shapes `locate` and the walk tell apart."""
    project = root / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".gitignore").write_text("build/\n*.tmp.md\n!keep.tmp.md\n", "utf-8")
    write(project, ".wave/skills/alpha/SKILL.md")
    write(project, ".wave/skills/stray.md", "# stray\n")
    write(project, ".claude/skills/beta/SKILL.md")
    write(project, ".claude/skills/beta/references/nested/SKILL.md")
    write(project, "build/gamma/SKILL.md")
    write(project, "docs/x.tmp.md/SKILL.md")
    write(project, "docs/keep.tmp.md/SKILL.md")
    write(project, "node_modules/pkg/SKILL.md")
    write(project, "src/.gitignore", "ignored-here/\n")
    write(project, "src/ignored-here/SKILL.md")
    write(project, "src/kept/skill.md")
    # a plugin with its own manifest, one listing extra folders, one inside a skill folder
    write(project, "plugins/tools/.claude-plugin/plugin.json",
          json.dumps({"name": "tools", "skills": ["./extra/"]}))
    write(project, "plugins/tools/skills/fmt/SKILL.md")
    write(project, "plugins/tools/skills/stray.md", "# stray\n")
    write(project, "plugins/tools/extra/lint/SKILL.md")
    write(project, "plugins/wave/.wave-plugin/plugin.json", json.dumps({"name": "wavy"}))
    write(project, "plugins/wave/skills/one/SKILL.md")
    write(project, "lonely/.claude-plugin/plugin.json", json.dumps({"name": "lonely"}))
    write(project, "lonely/SKILL.md")
    # a marketplace naming skill folders (the anthropics/skills layout)
    write(project, "market/.claude-plugin/marketplace.json", json.dumps({"plugins": [
        {"name": "docs", "source": "./", "strict": False, "skills": ["./skills/xlsx"]}]}))
    write(project, "market/skills/xlsx/SKILL.md")
    write(project, "market/skills/other/SKILL.md")
    # a nested repository whose `.git` is a file (a worktree or submodule), another case
    write(project, "vendor/sub/.git", "gitdir: ../../.git/modules/sub\n")
    write(project, "vendor/sub/skills/delta/SKILL.md")
    write(project, "odd/.Claude-Plugin/plugin.json", json.dumps({"name": "odd"}))
    write(project, "odd/skills/epsilon/SKILL.md")
    write(project, "odd/.wäve-plugin/plugin.json", json.dumps({"name": "umlaut"}))
    # links: a linked skill folder, a linked SKILL.md, a loop
    write(project, "library/zeta/SKILL.md")
    (project / ".wave/skills/zeta").symlink_to(project / "library/zeta")
    (project / "library/eta").mkdir()
    (project / "library/eta/SKILL.md").symlink_to(project / "library/zeta/SKILL.md")
    (project / "library/zeta/up").symlink_to(project)
    (project / "skill.md").mkdir()  # a folder named like a skill file
    return project


def test_the_walk_finds_what_the_reference_walk_finds(tmp_path: Path) -> None:
    project = varied_tree(tmp_path)
    found = list(find_skill_files([project], FolderFacts()))
    assert found == reference_walk([project])
    names = {path.relative_to(project).as_posix() for path in found}
    assert "build/gamma/SKILL.md" not in names and "src/ignored-here/SKILL.md" not in names
    assert {"docs/keep.tmp.md/SKILL.md", "src/kept/skill.md", ".wave/skills/stray.md"} <= names
    # from inside the repository: the `.gitignore` of the folders above still applies
    assert list(find_skill_files([project / "docs"])) == reference_walk([project / "docs"])
    assert list(find_skill_files([project / "build"])) == []


def test_locate_with_the_walks_facts_answers_as_locate_alone(tmp_path: Path) -> None:
    project = varied_tree(tmp_path)
    home = tmp_path / "home"
    facts = FolderFacts()
    paths = list(find_skill_files([project], facts))
    assert len(paths) > 15
    for path in paths:
        assert locate(path, home=home, facts=facts) == locate(path, home=home), path
        folder = path.parent
        assert find_plugin(folder, facts) == find_plugin(folder)
        assert find_git_root(folder, facts) == find_git_root(folder)
    plugins = {locate(p, home=home, facts=facts).plugin for p in paths} - {None}
    assert {plugin.name for plugin in plugins if plugin is not None} == {
        "tools", "wavy", "lonely", "docs"}


def test_a_check_run_locates_with_one_pass_of_facts_as_each_file_alone(tmp_path: Path) -> None:
    """A CLI run's session (one snapshot of the disk) locates every file with one `FolderFacts`:
    the locations of locating each file alone (the corpus baselines in tests/regression hold the
    findings); a language-server session keeps none."""
    from wave_lsp.api import check_files

    project = varied_tree(tmp_path)
    home = tmp_path / "home"
    paths = sorted(find_skill_files([project]))
    reports = check_files(paths, Settings(home=home, personal=False))
    assert [report.location for report in reports] == [locate(p, home=home) for p in paths]
    one_pass = session_module.WorkspaceSession(freshness_seconds=None)
    assert isinstance(one_pass.pass_facts, FolderFacts)
    assert one_pass.pass_facts is one_pass.pass_facts
    assert session_module.WorkspaceSession().pass_facts is None


def test_folders_the_walk_did_not_list_are_asked_the_disk(tmp_path: Path) -> None:
    """Facts only spare questions about folders the walk listed: a skill outside the walk, or a
    manifest created after the walk listed the folder above, is looked up as before."""
    project = varied_tree(tmp_path)
    facts = FolderFacts()
    list(find_skill_files([project / ".wave"], facts))
    outside = project / "plugins/tools/skills/fmt"
    assert find_plugin(outside, facts) == find_plugin(outside)
    assert find_plugin(outside, facts) is not None
    assert not facts.unmarked(str(project))  # it holds `.git`


@pytest.mark.parametrize("names, unmarked", [
    (["SKILL.md", "references", ".hidden"], True),
    (["SKILL.md", ".git"], False),
    ([".CLAUDE-PLUGIN"], False),  # a case-insensitive file system takes it for `.claude-plugin`
    ([".wave-plugin"], False),
    ([".ġit"], False),  # non-ASCII and starting with a dot: may fold to a marker
    (["ġit"], True),
    ([], True),
])
def test_which_listings_prove_a_folder_has_no_marker(names: list[str], unmarked: bool) -> None:
    facts = FolderFacts()
    facts.listed("/x", names)
    assert facts.unmarked("/x") is unmarked


def test_the_index_asks_about_each_folder_once_not_per_skill(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """40 skills in one root: the manifest and `.git` look-ups are those of the folders above the
    walk's root (and of folders holding a marker), not three per skill folder and ancestor."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for index in range(40):
        write(project, f".wave/skills/s{index:02d}/SKILL.md")
        write(project, f".wave/skills/s{index:02d}/references/guide.md", "# guide\n")
    asked: list[str] = []
    gits: list[str] = []
    real_manifests, real_git = location._manifests, location._holds_git

    def manifests(folder: str) -> object:
        asked.append(folder)
        return real_manifests(folder)

    def holds_git(folder: str) -> bool:
        gits.append(folder)
        return real_git(folder)

    monkeypatch.setattr(location, "_manifests", manifests)
    monkeypatch.setattr(location, "_holds_git", holds_git)
    index = SkillIndex()
    index.rebuild([project], Settings(home=tmp_path / "home", personal=False))
    assert len(index.skills()) == 40
    above = len(project.parents) + 1  # the project (it holds `.git`) and every folder above it
    assert len(asked) == len(set(asked)) <= above
    assert not any(".wave" in folder for folder in asked)
    assert len(gits) == len(set(gits)) <= above  # (project skills need no `.git` look-up)


def test_facts_remember_folders_above_the_skills_not_each_skill(tmp_path: Path) -> None:
    """Without a walk (a project's discovery), each skill's own folder is asked, and only the
    folders above the skills are remembered: the memory of a pass does not grow per skill."""
    project = tmp_path / "project"
    paths = [write(project, f"plugins/p/skills/s{index:02d}/SKILL.md") for index in range(30)]
    write(project, "plugins/p/.claude-plugin/plugin.json", json.dumps({"name": "p"}))
    facts = FolderFacts()
    located = [locate(path, home=tmp_path / "home", facts=facts) for path in paths]
    assert located == [locate(path, home=tmp_path / "home") for path in paths]
    assert {found.plugin.name for found in located if found.plugin} == {"p"}
    assert len(facts._answers) <= 2 * (len(project.parents) + 4)


def test_the_index_holds_what_reading_each_skill_alone_gives(tmp_path: Path) -> None:
    project = varied_tree(tmp_path)
    home = tmp_path / "home"
    index = SkillIndex()
    index.rebuild([project], Settings(home=home, personal=False))
    expected = {}
    for path in reference_walk([project]):
        summary = read_summary(path, home) if path.name == "SKILL.md" else None
        if summary is not None:
            expected[path] = entry_of(path, summary)
    assert {entry.path: entry for entry in index.skills()} == expected


# -- random trees -----------------------------------------------------------------------------------
PIECES = ["a", "b", ".wave/skills", ".claude/skills", "skills", "build", "node_modules",
          ".claude-plugin", "x.md"]
tree_files = st.lists(st.tuples(st.lists(st.sampled_from(PIECES), min_size=1, max_size=4),
                                st.sampled_from(["SKILL.md", "skill.md", "notes.md",
                                                 ".gitignore", "plugin.json",
                                                 "marketplace.json"])),
                      min_size=1, max_size=12)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(files=tree_files)
def test_random_trees_walk_and_locate_as_the_reference(tmp_path_factory: pytest.TempPathFactory,
                                                       files: list[tuple[list[str], str]]) -> None:
    root = tmp_path_factory.mktemp("tree")
    (root / ".git").mkdir()
    for parts, name in files:
        folder = root.joinpath(*parts)
        if folder.exists() and not folder.is_dir():
            continue
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / name
        if target.exists():
            continue
        text = {".gitignore": "build/\n*.md\n!SKILL.md\n",
                "plugin.json": json.dumps({"name": "p"}),
                "marketplace.json": json.dumps({"plugins": [
                    {"name": "m", "source": "../", "skills": ["./skills/a", "./a"]},
                    {"name": "n", "source": "../b"}]})}.get(name, "")
        target.write_text(text or SKILL.format(name=folder.name), "utf-8")
    facts = FolderFacts()
    found = list(find_skill_files([root], facts))
    assert found == reference_walk([root])
    home = root / "home"
    for path in found:
        assert locate(path, home=home, facts=facts) == locate(path, home=home), path
    backwards = FolderFacts()  # what one skill's search remembers must not mislead another's
    for path in reversed(found):
        assert locate(path, home=home, facts=backwards) == locate(path, home=home), path


# -- the skills root of a path, by its parts --------------------------------------------------------
def reference_skills_root(path: Path, plugin: location.Plugin | None,
                          home: Path) -> tuple[Path | None, int | None, str, Path | None]:
    """`_skills_root_of` as it read with `path.parents` (before it looked at `path.parts`)."""
    parents = list(path.parents)
    for depth, ancestor in enumerate(parents):
        owner = ancestor.parent
        if ancestor.name == "skills" and owner.name in (".wave", ".claude", ".agents"):
            base = owner.parent
            scope = "personal" if base == home else "project"
            return ancestor, depth, scope, (None if scope == "personal" else base)
    declared = location._declared_root(path.parent, plugin)
    if declared is not None:
        return declared, 1, "plugin", None
    for depth, ancestor in enumerate(parents):
        if plugin is not None and ancestor == plugin.root / "skills":
            return ancestor, depth, "plugin", None
    return None, None, "workspace", None


PARTS = ["skills", ".wave", ".claude", ".agents", "home", "p", "x"]


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.sampled_from(PARTS), max_size=7),
       home=st.lists(st.sampled_from(PARTS), max_size=3),
       plugin=st.one_of(st.none(), st.lists(st.sampled_from(PARTS), max_size=4)),
       listed=st.lists(st.lists(st.sampled_from(PARTS), max_size=5), max_size=2))
def test_the_skills_root_by_parts_is_the_one_by_parents(parts: list[str], home: list[str],
                                                        plugin: list[str] | None,
                                                        listed: list[list[str]]) -> None:
    path = Path("/", *parts, "SKILL.md")
    found = None if plugin is None else location.Plugin(
        "p", Path("/", *plugin), tuple(Path("/", *folder) for folder in listed))
    home_path = Path("/", *home)
    assert location._skills_root_of(path, found, home_path) == \
        reference_skills_root(path, found, home_path)


# -- two processes ----------------------------------------------------------------------------------
needs_fork = pytest.mark.skipif(not forked.can_fork(), reason="no fork or a single core here")


def squares_with_pid(items: Sequence[int]) -> list[tuple[int, int]]:
    return [(item * item, os.getpid()) for item in items]


@needs_fork
def test_two_processes_give_the_work_s_results_in_order() -> None:
    results = forked.in_two_processes(list(range(11)), squares_with_pid)
    assert [square for square, _pid in results] == [n * n for n in range(11)]
    assert {pid for _square, pid in results[:6]} == {os.getpid()}
    assert {pid for _square, pid in results[6:]} != {os.getpid()}  # the second half: the copy


@needs_fork
@pytest.mark.parametrize("failure", ["raises", "short", "not a list"])
def test_a_failing_copy_leaves_the_work_to_this_process(failure: str) -> None:
    parent = os.getpid()

    def work(items: Sequence[int]) -> list[int]:
        if os.getpid() != parent:
            if failure == "raises":
                raise RuntimeError("the copy fails")
            if failure == "short":
                return [0]
            return {"not": "a list"}  # type: ignore[return-value]  # a wrong answer on purpose
        return [item + 1 for item in items]

    assert forked.in_two_processes(list(range(6)), work) == [1, 2, 3, 4, 5, 6]


@needs_fork
def test_a_stuck_copy_is_stopped_and_the_work_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy that never answers (stuck on a lock another thread held at the fork) is killed
    after `patience`, and its half is read here."""
    parent = os.getpid()
    monkeypatch.setattr(forked, "patience", lambda count: 0.3)

    def work(items: Sequence[int]) -> list[int]:
        if os.getpid() != parent:
            threading.Event().wait()  # forever
        return [item * 2 for item in items]

    assert forked.in_two_processes(list(range(5)), work) == [0, 2, 4, 6, 8]


def test_without_fork_the_work_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    results = forked.in_two_processes(list(range(4)), squares_with_pid)
    assert results == [(n * n, os.getpid()) for n in range(4)]


@needs_fork
def test_an_index_read_in_two_processes_is_the_index_read_in_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = varied_tree(tmp_path)
    for index in range(30):
        write(project, f".agents/skills/many-{index:02d}/SKILL.md")
    (project / ".agents/skills/unreadable").mkdir()
    (project / ".agents/skills/unreadable/SKILL.md").mkdir()  # a folder: no summary
    settings_ = Settings(home=tmp_path / "home", personal=False)
    alone = SkillIndex()
    alone.rebuild([project], settings_)
    monkeypatch.setattr(session_module, "PARALLEL_FROM", 2)
    spawned: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        spawned.append(pid)
        return pid

    monkeypatch.setattr(forked.os, "fork", fork)
    both = SkillIndex()
    both.rebuild([project], settings_)
    assert spawned  # it really ran in two processes
    assert both.skills() == alone.skills()
    assert len(both.skills()) > 40
    # what the copy read is remembered: a second build reads again only the unreadable one
    def read_again(path: Path, *args: object, **kwargs: object) -> None:
        assert path.name == "SKILL.md" and path.is_dir(), f"{path} read again"

    monkeypatch.setattr(runtime_view, "read_summary", read_again)
    both.rebuild([project], settings_)
    assert both.skills() == alone.skills()
