"""Facts as data (docs/design/rules.md *Facts: the effect of a rule under a target*): the catalog's
`effect` rows agree with the severities, `stops-loading` and the evidence of every rule × target
(the parity tests, in the spirit of agnix's); every sentence a rule says about a runtime is built
from those facts and the profiles, never from a runtime's name written in a rule module; every
profile field is read by product code; `wave-lsp rule CODE` shows the facts per target."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from wave_lsp.cli import main
from wave_lsp.core.checking import catalog
from wave_lsp.core.checking.catalog import (
    CATALOG_COLUMNS,
    EFFECTS,
    Effect,
    Severity,
    parse_catalog,
    rules,
)
from wave_lsp.core.checking.messages import (
    EFFECT_SENTENCES,
    consequence,
    effect_sentence,
    elsewhere,
    runtimes_that,
)
from wave_lsp.core.facts.profiles import PORTABLE, PROFILES, RuntimeProfile

PACKAGE = Path(__file__).resolve().parents[2] / "wave_lsp"
RULE_MODULES = sorted((PACKAGE / "core" / "rules").glob("*.py"))
#: how messages would name a runtime by hand: what the profiles' `runtime`/`reader_name` hold
RUNTIME_NAMES = re.compile(r"Claude Code|\bWave\b|\bCodex\b|Copilot|Cursor|OpenCode|Gemini|"
                           r"skills-ref|VS Code|\bCline\b")
#: rule × target cells whose catalog level is milder than the effect `drops` because the rule
#: raises the one finding that stops loading to an error itself, from a profile fact (a closing
#: line the runtime does not take, `_closing_reading`; an unclosed frontmatter OpenCode reads to
#: the end of the file without finding its fields, `_unclosed_reading`; a word a runtime needs
#: as a YAML boolean, `invocation_fields_need_booleans`); each other finding of the rule keeps
#: the milder level
RAISED_PER_FINDING = {
    ("SK006", "opencode"),  # gray-matter reads on; the skill drops only without its fields
    ("SK007", "codex"), ("SK007", "copilot-cli"), ("SK007", "portable"),
    ("SK090", "copilot-cli"), ("SK090", "portable"),
}
#: fields no behaviour reads, with why
UNREAD_FIELDS = {
    "fact_versions": "the version each other field was verified against: provenance, checked by "
                     "tests/core/test_runtime_reads.py, not behaviour",
}
WITH_EFFECTS = [code for code, item in rules().items() if item.effects]


def _profile(column: str) -> RuntimeProfile:
    return next(p for p in PROFILES.values() if p.catalog_column == column)


def _literals(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module (f-string parts included), docstrings left out."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            docstrings.add(id(node.body[0].value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.name)
def test_no_rule_module_names_a_runtime(path: Path) -> None:
    """A runtime in a message comes from a profile (`profile.runtime`, `runtimes_that(fact)`,
    `validators()`) or the catalog's facts (`consequence`, `elsewhere`), never from the text of
    a rule: adding a runtime is data, not prose (issue 36)."""
    named = [f"{path.name}:{line}: {text[:60]!r}" for line, text in _literals(path)
             if RUNTIME_NAMES.search(text)]
    assert not named


def test_the_scan_finds_a_runtime_name_in_a_literal(tmp_path: Path) -> None:
    """The test above would see a name in a message, in an f-string part, not in a docstring."""
    module = tmp_path / "m.py"
    module.write_text('"""Claude Code in the docstring."""\n'
                      'def f(x):\n    """Wave here too."""\n'
                      '    return f"{x} and Codex drops it", "plain"\n', "utf-8")
    found = [text for _, text in _literals(module) if RUNTIME_NAMES.search(text)]
    assert found == [" and Codex drops it"]


def test_no_rule_keeps_a_wording_table_keyed_by_profile() -> None:
    """No `{PROFILE: "…"}.get(ctx.profile …)` table in a rule module (issue 36: the twelve tables
    are gone), and no profile constant is imported to key one."""
    for path in RULE_MODULES:
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                keys = [k.id for k in node.keys if isinstance(k, ast.Name)]
                assert not any(key.isupper() and key in _PROFILE_CONSTANTS for key in keys), \
                    (path.name, node.lineno)


_PROFILE_CONSTANTS = {"WAVE", "CLAUDE_CODE", "AGENTSKILLS", "PORTABLE", "CODEX", "COPILOT",
                      "CURSOR", "OPENCODE", "GEMINI_CLI", "COPILOT_CLI"}


@pytest.mark.parametrize("code", WITH_EFFECTS)
def test_an_effect_is_recorded_exactly_where_the_target_reports_the_rule(code: str) -> None:
    item = rules()[code]
    for column in CATALOG_COLUMNS:
        assert (item.severities[column] is None) == (column not in item.effects), (code, column)


@pytest.mark.parametrize("code", WITH_EFFECTS)
def test_stops_loading_is_the_effect_drops(code: str) -> None:
    """`stops-loading` is derived: the columns of a verified `drops` or `rejects`; an error there
    stops loading, so the level is an error unless the rule raises that finding itself."""
    item = rules()[code]
    for column, effect in item.effects.items():
        stops = effect.stops_loading and effect.verified
        assert (column in item.stops_loading) == stops, (code, column)
        if stops and (code, column) not in RAISED_PER_FINDING:
            assert item.severities[column] == Severity.ERROR, (code, column)
        if effect.kind == "loads":
            assert item.severities[column] != Severity.ERROR, (code, column)


def test_the_raised_cells_are_still_milder_than_an_error() -> None:
    """Each exception above is needed: its catalog level is not an error."""
    for code, column in RAISED_PER_FINDING:
        assert rules()[code].severities[column] != Severity.ERROR, (code, column)
        assert rules()[code].effects[column].stops_loading, (code, column)


@pytest.mark.parametrize("code", WITH_EFFECTS)
def test_an_effect_is_as_sure_as_its_evidence(code: str) -> None:
    """A verified effect rests on a row about its target that is not `unverified:` (an advice row
    may carry `loads`: the project's reading that nothing happens); an unverified one has no
    verified row; a runtime known from its documentation only (Cursor) has only unverified
    effects, and its messages say so once."""
    item = rules()[code]
    for column, effect in item.effects.items():
        if column == "portable":
            continue  # the strictest of its members (below)
        rows = [row for row in item.evidence if row.covers(column)]
        verified = [row for row in rows if not row.is_unverified
                    and (not row.is_advice or effect.kind == "loads")]
        if _profile(column).evidence == "docs":
            assert not effect.verified, (code, column)
            continue
        assert effect.verified == bool(verified), (code, column, str(effect))


@pytest.mark.parametrize("code", WITH_EFFECTS)
def test_portable_stops_loading_where_one_of_its_runtimes_does(code: str) -> None:
    item = rules()[code]
    members = [item.effects.get(m.catalog_column) for m in PORTABLE.members]
    drops = any(e is not None and e.verified and e.stops_loading for e in members)
    portable = item.effects.get("portable")
    assert portable is not None and portable.stops_loading == drops, code


def test_every_rule_that_stops_loading_has_an_effect_row() -> None:
    text = (PACKAGE / "data" / "rules.toml").read_text("utf-8")
    raw = parse_catalog(text)
    assert not [code for code, entry in raw.items() if "stops-loading" in entry]
    assert all(rules()[code].effects for code in rules() if rules()[code].stops_loading)


@pytest.mark.parametrize(("entry", "problem"), [
    ({"effect": ["drops"] * 9}, "one cell per target"),
    ({"effect": ["vanishes"] + ["-"] * 9}, "unknown effect"),
    ({"effect": ["drops"] + ["-"] * 9, "stops-loading": ["wave"]}, "not both"),
])
def test_the_reader_rejects_a_bad_effect_row(entry: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        effects = catalog._effects("SK999", entry)
        catalog._stops_loading("SK999", entry, effects)


def test_an_unverified_cell_never_stops_loading() -> None:
    entry = {"effect": ["drops?", "drops", "rejects"] + ["-"] * 7}
    effects = catalog._effects("SK999", entry)
    assert effects["wave"] == Effect("drops", verified=False)
    assert catalog._stops_loading("SK999", entry, effects) == {"claude-code", "agentskills"}


@pytest.mark.parametrize("kind", list(EFFECTS))
def test_every_effect_kind_has_one_sentence_for_one_runtime_and_for_several(kind: str) -> None:
    one = effect_sentence(kind, ["Alpha"], "the value")
    several = effect_sentence(kind, ["Alpha", "Beta"], "the value")
    assert one.startswith("Alpha ") and several.startswith("Alpha and Beta ")
    assert one != several
    assert effect_sentence(kind, ["Alpha"], verified=False).startswith("unverified (not run): ")
    assert "documentation only" in effect_sentence(kind, ["Alpha"], verified=False,
                                                   documented_only=True)
    assert set(EFFECT_SENTENCES) == set(EFFECTS)


@pytest.mark.parametrize("code", WITH_EFFECTS)
@pytest.mark.parametrize("column", [c for c in CATALOG_COLUMNS if c != "portable"])
def test_the_sentence_of_a_target_names_its_runtime_and_says_its_effect(code: str,
                                                                       column: str) -> None:
    item, profile = rules()[code], _profile(column)
    effect = item.effects.get(column)
    if effect is None:
        return
    said = consequence(code, profile)
    assert profile.runtime in said
    assert said.startswith("unverified") == (not effect.verified)
    drops = effect.stops_loading
    if effect.verified:
        assert ("does not load the skill" in said or "rejects the skill" in said) == drops, said
    else:  # an unconfirmed drop is not asserted
        assert "does not load" not in said and "rejects the skill" not in said, said
        assert ("may not load the skill" in said or "may reject" in said) == drops, said


@pytest.mark.parametrize("code", WITH_EFFECTS)
def test_elsewhere_names_only_other_runtimes_that_drop_the_skill(code: str) -> None:
    item = rules()[code]
    for profile in PORTABLE.members:
        said = elsewhere(code, profile)
        for other in PORTABLE.members:
            effect = item.effects.get(other.catalog_column)
            dropping = effect is not None and effect.verified and effect.stops_loading
            named = re.search(rf"(^|, |; | and ){re.escape(other.runtime)}(?=,| and | do| reject)",
                              said) is not None
            if other is profile:
                continue
            assert named == dropping, (code, profile.name, other.name, said)


def test_name_must_match_folder_is_the_effect_of_sk039() -> None:
    """The profile field and the catalog say the same: a runtime that compares `name` with the
    folder drops (or rejects) the skill for SK039 (OpenCode and Gemini CLI do not compare)."""
    item = rules()["SK039"]
    for profile in PORTABLE.members:
        effect = item.effects[profile.catalog_column]
        assert profile.name_must_match_folder == (effect.stops_loading and effect.verified), \
            profile.name


def test_the_listing_budget_is_known_where_sk131_is_reported() -> None:
    item = rules()["SK131"]
    for profile in PORTABLE.members:
        if profile.kind == "runtime":
            assert (item.severity(profile) is None) == (profile.listing_budget_chars is None), \
                profile.name


def test_copilot_cli_drops_the_skills_its_harness_saw_dropped() -> None:
    """Copilot CLI 1.0.102 (runtime-facts.md §12.2): `name: 123`, an empty name and
    `description: 5` are not loaded; `description: ""` is."""
    column = "copilot-cli"
    for code in ("SK031", "SK032", "SK051"):
        assert column in rules()[code].stops_loading, code
        assert rules()[code].severities[column] == Severity.ERROR, code
    assert rules()["SK052"].effects[column] == Effect("loads")


def test_runtimes_that_reads_the_profiles() -> None:
    assert runtimes_that(lambda p: p.argument_base == 0 and p.substitutes_arguments) == \
        [p.runtime for p in PORTABLE.members if p.kind == "runtime" and p.argument_base == 0
         and p.substitutes_arguments]
    assert runtimes_that(lambda p: True, kinds=("validator",)) == ["skills-ref"]


def test_every_profile_field_is_read_by_product_code() -> None:
    """Each `RuntimeProfile` field is read (an attribute access) somewhere in the package besides
    the profiles' definitions; a fact no code asks for is a fact that cannot be wrong."""
    read: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name == "profile_types.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Attribute):
                read.add(node.attr)
    fields = {field.name for field in dataclasses.fields(RuntimeProfile)}
    assert fields - read == set(UNREAD_FIELDS)


def test_the_rule_command_shows_the_facts_per_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "SK030"]) == 0
    text = capsys.readouterr().out
    assert "Facts per target:" in text
    assert "  codex: information, renames — Codex loads the skill under its folder's name" in text
    assert "  cursor: warning, drops? — unverified (from its documentation only): Cursor may not " \
        "load the skill" in text
    assert main(["rule", "SK030", "--format", "json"]) == 0
    import json

    printed = json.loads(capsys.readouterr().out)
    assert printed["effects"]["claude-code"] == "renames"
    assert printed["effects"]["cursor"] == "drops?"


