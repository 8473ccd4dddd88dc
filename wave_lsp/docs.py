"""The catalog in words: the rule pages under `docs/rules/` (`python -m wave_lsp.docs [DIR]`) and
what `wave-lsp rule CODE` prints (text or JSON).

The pages are generated, never edited by hand; `tests/core/test_catalog.py` fails when they drift.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from wave_lsp.core.checking.catalog import CATALOG_COLUMNS, Evidence, Rule, Severity, rules
from wave_lsp.core.rules import all_checks, implemented_codes

_LEVEL = {None: "–", 1: "error", 2: "warning", 3: "information", 4: "hint"}
#: rules reported outside the checks of a SKILL.md (`wave_lsp/core/rules`): code -> the module,
#: the function and the test that hold it (no golden case: tests/golden/test_golden.py EXCEPTIONS)
CHECKED_ELSEWHERE = {
    "SK152": ("wave_lsp/core/features/skill_references.py", "mention_findings",
              ("tests/core/test_mentions.py", "tests/cli/test_check_mentions.py")),
}


def where_checked(code: str) -> str:
    """The source of the rule's check, its catalog entry and its golden case: one hop each."""
    if code in CHECKED_ELSEWHERE:
        module, function, tests = CHECKED_ELSEWHERE[code]
        named = " and ".join(f"`{test}`" for test in tests)
        return (f"Checked in `{module}` (`{function}`), by the language server and "
                f"`wave-lsp check`; catalog entry `[{code}]` in `wave_lsp/data/rules.toml`; "
                f"tests in {named}.")
    checks = [item for item in all_checks() if code in item.codes]
    places = ", ".join(f"`wave_lsp/core/rules/{item.function.__module__.rpartition('.')[2]}.py` "
                       f"(`{item.name}`)" for item in checks)
    return (f"Checked in {places or 'no module yet'}; catalog entry `[{code}]` in "
            f"`wave_lsp/data/rules.toml`; golden case `tests/golden/cases/{code}/`.")


def effective_levels(item: Rule) -> list[Severity | None]:
    """The severity per catalog column as reported: the column capped by the rule's confidence."""
    return [None if s is None else item.confidence.cap(s) for s in item.severities.values()]


def _level_cell(column: Severity | None, level: Severity | None) -> str:
    text = _LEVEL[int(level) if level else None]
    return text if level == column else f"{text} (catalog: {_LEVEL[int(column) if column else None]})"


def rule_page(item: Rule) -> str:
    levels = " | ".join(_level_cell(column, level) for column, level
                        in zip(item.severities.values(), effective_levels(item), strict=True))
    status = ("" if item.code in implemented_codes() or item.code in CHECKED_ELSEWHERE
              else "\n> Not reported yet: this rule is specified and will be implemented soon.\n")
    return f"""# {item.code} {item.name}

*{item.family}*
{status}
{item.summary}

| {" | ".join(CATALOG_COLUMNS)} |
|{"---|" * len(CATALOG_COLUMNS)}
| {levels} |

## Why

{item.why}

## Example

```yaml
{item.example}
```

## Fix

{item.fix}
{_applicability(item)}{_notes(item)}{_effects(item)}{_stops_loading(item)}
## How sure it is

{confidence_text(item)}
{_evidence(item)}
Silence it on one line with `# wave-lsp: ignore {item.code}` (frontmatter) or
`<!-- wave-lsp: ignore {item.code} -->` (body), for a file with `wave-lsp: ignore-file {item.code}`,
or everywhere with `--ignore {item.code}` / `[tool.wave-lsp] ignore = ["{item.code}"]`.

{where_checked(item.code)}
"""


_APPLICABILITY = {
    "safe": "The quick fix is safe: `wave-lsp check --fix` applies it.",
    "unsafe": "The quick fix changes behaviour: `wave-lsp check --fix --unsafe-fixes` applies it.",
    "display-only": "The quick fix is offered in editors only; `check --fix` never applies it.",
}


def _notes(item: Rule) -> str:
    return f"\n## How wave-lsp decides\n\n{item.notes}\n" if item.notes else ""


def effect_rows(item: Rule) -> list[tuple[str, str, str]]:
    """Per target with a recorded effect: the column, the effect cell (`drops`, `drops?`) and
    the sentence a message builds from it (`messages.consequence`)."""
    from wave_lsp.core.checking.messages import consequence
    from wave_lsp.core.facts.profiles import PROFILES

    rows = []
    for column in CATALOG_COLUMNS:
        effect = item.effects.get(column)
        profile = next((p for p in PROFILES.values() if p.catalog_column == column), None)
        if effect is not None and profile is not None:
            sentence = consequence(item.code, profile) if not profile.members else \
                _member_sentence(item, profile)
            rows.append((column, str(effect), sentence))
    return rows


