"""Report formats of `wave-lsp check`: text, JSON (stable, documented in the README), SARIF 2.1.0
for code scanning, and GitHub workflow annotations."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from wave_lsp import __version__
from wave_lsp.core.checking.catalog import PUBLIC_HOME_URL, Severity, rule
from wave_lsp.core.checking.checker import FileReport
from wave_lsp.core.checking.config import parse_target
from wave_lsp.core.runtime.profiles import DEFAULT_PROFILE, PROFILES

JSON_VERSION = 1
_COLOURS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m",
            Severity.INFORMATION: "\033[36m", Severity.HINT: "\033[2m"}
_RESET, _BOLD = "\033[0m", "\033[1m"


def display_path(path: Path, cwd: Path | None = None) -> str:
    """Relative to the current directory when the file is below it, else absolute."""
    cwd = cwd or Path.cwd()
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(cwd).as_posix()
    except ValueError:
        return absolute.as_posix()


def summary(reports: list[FileReport]) -> dict[str, int]:
    counts = Counter(f.severity.label for r in reports for f in r.findings)
    return {"files": len(reports), "findings": sum(counts.values()),
            "error": counts["error"], "warning": counts["warning"],
            "information": counts["information"], "hint": counts["hint"],
            "notLoaded": len(not_loaded(reports))}


def not_loaded(reports: list[FileReport]) -> list[FileReport]:
    """The reports of skills the target does not load at all (wave_lsp.core.checking.loading)."""
    return [r for r in reports if r.verdict is not None and not r.verdict.loads]


def _not_loaded_line(reports: list[FileReport], runtime: str) -> str | None:
    skipped = not_loaded(reports)
    if not skipped:
        return None
    shown = [f"{display_path(r.path)} ({r.verdict.stopped_by.code})"
             if r.verdict is not None and r.verdict.stopped_by is not None
             else display_path(r.path) for r in skipped[:5]]
    more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
    what = "skill is" if len(skipped) == 1 else "skills are"
    return f"{len(skipped)} {what} not loaded by {runtime}: {', '.join(shown)}{more}."


def chosen_targets(reports: list[FileReport]) -> dict[str, list[FileReport]]:
    """The reports by the target each file was checked for, in the order first seen (one key when
    a target was configured)."""
    groups: dict[str, list[FileReport]] = {}
    for report in reports:
        target = report.target or ""
        known = PROFILES.get(target)
        # a target that stands for other runtimes than its name says (`.agents/skills`) says which
        label = target if known is None or known.runtime == report.checked_for \
            else f"{target} ({report.checked_for})"
        groups.setdefault(label, []).append(report)
    return groups


def _targets_line(groups: dict[str, list[FileReport]]) -> str:
    parts = [f"{label} for {len(items)} file{'s' if len(items) != 1 else ''}"
             for label, items in groups.items() if label]
    return ("No target configured, so each file was checked for the runtime that reads it "
            f"where it lives: {'; '.join(parts)}. `--target` (or `[tool.wave-lsp] target`) "
            "chooses one.")


def write_text(reports: list[FileReport], out: TextIO, colour: bool,
               runtime: str = "the target", per_file: bool = False) -> None:
    def paint(text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if colour else text

    for report in reports:
        path = display_path(report.path)
        for finding in report.findings:
            assert finding.range is not None
            start = finding.range.start
            label = paint(f"[{finding.severity.label}]", _COLOURS[finding.severity])
            code = paint(finding.code, _BOLD)
            out.write(f"{path}:{start.line + 1}:{start.character + 1}: {code} {label} "
                      f"{finding.message}\n")
    totals = summary(reports)
    parts = [f"{totals[k]} {k}{'s' if totals[k] != 1 and k in ('error', 'warning', 'hint') else ''}"
             for k in ("error", "warning", "information", "hint")]
    line = (f"Checked {totals['files']} file{'s' if totals['files'] != 1 else ''}: "
            + ", ".join(parts) + ".")
    out.write((paint(line, _BOLD) if colour else line) + "\n")
    if not per_file:
        skipped = _not_loaded_line(reports, runtime)
        if skipped is not None:
            out.write(skipped + "\n")
        return
    groups = chosen_targets(reports)
    if set(groups) - {"", DEFAULT_PROFILE.name}:  # all `wave` (no skills root): as ever
        out.write(_targets_line(groups) + "\n")
    for items in groups.values():
        skipped = _not_loaded_line(items, items[0].checked_for or runtime)
        if skipped is not None:
            out.write(skipped + "\n")


def to_json(reports: list[FileReport], target: str, cwd: Path | None = None,
            per_file: bool = False) -> dict[str, Any]:
    """The `check --format json` document; paths shown relative to `cwd` (default: the current
    directory) when below it. `per_file`: no target was configured, so each file says the one it
    was checked for (`"target"` of the file; the document's is the one they share, or
    `"per-file"`)."""
    if per_file:
        names = {r.target for r in reports if r.target is not None}
        target = names.pop() if len(names) == 1 else "per-file"
    return {
        "version": JSON_VERSION,
        "tool": {"name": "wave-lsp", "version": __version__},
        "target": target,
        "files": [
            {"path": display_path(r.path, cwd), "skill": r.skill,
             **({"target": r.target, "checkedFor": r.checked_for}
                if per_file and r.target is not None else {}),
             **(r.verdict.to_json() if r.verdict is not None else {}),
             "findings": [f.to_json() for f in r.findings]}
            for r in reports
        ],
        "summary": summary(reports),
    }


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning",
                Severity.INFORMATION: "note", Severity.HINT: "note"}


def sarif_uri(path: Path, cwd: Path | None = None) -> str:
    """The file as a SARIF `artifactLocation.uri`: a URI reference, so percent-encoded (a folder
    named `Meeting Notes` is `Meeting%20Notes`); relative to the current directory when the file
    is below it, else a `file:` URI."""
    from urllib.parse import quote

    shown = display_path(path, cwd)
    return quote(shown) if not shown.startswith("/") else Path(shown).as_uri()


def to_sarif(reports: list[FileReport], target: str) -> dict[str, Any]:
    used = sorted({f.code for r in reports for f in r.findings})
    rule_index = {code: i for i, code in enumerate(used)}
    results = []
    for report in reports:
        uri = sarif_uri(report.path)
        for finding in report.findings:
            assert finding.range is not None
            start, end = finding.range.start, finding.range.end
            results.append({
                "ruleId": finding.code,
                "ruleIndex": rule_index[finding.code],
                "level": _SARIF_LEVEL[finding.severity],
                "message": {"text": finding.message},
                "properties": {"confidence": finding.certainty.label},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": {"startLine": start.line + 1, "startColumn": start.character + 1,
                               "endLine": end.line + 1, "endColumn": end.character + 1},
                }}],
            })
    # Links only to public pages (catalog.PUBLIC_DOCS_URL): a path on the machine that ran the
    # check means nothing where the log is read; `help` says how to read the page offline.
    driver_rules = [{
        "id": code, "name": rule(code).name,
        "shortDescription": {"text": rule(code).summary},
        "fullDescription": {"text": rule(code).why},
        **({"helpUri": url} if (url := rule(code).url) else {}),
        "help": {"text": f"{rule(code).why} Fix: {rule(code).fix} "
                         f"(`wave-lsp rule {code}` prints the whole page.)"},
        "properties": {"confidence": rule(code).confidence.label,
                       "evidence": [e.to_json() for e in rule(code).evidence]},
    } for code in used]
    driver: dict[str, Any] = {"name": "wave-lsp", "version": __version__}
    if PUBLIC_HOME_URL:
        driver["informationUri"] = PUBLIC_HOME_URL
    driver["rules"] = driver_rules
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "properties": {"target": target},
            "results": results,
        }],
    }


_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning",
                 Severity.INFORMATION: "notice", Severity.HINT: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write_github(reports: list[FileReport], out: TextIO) -> None:
    for report in reports:
        path = display_path(report.path)
        for finding in report.findings:
            assert finding.range is not None
            start, end = finding.range.start, finding.range.end
            props = (f"file={_escape_property(path)},line={start.line + 1},"
                     f"col={start.character + 1},endLine={end.line + 1},"
                     f"endColumn={end.character + 1},"
                     f"title={_escape_property(f'{finding.code} {finding.name}')}")
            out.write(f"::{_GITHUB_LEVEL[finding.severity]} {props}::"
                      f"{_escape_data(finding.message)}\n")
    totals = summary(reports)
    out.write(f"wave-lsp: {totals['files']} files, {totals['error']} errors, "
              f"{totals['warning']} warnings\n")


def write(reports: list[FileReport], fmt: str, target: str, out: TextIO | None = None,
          per_file: bool = False) -> None:
    """`per_file`: no target was configured; each file was checked for its own."""
    out = out or sys.stdout
    if fmt == "json":
        json.dump(to_json(reports, target, per_file=per_file), out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif fmt == "sarif":
        json.dump(to_sarif(reports, target), out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif fmt == "github":
        write_github(reports, out)
    else:
        colour = out.isatty() and not os.environ.get("NO_COLOR")
        write_text(reports, out, colour, parse_target(target).runtime, per_file)

