"""Issue 37 (precision on a third unseen sample): the file-reference mechanisms behind SK112 and
SK113 findings that were not true, each with a skill written the way the sample's skills are
written, paired with a near-identical case that is a true finding and must stay one
(benchmarks/RESULTS.md *Precision on a third unseen sample*; the labels in
benchmarks/precision/sample-3-labels.tsv)."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.cli import main
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.file_references import find_references, shorthand_files
from wave_lsp.core.parsing.markdown import parse_body
from wave_lsp.core.parsing.reference_words import marked_optional, named_owners, names_skill

HEAD = "---\nname: {name}\ndescription: Checks the docs. Use when asked to check them.\n---\n"


@dataclass(frozen=True)
class Case:
    """A skill (`body` at `relpath`, beside `files`) and the SK112/SK113 findings expected, as
    (code, target as written) of every error and warning."""

    body: str
    expected: list[tuple[str, str]]
    files: dict[str, str] = field(default_factory=dict)
    relpath: str = "skills/markdown/SKILL.md"
    target: str = "claude-code"


def loud(tmp_path: Path, case: Case) -> list[tuple[str, str]]:
    name = Path(case.relpath).parent.name
    for path, text in case.files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, "utf-8")
    report = run(tmp_path, HEAD.format(name=name) + case.body, relpath=case.relpath,
                 target=case.target)
    return sorted((f.code, f.data.get("target") or _written(report.document.text, f.span))
                  for f in report.findings if f.code in ("SK112", "SK113")
                  and f.severity in (Severity.ERROR, Severity.WARNING))


def _written(text: str, span: object) -> str:
    return text[span.start:span.end]  # type: ignore[attr-defined]


#: the skill keeps its own files in `references/`: a missing bare path there is a likely finding
OWN = {"skills/markdown/references/style.md": "# Style\n"}
SIBLING_SPEC = {"skills/spec/SKILL.md": HEAD.format(name="spec"),
                "skills/spec/references/cc-prompt-templates.md": "# Templates\n"}
GIT = {".git/HEAD": "ref: refs/heads/main\n"}

#: mechanism -> (the false finding's shape: nothing reported, its true twin: reported)
MECHANISMS: dict[str, tuple[Case, Case]] = {
    "heading makes helpers optional": (
        Case("## Optional Helpers (if present in repo)\n\n### Script-based fix\n\n```bash\n"
             "./scripts/fix-markdown.sh docs/\n```\n\n## Completion Criteria\n\nIf markdownlint "
             "was forgotten:\n\n```bash\n./scripts/fix-markdown.sh docs/\n```\n", []),
        Case("## Helpers\n\n### Script-based fix\n\n```bash\n./scripts/fix-markdown.sh docs/\n"
             "```\n\n## Completion Criteria\n\n```bash\n./scripts/fix-markdown.sh docs/\n```\n",
             [("SK112", "./scripts/fix-markdown.sh")] * 2)),
    "heading inside a block a stray fence opened": (
        Case("## Tool Usage\n\n````\n\n### Scripts (If Available)\n\n```bash\n# Fast scan\n"
             "python scripts/scan_patterns.py --lang python\n````\n", []),
        Case("## Tool Usage\n\n````\n\n### Scripts\n\n```bash\n# Fast scan\n"
             "python scripts/scan_patterns.py --lang python\n````\n",
             [("SK112", "scripts/scan_patterns.py")])),
    "a condition on the file in the sentence": (
        Case("Run `scripts/lint.sh` if it exists, then commit.\n", []),
        Case("Run `scripts/lint.sh`, then commit.\n", [("SK112", "scripts/lint.sh")])),
    "what to do when it is missing, after the block": (
        Case("### 1. Read the index first\n\n```\nreferences/INDEX.md\n```\n\nThis is hand-curated. "
             "If it doesn't exist, fall back to listing the folders.\n", [], OWN),
        Case("### 1. Read the index first\n\n```\nreferences/INDEX.md\n```\n\nThis is hand-curated. "
             "If the task is small, skip it.\n", [("SK112", "references/INDEX.md")], OWN)),
    "the user's file": (
        Case("Update your `references/INDEX.md` with the new paper.\n", [], OWN),
        Case("Update the `references/INDEX.md` with the new paper.\n",
             [("SK112", "references/INDEX.md")], OWN)),
    "a comment in the block makes it conditional (Japanese)": (
        Case("```bash\n# sync スクリプトがある場合\nscripts/sync-takt-references.sh --dry-run\n```\n",
             []),
        Case("```bash\n# エラーがある場合は再実行\nscripts/sync-takt-references.sh --dry-run\n```\n",
             [("SK112", "scripts/sync-takt-references.sh")])),
    "scoped to a sibling skill that has it": (
        Case("Per the `/spec` convention (see `references/cc-prompt-templates.md` in the spec "
             "skill), each block holds tests.\n", [], SIBLING_SPEC, "skills/validate-spec/SKILL.md"),
        Case("Per the convention (see `references/cc-prompt-templates.md`), each block "
             "holds tests.\n", [("SK112", "references/cc-prompt-templates.md")], SIBLING_SPEC,
             "skills/validate-spec/SKILL.md")),
    "scoped to a sibling skill that lacks it": (
        Case("See `references/cc-prompt-templates.md` in the spec skill.\n", [], SIBLING_SPEC,
             "skills/validate-spec/SKILL.md"),
        Case("See `references/prompt-templates.md` in the spec skill.\n",
             [("SK112", "references/prompt-templates.md")], SIBLING_SPEC,
             "skills/validate-spec/SKILL.md")),
    "a skill loaded first": (
        Case("Load `plugin:obsidian` first, then read `references/vault-layout.md`.\n", [],
             {"skills/obsidian/SKILL.md": HEAD.format(name="obsidian"),
              "skills/obsidian/references/vault-layout.md": "x"}, "skills/notes/SKILL.md"),
        Case("Load the notes first, then read `references/vault-layout.md`.\n",
             [("SK112", "references/vault-layout.md")],
             {"skills/obsidian/SKILL.md": HEAD.format(name="obsidian"),
              "skills/obsidian/references/vault-layout.md": "x"}, "skills/notes/SKILL.md")),
    "a table row that names the sibling": (
        Case("| スキル | 変更内容 |\n|---|---|\n| takt-task-builder | Read "
             "`references/task-schema.md` for `resume_point` |\n", [],
             {"skills/takt-task-builder/SKILL.md": HEAD.format(name="takt-task-builder"),
              "skills/takt-task-builder/references/task-schema.md": "x"},
             "skills/takt-skill-updater/SKILL.md"),
        Case("| スキル | 変更内容 |\n|---|---|\n| 全スキル | Read "
             "`references/task-schema.md` for `resume_point` |\n", [("SK112", "references/task-schema.md")],
             {"skills/takt-task-builder/SKILL.md": HEAD.format(name="takt-task-builder"),
              "skills/takt-task-builder/references/task-schema.md": "x"},
             "skills/takt-skill-updater/SKILL.md")),
    "scoped to another repository": (
        Case("`takt-sdd` リポジトリ実体では `references/okite-ai/references/takt.md` を読む。\n", [],
             OWN),
        Case("このリポジトリでは `references/okite-ai/references/takt.md` を読む。\n",
             [("SK112", "references/okite-ai/references/takt.md")], OWN)),
    "a path glued to Japanese text": (
        Case("scripts/setup.shを実行してから始める。\n", [],
             {"skills/markdown/scripts/setup.sh": "#!/bin/sh\n"}),
        Case("scripts/setup.shを実行してから始める。\n", [("SK112", "scripts/setup.sh")],
             {"skills/markdown/scripts/other.sh": "#!/bin/sh\n"})),
    "an output the skill writes": (
        Case("### `scripts/build_catalog.sh`\nRegenerate `references/catalog.json` and "
             "`references/operations.tsv` from an OpenAPI spec.\n", [],
             {"skills/markdown/scripts/build_catalog.sh": "#!/bin/sh\n"}),
        Case("## Resources\n- `references/catalog.json`: the catalog.\n"
             "- `references/operations.tsv`: index/method/path table.\n",
             [("SK112", "references/catalog.json"), ("SK112", "references/operations.tsv")])),
    "an output an inline command redirects to": (
        Case("Run `python scripts/gen.py > references/report.md` to refresh it.\n", [],
             {"skills/markdown/scripts/gen.py": "print()\n", **OWN}),
        Case("Run `python scripts/gen.py references/report.md` to refresh it.\n",
             [("SK112", "references/report.md")],
             {"skills/markdown/scripts/gen.py": "print()\n", **OWN})),
    "an output the sentence writes to": (
        Case("The chart script writes to `assets/trend.png` each run.\n", []),
        Case("Open `assets/trend.png` before each run.\n", [("SK112", "assets/trend.png")])),
    "shorthand for two files": (
        Case("```bash\nscripts/kairos-supervisor.ps1/.sh start\n```\n", [],
             {"skills/markdown/scripts/kairos-supervisor.ps1": "x",
              "skills/markdown/scripts/kairos-supervisor.sh": "x"}),
        Case("```bash\nscripts/kairos-supervisor.ps1/.sh start\n```\n",
             [("SK112", "scripts/kairos-supervisor.sh")],
             {"skills/markdown/scripts/kairos-supervisor.ps1": "x"})),
    "a path in a submodule this checkout lacks": (
        Case("Read `references/pekko/actor/src/main/scala/Actor.scala` first.\n", [],
             {**GIT, ".gitmodules": '[submodule "references/pekko"]\n\tpath = references/pekko\n'
              "\turl = git@github.com:apache/pekko.git\n"}, ".agents/skills/pekko-gap/SKILL.md",
             "codex"),  # a runtime that reads `.agents/skills` (Claude Code does not: SK002 alone)
        Case("Read `references/pekko/actor/src/main/scala/Actor.scala` first.\n",
             [("SK112", "references/pekko/actor/src/main/scala/Actor.scala")],
             {**GIT, ".gitmodules": '[submodule "references/pekko"]\n\tpath = references/pekko\n',
              "references/pekko/build.sbt": "x"}, ".agents/skills/pekko-gap/SKILL.md", "codex")),
    "a collection the project's AGENTS.md sends agents to": (
        Case("Then hand over to [the analysis skill](../kairos-analyze/SKILL.md).\n", [],
             {**GIT, ".ai/skills/kairos-analyze/SKILL.md": HEAD.format(name="kairos-analyze"),
              "AGENTS.md": "## Read Order\n\nRead these first:\n\n1. `README.md`\n"
                           "2. the relevant skill file(s) under `.ai/skills/`\n"},
             ".ai/skills/kairos-workflow/SKILL.md"),
        Case("Then hand over to [the analysis skill](../kairos-analyze/SKILL.md).\n",
             [("SK113", "../kairos-analyze/SKILL.md")],
             {**GIT, ".ai/skills/kairos-analyze/SKILL.md": HEAD.format(name="kairos-analyze"),
              "AGENTS.md": "## Layout\n\nThe skills live under `.ai/skills/`.\n"},
             ".ai/skills/kairos-workflow/SKILL.md")),
    # sample 5: a guide's template line, a glob the model expands
    "a template line of a guide to writing skills": (
        Case("**Linking:** Pattern: [core idea]. See references/file.md for [edge cases/more].\n",
             [], relpath="skills/skill-creator/SKILL.md"),
        Case("**Linking:** See references/file.md for the edge cases.\n",
             [("SK112", "references/file.md")], relpath="skills/skill-creator/SKILL.md")),
    "a glob the model expands": (
        Case("Start from the matching `${CLAUDE_SKILL_DIR}/assets/*.template.md`.\n", [],
             files={"skills/markdown/assets/readme.template.md": "# Readme\n"}),
        Case("Start from the matching `${CLAUDE_SKILL_DIR}/assets/*.template.md`.\n",
             [("SK112", "assets/*.template.md")],
             files={"skills/markdown/assets/readme.md": "# Readme\n"})),
}


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_a_path_that_is_no_missing_file_of_this_skill(tmp_path: Path, name: str) -> None:
    case = MECHANISMS[name][0]
    assert loud(tmp_path, case) == case.expected


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_its_near_identical_true_twin_is_still_reported(tmp_path: Path, name: str) -> None:
    case = MECHANISMS[name][1]
    assert loud(tmp_path, case) == sorted(case.expected)


def test_a_file_only_a_sibling_has_says_where_it_is(tmp_path: Path) -> None:
    """claude-blog's sub-skills: the unscoped `references/x.md` is the `blog` skill's; still a
    warning (the model, told this skill's folder, does not find it), and the message says where
    the file is instead of "not in any folder of the project"."""
    files = {".claude-plugin/plugin.json": '{"name": "claude-blog"}',
             "skills/blog/SKILL.md": HEAD.format(name="blog"),
             "skills/blog/references/quality-scoring.md": "# Scoring\n"}
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, "utf-8")
    report = run(tmp_path, HEAD.format(name="blog-analyze") + "Reference documents:\n"
                 "- `references/quality-scoring.md` -- full scoring checklist\n",
                 relpath="skills/blog-analyze/SKILL.md", target="claude-code")
    (finding,) = [f for f in report.findings if f.code == "SK112"]
    assert finding.severity == Severity.WARNING
    assert "the sibling skill `blog` has `skills/blog/references/quality-scoring.md`" \
        in finding.message
    assert "any folder" not in finding.message


def test_a_sibling_scoped_path_the_sibling_lacks_names_it(tmp_path: Path) -> None:
    case = MECHANISMS["scoped to a sibling skill that lacks it"][1]
    for path, text in case.files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, "utf-8")
    report = run(tmp_path, HEAD.format(name="validate-spec") + case.body, relpath=case.relpath)
    (finding,) = [f for f in report.findings if f.code == "SK112"]
    assert "is not in the `spec` skill the sentence names" in finding.message


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links on this system")
@pytest.mark.parametrize(("link", "expected"), [
    # the runtime's root is the collection: every sibling comes along
    ("root", []),
    # only this skill's folder is linked into the root: from there `../kairos-analyze` is not
    # there, and the message says where the runtime loads it
    ("folder", [("SK113", "../kairos-analyze/SKILL.md")]),
])
def test_a_collection_a_runtime_root_links_to(tmp_path: Path, link: str,
                                              expected: list[tuple[str, str]]) -> None:
    (tmp_path / ".git").mkdir()
    sibling = tmp_path / ".ai/skills/kairos-analyze"
    sibling.mkdir(parents=True)
    (sibling / "SKILL.md").write_text(HEAD.format(name="kairos-analyze"), "utf-8")
    (tmp_path / ".ai/skills/kairos-workflow").mkdir()
    try:
        if link == "root":
            (tmp_path / ".claude").mkdir()
            os.symlink("../.ai/skills", tmp_path / ".claude/skills")
        else:
            (tmp_path / ".claude/skills").mkdir(parents=True)
            os.symlink("../../.ai/skills/kairos-workflow",
                       tmp_path / ".claude/skills/kairos-workflow")
    except OSError as error:
        pytest.skip(f"cannot make a symbolic link here: {error}")
    case = Case("Then hand over to [the analysis skill](../kairos-analyze/SKILL.md).\n", expected,
                relpath=".ai/skills/kairos-workflow/SKILL.md")
    assert loud(tmp_path, case) == expected
    if expected:
        report = run(tmp_path, HEAD.format(name="kairos-workflow") + case.body,
                     relpath=case.relpath, target="claude-code")
        (finding,) = [f for f in report.findings if f.code == "SK113"]
        assert "`.claude/skills/kairos-workflow`" in finding.message


# -- the words, alone ------------------------------------------------------------------------

def _span_of(text: str, path: str) -> tuple[str, object]:
    document = SkillDocument.from_text(HEAD.format(name="x") + text)
    reference = next(r for r in find_references(document) if r.target == path)
    return document.text, reference.span


@pytest.mark.parametrize(("text", "path", "optional"), [
    ("## Optional Helpers (if present in repo)\n\n```bash\n./scripts/fix.sh\n```\n",
     "./scripts/fix.sh", True),
    ("## Helpers\n\n```bash\n./scripts/fix.sh\n```\n", "./scripts/fix.sh", False),
    ("## When the server is available\n\n```bash\n./scripts/fix.sh\n```\n", "./scripts/fix.sh",
     False),
    ("If `scripts/fix.sh` exists, run it.\n", "scripts/fix.sh", True),
    ("Run `scripts/fix.sh` (if present).\n", "scripts/fix.sh", True),
    ("Run `scripts/fix.sh` when present in your project.\n", "scripts/fix.sh", True),
    ("Run `scripts/fix.sh` when the build fails.\n", "scripts/fix.sh", False),
    ("Read `references/a.md`. If it does not exist, ask the user.\n", "references/a.md", True),
    ("Read `references/a.md`. If it is long, skim it.\n", "references/a.md", False),
    ("```bash\n# if there are failures, rerun\nscripts/fix.sh\n```\n", "scripts/fix.sh", False),
    ("```bash\n# 스크립트가 있는 경우\nscripts/fix.sh\n```\n", "scripts/fix.sh", True),
    ("```bash\n# 如果存在脚本\nscripts/fix.sh\n```\n", "scripts/fix.sh", True),
    ("Keep it beside your own `scripts/fix.sh`.\n", "scripts/fix.sh", True),
    ("Keep it beside the `scripts/fix.sh`.\n", "scripts/fix.sh", False),
])
def test_words_that_make_a_file_optional(text: str, path: str, optional: bool) -> None:
    whole, span = _span_of(text, path)
    structure = parse_body(whole, whole.index("---\n", 3) + 4)
    assert marked_optional(whole, span, structure) is optional  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "path", "owners"), [
    ("See `references/x.md` in the spec skill.\n", "references/x.md", [("spec", "skill")]),
    ("See `references/x.md` of the `obsidian` skill.\n", "references/x.md",
     [("obsidian", "skill")]),
    ("In the `takt-sdd` repository, read `references/x.md`.\n", "references/x.md",
     [("takt-sdd", "repository")]),
    # a name in bold before the path (sample 5: "the **zod** skill's `references/x.md`")
    ("It is typed by the schema (the **zod** skill's `references/x.md`).\n", "references/x.md",
     [("zod", "skill")]),
    # a runtime's name before the path scopes nothing; nor does "this skill"
    ("As a Claude Code skill, run `scripts/x.sh`.\n", "scripts/x.sh", []),
    ("See `references/x.md` in this skill.\n", "references/x.md", []),
    ("See `references/x.md` in the skills folder.\n", "references/x.md", []),
    # a file name is no owner (`init_skill.py`)
    ("Run `scripts/init_skill.py my-skill` now.\n", "scripts/init_skill.py", []),
    ("Then scripts/init_skill.py my-skill --path x.\n", "scripts/init_skill.py", []),
    ("`obsidian`スキルの `references/x.md` を読む。\n", "references/x.md", [("obsidian", "skill")]),
])
def test_named_owners(text: str, path: str, owners: list[tuple[str, str]]) -> None:
    whole, span = _span_of(text, path)
    assert named_owners(whole, span) == owners  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "name", "named"), [
    ("Load `plugin:blog` first, then `references/x.md`.\n", "blog", True),
    ("Use the blog skill's notes in `references/x.md`.\n", "blog", True),
    ("Read the blog post against `references/x.md`.\n", "blog", False),
    ("| takt-task-builder | `references/x.md` に反映 |\n", "takt-task-builder", True),
    ("| 全スキル | `references/x.md` に反映 |\n", "takt-task-builder", False),
])
def test_names_skill(text: str, name: str, named: bool) -> None:
    whole, span = _span_of(text, "references/x.md")
    assert names_skill(whole, span, name) is named  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "targets"), [
    ("scripts/x.shを実行", ["scripts/x.sh"]),
    ("参照references/a.md。", ["references/a.md"]),
    ("`references/api設計.md`", ["references/api設計.md"]),
    ("`scripts/x.sh` を実行", ["scripts/x.sh"]),
    ("scripts/실행.sh로", ["scripts/실행.sh"]),  # `로`: a particle after the file name
    ("scripts/실행로그.sh", ["scripts/실행로그.sh"]),  # no ASCII before the Hangul: one name
])
def test_a_path_glued_to_cjk_text_ends_where_the_path_does(text: str,
                                                           targets: list[str]) -> None:
    document = SkillDocument.from_text(HEAD.format(name="x") + text + "\n")
    assert [r.target for r in find_references(document)] == targets


def test_any_extension_is_a_pattern() -> None:
    """`scripts/kairos-supervisor.* start` names the scripts of every extension: a pattern, as
    `scripts/*.py` is, not the file `scripts/kairos-supervisor`."""
    text = "- `scripts/kairos-supervisor.* start` 只会启动 Supervisor\n- `scripts/run` once\n"
    document = SkillDocument.from_text(HEAD.format(name="x") + text)
    assert [r.target for r in find_references(document)] == ["scripts/run"]


@pytest.mark.parametrize(("text", "files"), [
    ("`scripts/run.ps1/.sh`", ["scripts/run.ps1", "scripts/run.sh"]),
    ("`scripts/run.ps1/.sh/.cmd`", ["scripts/run.ps1", "scripts/run.sh", "scripts/run.cmd"]),
    ("`scripts/conf.d/x.env`", []),
    ("`scripts/run.sh`", []),
])
def test_shorthand_files(text: str, files: list[str]) -> None:
    document = SkillDocument.from_text(HEAD.format(name="x") + text + "\n")
    (reference,) = find_references(document)
    found = shorthand_files(reference)
    assert [r.target for r in found] == files
    for item in found:  # each at the text that names its extension
        assert document.text[item.span.start:item.span.end] in (item.target,
                                                                "." + item.target.split(".")[-1])


# -- a repository in the sample's shapes, checked as a user checks it --------------------------

LAYOUTS = Path(__file__).parents[1] / "data" / "issue37-layouts"
#: every SK112/SK113 of `wave-lsp check .` on the fixture, under both runs of the sample
LAYOUT_FINDINGS = [
    (".agents/skills/pekko-gap-analysis/SKILL.md", 8, "SK112", "warning"),  # its own file
    (".ai/skills/kairos-analyze/SKILL.md", 7, "SK112", "information"),  # neither monitor script
    (".ai/skills/kairos-analyze/SKILL.md", 7, "SK112", "information"),
    (".ai/skills/kairos-workflow/SKILL.md", 9, "SK113", "warning"),  # a sibling that is nowhere
    (".cli/skills/markdown/SKILL.md", 17, "SK112", "information"),  # the catalog script
    (".cli/skills/markdown/SKILL.md", 22, "SK112", "warning"),  # listed under Resources
    ("plugins/claude-blog/skills/blog-write/SKILL.md", 8, "SK112", "warning"),  # the blog skill's
    ("plugins/claude-blog/skills/blog-write/SKILL.md", 10, "SK112", "warning"),
]


#: under `--target claude-code` a target speaks only of the files its runtime loads: Claude Code
#: does not scan `.agents/skills` (SK002 says so), so the pekko skill's own missing file is left to
#: the runtimes that read it. The `.ai/skills` collection stays used in place under both: Claude
#: Code 2.1.332 loads `AGENTS.md` as the project's instructions where the project has no
#: `CLAUDE.md` (its bundled code: "AGENTS.md as project instructions: by default loaded where the
#: project has no CLAUDE.md"), so kairos-workflow's link to its existing sibling is no SK113.
CLAUDE_CODE_LAYOUT_FINDINGS = [item for item in LAYOUT_FINDINGS
                               if not item[0].startswith(".agents/skills/")]


@pytest.mark.parametrize(("target", "expected"), [
    ([], LAYOUT_FINDINGS),
    (["--target", "claude-code"], CLAUDE_CODE_LAYOUT_FINDINGS),
], ids=["default", "claude-code"])
def test_a_repository_in_the_samples_shapes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch,
                                            target: list[str],
                                            expected: list[tuple[str, int, str, str]]) -> None:
    repository = tmp_path / "repository"
    shutil.copytree(LAYOUTS, repository)
    (repository / ".git").mkdir()
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(repository)
    main(["check", ".", "--format", "json", "--no-personal", *target])
    report = json.loads(capsys.readouterr().out)
    found = sorted((file["path"], item["range"]["start"]["line"] + 1, item["code"],
                    item["severity"]) for file in report["files"] for item in file["findings"]
                   if item["code"] in ("SK112", "SK113"))
    assert found == expected


@pytest.mark.parametrize(("text", "targets"), [
    ("Regenerate `references/a.json` and `references/b.tsv` from the spec.\n", []),
    ("Create `scripts/validate.py` that checks the output.\n", []),
    ("Create a plan from `references/template.md`.\n", ["references/template.md"]),
    ("The report is saved to `${CLAUDE_SKILL_DIR}/out/<name>.md`.\n", []),
    ("Report saved to `references/report.md`.\n", []),
    ("The script writes to `assets/x.png` and reads `assets/y.png`.\n", ["assets/y.png"]),
    ("```bash\npython scripts/gen.py > references/out.md\n```\n", ["scripts/gen.py"]),
    # a word of a command in a block is no verb of the prose (`PHASE=rewrite`)
    ("```bash\nexport PHASE=rewrite\n./scripts/bl text chat\n```\n", ["./scripts/bl"]),
    # "the generated …" is what the skill's output holds: a guess the rule keeps at information
    ("The generated `assets/chart.png` shows the trend.\n", ["assets/chart.png"]),
])
def test_an_output_the_sentence_makes(text: str, targets: list[str]) -> None:
    document = SkillDocument.from_text(HEAD.format(name="x") + text)
    assert [r.target for r in find_references(document)] == targets


@pytest.mark.parametrize(("head", "body", "severity"), [
    # a guide to writing commands shows a command's text in inline code (sample 5)
    ("---\nname: command-development\ndescription: Creates slash commands.\n---\n",
     "**Multiple files:** `Compare @src/old.js with @src/new.js.`\n", Severity.INFORMATION),
    # its prose is attached like any other skill's (labelled-2)
    ("---\nname: command-development\ndescription: Creates slash commands.\n---\n",
     "Read the guide first: @docs/guide.md\n", Severity.WARNING),
    ("---\nname: review\ndescription: Reviews code.\n---\n",
     "Then `Compare @src/old.js with @src/new.js.`\n", Severity.WARNING),
])
def test_an_at_path_a_guide_shows_in_code_is_a_guess(tmp_path: Path, head: str, body: str,
                                                     severity: Severity) -> None:
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, head + body, relpath=".claude/skills/x/SKILL.md", target="claude-code")
    found = [f for f in report.findings if f.code == "SK150"]
    assert found and {f.severity for f in found} == {severity}
