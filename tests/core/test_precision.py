"""Issue 16 (precision on real skills): each mechanism behind a false finding on the real-skills
corpus, with a skill written the way real skills are written. The corpus figures are in
benchmarks/precision/ and benchmarks/RESULTS.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE
from wave_lsp.core.permissions.readonly import is_read_only, table

HEAD = "---\nname: {name}\ndescription: Reviews the working tree. Use when asked to review.\n---\n"


def head(name: str = "my-skill") -> str:
    return HEAD.format(name=name)


def found(report, code: str) -> list:
    return [f for f in report.findings if f.code == code]


# -- read-only commands ---------------------------------------------------------------------

@pytest.mark.parametrize("command", ["git status", "git diff HEAD", "git log --oneline -5", "ls",
                                     "pwd", "wc -l README.md", "git branch --show-current",
                                     "git rev-parse --show-toplevel", "ls -d drivers/",
                                     "git log --oneline -10", "git tag --sort=-version:refname",
                                     "head -60 meson_options.txt", "date +%Y-%m-%d",
                                     "git diff --stat HEAD~3..HEAD", "cat package.json"])
def test_read_only_commands_under_claude_code(command: str) -> None:
    assert is_read_only(command.split(), CLAUDE_CODE)
    assert not is_read_only(command.split(), WAVE)  # Wave's permission manager has no such class


@pytest.mark.parametrize("command", ["git push", "git branch feature", "git remote add o u",
                                     "find . -delete", "sort -o out.txt in.txt", "rm -rf build",
                                     "cat ~/.ssh/id_rsa", "cat ../secrets.env", "npm test",
                                     "git diff --output=patch.diff", "cat $FILE"])
def test_commands_that_are_not_read_only(command: str) -> None:
    assert not is_read_only(command.split(), CLAUDE_CODE)


def test_the_read_only_table_says_where_it_comes_from() -> None:
    assert "Claude Code" in table().source and table().checked[:4].isdigit()


BODY = ("## Context\n\n- Status: !`git status`\n- Diff: !`git diff HEAD`\n"
        "- Recent: !`git log --oneline -5`\n\nReview the changes above.\n")


def test_git_context_injections_run_under_claude_code(tmp_path: Path) -> None:
    report = run(tmp_path, head() + BODY, target="claude-code")
    assert found(report, "SK123") == []
    assert all("read-only" in f.message for f in found(report, "SK120"))


def test_git_context_injections_run_under_wave(tmp_path: Path) -> None:
    """Wave's default allow rules (`Bash(git status*)`, `Bash(git diff*)`, `Bash(git log*)`,
    runtime-facts §8.12) run them with no rule."""
    report = run(tmp_path, head() + BODY, target="wave")
    assert found(report, "SK123") == []
    assert all("built-in rule" in f.message for f in found(report, "SK120"))


def test_reading_outside_the_project_still_needs_a_rule(tmp_path: Path) -> None:
    report = run(tmp_path, head() + "Soul: !`cat ~/.claude/skills/slack/soul.md`\n",
                 target="claude-code")
    assert len(found(report, "SK123")) == 1


def test_compound_read_only_command_is_not_reported(tmp_path: Path) -> None:
    body = "Boards: !`ls platform/ 2>/dev/null; ls scripts/ 2>/dev/null`\n"
    report = run(tmp_path, head() + body, target="claude-code")
    assert found(report, "SK123") == [] and found(report, "SK125") == []


def test_an_unquoted_glob_is_read_only_only_where_its_files_are(tmp_path: Path) -> None:
    # Claude Code 2.1.332 checks the unquoted globs of path-reading commands (`ls`, `cat`,
    # `grep`, …) instead of refusing them as 2.1.88 did; wave-lsp expands the glob where the
    # command runs and refuses a match that leads out of the project or is named like an option
    body = ("Boards: !`ls platform/*/cross.ini 2>/dev/null`\nDocs: !`find docs -name '*.md'`\n"
            "Sorted: !`sort platform/*.txt`\nAll: !`grep -r x *`\nOps: !`cat ops/*`\n")
    folder = tmp_path / "my-skill"  # no project root: commands run in the skill's folder
    (folder / "ops").mkdir(parents=True)
    (folder / "ops" / "-R").write_text("", "utf-8")  # `ops/-R` is a file name, not an option
    (folder / "-R").write_text("", "utf-8")
    report = run(tmp_path, head() + body, target="claude-code")
    # `sort` is no path-reading command: Claude Code refuses its glob (an SK123 error, in its
    # own words); `grep -r x *` matching a file `-R`: whether Claude Code checks a match named
    # like an option cannot be told (an SK123 warning that says so)
    by_line = {f.range.start.line: f for f in found(report, "SK123")}
    assert sorted(by_line) == [6, 7], [f.message for f in by_line.values()]
    assert "This command requires approval" in by_line[6].message
    assert "cannot tell" in by_line[7].message.lower() and "read as an option" in by_line[7].message


def test_no_compound_warning_when_bash_is_granted(tmp_path: Path) -> None:
    text = head().replace("---\n\n", "---\n", 1).replace(
        "\n---\n", "\nallowed-tools: Bash\n---\n", 1)
    report = run(tmp_path, text + "Build: !`make clean && make`\n", target="claude-code")
    assert found(report, "SK125") == [] and found(report, "SK123") == []


# -- references ------------------------------------------------------------------------------

def write(root: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content, "utf-8")


def test_script_at_the_plugin_root_resolves(tmp_path: Path) -> None:
    write(tmp_path, {"plugins/gws/.claude-plugin/plugin.json": '{"name": "gws"}',
                     "plugins/gws/scripts/gws/auto-setup.sh": "#!/bin/sh\n"})
    report = run(tmp_path, head("gws-setup") + "Run `bash scripts/gws/auto-setup.sh` first.\n",
                 relpath="plugins/gws/skills/gws-setup/SKILL.md")
    # no broken reference; issue 37: information that it runs in the user's project, with the
    # `${CLAUDE_PLUGIN_ROOT}` path as the fix (labels.tsv: the warning was false)
    (finding,) = found(report, "SK112")
    assert finding.severity == Severity.INFORMATION
    assert "${CLAUDE_PLUGIN_ROOT}/scripts/gws/auto-setup.sh" in finding.message


def test_path_from_the_project_root_resolves(tmp_path: Path) -> None:
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "scripts/check-patch.sh": "#!/bin/sh\n"})
    report = run(tmp_path, head("build-test") + "```bash\nscripts/check-patch.sh\n```\n",
                 relpath=".claude/skills/build-test/SKILL.md")
    assert found(report, "SK112") == []


def test_base_dir_links_resolve_in_the_skill_folder(tmp_path: Path) -> None:
    write(tmp_path, {"fp-check/references/bug-class-verification.md": "# Bug classes\n"})
    body = "See [{baseDir}/references/bug-class-verification.md](" \
           "{baseDir}/references/bug-class-verification.md).\n"
    report = run(tmp_path, head("fp-check") + body, relpath="fp-check/SKILL.md")
    assert found(report, "SK112") == []


def test_a_guides_example_files_are_not_references(tmp_path: Path) -> None:
    body = ("### Bundled resources\n\n- **Example**: `scripts/rotate_pdf.py` for PDF rotation\n"
            "- **Examples**: `references/finance.md` for schemas, `assets/logo.png` for brand\n"
            "- Loading references: if instructions mention files (like `references/api_docs.md`), "
            "Claude reads them.\n")
    report = run(tmp_path, head("skill-creator") + body, relpath="skill-creator/SKILL.md")
    assert found(report, "SK112") == []


def test_a_missing_file_the_model_is_told_to_read_is_reported(tmp_path: Path) -> None:
    body = "For detailed guidance, refer to `references/timeline_planning.md`.\n"
    report = run(tmp_path, head("research-grants") + body, relpath="research-grants/SKILL.md")
    assert len(found(report, "SK112")) == 1


GUIDE = ("---\nname: skill-creator\ndescription: Guide for creating effective skills. Use when "
         "users want to create a new skill.\n---\n")

#: (skill head, body) written as the corpus skills write them, where the path names no file of
#: this skill, paired below with a near-identical body where it does and must still be reported
NOT_REFERENCES = {
    "guide, example lead-in": (GUIDE, "Example: When building a `pdf-editor` skill, the analysis "
                               "shows:\n\n1. Rotating a PDF needs the same code each time\n"
                               "2. A `scripts/rotate_pdf.py` script would be helpful to store\n"),
    "guide, file list": (GUIDE, "**Keep SKILL.md lean.** Move detailed content to references/:\n"
                         "- Detailed patterns → `references/patterns.md`\n"),
    "guide, hypothetical skill": (GUIDE, "**For plugins:** When building a hooks skill, the "
                                  "analysis shows:\n1. Developers need to test hook scripts\n"
                                  "2. `scripts/test-hook.sh` utilities would be helpful\n"),
    "another skill's code block": (GUIDE, "**Example workflow:**\n```\n1. Claude: bash: read "
                                   "pdf-skill/SKILL.md\n2. Claude: bash: python "
                                   "scripts/extract_tables.py input.pdf\n```\n"),
    "slash-joined words in prose": (head("notion-capture"), "- For how-tos, capture steps, "
                                    "pre-reqs, links to assets/code, and edge cases.\n"),
    "link text naming another target": (head("subagent-driven-development"), "See [`references/"
                                        "continuous-mode.md`](../using-loom-code/references/"
                                        "continuous-mode.md).\n"),
    "another skill's file (possessive)": (head("wiki-update"), "Check-id semantics live in "
                                          "wiki-lint's `references/lint-checks.md` (SSOT).\n"),
    "another skill's file (named skill)": (head("backlog-templates"), "* RAI Planner "
                                           "(`rai-planner` skill `references/backlog-handoff.md`)\n"),
    "a file the target gets": (head("superreview-setup"), "- the scope template, emitted as the "
                               "target's `references/scope.md`\n"),
    "a write destination": (head("skill-refactor"), "- Candidate move: extract the section "
                            "(~700 words) to `references/description-optimization.md`\n"),
    "an emitted file": (head("superreview-setup"), "| Scope reference | `references/scope.md` "
                        "(always emitted) | baseline + ownership |\n"),
    "an output folder": (head("fuzzing-apis"), "Document findings in {baseDir}/test-reports/:\n"),
    "a copy's destination": (head("workers-publish"), "```bash\ncp \"$(skill-path)/scripts/"
                             "publish_static.sh\" scripts/publish_myproject.sh\n```\n"),
    "a sibling's file map": (head("slack-respond"), "| File | Role |\n|---|---|\n"
                             "| `slack-respond/SKILL.md` | Pipeline definition |\n"
                             "| `scripts/slack_format.py` | XML tag definitions |\n"),
    "a file-name pattern": (head("actions-auditor"), "and the vector files "
                            "`{baseDir}/references/vector-{a..i}-*.md` for heuristics.\n"),
}

#: the same shapes where the path is a file of this skill that is missing: still reported
STILL_REFERENCES = {
    "guide, example lead-in": (GUIDE, "Consult these guides:\n\n- **Multi-step processes**: "
                               "See references/workflows.md for sequential workflows\n"),
    "guide, file list": (GUIDE, "Run the validator:\n\n- `python scripts/quick_validate.py "
                         "my-skill`\n"),
    "guide, hypothetical skill": (GUIDE, "| Open when you need to... | Read |\n|---|---|\n"
                                  "| create the maintenance contract for a skill | "
                                  "`references/spec-template.md` |\n"),
    "another skill's code block": (GUIDE, "Examples:\n\n```bash\nscripts/init_skill.py "
                                   "my-skill --path skills/public\n```\n"),
    "slash-joined words in prose": (head("m5-onboard"), "A pinned `pyserial` ships under "
                                    "`scripts/vendor/`.\n"),
    "link text naming another target": (head("agent-browser"), "| [references/snapshot-refs.md]"
                                        "(references/snapshot-refs.md) | Ref lifecycle |\n"),
    "another skill's file (possessive)": (head("wiki-update"), "Check-id semantics live in "
                                          "this skill's `references/lint-checks.md` (SSOT).\n"),
    "another skill's file (named skill)": (head("backlog-templates"), "* RAI Planner "
                                           "(`backlog-templates` skill `references/handoff.md`)\n"),
    "a file the target gets": (head("superreview-setup"), "- the scope template, read as the "
                               "skill's `references/scope.md`\n"),
    "a write destination": (head("ce-plan"), "Write the unified plan artifact according to "
                            "`references/plan-sections.md`.\n"),
    "an emitted file": (head("overnight-dev"), "- `assets/readme-template.md` - Template for "
                        "generating README files.\n"),
    "an output folder": (head("fuzzing-apis"), "1. Use Read tool to examine configuration from "
                         "{baseDir}/config/\n"),
    "a copy's destination": (head("workers-publish"), "```bash\ncp scripts/publish_static.sh "
                             "/tmp/publish.sh\n```\n"),
    "a sibling's file map": (head("task-board-setup"), "| Artifact | Path | Source |\n|---|---|---|"
                             "\n| Spec skill | `.claude/skills/task-spec/SKILL.md` | "
                             "`references/08-task-spec-skill.md` |\n"),
    "a file-name pattern": (head("actions-auditor"), "See "
                            "`{baseDir}/references/vector-a-injection.md` for heuristics.\n"),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("case", sorted(NOT_REFERENCES))
def test_paths_that_are_not_this_skills_references(tmp_path: Path, case: str,
                                                    newline: str) -> None:
    skill_head, body = NOT_REFERENCES[case]
    report = run(tmp_path, (skill_head + body).replace("\n", newline), relpath="skill/SKILL.md")
    assert found(report, "SK112") == []


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("case", sorted(STILL_REFERENCES))
def test_near_identical_missing_references_are_still_reported(tmp_path: Path, case: str,
                                                              newline: str) -> None:
    skill_head, body = STILL_REFERENCES[case]
    report = run(tmp_path, (skill_head + body).replace("\n", newline), relpath="skill/SKILL.md")
    assert found(report, "SK112"), case


def test_every_mechanism_has_its_true_twin() -> None:
    assert set(NOT_REFERENCES) == set(STILL_REFERENCES)


def test_link_to_a_sibling_skill_of_the_same_plugin(tmp_path: Path) -> None:
    write(tmp_path, {"p/.claude-plugin/plugin.json": '{"name": "p"}',
                     "p/skills/using-tools/SKILL.md": head("using-tools")})
    body = "Read [the tool notes](../using-tools/SKILL.md) first.\n"
    report = run(tmp_path, head("writer") + body, relpath="p/skills/writer/SKILL.md")
    assert found(report, "SK113") == []


def test_link_above_the_folder_outside_a_plugin(tmp_path: Path) -> None:
    write(tmp_path, {"skills/using-tools/SKILL.md": head("using-tools")})
    body = "Read [the tool notes](../using-tools/SKILL.md) and [gone](../gone/SKILL.md).\n"
    report = run(tmp_path, head("writer") + body, relpath="skills/writer/SKILL.md",
                 target="claude-code")
    # no plugin or project loads `skills/writer`: it is installed as its folder alone, so the
    # sibling that exists here is not there either (issue 27: labelled-2's reviewer, TP)
    findings = found(report, "SK113")
    assert [f.severity for f in findings] == [Severity.WARNING, Severity.WARNING]
    assert "into the sibling skill `using-tools`" in findings[0].message
    assert "not where this skill is installed alone" in findings[0].message
    assert "points nowhere" in findings[1].message


# -- plugins and variables ---------------------------------------------------------------------

MARKETPLACE = {"name": "tob", "plugins": [
    {"name": "skill-improver", "source": "./plugins/skill-improver", "strict": False,
     "skills": ["./skills/skill-improver"]}]}


def test_plugin_declared_only_in_a_marketplace(tmp_path: Path) -> None:
    write(tmp_path, {".claude-plugin/marketplace.json": json.dumps(MARKETPLACE)})
    body = "Run `${CLAUDE_PLUGIN_ROOT}/scripts/check.sh`.\n"
    report = run(tmp_path, head("skill-improver") + body,
                 relpath="plugins/skill-improver/skills/skill-improver/SKILL.md",
                 target="claude-code")
    assert found(report, "SK117") == []


def test_plugin_variable_outside_any_plugin(tmp_path: Path) -> None:
    report = run(tmp_path, head() + "Run `${CLAUDE_PLUGIN_ROOT}/scripts/check.sh`.\n",
                 target="claude-code")
    assert [f.severity for f in found(report, "SK117")] == [Severity.WARNING]


def test_plugin_skill_name_with_a_space(tmp_path: Path) -> None:
    write(tmp_path, {"plugin-auditor/.claude-plugin/plugin.json": '{"name": "plugin-auditor"}'})
    report = run(tmp_path, head("Plugin Auditor"),
                 relpath="plugin-auditor/skills/plugin-auditor/SKILL.md", target="claude-code")
    # Claude Code 2.1.332 runs it as `/plugin-auditor:plugin-auditor` (the folder) and drops the
    # label (probe disc-plugin-name-space): nothing fails, so information, as for any skill
    assert [f.severity for f in found(report, "SK037")] == [Severity.INFORMATION]
    assert "by its folder name" in found(report, "SK037")[0].message
    standalone = run(tmp_path / "other", head("Plugin Auditor"), target="claude-code")
    assert [f.severity for f in found(standalone, "SK037")] == [Severity.INFORMATION]


# -- placeholders --------------------------------------------------------------------------------

ARGS = "---\nname: my-skill\ndescription: Deploys. Use when asked.\nargument-hint: [env]\n---\n"


def test_arguments_in_inline_code_are_meant_to_be_substituted(tmp_path: Path) -> None:
    body = "Parse `$ARGUMENTS` for flags. If `$ARGUMENTS` contains `--force`, skip checks.\n"
    assert found(run(tmp_path, ARGS + body, target="claude-code"), "SK116") == []


def test_awk_field_in_a_shell_block_is_substituted(tmp_path: Path) -> None:
    body = "```bash\nps aux | awk '{print $2}'\n```\n"
    report = run(tmp_path, ARGS + body, target="claude-code")
    assert len(found(report, "SK116")) == 1
    assert "argument 3" in found(report, "SK116")[0].message


def test_a_dollar_zero_under_wave_becomes_empty_not_an_argument(tmp_path: Path) -> None:
    """Wave counts `$N` from 1: `$0` is no argument, it is always replaced by nothing; Claude
    Code counts from 0, so there it is the first argument."""
    body = "```\nTotal: $0.50 each\n```\n"
    (wave,) = found(run(tmp_path / "w", ARGS + body, target="wave"), "SK116")
    assert "`$0` is no argument there, so it is always empty" in wave.message
    assert "(`0.50 USD`)" in wave.message  # Wave has no escape: the `$` must go
    assert "argument 0" not in wave.message
    (claude,) = found(run(tmp_path / "c", ARGS + body, target="claude-code"), "SK116")
    assert "it becomes the user's argument 1" in claude.message


def test_large_amounts_stay_under_claude_code(tmp_path: Path) -> None:
    body = "```\nImplied value per share: $243\n```\n"
    assert found(run(tmp_path, ARGS + body, target="claude-code"), "SK116") == []
    assert len(found(run(tmp_path, ARGS + body, target="wave"), "SK116")) == 1


def test_one_based_first_argument_under_claude_code(tmp_path: Path) -> None:
    body = "The first argument (`$1`) is the environment.\n"
    report = run(tmp_path, ARGS + body, target="claude-code")
    assert any(f.severity == Severity.WARNING and "second argument" in f.message
               for f in found(report, "SK115"))


# -- YAML the runtime rescues ----------------------------------------------------------------------

HINT = ("---\nname: my-skill\ndescription: Opens an issue. Use when asked.\n"
        "argument-hint: [title] [body]\n---\nBody.\n")


def test_quoting_retry_loads_it_under_claude_code(tmp_path: Path) -> None:
    report = run(tmp_path, HINT, target="claude-code")
    problems = found(report, "SK020")
    assert problems and all(f.severity == Severity.INFORMATION for f in problems)
    assert "quoting retry" in problems[0].message and "empty metadata" not in problems[0].message
    assert all(f.severity == Severity.ERROR for f in found(run(tmp_path, HINT, target="wave"),
                                                           "SK020"))


def test_metadata_dates_are_only_a_yaml_11_matter(tmp_path: Path) -> None:
    text = "---\nname: my-skill\ndescription: X. Use when asked.\nmetadata:\n  updated: 2026-03-17\n---\n"
    assert found(run(tmp_path, text, target="claude-code"), "SK027") == []
    assert found(run(tmp_path, text, target="portable"), "SK027")


# -- Wisp limits -------------------------------------------------------------------------------------

def test_wisp_limits_only_under_portable(tmp_path: Path) -> None:
    files = {f"my-skill/references/r{i:03d}.md": "x" for i in range(201)}
    assert found(run(tmp_path, head(), files=files, target="claude-code"), "SK141") == []
    limits = found(run(tmp_path, head(), files=files, target="portable"), "SK141")
    assert limits and "Wisp" in limits[0].message


# -- allowed-tools: the tool list is data with its source ------------------------------------------

def test_current_claude_code_tools_are_known(tmp_path: Path) -> None:
    from wave_lsp.core.checking import schema

    field = schema.fields()["allowed-tools"].schema
    assert "Monitor" in field["x-tools"] and "checked" in field["x-tools-source"]
    text = head().replace("\n---\n", "\nallowed-tools: Monitor, Read\n---\n", 1)
    assert found(run(tmp_path, text, target="claude-code"), "SK083") == []


# -- plugins developed in a repository (SK002, SK130, SK131) ------------------------------------

LONG = "Reviews the working tree and explains each change in detail. " * 4


def _plugin_repo(root: Path, plugins: dict[str, int], manifest: str = "") -> None:
    """A repository (`.git`) holding plugins `name -> number of skills`, each skill with a
    240-character description."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for name, count in plugins.items():
        write(root, {f"plugins/{name}/.claude-plugin/plugin.json":
                     manifest or json.dumps({"name": name})})
        for index in range(count):
            write(root, {f"plugins/{name}/skills/s{index}/SKILL.md":
                         f"---\nname: s{index}\ndescription: {LONG}\n---\nBody.\n"})