_PLUGIN = {"myplug/.claude-plugin/plugin.json": '{"name": "myplug"}'}


@pytest.mark.parametrize(("code", "text"), [
    ("SK050", "---\nname: a\n---\n# Title\nbody\n"),
    ("SK005", "no frontmatter\nbody\n"),
    ("SK021", "---\r\nname: a\r\ndescription: Use when: x\r\n---\r\nbody\r\n"),
])
def test_a_plugin_skill_without_a_description_is_left_out_of_the_listing(
        tmp_path: Path, code: str, text: str) -> None:
    """Issue 37 item 7: Claude Code 2.1.332 leaves a plugin's skill without a description out of
    the model's listing (`lists_plugin_skills_only_when_described`); it still loads and runs
    when named. The same file outside a plugin is described by its body's first line."""
    from tests.helpers import run

    report = run(tmp_path, text, target="claude-code", relpath="myplug/skills/a/SKILL.md",
                 files=_PLUGIN)
    (finding,) = [f for f in report.findings if f.code == code]
    assert "leaves it out of the model's listing" in finding.message
    assert report.verdict.loads
    alone = run(tmp_path / "alone", text, target="claude-code",
                relpath=".claude/skills/a/SKILL.md")
    (plain,) = [f for f in alone.findings if f.code == code]
    assert "leaves it out of the model's listing" not in plain.message


