"""Discovery facts of the issue-28 targets that the first profiles left out (docs/design/
runtime-facts.md §9.1): the walk of Codex and OpenCode through parent folders, Codex's
`project_root_markers` and its 2,000-folder cap, Gemini CLI's workspace trust, and the roots that
opencode.json and VS Code's settings add. One fixture per fact; each is asked through discovery
(`runtime_skills`, what `list` and the checks' snapshots read), through `where` (`list --targets`,
the hover on `name`) and through SK002, so the three must agree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.cli import main
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings, SettingsError, settings_from_mapping
from wave_lsp.core.facts.profiles import PROFILES, with_workspace_trust
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.index import SkillIndex
from wave_lsp.core.workspace.location import locate
from wave_lsp.core.workspace.reach import discovery_gap
from wave_lsp.core.workspace.runtime_config import read_config, walk_folders, workspace_trust
from wave_lsp.core.workspace.runtime_view import runtime_skills
from wave_lsp.core.workspace.where import where_rows


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody\n"


def _write(base: Path, relpath: str, text: str = "") -> Path:
    path = base / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text or _skill(path.parent.name), "utf-8")
    return path


def _loaded(target: str, working: Path, home: Path, personal: bool = True,
            trust: str = "auto") -> list[str]:
    """The project skills `target` loads seen from `working`, as paths relative to the test's
    folder (the home folder's parent)."""
    profile = with_workspace_trust(PROFILES[target], trust)
    base = home.parent
    return sorted(skill.path.relative_to(base).as_posix()
                  for skill in runtime_skills(profile, working, home, personal)
                  if base in skill.path.parents and home not in skill.path.parents)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository `repo/` with a sub-folder `repo/sub/` to work in, and an empty home."""
    (tmp_path / "repo/.git").mkdir(parents=True)
    (tmp_path / "repo/sub").mkdir()
    (tmp_path / "home").mkdir()
    return tmp_path / "repo"


# -- the walk (§9.1) ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("target", "relpath", "found"), [
    # Codex: `.agents/skills` and `.codex/skills` in every folder from the project root down
    ("codex", "repo/.agents/skills/up/SKILL.md", True),
    ("codex", "repo/.codex/skills/up/SKILL.md", True),
    ("codex", "repo/sub/.agents/skills/here/SKILL.md", True),
    ("codex", "repo/.claude/skills/up/SKILL.md", False),  # never `.claude`
    ("codex", ".agents/skills/above-the-root/SKILL.md", False),  # above the project root
    # OpenCode: `.claude`, `.agents` and `.opencode` up to the worktree (the git root)
    ("opencode", "repo/.claude/skills/up/SKILL.md", True),
    ("opencode", "repo/.opencode/skills/up/SKILL.md", True),
    ("opencode", ".claude/skills/above-the-worktree/SKILL.md", False),
    # runtimes that do not walk see the working folder's roots only
    ("copilot", "repo/.agents/skills/up/SKILL.md", False),
    ("gemini-cli", "repo/.agents/skills/up/SKILL.md", False),
])
def test_the_walk_from_the_working_folder(repo: Path, target: str, relpath: str,
                                          found: bool) -> None:
    path = _write(repo.parent, relpath)
    loaded = _loaded(target, repo / "sub", repo.parent / "home")
    assert (path.relative_to(repo.parent).as_posix() in loaded) == found, loaded


def test_without_a_project_marker_the_walk_is_the_working_folder(tmp_path: Path) -> None:
    (tmp_path / "work/sub").mkdir(parents=True)
    _write(tmp_path, "work/.agents/skills/up/SKILL.md")
    home = tmp_path / "home"
    assert walk_folders(PROFILES["codex"], tmp_path / "work/sub", home) == [tmp_path / "work/sub"]
    assert _loaded("codex", tmp_path / "work/sub", home) == []


def test_without_git_opencode_walks_to_the_file_system_root(tmp_path: Path) -> None:
    """OpenCode 1.18.33's worktree outside git is `/`: the walk goes on past the working folder
    (tests/oracle/cases/oc-walk-no-git); the home folder ends it."""
    (tmp_path / "work/sub").mkdir(parents=True)
    _write(tmp_path, "work/.agents/skills/up/SKILL.md")
    walked = walk_folders(PROFILES["opencode"], tmp_path / "work/sub", tmp_path / "home")
    assert walked == [tmp_path / "work/sub", *(tmp_path / "work/sub").parents]
    assert _loaded("opencode", tmp_path / "work/sub", tmp_path / "home") == [
        "work/.agents/skills/up/SKILL.md"]
    assert walk_folders(PROFILES["opencode"], tmp_path / "work/sub", tmp_path / "work") == [
        tmp_path / "work/sub"]


@pytest.mark.parametrize(("config", "walk"), [
    ("", ["sub", "repo"]),  # the default marker, `.git`
    ('project_root_markers = []\n', ["sub"]),  # no markers: the working folder only
    ('project_root_markers = [".hg"]\n', ["sub"]),  # no `.hg` anywhere: the working folder
    ('project_root_markers = ["sub.marker"]\n', ["sub"]),
    ('project_root_markers = "not a list"\n', ["sub", "repo"]),  # ignored: the default
])
def test_codex_reads_project_root_markers_from_its_config(repo: Path, config: str,
                                                          walk: list[str]) -> None:
    home = repo.parent / "home"
    if config:
        _write(home, ".codex/config.toml", config)
    (repo / "sub/sub.marker").write_text("", "utf-8")
    folders = walk_folders(PROFILES["codex"], repo / "sub", home)
    assert [folder.name for folder in folders] == walk
    # with personal files off, the user's config is not read
    assert [f.name for f in walk_folders(PROFILES["codex"], repo / "sub", home, False)] == [
        "sub", "repo"]


def test_opencode_keeps_the_outer_folders_skill_of_a_name(repo: Path) -> None:
    inner = _write(repo, "sub/.agents/skills/deploy/SKILL.md")
    outer = _write(repo, ".agents/skills/deploy/SKILL.md")
    skills = {s.path: s for s in runtime_skills(PROFILES["opencode"], repo / "sub",
                                                repo.parent / "home")}
    assert skills[inner].shadowed_by is skills[outer] and skills[outer].shadowed_by is None
    report = run(repo, _skill("deploy"), target="opencode",
                 relpath="sub/.agents/skills/deploy/SKILL.md", home=repo.parent / "home")
    sk130 = [f for f in report.findings if f.code == "SK130"]
    assert len(sk130) == 1 and "so this one is never loaded" in sk130[0].message


def test_codex_keeps_both_walked_skills_of_a_name(repo: Path) -> None:
    _write(repo, ".agents/skills/deploy/SKILL.md")
    report = run(repo, _skill("deploy"), target="codex",
                 relpath="sub/.agents/skills/deploy/SKILL.md", home=repo.parent / "home")
    sk130 = [f for f in report.findings if f.code == "SK130"]
    assert len(sk130) == 1 and "selects none of them" in sk130[0].message


def test_list_targets_shows_the_walked_skills_from_the_working_folder(repo: Path) -> None:
    _write(repo, ".agents/skills/up/SKILL.md")
    rows = where_rows((PROFILES["codex"], PROFILES["copilot"]), repo / "sub",
                      repo.parent / "home", True, repo)
    (row,) = rows
    by_target = {answer["target"]: answer for answer in row["runtimes"]}  # type: ignore[union-attr]
    assert by_target["codex"]["discovers"] is True
    assert by_target["copilot"]["discovers"] is False
    assert by_target["copilot"]["notFoundBecause"] == "not in what it scans from this folder"


def test_the_index_knows_the_walked_skills(repo: Path) -> None:
    _write(repo, ".agents/skills/up/SKILL.md")
    index = SkillIndex()
    index.rebuild([repo / "sub"], Settings.for_target("codex", home=repo.parent / "home"))
    assert [entry.name for entry in index.named("up")] == ["up"]
    index.rebuild([repo / "sub"], Settings.for_target("copilot", home=repo.parent / "home"))
    assert index.named("up") == []


# -- Codex's folder cap (§9.1: MAX_SKILLS_DIRS_PER_ROOT = 2000) --------------------------------------
@pytest.fixture
def crowded(repo: Path) -> Path:
    """`repo/.agents/skills` with 1,999 empty folders before `zzz/SKILL.md` in name order: with the
    root, Codex has entered 2,000 folders when it meets `zzz`."""
    root = repo / ".agents/skills"
    for number in range(1999):
        (root / f"f{number:04}").mkdir(parents=True)
    return _write(repo, ".agents/skills/zzz/SKILL.md")


def test_codex_does_not_reach_a_skill_beyond_its_folder_cap(repo: Path, crowded: Path) -> None:
    home = repo.parent / "home"
    assert _loaded("codex", repo, home) == []
    assert _loaded("gemini-cli", repo, home) == ["repo/.agents/skills/zzz/SKILL.md"]
    gap = discovery_gap(PROFILES["codex"], locate(crowded, home=home), home)
    assert gap is not None and "stops after 2,000 folders" in gap
    report = run(repo, _skill("zzz"), target="codex", relpath=".agents/skills/zzz/SKILL.md",
                 home=home)
    sk002 = [f.message for f in report.findings if f.code == "SK002"]
    assert len(sk002) == 1
    assert sk002[0].startswith("Not discovered by Codex: move the skill up, or keep other "
                               "folders (`node_modules`, build output) out of the skills root. "
                               "Its scan of `.agents/skills` stops")
    portable = run(repo, _skill("zzz"), target="portable",
                   relpath=".agents/skills/zzz/SKILL.md", home=home)
    messages = [f.message for f in portable.findings if f.code == "SK002"]
    assert len(messages) == 1 and "Not discovered by Codex: move the skill up" in messages[0]
    assert "Its scan of `.agents/skills` stops after 2,000 folders" in messages[0]


def test_one_folder_fewer_is_within_the_cap(repo: Path, crowded: Path) -> None:
    (repo / ".agents/skills/f1998").rmdir()
    home = repo.parent / "home"
    assert _loaded("codex", repo, home) == ["repo/.agents/skills/zzz/SKILL.md"]
    assert discovery_gap(PROFILES["codex"], locate(crowded, home=home), home) is None


#: OpenCode 1.18.33 globs `**/SKILL.md` into `node_modules` too (tests/oracle/cases/oc-node-modules)
@pytest.mark.parametrize(("target", "found"), [("codex", True), ("gemini-cli", False),
                                               ("opencode", True)])
def test_which_scans_enter_node_modules(repo: Path, target: str, found: bool) -> None:
    _write(repo, ".agents/skills/node_modules/pkg/SKILL.md")
    loaded = _loaded(target, repo, repo.parent / "home")
    assert (loaded == ["repo/.agents/skills/node_modules/pkg/SKILL.md"]) == found


# -- Gemini CLI's workspace trust (§9.1) -----------------------------------------------------------
@pytest.mark.parametrize(("trust_file", "settings_file", "choice", "personal", "expected"), [
    (None, None, "auto", True, "unknown"),  # no rule: Gemini CLI asks; counted as trusted
    ({"{repo}": "TRUST_FOLDER"}, None, "auto", True, "trusted"),
    ({"{repo}": "DO_NOT_TRUST"}, None, "auto", True, "untrusted"),
    ({"{repo}/child": "TRUST_PARENT"}, None, "auto", True, "trusted"),  # covers its parent
    ({"{parent}": "TRUST_FOLDER", "{repo}": "DO_NOT_TRUST"}, None, "auto", True,
     "untrusted"),  # the longest rule decides
    ({"{repo}": "DO_NOT_TRUST"}, {"security": {"folderTrust": {"enabled": False}}}, "auto",
     True, "trusted"),  # trust switched off: every folder is trusted
    ({"{repo}": "DO_NOT_TRUST"}, None, "auto", False, "unknown"),  # --no-personal
    ({"{repo}": "DO_NOT_TRUST"}, None, "trusted", True, "trusted"),  # the user's choice wins
    (None, None, "untrusted", True, "untrusted"),
    ({"{repo}": "MAYBE"}, None, "auto", True, "unknown"),  # not a trust level
])
def test_gemini_workspace_trust(repo: Path, trust_file: dict[str, str] | None,
                                settings_file: dict[str, object] | None, choice: str,
                                personal: bool, expected: str) -> None:
    home = repo.parent / "home"
    if trust_file is not None:
        rules = {key.format(repo=repo, parent=repo.parent): value
                 for key, value in trust_file.items()}
        _write(home, ".gemini/trustedFolders.json", json.dumps(rules))
    if settings_file is not None:
        _write(home, ".gemini/settings.json", json.dumps(settings_file))
    profile = with_workspace_trust(PROFILES["gemini-cli"], choice)
    assert workspace_trust(profile, repo, home, personal) == expected
    path = _write(repo, ".gemini/skills/mine/SKILL.md")
    loaded = _loaded("gemini-cli", repo, home, personal, choice)
    assert (loaded == ["repo/.gemini/skills/mine/SKILL.md"]) == (expected != "untrusted")
    settings = Settings(profile=PROFILES["gemini-cli"], home=home, personal=personal,
                        workspace_trust=choice)
    sk002 = [f.message for f in check_file(path, settings, strict=True).findings
             if f.code == "SK002"]
    assert bool(sk002) == (expected == "untrusted"), sk002
    assert all("loads workspace skills only in a trusted folder" in m for m in sk002)
    assert all(m.startswith("Not discovered by Gemini CLI: trust the project folder") for m in sk002)


def test_an_untrusted_folder_keeps_the_personal_skills(repo: Path) -> None:
    home = repo.parent / "home"
    _write(home, ".gemini/skills/personal/SKILL.md")
    _write(repo, ".gemini/skills/mine/SKILL.md")
    profile = with_workspace_trust(PROFILES["gemini-cli"], "untrusted")
    assert [s.name for s in runtime_skills(profile, repo, home)] == ["personal"]


def test_portable_names_gemini_when_the_folder_is_untrusted(repo: Path) -> None:
    home = repo.parent / "home"
    path = _write(repo, ".agents/skills/mine/SKILL.md")
    settings = Settings(profile=PROFILES["portable"], home=home, workspace_trust="untrusted")
    messages = [f.message for f in check_file(path, settings, strict=True).findings
                if f.code == "SK002"]
    # (Claude Code and Cursor never look in `.agents/skills`: the message names them first)
    assert len(messages) == 1 and messages[0].startswith("Not discovered by Claude Code and Cursor")
    assert "Not discovered by Gemini CLI: trust the project folder in Gemini CLI if its skills " \
        "should load there. It loads workspace skills only in a trusted folder" in messages[0]


@pytest.mark.parametrize("value", ["auto", "trusted", "untrusted"])
def test_the_workspace_trust_setting(value: str) -> None:
    for key in ("workspace-trust", "workspaceTrust"):
        settings = settings_from_mapping({"target": "gemini-cli", key: value})
        assert settings.workspace_trust == value
        assert settings.profile.workspace_trust == value


def test_an_unknown_workspace_trust_is_refused() -> None:
    with pytest.raises(SettingsError, match="workspace-trust must be one of auto, trusted"):
        settings_from_mapping({"workspace-trust": "maybe"})


def test_the_cli_flag_decides_trust(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = repo.parent / "home"
    _write(repo, ".gemini/skills/mine/SKILL.md")
    shown = []
    for choice in ("trusted", "untrusted"):
        code = main(["list", str(repo), "--targets", "gemini-cli", "--format", "json",
                     "--workspace-trust", choice, "--no-personal"])
        assert code == 0
        shown.append(json.loads(capsys.readouterr().out)["skills"])
    assert [len(rows) for rows in shown] == [1, 0]
    assert home.is_dir()


# -- roots the runtime's config adds (§9.1) ----------------------------------------------------------
@pytest.mark.parametrize(("config_path", "content", "skill_path", "target"), [
    ("opencode.json", '{"skills": {"paths": ["tools/skills"]}}',
     "tools/skills/deep/mine/SKILL.md", "opencode"),  # any depth
    ("opencode.jsonc", '{\n  // ours\n  "skills": {"paths": ["tools/skills",],},\n}\n',
     "tools/skills/mine/SKILL.md", "opencode"),  # comments, trailing commas
    (".opencode/opencode.json", '{"skills": {"paths": ["tools/skills"]}}',
     "tools/skills/mine/SKILL.md", "opencode"),
    (".vscode/settings.json", '{"chat.agentSkillsLocations": {"tools/skills": true}}',
     "tools/skills/mine/SKILL.md", "copilot"),  # one level, as its own roots
])
def test_a_configured_root(repo: Path, config_path: str, content: str, skill_path: str,
                           target: str) -> None:
    home = repo.parent / "home"
    _write(repo, config_path, content)
    path = _write(repo, skill_path)
    assert _loaded(target, repo, home) == [f"repo/{skill_path}"]
    assert discovery_gap(PROFILES[target], locate(path, home=home), home) is None
    other = "codex"
    assert _loaded(other, repo, home) == []
    assert discovery_gap(PROFILES[other], locate(path, home=home), home) is not None


@pytest.mark.parametrize("content", [
    '{"chat.agentSkillsLocations": {"tools/skills": false}}',  # switched off
    '{"chat.agentSkillsLocations": "tools/skills"}',  # not an object
    "not json",
])
def test_a_configured_root_that_adds_nothing(repo: Path, content: str) -> None:
    _write(repo, ".vscode/settings.json", content)
    _write(repo, "tools/skills/mine/SKILL.md")
    assert _loaded("copilot", repo, repo.parent / "home") == []


def test_opencode_expands_home_in_skill_paths_and_reads_its_global_config(repo: Path) -> None:
    home = repo.parent / "home"
    _write(home, ".config/opencode/opencode.json", '{"skills": {"paths": ["~/mine"]}}')
    _write(home, "mine/one/SKILL.md")
    skills = runtime_skills(PROFILES["opencode"], repo, home)
    assert [(s.name, s.scope) for s in skills] == [("one", "personal")]
    assert runtime_skills(PROFILES["opencode"], repo, home, personal=False) == []


def test_read_config_counts_a_broken_file_as_absent(tmp_path: Path) -> None:
    broken = _write(tmp_path, "c.toml", "= nope")
    assert read_config(broken) is None
    assert read_config(tmp_path / "missing.json") is None


def test_where_and_check_agree_on_a_configured_root(repo: Path) -> None:
    home = repo.parent / "home"
    _write(repo, "opencode.json", '{"skills": {"paths": ["tools/skills"]}}')
    path = _write(repo, "tools/skills/mine/SKILL.md")
    (row,) = where_rows((PROFILES["opencode"],), repo, home, True, repo)
    assert row["runtimes"][0]["discovers"] is True  # type: ignore[index]
    location = locate(path, home=home)
    from wave_lsp.core.workspace.where import where_it_loads

    (answer,) = where_it_loads(SkillDocument.from_text(path.read_text("utf-8")), location,
                               profiles=(PROFILES["opencode"],), home=home)
    assert answer.discovers and answer.command == "/mine"


# -- folders a deep scan does not enter (§9.1) ------------------------------------------------------
@pytest.mark.parametrize(("target", "relpath", "found"), [
    ("codex", ".agents/skills/.wip/mine/SKILL.md", False),  # `.`-names skipped
    ("opencode", ".agents/skills/.archive/mine/SKILL.md", True),  # globbed with `dot: true`
    ("opencode", ".claude/skills/.archive/mine/SKILL.md", True),
    ("opencode", ".opencode/skills/.archive/mine/SKILL.md", False),
    ("gemini-cli", ".agents/skills/node_modules/SKILL.md", False),
    ("codex", ".agents/skills/node_modules/pkg/SKILL.md", True),
])
def test_scan_and_reach_agree_on_skipped_folders(repo: Path, target: str, relpath: str,
                                                 found: bool) -> None:
    home = repo.parent / "home"
    path = _write(repo, relpath)
    assert (_loaded(target, repo, home) == [f"repo/{relpath}"]) == found
    gap = discovery_gap(PROFILES[target], locate(path, home=home), home)
    assert (gap is None) == found, gap


def test_a_later_trust_choice_replaces_an_earlier_one() -> None:
    untrusted = settings_from_mapping({"target": "portable", "workspace-trust": "untrusted"})
    gemini = next(m for m in untrusted.profile.members if m.name == "gemini-cli")
    assert gemini.workspace_trust == "untrusted"
    again = untrusted.merged(workspace_trust="auto")
    assert again.profile is PROFILES["portable"]
    assert untrusted.merged(target="gemini-cli").profile.workspace_trust == "untrusted"


def test_check_reads_the_trust_file_of_the_users_home(repo: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    home = repo.parent / "home"
    _write(home, ".gemini/trustedFolders.json", json.dumps({str(repo): "DO_NOT_TRUST"}))
    path = _write(repo, ".gemini/skills/mine/SKILL.md")
    monkeypatch.setenv("HOME", str(home))
    assert main(["check", str(path), "--target", "gemini-cli", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    codes = [f["code"] for file in report["files"] for f in file["findings"]]
    assert codes == ["SK002"]