@pytest.mark.parametrize("target", ["wave", "claude-code"])
def test_plugins_in_a_repository_do_not_share_one_listing(tmp_path: Path, target: str) -> None:
    # 4 plugins × 12 skills overflow the 8,000-character budget together, not one by one
    _plugin_repo(tmp_path, {f"p{n}": 12 for n in range(4)})
    report = run(tmp_path, f"---\nname: s0\ndescription: {LONG}\n---\nBody.\n",
                 relpath="plugins/p0/skills/s0/SKILL.md", target=target)
    assert found(report, "SK131") == []
    assert found(report, "SK130") == []  # every plugin has an `s0`: namespaced, never colliding


@pytest.mark.parametrize("target", ["wave", "claude-code"])
def test_one_plugin_that_overflows_the_listing_is_reported(tmp_path: Path, target: str) -> None:
    # said once for the plugin (issue 37): on its first skill in load order, s0, naming the others
    _plugin_repo(tmp_path, {"big": 40})
    report = run(tmp_path, f"---\nname: s39\ndescription: {LONG}\n---\nBody.\n",
                 relpath="plugins/big/skills/s39/SKILL.md", target=target)
    assert found(report, "SK131") == []
    report = run(tmp_path, f"---\nname: s0\ndescription: {LONG}\n---\nBody.\n",
                 relpath="plugins/big/skills/s0/SKILL.md", target=target)
    [finding] = found(report, "SK131")
    assert "40 model-visible skills of plugin `big`" in finding.message
    assert len(finding.related) == 20 and all(item.path for item in finding.related)


