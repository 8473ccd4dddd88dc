"""Issue 27 (precision on repositories never seen), second round: true problems that the
confidence cap had demoted to information, each brought back by what the skill's own words or
folders say, with its counterpart that stays a guess (docs/design/rules.md *Severity policy*;
the figures in benchmarks/RESULTS.md *Precision on repositories never seen*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.checking.catalog import Confidence, Severity

HEAD = "---\nname: {name}\ndescription: Makes weekly reports. Use when asked for one.\n---\n"


def codes(report, code: str) -> list:
    return [f for f in report.findings if f.code == code]


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


# -- SK112: a bare path the skill tells the model to open or run -------------------------------

@pytest.mark.parametrize(("body", "files", "confidence"), [
    # the skill keeps its own files in that folder: a missing one is a file it lacks
    ("Details are in `references/adr_template.md`.\n", {"references/other.md": "x"},
     Confidence.LIKELY),
    # a command runs or reads it
    ("```bash\npython3 scripts/report.py --out x\n```\n", {}, Confidence.LIKELY),
    ("```bash\nscripts/validate.sh agents/x.md\n```\n", {}, Confidence.LIKELY),
    ("```bash\ncd x && ./scripts/transcribe audio.mp3\n```\n", {}, Confidence.LIKELY),
    # a Python module run with -m is given the script to run (issue 27)
    ("```bash\nuv run python -m runtime.harness scripts/z3_solve.py prove x\n```\n", {},
     Confidence.LIKELY),
    ("```bash\npython3 -u -m pytest scripts/check_x.py\n```\n", {}, Confidence.LIKELY),
    # the module is run, the path only follows it on the line: still a guess
    ("```bash\npython -m build && ls scripts/dist.py\n```\n", {}, Confidence.HEURISTIC),
    ("Check it with `cat references/limits.md`.\n", {}, Confidence.LIKELY),
    # an instruction in prose names it
    ("Read `references/api.md` before you start.\n", {}, Confidence.LIKELY),
    ("Edit `assets/styles.css` to change the colours.\n", {}, Confidence.LIKELY),
    # nothing says it is a file of the skill: a guess
    ("The numbers come with `scripts/extract.py`.\n", {}, Confidence.HEURISTIC),
    ("```\n@library ./assets/stickers\n```\n", {}, Confidence.HEURISTIC),
    ("| R | `scripts/R/_outputs/` | readRDS |\n", {}, Confidence.HEURISTIC),
    # what the skill produces is no file it has, even where it has the folder
    ("The emitted `references/hard-sync.md` carries placeholders.\n",
     {"references/other.md": "x"}, Confidence.HEURISTIC),
    ("The generated `assets/chart.png` shows the trend.\n", {}, Confidence.HEURISTIC),
])
def test_a_bare_path_is_likely_when_the_skill_says_it_is_its_file(
        tmp_path: Path, body: str, files: dict[str, str], confidence: Confidence) -> None:
    write(tmp_path / "my-skill", files)
    report = run(tmp_path, HEAD.format(name="my-skill") + body, target="claude-code")
    (finding,) = codes(report, "SK112")
    assert finding.certainty is confidence
    expected = Severity.WARNING if confidence is Confidence.LIKELY else Severity.INFORMATION
    assert finding.severity == expected


def test_a_guide_to_writing_skills_names_other_skills_files(tmp_path: Path) -> None:
    """A skill about writing skills shows `scripts/helper.py` as what a skill may hold: even
    "Run `python scripts/helper.py`" there is an example, so it stays a guess."""
    text = ("---\nname: skill-creator\ndescription: Guide for creating effective skills. Use when "
            "writing a skill.\n---\nRun `python scripts/helper.py` to validate.\n")
    write(tmp_path / "my-skill", {"scripts/other.py": "x"})
    (finding,) = codes(run(tmp_path, text, target="claude-code"), "SK112")
    assert finding.certainty is Confidence.HEURISTIC


GUIDE_HEAD = ("---\nname: skill-creator\ndescription: Guide for creating effective skills. Use "
              "when writing a skill.\n---\n")


@pytest.mark.parametrize(("body", "confidence"), [
    # the guide's own prose tells the model to open its file (openai/skills' skill-creator)
    ("- **Multi-step processes**: See references/workflows.md for sequential workflows\n",
     Confidence.LIKELY),
    ("Consult references/output-patterns.md before you write the output section.\n",
     Confidence.LIKELY),
    # the same words in code are an example of what a skill may say
    ("- **Multi-step processes**: See `references/workflows.md` for sequential workflows\n",
     Confidence.HEURISTIC),
    ("```bash\ncat references/workflows.md\n```\n", Confidence.HEURISTIC),
    # prose that names a path without telling the model to open it
    ("A skill may keep references/workflows.md beside its SKILL.md.\n", Confidence.HEURISTIC),
    # prose about a file the new skill gets
    ("See the generated references/workflows.md for the layout.\n", Confidence.HEURISTIC),
])
def test_a_guide_to_writing_skills_may_tell_the_model_to_open_its_own_file(
        tmp_path: Path, body: str, confidence: Confidence) -> None:
    (finding,) = codes(run(tmp_path, GUIDE_HEAD + body, target="claude-code"), "SK112")
    assert finding.certainty is confidence


# -- SK002: a skill nested in a category folder is not loaded -----------------------------------

@pytest.mark.parametrize(("relpath", "files", "level"), [
    (".claude/skills/expertise/iphone-apps/SKILL.md", {}, Severity.WARNING),
    (".claude/skills/math/topology/compactness/SKILL.md", {}, Severity.WARNING),
    (".claude/skills/i18n/planning-ar/SKILL.md", {}, Severity.INFORMATION),
    (".claude/skills/deprecated/qa/SKILL.md", {}, Severity.INFORMATION),
    (".claude/skills/in-progress/wizard/SKILL.md", {}, Severity.INFORMATION),
    # a part of another skill: `video-sdk/macos/` beside `video-sdk/SKILL.md`
    (".claude/skills/video-sdk/macos/SKILL.md",
     {".claude/skills/video-sdk/SKILL.md": HEAD.format(name="video-sdk")}, Severity.INFORMATION),
])
def test_a_nested_skill_is_a_warning_unless_kept_out_on_purpose(
        tmp_path: Path, relpath: str, files: dict[str, str], level: Severity) -> None:
    write(tmp_path, files)
    name = relpath.split("/")[-2]
    (finding,) = codes(run(tmp_path, HEAD.format(name=name), relpath=relpath,
                           target="claude-code"), "SK002")
    assert finding.severity == level and "not loaded" in finding.message


@pytest.mark.parametrize(("body", "confidence"), [
    # the skill's inventory of its files: a list item or a table cell that is the path
    ("## Files\n\n- `scripts/flash.py` — esptool wrapper\n", Confidence.LIKELY),
    ("- scripts/budget_calculator.py: Calculate budgets\n", Confidence.LIKELY),
    ("| SAST | `references/sast-tools.md` | Running scans |\n", Confidence.LIKELY),
    # a command in inline code: the path starts the span and gets arguments
    ("| JSON | `./scripts/transcribe audio.mp3 --json` | output |\n", Confidence.LIKELY),
    # a folder in a table may be one the skill makes; a path in the middle of a cell is no entry
    ("| R | `scripts/R/_outputs/` | readRDS |\n", Confidence.HEURISTIC),
    ("| R | results under `scripts/out.rds` and more | x |\n", Confidence.HEURISTIC),
])
def test_a_skills_inventory_of_its_files(tmp_path: Path, body: str,
                                         confidence: Confidence) -> None:
    report = run(tmp_path, HEAD.format(name="my-skill") + body, target="claude-code")
    (finding,) = codes(report, "SK112")
    assert finding.certainty is confidence


# -- SK150: a guide's `@` files are attached like any other ------------------------------------

@pytest.mark.parametrize("description", [
    "Interactive assistant for creating new Claude commands. Use when asked.",
    "Makes weekly reports. Use when asked for one.",
])
def test_at_references_in_a_guide_are_attached_too(tmp_path: Path, description: str) -> None:
    """"CRITICAL: Read the command creation guide first: @/docs/claude-commands-guide.md" in a
    guide to writing commands: Claude Code attaches it when the skill is invoked, and the file
    exists nowhere (labelled-2's reviewer: a true problem)."""
    text = (f"---\nname: my-skill\ndescription: {description}\n---\n"
            "CRITICAL: Read the command creation guide first: @/docs/claude-commands-guide.md\n")
    (finding,) = codes(run(tmp_path, text, target="claude-code"), "SK150")
    assert finding.severity == Severity.WARNING


# -- SK115: a `$1` under the skill's own input heading, in a skill that never uses `$0` ----------

@pytest.mark.parametrize(("body", "warned"), [
    ("### Step 1: Parse Arguments\n\nExtract from user input:\n```\nFOCUS=$1\n```\n", True),
    ("### Step 1: Parse Arguments\n\n```\nNAME=$0\nFOCUS=$1\n```\n", False),
    ("## Example\n\n```\nFOCUS=$1\n```\n", False),  # nothing says it is this skill's input
])
def test_a_skill_counting_from_one_under_its_input_heading(tmp_path: Path, body: str,
                                                           warned: bool) -> None:
    report = run(tmp_path, HEAD.format(name="research") + body, target="claude-code")
    hits = [f for f in codes(report, "SK115") if "never uses `$0`" in f.message]
    assert bool(hits) == warned
    assert all(f.severity == Severity.WARNING for f in hits)


# -- SK117: a plugin variable a guide to writing commands means as written ---------------------

GUIDE = ("---\nname: create-workflow-command\ndescription: Create a workflow command that runs "
         "steps through sub-agents. Use when asked for one.\n---\n")
AGENT = ("---\nname: do-in-steps\ndescription: Execute a task as ordered steps run by sub-agents. "
         "Use when asked.\n---\n")
HOOKS = ("---\nname: hook-development\ndescription: Creates and configures event-driven hooks in "
         "Claude Code plugins. Use when adding hooks to a plugin.\n---\n")
MARKDOWN_TEMPLATE = "The command file:\n\n```markdown\nRead ${CLAUDE_PLUGIN_ROOT}/tasks/a.md\n```\n"
MENTION = "Use `${CLAUDE_PLUGIN_ROOT}` for portable paths within a plugin.\n"


@pytest.mark.parametrize(("head", "body", "severity"), [
    # a guide shows or writes a plugin's command file: the literal is its content
    (GUIDE, MARKDOWN_TEMPLATE, Severity.INFORMATION),
    (GUIDE, "````md\n---\ndescription: x\n---\nRun ${CLAUDE_PLUGIN_ROOT}/s.sh\n````\n",
     Severity.INFORMATION),
    # a guide names the variable on its own
    (GUIDE, MENTION, Severity.INFORMATION),
    # a guide's own step the model carries out: the path must work
    (GUIDE, "```bash\nmkdir -p ${CLAUDE_PLUGIN_ROOT}/tasks\n```\n", Severity.WARNING),
    (GUIDE, "1. **Directories**:\n   - `${CLAUDE_PLUGIN_ROOT}/tasks/` - task files\n",
     Severity.WARNING),
    # in other skills a Markdown block is a prompt for a sub-agent, and a mention asks for the
    # value: both must work
    (AGENT, MARKDOWN_TEMPLATE, Severity.WARNING),
    (AGENT, "Provide the value of `${CLAUDE_PLUGIN_ROOT}` to each agent.\n", Severity.WARNING),
    (AGENT, "Pass CLAUDE_PLUGIN_ROOT=`${CLAUDE_PLUGIN_ROOT}` to the judge.\n", Severity.WARNING),
    # issue 37 (sample 5): a mention is a mention in any skill, and a guide to writing plugins
    # shows the reader's hooks.json or hook script
    (AGENT, "The scripts are pinned to `${CLAUDE_PLUGIN_ROOT}` - the plugin's copy.\n",
     Severity.INFORMATION),
    (AGENT, "**Always use ${CLAUDE_PLUGIN_ROOT}**: never hardcode paths.\n", Severity.INFORMATION),
    (AGENT, "Templates are in `${CLAUDE_PLUGIN_ROOT}/templates/`.\n", Severity.WARNING),
    (AGENT, '```json\n{"command": "${CLAUDE_PLUGIN_ROOT}/s.sh"}\n```\n', Severity.WARNING),
    (HOOKS, '```json\n{"command": "${CLAUDE_PLUGIN_ROOT}/s.sh"}\n```\n', Severity.INFORMATION),
    (HOOKS, "```bash\n#!/bin/bash\nsource \"${CLAUDE_PLUGIN_ROOT}/lib/x.sh\"\n```\n",
     Severity.INFORMATION),
    (HOOKS, "```bash\nbash ${CLAUDE_PLUGIN_ROOT}/lib/x.sh\n```\n", Severity.WARNING),
])
def test_a_plugin_variable_outside_a_plugin_is_a_guess_only_where_a_guide_shows_it(
        tmp_path: Path, head: str, body: str, severity: Severity) -> None:
    report = run(tmp_path, head + body, target="claude-code")
    (finding,) = codes(report, "SK117")
    assert finding.severity == severity
    assert ("nothing is wrong" in finding.message) is (severity == Severity.INFORMATION)


@pytest.mark.parametrize(("body", "severity"), [
    ("Use `${CLAUDE_SKILL_DIR}` to reference bundled files.\n", Severity.INFORMATION),
    ("Read `${CLAUDE_SKILL_DIR}/references/a.md` first.\n", Severity.WARNING),
])
def test_a_variable_the_target_lacks_is_a_guess_where_it_is_only_named(
        tmp_path: Path, body: str, severity: Severity) -> None:
    """The same decision under a target that has no such variable (`portable`, `.agents/skills`
    copies in sample 5): a mention is information, a path stays a warning."""
    report = run(tmp_path, AGENT + body, target="portable")
    (finding,) = codes(report, "SK117")
    assert finding.severity == severity
    assert ("nothing is wrong" in finding.message) is (severity == Severity.INFORMATION)


@pytest.mark.parametrize(("name", "description", "guide"), [
    ("hook-development", "Creates and configures event-driven hooks in Claude Code plugins.", True),
    ("mcp-integration", "Configures MCP servers in Codex plugins (.mcp.json).", True),
    ("plugin-structure", 'Use when the user asks to "create a plugin" or "use ${CLAUDE_PLUGIN_ROOT}".',
     True),
    ("authoring-agents", "Use when writing or editing a subagent .md for Claude Code.", True),
    ("addon-development", "Use when creating Godot editor plugins and @tool scripts.", False),
    ("neural-network-builder", "Construct and configure neural network architectures using the "
     "neural-network-builder plugin of Claude Code.", False),
    ("git-cleanup", "Delete merged branches and prune remotes (a Claude Code skill).", False),
])
def test_a_guide_to_writing_plugins_is_known_by_its_name_and_description(
        name: str, description: str, guide: bool) -> None:
    from wave_lsp.core.rules.helpers import about_writing_plugins

    assert about_writing_plugins(name, description) is guide


# -- a test suite's data: one information finding under every target (issue 37, sample 5) -------
@pytest.mark.parametrize(("relpath", "fixture"), [
    ("./tests/bridges/_fixtures/skill-no-description/SKILL.md", True),
    ("./tests/fixtures/market/plugins/p/skills/x/SKILL.md", True),
    ("testdata/x/SKILL.md", True),
    ("evals/rulebook/workspace/iteration-1/outputs/x/SKILL.md", True),
    ("skills/x/SKILL.md", False),
    ("skills/test/SKILL.md", False),  # a skill named `test`
    ("evals/x/SKILL.md", False),
    ("./tests/.claude/skills/x/SKILL.md", False),  # a skills root of the project
])
@pytest.mark.parametrize("target", [None, "claude-code"])
def test_a_test_suites_skill_is_said_once_not_checked(tmp_path: Path, relpath: str,
                                                      fixture: bool, target: str | None) -> None:
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings

    (tmp_path / ".git").mkdir()
    if "/plugins/p/" in relpath:
        manifest = tmp_path / relpath.split("/skills/")[0] / ".claude-plugin" / "plugin.json"
        manifest.parent.mkdir(parents=True)
        manifest.write_text('{"name": "p"}', "utf-8")
    path = tmp_path / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("---\nname: No_Desc\n---\nBody.\n", "utf-8")  # malformed on purpose
    settings = (Settings(auto_target=True, home=tmp_path / "home", personal=False)
                if target is None else
                Settings.for_target(target, home=tmp_path / "home", personal=False))
    report = check_file(path, settings, strict=True)
    found = [(f.code, f.severity.name) for f in report.findings]
    if fixture:
        assert found == [("SK002", "INFORMATION")], found
        assert "a test suite's data" in report.findings[0].message
        assert not report.verdict.loads
    else:
        assert not any("test suite" in f.message for f in report.findings), found
        assert any(f.severity.name in ("ERROR", "WARNING") for f in report.findings), found


def test_a_variable_meant_as_written_is_said_once_per_skill(tmp_path: Path) -> None:
    """Issue 37: a guide's many mentions of one variable are one information finding that says
    how many it stands for; a use (a path) is still reported each time."""
    body = ("Use `${CLAUDE_PLUGIN_ROOT}` for paths.\n\n**Always use ${CLAUDE_PLUGIN_ROOT}**.\n\n"
            "Pinned to `${CLAUDE_PLUGIN_ROOT}`.\n\nRun `${CLAUDE_PLUGIN_ROOT}/a.sh` and "
            "`${CLAUDE_PLUGIN_ROOT}/b.sh`.\n")
    report = run(tmp_path, AGENT + body, target="claude-code")
    found = codes(report, "SK117")
    quiet = [f for f in found if f.severity == Severity.INFORMATION]
    assert len(quiet) == 1 and "2 other mentions of `${CLAUDE_PLUGIN_ROOT}`" in quiet[0].message
    assert len([f for f in found if f.severity == Severity.WARNING]) == 2


def test_a_test_suite_is_said_once(tmp_path: Path) -> None:
    """Issue 37: the fixtures of one test folder are one fact, said on the first by path."""
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings

    (tmp_path / ".git").mkdir()
    paths = [tmp_path / p for p in ("./tests/a/_fixtures/one/SKILL.md", "./tests/b/two/SKILL.md",
                                    "./tests/b/deep/three/SKILL.md")]
    for path in paths:
        path.parent.mkdir(parents=True)
        path.write_text("---\nname: x\n---\nBody.\n", "utf-8")
    settings = Settings(auto_target=True, home=tmp_path / "home", personal=False)
    said = [[f.message for f in check_file(path, settings, strict=True).findings]
            for path in paths]
    assert len(said[0]) == 1 and "its 2 other skill folders" in said[0][0]
    assert said[1] == said[2] == []
