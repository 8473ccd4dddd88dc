"""Findings of the skill files on disk that the editor does not have open (docs/design/lsp.md
*Findings on files that are not open*).

A name collision (SK130), the listing budget (SK131) or an unreadable resource (SK140) is often
reported on a file nobody has open. The language server hands these to the client too: pulled with
`workspace/diagnostic` or pushed. This module decides what is reported for which file; the server
only converts it.

Every report is split by the file it is about (a SKILL.md and, for SK140, the skill's resources),
with a `result_id`: a stable hash of the findings, so a client that sends the id it already has
for a file is told "unchanged" when nothing about that file changed. The checks of unopened files
are remembered per file version (mtime and size) until `invalidate()` (settings or files changed).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from wave_lsp.core.checking.checker import FileReport, check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.text import LineIndex
from wave_lsp.core.workspace.location import SKILL_FILE
from wave_lsp.core.workspace.session import WorkspaceSession

#: at most this many unopened skill files are checked for one workspace report (bounded work on
#: huge monorepos; the rest are reported when opened)
MAX_UNOPENED = 2_000
_NO_LINES = LineIndex("")


@dataclass(frozen=True, slots=True)
class FileFindings:
    """The findings about one file, in that file's coordinates."""

    path: Path
    findings: tuple[Finding, ...]
    #: the line index of the text the findings' spans refer to (empty for a resource: its
    #: findings are at the start of the file)
    lines: LineIndex
    result_id: str


def result_id(findings: Iterable[Finding]) -> str:
    """A stable id of what a client would show for these findings (same findings, same id)."""
    digest = hashlib.sha256()
    for finding in findings:
        digest.update(json.dumps(_identity(finding), sort_keys=True, default=str).encode("utf-8"))
    return digest.hexdigest()[:24]


def _identity(finding: Finding) -> list[object]:
    return [finding.code, finding.message, finding.severity.label, finding.span.start,
            finding.span.end, finding.path,
            [(item.message, item.path, str(item.span), str(item.range)) for item in finding.related],
            [(fix.title, [(edit.span.start, edit.span.end, edit.new_text) for edit in fix.edits])
             for fix in finding.fixes]]


def split_report(report: FileReport) -> list[FileFindings]:
    """A SKILL.md's report split by file: the SKILL.md itself first (also when it has no finding),
    then each resource with findings."""
    lines = report.document.lines if report.document is not None else _NO_LINES
    own = tuple(finding for finding in report.findings if finding.path is None)
    result = [FileFindings(report.path, own, lines, result_id(own))]
    others: dict[str, list[Finding]] = {}
    for finding in report.findings:
        if finding.path is not None:
            others.setdefault(finding.path, []).append(finding)
    for path, found in others.items():
        result.append(FileFindings(Path(path), tuple(found), _NO_LINES, result_id(found)))
    return result


class DiskFindings:
    """The checks of unopened skill files in one session, remembered per file version."""

    def __init__(self, session: WorkspaceSession) -> None:
        self.session = session
        self._checked: dict[Path, tuple[tuple[int, int], list[FileFindings]]] = {}
        #: bumped by `invalidate`: a check that began before is not remembered (the language
        #: server checks in a worker thread while the event loop may invalidate)
        self._generation = 0

    def invalidate(self) -> None:
        """Settings or files changed: check again on next use."""
        self._generation += 1
        self._checked.clear()

    def forget_around(self, paths: Iterable[Path]) -> None:
        """These files changed: check again the skills whose folder holds them (a resource, the
        SKILL.md itself), whatever their SKILL.md's version says."""
        forgotten = False
        for path in paths:
            for folder in (path, *path.parents):
                forgotten = self._checked.pop(folder / SKILL_FILE, None) is not None or forgotten
        if forgotten:
            self._generation += 1  # a check that began before is not remembered

    def of_file(self, path: Path, settings: Settings) -> list[FileFindings]:
        """`split_report` of the SKILL.md as it is on disk ([] when it cannot be looked at)."""
        try:
            info = path.stat()
        except OSError:
            self._checked.pop(path, None)
            return []
        version = (info.st_mtime_ns, info.st_size)
        remembered = self._checked.get(path)
        if remembered is not None and remembered[0] == version:
            return remembered[1]
        generation = self._generation
        files = split_report(check_file(path, settings, session=self.session))
        if generation == self._generation:
            self._checked[path] = (version, files)
        return files

    def unopened(self, skill_files: Iterable[Path], open_files: Iterable[Path],
                 settings_for: Callable[[Path], Settings]) -> list[FileFindings]:
        """The per-file findings of the skill files that are not open (up to `MAX_UNOPENED`
        files), only the files that have findings."""
        open_files = list(open_files)
        opened = {os.path.realpath(path) for path in open_files}
        # a file is resolved only when an open one has its folder's name
        folder_names = {path.parent.name for path in open_files} | {
            os.path.basename(os.path.dirname(real)) for real in opened}
        result: list[FileFindings] = []
        checked = 0
        for path in skill_files:
            if path.parent.name in folder_names and os.path.realpath(path) in opened:
                continue
            checked += 1
            if checked > MAX_UNOPENED:
                break
            result.extend(found for found in self.of_file(path, settings_for(path))
                          if found.findings)
        return result