def test_project_skill_beside_a_plugin_is_not_the_plugins(tmp_path: Path) -> None:
    # a plugin repository that also keeps a project copy in .claude/skills
    write(tmp_path, {".git/HEAD": "", ".claude-plugin/plugin.json": '{"name": "octo"}',
                     "skills/skill-tdd/SKILL.md": head("skill-tdd")})
    report = run(tmp_path, head("skill-tdd"), relpath=".claude/skills/skill-tdd/SKILL.md")
    assert found(report, "SK130") == []


def test_two_skills_of_one_plugin_with_one_name_collide(tmp_path: Path) -> None:
    write(tmp_path, {".git/HEAD": "", "plugins/p/.claude-plugin/plugin.json": '{"name": "p"}',
                     "plugins/p/skills/a/SKILL.md": head("review")})
    report = run(tmp_path, head("review"), relpath="plugins/p/skills/b/SKILL.md")
    [finding] = found(report, "SK130")
    assert "`p:review`" in finding.message


PLUGIN_LISTING = json.dumps({"name": "mattpocock-skills",
                             "skills": ["./skills/engineering/tdd", "./skills/productivity/"]})


@pytest.mark.parametrize("relpath", ["skills/engineering/tdd/SKILL.md",
                                     "skills/productivity/grill-me/SKILL.md"])