def _member_sentence(item: Rule, profile: Any) -> str:
    """An aggregate's cell in words: the strictest of its members'."""
    return "does not load it where one of its runtimes drops it" \
        if item.effects[profile.catalog_column].stops_loading else "loads it"


def _effects(item: Rule) -> str:
    rows = effect_rows(item)
    if not rows:
        return ""
    lines = "\n".join(f"| `{column}` | `{effect}` | {_cell(sentence)} |"
                       for column, effect, sentence in rows)
    return ("\n## What each target does\n\nThe catalog's `effect` row (docs/design/rules.md "
            "*Facts*): messages, `loads` and the targets where an error stops loading are derived "
            f"from it.\n\n| target | effect | in words |\n|---|---|---|\n{lines}\n")


def _stops_loading(item: Rule) -> str:
    text = stops_loading_text(item)
    return f"\n## Does the skill still load?\n\n{text}\n" if text else ""


def stops_loading_text(item: Rule) -> str:
    """Under which targets an error of this rule means the skill is not loaded at all."""
    if not item.stops_loading:
        return ""
    targets = ", ".join(f"`{c}`" for c in CATALOG_COLUMNS if c in item.stops_loading)
    return (f"Under {targets}, an error of this rule means the runtime does not load the skill: "
            "`check` counts it as not loaded, `list` shows it as not loading and `preview` "
            "refuses to render it, naming this rule.")


_CONFIDENCE = {
    "certain": "The runtime's own code decides what this rule reports: the severities above "
               "apply as they are.",
    "likely": "This rule checks a fact against the files, which may still depend on where the "
              "skill is installed or run: it is reported at most as a warning.",
    "heuristic": "This rule guesses from the text (what a word means, what the author intends, "
                 "what else the user has installed): it is reported at most as information, "
                 "whatever the column above says.",
}


def confidence_text(item: Rule) -> str:
    """How the rule knows, and what that does to its severity (docs/design/rules.md *Severity
    policy*)."""
    text = f"Confidence: **{item.confidence.label}**. {_CONFIDENCE[item.confidence.label]}"
    if item.confidence.label != "heuristic" and item.code in LESS_SURE_FINDINGS:
        text += f" {LESS_SURE_FINDINGS[item.code]}"
    return text


#: rules some of whose findings know less than the rule (`Finding.confidence`): what those are
LESS_SURE_FINDINGS = {
    "SK112": "A bare path-like word in prose or code (not a link target, not a path under "
             "`${CLAUDE_SKILL_DIR}`) is heuristic, at most information, unless the skill's own "
             "words or folders make it a file it means: the skill has that folder "
             "(`references/`), a command runs or reads it (`python scripts/x.py`, "
             "`./scripts/x`, `cat references/x.md`), an instruction names it (\"Read "
             "`references/x.md`\"), or its inventory lists it (\"- `scripts/x.py` — what it "
             "does\"); then it keeps the rule's confidence. In a guide to writing skills it "
             "stays heuristic unless the guide's prose, outside code, tells the model to open "
             "it (\"See references/workflows.md for …\").",
    "SK113": "A bare path-like word in prose or code is heuristic: at most information.",
    "SK116": "A placeholder whose intent the skill's own words do not settle is heuristic: at "
             "most information.",
}


def _evidence(item: Rule) -> str:
    """The rule's facts as a table: per target, what the runtime does (or the project's advice),
    where that is seen, and the version it was verified against."""
    if not item.evidence:
        return ""
    rows = "\n".join(f"| {_cell(e.target_label)} | {_cell(e.fact)} | {_cell(e.source)} | "
                     f"{_cell(e.verified)} |" for e in item.evidence)
    return ("\n## Evidence\n\n| targets | fact | source | verified against |\n"
            f"|---|---|---|---|\n{rows}\n")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def evidence_line(evidence: Evidence) -> str:
    """One fact as `wave-lsp rule` prints it."""
    return (f"Evidence ({evidence.target_label}): {evidence.fact} (source: {evidence.source}; "
            f"verified against: {evidence.verified})")


