"""The profile facts the differential harness's shared cases corrected (docs/design/runtime-facts.md
§12; tests/oracle/cases name-invalid, desc-long, invoke-user-invocable-no, cp-name-rules,
cp-description-limit, cp-invocation-booleans), one row per fact: whether the runtime loads the
skill, and what `check` says of it under that target."""

from __future__ import annotations

from pathlib import Path

import pytest

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.checker import FileReport, check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.facts.profiles import COPILOT_CLI, PROFILES, WAVE

#: where each target finds a project skill (a target speaks only of the files it finds)
ROOTS = {"wave": ".wave/skills", "claude-code": ".claude/skills"}


def _check(text: str, target: str) -> FileReport:
    root = ROOTS.get(target, ".agents/skills")
    return check_file(Path(f"/nowhere/project/{root}/skill/SKILL.md"),
                      Settings(profile=PROFILES[target], home=Path("/nowhere/home")), text=text)


def _skill(name: str = "skill", description: str = "Does a thing. Use when asked.",
           extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\nBody.\n"


@pytest.mark.parametrize(("text", "length"), [
    ("abc", 3), ("é" * 4, 4), ("\U0001F600", 2), ("\U0001F600" * 512, 1024), ("a\U0001F600b", 4),
])
def test_copilot_cli_counts_as_javascript(text: str, length: int) -> None:
    """Copilot CLI 1.0.102 counts UTF-16 code units (case cp-description-limit: 512 emoji load,
    513 do not); the others count code points."""
    assert COPILOT_CLI.length(text) == length
    assert WAVE.length(text) == len(text)


@pytest.mark.parametrize(("name", "wave", "copilot_cli"), [
    ("a", True, True),
    ("-a", True, False),  # case name-invalid: a leading hyphen
    ("a--b", True, True),
    ("a-", True, True),  # case cp-name-rules
    ("Mixed_Case.v2", False, True),
    ("has space", False, True),
    ("a:b", False, True),
    ("_a", False, False),
    ("a~b", False, False),
    ("héllo", False, False),
    ("b" * 64, True, True),
    ("a" * 65, False, False),
    ("  padded  ", True, True),  # both trim the name
])
def test_each_runtime_checks_the_name_itself(name: str, wave: bool, copilot_cli: bool) -> None:
    """Wave 469391bb's `/^[a-z0-9-]+$/` (64 at most) and Copilot CLI 1.0.102's check; a profile
    without a check of its own answers None."""
    assert WAVE.accepts_name(name) is wave
    assert COPILOT_CLI.accepts_name(name) is copilot_cli
    assert PROFILES["claude-code"].accepts_name(name) is None


@pytest.mark.parametrize(("name", "target", "loads", "code", "level"), [
    # the open specification forbids these; Wave loads them: a warning, not a drop
    ("-a", "wave", True, "SK035", Severity.WARNING),
    ("a--b", "wave", True, "SK036", Severity.WARNING),
    ("a_b", "wave", False, "SK037", Severity.ERROR),
    # Copilot CLI drops a leading hyphen, loads a trailing or double one (not reported)
    ("-a", "copilot-cli", False, "SK035", Severity.ERROR),
    ("a-", "copilot-cli", True, None, None),
    ("a--b", "copilot-cli", True, None, None),
    ("_a", "copilot-cli", False, "SK037", Severity.ERROR),
    ("a_b", "copilot-cli", True, None, None),
    ("héllo", "copilot-cli", False, "SK038", Severity.ERROR),
    ("a" * 65, "copilot-cli", False, "SK033", Severity.ERROR),
    # portable: Copilot CLI drops `-a`
    ("-a", "portable", False, "SK035", Severity.ERROR),
])
def test_name_rules_say_what_the_runtime_does(name: str, target: str, loads: bool,
                                              code: str | None, level: Severity | None) -> None:
    report = _check(_skill(name), target)
    assert report.verdict is not None and report.verdict.loads is loads
    found = [f for f in report.findings if f.code in ("SK033", "SK035", "SK036", "SK037",
                                                      "SK038")]
    if code is None:
        assert found == []
        return
    (finding,) = [f for f in found if f.code == code]
    assert finding.severity == level
    runtime = PROFILES[target].runtime
    if target != "portable":
        assert (f"{runtime} loads it" if loads else f"{runtime} does not load") in finding.message


@pytest.mark.parametrize(("description", "target", "loads", "words"), [
    ("x" * 1024, "copilot-cli", True, None),
    ("x" * 1025, "copilot-cli", False, "Copilot CLI does not load the skill"),
    ("w " * 810, "copilot-cli", False, "Copilot CLI does not load the skill"),  # case desc-long
    ("\U0001F600" * 512, "copilot-cli", True, None),
    ("\U0001F600" * 513, "copilot-cli", False, "the specification counts 513 characters"),
    ("\U0001F600" * 513, "wave", True, None),
    ("x" * 1025, "wave", True, "Wave has no limit"),
    ("x" * 1025, "codex", True, "lists only the first 1,021 characters"),
    ("x" * 1025, "portable", False, "Dropped by Copilot CLI."),
])
def test_description_limit(description: str, target: str, loads: bool,
                           words: str | None) -> None:
    report = _check(_skill(description=description), target)
    assert report.verdict is not None and report.verdict.loads is loads
    found = [f for f in report.findings if f.code == "SK053"]
    if words is None:
        assert found == []
        return
    (finding,) = found
    assert words in finding.message and "every runtime does not" not in finding.message
    assert (finding.severity == Severity.ERROR) is not loads


@pytest.mark.parametrize(("line", "target", "loads", "level"), [
    ("user-invocable: no", "copilot-cli", False, Severity.ERROR),  # case invoke-user-invocable-no
    ('user-invocable: "true"', "copilot-cli", False, Severity.ERROR),
    ("user-invocable:", "copilot-cli", False, Severity.ERROR),
    ("disable-model-invocation: yes", "copilot-cli", False, Severity.ERROR),
    ("user-invocable: True", "copilot-cli", True, None),
    ("user-invocable: false", "copilot-cli", True, None),
    # Wave reads `no` as false and loads the skill (runtime-facts.md §8.13)
    ("user-invocable: no", "wave", True, Severity.WARNING),
    ('user-invocable: "true"', "wave", True, None),
])
def test_invocation_fields_need_booleans(line: str, target: str, loads: bool,
                                         level: Severity | None) -> None:
    report = _check(_skill(extra=f"{line}\n"), target)
    assert report.verdict is not None and report.verdict.loads is loads
    found = [f for f in report.findings if f.code == "SK090"]
    assert [f.severity for f in found] == ([level] if level else [])
    if not loads:
        assert "must be a boolean" in found[0].message


@pytest.mark.parametrize(("line", "read"), [
    ("description: Use when: a thing happens", ("description", "Use when: a thing happens")),
    ('description: "Line one\\nline two."', ("description", "Line one\\nline two.")),
    ("name: 'quoted'", ("name", "quoted")),
    ("description: \"unterminated", ("description", "unterminated")),
    ("  nested: value  ", ("nested", "value")),
    ("key:", None),
    ("# comment: x", None),
    ("- item", None),
    ("no colon", None),
])
def test_wave_line_parser(line: str, read: tuple[str, str] | None) -> None:
    """Wave 469391bb's `parseYamlFrontmatter`, one line (case fm-colon-value)."""
    from wave_lsp.core.facts.loaders import line_parser_value

    assert line_parser_value(line) == read


@pytest.mark.parametrize(("target", "loads", "words"), [
    ("wave", False, "Wave 469391bb's code differs: its line parser never fails and reads "
                    "`description` as `Use when: a thing happens`"),
    ("agentskills", False, "skills-ref rejects the skill"),
    ("claude-code", True, "quoting retry"),
])
def test_invalid_yaml_under_wave_says_both(target: str, loads: bool, words: str) -> None:
    """The `wave` target follows the specification (a clear error); the message says what the
    released Wave does (case fm-colon-value)."""
    report = _check(_skill(description="Use when: a thing happens"), target)
    assert report.verdict is not None and report.verdict.loads is loads
    (finding,) = [f for f in report.findings if f.code == "SK021"]
    assert words in finding.message
    if target == "wave":
        assert ("the Wave specification says invalid YAML fails with a clear message, and the "
                "`wave` target follows it (the skill does not load here)") in finding.message


@pytest.mark.parametrize(("folders", "lines"), [
    # case dup-same-name: the first in the listing's order keeps the label, the next loses it
    ({"twin-a": "twin", "twin-b": "twin"},
     {"twin-a": "- twin-a (twin): d", "twin-b": "- twin-b: d"}),
    ({"twin-a": "twin", "twin-b": "twin", "twin-c": "twin"},
     {"twin-a": "- twin-a (twin): d", "twin-b": "- twin-b: d", "twin-c": "- twin-c: d"}),
    ({"one": "first", "two": "second"}, {"one": "- one (first): d", "two": "- two (second): d"}),
])
def test_claude_code_labels_the_first_skill_of_a_name(tmp_path: Path, folders: dict[str, str],
                                                      lines: dict[str, str]) -> None:
    """Claude Code 2.1.332 shows a frontmatter `name` as a label beside the first skill that has
    it only, and `/label` runs that one; `list` (its rows and aliases), the rendered listing and
    SK039 agree."""
    from wave_lsp.core.checking.loading import runtime_listing, skill_rows

    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    for folder, name in folders.items():
        path = project / ".claude/skills" / folder / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: {name}\ndescription: d\n---\nBody.\n", "utf-8")
    claude = PROFILES["claude-code"]
    rows = {row["name"]: row for row in skill_rows(claude, project, home, False, project)}
    assert {name: row["listingLine"] for name, row in rows.items()} == lines
    for name, row in rows.items():
        assert row["aliases"] == ([folders[name]] if "(" in lines[name] else [])
    assert sorted(entry.text for entry in runtime_listing(claude, project, home, False)) == \
        sorted(lines.values())
    later = [folder for folder, line in lines.items() if "(" not in line]
    for folder in later:
        report = check_file(project / ".claude/skills" / folder / "SKILL.md",
                            Settings(profile=claude, home=home))
        (finding,) = [f for f in report.findings if f.code == "SK039"]
        assert f"lists it as `- {folder}: …`" in finding.message
        assert "beside `twin-a` only" in finding.message


@pytest.mark.parametrize(("target", "layout", "winner"), [
    # case dup-same-name: two folders of one root; OpenCode loads the last in its glob's order
    # last, and Bun's glob walks a folder backwards: the first in the folder's order
    ("opencode", {"project:.opencode/skills/twin-a": "twin", "project:.opencode/skills/twin-b": "twin"},
     ".opencode/skills/twin-a"),
    ("wave", {"project:.wave/skills/twin-a": "twin", "project:.wave/skills/twin-b": "twin"},
     ".wave/skills/twin-a"),
    # case shadow-personal: `~/.config/opencode` is the first config folder OpenCode loads, the
    # project's `.opencode` the next, so the project's copy is the one loaded last
    ("opencode", {"project:.opencode/skills/shared": "shared",
                  "personal:.config/opencode/skills/shared": "shared"},
     ".opencode/skills/shared"),
    # the personal `.claude`/`.agents` roots load first of all
    ("opencode", {"project:.agents/skills/shared": "shared",
                  "personal:.claude/skills/shared": "shared"},
     ".agents/skills/shared"),
])
def test_which_same_named_skill_opencode_keeps(tmp_path: Path, target: str,
                                               layout: dict[str, str], winner: str) -> None:
    """OpenCode 1.18.33 keeps the last skill of a name to finish loading (`collision = "race"`):
    `list` shows the usual winner, and SK130 says it is only the usual one."""
    from wave_lsp.core.checking.loading import skill_rows

    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    for place, name in layout.items():
        scope, _, folder = place.partition(":")
        path = (project if scope == "project" else home) / folder / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: {name}\ndescription: d\n---\nBody.\n", "utf-8")
    profile = PROFILES[target]
    rows = skill_rows(profile, project, home, True, project)
    kept = [row["path"] for row in rows if row["shadowedBy"] is None]
    assert kept == [f"{winner}/SKILL.md"]
    findings = [f for row in rows if not Path(row["path"]).is_absolute()
                for f in check_file(project / row["path"],
                                    Settings(profile=profile, home=home)).findings
                if f.code == "SK130"]
    assert findings
    for finding in findings:
        racy = "the usual winner, not a certain one" in finding.message
        assert racy is (target == "opencode")