def test_a_skill_the_plugin_manifest_lists_is_in_place(tmp_path: Path, relpath: str) -> None:
    write(tmp_path, {".claude-plugin/plugin.json": PLUGIN_LISTING})
    name = relpath.split("/")[-2]
    report = run(tmp_path, head(name), relpath=relpath, target="claude-code")
    assert found(report, "SK002") == []


def test_a_skill_the_plugin_manifest_does_not_list(tmp_path: Path) -> None:
    write(tmp_path, {".claude-plugin/plugin.json": PLUGIN_LISTING})
    report = run(tmp_path, head("qa"), relpath="skills/deprecated/qa/SKILL.md",
                 target="claude-code")
    [finding] = found(report, "SK002")
    assert finding.severity == Severity.INFORMATION
    assert "`./skills/deprecated/qa`" in finding.message


def test_a_project_skill_in_a_plugin_repository_gets_no_manifest_advice(tmp_path: Path) -> None:
    """`.claude/skills` beside a plugin manifest is the project's root, not the plugin's (its skills
    keep their plain names): a SKILL.md nested there is told to move up, not to be added to the
    plugin manifest."""
    write(tmp_path, {".claude-plugin/plugin.json": PLUGIN_LISTING})
    report = run(tmp_path, head("zh"), relpath=".claude/skills/i18n/zh/SKILL.md",
                 target="claude-code")
    [finding] = found(report, "SK002")
    assert "2 folders deep" in finding.message and "manifest" not in finding.message


