"""Which files a target speaks of (`wave_lsp.core.workspace.applies`; docs/design/rules.md *A
target speaks of what it loads*): table tests of `reach` (found or not, and the profile an
aggregate is narrowed to), of `finders`, and of the one finding `check` gives a file its target
does not find, under every target."""

from __future__ import annotations

from pathlib import Path

import pytest

from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.facts.profiles import PROFILES, TARGETS
from wave_lsp.core.workspace.applies import finders, finders_clause, narrowed, reach
from wave_lsp.core.workspace.location import locate

GOOD = "---\nname: {name}\ndescription: Does things. Use when asked.\n---\nBody $1\n"


def located(tmp_path: Path, relpath: str):
    (tmp_path / ".git").mkdir(exist_ok=True)
    path = tmp_path / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GOOD.format(name=path.parent.name), "utf-8")
    return path, locate(path, home=tmp_path / "home")


@pytest.mark.parametrize(("relpath", "target", "found"), [
    # in no skills root: a skill to be installed, every target's rules apply
    ("skills/deploy/SKILL.md", "claude-code", True),
    ("deploy/SKILL.md", "codex", True),
    # a root the target scans, at a depth it scans
    (".claude/skills/deploy/SKILL.md", "claude-code", True),
    (".codex/skills/deploy/SKILL.md", "codex", True),
    (".codex/skills/a/b/deploy/SKILL.md", "codex", True),  # six levels down
    (".gemini/skills/SKILL.md", "gemini-cli", True),  # the root itself
    (".agents/skills/deploy/SKILL.md", "wave", True),
    # another runtime's root
    (".codex/skills/deploy/SKILL.md", "claude-code", False),
    (".claude/skills/deploy/SKILL.md", "codex", False),
    (".agents/skills/deploy/SKILL.md", "cursor", False),
    (".wave/skills/deploy/SKILL.md", "opencode", False),
    # too deep, or not deep enough
    (".claude/skills/team/deploy/SKILL.md", "claude-code", False),
    (".claude/skills/team/deploy/SKILL.md", "opencode", True),  # any depth
    (".claude/skills/SKILL.md", "wave", False),
    # a validator reads whatever it is given
    (".codex/skills/deploy/SKILL.md", "agentskills", True),
])
def test_reach(relpath: str, target: str, found: bool, tmp_path: Path) -> None:
    _, location = located(tmp_path, relpath)
    answer = reach(PROFILES[target], location, tmp_path / "home")
    assert answer.found is found
    assert answer.profile is PROFILES[target]


@pytest.mark.parametrize(("relpath", "found", "members"), [
    # no runtime scans every root: in one, `portable` is the runtimes that find the file
    (".codex/skills/deploy/SKILL.md", True, ("Codex", "Cursor")),
    (".claude/skills/deploy/SKILL.md", True,
     ("Wave", "Claude Code", "Copilot", "Cursor", "OpenCode", "Copilot CLI")),
    (".claude/skills/team/deploy/SKILL.md", True, ("OpenCode", "Copilot CLI")),
    # none of them: the one finding
    (".wave/skills/team/deploy/SKILL.md", False, None),
    # outside every root: the whole aggregate, skills-ref included
    ("deploy/SKILL.md", True, "all"),
])
def test_portable_is_narrowed_to_the_runtimes_that_find_the_file(
        relpath: str, found: bool, members: tuple[str, ...] | str | None, tmp_path: Path) -> None:
    _, location = located(tmp_path, relpath)
    portable = PROFILES["portable"]
    answer = reach(portable, location, tmp_path / "home")
    assert answer.found is found
    if members is None or members == "all":
        assert answer.profile is portable
        return
    assert tuple(m.runtime for m in answer.profile.members) == members
    assert answer.profile.name == "portable" and answer.profile.catalog_column == ""
    # one object per choice: the caches keyed by profile hold
    assert narrowed(portable, answer.profile.members) is answer.profile