def facts_per_target(item: Rule) -> str:
    """`wave-lsp rule CODE`'s facts per target: the severity, the effect and its sentence, and
    the evidence rows about that target (then any row about a target that does not report it)."""
    levels = dict(zip(CATALOG_COLUMNS, effective_levels(item), strict=True))
    blocks = ["Facts per target:"]
    shown: set[int] = set()
    for column, effect, sentence in effect_rows(item):
        level = levels[column]
        blocks.append(f"  {column}: {level.label if level else 'off'}, {effect} — {sentence}")
        for index, row in enumerate(item.evidence):
            if row.covers(column):
                blocks.append(f"    {evidence_line(row)}")
                shown.add(index)
    blocks.extend(evidence_line(row) for index, row in enumerate(item.evidence)
                  if index not in shown)
    return "\n".join(blocks)


def _applicability(item: Rule) -> str:
    text = _APPLICABILITY.get(item.fix_applicability)
    return f"\n{text}\n" if text else ""


def rule_json(item: Rule) -> dict[str, Any]:
    """One rule as `wave-lsp rule --format json` prints it."""
    checks = [c.name for c in all_checks() if item.code in c.codes]
    if item.code in CHECKED_ELSEWHERE:
        checks.append(CHECKED_ELSEWHERE[item.code][1])
    return {"code": item.code, "name": item.name, "family": item.family,
            "severity": {column: level.label if level else None
                         for column, level in zip(item.severities, effective_levels(item),
                                                  strict=True)},
            "summary": item.summary, "why": item.why, "example": item.example, "fix": item.fix,
            "fixApplicability": item.fix_applicability or None, "notes": item.notes or None,
            "stopsLoading": [c for c in CATALOG_COLUMNS if c in item.stops_loading],
            "effects": {column: str(item.effects[column]) if column in item.effects else None
                        for column in CATALOG_COLUMNS} if item.effects else None,
            "confidence": item.confidence.label,
            "evidence": [e.to_json() for e in item.evidence],
            "checks": checks, **({"url": item.url} if item.url else {}),
            "page": str(item.page) if item.page is not None else None}


def describe_rule(item: Rule, *, brief: bool = False) -> str:
    """One rule as `wave-lsp rule` prints it (`brief`: one line, for `--all`)."""
    levels = ", ".join(f"{column} {level.label if level else 'off'}"
                       for column, level in zip(item.severities, effective_levels(item),
                                                strict=True))
    if brief:
        return f"{item.code} {item.name} ({levels}): {item.summary}"
    fix = item.fix + (f" (quick fix: {item.fix_applicability})" if item.fix_applicability else "")
    parts = [f"{item.code} {item.name} — {item.family}", item.summary, f"Severity: {levels}.",
             f"Why: {item.why}", f"Example:\n    {item.example.replace(chr(10), chr(10) + '    ')}",
             f"Fix: {fix}"]
    if item.notes:
        parts.append(f"How wave-lsp decides: {item.notes}")
    if item.stops_loading:
        parts.append(stops_loading_text(item))
    parts.append(confidence_text(item))
    if item.effects:
        parts.append(facts_per_target(item))
    else:
        parts.extend(evidence_line(e) for e in item.evidence)
    parts.append(where_checked(item.code))
    return "\n\n".join(parts)


def index_page() -> str:
    lines = ["# wave-lsp rules", "", "Generated from `wave_lsp/data/rules.toml`.", "",
             f"| code | name | {' | '.join(CATALOG_COLUMNS)} | summary |",
             f"|---|---|{'---|' * len(CATALOG_COLUMNS)}---|"]
    for item in rules().values():
        levels = " | ".join(_LEVEL[int(s) if s else None][:1].upper() if s else "–"
                            for s in effective_levels(item))
        summary = item.summary.replace("|", "\\|")
        lines.append(f"| [{item.code}]({item.code}.md) | {item.name} | {levels} | {summary} |")
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    generated = {f"{code}.md": rule_page(item) for code, item in rules().items()}
    generated["README.md"] = index_page()
    return generated


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m wave_lsp.docs",
        description="Write one Markdown page per rule of the catalog (wave_lsp/data/rules.toml) "
                    "and the index README.md into DIR; pages of the same name are replaced.")
    parser.add_argument("dir", nargs="?", type=Path, default=Path("docs/rules"), metavar="DIR",
                        help="the folder to write into (default: docs/rules)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """`python -m wave_lsp.docs [DIR]`: write the rule pages; `--help` explains, and an unknown
    option is an error (exit status 2), never a folder name."""
    target: Path = _parser().parse_args(argv).dir
    written = pages()
    target.mkdir(parents=True, exist_ok=True)
    for name, content in written.items():
        (target / name).write_text(content, "utf-8")
    print(f"wrote {len(written)} pages to {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
