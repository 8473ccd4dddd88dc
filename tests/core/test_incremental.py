"""Incremental re-indexing (docs/design/product.md *Incremental re-indexing*): after any sequence of
file events, the snapshot a session derived from the events equals the one a fresh session builds
from the disk. A table of event sequences, then a property over random sequences (create, modify,
rename and delete skills; names that collide and stop colliding; a listing that crosses the
budget and comes back), for the two discovery models (`wave`, keyed by name; `claude-code`, keyed
by folder with nested roots), project, personal and plugin roots."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE, RuntimeProfile
from wave_lsp.core.invocation.listing import ListingEntry, listing_totals, render_listing
from wave_lsp.core.workspace import runtime_view
from wave_lsp.core.workspace.session import WorkspaceSession
from wave_lsp.core.workspace.snapshot import FileChange, Layered, ProjectSnapshot

C, M, D = FileChange.CREATED, FileChange.CHANGED, FileChange.DELETED
#: where skills live in the test tree: project roots of both targets, a personal root, a plugin
ROOTS = {"wave": "proj/.wave/skills", "claude": "proj/.claude/skills",
         "personal": "home/.claude/skills", "plugin": "proj/plugins/tool/skills"}
LONG = "x" * 1500  #: six of these go over the 8,000-character listing budget


@dataclass
class Tree:
    base: Path

    @property
    def project(self) -> Path:
        return self.base / "proj"

    @property
    def home(self) -> Path:
        return self.base / "home"

    def folder(self, root: str, folder: str) -> Path:
        return self.base / ROOTS[root] / folder

    def write(self, root: str, folder: str, name: str, description: str = "Does it.",
              body: str = "Body.", visible: bool = True) -> list[tuple[Path, FileChange]]:
        """Create or rewrite a skill; the events an editor's watcher reports."""
        skill = self.folder(root, folder) / "SKILL.md"
        existed = skill.exists()
        skill.parent.mkdir(parents=True, exist_ok=True)
        flags = "" if visible else "disable-model-invocation: true\n"
        skill.write_text(f"---\nname: {name}\ndescription: {description}\n{flags}---\n{body}\n",
                         "utf-8")
        if existed:
            return [(skill, M)]
        return [(skill.parent, C), (skill, C)]

    def delete(self, root: str, folder: str) -> list[tuple[Path, FileChange]]:
        path = self.folder(root, folder)
        shutil.rmtree(path, ignore_errors=True)
        return [(path, D)]

    def rename(self, root: str, folder: str, new: str) -> list[tuple[Path, FileChange]]:
        old, target = self.folder(root, folder), self.folder(root, new)
        if not old.exists() or target.exists():
            return []
        old.rename(target)
        return [(old, D), (target, C)]


@contextmanager
def tree() -> Iterator[Tree]:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        (base / "proj/.git").mkdir(parents=True)
        (base / "home").mkdir()
        manifest = base / "proj/plugins/tool/.claude-plugin/plugin.json"
        manifest.parent.mkdir(parents=True)
        manifest.write_text(json.dumps({"name": "tool"}), "utf-8")
        for root in ROOTS.values():
            (base / root).mkdir(parents=True, exist_ok=True)
        yield Tree(base)


def canonical(snapshot: ProjectSnapshot) -> dict[str, object]:
    """Everything rules and the server read from a snapshot, by value."""
    skills = [(s.name, str(s.path), s.scope, s.rank, s.root, s.listing, s.description,
               s.real_dir, str(s.shadowed_by.path) if s.shadowed_by else None,
               tuple(map(str, s.duplicates)), s.fields) for s in snapshot.skills]
    return {"skills": skills,
            "by_name": {name: [str(s.path) for s in group]
                        for name, group in sorted(snapshot.by_name.items())},
            "by_real_dir": {real: str(s.path) for real, s in sorted(snapshot.by_real_dir.items())},
            "listings": {group: snapshot.listings[group] for group in snapshot.listings},
            "signature": dict(snapshot.signature), "roots": snapshot.roots,
            "keys": snapshot.keys, "linked": sorted(str(s.path) for s in snapshot.linked),
            "duplicates": snapshot.duplicate_paths}


def assert_consistent(snapshot: ProjectSnapshot) -> None:
    """The maps hold the very objects of `skills`, and a shadowed skill points at its winner."""
    present = {id(s) for s in snapshot.skills}
    assert all(id(s) in present for group in snapshot.by_name.values() for s in group)
    assert all(id(s) in present for s in snapshot.by_real_dir.values())
    for skill in snapshot.skills:
        if skill.shadowed_by is not None:
            assert id(skill.shadowed_by) in present