@pytest.mark.parametrize(("relpath", "besides", "clause"), [
    (".codex/skills/deploy/SKILL.md", "claude-code",
     "Codex and Cursor find it here (target `codex`)"),
    # the runtime the root is named after comes first
    (".claude/skills/deploy/SKILL.md", "codex",
     "Claude Code, Wave, Copilot, Cursor, OpenCode and Copilot CLI find it here "
     "(target `claude-code`)"),
    (".claude/skills/team/deploy/SKILL.md", "claude-code",
     "OpenCode and Copilot CLI find it here (target `opencode`)"),
    (".wave/skills/team/deploy/SKILL.md", "wave", "No other runtime finds it here either"),
])
def test_finders(relpath: str, besides: str, clause: str, tmp_path: Path) -> None:
    _, location = located(tmp_path, relpath)
    found = finders(location, tmp_path / "home", besides=PROFILES[besides])
    assert finders_clause(found) == clause


@pytest.mark.parametrize("target", [t for t in TARGETS if PROFILES[t].scans_roots])
def test_a_file_no_runtime_of_the_target_finds_gets_one_finding(target: str,
                                                                tmp_path: Path) -> None:
    """Every target: a skill in a root it never scans (or, for `portable`, where none of its
    runtimes looks) gets exactly one SK002 finding and does not load."""
    relpath = {"wave": ".codex/skills/deploy/SKILL.md", "codex": ".wave/skills/deploy/SKILL.md",
               "portable": ".wave/skills/team/deploy/SKILL.md"}.get(
        target, ".wave/skills/deploy/SKILL.md")
    path, _ = located(tmp_path, relpath)
    report = check_file(path, Settings.for_target(target, home=tmp_path / "home"))
    assert [f.code for f in report.findings] == ["SK002"]
    assert report.verdict is not None and not report.verdict.loads
    assert report.verdict.stopped_by is not None and report.verdict.stopped_by.code == "SK002"
    runtime = PROFILES[target].runtime
    message = report.findings[0].message
    if target == "portable":  # who does not look there at all, then who not that deep
        assert message.startswith("Not discovered by Claude Code, Codex, Copilot, Cursor, "
                                  "OpenCode, Gemini CLI and Copilot CLI: they do not look for it "
                                  "in `.wave/skills`; "), message
        assert message.endswith("Not discovered by Wave: move it to `.wave/skills/<skill-name>/"
                                "SKILL.md` if it should load there. It looks only one level "
                                "down into `.wave/skills`."), message
    else:
        assert message.startswith(f"Not discovered by {runtime}: "), message
        assert f"{runtime}'s rules are not applied to it." in message


def test_a_deselected_sk002_still_decides_that_the_file_does_not_load(tmp_path: Path) -> None:
    path, _ = located(tmp_path, ".codex/skills/deploy/SKILL.md")
    report = check_file(path, Settings.for_target("claude-code", home=tmp_path / "home",
                                                  ignore=("SK002",)))
    assert report.findings == []
    assert report.verdict is not None and not report.verdict.loads


def test_a_gemini_skill_in_a_folder_it_does_not_trust(tmp_path: Path) -> None:
    """Gemini CLI loads workspace skills only in a trusted folder: it does not find this one,
    so its rules say nothing else of it (`workspace-trust`)."""
    path, _ = located(tmp_path, ".gemini/skills/deploy/SKILL.md")
    report = check_file(path, Settings.for_target("gemini-cli", home=tmp_path / "home",
                                                  workspace_trust="untrusted"))
    [finding] = report.findings
    assert finding.message.startswith("Not discovered by Gemini CLI: trust the project folder")
    assert report.verdict is not None and not report.verdict.loads


# -- does the runtime run the skill under its name? (`availability`, issue 39 item 4) -----------
def skill_text(name: str, *extra: str) -> str:
    return "".join(("---\n", f"name: {name}\n", "description: Does things. Use when asked.\n",
                    *(line + "\n" for line in extra), "---\nBody\n"))