@pytest.mark.parametrize(("text", "target", "code", "says", "level"), [
    # SK085: a bare `*` names no tool (Claude Code 2.1.332 pre-approves nothing with it)
    ("allowed-tools: \"*\"\n", "claude-code", "SK085", "pre-approves nothing", "information"),
    ("allowed-tools: Bash\n", "claude-code", "SK085", "pre-approves every shell command",
     "information"),
    # SK097: an unknown model is sent as written
    ("model: best-model\n", "claude-code", "SK097",
     "passes `model: best-model` on as written, with no fallback", None),
    # SK100: 2.1.332's events are known; an unknown one loses only its entry
    ("hooks:\n  PreTool:\n    - hooks:\n        - type: command\n          command: x\n",
     "claude-code", "SK100", "ignores this entry (the block's other hooks still run)", None),
    # SK023: a valid anchor loads under the js-yaml runtimes (a warning, not an error)
    ("metadata:\n  a: &d x\n  b: *d\n", "opencode", "SK023", "OpenCode resolves it", "warning"),
    ("metadata:\n  a: &d x\n  b: *d\n", "gemini-cli", "SK023", "Gemini CLI resolves it",
     "warning"),
    # SK051: Claude Code drops a list `description` and describes the skill by its body
    ("description:\n  - a\n", "claude-code", "SK051", "ignores this value", None),
    # SK031/SK032 under Copilot CLI 1.0.102: not loaded
    ("name: 123\n", "copilot-cli", "SK031", "Copilot CLI does not load the skill", "error"),
    ("name: \"\"\n", "copilot-cli", "SK032", "Copilot CLI does not load the skill", "error"),
    # SK030 under Codex: the folder's name, not a rejection
    ("description: Use when x.\n", "codex", "SK030", "Codex loads the skill under its "
     "folder's name", None),
    # SK039 under OpenCode, Gemini CLI and Cursor: no folder check
    ("name: other\n", "opencode", "SK039", "does not compare it with the folder", None),
    ("name: other\n", "gemini-cli", "SK039", "does not compare it with the folder", None),
])
def test_messages_say_what_the_facts_say(tmp_path: Path, text: str, target: str, code: str,
                                         says: str, level: str | None) -> None:
    from tests.helpers import run

    body = text
    fields = "" if body.startswith(("name:", "description:")) else "name: my-skill\n"
    if "description:" not in body:
        fields += "description: Use when the user asks for x.\n"
    roots = {"opencode": ".opencode/skills", "gemini-cli": ".gemini/skills",
             "codex": ".codex/skills", "copilot-cli": ".github/skills"}
    relpath = f"{roots.get(target, '.claude/skills')}/my-skill/SKILL.md"
    report = run(tmp_path, f"---\n{fields}{body}---\nUse it.\n", target=target, relpath=relpath)
    found = [f for f in report.findings if f.code == code]
    assert found, [f.message for f in report.findings]
    assert says in found[0].message, found[0].message
    if level is not None:
        assert found[0].severity.label == level
    stopped = report.verdict.stopped_by
    runtime = PROFILES[target].runtime
    assert (stopped is not None and stopped.code == code) == \
        (f"{runtime} does not load the skill" in found[0].message)


