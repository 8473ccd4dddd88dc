"""Report formats of `wave-lsp check`: text, JSON (stable, documented in docs/cli.md), SARIF 2.1.0
for code scanning, and GitHub workflow annotations (docs/design/product.md *Command line*,
*Output, streamed*).

`ReportWriter` writes each file's report as soon as it is checked, in every format, and keeps
only the totals of the run (counts, the first few skills not loaded): memory does not grow with
the number of files. The JSON and SARIF documents are still one valid document, byte for byte what
`json.dump(to_json(...), indent=2)` prints: the parts that follow the per-file entries in the
document but depend on all of them (the document's `target` with no target configured, SARIF's
rule list) are written last, the entries waiting in a temporary file (in memory while small).
Everything goes out through one buffer (`OutputBuffer`): one `write` per megabyte, whatever
`PYTHONUNBUFFERED` says (unbuffered, `json.dump` would make one system call per token)."""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any, TextIO

from wave_lsp import __version__
from wave_lsp.core.checking.catalog import PUBLIC_HOME_URL, Severity, rule
from wave_lsp.core.checking.checker import FileReport
from wave_lsp.core.checking.config import parse_target
from wave_lsp.core.checking.findings import Finding, Related
from wave_lsp.core.facts.profiles import DEFAULT_PROFILE, PROFILES
from wave_lsp.core.parsing.text import LineIndex, Range

JSON_VERSION = 1
#: `text` (ruff's `full`): each finding with its source line and a caret; `concise`: one line each
TEXT_FORMATS = ("text", "concise")
#: the largest file whose lines a text report quotes when the checker did not keep its text
MAX_QUOTED_BYTES = 4 << 20
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


def source_lines(report: FileReport) -> LineIndex | None:
    """The lines of the text the report's positions are in: the checked document's, else the
    file read again (a resource; a report from a worker process), decoded as the checker decodes
    it. None for a file that cannot be read or is not text (a `.pyc`)."""
    from wave_lsp.core.parsing.reading import read_skill_file
    from wave_lsp.core.parsing.source import decode

    if report.document is not None:
        return LineIndex(report.document.text)
    try:
        if report.path.stat().st_size > MAX_QUOTED_BYTES:
            return None
    except OSError:
        return None
    data, _ = read_skill_file(report.path)
    if data is None or b"\0" in data:
        return None
    return LineIndex(decode(data).text)


def summary(reports: list[FileReport]) -> dict[str, int]:
    totals = Totals()
    for report in reports:
        totals.add(report)
    return totals.summary()


def file_entry(report: FileReport, cwd: Path | None = None,
               per_file: bool = False) -> dict[str, Any]:
    """One file of the `check --format json` document (`to_json`)."""
    return {"path": display_path(report.path, cwd), "skill": report.skill,
            **({"target": report.target, "checkedFor": report.checked_for}
               if per_file and report.target is not None else {}),
            **(report.verdict.to_json() if report.verdict is not None else {}),
            "findings": [f.to_json() for f in report.findings]}


def to_json(reports: list[FileReport], target: str, cwd: Path | None = None,
            per_file: bool = False) -> dict[str, Any]:
    """The `check --format json` document; paths shown relative to `cwd` (default: the current
    directory) when below it. `per_file`: no target was configured, so each file says the one it
    was checked for (`"target"` of the file; the document's is the one they share, or
    `"per-file"`)."""
    if per_file:
        target = _shared_target({r.target for r in reports if r.target is not None})
    return {
        "version": JSON_VERSION,
        "tool": {"name": "wave-lsp", "version": __version__},
        "target": target,
        "files": [file_entry(r, cwd, per_file) for r in reports],
        "summary": summary(reports),
    }


def _shared_target(names: set[str]) -> str:
    """The document's target with no target configured: the one every file got, or `per-file`."""
    return next(iter(names)) if len(names) == 1 else "per-file"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning",
                Severity.INFORMATION: "note", Severity.HINT: "note"}