@pytest.mark.parametrize(("target", "relpath", "text", "others", "kind"), [
    ("wave", ".wave/skills/a/SKILL.md", skill_text("a"), {}, None),
    # not found: Claude Code does not scan `.wave/skills`
    ("claude-code", ".wave/skills/a/SKILL.md", skill_text("a"), {}, "not-found"),
    # not loaded: Wave rejects an upper-case name (SK034)
    ("wave", ".wave/skills/a/SKILL.md", skill_text("A"), {}, "not-loaded"),
    # shadowed: OpenCode's `.opencode/skills` loads after `.agents/skills` and wins
    ("opencode", ".agents/skills/a/SKILL.md", skill_text("a"),
     {".opencode/skills/b/SKILL.md": skill_text("a")}, "shadowed"),
    # the winner runs
    ("opencode", ".opencode/skills/b/SKILL.md", skill_text("a"),
     {".agents/skills/a/SKILL.md": skill_text("a")}, None),
    # Codex loads both skills of a name; a plain `$a` selects neither
    ("codex", ".agents/skills/a/SKILL.md", skill_text("a"),
     {".codex/skills/b/SKILL.md": skill_text("a")}, "ambiguous"),
    # no command: `user-invocable` as each runtime reads it (`listing.invocation_flags`)
    ("wave", ".wave/skills/a/SKILL.md", skill_text("a", "user-invocable: false"), {},
     "no-command"),
    ("wave", ".wave/skills/a/SKILL.md", skill_text("a", "user-invocable: no"), {}, "no-command"),
    ("copilot", ".github/skills/a/SKILL.md", skill_text("a", "user-invocable: false"), {},
     "no-command"),
    # Codex ignores the field (0.171.0, case cx-dmi-ignored): `$a` runs it
    ("codex", ".agents/skills/a/SKILL.md", skill_text("a", "user-invocable: false"), {}, None),
    # Claude Code answers `/a` with a refusal of its own: the preview gives it (not wave-lsp's)
    ("claude-code", ".claude/skills/a/SKILL.md", skill_text("a", "user-invocable: false"), {},
     None),
])
def test_unavailable(target: str, relpath: str, text: str, others: dict[str, str],
                     kind: str | None, tmp_path: Path) -> None:
    from wave_lsp.core.checking.availability import invoke_loaded, unavailable
    from wave_lsp.core.parsing.document import SkillDocument

    (tmp_path / ".git").mkdir()
    for other, content in {relpath: text, **others}.items():
        (tmp_path / other).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / other).write_text(content, "utf-8")
    path = tmp_path / relpath
    settings = Settings.for_target(target, home=tmp_path / "home", personal=False)
    document = SkillDocument.from_text(text)
    location = locate(path, home=tmp_path / "home")
    found = unavailable(document, location, settings)
    assert (found.kind if found else None) == kind, found
    result = invoke_loaded(document, location, settings, "x")
    assert result.unavailable == kind
    assert (result.text is None) == (kind is not None or (target == "claude-code" and
                                     "user-invocable" in text))


@pytest.mark.parametrize(("link", "target", "found"), [
    # fraktor-rs's layout (sample 3): `.claude/skills/<name>` links to `.agents/skills/<name>`
    ("../../.agents/skills/review", "claude-code", True),
    (None, "claude-code", False),  # no link: Claude Code does not look in `.agents/skills`
    ("../../.agents/skills/other", "claude-code", False),  # a link of that name, elsewhere
    ("../../.agents/skills/review", "gemini-cli", True),  # it scans `.agents/skills` itself
])
def test_a_skill_a_root_links_to_is_found(tmp_path: Path, link: str | None, target: str,
                                          found: bool) -> None:
    """A runtime follows a symbolic link in its skills root (runtime-facts §3.4): the skill at
    the link's real path is found, its target's rules apply, and no SK002 says otherwise."""
    path, location = located(tmp_path, ".agents/skills/review/SKILL.md")
    (tmp_path / ".agents/skills/other").mkdir()
    if link is not None:
        (tmp_path / ".claude/skills").mkdir(parents=True)
        (tmp_path / ".claude/skills/review").symlink_to(link, target_is_directory=True)
    assert reach(PROFILES[target], location, home=tmp_path / "home").found is found
    report = check_file(path, Settings.for_target(target, home=tmp_path / "home"))
    assert ("SK002" in {f.code for f in report.findings}) is not found