class Follower:
    """A session that follows the events (as the server's does) and checks it against a fresh one
    after each batch."""

    def __init__(self, tree: Tree, profile: RuntimeProfile, watching: bool = False) -> None:
        self.tree, self.profile = tree, profile
        #: watching: the project's changes come as events, and every use looks at the rest of
        #: the disk (the personal root), which must find the derived snapshot in step with it
        self.watching = watching
        self.session = WorkspaceSession(freshness_seconds=0.0 if watching else None)
        if watching:
            self.session.watch([tree.project])
        self.rebuilt = 0
        #: events inside the roots must be followed without a rebuild
        self.strict = True
        self.current()

    def current(self) -> ProjectSnapshot:
        return self.session.project(self.profile, self.tree.project, self.tree.home)

    def apply(self, events: list[tuple[Path, FileChange]]) -> None:
        # the snapshot as it was before the files changed (a look now would see the change)
        before = (self.session.projects() or [self.current()])[0]
        for group in before.listings:  # rendered now, so the derived snapshot may keep them
            before.listings[group]
        change = self.session.apply_changes(events)
        self.rebuilt += change.full
        if self.strict and all(_in_a_root(path, before) for path, _ in events):
            assert not change.full  # followed incrementally, not rebuilt
        derived = self.session.projects()
        with mock.patch("wave_lsp.core.workspace.runtime_view.list_roots",
                        wraps=runtime_view.list_roots) as listed:
            after = self.current()
        if self.watching and not change.full:  # the look at the personal root found it in step
            assert derived[0] is after and not listed.called
        fresh = WorkspaceSession(freshness_seconds=None).project(
            self.profile, self.tree.project, self.tree.home)
        assert_consistent(after)
        assert canonical(after) == canonical(fresh)


SEQUENCES: dict[str, list[tuple[str, tuple[object, ...]]]] = {
    "create, modify, delete": [("write", ("wave", "a", "alpha")),
                               ("write", ("wave", "a", "alpha", "Changed description.")),
                               ("write", ("wave", "a", "alpha", "Changed description.", "Body 2")),
                               ("delete", ("wave", "a"))],
    "collision appears and goes": [("write", ("wave", "a", "same")), ("write", ("wave", "b", "same")),
                                   ("write", ("wave", "a", "other")), ("write", ("wave", "a", "same")),
                                   ("delete", ("wave", "a"))],
    "collision across roots": [("write", ("claude", "a", "same")), ("write", ("wave", "b", "same")),
                               ("write", ("personal", "c", "same")), ("delete", ("wave", "b")),
                               ("delete", ("claude", "a"))],
    "rename a folder": [("write", ("wave", "a", "alpha")), ("write", ("wave", "b", "beta")),
                        ("rename", ("wave", "a", "c")), ("rename", ("wave", "c", "0")),
                        ("rename", ("wave", "b", "a"))],
    "budget crossed and back": [*(("write", ("wave", f"s{i}", f"s{i}", LONG)) for i in range(6)),
                                ("write", ("wave", "s0", "s0", "Short.")),
                                ("write", ("wave", "s0", "s0", LONG)),
                                ("write", ("wave", "s1", "s1", LONG, "Body.", False)),
                                ("delete", ("wave", "s2"))],
    "personal skill in every listing": [("write", ("plugin", "p", "p", LONG)),
                                        ("write", ("personal", "h", "h", LONG)),
                                        ("write", ("personal", "h", "h", "Short.")),
                                        ("delete", ("personal", "h"))],
    "plugin skills apart": [("write", ("plugin", "a", "same")), ("write", ("wave", "a", "same")),
                            ("write", ("plugin", "b", "same")), ("delete", ("plugin", "a"))],
}


def _in_a_root(path: Path, snapshot: ProjectSnapshot) -> bool:
    return any(root.path in path.parents for root in snapshot.roots)


def run(t: Tree, follower: Follower, step: tuple[str, tuple[object, ...]]) -> None:
    action, arguments = step
    events = getattr(t, action)(*arguments)
    follower.apply(events)


@pytest.mark.parametrize("profile", [WAVE, CLAUDE_CODE], ids=lambda p: p.name)
@pytest.mark.parametrize("name", list(SEQUENCES))
def test_event_sequences_match_a_rebuild(name: str, profile: RuntimeProfile) -> None:
    with tree() as t:
        follower = Follower(t, profile)
        for step in SEQUENCES[name]:
            run(t, follower, step)
        if profile is WAVE:  # every root of the table is one of its roots
            assert follower.rebuilt == 0


def test_events_that_restructure_discovery_rebuild() -> None:
    with tree() as t:
        follower = Follower(t, WAVE)
        follower.strict = False
        t.write("wave", "a", "alpha")
        follower.apply([(t.folder("wave", "a"), C)])
        assert follower.rebuilt == 0
        manifest = t.project / "plugins/tool/.claude-plugin/plugin.json"
        manifest.write_text(json.dumps({"name": "renamed"}), "utf-8")
        follower.apply([(manifest, M)])
        assert follower.rebuilt == 1
        shutil.rmtree(t.project / ".wave")
        follower.apply([(t.project / ".wave", D)])
        assert follower.rebuilt == 2