def sarif_uri(path: Path, cwd: Path | None = None) -> str:
    """The file as a SARIF `artifactLocation.uri`: a URI reference, so percent-encoded (a folder
    named `Meeting Notes` is `Meeting%20Notes`); relative to the current directory when the file
    is below it, else a `file:` URI."""
    from urllib.parse import quote

    shown = display_path(path, cwd)
    # absolute: `/…`, or `C:/…` on Windows (display_path writes forward slashes)
    return Path(shown).as_uri() if Path(shown).is_absolute() else quote(shown)


def to_sarif(reports: list[FileReport], target: str) -> dict[str, Any]:
    used = sorted({f.code for r in reports for f in r.findings})
    rule_index = {code: i for i, code in enumerate(used)}
    results = [_sarif_result(finding, sarif_uri(report.path), rule_index[finding.code])
               for report in reports for finding in report.findings]
    return _sarif_document(used, target, results)


def _sarif_result(finding: Finding, uri: str, rule_index: int | str) -> dict[str, Any]:
    """One SARIF result; `rule_index` the position of its rule in the run's rule list, or a
    stand-in that `ReportWriter` replaces once the list is known (`_INDEX_OF`)."""
    assert finding.range is not None
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _SARIF_LEVEL[finding.severity],
        "message": {"text": finding.message},
        "properties": {"confidence": finding.certainty.label},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri},
                                            "region": _sarif_region(finding.range)}}],
    }
    if finding.related:  # the other skills a finding said once covers, the winner of a name…
        result["relatedLocations"] = [_sarif_related(index, item, uri)
                                      for index, item in enumerate(finding.related)]
    return result


def _sarif_region(span: Range) -> dict[str, int]:
    start, end = span.start, span.end
    return {"startLine": start.line + 1, "startColumn": start.character + 1,
            "endLine": end.line + 1, "endColumn": end.character + 1}


def _sarif_related(index: int, item: Related, uri: str) -> dict[str, Any]:
    """A related location: in another file (`path`) or in this one."""
    physical: dict[str, Any] = {"artifactLocation": {
        "uri": sarif_uri(Path(item.path)) if item.path else uri}}
    if item.range is not None:
        physical["region"] = _sarif_region(item.range)
    return {"id": index, "message": {"text": item.message}, "physicalLocation": physical}


def _sarif_document(used: list[str], target: str, results: list[Any]) -> dict[str, Any]:
    """The SARIF log of a run whose findings have the codes `used` (sorted)."""
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


#: a result's `ruleIndex` while the rule list is not known yet: the code between two marks
_INDEX_MARK = "\ue001"
_INDEX_OF = re.compile(f'"{_INDEX_MARK}([^"]*)"')


_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning",
                 Severity.INFORMATION: "notice", Severity.HINT: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github_lines(report: FileReport, path: str, out: TextIO | OutputBuffer) -> None:
    """The workflow annotations of one report's findings (`path`: the file as shown)."""
    for finding in report.findings:
        assert finding.range is not None
        start, end = finding.range.start, finding.range.end
        props = (f"file={_escape_property(path)},line={start.line + 1},"
                 f"col={start.character + 1},endLine={end.line + 1},"
                 f"endColumn={end.character + 1},"
                 f"title={_escape_property(f'{finding.code} {finding.name}')}")
        out.write(f"::{_GITHUB_LEVEL[finding.severity]} {props}::"
                  f"{_escape_data(finding.message)}\n")


#: how much `OutputBuffer` gathers before it writes
BUFFER_CHARS = 1 << 20


class OutputBuffer:
    """Text gathered and written to `out` in pieces of `BUFFER_CHARS` (one `write` and one
    `flush` each): the whole output of a small run is one write."""

    def __init__(self, out: TextIO, limit: int = BUFFER_CHARS) -> None:
        self.out, self.limit = out, limit
        self._parts: list[str] = []
        self._size = 0

    def write(self, text: str) -> None:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= self.limit:
            self.flush()

    def flush(self) -> None:
        if self._parts:
            self.out.write("".join(self._parts))
            self._parts, self._size = [], 0
        self.out.flush()

    def isatty(self) -> bool:
        return self.out.isatty()


