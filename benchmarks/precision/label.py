"""How labels.tsv was made: group rules, each applied only to findings whose flagged text and
context were read (samples of every group, every member of the small ones), plus per-skill
decisions for broken references. Re-running keeps existing labels and labels only new findings.

    python benchmarks/precision/run.py --dump /tmp/dump.tsv
    python benchmarks/precision/label.py /tmp/dump.tsv      # merges into labels.tsv

A rule returns (label, reason) or None (no decision: the finding stays unlabelled and must be read).
Upstream facts (does a path exist in the repository at the corpus commit, is the skill part of a
plugin) come from `upstream.py`. Labels judge the skill as distributed upstream, under the target's
documented behaviour (docs/design/runtime-facts.md), by docs/design/rules.md *Severity policy*:
"true" = the runtime will misbehave as the message says, or almost surely a mistake the author
would fix; "advice" = fair advice, not a mistake (style, portability to other runtimes);
"false" = the finding is wrong.
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import upstream
from run import LABEL_COLUMNS, LABELS

Row = dict[str, str]
Verdict = tuple[str, str] | None
CORPUS = upstream.CORPUS


def line_of(row: Row) -> str:
    lines = (CORPUS / row["skill"] / "SKILL.md").read_text("utf-8", errors="replace").splitlines()
    number = int(row["line"])
    return lines[number - 1] if 0 < number <= len(lines) else ""


def fenced(row: Row) -> str | None:
    """The info string of the fenced block holding the finding's line, or None outside fences."""
    lines = (CORPUS / row["skill"] / "SKILL.md").read_text("utf-8", errors="replace").splitlines()
    info = None
    for text in lines[: int(row["line"]) - 1]:
        stripped = text.strip()
        if stripped.startswith("```") or stripped.startswith("~~~"):
            info = None if info is not None else stripped.strip("`~ ").lower() or "text"
    return info


CC = "claude-code"

# --------------------------------------------------------------------------- per-rule decisions
# Read-only commands Claude Code runs without any rule (its built-in read-only classification);
# Wave's permission manager has no such list (runtime-facts.md §4.3), so Wave denies them.
READ_ONLY_INJECTIONS = re.compile(
    r"^!`(git (status|log|diff|branch --show-current|rev-parse)[^`$]*|ls [^`$;]*|ls|head [^`$]*|"
    r"cat build/\*/meson[^`$]*|grep [^`$]*|find docs/[^`$]*)`$")


def sk123(row: Row) -> Verdict:
    text = row["text"].replace('""', '"').strip('"')
    if "$(" in text or "$1" in text or "${" in text:
        return "true", "an expansion in the command: no rule and no read-only rule allows it"
    read_only = bool(READ_ONLY_INJECTIONS.match(text)) and ";" not in text.replace("2>/dev/null;", "")
    if text.startswith("!`ls platform/*/cross.ini"):
        read_only = True
    if read_only:
        if row["target"] == CC:
            return "false", "read-only command: Claude Code runs it without any allow rule"
        return "true", "Wave has no read-only auto-allow: no rule in a non-interactive load is a denial"
    return "true", "no allow rule matches and the command is not read-only: the invocation aborts"


def sk125(row: Row) -> Verdict:
    text = row["text"]
    if text.startswith("git diff --name-only $("):
        return "true", "a command substitution: no rule allows it; the invocation aborts"
    if text.startswith(("ls platform/*/cross.ini", "cat build/*/meson", "grep -n 'service_start",
                        "find docs/ -name")):
        if row["target"] == CC:
            return "false", "every part is read-only: Claude Code allows it without rules"
        return "true", "compound command with no allow rule per part: denied"
    skill = row["skill"]
    if skill.endswith("command-development") or skill.endswith("slack-respond"):
        return "true", "compound or expanded command with no allow rule per part: denied"
    return None


def sk112(row: Row) -> Verdict:
    skill, text = row["skill"], row["text"]
    resolved = upstream.resolve(skill, text)
    if resolved and resolved.startswith(upstream.skill_dir(skill) + "/"):
        return "false", f"exists upstream in the skill folder ({{baseDir}} or ./ form): {resolved}"
    if resolved:
        return "false", f"exists upstream relative to a folder above the skill: {resolved}"
    for prefix, verdict in SK112_SKILLS.items():
        if skill == prefix:
            return verdict
    return None


HYPOTHETICAL = ("false", "a skill-writing guide's hypothetical example file, not a reference")
MISSING = ("true", "a path the instructions tell the model to read or run; not in the upstream "
           "repository under any base")