def test_a_named_argument_with_a_dash_or_a_dot_is_used_as_written(tmp_path: Path) -> None:
    """Claude Code 2.1.332 matches `$my-arg` and `$v1.2` literally (issue 36): no SK098 on the
    names, no SK118 on their uses; an undeclared one is still reported."""
    from tests.helpers import run

    report = run(tmp_path, "---\nname: my-skill\ndescription: Use when x.\narguments: my-arg "
                           "v1.2\n---\nUse $my-arg and $v1.2, not $other.\n",
                 target="claude-code", relpath=".claude/skills/my-skill/SKILL.md")
    codes = [(f.code, f.message[:12]) for f in report.findings if f.code in ("SK098", "SK118")]
    assert codes == [("SK118", "`$other` is ")]


@pytest.mark.parametrize(("body", "fields", "code", "says"), [
    # SK151: only the runtimes that fork (they report the rule) are named
    ("Summarise the discussion above.\n", "context: fork\n", "SK151",
     "Wave and Claude Code run a forked skill"),
    # SK115: who counts `$N` from 1 and who from 0, not "every runtime counts from 1"
    ("Use $1 for the version.\n", "", "SK115",
     "`$1` is argument 1 in Wave and OpenCode, which count from 1, argument 2 in Claude Code "
     "and Copilot CLI, which count from 0"),
    # SK116: the runtimes that substitute code, each with the argument it puts there
    ("```bash\nawk '{print $2}' f\n```\n", "", "SK116",
     "Wave, Claude Code, OpenCode and Copilot CLI substitute code too: it becomes the user's "
     "argument 3 in Claude Code and Copilot CLI, argument 2 in Wave and OpenCode"),
    # SK097: the runtimes that read `model`, from the effect row
    ("Use it.\n", "model: best-model\n", "SK097",
     "Wave and Claude Code load the skill and pass `model: best-model` on as written"),
])
def test_an_aggregate_names_the_runtimes_a_fact_holds_for(tmp_path: Path, body: str, fields: str,
                                                         code: str, says: str) -> None:
    """Under `portable` a sentence about what runtimes do names those it holds for (issue 36:
    'every runtime substitutes code too' was false for Codex, Copilot, Cursor, Gemini CLI)."""
    from tests.helpers import run

    text = f"---\nname: my-skill\ndescription: Use when the user asks for x.\n{fields}---\n{body}"
    report = run(tmp_path, text, target="portable", relpath="my-skill/SKILL.md")
    found = [f.message for f in report.findings if f.code == code]
    assert found and says in found[0], found
    assert "every runtime" not in found[0]


def test_who_reports_names_the_target_or_the_members_that_report_the_rule() -> None:
    from wave_lsp.core.checking.messages import who_reports

    assert who_reports("SK151", PROFILES["codex"]) == ["Codex"]
    assert who_reports("SK151", PORTABLE) == ["Wave", "Claude Code"]
    assert who_reports("SK116", PORTABLE, lambda p: p.argument_base == 0) == \
        ["Claude Code", "Copilot CLI"]