class _Group:
    """What the closing lines need of the files checked for one target: how many, the runtime of
    the first, how many the target does not load and the first few of those."""

    __slots__ = ("files", "runtime", "shown", "skipped")

    def __init__(self, runtime: str | None) -> None:
        self.files, self.runtime, self.skipped = 0, runtime, 0
        self.shown: list[str] = []

    def add(self, report: FileReport) -> None:
        self.files += 1
        if report.verdict is None or report.verdict.loads:
            return
        self.skipped += 1
        if len(self.shown) < _SHOWN_NOT_LOADED:
            stopped = report.verdict.stopped_by
            path = display_path(report.path)
            self.shown.append(f"{path} ({stopped.code})" if stopped is not None else path)

    def not_loaded_line(self, runtime: str) -> str | None:
        if not self.skipped:
            return None
        more = (f" and {self.skipped - _SHOWN_NOT_LOADED} more"
                if self.skipped > _SHOWN_NOT_LOADED else "")
        what = "skill is" if self.skipped == 1 else "skills are"
        return f"{self.skipped} {what} not loaded by {runtime}: {', '.join(self.shown)}{more}."


_SHOWN_NOT_LOADED = 5


class Totals:
    """The run's counts, gathered report by report (`summary` of every report so far)."""

    def __init__(self) -> None:
        self.files = 0
        self.counts: Counter[str] = Counter()
        self.all = _Group(None)
        #: by the label of the target each file was checked for (`chosen_targets`)
        self.groups: dict[str, _Group] = {}
        self.targets: set[str] = set()

    def add(self, report: FileReport) -> None:
        self.files += 1
        self.counts.update(f.severity.label for f in report.findings)
        self.all.add(report)
        label = _target_label(report)
        group = self.groups.get(label)
        if group is None:
            group = self.groups[label] = _Group(report.checked_for)
        group.add(report)
        if report.target is not None:
            self.targets.add(report.target)

    @property
    def errors(self) -> int:
        return self.counts["error"]

    def summary(self) -> dict[str, int]:
        counts = self.counts
        return {"files": self.files, "findings": sum(counts.values()),
                "error": counts["error"], "warning": counts["warning"],
                "information": counts["information"], "hint": counts["hint"],
                "notLoaded": self.all.skipped}


def _target_label(report: FileReport) -> str:
    target = report.target or ""
    known = PROFILES.get(target)
    # a target that stands for other runtimes than its name says (`.agents/skills`) says which
    return target if known is None or known.runtime == report.checked_for \
        else f"{target} ({report.checked_for})"


#: what stands in the document for the entries written separately (`_framed`)
_HOLE = "\ue000wave-lsp entries\ue000"