SK112_SKILLS: dict[str, tuple[str, str]] = {
    "ComposioHQ__awesome-claude-skills/skill-creator": HYPOTHETICAL,
    "openai__skills/skill-creator": HYPOTHETICAL,
    "anthropics__claude-plugins-official/skill-development": HYPOTHETICAL,
    "tdimino__claude-code-minoan/skill-optimizer": HYPOTHETICAL,
    "K-Dense-AI__claude-scientific-skills/clinical-decision-support": (
        "true", "run as `python scripts/generate_schematic.py`; the script lives only in the "
        "sibling skill scientific-schematics"),
    "K-Dense-AI__claude-scientific-skills/peer-review": (
        "true", "script lives only in the sibling skill scientific-schematics"),
    "K-Dense-AI__claude-scientific-skills/research-lookup": (
        "true", "script lives only in the sibling skill scientific-schematics"),
    "K-Dense-AI__claude-scientific-skills/research-grants": MISSING,
    "alirezarezvani__claude-skills/run": (
        "true", "told to use the file; it exists only in the sibling skill agenthub"),
    "anthropics__claude-plugins-official/m5-onboard": MISSING,
    "garrytan__gstack/alpha": MISSING,
    "getsentry__skills/claude-settings-audit": (
        "false", "an example of a project script, not a file of the skill"),
    "jeremylongshore__claude-code-plugins-plus-skills/overnight-dev": MISSING,
    "jeremylongshore__claude-code-plugins-plus-skills/plugin-validator": MISSING,
    "jeremylongshore__claude-code-plugins-plus-skills/skill-adapter": MISSING,
    "kochetkov-ma__claude-brewcode/setup-status": (
        "false", "names files that other skills install into a project, not files of this skill"),
    "kochetkov-ma__claude-brewcode/superreview-setup": (
        "false", "a file the skill writes into the target project at run time"),
    "kouko__monkey-skills/analysis-technical": MISSING,
    "kouko__monkey-skills/query": ("false", "an example of the skill's output, not a reference"),
    "kouko__monkey-skills/report-kpi-tearsheet": (
        "false", "names a file of another skill (analysis-kpi) in prose"),
    "kouko__monkey-skills/skill-refactor": (
        "false", "a file the skill proposes to create"),
    "kouko__monkey-skills/spec-expansion": MISSING,
    "kouko__monkey-skills/subagent-driven-development": (
        "false", "the link text; the link target ../using-loom-code/… exists upstream"),
    "kouko__monkey-skills/wiki-update": ("false", "names a file of the skill wiki-lint in prose"),
    "microsoft__hve-core/backlog-templates": (
        "false", "names a file of another skill (rai-planner, …) in prose"),
    "modelstudioai__skills/spark-video-director": MISSING,
    "modelstudioai__skills/spark-video-screenwriter": MISSING,
    "openai__skills/notion-knowledge-capture": ("false", "prose words (`assets/code`), not a path"),
    "openai__skills/notion-research-documentation": (
        "false", "prose words (`references/citations`), not a path"),
    "openclaw__skills/daily-devotion": ("false", "the flagged text is not a path at all"),
    "openclaw__skills/excalidraw-flowchart": ("false", "an example setting value"),
    "openclaw__skills/faster-whisper": (
        "true", "upstream has scripts/transcribe.py only; `./scripts/transcribe` is not there"),
    "openclaw__skills/pentest": MISSING,
    "openclaw__skills/planning-with-files": MISSING,
    "tdimino__claude-code-minoan/agent-browser": MISSING,
    "tdimino__claude-code-minoan/ancient-near-east-research": MISSING,
    "tdimino__claude-code-minoan/claude-agent-sdk": MISSING,
    "tdimino__claude-code-minoan/slack-respond": (
        "false", "a file map of the sibling `slack` skill, written relative to it"),
    "terrylica__cc-skills/a-research-foundations": ("false", "a folder the skill creates"),
    "terrylica__cc-skills/academic-pdf-to-gfm": MISSING,
    "terrylica__cc-skills/cloudflare-workers-publish": (
        "false", "the destination of a copy the user makes"),
    "terrylica__cc-skills/python-memory-safe-scripts": (
        "false", "a table of the author's project scripts (examples), not files of the skill"),
}


def sk113(row: Row) -> Verdict:
    resolved = upstream.resolve(row["skill"], row["text"])
    if resolved:
        return "false", f"exists upstream in the repository: {resolved}"
    return "true", "goes above the skill folder and no such file exists upstream"