def test_a_skill_nested_in_a_project_root(tmp_path: Path) -> None:
    report = run(tmp_path, head("zh"), relpath=".claude/skills/i18n/zh/SKILL.md",
                 target="claude-code")
    [finding] = found(report, "SK002")
    assert finding.severity == Severity.INFORMATION and "2 folders deep" in finding.message
    misplaced = run(tmp_path / "other", head("x"), relpath=".claude/skills/SKILL.md",
                    target="claude-code")
    assert [f.severity for f in found(misplaced, "SK002")] == [Severity.WARNING]


# -- one answer to "does it load?" (check, list, preview) ---------------------------------------

UNREADABLE_FOR_WAVE = "---\nname: my-skill\ndescription: Use when: asked\n---\nBody.\n"


@pytest.mark.parametrize(("target", "loads"), [("wave", False), ("agentskills", False),
                                               ("portable", False), ("claude-code", True)])
def test_check_list_and_preview_agree_on_loading(tmp_path: Path, target: str,
                                                 loads: bool) -> None:
    from wave_lsp.api import render_invocation
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.checking.loading import skill_rows

    root = tmp_path / "project"
    report = run(root, UNREADABLE_FOR_WAVE, target=target,
                 relpath=".claude/skills/my-skill/SKILL.md")
    assert report.verdict is not None and report.verdict.loads is loads
    settings = Settings.for_target(target, home=tmp_path / "home")
    rows = skill_rows(settings.profile, root, tmp_path / "home", False, root)
    if settings.profile.scans_roots:
        assert [(row["loads"], row["stoppedBy"]) for row in rows] == [
            (loads, None if loads else "SK021")]
    preview = render_invocation(root / ".claude/skills/my-skill/SKILL.md", "", settings)
    assert not isinstance(preview, str)
    assert preview.ok is loads
    if not loads:
        assert preview.error is not None and "(SK021, line 3)" in preview.error