def test_unrelated_files_change_nothing() -> None:
    with tree() as t:
        t.write("wave", "a", "alpha")
        follower = Follower(t, WAVE)
        before = follower.current()
        (t.folder("wave", "a") / "notes.md").write_text("# Notes\n", "utf-8")
        (t.project / "README.md").write_text("# Readme\n", "utf-8")
        change = follower.session.apply_changes([(t.folder("wave", "a") / "notes.md", C),
                                                 (t.project / "README.md", C)])
        assert change.empty and follower.current() is before


def test_a_body_edit_leaves_the_listings_alone() -> None:
    with tree() as t:
        t.write("wave", "a", "alpha")
        t.write("wave", "b", "beta")
        follower = Follower(t, WAVE)
        change = follower.session.apply_changes(t.write("wave", "a", "alpha", body="New body."))
        assert change.empty  # nothing another skill's rules read of it changed
        change = follower.session.apply_changes(t.write("wave", "a", "alpha", "New words."))
        assert change.groups == {""} and change.names == {"alpha"}


def test_a_new_key_is_a_change_of_the_skills_group() -> None:
    # SK070 is said once per collection, on the first skill that has a key: a key another skill
    # gains changes what the first one says, so the open skills of the group are checked again
    with tree() as t:
        t.write("wave", "a", "alpha")
        t.write("wave", "b", "beta")
        follower = Follower(t, WAVE)
        skill = t.folder("wave", "b") / "SKILL.md"
        skill.write_text("---\nname: beta\ndescription: Does it.\nowner: me\n---\nBody.\n",
                         "utf-8")
        change = follower.session.apply_changes([(skill, M)])
        assert change.groups == {""}
        [beta] = [s for s in follower.current().skills if s.name == "beta"]
        assert "owner" in beta.fields


def test_watching_looks_only_outside_the_watched_folders() -> None:
    """With the project watched, a change there that no event reported is not seen (the events
    are trusted); one in the personal root is seen on next use; `expire` looks at everything."""
    with tree() as t:
        t.write("wave", "a", "alpha")
        t.write("personal", "h", "home-skill")
        session = WorkspaceSession(freshness_seconds=0.0)
        session.watch([t.project])
        first = session.project(WAVE, t.project, t.home)
        t.write("wave", "b", "beta")  # no event
        assert session.project(WAVE, t.project, t.home) is first
        t.write("personal", "g", "other-home-skill")  # no event: outside the watched folder
        second = session.project(WAVE, t.project, t.home)
        assert "other-home-skill" in second.by_name and "beta" in second.by_name
        t.write("wave", "c", "gamma")
        session.expire()
        assert "gamma" in session.project(WAVE, t.project, t.home).by_name


def test_a_symlinked_skill_is_followed_by_a_rebuild() -> None:
    with tree() as t:
        real = t.base / "elsewhere/linked"
        real.mkdir(parents=True)
        (real / "SKILL.md").write_text("---\nname: linked\ndescription: D.\n---\n", "utf-8")
        (t.folder("wave", "linked")).symlink_to(real, target_is_directory=True)
        follower = Follower(t, WAVE)
        follower.strict = False
        (real / "SKILL.md").write_text("---\nname: moved\ndescription: D.\n---\n", "utf-8")
        follower.apply([(real / "SKILL.md", M)])
        assert follower.rebuilt == 1
        assert "moved" in follower.current().by_name


STEP = st.one_of(
    st.tuples(st.just("write"), st.tuples(
        st.sampled_from(list(ROOTS)), st.sampled_from("abcd"), st.sampled_from(["x", "y", "z"]),
        st.sampled_from(["Short.", LONG, "Medium " * 40]), st.sampled_from(["Body.", "Other."]),
        st.booleans())),
    st.tuples(st.just("delete"), st.tuples(st.sampled_from(list(ROOTS)), st.sampled_from("abcd"))),
    st.tuples(st.just("rename"), st.tuples(st.sampled_from(list(ROOTS)), st.sampled_from("abcd"),
                                           st.sampled_from("abcd"))),
)


@pytest.mark.parametrize("watching", [False, True], ids=["events only", "watching the project"])
@pytest.mark.parametrize("profile", [WAVE, CLAUDE_CODE], ids=lambda p: p.name)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEP, min_size=1, max_size=12))
def test_any_event_sequence_matches_a_rebuild(profile: RuntimeProfile, watching: bool,
                                              steps: list[tuple[str, tuple[object, ...]]]) -> None:
    with tree() as t:
        follower = Follower(t, profile, watching)
        for step in steps:
            run(t, follower, step)