def plugin_variable(row: Row) -> Verdict:
    plugin = upstream.plugin_of(row["skill"])
    variable = row["text"]
    if "CLAUDE_PLUGIN_DATA" in variable and row["target"] != CC:
        return "true", "Wave does not substitute ${CLAUDE_PLUGIN_DATA}"
    if plugin:
        return "false", f"upstream the skill is part of the plugin at {plugin}"
    return "true", "upstream the skill is in no plugin: the variable stays literal"


def sk116(row: Row) -> Verdict:
    text = row["text"]
    line = line_of(row)
    target = row["target"]
    if text.startswith("$ARGUMENTS") or re.fullmatch(r"\$[a-z_]+", text):
        return "false", "the placeholder is meant to be substituted (names the skill's arguments)"
    number = re.fullmatch(r"\$(\d+)", text)
    if number is None:
        return None
    index = int(number.group(1))
    after = line[line.find(text) + len(text):][:1] if text in line else ""
    money = after in (".", ",") or bool(re.search(re.escape(text) + r"\d", line)) or (
        re.search(re.escape(text) + r"[.,]\d", line) is not None) or (
        re.search(r"(cost|spent|budget|revenue|max|price|\$\d+\.\d+)", line, re.I) is not None)
    if re.search(r"awk|print \$\d", line) or "PID=$(" in line or re.search(
            r"=\$\d|\"\$\d\"", line):
        return "true", "an awk or shell field in code: the runtime substitutes it and breaks it"
    if row["skill"].endswith("command-development"):
        return "true", "an example in a documentation skill: the runtime substitutes it"
    if money:
        if target == CC and index >= 10:
            return "false", "a dollar amount; Claude Code replaces $N only when there are N+1 " \
                            "arguments, and keeps it otherwise"
        if target == CC:
            return "true", "a dollar amount: replaced by an argument when the user passes enough"
        return "true", "a dollar amount: Wave replaces a missing argument with nothing"
    if index >= 10:
        if target == CC:
            return "false", "a dollar amount ($N with N >= 10): Claude Code keeps it unless the " \
                            "user passes that many arguments"
        return "true", "a dollar amount: Wave replaces a missing argument with nothing"
    if "kpi-value" in line:
        return "true", "template text `$0` is replaced by the first argument"
    return None


def sk027(row: Row) -> Verdict:
    message = row["message"]
    if "YAML 1.1 loaders" in message:
        return "false", "only YAML 1.1 loaders read a date; neither Wave nor Claude Code does"
    if "argument-hint" in message:
        if row["target"] == CC:
            return "advice", "Claude Code shows String(list): the hint loses its brackets; cosmetic"
        return "advice", "the hint becomes a list; it is only displayed (cosmetic)"
    if "version" in message:
        return "advice", "`1.0` becomes `1`; the version is informational"
    return None


def sk020(row: Row) -> Verdict:
    if row["target"] == CC and "quoting retry parses it" in row["message"]:
        return "false", "Claude Code's quoting retry loads the frontmatter; the message contradicts itself"
    return "true", "the frontmatter does not load as YAML: no description for the model"


def sk021(row: Row) -> Verdict:
    if row["target"] == CC and "quoting retry parses it" in row["message"]:
        return "advice", "Claude Code's quoting retry loads the value as written; other runtimes fail"
    return "true", "the YAML does not load"


def name_rules(row: Row) -> Verdict:
    if row["target"] == CC:
        if upstream.plugin_of(row["skill"]) and row["code"] == "SK037" and " " in row["text"]:
            return "true", "a plugin skill's name is its command; a space breaks it"
        return "advice", "Claude Code names the command after the folder; `name` is a label"
    return "true", "Wave requires a valid skill name"


def by_target(cc: tuple[str, str], wave: tuple[str, str]) -> Callable[[Row], Verdict]:
    return lambda row: cc if row["target"] == CC else wave


TRUE_ALWAYS = {
    "SK005": "no frontmatter: no description for the model (Wave: not loaded)",
    "SK006": "the frontmatter is never closed: not loaded",
    "SK008": "a `---` inside the frontmatter ends it there: later fields are lost",
    "SK022": "duplicate key: Claude Code under Node drops all metadata; Wave rejects it",
    "SK030": "no name: Wave requires it",
    "SK050": "no description: the model has nothing to match",
    "SK055": "the listing cuts the description: the model never sees its end",
    "SK083": "not a tool of the runtime: the rule never matches",
    "SK094": "not a built-in agent and no agent file: the fork fails",
    "SK115": "`$0` is empty under Wave: the text loses it",
    "SK119": "argument spliced into (or missing from) an injected command",
    "SK121": "an injection in an example still runs on every invocation",
}

