"""Discovery and precedence per target, on real directory trees (personal roots under a fake HOME):
which skills load, which name wins, symlinks, plugins, ignored folders, the listing budget and
`wave-lsp list`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.cli import main
from wave_lsp.core.facts.profiles import CLAUDE_CODE, PROFILES, WAVE
from wave_lsp.core.invocation.listing import ListingEntry, render_listing
from wave_lsp.core.workspace.runtime_view import runtime_skills
from wave_lsp.core.workspace.session import WorkspaceSession


def make(root: Path, relative: str, name: str | None = None, extra: str = "") -> Path:
    path = root / relative / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    name = name or path.parent.name
    path.write_text(f"---\nname: {name}\ndescription: Does {name}. Use when asked.\n{extra}---\n",
                    "utf-8")
    return path


def table(skills) -> list[tuple[str, str, str, str | None]]:
    def short(path: Path | None) -> str | None:
        return None if path is None else "/".join(path.parts[-5:-1])
    return [(s.name, s.scope, short(s.path), short(s.shadowed_by.path) if s.shadowed_by else None)
            for s in skills]


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    return project, home


def test_wave_project_beats_personal_and_wave_beats_claude_beats_agents(tree) -> None:
    project, home = tree
    make(project, ".agents/skills/deploy")
    make(project, ".claude/skills/deploy")
    make(project, ".wave/skills/deploy")
    make(home, ".wave/skills/deploy")
    make(home, ".agents/skills/notes")
    assert table(runtime_skills(WAVE, project, home)) == [
        ("deploy", "project", "project/.wave/skills/deploy", None),
        ("deploy", "project", "project/.claude/skills/deploy", "project/.wave/skills/deploy"),
        ("deploy", "project", "project/.agents/skills/deploy", "project/.wave/skills/deploy"),
        ("deploy", "personal", "home/.wave/skills/deploy", "project/.wave/skills/deploy"),
        ("notes", "personal", "home/.agents/skills/notes", None),
    ]


def test_wave_keys_by_frontmatter_name(tree) -> None:
    project, home = tree
    make(project, ".wave/skills/folder-a", name="shared")
    make(home, ".wave/skills/folder-b", name="shared")
    skills = runtime_skills(WAVE, project, home)
    assert [s.name for s in skills] == ["shared", "shared"]
    assert skills[1].shadowed_by is skills[0]
    # Claude Code keys by folder name: no collision
    (project / ".claude/skills").mkdir(parents=True)
    os.rename(project / ".wave/skills/folder-a", project / ".claude/skills/folder-a")
    (home / ".claude/skills").mkdir(parents=True)
    os.rename(home / ".wave/skills/folder-b", home / ".claude/skills/folder-b")
    assert [(s.name, s.shadowed_by) for s in runtime_skills(CLAUDE_CODE, project, home)] == [
        ("folder-b", None), ("folder-a", None)]


def test_claude_code_personal_beats_project_and_walks_up_to_the_git_root(tree) -> None:
    project, home = tree
    make(home, ".claude/skills/deploy")
    make(project, ".claude/skills/deploy")
    make(project, "packages/app/.claude/skills/lint")
    make(project, ".claude/skills/lint")
    make(project.parent, ".claude/skills/outside")  # above the git root: not loaded
    skills = runtime_skills(CLAUDE_CODE, project / "packages/app", home)
    assert table(skills) == [
        ("deploy", "personal", "home/.claude/skills/deploy", None),
        ("lint", "project", "app/.claude/skills/lint", None),
        ("deploy", "project", "project/.claude/skills/deploy", "home/.claude/skills/deploy"),
        ("lint", "project", "project/.claude/skills/lint", "app/.claude/skills/lint"),
    ]
    assert runtime_skills(CLAUDE_CODE, project, home, personal=False)[0].scope == "project"


def test_symlinked_skill_dirs_load_once_and_loops_are_harmless(tree) -> None:
    project, home = tree
    real = make(project, "shared/deploy").parent
    (project / ".wave/skills").mkdir(parents=True)
    (project / ".wave/skills/deploy").symlink_to(real)
    (project / ".claude/skills").mkdir(parents=True)
    (project / ".claude/skills/deploy-again").symlink_to(real)
    (project / ".wave/skills/loop").symlink_to(project / ".wave/skills/loop")
    (project / ".agents/skills").mkdir(parents=True)
    (project / ".agents/skills/up").symlink_to(project / ".agents")
    skills = runtime_skills(WAVE, project, home)
    assert [(s.name, s.path.parent.name) for s in skills] == [("deploy", "deploy")]
    assert [p.parent.name for p in skills[0].duplicates] == ["deploy-again"]


def test_plugin_skills_are_namespaced(tree) -> None:
    project, home = tree
    plugin = project / "plugins/tools"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin/plugin.json").write_text(json.dumps({"name": "tools"}), "utf-8")
    make(plugin, "skills/fmt")
    make(project, ".wave/skills/fmt")
    for target in ("wave", "claude-code"):
        if target == "claude-code":
            make(project, ".claude/skills/fmt")
        skills = runtime_skills(PROFILES[target], project, home)
        assert {(s.name, s.scope, s.shadowed_by) for s in skills} >= {
            ("tools:fmt", "plugin", None), ("fmt", "project", None)}


IGNORED_CASES = [
    # (.gitignore, skill path, files git tracks, the ignored folder SK133 names or None)
    ("vendor/\n", "vendor/acme/.claude/skills/my-skill/SKILL.md", [], "vendor"),
    ("acme/\n", "acme/.claude/skills/my-skill/SKILL.md", [], "acme"),
    # Claude Code asks about the folder holding `.claude/skills`, not about `.claude` itself
    (".claude/\n", "acme/.claude/skills/my-skill/SKILL.md", [], None),
    # the git root's own skills root is loaded at start-up whatever .gitignore says
    (".claude/\n", ".claude/skills/my-skill/SKILL.md", [], None),
    # git never ignores a folder that holds a tracked file
    ("vendor/\n", "vendor/acme/.claude/skills/my-skill/SKILL.md",
     ["vendor/acme/README.md"], None),
    # a file pattern does not hide a skill folder
    ("*.md\n", "acme/.claude/skills/my-skill/SKILL.md", [], None),
    ("node_modules/\n", "node_modules/pkg/.claude/skills/my-skill/SKILL.md", [], "node_modules"),
]


@pytest.mark.parametrize(("ignore", "relpath", "tracked", "named"), IGNORED_CASES)
def test_ignored_skill_folders(tmp_path: Path, ignore: str, relpath: str, tracked: list[str],
                               named: str | None) -> None:
    if tracked:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
        for name in tracked:
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text("x\n", "utf-8")
        subprocess.run(["git", "-C", str(tmp_path), "add", "-f", *tracked], check=True)
    else:
        (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text(ignore, "utf-8")
    text = "---\nname: my-skill\ndescription: X. Use when asked.\n---\n"
    result = run(tmp_path, text, target="claude-code", relpath=relpath)
    found = [f for f in result.findings if f.code == "SK133"]
    if named is None:
        assert found == []
    else:
        assert len(found) == 1 and f"`{named}" in found[0].message


#: (target, its skills root, loads, dropped by, words the SK133 message has): only a runtime
#: whose profile `skips_git_ignored_roots` (Claude Code; an aggregate with it) skips the skill,
#: at information level too; elsewhere SK133 is advice and says nothing a runtime does
SKIPPED_CASES = [
    ("claude-code", ".claude/skills", False, [], "this skill is never loaded"),
    ("portable", ".claude/skills", False, ["Claude Code"], "so Claude Code never loads"),
    ("wave", ".wave/skills", True, [], "git does not track the skill"),
    ("codex", ".codex/skills", True, [], "git does not track the skill"),
    ("opencode", ".opencode/skills", True, [], "git does not track the skill"),
]


@pytest.mark.parametrize(("target", "root", "loads", "dropped", "words"), SKIPPED_CASES)
def test_a_git_ignored_nested_root_stops_only_the_runtimes_that_skip_it(
        tmp_path: Path, target: str, root: str, loads: bool, dropped: list[str],
        words: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("vendor/\n", "utf-8")
    text = "---\nname: my-skill\ndescription: X. Use when asked.\n---\n"
    report = run(tmp_path, text, target=target, relpath=f"vendor/acme/{root}/my-skill/SKILL.md")
    (finding,) = [f for f in report.findings if f.code == "SK133"]
    assert finding.severity.label == "information" and words in finding.message
    assert report.verdict is not None
    assert (report.verdict.loads, list(report.verdict.dropped_by)) == (loads, dropped)
    stopped = report.verdict.stopped_by
    assert (stopped.code if stopped else None) == (None if loads else "SK133")
    assert ("skips" in finding.message) == (not loads)


#: (target, words of SK133 on `<root>/node_modules/pkg/SKILL.md`): runtimes whose scan enters
#: `node_modules` (`scan_skipped_folders`: Codex, OpenCode 1.18.33, case oc-node-modules) load
#: it, and the message says so; the others do not find it there (SK002, no SK133)
NODE_MODULES_CASES = [
    ("codex", "Codex enters `node_modules` below a skills root and loads the skill there"),
    ("opencode", "OpenCode enters `node_modules` below a skills root and loads the skill there"),
    ("gemini-cli", None),
]


@pytest.mark.parametrize(("target", "words"), NODE_MODULES_CASES)
def test_node_modules_below_a_root_is_said_from_the_scan_facts(tmp_path: Path, target: str,
                                                               words: str | None) -> None:
    (tmp_path / ".git").mkdir()
    text = "---\nname: pkg\ndescription: X. Use when asked.\n---\n"
    report = run(tmp_path, text, target=target, relpath=".agents/skills/node_modules/pkg/SKILL.md")
    found = [f.message for f in report.findings if f.code == "SK133"]
    assert report.verdict is not None and report.verdict.loads == (words is not None)
    if words is None:
        assert found == [] and [f.code for f in report.findings] == ["SK002"]
    else:
        assert len(found) == 1 and words in found[0] and "never loaded" not in found[0]


def test_collision_message_names_the_winner_and_the_reason(tmp_path: Path) -> None:
    text = "---\nname: my-skill\ndescription: X. Use when asked.\n---\n"
    home_copy = tmp_path / "home/.claude/skills/my-skill/SKILL.md"
    home_copy.parent.mkdir(parents=True)
    home_copy.write_text(text, "utf-8")
    (tmp_path / ".git").mkdir()
    loser = run(tmp_path, text, target="claude-code", relpath=".claude/skills/my-skill/SKILL.md")
    (finding,) = [f for f in loser.findings if f.code == "SK130"]
    assert "Personal `~/.claude/skills` beats project" in finding.message
    assert "never loaded" in finding.message
    assert finding.related[0].path == str(home_copy)
    winner = run(tmp_path, text, target="wave", relpath=".claude/skills/my-skill/SKILL.md")
    (finding,) = [f for f in winner.findings if f.code == "SK130"]
    assert "this one wins" in finding.message


def entry(name: str, description: str, model: bool = True) -> ListingEntry:
    return ListingEntry(name, f"- {name}: {description}" if model else "", model, True)


def test_listing_budget() -> None:
    small = render_listing([entry("a", "x" * 10), entry("b", "y" * 10)], budget=100)
    assert not small.over_budget and small.text == "- a: xxxxxxxxxx\n- b: yyyyyyyyyy"
    cut = render_listing([entry("a", "x" * 100), entry("b", "y" * 10), entry("c", "z", False)],
                         budget=80)
    assert cut.over_budget and set(cut.cut) == {"a"} and len(cut.text) <= 80
    names = render_listing([entry(f"s{i}", "x" * 50) for i in range(10)], budget=60)
    assert names.names_only and names.text.startswith("- s0\n- s1")


def test_list_command_json_contract(tree, capsys, monkeypatch) -> None:
    project, home = tree
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(project)
    make(project, ".wave/skills/deploy", extra="disable-model-invocation: true\n")
    make(home, ".wave/skills/deploy")
    make(project, "node_modules/pkg/.wave/skills/hidden")
    assert main(["list", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["version"] == 1 and result["target"] == "wave"
    # no target configured: each skill for the target `check` gives it, here Wave
    # (`.wave/skills`); the personal skill the project's shadows is not loaded under its name
    assert result["skills"] == [
        {"name": "deploy", "scope": "project", "path": ".wave/skills/deploy/SKILL.md",
         "modelInvocable": False, "userInvocable": True, "listingChars": 0, "shadowedBy": None,
         "aliases": [], "activatesOn": None, "listingLine": None, "command": "/deploy",
         "unavailable": None, "loads": True, "stoppedBy": None, "target": "wave",
         "checkedFor": "Wave"},
        {"name": "deploy", "scope": "personal", "path": str(home / ".wave/skills/deploy/SKILL.md"),
         "modelInvocable": True, "userInvocable": True, "listingChars": 52,
         "shadowedBy": ".wave/skills/deploy/SKILL.md",
         "aliases": [], "activatesOn": None,
         # Wave's entry types a personal skill under ~/.wave/skills "project" (it tests the path)
         "listingLine": "• **deploy** (project): Does deploy. Use when asked.", "command": None,
         "unavailable": "shadowed", "loads": False, "stoppedBy": "SK130", "target": "wave",
         "checkedFor": "Wave"},
    ]
    assert main(["list"]) == 0
    assert "2 skills (wave); 0 in the model's listing; 1 not loaded" in capsys.readouterr().out


# -- review: "does it load?" must survive a rule that fails ----------------------------------------

@pytest.mark.parametrize("target", ["wave", "agentskills"])
@pytest.mark.parametrize("select", [("ALL",), ("SK1",)])
def test_check_runs_each_rule_once_and_decides_loading_from_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str,
        select: tuple[str, ...]) -> None:
    """`check` decides "does it load?" from its own run of the rules: each rule function runs
    once per file, even under a validator target where every rule can stop loading, and a rule
    that stops loading still decides when the user's selection leaves it out (`SK1` only:
    the missing description, SK050, is not reported but the file still does not load)."""
    from collections import Counter

    from wave_lsp.core.checking import engine
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.rules import all_checks
    from wave_lsp.core.rules.registry import Check

    calls: Counter[str] = Counter()

    def counted(item: Check) -> Check:
        def run_counted(ctx):  # type: ignore[no-untyped-def]  # the wrapped rule's signature
            calls[item.name] += 1
            return item.function(ctx)
        return Check(item.codes, run_counted)

    checks = tuple(counted(item) for item in all_checks())
    monkeypatch.setattr(engine, "all_checks", lambda: checks)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    path = project / ".wave/skills/no-description/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: no-description\n---\nBody.\n", "utf-8")
    settings = Settings.for_target(target, home=tmp_path / "home", personal=False, select=select)
    report = check_file(path, settings)
    assert calls and max(calls.values()) == 1, calls.most_common(3)
    assert report.verdict is not None and not report.verdict.loads
    assert report.verdict.stopped_by is not None
    stopped = report.verdict.stopped_by.code
    assert (stopped in {f.code for f in report.findings}) == (select == ("ALL",))


def test_a_failing_rule_does_not_crash_check_list_or_preview(tmp_path: Path, monkeypatch) -> None:
    """The engine logs a rule that raises and goes on (bad input gets a finding, never an
    exception); the load decision runs the same rules (through the engine's `run_rules`) and
    must not turn that into a crash of `check`, `list` or `preview`."""
    from wave_lsp.api import render_invocation
    from wave_lsp.core.checking import engine, loading
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.rules import all_checks
    from wave_lsp.core.rules.registry import Check

    def broken(ctx: object) -> list[object]:
        raise RuntimeError("a rule's bug")

    checks = (*all_checks(), Check(("SK020",), broken))  # type: ignore[arg-type]  # a stand-in rule
    monkeypatch.setattr(engine, "all_checks", lambda: checks)
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    path = make(project, ".wave/skills/my-skill")
    settings = Settings.for_target("wave", home=home)
    report = check_file(path, settings)
    assert report.verdict is not None and report.verdict.loads
    rows = loading.skill_rows(settings.profile, project, home, False, project)
    assert [(row["name"], row["loads"]) for row in rows] == [("my-skill", True)]
    preview = render_invocation(path, "", settings)
    assert not isinstance(preview, str) and preview.ok


@pytest.mark.parametrize("manifest", [".claude-plugin/plugin.json", ".claude-plugin/marketplace.json"])
def test_a_deeply_nested_plugin_manifest_is_ignored_not_a_crash(tmp_path: Path,
                                                                manifest: str) -> None:
    """json.loads raises RecursionError (not ValueError) on deeply nested input: a malformed
    manifest beside a skill must not crash `check` and `list`."""
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.workspace.location import locate

    (tmp_path / ".git").mkdir()
    (tmp_path / manifest).parent.mkdir(parents=True)
    path = make(tmp_path, "skills/my-skill")
    home = tmp_path / "home"
    settings = Settings.for_target("claude-code", home=home)

    def outcome() -> tuple[object, ...]:
        report = check_file(path, settings)
        return (locate(path).plugin, [f.code for f in report.findings], report.verdict,
                [s.name for s in runtime_skills(CLAUDE_CODE, tmp_path, home, False)])

    (tmp_path / manifest).write_text("{", "utf-8")  # not JSON at all
    expected = outcome()
    (tmp_path / manifest).write_text("[" * 100_000, "utf-8")
    assert outcome() == expected


def test_the_load_decision_reuses_the_checks_session(tmp_path: Path, monkeypatch, capsys) -> None:
    """Under the validator target every error rule decides loading, SK130 among them, and SK130
    snapshots the project. The decision must use the session of the check that asks, not a fresh
    one per file: with a fresh one `check` read every SKILL.md once per file (quadratic: 300
    skills took 86 s instead of 2 s). Counted, not timed: each SKILL.md is summarised once."""
    from wave_lsp.core.workspace import runtime_view  # session imports it where it reads

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for number in range(6):
        make(project, f".claude/skills/s{number}")
    reads: list[Path] = []
    real_read_summary = runtime_view.read_summary

    def counted(path: Path, *args: object) -> object:
        reads.append(path)
        return real_read_summary(path, *args)  # type: ignore[arg-type]  # the real arguments

    monkeypatch.setattr(runtime_view, "read_summary", counted)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert main(["check", "--target", "agentskills", "--format", "json", str(project)]) in (0, 1)
    assert len(json.loads(capsys.readouterr().out)["files"]) == 6
    assert sorted(set(reads)) == sorted(reads)


def test_list_decides_loading_with_one_snapshot_of_the_project(tmp_path: Path, monkeypatch,
                                                               capsys) -> None:
    """As for `check`: under the validator target the rows of `list` share one session (300
    skills took 65 s); counted, not timed: one project snapshot for all rows."""
    from wave_lsp.core.workspace import runtime_view  # session imports it where it builds one

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for number in range(6):
        make(project, f".claude/skills/s{number}")
    snapshots: list[object] = []
    real_runtime_skills = runtime_view.runtime_skills

    def counted(*args: object, **kwargs: object) -> object:
        # the session's snapshots only (discovery calls it for the listing itself)
        if sys._getframe(1).f_code is WorkspaceSession.project.__code__:
            snapshots.append(args)
        return real_runtime_skills(*args, **kwargs)  # type: ignore[arg-type]  # the real arguments

    monkeypatch.setattr(runtime_view, "runtime_skills", counted)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(project)
    assert main(["list", "--target", "agentskills", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["skills"]
    assert [(row["name"], row["loads"]) for row in rows] == [(f"s{n}", True) for n in range(6)]
    assert len(snapshots) <= 1


def test_a_marketplace_plugins_listed_skills_are_listed(tree) -> None:
    """The anthropics/skills layout: one marketplace, several plugins with source `./`, each
    naming its skills. `locate` (check, hover, preview) calls `skills/xlsx` the skill `docs:xlsx`;
    `list` and the project snapshot must list it too, each plugin as its own load group."""
    from wave_lsp.core.invocation.listing import skill_name
    from wave_lsp.core.parsing.reading import load_document
    from wave_lsp.core.workspace.location import locate

    project, home = tree
    (project / ".claude-plugin").mkdir()
    (project / ".claude-plugin/marketplace.json").write_text(json.dumps({"name": "market", "plugins": [
        {"name": "docs", "source": "./", "strict": False, "skills": ["./skills/xlsx", "./skills/pdf"]},
        {"name": "ex", "source": "./", "strict": False, "skills": ["./skills/art"]}]}), "utf-8")
    paths = [make(project, f"skills/{name}") for name in ("xlsx", "pdf", "art")]
    documents = [load_document(path) for path in paths]
    named = [skill_name(document, locate(path, home=home))
             for document, path in zip(documents, paths, strict=True) if document is not None]
    assert named == ["docs:xlsx", "docs:pdf", "ex:art"]
    skills = runtime_skills(CLAUDE_CODE, project, home, False)
    assert sorted(s.name for s in skills) == sorted(named)
    assert len({s.group for s in skills if s.name.startswith("docs:")}) == 1
    assert {s.group for s in skills if s.name.startswith("docs:")} != \
        {s.group for s in skills if s.name.startswith("ex:")}


def test_a_manifest_listing_the_projects_own_skills_root_gives_one_name(tree) -> None:
    """A plugin repository whose manifest lists `./.claude/skills/` (the project's own root): the
    name `list` shows and the name preview, hover and SK130 use must be the same."""
    from wave_lsp.core.invocation.listing import skill_name
    from wave_lsp.core.parsing.reading import load_document
    from wave_lsp.core.workspace.location import locate

    project, home = tree
    (project / ".claude-plugin").mkdir()
    (project / ".claude-plugin/plugin.json").write_text(
        json.dumps({"name": "plug", "skills": ["./.claude/skills/"]}), "utf-8")
    path = make(project, ".claude/skills/x")
    document = load_document(path)
    assert document is not None
    [listed] = runtime_skills(CLAUDE_CODE, project, home, False)
    assert listed.name == skill_name(document, locate(path, home=home))


def test_the_walk_finds_each_skill_file_once_through_links(tmp_path: Path) -> None:
    """`check .` walks folders resolving only symbolic links: a skill reached through a linked
    folder and directly is checked once, a linked SKILL.md once, and a folder linking to its
    ancestor ends the walk (the same files as resolving every path would find)."""
    from wave_lsp.core.workspace.discovery import find_skill_files

    project = tmp_path / "project"
    make(project, ".wave/skills/alpha")
    make(project, "library/beta")
    (project / ".wave/skills/beta").symlink_to(project / "library/beta")
    (project / "library/gamma").mkdir(parents=True)
    (project / "library/gamma/SKILL.md").symlink_to(project / "library/beta/SKILL.md")
    (project / "library/beta/up").symlink_to(project)
    found = [path.relative_to(project).as_posix() for path in find_skill_files([project])]
    assert found == [".wave/skills/alpha/SKILL.md", ".wave/skills/beta/SKILL.md"]
    resolved = {os.path.realpath(project / path) for path in found}
    assert resolved == {os.path.realpath(project / ".wave/skills/alpha/SKILL.md"),
                        os.path.realpath(project / "library/beta/SKILL.md")}


PLUGIN_NAMES = [
    # (folder, frontmatter name, command, alias, the listing's label) under claude-code 2.1.332
    # (probes disc-plugin-name-field, disc-plugin-name-space, disc-plugin-name-variants)
    ("folder-name", "fancy", "kit:folder-name", "kit:fancy", "kit:folder-name (kit:fancy)"),
    ("alpha", "Alpha", "kit:alpha", "kit:Alpha", "kit:alpha (kit:Alpha)"),
    ("my-skill", "my skill", "kit:my-skill", "kit:my skill", "kit:my-skill"),
    ("iota", "a/b", "kit:iota", "kit:a/b", "kit:iota"),
    ("zeta", "zeta", "kit:zeta", None, "kit:zeta"),
]


@pytest.mark.parametrize(("folder", "name", "command", "alias", "shown"), PLUGIN_NAMES)
def test_claude_code_names_plugin_skills_by_folder(tmp_path: Path, folder: str, name: str,
                                                   command: str, alias: str | None,
                                                   shown: str) -> None:
    from wave_lsp.core.checking.loading import skill_rows

    plugin = tmp_path / "plugins/kit"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin/plugin.json").write_text('{"name": "kit"}', "utf-8")
    skill = plugin / "skills" / folder / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(f'---\nname: "{name}"\ndescription: Does it.\n---\nBody.\n', "utf-8")
    (tmp_path / ".git").mkdir()
    rows = skill_rows(CLAUDE_CODE, tmp_path, tmp_path / "home", False, tmp_path)
    assert [(row["name"], row["aliases"], row["listingLine"]) for row in rows] == [
        (command, [alias] if alias else [], f"- {shown}: Does it.")]


@pytest.mark.parametrize(("frontmatter", "listed"), [
    ("", False),  # no frontmatter: described by the body's first line, so not listed
    ("---\nname: bare\n---\n", False),
    ("---\nwhen_to_use: when asked\n---\n", True),
    ("---\ndescription: Does it.\n---\n", True),
])
def test_claude_code_lists_a_plugin_skill_only_with_a_description(
        tmp_path: Path, frontmatter: str, listed: bool) -> None:
    """Probe disc-plugin-no-description: 2.1.332 leaves it out of the listing; `/kit:bare` and
    the Skill tool still run it. SK050 says so."""
    from wave_lsp.core.checking.loading import skill_rows

    plugin = tmp_path / "plugins/kit"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin/plugin.json").write_text('{"name": "kit"}', "utf-8")
    text = frontmatter + "# Bare plugin skill\nBody.\n"
    skill = plugin / "skills/bare/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(text, "utf-8")
    (tmp_path / ".git").mkdir()
    [row] = skill_rows(CLAUDE_CODE, tmp_path, tmp_path / "home", False, tmp_path)
    assert (row["listingLine"] is not None) == listed and row["modelInvocable"] is True
    if frontmatter.startswith("---\nname"):
        report = run(tmp_path, text, target="claude-code", relpath="plugins/kit/skills/bare/SKILL.md")
        [found] = [f for f in report.findings if f.code == "SK050"]
        assert "out of the model's listing" in found.message


@pytest.mark.parametrize(("paths", "waits"), [
    ('"**/*.ts"', ["**/*.ts"]),
    ('"src/*.{ts,tsx}, docs/**"', ["src/*.ts", "src/*.tsx", "docs"]),
    ('["lib/**/*.py"]', ["lib/**/*.py"]),
    ('"**"', None),  # every pattern `**`: no `paths` at all (probe fm-paths-everything)
    ('""', None),
])
def test_claude_code_hides_a_conditional_skill(tmp_path: Path, paths: str,
                                               waits: list[str] | None) -> None:
    """Probe fm-paths-quoted: with `paths` patterns the skill is neither listed nor known to
    `/name` until a matching file is touched; `list` says which patterns wake it."""
    from wave_lsp.core.checking.loading import skill_rows

    skill = tmp_path / ".claude/skills/typed/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(f"---\ndescription: Types.\npaths: {paths}\n---\nBody.\n", "utf-8")
    (tmp_path / ".git").mkdir()
    [row] = skill_rows(CLAUDE_CODE, tmp_path, tmp_path / "home", False, tmp_path)
    assert row["activatesOn"] == waits
    assert (row["listingLine"] is None) == (waits is not None)


#: (target, frontmatter, the name the target's loader keys the skill by): a frontmatter whose
#: `name` and `description` are not plain YAML text is named by the runtime's own loader
OWN_NAMES = [
    ("gemini-cli", "name: 123\ndescription: Numbered.\n", "123"),  # case gm-fallback-number
    ("gemini-cli", 'name: "quoted"\ndescription: Q.\nnote: a: b\n', '"quoted"'),
    ("gemini-cli", "name: plain\ndescription: Plain.\n", "plain"),
    ("codex", "name: cx: colon\ndescription: C.\n", "cx: colon"),
    ("codex", "name: 123\ndescription: Numbered.\n", "folder"),
    ("wave", "name: 123\ndescription: Numbered.\n", "folder"),
    ("claude-code", "name: other\ndescription: D.\nnote: a: b\n", "folder"),
]


@pytest.mark.parametrize(("target", "frontmatter", "named"), OWN_NAMES)
def test_a_runtime_names_a_skill_as_its_loader_reads_it(tree, target: str, frontmatter: str,
                                                        named: str) -> None:
    project, home = tree
    profile = PROFILES[target]
    root = {"gemini-cli": ".gemini/skills", "wave": ".wave/skills",
            "claude-code": ".claude/skills"}.get(target, ".agents/skills")
    path = project / root / "folder" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\n{frontmatter}---\nBody.\n", "utf-8")
    assert [skill.name for skill in runtime_skills(profile, project, home)] == [named]
