"""Issue 37, the remaining precision mechanisms (helper `prec`, session 5): each false finding of
the third sample's mechanism written as the sample's skills write it, beside a near-identical
skill whose finding is true and must stay (benchmarks/RESULTS.md *Precision on a third unseen
sample*; the labels in benchmarks/precision/sample-3-labels.tsv).

Each case is (body, frontmatter lines, expected), where expected lists (code, severity, text the
finding covers) of the case's rule on the body."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.cli import main
from wave_lsp.core.checking.catalog import Severity

HEAD = "---\nname: {name}\ndescription: {description}\n{extra}---\n"
PLAIN = "Reviews the code. Use when asked to review it."
GUIDE = "Creates new skills and slash commands. Use when writing a skill."


def findings(tmp_path: Path, body: str, codes: tuple[str, ...], *, name: str = "review",
             description: str = PLAIN, extra: str = "", target: str = "claude-code",
             relpath: str | None = None,
             files: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    text = HEAD.format(name=name, description=description, extra=extra) + body
    report = run(tmp_path, text, target=target, relpath=relpath or f"{name}/SKILL.md",
                 files=files)
    return [(f.code, f.severity.label if f.severity else "", text[f.span.start:f.span.end])
            for f in report.findings if f.code in codes]


def loud(found: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """The errors and warnings of `found`, as (code, text)."""
    return [(code, text) for code, level, text in found
            if level in (Severity.ERROR.label, Severity.WARNING.label)]


# -- SK115: the words "first" belong to the placeholder nearest them -------------------------

@pytest.mark.parametrize(("body", "expected"), [
    # right about `$0`: the words are next to `$0`, not to `$1`
    ("`$0` is the first argument, `$1` the second.\n", []),
    ("The first argument (`$0`) is the file; `$1` is the mode.\n", []),
    # wrong about `$1`: it is the one called the first
    ("`$1` is the first argument: the file to review.\n", [("SK115", "$1")]),
    ("Pass the file as the first argument (`$1`).\n", [("SK115", "$1")]),
    # a query's parameter is no argument, whatever the line says
    ("Use the first parameter `$1` of the parameterized statement.\n", []),
], ids=["first-of-0", "first-of-0-before", "first-of-1", "first-of-1-after", "sql-words"])
def test_first_is_about_the_nearest_placeholder(tmp_path: Path, body: str,
                                                expected: list[tuple[str, str]]) -> None:
    found = findings(tmp_path, body, ("SK115",), extra="argument-hint: <file> <mode>\n")
    assert loud(found) == expected


# -- SK115: 1-based `$N` in a root that runtimes counting differently read -----------------------

def check_project(tmp_path: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str],
                  monkeypatch: pytest.MonkeyPatch, *target: str) -> list[dict[str, object]]:
    """`wave-lsp check .` at a repository holding `files`, as a user runs it: every finding, with
    its file's path."""
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, "utf-8")
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    main(["check", ".", "--format", "json", "--no-personal", *target])
    report = json.loads(capsys.readouterr().out)
    return [{**item, "path": file["path"]} for file in report["files"]
            for item in file["findings"]]


