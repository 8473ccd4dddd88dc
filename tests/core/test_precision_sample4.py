"""Issue 37, the fourth unseen sample (benchmarks/RESULTS.md *Precision on a fourth unseen
sample*): each mechanism that made a false error or warning there, decided from the skill's own
words, its folders or the runtimes' facts, with the counterpart that stays reported (recall)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run

HEAD = "---\nname: {name}\ndescription: Makes weekly reports. Use when asked for one.\n---\n"


def codes(report, code: str) -> list:
    return [f for f in report.findings if f.code == code]


# -- SK150: an annotation or a decorator is code, not an `@` file --------------------------------
@pytest.mark.parametrize(("line", "reported"), [
    ("Use `@Acl(allow = @Acl.Matcher(principal = Acl.Principal.ALL))` on it.", False),
    ("Mark it `@Acl.Matcher` when internal.", False),
    ("Route it with `@app.route(\"/x\")` in Flask.", False),
    ("Read @docs/guide.md first.", True),
    ("Read @notes.md first.", True),
    ("Read @./Notes.Md first.", True),
])
def test_an_annotation_is_not_an_at_file(tmp_path: Path, line: str, reported: bool) -> None:
    text = HEAD.format(name="my-skill") + "\n" + line + "\n"
    found = codes(run(tmp_path, text, target="claude-code",
                      relpath=".claude/skills/my-skill/SKILL.md",
                      files={".git/HEAD": ""}), "SK150")
    assert bool(found) is reported, [f.message for f in found]


# -- SK112: a path of the user's project, not of the skill --------------------------------------
PROBE = "```bash\nls Makefile *.mk scripts/dev.sh 2>/dev/null\n```\n"
SETUP = "```bash\nmkdir -p scripts/ralph\ncp /path/to/ralph/ralph.sh scripts/ralph/\n```\n"


@pytest.mark.parametrize(("body", "files", "reported"), [
    (PROBE, {}, False),
    (PROBE + "\nFor every candidate `scripts/dev.sh`: read it first.\n", {}, False),
    ("```bash\nif [ -f scripts/dev.sh ]; then make dev; fi\n```\n", {}, False),
    (SETUP + "\nThen run:\n\n```bash\n./scripts/ralph/ralph.sh 25\n```\n", {}, False),
    ("Set up (creating `specs/`, `scripts/`, `logs/`), then:\n\n```bash\n"
     "./scripts/ralph-loop.sh 20\n```\n", {}, False),
    ("Sample grouping for a typical repo:\n\n- Auditor A: `scripts/AGENTS.md` + `x`\n", {},
     False),
    ("Copy `scripts/hook.sh` into your project.\n", {}, False),
    # the skill's own files stay reported
    ("```bash\nbash scripts/dev.sh 2>/dev/null\n```\n", {}, True),
    ("Run `python scripts/report.py` now.\n", {}, True),
    (SETUP + "\nThen run `python scripts/ralph/x.py`.\n", {"my-skill/scripts/other.py": ""},
     True),
    ("- Auditor A: `scripts/AGENTS.md` (run `python scripts/x.py`)\n", {}, True),
])
def test_a_path_of_the_users_project(tmp_path: Path, body: str, files: dict[str, str],
                                     reported: bool) -> None:
    text = HEAD.format(name="my-skill") + "\n" + body
    found = codes(run(tmp_path, text, files={".git/HEAD": "", **files}), "SK112")
    assert bool(found) is reported, [f.message for f in found]


# -- SK113: placeholders, and a collection installed whole --------------------------------------
@pytest.mark.parametrize(("link", "reported"), [
    ("![Phase 1](/path/to/phase1-recording.mp4)", False),
    ("[file](/home/<your-user>/notes.md)", False),
    ("[file](/etc/wave/settings.toml)", True),
])
def test_a_placeholder_path_is_not_a_file(tmp_path: Path, link: str, reported: bool) -> None:
    text = HEAD.format(name="my-skill") + "\nPost " + link + " in the PR.\n"
    found = codes(run(tmp_path, text, relpath="skills/my-skill/SKILL.md",
                      files={".git/HEAD": ""}), "SK113")
    assert bool(found) is reported, [f.message for f in found]


SIBLING = HEAD.format(name="plantuml") + "\nSee [layout](../mermaid/references/layout.md).\n"


@pytest.mark.parametrize(("files", "reported"), [
    # a README copies the whole collection into a skills root: the sibling comes along
    ({"ext-codex/README.md": "```bash\ncp -r /path/to/ext-codex/skills/* .agents/skills/\n```\n"},
     False),
    # the collection is part of a package of its own below the project root
    ({"ext-codex/opencode.json": "{}"}, False),
    # a README that copies one skill's folder alone: the sibling does not come along
    ({"ext-codex/README.md": "cp -r ext-codex/skills/plantuml ~/.claude/skills/\n"}, True),
    # nothing says how the folder is installed: it is installed alone
    ({}, True),
])
def test_a_sibling_link_in_a_collection_installed_whole(tmp_path: Path, files: dict[str, str],
                                                       reported: bool) -> None:
    found = codes(run(tmp_path, SIBLING, target="claude-code",
                      relpath="ext-codex/skills/plantuml/SKILL.md",
                      files={".git/HEAD": "", "ext-codex/skills/mermaid/SKILL.md": "x",
                             "ext-codex/skills/mermaid/references/layout.md": "x", **files}),
                  "SK113")
    assert bool(found) is reported, [f.message for f in found]


# -- the target of a SKILL.md outside every skills root (rules.md *The default target*) ----------
@pytest.mark.parametrize(("relpath", "files", "target"), [
    # a plugin of Codex's own format: Codex reads it
    ("plugins/x/skills/x/SKILL.md", {"plugins/x/.codex-plugin/plugin.json": "{}"}, "codex"),
    ("plugins/x/skills/x/SKILL.md", {"plugins/x/.cursor-plugin/plugin.json": "{}"}, "cursor"),
    # a README copies the collection into a skills root: that root's target
    ("ext/skills/x/SKILL.md", {"ext/README.md": "cp -r ext/skills/* .claude/skills/\n"},
     "claude-code"),
    ("ext/skills/x/SKILL.md", {"ext/README.md": "cp -r /path/to/ext/skills/* .agents/skills/\n"},
     "portable"),
    # everything else keeps the default: a repository that distributes skills
    ("skills/x/SKILL.md", {}, "wave"),
    ("skills/gpt-4/SKILL.md", {}, "wave"),
    ("examples/x/SKILL.md", {}, "wave"),
    ("ext/skills/x/SKILL.md", {"ext/README.md": "cp -r other/skills/* .claude/skills/\n"},
     "wave"),
])
def test_the_target_of_a_file_outside_every_root(tmp_path: Path, relpath: str,
                                                 files: dict[str, str], target: str) -> None:
    from wave_lsp.core.workspace.applies import target_for
    from wave_lsp.core.workspace.location import locate

    for name, content in {".git/HEAD": "", relpath: HEAD.format(name="x"), **files}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(content, "utf-8")
    assert target_for(locate(tmp_path / relpath, home=tmp_path / "home")).name == target


# -- SK039: a folder that keeps one version of the skill ----------------------------------------
@pytest.mark.parametrize(("relpath", "name", "level"), [
    ("misc/git-260611-0/SKILL.md", "git", "information"),
    ("misc/skman-0-5-0-old/SKILL.md", "skman", "information"),
    ("misc/rich-15-0-0/SKILL.md", "rich", "information"),
    # in a skills root the runtime compares the name with the folder as it lies
    (".github/skills/git-260611-0/SKILL.md", "git", "error"),
    # not a version of the name
    ("misc/gitlab/SKILL.md", "git", "error"),
])
def test_a_versioned_folder_outside_every_root(tmp_path: Path, relpath: str, name: str,
                                               level: str) -> None:
    found = codes(run(tmp_path, HEAD.format(name=name), target="copilot", relpath=relpath,
                      files={".git/HEAD": ""}), "SK039")
    assert [f.severity.name.lower() for f in found] == [level], [f.message for f in found]


# -- SK071: an invented field that shows the author means to restrict the skill -----------------
@pytest.mark.parametrize(("line", "restricting"), [
    ("visibility: internal", True),
    ("visibility: private", True),
    ("hidden: true", True),
    ("internal: true", True),
    ("listed: false", True),
    ("invokable: false", True),
    # what does not restrict: an ignored key as before (SK070, information)
    ("visibility: public", False),
    ("hidden: false", False),
    ("listed: true", False),
    ("category: internal", False),
])
def test_an_invented_restriction_names_the_fields_that_restrict(tmp_path: Path, line: str,
                                                               restricting: bool) -> None:
    """Information, not a warning: a collection may keep such a key on purpose (sample 4's
    Neplich, labelled false as a warning by the second, independent labeller)."""
    text = HEAD.format(name="my-skill").replace("---\n\n", "") \
        .replace("one.\n---", "one.\n" + line + "\n---")
    report = run(tmp_path, text, target="claude-code", relpath=".claude/skills/my-skill/SKILL.md",
                 files={".git/HEAD": ""})
    found = [f for f in report.findings if f.code in ("SK070", "SK071")]
    assert len(found) == 1, [f.message for f in found]
    if restricting:
        assert found[0].code == "SK071" and found[0].severity.name == "INFORMATION"
        assert "user-invocable: false" in found[0].message
        assert "disable-model-invocation: true" in found[0].message
    else:
        assert found[0].code == "SK070" and found[0].severity.name == "INFORMATION"


# -- SK130: per-runtime copies of one skill ----------------------------------------------------
BODY = "".join(f"Step {i}: do the thing number {i}.\n" for i in range(40))


@pytest.mark.parametrize(("other_body", "level"), [
    (BODY, "INFORMATION"),  # byte for byte the same
    (BODY.replace("Step 3:", "Step three:") + "One more line.\n", "INFORMATION"),  # a few lines
    ("Something else entirely.\n", "WARNING"),  # two skills of one name: the winner hides one
])
def test_per_runtime_copies_give_the_same_instructions(tmp_path: Path, other_body: str,
                                                       level: str) -> None:
    mine = HEAD.format(name="audit") + "\n" + BODY
    other = HEAD.format(name="audit") + "\n" + other_body
    report = run(tmp_path, mine, target="copilot", relpath=".github/skills/audit/SKILL.md",
                 files={".git/HEAD": "", ".claude/skills/audit/SKILL.md": other})
    found = codes(report, "SK130")
    assert [f.severity.name for f in found] == [level], [f.message for f in found]


# -- SK002: a nested skill the project's instructions name by path ------------------------------
@pytest.mark.parametrize(("agents_md", "level"), [
    ("Read `.agents/skills/tools/jira/SKILL.md` before any Jira work.\n", "INFORMATION"),
    ("Use the skills in this repository.\n", "WARNING"),
])
def test_a_nested_skill_read_by_path(tmp_path: Path, agents_md: str, level: str) -> None:
    report = run(tmp_path, HEAD.format(name="jira"), target="portable",
                 relpath=".agents/skills/tools/jira/SKILL.md",
                 files={".git/HEAD": "", "AGENTS.md": agents_md})
    found = codes(report, "SK002")
    assert [f.severity.name for f in found] == [level], [f.message for f in found]



# -- a SKILL.md kept rather than used: one information finding when no target is configured -----
@pytest.mark.parametrize(("relpath", "kept"), [
    ("specs/archive/inbox/skills/x/SKILL.md", True),
    ("misc/git-260611-0/SKILL.md", True),
    ("misc/rich-15-0-0/SKILL.md", True),
    ("old/x/SKILL.md", True),
    ("skills/x/SKILL.md", False),
    ("skills/gpt-4/SKILL.md", False),
    (".agents/skills/archive/x/SKILL.md", False),  # in a skills root: SK002 says who finds it
])
def test_a_skill_kept_rather_than_used(tmp_path: Path, relpath: str, kept: bool) -> None:
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings

    text = HEAD.format(name="x").replace("one.\n---", "one.\nauthor: me\n---") + \
        "\nCosts $1.5 per run: `echo $1`.\n"
    path = tmp_path / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    (tmp_path / ".git").mkdir()
    settings = Settings(auto_target=True, home=tmp_path / "home", personal=False)
    report = check_file(path, settings, strict=True)
    found = [(f.code, f.severity.name) for f in report.findings]
    if kept:
        assert found == [("SK002", "INFORMATION")], found
        assert "kept, not used" in report.findings[0].message
        # a target given on purpose checks it as that runtime reads it
        explicit = check_file(path, Settings.for_target("wave", home=tmp_path / "home"),
                              strict=True)
        assert any(f.code != "SK002" for f in explicit.findings)
    else:
        assert not any("kept, not used" in f.message for f in report.findings), found


# -- SK002 "Not discovered by …": a fact of the root, said once --------------------------------
def test_a_root_the_target_does_not_scan_is_said_once(tmp_path: Path) -> None:
    files = {".git/HEAD": ""}
    for name in ("alpha", "beta", "gamma"):
        files[f".agents/skills/{name}/SKILL.md"] = HEAD.format(name=name)
    said = {}
    for name in ("alpha", "beta", "gamma"):
        report = run(tmp_path, HEAD.format(name=name), target="claude-code",
                     relpath=f".agents/skills/{name}/SKILL.md", files=files)
        said[name] = [f.message for f in report.findings if f.code == "SK002"]
        assert not report.verdict.loads
    assert len(said["alpha"]) == 1 and "its 2 other skills are not discovered" in said["alpha"][0]
    assert said["beta"] == said["gamma"] == []


def test_a_skill_too_deep_is_told_on_its_own(tmp_path: Path) -> None:
    files = {".git/HEAD": "", ".agents/skills/alpha/SKILL.md": HEAD.format(name="alpha")}
    report = run(tmp_path, HEAD.format(name="zeta"), target="claude-code",
                 relpath=".claude/skills/group/zeta/SKILL.md", files=files)
    assert [f.code for f in report.findings if f.code == "SK002"] == ["SK002"]


# -- SK056: a collection's descriptions that name the task, said once ---------------------------
def test_no_trigger_is_said_once_per_collection(tmp_path: Path) -> None:
    head = "---\nname: {name}\ndescription: Creates the {name} record of a project.\n---\n"
    files = {".git/HEAD": ""}
    for name in ("alpha", "beta", "gamma"):
        files[f".claude/skills/{name}/SKILL.md"] = head.format(name=name)
    files[".claude/skills/delta/SKILL.md"] = HEAD.format(name="delta")  # says when
    said = {}
    for name in ("alpha", "beta", "gamma"):
        report = run(tmp_path, head.format(name=name), target="claude-code",
                     relpath=f".claude/skills/{name}/SKILL.md", files=files)
        said[name] = [f.message for f in report.findings if f.code == "SK056"]
    assert len(said["alpha"]) == 1 and "2 other skills have no *when*" in said["alpha"][0]
    assert said["beta"] == said["gamma"] == []


def test_kept_skills_are_said_once_per_folder(tmp_path: Path) -> None:
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings

    (tmp_path / ".git").mkdir()
    names = ("git-1-0-0", "rich-15-0-0", "zlib-2-1-0", "ralph")  # `ralph` is no version
    for name in names:
        path = tmp_path / "misc" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(HEAD.format(name=name.split("-")[0]), "utf-8")
    settings = Settings(auto_target=True, home=tmp_path / "home", personal=False)
    reports = {name: check_file(tmp_path / "misc" / name / "SKILL.md", settings, strict=True)
               for name in names}
    said = {name: [f.message for f in r.findings if "kept, not used" in f.message]
            for name, r in reports.items()}
    assert len(said["git-1-0-0"]) == 1 and "its 2 other skill folders" in said["git-1-0-0"][0]
    assert said["rich-15-0-0"] == said["zlib-2-1-0"] == said["ralph"] == []
    assert not reports["rich-15-0-0"].verdict.loads  # kept: not loaded, said on the first
    assert reports["ralph"].verdict.loads  # checked as before (no version in its name)