def _framed(document: dict[str, Any], depth: int) -> tuple[str, str]:
    """`document` as `json.dumps(..., indent=2)` prints it, around the one list that holds only
    `_HOLE`, `depth` levels deep: the text before the list's first entry and after its last
    (entries are `_entry` texts joined by `,` and a line break)."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    before, after = text.split(f"{'  ' * depth}{json.dumps(_HOLE, ensure_ascii=False)}", 1)
    return before, after


def _entry(value: dict[str, Any], depth: int) -> str:
    """One entry of a list nested `depth` levels deep, as `json.dumps(indent=2)` prints it there
    (no JSON string holds a raw line break, so indenting every line is exact)."""
    indent = "  " * depth
    return indent + json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)


class ReportWriter:
    """Writes the reports of a run in `fmt` as they come (`add`), then the closing part (`close`).
    `per_file`: no target was configured; each file was checked for its own."""

    def __init__(self, fmt: str, target: str, out: TextIO | None = None,
                 per_file: bool = False, buffer_chars: int = BUFFER_CHARS) -> None:
        self.fmt, self.target, self.per_file = fmt, target, per_file
        self.out = OutputBuffer(out or sys.stdout, buffer_chars)
        self.totals = Totals()
        self.cwd = Path.cwd()
        self.colour = fmt in TEXT_FORMATS and self.out.isatty() and not os.environ.get("NO_COLOR")
        #: the JSON entries or SARIF results, when the part before them is known only at the end
        self._waiting: IO[str] | None = None
        #: the part before the JSON entries, written with the first entry (an empty list is `[]`)
        self._head: str | None = None
        self._entries = 0
        self._used: set[str] = set()
        if fmt == "json" and not per_file:
            self._head = self._json_frame(target)[0]
        elif fmt in ("json", "sarif"):
            import tempfile

            self._waiting = tempfile.SpooledTemporaryFile(  # noqa: SIM115  # closed in `_finish`
                max_size=8 * BUFFER_CHARS, mode="w+", encoding="utf-8", newline="")

    # -- the parts ---------------------------------------------------------------------------------
    def _json_document(self, target: str, entries: list[Any]) -> dict[str, Any]:
        return {"version": JSON_VERSION, "tool": {"name": "wave-lsp", "version": __version__},
                "target": target, "files": entries, "summary": self.totals.summary()}

    def _json_frame(self, target: str) -> tuple[str, str]:
        """The JSON document's text before its first entry and after its last."""
        return _framed(self._json_document(target, [_HOLE]), 2)

    def _entry_out(self, text: str) -> None:
        separator = ",\n" if self._entries else ""
        self._entries += 1
        if self._waiting is not None:
            self._waiting.write(separator + text)
            return
        if self._head is not None:
            self.out.write(self._head)
            self._head = None
        self.out.write(separator + text)

    def add(self, report: FileReport) -> None:
        self.totals.add(report)
        if self.fmt == "json":
            self._entry_out(_entry(file_entry(report, self.cwd, self.per_file), 2))
        elif self.fmt == "sarif":
            uri = sarif_uri(report.path, self.cwd)
            for finding in report.findings:
                self._used.add(finding.code)
                self._entry_out(_entry(_sarif_result(finding, uri,
                                                     _INDEX_MARK + finding.code), 4))
        elif self.fmt == "github":
            _github_lines(report, display_path(report.path, self.cwd), self.out)
        else:
            self._text_lines(report)

    def _text_lines(self, report: FileReport) -> None:
        path = display_path(report.path, self.cwd)
        lines = source_lines(report) if self.fmt == "text" and report.findings else None
        for finding in report.findings:
            assert finding.range is not None
            start = finding.range.start
            label = self._paint(f"[{finding.severity.label}]", _COLOURS[finding.severity])
            code = self._paint(finding.code, _BOLD)
            self.out.write(f"{path}:{start.line + 1}:{start.character + 1}: {code} {label} "
                           f"{finding.message}\n")
            if lines is not None and start.line < lines.line_count:
                self._excerpt(lines, finding)

    def _excerpt(self, lines: LineIndex, finding: Finding) -> None:
        """The finding's first line under its header, ruff's way: the line number in a gutter and
        carets under the finding (to the end of the line when it goes on)."""
        from wave_lsp.excerpt import excerpt

        assert finding.range is not None
        start, end = finding.range.start, finding.range.end
        text = lines.line_text(start.line)
        shown = excerpt(text, start.character, end.character if end.line == start.line else len(text))
        number = str(start.line + 1)
        gutter = " " * len(number)
        carets = self._paint(shown.carets, _COLOURS[finding.severity])
        self.out.write(f"{gutter} |\n{number} | {shown.text}\n{gutter} | {carets}\n{gutter} |\n\n")

    def _paint(self, text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if self.colour else text

    # -- the end -----------------------------------------------------------------------------------
    def close(self) -> Totals:
        """Write what follows the reports (summary, closing lines, the rest of the document),
        flush, and return the run's totals."""
        if self.fmt == "json":
            self._close_json()
        elif self.fmt == "sarif":
            self._close_sarif()
        elif self.fmt == "github":
            totals = self.totals.summary()
            self.out.write(f"wave-lsp: {totals['files']} files, {totals['error']} errors, "
                           f"{totals['warning']} warnings\n")
        else:
            self._close_text()
        self.out.flush()
        return self.totals

    def _close_json(self) -> None:
        target = _shared_target(self.totals.targets) if self.per_file else self.target
        if not self._entries:
            self._finish(None, self._json_document(target, []))
            return
        head, tail = self._json_frame(target)
        self._finish(head if self._waiting is not None else None, tail)

    def _close_sarif(self) -> None:
        used = sorted(self._used)
        if not self._entries:
            self._finish(None, _sarif_document(used, self.target, []))
            return
        head, tail = _framed(_sarif_document(used, self.target, [_HOLE]), 4)
        self._finish(head, tail, {code: str(i) for i, code in enumerate(used)})

    def _finish(self, head: str | None, tail: str | dict[str, Any],
                rule_index: dict[str, str] | None = None) -> None:
        """Write `head` (None: written with the first entry, or there is no entry), the entries
        waiting (their `ruleIndex` stand-ins replaced from `rule_index`), then `tail` and a line
        break; `tail` a document: there were no entries, and it is the whole output."""
        waiting, self._waiting = self._waiting, None
        if isinstance(tail, dict):
            self.out.write(json.dumps(tail, indent=2, ensure_ascii=False) + "\n")
        else:
            if head is not None:
                self.out.write(head)
            if waiting is not None:
                waiting.seek(0)
                if rule_index is None:
                    while chunk := waiting.read(BUFFER_CHARS):
                        self.out.write(chunk)
                else:  # a stand-in is one line (`"ruleIndex": "…SK112",`): read line by line
                    index = rule_index.__getitem__
                    for line in waiting:
                        self.out.write(_INDEX_OF.sub(lambda m: index(m.group(1)), line)
                                       if _INDEX_MARK in line else line)
            self.out.write(tail + "\n")
        if waiting is not None:
            waiting.close()

    def _close_text(self) -> None:
        totals = self.totals.summary()
        parts = [f"{totals[k]} {k}"
                 f"{'s' if totals[k] != 1 and k in ('error', 'warning', 'hint') else ''}"
                 for k in ("error", "warning", "information", "hint")]
        line = (f"Checked {totals['files']} file{'s' if totals['files'] != 1 else ''}: "
                + ", ".join(parts) + ".")
        self.out.write((self._paint(line, _BOLD) if self.colour else line) + "\n")
        runtime = parse_target(self.target).runtime
        if not self.per_file:
            skipped = self.totals.all.not_loaded_line(runtime)
            if skipped is not None:
                self.out.write(skipped + "\n")
            return
        groups = self.totals.groups
        if set(groups) - {"", DEFAULT_PROFILE.name}:  # all `wave` (no skills root): as ever
            parts = [f"{label} for {group.files} file{'s' if group.files != 1 else ''}"
                     for label, group in groups.items() if label]
            self.out.write("No target configured, so each file was checked for the runtime that "
                           f"reads it where it lives: {'; '.join(parts)}. `--target` (or "
                           "`[tool.wave-lsp] target`) chooses one.\n")
        for group in groups.values():
            skipped = group.not_loaded_line(group.runtime or runtime)
            if skipped is not None:
                self.out.write(skipped + "\n")


def write(reports: Iterable[FileReport], fmt: str, target: str, out: TextIO | None = None,
          per_file: bool = False) -> Totals:
    """Write `reports` in `fmt`, each as it comes (`ReportWriter`); the run's totals.
    `per_file`: no target was configured; each file was checked for its own."""
    writer = ReportWriter(fmt, target, out, per_file)
    for report in reports:
        writer.add(report)
    return writer.close()
