"""The five targets of issue 28 (`codex`, `copilot`, `cursor`, `opencode`, `gemini-cli`): one fixture
per fact of docs/design/runtime-facts.md §9 that changes a finding, the parser probe's inputs as
golden cases for the two loaders it measured (§9.6), `portable` naming the runtimes that drop a
skill, and the settings accepting every target (each surface per target: tests/cli/test_targets.py,
tests/lsp/test_targets.py, tests/mcp/test_mcp_targets.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.cli import main
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.config import Settings, settings_from_mapping
from wave_lsp.core.checking.messages import first_sentence
from wave_lsp.core.facts.profiles import PROFILES
from wave_lsp.core.invocation.listing import user_command
from wave_lsp.core.invocation.preview import invoke
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate
from wave_lsp.core.workspace.where import discovers, where_it_loads

NEW = ("codex", "copilot", "cursor", "opencode", "gemini-cli")
GOOD = "---\nname: my-skill\ndescription: Does X. Use when Y.\n---\nBody\n"


def skill(name: str = "my-skill", description: str = "Does X. Use when Y.", *extra: str,
          body: str = "Body\n") -> str:
    lines = [f"name: {name}"] if name else []
    lines += [f"description: {description}"] if description else []
    return "---\n" + "".join(line + "\n" for line in [*lines, *extra]) + "---\n" + body


# -- the parser probe (runtime-facts.md §9.6, §10): its own inputs and its measured verdicts -------
PROBE_FOLDER = Path(__file__).resolve().parents[1] / "data" / "parser-probe"
#: a case of `parser_probe.mjs`: `  'label': `text`,` (a JavaScript template literal)
_PROBE_CASE = re.compile(r"^  '(?P<label>[^']+)': `(?P<text>[^`]*)`,$", re.MULTILINE)
_JS_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "`": "`", "$": "$"}
#: a verdict of `parser_probe.out.txt`, for the two targets the probe re-implements
_PROBE_VERDICT = re.compile(r"^  (?P<target>gemini-cli|opencode) +: (?P<verdict>.*)$")
_PROBE_VALUES = re.compile(r'name=(?P<name>"(?:[^"\\]|\\.)*") '
                           r'description=(?P<description>"(?:[^"\\]|\\.)*")$')


def _js_text(literal: str) -> str:
    return re.sub(r"\\(u[0-9A-Fa-f]{4}|.)", lambda m: chr(int(m[1][1:], 16))
                  if m[1].startswith("u") else _JS_ESCAPES[m[1]], literal)


def _probe_inputs() -> dict[str, str]:
    source = (PROBE_FOLDER / "parser_probe.mjs").read_text("utf-8")
    return {m["label"]: _js_text(m["text"]) for m in _PROBE_CASE.finditer(source)}


def _probe_verdicts() -> dict[str, dict[str, str]]:
    """{target: {case: the probe's line}}."""
    verdicts: dict[str, dict[str, str]] = {"gemini-cli": {}, "opencode": {}}
    case = ""
    for line in (PROBE_FOLDER / "parser_probe.out.txt").read_text("utf-8").splitlines():
        if line.startswith("## "):
            case = line[3:]
        elif found := _PROBE_VERDICT.match(line):
            verdicts[found["target"]][case] = found["verdict"]
    return verdicts


PROBE = _probe_inputs()
PROBE_VERDICTS = _probe_verdicts()
#: where the runtime itself, run by the differential harness, overrules the parser probe (which
#: runs only the runtime's YAML library)
HARNESS_VERDICTS = {
    ("opencode", "description missing"):
        "loaded as a `/command`, left out of the listing (OpenCode 1.18.33, tests/oracle/cases/"
        "oc-no-description)",
}
#: cases where the probe shows Gemini CLI's line parser keeping the value as written
PROBE_KEPT_AS_WRITTEN = {"block scalar + another bad line", "quoted description + bad line"}


def test_the_probe_files_are_read_whole() -> None:
    """Every case of the probe's script has a verdict of both targets in its output (18: the 13 of
    the runtimes reference and the 5 added on 2026-12-02)."""
    assert len(PROBE) == 18
    assert {"plain", "UTF-8 BOM", "tab indentation", "frontmatter is a sequence"} <= set(PROBE)
    assert PROBE["UTF-8 BOM"].startswith("\ufeff---\n") and "\r\n" in PROBE["CRLF"]
    assert PROBE["tab indentation"].count("\t") == 1
    for target, verdicts in PROBE_VERDICTS.items():
        assert set(verdicts) == set(PROBE), target


def _probe_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "proj" / ".agents" / "skills" / "my-skill" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    (tmp_path / "proj" / ".git").mkdir(exist_ok=True)
    return path


@pytest.mark.parametrize("target", sorted(PROBE_VERDICTS))
@pytest.mark.parametrize("case", sorted(PROBE))
def test_probe_verdicts(case: str, target: str, tmp_path: Path) -> None:
    from wave_lsp.core.checking.checker import check_file

    measured = HARNESS_VERDICTS.get((target, case), PROBE_VERDICTS[target][case])
    loads = measured.startswith("loaded")
    assert loads or measured.startswith("SKIPPED"), measured
    path = _probe_file(tmp_path, PROBE[case])
    report = check_file(path, Settings.for_target(target, home=tmp_path / "home"), strict=True)
    assert report.verdict is not None
    assert report.verdict.loads is loads, (case, measured, report.verdict.stopped_by)
    errors = [f for f in report.findings if f.severity == Severity.ERROR]
    assert bool(errors) is not loads, [f.message for f in errors]


#: the probe's lines where the runtime's own rescue (not the YAML library) read the values
_RESCUED = {"gemini-cli": "loaded via fallback", "opencode": "loaded via fallbackSanitization"}


@pytest.mark.parametrize(("target", "case"), sorted(
    (target, case) for target, verdicts in PROBE_VERDICTS.items()
    for case, verdict in verdicts.items() if verdict.startswith(_RESCUED[target])))
def test_the_rescued_values_are_the_probes(target: str, case: str) -> None:
    """Gemini CLI's line parser and OpenCode's colon retry (`wave_lsp.core.facts.loaders`) read
    the same `name` and `description` as the probe measured."""
    from wave_lsp.core.facts.loaders import rescue

    values = _PROBE_VALUES.search(PROBE_VERDICTS[target][case])
    assert values is not None
    # the probe's line says the YAML library failed (or read no strings), so the rescue runs
    saved = rescue(PROFILES[target], SkillDocument.from_text(PROBE[case]), failed=True)
    assert saved is not None and saved.loads
    assert (saved.name, saved.description) == (json.loads(values["name"]),
                                               json.loads(values["description"]))


@pytest.mark.parametrize("case", sorted(PROBE_KEPT_AS_WRITTEN))
def test_probe_values_kept_as_written_are_warnings(case: str, tmp_path: Path) -> None:
    from wave_lsp.core.checking.checker import check_file

    path = _probe_file(tmp_path, PROBE[case])
    report = check_file(path, Settings.for_target("gemini-cli", home=tmp_path / "home"),
                        strict=True)
    warned = [f for f in report.findings if f.code == "SK021"]
    assert [f.severity for f in warned] == [Severity.WARNING]
    assert "keeps the value as written" in warned[0].message


# -- one fixture per fact that changes a finding (runtime-facts.md §9) -----------------------------
@dataclass
class Fact:
    target: str
    fact: str  #: the fact, with its section
    text: str
    relpath: str = ".agents/skills/my-skill/SKILL.md"
    code: str | None = None  #: the rule the fact makes report (None: `absent`)
    severity: Severity | None = None
    absent: tuple[str, ...] = ()  #: codes the fact keeps from being reported
    loads: bool | None = None  #: the load verdict the fact implies
    says: str = ""  #: a phrase of the message
    files: dict[str, str] = field(default_factory=dict)


FACTS = [
    # §9.3 frontmatter split and BOM
    Fact("codex", "§9.3 a BOM fails the trimmed `---` test", "\ufeff" + GOOD, code="SK004",
         severity=Severity.ERROR, loads=False),
    Fact("gemini-cli", "§9.3 a BOM: the regex does not match, dropped", "\ufeff" + GOOD,
         code="SK004", severity=Severity.ERROR, loads=False),
    Fact("opencode", "§9.3 gray-matter tolerates a BOM", "\ufeff" + GOOD, absent=("SK004",),
         loads=True),
    # §9.5 name and description
    Fact("codex", "§9.5 `name` is optional: the folder", skill(""), code="SK030",
         severity=Severity.INFORMATION, loads=True),
    Fact("copilot", "§9.5 no `name`: skipped (missing-name)", skill(""), code="SK030",
         severity=Severity.ERROR, loads=False),
    Fact("gemini-cli", "§9.5 `name` is required", skill(""), code="SK030",
         severity=Severity.ERROR, loads=False),
    Fact("opencode", "§9.5 `name` must be a string", skill(""), code="SK030",
         severity=Severity.ERROR, loads=False),
    Fact("copilot", "§9.5 name ≠ folder: skipped (name-mismatch)", skill("other-name"),
         code="SK039", severity=Severity.ERROR, loads=False),
    Fact("codex", "§9.5 no folder check", skill("other-name"), code="SK039",
         severity=Severity.INFORMATION, loads=True),
    Fact("gemini-cli", "§9.5 no folder check", skill("other-name"), code="SK039",
         severity=Severity.INFORMATION, loads=True),
    Fact("opencode", "§9.5 the folder rule is documented, not enforced", skill("other-name"),
         code="SK039", severity=Severity.WARNING, loads=True),
    Fact("codex", "§9.5 description over 1,024: cut in the listing, not rejected (0.171.0, "
                  "case cx-description-1100)", skill(
        "my-skill", "Use when asked. " + "x" * 1030), code="SK053", severity=Severity.WARNING,
        loads=True, says="lists only the first 1,021 characters"),
    Fact("codex", "§9.5 metadata.short-description over 1,024: invalid", skill(
        "my-skill", "Does X. Use when Y.", "metadata:", "  short-description: " + "x" * 1030),
        code="SK053", severity=Severity.ERROR, loads=False, says="metadata.short-description"),
    Fact("codex", "§9.5 metadata.short-description is measured on one line", skill(
        "my-skill", "Does X. Use when Y.", "metadata:",
        "  short-description: |\n" + "    x\n" * 512), absent=("SK053",), loads=True),
    Fact("copilot", "§9.5 metadata.short-description is not read elsewhere", skill(
        "my-skill", "Does X. Use when Y.", "metadata:", "  short-description: " + "x" * 1030),
        absent=("SK053",), loads=True),
    Fact("copilot", "§9.5 description over 1,024: truncated, not rejected", skill(
        "my-skill", "Use when asked. " + "x" * 1030), code="SK053", severity=Severity.WARNING,
        loads=True),
    Fact("gemini-cli", "§9.5 no description limit", skill("my-skill", "Use when asked. "
                                                               + "x" * 1030),
         absent=("SK053",), loads=True),
    Fact("codex", "§9.5 name over 64: invalid name", skill("a" * 65),
         relpath=f".agents/skills/{'a' * 65}/SKILL.md", code="SK033", severity=Severity.ERROR,
         loads=False),
    Fact("gemini-cli", "§9.5 no name length limit", skill("a" * 65),
         relpath=f".agents/skills/{'a' * 65}/SKILL.md", absent=("SK033",), loads=True),
    Fact("codex", "§9.5 description is required", skill("my-skill", ""), code="SK050",
         severity=Severity.ERROR, loads=False),
    # §9.6 YAML loaders
    Fact("copilot", "§9.6 VS Code keeps the attributes its parser recovers",
         skill("my-skill", "Use when: asked"), code="SK021", severity=Severity.WARNING,
         loads=True, says="keeps only the fields its parser recovers"),
    Fact("codex", "§9.6 a value strict YAML rejects is read as text (0.171.0, case "
                  "cx-yaml-colon-value)", skill("my-skill", "Use when: asked"),
         code="SK021", severity=Severity.INFORMATION, loads=True, says="reads the value as text"),
    Fact("codex", "§9.6 `[a] [b] text` is read as text (0.171.0, case cx-yaml-flow-junk)",
         skill("my-skill", "Use when asked.", "argument-hint: [a] [b]"), code="SK020",
         severity=Severity.INFORMATION, loads=True),
    Fact("codex", "§9.6 `metadata` read as text is no mapping: skipped (0.171.0, case "
                  "cx-yaml-flow-junk)", skill("my-skill", "Use when asked.", "metadata: {a: [1}"),
         code="SK020", severity=Severity.ERROR, loads=False, says="must be a mapping"),
    Fact("codex", "§9.6 a duplicated unknown key is ignored (0.171.0, case "
                  "cx-yaml-duplicate-key)", skill("my-skill", "Use when asked.", "color: red",
                                                  "color: blue"),
         code="SK022", severity=Severity.WARNING, loads=True, says="ignores every key"),
    Fact("codex", "§9.6 a duplicated unknown key beside a value strict YAML rejects: both "
                  "rescued (0.171.0, case fm-duplicate-and-colon)",
         skill("my-skill", "Use when asked.", "usage: run it: now", "color: red", "color: blue"),
         code="SK022", severity=Severity.WARNING, loads=True, says="reads the value as text and "
                                                                    "ignores every key"),
    Fact("opencode", "§9.6 a duplicated key beside a value the colon retry rewrites: still "
                     "rejected (1.18.33, case fm-duplicate-and-colon)",
         skill("my-skill", "Use when asked.", "usage: run it: now", "color: red", "color: blue"),
         code="SK022", severity=Severity.ERROR, loads=False, says="does not help"),
    Fact("codex", "§9.6 a duplicated `description` is rejected", skill(
        "my-skill", "Use when asked.", "description: Again."), code="SK022",
         severity=Severity.ERROR, loads=False, says="rejects a duplicated one"),
    Fact("opencode", "§9.6 the colon retry rewrites non-hyphenated keys",
         skill("my-skill", "Use when: asked"), code="SK021", severity=Severity.INFORMATION,
         loads=True, says="colon retry"),
    Fact("opencode", "§9.6 the colon retry skips hyphenated keys: vanishes silently",
         skill("my-skill", "Use when asked.", "argument-hint: file: optional"), code="SK021",
         severity=Severity.ERROR, loads=False, says="without a message"),
    Fact("gemini-cli", "§9.6 the line parser reads name and description",
         skill("my-skill", "Use when asked.", "paths: **/*.ts"), code="SK023",
         severity=Severity.INFORMATION, loads=True, says="line parser"),
    # §9.4 fields read
    Fact("gemini-cli", "§9.4 Gemini CLI reads only name and description",
         skill("my-skill", "Use when asked.", "license: MIT"), code="SK070",
         severity=Severity.INFORMATION, says="Gemini CLI ignores it"),
    Fact("copilot", "§9.4 VS Code reads `license`", skill("my-skill", "Use when asked.",
                                                          "license: MIT"), absent=("SK070",)),
    # §9.7 body
    Fact("codex", "§9.7 `$ARGUMENTS` reaches the model literally",
         skill(body="Fix $ARGUMENTS.\n"), code="SK115", severity=Severity.WARNING,
         says="reaches the model as written"),
    Fact("opencode", "§9.7 `$1` is the first argument", skill(body="Fix $1.\n"), code="SK115",
         severity=Severity.INFORMATION, says="OpenCode counts from 1"),
    Fact("codex", "§9.7 `${CLAUDE_SKILL_DIR}` stays literal",
         skill(body="Run ${CLAUDE_SKILL_DIR}/x.sh.\n"), code="SK117", severity=Severity.WARNING),
    Fact("gemini-cli", "§9.7 no `!` commands: the model reads the pattern",
         skill(body="Branch: !`git branch`\n"), code="SK120", severity=Severity.WARNING,
         absent=("SK123",), says="does not run"),
    Fact("opencode", "§9.7 injections run with no permission check",
         skill(body="Fetch: !`git fetch`\n"), code="SK120", severity=Severity.WARNING,
         absent=("SK123",), says="no permission check"),
    Fact("opencode", "§9.7 no look-behind: `format!`x`` runs", skill(body="Use format!`x`.\n"),
         code="SK122", severity=Severity.ERROR, says="no white-space rule"),
    Fact("codex", "§9.7 `format!`x`` is not an injection anywhere else",
         skill(body="Use format!`x`.\n"), absent=("SK122",)),
    # §9.8 invocation controls
    Fact("codex", "§9.8 `disable-model-invocation` is ignored; Codex's switch is openai.yaml",
         skill("my-skill", "Use when asked.", "disable-model-invocation: true"), code="SK070",
         severity=Severity.INFORMATION, says="allow_implicit_invocation"),
    Fact("copilot", "§9.8 VS Code honours `disable-model-invocation`",
         skill("my-skill", "Use when asked.", "disable-model-invocation: true"),
         absent=("SK070",)),
    Fact("copilot", "§9.8 both switches: neither invocation",
         skill("my-skill", "Use when asked.", "disable-model-invocation: true",
               "user-invocable: false"), code="SK091", severity=Severity.ERROR),
    # §9.1 discovery depth
    Fact("gemini-cli", "§9.1 `<root>/SKILL.md` is found", skill("skills"),
         relpath=".agents/skills/SKILL.md", absent=("SK002",)),
    Fact("copilot", "§9.1 one level only", skill("skills"), relpath=".agents/skills/SKILL.md",
         code="SK002", severity=Severity.WARNING),
    Fact("codex", "§9.1 six levels deep is found", skill("f"),
         relpath=".agents/skills/a/b/c/d/e/f/SKILL.md", absent=("SK002",)),
    # more facts of the audit (docs/design/targets-facts.md)
    Fact("copilot", "§9.5 no `description`: skipped (missing-description)", skill("my-skill", ""),
         code="SK050", severity=Severity.ERROR, loads=False),
    Fact("copilot", "§9.5 `name: 123` counts as no name (getStringAttribute)",
         "---\nname: 123\ndescription: Does X. Use when Y.\n---\nBody\n",
         relpath=".agents/skills/123/SKILL.md", code="SK031", severity=Severity.ERROR,
         loads=False),
    Fact("copilot", "§9.5 a name over 64 is truncated, then differs from the folder",
         skill("a" * 65), relpath=f".agents/skills/{'a' * 65}/SKILL.md", code="SK033",
         severity=Severity.ERROR, loads=False),
    Fact("copilot", "§9.4 `allowed-tools` is not an attribute VS Code accepts",
         skill("my-skill", "Use when asked.", "allowed-tools: Read"), code="SK070",
         severity=Severity.INFORMATION, says="Copilot ignores it"),
    Fact("opencode", "§9.4 `allowed-tools` is not read",
         skill("my-skill", "Use when asked.", "allowed-tools: Read"), code="SK070",
         severity=Severity.INFORMATION, says="OpenCode ignores it"),
    Fact("opencode", "§9.8 `disable-model-invocation` is not read",
         skill("my-skill", "Use when asked.", "disable-model-invocation: true"), code="SK070",
         severity=Severity.INFORMATION, says="its model may still pick this skill"),
    Fact("gemini-cli", "§9.8 no equivalent of `disable-model-invocation`",
         skill("my-skill", "Use when asked.", "disable-model-invocation: true"), code="SK070",
         severity=Severity.INFORMATION, says="its model may still pick this skill"),
    Fact("gemini-cli", "§9.3 a leading blank line: the regex does not match",
         "\n" + GOOD, code="SK005", severity=Severity.ERROR, loads=False),
    Fact("gemini-cli", "§9.1 never deeper than one level", skill("f"),
         relpath=".agents/skills/a/f/SKILL.md", code="SK002", severity=Severity.WARNING),
    Fact("codex", "§9.1 folders whose name starts with `.` are skipped", GOOD,
         relpath=".agents/skills/.hidden/my-skill/SKILL.md", code="SK002",
         severity=Severity.WARNING, says="Not discovered by Codex: move the skill out of "
         "`.hidden` if it should load there. Its scan of `.agents/skills` does not enter folders "
         "named `.hidden`."),
    Fact("codex", "§10 only a file named exactly `SKILL.md` counts", GOOD,
         relpath=".agents/skills/my-skill/skill.md", code="SK001", severity=Severity.WARNING,
         says="rename it to `SKILL.md`"),
    Fact("opencode", "§9.1 `**/SKILL.md`: any depth", skill("f"),
         relpath=".agents/skills/a/b/c/d/e/f/g/f/SKILL.md", absent=("SK002",)),
    # §0 evidence: Cursor is known from its documentation only
    Fact("cursor", "§9 Cursor's findings say they rest on its documentation",
         skill("my-skill", "Use when asked.", "colour: blue"), code="SK070",
         severity=Severity.INFORMATION, says="documentation only"),
]


def where(fact: Fact) -> str:
    """The fact's file, in a root its target scans: Cursor does not scan `.agents/skills`
    (§9.1), and a target's rules say nothing of a file it does not find (docs/design/rules.md
    *A target speaks of what it loads*)."""
    if fact.target == "cursor" and fact.relpath.startswith(".agents/skills/"):
        return ".cursor/skills/" + fact.relpath.removeprefix(".agents/skills/")
    return fact.relpath


#: what SK050 says each target does with a skill that has no `description` (its profile's facts:
#: `body_description_default`, `body_description_skips_headings`, `commands_without_description`)
#: (the runtimes that do not load it say so, from the catalog's effect row: issue 36)
WITHOUT_DESCRIPTION = {
    "claude-code": "Claude Code falls back to the first line of the body, which rarely says",
    # Copilot CLI 1.0.102 passes a heading over (case cp-no-description)
    "copilot-cli": "Copilot CLI falls back to the first line of the body that is not a heading",
    "opencode": "OpenCode loads the skill but leaves it out of the model's listing",
    "wave": "Wave does not load the skill", "agentskills": "skills-ref rejects the skill",
    "codex": "Codex does not load the skill", "copilot": "Copilot does not load the skill",
    "gemini-cli": "Gemini CLI does not load the skill",
    "cursor": "unverified (from its documentation only): Cursor may not load the skill",
    # the runtimes that drop it are named by the checker; the sentence says what the others do
    "portable": "Dropped by Wave, Codex, Copilot and Gemini CLI",
}


@pytest.mark.parametrize("target", list(PROFILES))
def test_sk050_says_what_the_target_does_without_a_description(target: str,
                                                                tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    # in a root the target scans (Claude Code and Cursor do not scan `.agents/skills`)
    root = {"claude-code": ".claude", "cursor": ".cursor"}.get(target, ".agents")
    report = run(tmp_path, skill("my-skill", ""), target=target,
                 relpath=f"{root}/skills/my-skill/SKILL.md")
    [found] = [f for f in report.findings if f.code == "SK050"]
    assert WITHOUT_DESCRIPTION[target].lower() in found.message.lower(), found.message


@pytest.mark.parametrize("fact", FACTS, ids=lambda f: f"{f.target}:{f.fact}")
def test_fact(fact: Fact, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, fact.text, target=fact.target, relpath=where(fact), files=fact.files)
    codes = {f.code: f for f in report.findings}
    if fact.code is not None:
        assert fact.code in codes, [(f.code, f.message) for f in report.findings]
        assert codes[fact.code].severity == fact.severity, codes[fact.code].message
        assert fact.says in codes[fact.code].message
    for code in fact.absent:
        assert code not in codes, codes[code].message
    if fact.loads is not None:
        assert report.verdict is not None
        assert report.verdict.loads is fact.loads, report.verdict.stopped_by


# -- discovery and command names (§9.1, §9.5, §9.8) -----------------------------------------------
@pytest.mark.parametrize(("relpath", "found"), [
    (".claude/skills/s/SKILL.md", {"wave", "claude-code", "copilot", "cursor", "opencode",
                                   "copilot-cli"}),
    (".agents/skills/s/SKILL.md", {"wave", "codex", "copilot", "opencode", "gemini-cli",
                                   "copilot-cli"}),
    (".github/skills/s/SKILL.md", {"copilot", "copilot-cli"}),
    (".codex/skills/s/SKILL.md", {"codex", "cursor"}),
    (".gemini/skills/s/SKILL.md", {"gemini-cli"}),
    (".opencode/skill/s/SKILL.md", {"opencode"}),
    (".agents/skills/a/s/SKILL.md", {"codex", "opencode", "copilot-cli"}),
    (".agents/skills/SKILL.md", {"codex", "opencode", "gemini-cli", "copilot-cli"}),
])
def test_which_runtimes_discover_a_path(relpath: str, found: set[str], tmp_path: Path) -> None:
    location = locate(tmp_path / relpath, home=tmp_path / "home")
    runtimes = {p.name for p in PROFILES.values() if p.kind == "runtime"}
    assert {name for name in runtimes if discovers(PROFILES[name], location)} == found


def test_personal_roots_are_the_profiles(tmp_path: Path) -> None:
    home = tmp_path / "home"
    copilot = locate(home / ".copilot/skills/s/SKILL.md", home=home)
    opencode = locate(home / ".config/opencode/skills/s/SKILL.md", home=home)
    assert copilot.scope == opencode.scope == "personal"
    assert discovers(PROFILES["copilot"], copilot) and not discovers(PROFILES["codex"], copilot)
    assert discovers(PROFILES["opencode"], opencode)
    assert not discovers(PROFILES["opencode"], copilot)


@pytest.mark.parametrize(("target", "text", "command"), [
    ("claude-code", skill("label"), "/my-skill"),  # the folder is the command
    ("codex", skill(""), "$my-skill"),  # the folder when `name` is missing, `$` mentions
    ("codex", skill("other"), "$other"),
    ("gemini-cli", skill("a:b c"), "/a-b-c"),  # `[:\\/<>*?"|]` and white space become `-`
    ("copilot", skill("my-skill", "d", "user-invocable: false"), None),
    ("opencode", skill("my-skill", "d", "user-invocable: false"), "/my-skill"),  # not read
    ("wave", skill("my-skill", "d", "user-invocable: no"), None),  # true only when `true`
])
def test_command_names(target: str, text: str, command: str | None, tmp_path: Path) -> None:
    location = locate(tmp_path / ".agents/skills/my-skill/SKILL.md", home=tmp_path / "home")
    assert user_command(SkillDocument.from_text(text), location, PROFILES[target]) == command


def test_where_it_loads_one_line_per_runtime(tmp_path: Path) -> None:
    path = tmp_path / ".agents/skills/my-skill/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(skill("other-name"), "utf-8")
    answers = {a.profile.name: a for a in where_it_loads(
        SkillDocument.from_text(skill("other-name")), locate(path, home=tmp_path / "home"))}
    assert answers["codex"].line() == "Codex: loads as `$other-name`"
    assert answers["copilot"].line() == "Copilot: discovered, not loaded (SK039)"
    assert answers["claude-code"].line() == ("Claude Code: not discovered here (it does not look "
                                             "for it in `.agents/skills`)")
    assert "portable" not in answers


# -- the preview follows the profile (§9.7) ------------------------------------------------------
def _preview(tmp_path: Path, target: str, text: str, arguments: str) -> str:
    path = tmp_path / ".agents/skills/my-skill/SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    home = tmp_path / "home"
    result = invoke(SkillDocument.from_text(text), locate(path, home=home),
                    Settings.for_target(target, home=home), arguments)
    assert result.ok, result.error
    assert result.text is not None
    return result.text


def test_codex_injects_the_whole_file_and_substitutes_nothing(tmp_path: Path) -> None:
    text = skill(body="Fix $1 with !`git status`.\n")
    shown = _preview(tmp_path, "codex", text, "bug")
    # frontmatter included, `$1` and the pattern as written, in Codex 0.171.0's `<skill>`
    # message (case cx-dmi-ignored)
    path = (tmp_path / ".agents/skills/my-skill/SKILL.md").as_posix()
    assert shown == f"<skill>\n<name>my-skill</name>\n<path>{path}</path>\n{text}\n</skill>"


def test_opencode_counts_from_one_and_appends_the_base_directory(tmp_path: Path) -> None:
    shown = _preview(tmp_path, "opencode", skill(body="Fix $1 then $2.\n"), "bug fast")
    assert shown.startswith("Fix bug then fast.")
    assert "\n\nBase directory for this skill: " in shown


# -- portable: the strictest reading over the nine, naming who drops the skill ----------------------
def _dropped_by(message: str) -> str:
    """The runtimes an aggregate's message names as dropping the skill ("" when none)."""
    found = re.search(r"Dropped by ([^.;]*)", message)
    return found.group(1) if found else ""


#: a skill to be installed, outside every skills root: there `portable` is all its members, the
#: validator skills-ref included (in a root, only the runtimes that find the file)
INSTALLABLE = "my-skill/SKILL.md"


def test_portable_names_the_runtimes_that_drop_the_skill(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, skill("other-name"), target="portable", relpath=INSTALLABLE)
    finding = next(f for f in report.findings if f.code == "SK039")
    # after the first sentence, which keeps what is wrong and what to do at the front
    assert "Dropped by Copilot; rejected by skills-ref." in finding.message
    assert "Dropped by" not in first_sentence(finding.message)
    assert report.verdict is not None and not report.verdict.loads
    assert report.verdict.dropped_by == ("Copilot",)


def test_portable_counts_a_validator_rejection_but_the_skill_loads(tmp_path: Path) -> None:
    """skills-ref rejects an unknown key; every runtime ignores it and loads the skill."""
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, skill("my-skill", "Use when asked.", "colour: blue"),
                 target="portable", relpath=INSTALLABLE)
    finding = next(f for f in report.findings if f.code == "SK070")
    assert "Rejected by skills-ref." in finding.message
    assert report.verdict is not None and report.verdict.loads


def test_portable_reports_a_drop_of_one_runtime_only(tmp_path: Path) -> None:
    """A BOM loads in OpenCode but Gemini CLI and Codex drop the skill."""
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, "\ufeff" + GOOD, target="portable",
                 relpath=".agents/skills/my-skill/SKILL.md")
    finding = next(f for f in report.findings if f.code == "SK004")
    assert "Codex" in finding.message and "Gemini CLI" in finding.message
    assert "OpenCode" not in _dropped_by(finding.message)


def test_portable_is_clean_for_a_skill_every_runtime_loads(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, GOOD, target="portable", relpath=".agents/skills/my-skill/SKILL.md")
    assert report.verdict is not None and report.verdict.loads
    assert not [f for f in report.findings if "Dropped by" in f.message]


# -- every surface accepts every target ------------------------------------------------------------
def test_unknown_target_in_pyproject_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.wave-lsp]\ntarget = "nope"\n', "utf-8")
    (tmp_path / "SKILL.md").write_text(GOOD, "utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "SKILL.md"])
    assert exit_info.value.code == 2
    assert "gemini-cli" in capsys.readouterr().err


@pytest.mark.parametrize("target", NEW)
def test_language_server_setting_selects_the_profile(target: str) -> None:
    assert settings_from_mapping({"target": target}).profile is PROFILES[target]


def test_list_targets_all_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    for folder, text in ((".claude/skills/review", skill("review")),
                         (".agents/skills/deploy", skill("deploy"))):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "SKILL.md").write_text(text, "utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["list", ".", "--targets", "all", "--no-personal", "--format", "json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    rows = {row["name"]: {r["target"]: r for r in row["runtimes"]} for row in listing["skills"]}
    assert rows["review"]["codex"]["discovers"] is False  # Codex never scans .claude/skills
    assert rows["review"]["claude-code"]["command"] == "/review"
    assert rows["deploy"]["codex"]["command"] == "$deploy"
    assert rows["deploy"]["gemini-cli"]["loads"] is True
    assert "portable" not in rows["deploy"]


# -- the default target (rules.md *The default target*) -------------------------------------------
@pytest.mark.parametrize(("relpath", "target", "members"), [
    (".wave/skills/s/SKILL.md", "wave", ()),
    (".claude/skills/s/SKILL.md", "claude-code", ()),
    (".github/skills/s/SKILL.md", "copilot", ()),
    (".codex/skills/s/SKILL.md", "codex", ()),
    (".gemini/skills/s/SKILL.md", "gemini-cli", ()),
    (".opencode/skills/s/SKILL.md", "opencode", ()),
    (".agents/skills/s/SKILL.md", "portable", ("wave", "codex", "copilot", "opencode", "gemini-cli",
                                               "copilot-cli")),
    ("skills/s/SKILL.md", "wave", ()),  # a repository that distributes skills
    ("plugin/skills/s/SKILL.md", "claude-code", ()),  # a Claude Code plugin
])
def test_the_target_fits_where_the_file_lives(relpath: str, target: str, members: tuple[str, ...],
                                              tmp_path: Path) -> None:
    from wave_lsp.core.workspace.applies import target_for

    manifest = tmp_path / "plugin/.claude-plugin/plugin.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text('{"name": "plugin"}', "utf-8")
    chosen = target_for(locate(tmp_path / relpath, home=tmp_path / "home"))
    assert chosen.name == target
    assert tuple(m.name for m in chosen.members) == members


def test_the_agents_root_reads_the_strictest_of_its_runtimes(tmp_path: Path) -> None:
    from wave_lsp.core.checking.catalog import rule
    from wave_lsp.core.facts.profiles import shared_root_profile

    agents = shared_root_profile(".agents/skills")
    assert rule("SK039").severity(agents) == Severity.ERROR  # Copilot drops it
    assert rule("SK070").severity(agents) == Severity.INFORMATION  # nobody rejects unknown keys
    assert rule("SK141").severity(agents) is None  # a Wisp limit: `portable` reports it, they don't
    assert rule("SK141").severity(PROFILES["portable"]) == Severity.WARNING


def _check_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> dict:
    for folder in (".claude/skills/review", ".agents/skills/deploy"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "SKILL.md").write_text(skill(folder.rsplit("/", 1)[1]), "utf-8")
    main(["check", ".", "--no-personal", "--format", "json", *flags])
    return json.loads(capsys.readouterr().out)


def test_check_without_target_says_which_target_each_file_had(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    report = _check_json(tmp_path, capsys)
    assert report["target"] == "per-file"
    targets = {f["path"]: (f["target"], f["checkedFor"]) for f in report["files"]}
    assert targets[".claude/skills/review/SKILL.md"] == ("claude-code", "Claude Code")
    assert targets[".agents/skills/deploy/SKILL.md"] == (
        "portable", "every runtime that scans `.agents/skills`")


def test_an_explicit_target_always_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    report = _check_json(tmp_path, capsys, "--target", "wave")
    assert report["target"] == "wave"
    assert all("target" not in f for f in report["files"])
    (tmp_path / "pyproject.toml").write_text('[tool.wave-lsp]\ntarget = "codex"\n', "utf-8")
    assert _check_json(tmp_path, capsys)["target"] == "codex"


def test_the_language_server_chooses_per_file_unless_configured(tmp_path: Path) -> None:
    from wave_lsp.lsp.state import ServerState

    state = ServerState()
    state.home = tmp_path / "home"
    path = tmp_path / ".claude/skills/review/SKILL.md"
    assert state.settings_for(path).profile is PROFILES["claude-code"]
    state.client.raw = {"target": "gemini-cli"}
    assert state.settings_for(path).profile is PROFILES["gemini-cli"]


@pytest.mark.parametrize(("target", "says"), [
    ("codex", "Codex loads them all, and a plain `$my-skill` selects none of them"),  # §9.2
    ("copilot", "wins"),  # the first one of a name wins
    ("gemini-cli", "Project `.agents/skills` beats project `.gemini/skills`"),  # §9.2 the tiers
])
def test_name_collisions_per_runtime(target: str, says: str, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    other = ".gemini/skills/other/SKILL.md" if target == "gemini-cli" else \
        ".agents/skills/other/SKILL.md"
    report = run(tmp_path, GOOD, target=target, relpath=".agents/skills/my-skill/SKILL.md",
                 files={other: GOOD})
    found = [f for f in report.findings if f.code == "SK130"]
    assert found and says in found[0].message


def test_mcp_lists_where_each_skill_loads(tmp_path: Path) -> None:
    from wave_lsp.mcp.handlers import ProjectTools

    path = tmp_path / ".claude/skills/review/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(skill("review"), "utf-8")
    listing = ProjectTools(tmp_path).list_skills(".", personal=False, every_runtime=True)
    runtimes = {r["target"]: r for r in listing["skills"][0]["runtimes"]}
    assert runtimes["claude-code"]["command"] == "/review"
    assert runtimes["gemini-cli"]["discovers"] is False


@pytest.mark.parametrize(("relpath", "missing"), [
    (".claude/skills/my-skill/SKILL.md", "Not discovered by Codex and Gemini CLI: "),  # §9.1
    (".github/skills/my-skill/SKILL.md", "Not discovered by Wave, Claude Code, Codex, Cursor, "
                                         "OpenCode and Gemini CLI: "),
    (".agents/skills/my-skill/SKILL.md", None),  # the shared root: all but Claude Code and Cursor
])
def test_portable_says_which_runtimes_never_find_the_file(relpath: str, missing: str | None,
                                                          tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, GOOD, target="portable", relpath=relpath)
    found = [f.message for f in report.findings if f.code == "SK002"]
    if missing is None:
        assert [m for m in found if m.startswith("Not discovered")] == [
            "Not discovered by Claude Code and Cursor: they do not look for it in `.agents/skills`; "
            "give them a copy (or a link) in a root of their own, as no skills root is read by "
            "every runtime."]
    else:
        assert any(m.startswith(missing) for m in found), found


# -- `portable` reports every skill one of its runtimes drops ----------------------------------------
#: skills each dropped by at least one runtime: the facts and probe cases above that drop one, and
#: the runtimes' other drops (Wave's name rule, a frontmatter-less file, an unterminated quote)
DROPPED = {
    **{f"fact {f.target}: {f.fact}": (f.text, where(f)) for f in FACTS if f.loads is False},
    **{f"probe {case}": (text, ".agents/skills/my-skill/SKILL.md") for case, text in PROBE.items()
       if any(not PROBE_VERDICTS[t][case].startswith("loaded") for t in PROBE_VERDICTS)},
    "Wave: upper case in `name`": (skill("My-Skill"), ".agents/skills/my-skill/SKILL.md"),
    "no frontmatter": ("# Notes\nBody\n", ".agents/skills/my-skill/SKILL.md"),
    "an unterminated quote": (skill("my-skill", '"never closed'), ".claude/skills/my-skill/SKILL.md"),
}


@pytest.mark.parametrize("case", sorted(DROPPED))
def test_portable_reports_every_runtimes_drop_and_names_it(case: str, tmp_path: Path) -> None:
    """Each runtime's own check (`--target T`) decides whether it drops the skill; `portable`
    must then not load it, count that runtime in `droppedBy` and name it in an error. A runtime
    that does not find the file where it lies (SK002) is not one of `portable`'s there
    (docs/design/rules.md *A target speaks of what it loads*)."""
    text, relpath = DROPPED[case]
    (tmp_path / ".git").mkdir()
    runtimes = [p for p in PROFILES["portable"].members if p.kind == "runtime"]
    dropping = []
    for profile in runtimes:
        verdict = run(tmp_path, text, target=profile.name, relpath=relpath).verdict
        assert verdict is not None
        if not verdict.loads and (verdict.stopped_by is None
                                  or verdict.stopped_by.code != "SK002"):
            dropping.append(profile.runtime)
    assert dropping, "the fixture must be dropped by some runtime"
    report = run(tmp_path, text, target="portable", relpath=relpath)
    assert report.verdict is not None and not report.verdict.loads
    assert set(report.verdict.dropped_by) == set(dropping)
    named = " ".join(_dropped_by(f.message) for f in report.findings
                     if f.severity == Severity.ERROR)
    assert all(runtime in named for runtime in dropping), (dropping, named)


def test_opencode_the_last_skill_loaded_wins(tmp_path: Path) -> None:
    """§9.2: the config folders (`.opencode/skills`) load after `.agents/skills` and win."""
    (tmp_path / ".git").mkdir()
    report = run(tmp_path, GOOD, target="opencode", relpath=".agents/skills/my-skill/SKILL.md",
                 files={".opencode/skills/other/SKILL.md": GOOD})
    [collision] = [f for f in report.findings if f.code == "SK130"]
    assert ("wins, so this one is never loaded: rename one of them. Project `.opencode/skills` "
            "beats project `.agents/skills`") in collision.message


@pytest.mark.parametrize(("skills", "target", "over"), [
    (40, "codex", True),  # about 12,900 characters: over Codex's 8,000
    (20, "codex", False),  # about 6,300
    (40, "gemini-cli", False),  # no budget found (§9.9)
    (40, "opencode", False),
])
def test_the_listing_budget_per_runtime(skills: int, target: str, over: bool,
                                        tmp_path: Path) -> None:
    """§9.9: Codex's `DEFAULT_SKILL_METADATA_CHAR_BUDGET: usize = 8_000` characters when the
    context window is unknown; no budget was found for Gemini CLI or OpenCode."""
    (tmp_path / ".git").mkdir()
    described = "Use when asked. " + "x" * 290
    files = {f".agents/skills/s{i}/SKILL.md": skill(f"s{i}", described) for i in range(skills)}
    report = run(tmp_path, skill("my-skill", described), target=target,
                 relpath=".agents/skills/my-skill/SKILL.md", files=files)
    found = [f.message for f in report.findings if f.code == "SK131"]
    assert bool(found) is over, found
    if over:
        assert "over the 8,000-character budget" in found[0]
