"""`ServerState.file_events` (docs/design/product.md *Incremental re-indexing*): which open
documents a file event re-checks. Table-driven, in process: two open skills in one load group, one
open plugin skill in its own group, and events on a third skill."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_lsp.core.workspace.snapshot import FileChange
from wave_lsp.lsp.state import ServerState

C, M, D = FileChange.CREATED, FileChange.CHANGED, FileChange.DELETED


def _skill(name: str, description: str = "Does it. Use when asked.", body: str = "Body.") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n{body}\n"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


@pytest.fixture
def opened(tmp_path: Path) -> tuple[ServerState, dict[str, Path]]:
    (tmp_path / ".git").mkdir()
    skills = tmp_path / ".wave/skills"
    manifest = tmp_path / "plugins/tool/.claude-plugin/plugin.json"
    _write(manifest, json.dumps({"name": "tool"}))
    files = {"alpha": _write(skills / "alpha/SKILL.md", _skill("alpha")),
             "beta": _write(skills / "beta/SKILL.md", _skill("beta")),
             "other": _write(skills / "other/SKILL.md", _skill("other")),
             "plugged": _write(tmp_path / "plugins/tool/skills/plugged/SKILL.md",
                               _skill("plugged"))}
    state = ServerState()
    # the load groups of the `wave` target (with no target, the plugin's skill is Claude Code's)
    state.client.raw = {"personalSkills": False, "target": "wave"}
    state.index.rebuild([tmp_path], state.settings_for(tmp_path / "SKILL.md"))
    for name in ("alpha", "beta", "plugged"):
        path = files[name]
        state.analyse(path.as_uri(), path, path.read_text("utf-8"), 1, "utf-16")
    return state, files


def _events(state: ServerState, files: dict[str, Path], *changes: tuple[Path, FileChange]
            ) -> set[str]:
    uris = [files[name].as_uri() for name in ("alpha", "beta", "plugged")]
    affected, _ = state.file_events(list(changes), uris)
    return {name for name in ("alpha", "beta", "plugged") if files[name].as_uri() in affected}


CASES = {
    "body edit of another skill: nobody": (
        lambda f: [(_write(f["other"], _skill("other", body="New body.")), M)], set()),
    "its listing changes: the open skills of its group": (
        lambda f: [(_write(f["other"], _skill("other", "Longer words. Use when asked.")), M)],
        {"alpha", "beta"}),
    "renamed to an open skill's name: that one (and the group's listing)": (
        lambda f: [(_write(f["other"], _skill("alpha")), M)], {"alpha", "beta"}),
    "a file in an open skill's folder: that one": (
        lambda f: [(_write(f["beta"].parent / "references/notes.md", "# Notes\n"), C)], {"beta"}),
    "a plugin skill's listing: the plugin's open skill": (
        lambda f: [(_write(f["plugged"].parent.parent / "new/SKILL.md", _skill("new")), C)],
        {"plugged"}),
    "settings: everybody": (
        lambda f: [(_write(f["alpha"].parents[3] / ".claude/settings.json", "{}"), C)],
        {"alpha", "beta", "plugged"}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_file_event_rechecks_only_the_documents_that_depend_on_it(
        opened: tuple[ServerState, dict[str, Path]], case: str) -> None:
    state, files = opened
    make, expected = CASES[case]
    assert _events(state, files, *make(files)) == expected


def test_a_deleted_skill_folder_takes_its_collision_away(
        opened: tuple[ServerState, dict[str, Path]]) -> None:
    state, files = opened
    rival = _write(files["other"].parent.parent / "zeta/SKILL.md", _skill("alpha"))
    assert _events(state, files, (rival.parent, C)) == {"alpha", "beta"}
    alpha = files["alpha"]
    found = state.analyse(alpha.as_uri(), alpha, alpha.read_text("utf-8"), 1, "utf-16")
    assert found is not None and any(f.code == "SK130" for f in found.report.findings)
    rival.unlink()
    rival.parent.rmdir()
    assert _events(state, files, (rival.parent, D)) == {"alpha", "beta"}
    found = state.analyse(alpha.as_uri(), alpha, alpha.read_text("utf-8"), 1, "utf-16")
    assert found is not None and not any(f.code == "SK130" for f in found.report.findings)
