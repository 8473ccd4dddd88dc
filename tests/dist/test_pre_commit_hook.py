"""The pre-commit hook (`.pre-commit-hooks.yaml`) hands wave-lsp the files `wave-lsp check` itself
would find in a tree: its `files`/`exclude` patterns, applied by pre-commit's own filter, select
exactly the paths discovery.is_skill_file takes (SKILL.md in any case anywhere; a stray `*.md`
directly in a skills root, at the repository root too; not the index files kept there). It checks
without the personal folders (`--no-personal`: a commit is judged the same on every machine) and
shows its output when it passes (`verbose: true`: warnings exit 0). tests/dist/test_packaging.py
runs the hook itself through pre-commit (slow)."""

from __future__ import annotations

import itertools
from pathlib import Path

from pre_commit.commands.run import filter_by_include_exclude
from ruamel.yaml import YAML

from wave_lsp.core.facts.profiles import ALL_SKILLS_ROOTS
from wave_lsp.core.workspace.discovery import INDEX_FILES, is_skill_file

REPO = Path(__file__).resolve().parents[2]
#: where a path can be, relative to the repository root pre-commit hands the hook
PREFIXES = ["", "pkg/", "a/b/"]
#: folders that look like skills roots and are not
NOT_ROOTS = [".claude", ".claude/skill", "skills", ".wave/skills/group", ".vscode/skills", "docs"]
NAMES = ["SKILL.md", "skill.md", "Skill.md", "stray.md", "notes.txt", "SKILL.md.bak",
         *sorted(INDEX_FILES), "Readme.md"]


def hook() -> dict:
    (entry,) = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    return entry


def selected(path: str) -> bool:
    entry = hook()
    return list(filter_by_include_exclude([path], entry["files"], entry.get("exclude", "^$"))) == [path]


def table() -> list[str]:
    folders = [*ALL_SKILLS_ROOTS, *NOT_ROOTS]
    return [f"{prefix}{folder}/{name}"
            for prefix, folder, name in itertools.product(PREFIXES, folders, NAMES)]


def test_the_hook_selects_the_files_check_finds() -> None:
    # a stray file in a plugin's `skills` folder (beside plugin.json) is a skill too; no pattern
    # can see the manifest, and the table has no plugin folder
    wrong = [(path, is_skill_file(Path(path))) for path in table()
             if selected(path) is not is_skill_file(Path(path))]
    assert wrong == [], f"(path, what check does) where the hook does otherwise: {wrong}"


def test_the_table_covers_both_answers() -> None:
    answers = {is_skill_file(Path(path)) for path in table()}
    assert answers == {True, False}
    # the case the hook used to miss: a stray skill in a skills root at the repository root
    assert selected(".claude/skills/stray.md") and is_skill_file(Path(".claude/skills/stray.md"))


def test_the_hook_checks_without_personal_folders_and_shows_what_it_found() -> None:
    entry = hook()
    assert entry["entry"].split() == ["wave-lsp", "check", "--no-personal"]
    assert entry["verbose"] is True
    assert entry["require_serial"] is True and entry["language"] == "python"