def test_a_silenced_rule_still_stops_loading(tmp_path: Path) -> None:
    """The user's configuration changes what is reported, not what the runtime does."""
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings

    path = tmp_path / "my-skill/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(UNREADABLE_FOR_WAVE, "utf-8")
    settings = Settings.for_target("wave", home=tmp_path / "home", ignore=("SK021",))
    report = check_file(path, settings)
    assert found(report, "SK021") == []
    assert report.verdict is not None and not report.verdict.loads


@pytest.mark.parametrize("text", ["---\nname: my-skill\ndescription: Fine. Use when asked.\n---\n",
                                  "---\nname: my-skill\ndescription: x\nmetadata: {a: 1}\n---\n"])
def test_a_skill_with_only_other_findings_loads(tmp_path: Path, text: str) -> None:
    report = run(tmp_path, text, target="wave")
    assert report.verdict is not None and report.verdict.loads


@pytest.mark.parametrize("link", ["..\x00/x.md", "a%00b.md", "references/\x00.md"])
def test_a_nul_in_a_link_is_no_path(tmp_path: Path, link: str) -> None:
    """Found by the fuzz test: the OS refuses paths with NUL (ValueError), so they are not
    references; checking such a file must not raise."""
    report = run(tmp_path, head() + f"[up]({link})\n")
    assert found(report, "SK112") == [] and found(report, "SK113") == []
