"""Issue 27 (precision on repositories never seen): confidence as part of every finding, and the
mechanisms behind false reference findings on `labelled-2`, each with a skill written the way the
corpus's skills are written (docs/design/rules.md *Severity policy*)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import git_files_or_skip, run
from wave_lsp.core.checking.catalog import Confidence, Severity, parse_catalog, rules
from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.docs import describe_rule, rule_json

HEAD = "---\nname: my-skill\ndescription: Reviews papers. Use when asked to review.\n---\n"


def codes(report, code: str) -> list:
    return [f for f in report.findings if f.code == code]


# -- the cap -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("confidence", "given", "reported"), [
    (Confidence.CERTAIN, Severity.ERROR, Severity.ERROR),
    (Confidence.CERTAIN, Severity.HINT, Severity.HINT),
    (Confidence.LIKELY, Severity.ERROR, Severity.WARNING),
    (Confidence.LIKELY, Severity.WARNING, Severity.WARNING),
    (Confidence.LIKELY, Severity.INFORMATION, Severity.INFORMATION),
    (Confidence.HEURISTIC, Severity.ERROR, Severity.INFORMATION),
    (Confidence.HEURISTIC, Severity.WARNING, Severity.INFORMATION),
    (Confidence.HEURISTIC, Severity.HINT, Severity.HINT),
])
def test_the_confidence_caps_the_severity(confidence: Confidence, given: Severity,
                                          reported: Severity) -> None:
    assert confidence.cap(given) == reported


def test_every_rule_declares_how_it_knows() -> None:
    text = Path(__file__).parents[2].joinpath("wave_lsp", "data", "rules.toml").read_text("utf-8")
    tables = parse_catalog(text)
    assert all(entry.get("confidence") in ("certain", "likely", "heuristic")
               for entry in tables.values())
    assert {item.code for item in rules().values()
            if item.confidence is Confidence.HEURISTIC} >= {"SK131"}


def test_a_rule_without_confidence_is_refused(tmp_path: Path, monkeypatch) -> None:
    from wave_lsp.core.checking import catalog

    with pytest.raises(ValueError, match="confidence"):
        catalog._confidence("SK999", None)
    with pytest.raises(ValueError, match="confidence"):
        catalog._confidence("SK999", "sure")


def test_no_heuristic_rule_is_reported_above_information() -> None:
    for item in rules().values():
        level = item.severity(CLAUDE_CODE)
        if item.confidence is Confidence.HEURISTIC and level is not None:
            assert level >= Severity.INFORMATION, item.code
        if item.confidence is Confidence.LIKELY and level is not None:
            assert level >= Severity.WARNING, item.code


def test_the_listing_budget_is_information(tmp_path: Path) -> None:
    assert rules()["SK131"].severity(CLAUDE_CODE) == Severity.INFORMATION
    assert rules()["SK131"].severities["claude-code"] == Severity.WARNING  # the column stays


# -- where the confidence is shown ---------------------------------------------------------------

def test_a_bare_path_is_heuristic_and_a_link_likely(tmp_path: Path) -> None:
    body = "The results go with `scripts/missing.py`.\n\nSee [the guide](references/missing.md).\n"
    report = run(tmp_path, HEAD + body, target="claude-code")
    by_target = {f.data.get("target"): f for f in codes(report, "SK112")}
    bare, link = by_target["scripts/missing.py"], by_target["references/missing.md"]
    assert (bare.severity, bare.certainty) == (Severity.INFORMATION, Confidence.HEURISTIC)
    assert (link.severity, link.certainty) == (Severity.WARNING, Confidence.LIKELY)
    assert bare.to_json()["confidence"] == "heuristic"
    assert link.to_json()["confidence"] == "likely"


def test_json_and_sarif_carry_the_confidence(tmp_path: Path) -> None:
    skill = tmp_path / "my-skill" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text(HEAD + "See [the guide](references/missing.md).\n", "utf-8")
    command = [sys.executable, "-m", "wave_lsp", "check", str(skill), "--target", "claude-code",
               "--no-personal"]
    output = json.loads(subprocess.run([*command, "--format", "json"], capture_output=True,
                                       text=True, cwd=tmp_path).stdout)
    finding = next(f for f in output["files"][0]["findings"] if f["code"] == "SK112")
    assert finding["confidence"] == "likely"
    sarif = json.loads(subprocess.run([*command, "--format", "sarif"], capture_output=True,
                                      text=True, cwd=tmp_path).stdout)
    result = next(r for r in sarif["runs"][0]["results"] if r["ruleId"] == "SK112")
    assert result["properties"]["confidence"] == "likely"
    driver = {r["id"]: r for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert driver["SK112"]["properties"]["confidence"] == "likely"


def test_the_rule_command_says_how_the_rule_knows() -> None:
    text = describe_rule(rules()["SK131"])
    assert "Confidence: **heuristic**" in text and "at most as information" in text
    payload = rule_json(rules()["SK131"])
    assert payload["confidence"] == "heuristic"
    assert payload["severity"]["claude-code"] == "information"


def test_an_explicit_override_wins_over_the_cap(tmp_path: Path) -> None:
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.checking.config import Settings

    path = tmp_path / "my-skill" / "SKILL.md"
    path.parent.mkdir()
    path.write_text(HEAD + "Run `python scripts/missing.py`.\n", "utf-8")
    settings = Settings.for_target("claude-code", home=tmp_path / "home",
                                   severity={"SK112": Severity.WARNING})
    report = check_file(path, settings, strict=True)
    assert [f.severity for f in codes(report, "SK112")] == [Severity.WARNING]


# -- SK112: where a path is looked for -----------------------------------------------------------

def write(root: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content, "utf-8")


def test_a_path_that_exists_in_another_folder_of_the_project_resolves(tmp_path: Path) -> None:
    """`uv run python scripts/mcp/x.py`, run from `opc/`: the tail exists in the project."""
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "opc/scripts/mcp/nia_docs.py": "",
                     ".claude/skills/research/x.md": ""})
    body = "Run `uv run python scripts/mcp/nia_docs.py` from `opc/`.\n"
    report = run(tmp_path, HEAD + body, target="claude-code",
                 relpath=".claude/skills/research/SKILL.md")
    assert codes(report, "SK112") == []


def test_another_skills_file_of_that_name_does_not_resolve_a_reference(tmp_path: Path) -> None:
    """`references/linear_integration.md` in a sibling skill is that skill's: a link (opened from
    the skill folder) and a bare path of this skill that name it are still missing here."""
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n",
                     "skills/other/SKILL.md": HEAD, "skills/other/references/linear.md": ""})
    body = "See [the guide](references/linear.md) and `references/linear.md`.\n"
    report = run(tmp_path, HEAD + body, target="claude-code", relpath="skills/mine/SKILL.md")
    assert len(codes(report, "SK112")) == 2


def test_a_path_left_stale_by_a_rename_is_still_reported(tmp_path: Path) -> None:
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "opc/scripts/mcp/nia_search.py": ""})
    body = "Run [the script](scripts/mcp/nia_docs.py) from `opc/`.\n"  # renamed: stale
    report = run(tmp_path, HEAD + body, target="claude-code",
                 relpath=".claude/skills/research/SKILL.md")
    (finding,) = codes(report, "SK112")
    assert finding.severity == Severity.WARNING
    assert "up to the project root, or any folder of the project" in finding.message


def test_the_message_names_the_plugin_root_where_the_search_stopped(tmp_path: Path) -> None:
    write(tmp_path, {"plug/.claude-plugin/plugin.json": '{"name": "plug"}'})
    report = run(tmp_path, HEAD + "See [x](references/gone.md).\n", target="claude-code",
                 relpath="plug/skills/my-skill/SKILL.md")
    (finding,) = codes(report, "SK112")
    assert "up to the plugin root" in finding.message
    assert "project root" not in finding.message


@pytest.mark.parametrize("body", [
    "- Description of what exists ([file.ext:line](link))\n",
    "- [{Source 1}]({url1})\n",
    "Run `${CLAUDE_SKILL_DIR}/scripts/setup.{sh,ps1}`.\n",
    "Open [the template](<path>).\n",
])
def test_templates_are_not_references(tmp_path: Path, body: str) -> None:
    report = run(tmp_path, HEAD + body, target="claude-code")
    assert codes(report, "SK112") == [] and codes(report, "SK113") == []


@pytest.mark.parametrize("body", [
    "See [the skills docs](/en/skills).\n",
    "Then run [the solution skill](/uipath:uipath-solution).\n",
    "See [usage](#usage).\n",
])
def test_links_that_are_no_files_are_not_references(tmp_path: Path, body: str) -> None:
    report = run(tmp_path, HEAD + body, target="claude-code")
    assert codes(report, "SK112") == [] and codes(report, "SK113") == []


def test_an_absolute_file_path_is_still_an_escape(tmp_path: Path) -> None:
    report = run(tmp_path, HEAD + "See [the notes](/home/me/notes.md).\n", target="claude-code")
    assert len(codes(report, "SK113")) == 1


def test_a_link_without_its_scheme_says_so(tmp_path: Path) -> None:
    body = "See [the overview](docs.claude.com/en/docs/agents-and-tools/agent-skills/overview).\n"
    report = run(tmp_path, HEAD + body, target="claude-code")
    (finding,) = codes(report, "SK112")
    assert "https://docs.claude.com/" in finding.message
    assert finding.severity == Severity.WARNING


# -- SK116: what the skill's own words say a placeholder is ----------------------------------------

HINTED = ("---\nname: adjust-playbook\ndescription: Changes a playbook. Use when asked to.\n"
          "argument-hint: \"[playbook-name] [change]\"\n---\n")
PLAIN = "---\nname: tool\ndescription: Runs the tool. Use when asked.\n---\nGiven $ARGUMENTS:\n"
GUIDE = ("---\nname: create-slash-commands\ndescription: Expert guidance for creating Claude Code "
         "slash commands. Use when writing commands.\n---\n")


@pytest.mark.parametrize(("head", "body", "reported", "confidence"), [
    # its input: declared by argument-hint, named in prose, labelled in a template
    (HINTED, "If `$0` (playbook name) is given:\n```bash\nls .claude/skills/$0/SKILL.md\n```\n",
     None, None),
    (PLAIN, "- `$0` — path to the referee report\n\n```bash\ncat $0\n```\n", None, None),
    (PLAIN, "```text\nAgent Name: $1\n```\n", None, None),
    # literal text: a script's positional, awk, an amount, a markup block, a guide's example
    (HINTED, "```bash\nsha256() { printf '%s' \"$1\" | shasum; }\n```\n", "positional",
     Confidence.LIKELY),
    (HINTED, "Count with `awk '{print $2}' file`.\n", "positional", Confidence.LIKELY),
    (HINTED, "```\nPrice: $0.01 per call\n```\n", "amount", Confidence.LIKELY),
    (HINTED, "```html\n<div class=\"kpi\">$0</div>\n```\n", "html", Confidence.LIKELY),
    (GUIDE, "```markdown\nFix issue #$1 with priority $2\n```\n", "guide", Confidence.LIKELY),
    # nothing decides: heuristic, information
    (PLAIN, "```\nrun $1\n```\n", "inside code", Confidence.HEURISTIC),
])
def test_placeholder_intent_comes_from_the_skills_own_words(
        tmp_path: Path, head: str, body: str, reported: str | None,
        confidence: Confidence | None) -> None:
    findings = codes(run(tmp_path, head + body, target="claude-code"), "SK116")
    if reported is None:
        assert findings == []
        return
    assert findings and all(reported in f.message for f in findings)
    assert {f.certainty for f in findings} == {confidence}
    expected = Severity.INFORMATION if confidence is Confidence.HEURISTIC else Severity.WARNING
    assert {f.severity for f in findings} == {expected}


def test_a_guides_arguments_example_is_reported(tmp_path: Path) -> None:
    """A guide's `$ARGUMENTS` example is replaced by the user's words when the guide is invoked
    (the true findings issue 27 restores)."""
    body = "```markdown\n---\ndescription: Fix an issue\n---\nFix issue $ARGUMENTS now.\n```\n"
    (finding,) = codes(run(tmp_path, GUIDE + body, target="claude-code"), "SK116")
    assert finding.severity == Severity.WARNING and "guide" in finding.message
    assert codes(run(tmp_path, PLAIN + "```\nls $ARGUMENTS\n```\n", target="claude-code"),
                 "SK116") == []


# -- SK150: `@` references ---------------------------------------------------------------------

@pytest.mark.parametrize(("files", "relpath", "body", "expected"), [
    # an absolute `@/x` resolves from the file system root: missing wherever the skill runs
    ({}, ".claude/skills/my-skill/SKILL.md",
     "Follow @/plugins/sdd/agents/tech-writer.md.\n", [("/plugins", Confidence.LIKELY)]),
    # a project skill runs in its project: a relative path that exists there is fine...
    ({"docs/style.md": "# Style\n"}, ".claude/skills/my-skill/SKILL.md",
     "Use the style in @docs/style.md.\n", []),
    # ...and one that does not is likely wrong
    ({}, ".claude/skills/my-skill/SKILL.md", "Use the style in @docs/style.md.\n",
     [("working directory", Confidence.LIKELY)]),
    # a distributed skill runs in the user's project: unknown, heuristic
    ({}, "skills/my-skill/SKILL.md", "Fill in @.github/pull_request_template.md.\n",
     [("working directory", Confidence.HEURISTIC)]),
    # not files: mentions, packages, domains, templates, code blocks
    ({}, ".claude/skills/my-skill/SKILL.md",
     "Ask @maintainers, install `@acme/tools`, mail @posit.co, see @/docs/{name}.\n"
     "```bash\nnpm i @acme/release-tools.js\n```\n", []),
])
def test_at_references_resolve_against_the_working_directory(
        tmp_path: Path, files: dict[str, str], relpath: str, body: str,
        expected: list[tuple[str, Confidence]]) -> None:
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", **files})
    findings = codes(run(tmp_path, HEAD + body, target="claude-code", relpath=relpath), "SK150")
    assert [(f.certainty) for f in findings] == [confidence for _, confidence in expected]
    for finding, (words, _) in zip(findings, expected, strict=True):
        assert words in finding.message


def test_at_references_are_a_claude_code_rule(tmp_path: Path) -> None:
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n"})
    report = run(tmp_path, HEAD + "Follow @/nowhere/guide.md.\n", target="wave",
                 relpath=".claude/skills/my-skill/SKILL.md")
    assert codes(report, "SK150") == []


# -- discovery: index files, tracked files under an ignored path ----------------------------------

def test_index_files_beside_the_skill_folders_are_not_skills(tmp_path: Path) -> None:
    from wave_lsp.core.workspace.discovery import find_skill_files, is_skill_file

    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n",
                     ".claude/skills/README.md": "# Skills\n", ".claude/skills/AGENTS.md": "x\n",
                     ".claude/skills/notes.md": "a stray skill\n",
                     ".claude/skills/a/SKILL.md": HEAD})
    found = sorted(p.relative_to(tmp_path).as_posix() for p in find_skill_files([tmp_path]))
    assert found == [".claude/skills/a/SKILL.md", ".claude/skills/notes.md"]
    assert not is_skill_file(tmp_path / ".claude/skills/README.md")
    assert is_skill_file(tmp_path / ".claude/skills/notes.md")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_a_skill_git_tracks_under_an_ignored_path_is_checked(tmp_path: Path, version: str) -> None:
    from wave_lsp.core.workspace.discovery import find_skill_files, read_git_index

    write(tmp_path, {".gitignore": "vendor/\n", "vendor/skills/kept/SKILL.md": HEAD,
                     "vendor/skills/loose/SKILL.md": HEAD, "skills/a/SKILL.md": HEAD})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".gitignore", "skills")
    _git(tmp_path, "add", "-f", "vendor/skills/kept/SKILL.md")
    _git(tmp_path, "update-index", "--index-version", version)
    listed = subprocess.run(["git", "-C", str(tmp_path), "ls-files"], capture_output=True,
                            text=True, check=True).stdout.split()
    assert read_git_index(tmp_path) == listed
    found = sorted(p.relative_to(tmp_path).as_posix() for p in find_skill_files([tmp_path]))
    assert found == ["skills/a/SKILL.md", "vendor/skills/kept/SKILL.md"]


def test_the_index_reader_reads_this_repository_as_git_does() -> None:
    from wave_lsp.core.workspace.discovery import read_git_index

    root = Path(__file__).resolve().parents[2]
    assert read_git_index(root) == git_files_or_skip(root)


# -- wording that says what the runtime does ---------------------------------------------------

@pytest.mark.parametrize(("body", "warned"), [
    ("The first argument (`$1`) is the environment.\n", True),
    ("`$1` is the first argument.\n", True),
    # "first" elsewhere on the line says nothing about `$1`
    ("First, read the notes; then pass `$1` on to the script named by the user.\n", False),
])
def test_first_argument_is_keyed_on_what_the_line_calls_the_placeholder(
        tmp_path: Path, body: str, warned: bool) -> None:
    findings = codes(run(tmp_path, HINTED + "Use `$0`.\n" + body, target="claude-code"), "SK115")
    assert any("second argument" in f.message for f in findings) == warned


@pytest.mark.parametrize(("body", "warned"), [
    ("```bash\nFOCUS=$1\n```\n", True),  # never `$0`: `$1` is meant as the first
    ("```bash\nNAME=$0\nFOCUS=$1\n```\n", False),  # counts from 0 already
])
def test_a_skill_counting_from_one_in_code(tmp_path: Path, body: str, warned: bool) -> None:
    findings = codes(run(tmp_path, HINTED + body, target="claude-code"), "SK115")
    hits = [f for f in findings if "never uses `$0`" in f.message]
    assert bool(hits) == warned
    assert all(f.severity == Severity.WARNING for f in hits)


@pytest.mark.parametrize(("body", "words"), [
    ("## Examples\n\n```markdown\nStatus: !`git status`\n```\n",
     "inside a code block under the heading \u201cExamples\u201d"),
])
def test_injection_in_code_says_where_it_is(tmp_path: Path, body: str, words: str) -> None:
    (finding,) = codes(run(tmp_path, HEAD + body, target="claude-code"), "SK121")
    assert words in finding.message and "looks like an example" not in finding.message


def test_skill_md_in_a_plugins_commands_folder(tmp_path: Path) -> None:
    write(tmp_path, {"plug/.claude-plugin/plugin.json": '{"name": "plug"}',
                     "plug/commands/other.md": "Do the other thing.\n"})
    report = run(tmp_path, HEAD, target="claude-code", relpath="plug/commands/skill.md")
    (finding,) = codes(report, "SK001")
    assert "drops every other command" in finding.message
    assert "rename it to `SKILL.md`" not in finding.message.lower()
    elsewhere = run(tmp_path, HEAD, target="claude-code", relpath="my-skill/skill.md")
    assert "rename it to `SKILL.md`" in codes(elsewhere, "SK001")[0].message


def test_a_plugin_skill_name_with_a_space_is_information(tmp_path: Path) -> None:
    """Claude Code 2.1.332 names a plugin skill after its folder, so a blank in `name` only drops
    the label (probe disc-plugin-name-space); SK039 names the command and the label it shows."""
    write(tmp_path, {"plug/.claude-plugin/plugin.json": '{"name": "plug"}'})
    text = "---\nname: plugin auditor\ndescription: Audits plugins. Use when asked.\n---\nBody.\n"
    report = run(tmp_path, text, target="claude-code", relpath="plug/skills/plugin-auditor/SKILL.md")
    assert [f.severity for f in codes(report, "SK037")] == [Severity.INFORMATION]
    labelled = run(tmp_path, text.replace("plugin auditor", "auditor"), target="claude-code",
                   relpath="plug/skills/plugin-auditor/SKILL.md")
    assert "`- plug:plugin-auditor (plug:auditor): …`" in codes(labelled, "SK039")[0].message


GUIDE_SKILLS = ("---\nname: skill-builder\ndescription: Guides writing new skills. Use when creating "
                "a skill.\n---\n")


def test_a_guides_quoted_link_is_text_to_write(tmp_path: Path) -> None:
    body = '- Link to references: "For API details, see [reference.md](references/api-guide.md)"\n'
    assert codes(run(tmp_path, GUIDE_SKILLS + body, target="claude-code"), "SK112") == []
    # the same link outside quotes, or outside a guide, is a reference
    assert len(codes(run(tmp_path, GUIDE_SKILLS + body.replace('"', ""),
                         target="claude-code"), "SK112")) == 1
    assert len(codes(run(tmp_path, HEAD + body, target="claude-code"), "SK112")) == 1


def test_a_file_the_skill_removes_is_not_a_reference(tmp_path: Path) -> None:
    body = "```bash\nrm -f ${CLAUDE_SKILL_DIR}/tmp/prompt.txt\n```\n"
    assert codes(run(tmp_path, HEAD + body, target="claude-code"), "SK112") == []
    read = "```bash\ncat ${CLAUDE_SKILL_DIR}/tmp/prompt.txt\n```\n"
    assert len(codes(run(tmp_path, HEAD + read, target="claude-code"), "SK112")) == 1


@pytest.mark.parametrize(("relpath", "confidence"), [
    ("skills/create-pr/SKILL.md", Confidence.HEURISTIC),  # distributed: the user's project's file
    (".claude/skills/create-pr/SKILL.md", Confidence.LIKELY),  # this project's own skill
])
def test_a_link_into_a_projects_config_folder(tmp_path: Path, relpath: str,
                                              confidence: Confidence) -> None:
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n"})
    body = "Use the [PR Template](.github/pull_request_template.md).\n"
    (finding,) = codes(run(tmp_path, HEAD + body, target="claude-code", relpath=relpath), "SK112")
    assert finding.certainty is confidence


@pytest.mark.parametrize("body", ["Count with `awk '{print $2}' file`.\n",
                                  "```\nCost: $0.0075 per request\n```\n",
                                  "```bash\nDIR=\"$(dirname \"$0\")\"\n```\n"])
def test_literal_text_in_a_skill_without_arguments_is_a_warning(tmp_path: Path,
                                                                 body: str) -> None:
    """Any skill can be invoked with arguments (`/name text`, the Skill tool's `args`): literal
    text that substitution would corrupt is reported there too, at the rule's level (issue 27:
    labelled-2's reviewer counts it a true problem; the intent is settled, only whether
    arguments come is not, and the message says so)."""
    text = "---\nname: tool\ndescription: Runs the tool. Use when asked.\n---\n" + body
    (finding,) = codes(run(tmp_path, text, target="claude-code"), "SK116")
    assert finding.severity == Severity.WARNING and "invoked with arguments" in finding.message
    assert finding.certainty is Confidence.LIKELY


def test_a_twin_skill_folder_holds_the_built_skills_files(tmp_path: Path) -> None:
    """`skill-flavors/x/SKILL.md` is composed into `skills/x/` at build time: its links resolve
    there."""
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "skills/flow/SKILL.md": HEAD,
                     "skills/flow/assets/templates/call.json": "{}"})
    body = "Use [the template](assets/templates/call.json).\n"
    report = run(tmp_path, HEAD + body, target="claude-code",
                 relpath="skill-flavors/web/flow/SKILL.md")
    assert codes(report, "SK112") == []
    other = run(tmp_path, HEAD + body, target="claude-code", relpath="skill-flavors/web/x/SKILL.md")
    assert len(codes(other, "SK112")) == 1


def test_a_guides_own_input_block_is_its_input(tmp_path: Path) -> None:
    own = "## User Input\n\n```text\nWorkflow Name: $1\n```\n"
    example = "## Example\n\n```text\n- TARGET: $1\n```\n"
    assert codes(run(tmp_path, GUIDE + own, target="claude-code"), "SK116") == []
    assert len(codes(run(tmp_path, GUIDE + example, target="claude-code"), "SK116")) == 1


def test_no_confidence_cap_changes_a_loading_verdict() -> None:
    """A rule whose error stops loading under some target, or that is an error there, is certain:
    a cap would change what *Does it load?* says (an error under `agentskills` is a rejection)."""
    for item in rules().values():
        errors = [c for c, level in item.severities.items() if level == Severity.ERROR]
        if item.stops_loading or errors:
            assert item.confidence is Confidence.CERTAIN, item.code


def test_outside_a_git_checkout_the_git_tests_skip(tmp_path: Path) -> None:
    """An sdist or a downloaded archive has no `.git`: the tests that read `git ls-files` skip
    there, saying why, instead of failing."""
    (tmp_path / "README.md").write_text("# x\n", "utf-8")
    with pytest.raises(pytest.skip.Exception, match="not a git checkout"):
        git_files_or_skip(tmp_path)
    (tmp_path / ".git").mkdir()  # an empty folder is not a repository either
    with pytest.raises(pytest.skip.Exception, match="does not see"):
        git_files_or_skip(tmp_path)