def test_a_one_based_placeholder_under_the_shared_root_names_who_counts_how(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`.agents/skills` is read by Wave and OpenCode (from 1) and Copilot CLI (from 0): the message
    names both, at the level of the runtimes that substitute (information), not as a claim that
    every reader counts from 1."""
    text = HEAD.format(name="kiro-validate", description=PLAIN, extra="") + \
        "Review the design of feature **$1**.\n"
    found = check_project(tmp_path, {".agents/skills/kiro-validate/SKILL.md": text}, capsys,
                          monkeypatch)
    sk115 = [item for item in found if item["code"] == "SK115"]
    assert [item["severity"] for item in sk115] == ["information"]
    message = str(sk115[0]["message"])
    assert "argument 1 in Wave" in message and "argument 2 in Copilot CLI" in message
    assert "every runtime" not in message


# -- SK116: a query's bind parameter, a match-spec variable: literal text in any block ---------

@pytest.mark.parametrize(("body", "extra", "expected"), [
    # prose naming parameterized statements: SK116 (literal, substituted when arguments come),
    # never SK115's "write `$0`"
    ("1. **SQL injection:** concatenation instead of parameterized statements (`$1`, `$2`).\n",
     "", [("SK116", "$1"), ("SK116", "$2")]),
    ("```go\ndb.Query(\"SELECT * FROM users WHERE id = $1\", id)\n```\n", "",
     [("SK116", "$1")]),
    ("```\nINSERT INTO t (a, b) VALUES ($1, $2)\n```\n", "argument-hint: <table>\n",
     [("SK116", "$1"), ("SK116", "$2")]),
    ("```elixir\n:ets.select(table, [{{:\"$1\", :\"$2\"}, [], [:\"$1\"]}])\n```\n", "",
     [("SK116", "$1"), ("SK116", "$2"), ("SK116", "$1")]),
    ("```\nets:select(Tab, [{{'$1', '_'}, [], ['$1']}])\n```\n", "",
     [("SK116", "$1"), ("SK116", "$1")]),
    # the skill's own input in a block stays unreported: nothing about a query on its line
    ("```bash\ngit log --oneline $0\n```\n", "argument-hint: <range>\n", []),
    # a word such as SQL in a shell block does not make the block's `$1` a parameter
    ("```bash\n# run the SQL migration named by the user\n./migrate.sh $0\n```\n",
     "argument-hint: <name>\n", []),
], ids=["prose-parameterized", "go-where", "values", "elixir-ets", "erlang-ets", "input",
        "sql-word-in-shell"])
def test_query_parameters_are_literal_text(tmp_path: Path, body: str, extra: str,
                                           expected: list[tuple[str, str]]) -> None:
    found = findings(tmp_path, body, ("SK115", "SK116"), extra=extra)
    assert loud(found) == expected


def test_a_query_parameter_says_when_it_is_substituted(tmp_path: Path) -> None:
    report = run(tmp_path, HEAD.format(name="review", description=PLAIN, extra="")
                 + "```\nSELECT * FROM t WHERE id = $1\n```\n", target="claude-code",
                 relpath="review/SKILL.md")
    (finding,) = [f for f in report.findings if f.code == "SK116"]
    assert "bind parameter" in finding.message and "\\$1" in finding.message
    assert "when the skill is invoked with arguments" in finding.message


# -- SK116: a guide to writing skills that takes arguments reads its own `$ARGUMENTS` ------------

GUIDE_BODY = """# Create a skill

#### All arguments with `$ARGUMENTS`

Parse `$ARGUMENTS` for the skill name and its purpose.
If `$ARGUMENTS` is empty, ask the user for a name.

## Writing the body

Use `$ARGUMENTS` for all the arguments, or `$0`, `$1` for one:

```markdown
Fix issue #$ARGUMENTS following our standards.
```
"""


@pytest.mark.parametrize(("extra", "expected"), [
    # with `argument-hint` the two lines that act on it are the guide's input; the examples stay
    # (a heading that names the syntax included: labelled-2's create-command, TP)
    ("argument-hint: <skill-name> [purpose]\n",
     [("SK116", "$ARGUMENTS"), ("SK116", "$ARGUMENTS"), ("SK116", "$0"), ("SK116", "$1"),
      ("SK116", "$ARGUMENTS")]),
    # without it the guide takes no arguments of its own: every `$ARGUMENTS` is an example
    ("", [("SK116", "$ARGUMENTS"), ("SK116", "$ARGUMENTS"), ("SK116", "$ARGUMENTS"),
          ("SK116", "$ARGUMENTS"), ("SK116", "$0"), ("SK116", "$1"), ("SK116", "$ARGUMENTS")]),
], ids=["declared", "not-declared"])
def test_a_guide_that_takes_arguments_uses_its_own(tmp_path: Path, extra: str,
                                                   expected: list[tuple[str, str]]) -> None:
    found = findings(tmp_path, GUIDE_BODY, ("SK116",), name="skill-creator", description=GUIDE,
                     extra=extra)
    assert loud(found) == expected


def test_a_guide_example_says_which_placeholders_break_when(tmp_path: Path) -> None:
    """Claude Code 2.1.332 (harness, sample-3 labels) replaces `$ARGUMENTS` on every invocation,
    with nothing when none are passed, and keeps `$N` as written when fewer words come."""
    text = HEAD.format(name="skill-creator", description=GUIDE, extra="") + GUIDE_BODY
    report = run(tmp_path, text, target="claude-code", relpath="skill-creator/SKILL.md")
    messages = {text[f.span.start:f.span.end]: f.message for f in report.findings
                if f.code == "SK116"}
    assert "nothing when the skill is invoked without arguments" in messages["$ARGUMENTS"]
    assert "stays as written when there are fewer" in messages["$1"]


# -- SK121: an injection fenced so its output renders as a block, under words saying so ---------

@pytest.mark.parametrize(("body", "expected"), [
    ("## Current state (injected)\n\n```\n!`git status --short`\n```\n", []),
    ("## Review\n\nThe live context below is gathered when the skill loads:\n\n```text\n"
     "!`git diff --stat`\n```\n", []),
    # nothing says so: an example that runs
    ("## Review\n\n```\n!`git status --short`\n```\n", [("SK121", "!`git status --short`")]),
    # a command file the guide shows, with its own heading inside the block: an example
    ("## Current state (injected)\n\n```markdown\n## Context\n- Status: !`git status`\n```\n",
     [("SK121", "!`git status`")]),
    # a heading about examples wins over the word
    ("## Examples of injected state\n\n```\n!`git status`\n```\n", [("SK121", "!`git status`")]),
    # inline code is no block rendered: still reported
    ("## Current state (injected)\n\nRun `` !`git status` `` first.\n", [("SK121", "!`git status`")]),
], ids=["heading", "prose-before", "example", "shown-document", "examples-heading", "inline"])
def test_an_injection_the_words_say_is_meant_to_run(tmp_path: Path, body: str,
                                                     expected: list[tuple[str, str]]) -> None:
    found = findings(tmp_path, body, ("SK121",), extra="allowed-tools: Bash(git:*)\n")
    assert loud(found) == expected


# -- SK151: a forked skill that works on the conversation -------------------------------------

@pytest.mark.parametrize(("extra", "body", "expected"), [
    ("context: fork\n", "Summarise the decisions made in this conversation.\n",
     [("SK151", "fork")]),
    ("context: fork\n", "Review the code discussed in the discussion above.\n",
     [("SK151", "fork")]),
    ("context: fork\n", "List what we discussed and open an issue for each item.\n",
     [("SK151", "fork")]),
    # inline: the skill runs in the conversation
    ("", "Summarise the decisions made in this conversation.\n", []),
    # the words are about something else, or shown in code
    ("context: fork\n", "Parse the chat export in `$ARGUMENTS`: one conversation per file.\n", []),
    # the words name the idea, not this conversation (real corpus: llm-wiki)
    ("context: fork\n", "Plain RAG: exploration disappears into chat history.\n", []),
    ("context: fork\n", "Write a prompt such as:\n\n```\nSummarise this conversation.\n```\n", []),
], ids=["this-conversation", "discussion-above", "we-discussed", "inline", "other", "history",
                      "in-code"])
def test_a_forked_skill_that_needs_the_conversation(tmp_path: Path, extra: str, body: str,
                                                    expected: list[tuple[str, str]]) -> None:
    assert loud(findings(tmp_path, body, ("SK151",), extra=extra)) == expected


# -- SK002: a vendored copy kept inside another skill's folder ---------------------------------

def skill_text(name: str, *extra: str) -> str:
    return HEAD.format(name=name, description="Does the work. Use when asked.",
                       extra="".join(f"{line}\n" for line in extra)) + "Body.\n"


@pytest.mark.parametrize(("files", "path", "expected"), [
    # under `.agents/skills`: Codex, OpenCode and Copilot CLI load it; the advice is to rename it
    ({".agents/skills/alpha/SKILL.md": skill_text("alpha"),
      ".agents/skills/alpha/references/takt/builtins/skill/SKILL.md": skill_text("takt")},
     ".agents/skills/alpha/references/takt/builtins/skill/SKILL.md",
     ("Codex, OpenCode and Copilot CLI, which look deeper, load it as a skill of its own: "
      "rename the file", "Wave, Copilot and Gemini CLI do not: they look only one level down")),
    # a category folder two levels deep (no skill holds it): still "move it"
    ({".agents/skills/group/alpha/SKILL.md": skill_text("alpha")},
     ".agents/skills/group/alpha/SKILL.md", ("move it to",)),
], ids=["vendored-copy", "category-folder"])
def test_a_nested_skill_file_says_who_loads_it(tmp_path: Path, files: dict[str, str], path: str,
                                               expected: tuple[str, ...],
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    found = [item for item in check_project(tmp_path, files, capsys, monkeypatch)
             if item["code"] == "SK002" and item["path"] == path]
    assert len(found) == 1
    message = str(found[0]["message"])
    assert all(part in message for part in expected), message
    assert ("rename the file" in message) == (expected[0].startswith("Codex"))


# -- SK028: the hint is said once per collection ----------------------------------------------

def _count(items: object) -> int:
    return len(items) if isinstance(items, list) else 0


FOLDED = ("description: >-", "  Does the work.", "  Use when asked.")


def folded(name: str) -> str:
    return f"---\nname: {name}\n" + "\n".join(FOLDED) + "\n---\nBody.\n"


@pytest.mark.parametrize(("files", "target", "expected"), [
    # three skills of one root with block scalars: one hint, on the first, naming the two others
    ({f".claude/skills/{n}/SKILL.md": folded(n) for n in ("alpha", "beta", "gamma")},
     "claude-code", [(".claude/skills/alpha/SKILL.md", "hint", 2)]),
    # a skill without one does not take the hint from those that have one
    ({".claude/skills/alpha/SKILL.md": skill_text("alpha"),
      ".claude/skills/beta/SKILL.md": folded("beta")},
     "claude-code", [(".claude/skills/beta/SKILL.md", "hint", 0)]),
    # a warning (a reader takes the indicator literally) is said on every file
    ({f"skills/{n}/SKILL.md": folded(n) for n in ("alpha", "beta")},
     "portable", [("skills/alpha/SKILL.md", "warning", 0), ("skills/beta/SKILL.md", "warning", 0)]),
], ids=["once", "only-those-with-one", "warnings-everywhere"])
def test_the_block_scalar_hint_is_said_once_per_collection(
        tmp_path: Path, files: dict[str, str], target: str,
        expected: list[tuple[str, str, int]], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    found = [(item["path"], item["severity"], _count(item.get("related")))
             for item in check_project(tmp_path, files, capsys, monkeypatch, "--target", target)
             if item["code"] == "SK028"]
    assert sorted(found) == expected


# -- SK112: `${CLAUDE_PLUGIN_ROOT}/…` resolved against the plugin's root -----------------------

PLUGIN = {"plugins/p/.claude-plugin/plugin.json": '{"name": "p"}\n',
          "plugins/p/scripts/x.sh": "echo x\n", ".git/HEAD": "ref: refs/heads/main\n"}


@pytest.mark.parametrize(("body", "description", "expected"), [
    ("Run `bash ${CLAUDE_PLUGIN_ROOT}/scripts/x.sh`.\n", PLAIN, []),
    # the plugin's folder written again from the repository root: doubled
    ("Run `bash ${CLAUDE_PLUGIN_ROOT}/plugins/p/scripts/x.sh`.\n", PLAIN,
     [("SK112", "plugins/p/scripts/x.sh")]),
    ("Run `bash ${CLAUDE_PLUGIN_ROOT}/scripts/missing.sh`.\n", PLAIN,
     [("SK112", "scripts/missing.sh")]),
    # a folder the plugin lacks altogether (built, or not checked out): information only
    ("Run `node ${CLAUDE_PLUGIN_ROOT}/dist/index.js`.\n", PLAIN, []),
    # a pattern, a file the skill makes, a guide's example: no finding
    ("Run `bash ${CLAUDE_PLUGIN_ROOT}/scripts/run.{sh,ps1}`.\n", PLAIN, []),
    ("```bash\nmkdir -p ${CLAUDE_PLUGIN_ROOT}/cache\n```\n", PLAIN, []),
    ("Hooks run `${CLAUDE_PLUGIN_ROOT}/hooks/validate.sh`.\n", GUIDE, []),
], ids=["exists", "doubled", "missing", "built", "pattern", "made", "guide"])
def test_a_plugin_root_path_points_into_the_plugin(tmp_path: Path, body: str, description: str,
                                                   expected: list[tuple[str, str]]) -> None:
    found = findings(tmp_path, body, ("SK112",), name="s", description=description,
                     relpath="plugins/p/skills/s/SKILL.md", files=PLUGIN)
    assert loud(found) == expected


def test_a_doubled_plugin_path_offers_the_path_without_it(tmp_path: Path) -> None:
    text = HEAD.format(name="s", description=PLAIN, extra="") + \
        "Run `bash ${CLAUDE_PLUGIN_ROOT}/plugins/p/scripts/x.sh`.\n"
    report = run(tmp_path, text, target="claude-code", relpath="plugins/p/skills/s/SKILL.md",
                 files=PLUGIN)
    (finding,) = [f for f in report.findings if f.code == "SK112"]
    assert "names the plugin's folder twice" in finding.message
    assert "`plugins/p` here" in finding.message
    assert [edit.new_text for fix in finding.fixes for edit in fix.edits] == ["scripts/x.sh"]


def test_a_plugin_root_path_outside_a_plugin_is_left_to_sk117(tmp_path: Path) -> None:
    found = findings(tmp_path, "Run `bash ${CLAUDE_PLUGIN_ROOT}/scripts/missing.sh`.\n",
                     ("SK112",), name="s")
    assert loud(found) == []


@pytest.mark.parametrize(("body", "files", "relpath", "expected"), [
    # the plugin's own script, run from the user's project: reported with the variable's path
    # (information: the labels disagree whether the model finds it from the skill's folder)
    ("```bash\npython scripts/x.py --all\n```\n", {"plugins/p/scripts/x.py": "print()\n"},
     "plugins/p/skills/s/SKILL.md", [("SK112", "information", "scripts/x.py")]),
    # the skill's own script: resolved from the skill's folder
    ("```bash\npython scripts/x.py --all\n```\n", {"plugins/p/skills/s/scripts/x.py": ""},
     "plugins/p/skills/s/SKILL.md", []),
    # a project's skill runs in the project: its root's script is there
    ("```bash\npython scripts/x.py --all\n```\n", {"scripts/x.py": "print()\n"},
     ".claude/skills/s/SKILL.md", []),
    # only named, not run: the model may find it from the base directory's plugin
    ("The plugin keeps its helpers in `scripts/x.py`.\n", {"plugins/p/scripts/x.py": ""},
     "plugins/p/skills/s/SKILL.md", []),
], ids=["plugin-root-script", "own-script", "project-skill", "named"])
def test_a_plugin_script_run_from_the_working_folder(tmp_path: Path, body: str,
                                                     files: dict[str, str], relpath: str,
                                                     expected: list[tuple[str, str, str]]) -> None:
    found = findings(tmp_path, body, ("SK112",), name="s", relpath=relpath,
                     files={**PLUGIN, **files})
    assert found == expected


@pytest.mark.parametrize(("body", "description"), [
    # a skill file shown in a `yaml` block, under a heading about injected context (labelled-2:
    # trinity-skills' skill-builder, TP)
    ("## Dynamic Context Injection\n\n```yaml\n---\nname: pr-summary\n---\n\n"
     "- PR diff: !`gh pr diff`\n```\n", PLAIN),
    # a guide to writing skills teaches the syntax: its blocks are examples
    ("## Current state (injected)\n\n```\n!`git status --short`\n```\n", GUIDE),
], ids=["shown-frontmatter", "guide"])
def test_an_injection_shown_as_an_example_stays_reported(tmp_path: Path, body: str,
                                                         description: str) -> None:
    found = findings(tmp_path, body, ("SK121",), description=description,
                     extra="allowed-tools: Bash(git:*), Bash(gh:*)\n")
    assert [code for code, _ in loud(found)] == ["SK121"]


def test_an_indexed_example_says_it_stays_as_written(tmp_path: Path) -> None:
    """`$ARGUMENTS[0]` is kept as written when no word comes (Claude Code keeps a missing indexed
    argument), unlike `$ARGUMENTS`, which becomes nothing."""
    text = HEAD.format(name="skill-creator", description=GUIDE, extra="") + \
        "```markdown\nFix issue $ARGUMENTS[0] now.\n```\n"
    report = run(tmp_path, text, target="claude-code", relpath="skill-creator/SKILL.md")
    (finding,) = [f for f in report.findings if f.code == "SK116"]
    assert "stays as written when fewer words are passed" in finding.message