def sk002(row: Row) -> Verdict:
    """Only in the `--upstream` mirror, where the repository layout is visible."""
    if upstream.listed_skill(row["skill"]):
        return "false", "a plugin or marketplace manifest lists this nested folder: it is loaded"
    if "/examples/" in upstream.sources()[row["skill"]][2]:
        return "false", "an example folder, not a skill meant to be loaded"
    return "advice", "not loaded, deliberately (deprecated, in-progress, personal, i18n copies)"


RULES: dict[str, Callable[[Row], Verdict]] = {
    "SK002": sk002,
    # only in the `--upstream` mirror: claude-octopus keeps copies of its plugin's skills in its
    # own .claude/skills; the plugin is not installed in its repository, so nothing collides
    "SK130": lambda row: ("false", "the repository's plugin folder is source, not an installed "
                                   "plugin: nothing collides for a user"),
    "SK131": lambda row: ("advice", "the listing budget over every skill of the repository; real "
                                    "only when all are installed together"),
    "SK020": sk020, "SK021": sk021, "SK027": sk027,
    "SK034": name_rules, "SK035": name_rules, "SK037": name_rules,
    "SK039": lambda row: ("true", "Wave keys the skill by `name`, unlike the folder"),
    "SK004": lambda row: ("false", "the file has no frontmatter at all (SK005 says so); the BOM is "
                                   "not why") if "brainstorming" in row["skill"] else (
        "true", "the BOM hides the frontmatter: no name or description"),
    "SK053": by_target(("advice", "Claude Code has no description limit; portability advice"),
                       ("true", "Wave enforces the specification's 1,024 characters")),
    "SK060": lambda row: ("advice", "compatibility is informational for this runtime"),
    "SK062": lambda row: ("advice", "metadata is not read by this runtime; the spec's shape only"),
    "SK070": lambda row: ("advice", "an unknown key is ignored: harmless metadata, fair advice to "
                                    "move it under `metadata`"),
    "SK071": lambda row: ("advice", "`Version` is informational") if row["text"] == "Version" else (
        "true", "a misspelt key the runtime ignores: the setting has no effect"),
    "SK085": lambda row: ("advice", "a deliberate tool-wide grant; security advice, not a mistake"),
    "SK086": plugin_variable, "SK117": plugin_variable,
    "SK141": lambda row: ("false", "a Wisp indexer limit: neither Wave nor Claude Code enforces it"),
    "SK110": lambda row: ("advice", "a long body is style advice; the skill works"),
    "SK111": lambda row: ("advice", "a large file is context-cost advice; neither runtime refuses it"),
    "SK112": sk112, "SK113": sk113, "SK116": sk116, "SK123": sk123, "SK125": sk125,
}


#: single findings read one by one: (skill, code, flagged text) -> verdict
OVERRIDES: dict[tuple[str, str, str], tuple[str, str]] = {
    ("jeremylongshore__claude-code-plugins-plus-skills/fuzzing-apis", "SK112", "config/"): (
        "true", "the instructions tell the model to read {baseDir}/config/; not upstream"),
    ("jeremylongshore__claude-code-plugins-plus-skills/fuzzing-apis", "SK112", "test-reports/"): (
        "false", "an output folder the skill creates"),
    ("trailofbits__skills/agentic-actions-auditor", "SK112", "references/vector-"): (
        "false", "the start of a file-name pattern (`vector-{a..i}`), not a path"),
}


def decide(row: Row) -> Verdict:
    override = OVERRIDES.get((row["skill"], row["code"], row["text"]))
    if override is not None:
        return override
    if row["code"] in TRUE_ALWAYS:
        return "true", TRUE_ALWAYS[row["code"]]
    rule = RULES.get(row["code"])
    return rule(row) if rule else None


def main(dump: str) -> int:
    existing: dict[tuple[str, ...], Row] = {}
    if LABELS.exists():
        with open(LABELS, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                existing[tuple(row[c] for c in LABEL_COLUMNS[:5])] = row
    with open(dump, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    undecided = 0
    for row in rows:
        ident = tuple(row[c] for c in LABEL_COLUMNS[:5])
        if ident in existing:
            continue
        verdict = decide(row)
        if verdict is None:
            undecided += 1
            print("undecided", row["target"], row["skill"], row["code"], row["line"],
                  row["text"][:60], sep="\t")
            continue
        existing[ident] = {**{c: row[c] for c in LABEL_COLUMNS[:5]}, "label": verdict[0],
                           "reason": verdict[1]}
    with open(LABELS, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, LABEL_COLUMNS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        for ident in sorted(existing):
            writer.writerow(existing[ident])
    print(f"{len(existing)} labels; {undecided} findings undecided", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