ENTRY = st.builds(
    lambda index, description, visible: listing_entry_of(f"s{index}", description, visible),
    st.integers(0, 10_000), st.text(alphabet="ab é", max_size=1600), st.booleans())


def listing_entry_of(name: str, description: str, visible: bool) -> ListingEntry:
    text = (f"- {name}: {description}" if description else f"- {name}") if visible else ""
    return ListingEntry(name, text, visible, True)


@settings(max_examples=200, deadline=None)
@given(entries=st.lists(ENTRY, max_size=60, unique_by=lambda entry: entry.name),
       budget=st.sampled_from([200, 2_000, 8_000]))
def test_listing_totals_cut_what_the_rendered_listing_cuts(entries: list[ListingEntry],
                                                           budget: int) -> None:
    rendered = render_listing(entries, budget)
    totals = listing_totals(entries, budget)
    assert (totals.count, totals.full_chars, totals.over_budget) == (
        rendered.count, rendered.full_chars, rendered.over_budget)
    assert totals.names_only == rendered.names_only
    cut = {entry.name: kept for entry in entries if (kept := totals.kept(entry)) is not None}
    assert cut == (rendered.cut if rendered.over_budget else {})
    removed = totals.plus(entries[0], -1) if entries else totals
    assert removed == listing_totals(entries[1:], budget)


@settings(max_examples=60, deadline=None)
@given(base=st.dictionaries(st.integers(0, 40), st.integers(), max_size=30),
       edits=st.lists(st.lists(st.tuples(st.integers(0, 40), st.none() | st.integers()),
                               max_size=40), max_size=40))
def test_a_layered_map_reads_as_the_dict_it_stands_for(
        base: dict[int, int], edits: list[list[tuple[int, int | None]]]) -> None:
    """The snapshot maps share their base between snapshots; however the layers pile up and are
    folded, each version reads as a plain dict with the same edits, and older versions never
    change."""
    layered, expected = Layered(dict(base)), dict(base)
    versions = [(layered, dict(expected))]
    for batch in edits:
        draft = layered.draft()
        for key, value in batch:
            if value is None:
                draft.pop(key)
                expected.pop(key, None)
            else:
                draft[key] = value
                expected[key] = value
            assert draft.get(key) == expected.get(key)
        layered = draft.done(floor=8)  # fold often
        versions.append((layered, dict(expected)))
    for version, wanted in versions:
        assert dict(version.items()) == wanted and len(version) == len(wanted)
        assert version == wanted and version == Layered(dict(wanted)) and version.as_dict() == wanted
        assert all((key in version) == (key in wanted) for key in range(41))


def test_an_event_during_a_listing_is_not_lost() -> None:
    """The server lists the disk in a worker thread while the event loop applies file events: a
    snapshot built from a listing that an event overlapped is looked at again on next use."""
    with tree() as t:
        t.write("wave", "a", "alpha")
        session = WorkspaceSession(freshness_seconds=None)
        session.watch([t.project])
        real_list_roots = runtime_view.list_roots

        def listing_then_event(*arguments: object) -> object:
            listed = real_list_roots(*arguments)  # type: ignore[arg-type]
            session.apply_changes(t.write("wave", "b", "beta"))  # arrives meanwhile
            return listed

        with mock.patch("wave_lsp.core.workspace.runtime_view.list_roots",
                        side_effect=listing_then_event):
            first = session.project(WAVE, t.project, t.home)
        assert "beta" not in first.by_name  # listed before it was written
        assert "beta" in session.project(WAVE, t.project, t.home).by_name


@pytest.mark.parametrize("target", ["codex", "opencode", "gemini-cli"])
def test_a_deep_scan_follows_nested_skills_by_listing_again(target: str) -> None:
    """A root scanned at other depths than one (Codex six deep, OpenCode any depth, Gemini CLI the
    root itself too): an event about a SKILL.md in it makes the snapshot list the disk again, so
    a nested skill appears and goes as a fresh session sees it."""
    from wave_lsp.core.facts.profiles import PROFILES

    profile = PROFILES[target]
    with tempfile.TemporaryDirectory() as folder:
        project, home = Path(folder) / "proj", Path(folder) / "home"
        nested = project / ".agents/skills/group/new/SKILL.md"
        nested.parent.mkdir(parents=True)
        home.mkdir()
        session = WorkspaceSession(freshness_seconds=None)
        assert session.project(profile, project, home).skills == ()
        nested.write_text("---\nname: new\ndescription: Does it. Use when asked.\n---\n", "utf-8")
        session.apply_changes([(nested, C)])
        fresh = WorkspaceSession(freshness_seconds=None).project(profile, project, home)
        after = session.project(profile, project, home)
        assert [s.name for s in after.skills] == [s.name for s in fresh.skills]
