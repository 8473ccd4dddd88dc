"""What the server knows between requests: settings, the skill index and analysed documents.

Settings are the `[tool.wave-lsp]` section of the nearest `pyproject.toml` (as the CLI reads it),
with the client's `wave` section on top; so with no editor settings the server reports exactly
what `wave-lsp check` reports. A setting that cannot be understood is logged and ignored.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wave_lsp.core.checking.checker import FileReport, check_file_steps
from wave_lsp.core.checking.config import Settings, SettingsError, load_pyproject, settings_from_mapping
from wave_lsp.core.checking.disk_findings import DiskFindings, FileFindings
from wave_lsp.core.checking.engine import Steps
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.workspace.discovery import is_skill_file
from wave_lsp.core.workspace.index import SkillIndex
from wave_lsp.core.workspace.session import WorkspaceSession
from wave_lsp.lsp.convert import Positions

log = logging.getLogger(__name__)
BOM = b"\xef\xbb\xbf"
#: files whose change may change the findings of every skill
GLOBAL_NAMES = frozenset({"skill.md", "settings.json", "settings.local.json", "plugin.json",
                          ".gitignore", "pyproject.toml"})


@dataclass(slots=True)
class ClientSettings:
    """The client's `wave` section, understood."""

    raw: dict[str, Any] = field(default_factory=dict)
    allow_execution: bool = False
    problems: list[str] = field(default_factory=list)


def read_client_settings(raw: Any) -> ClientSettings:
    """Understand the `wave` section; every problem is reported and the key ignored."""
    result = ClientSettings()
    if raw is None:
        return result
    if not isinstance(raw, Mapping):
        result.problems.append(f"the `wave` settings must be an object, not {type(raw).__name__}")
        return result
    for key, value in raw.items():
        try:
            settings_from_mapping({key: value})
        except SettingsError as error:
            result.problems.append(f"wave.{key}: {error}")
            continue
        except (TypeError, ValueError) as error:
            result.problems.append(f"wave.{key}: {error}")
            continue
        result.raw[key] = value
    preview = raw.get("preview")
    if isinstance(preview, Mapping) and "allowExecution" in preview:
        result.allow_execution = preview.get("allowExecution") is True
    elif "preview.allowExecution" in raw:
        result.allow_execution = raw.get("preview.allowExecution") is True
    return result


def _read_project_settings(directory: Path) -> tuple[dict[str, Any], str | None]:
    """`[tool.wave-lsp]` at or above `directory`, or the problem that makes it unusable."""
    try:
        section, _ = load_pyproject(directory)
        settings_from_mapping(section)
        return section, None
    except SettingsError as error:
        return {}, str(error)


@dataclass(slots=True)
class Analysis:
    uri: str
    version: int | None
    report: FileReport
    positions: Positions
    context: FeatureContext


class AnalysisRun:
    """One analysis of one document text, in progress (docs/design/lsp.md *Edits coalesce*).

    The edit task advances it a few steps at a time and lets the event loop read messages in
    between; a request that needs the same analysis finishes it at once (the work done so far is
    kept, nothing is computed twice); a newer text of the document abandons it. Single-threaded:
    only the event loop touches a run."""

    def __init__(self, key: tuple[Any, ...], steps: Steps[Analysis] | None) -> None:
        self.key = key
        self._steps = steps
        self.result: Analysis | None = None

    @staticmethod
    def finished(key: tuple[Any, ...], analysis: Analysis) -> AnalysisRun:
        run = AnalysisRun(key, None)
        run.result = analysis
        return run

    @property
    def done(self) -> bool:
        """Complete (`result` is set) or abandoned (`result` is None)."""
        return self._steps is None

    def advance(self) -> bool:
        """Run to the next checkpoint; True once the run is done. An exception of the analysis
        ends the run (without a result) and is raised."""
        if self._steps is None:
            return True
        try:
            next(self._steps)
        except StopIteration as end:
            self.result = end.value
            self._steps = None
        except BaseException:
            self._steps = None
            raise
        return self._steps is None

    def finish(self) -> Analysis | None:
        """The analysis, computed to its end now (None if the run was abandoned)."""
        while not self.advance():
            pass
        return self.result

    def abandon(self) -> None:
        if self._steps is not None:
            self._steps.close()
            self._steps = None


class ServerState:
    def __init__(self) -> None:
        self.client = ClientSettings()
        #: everything remembered about the disk in this session (index, project snapshots)
        self.session = WorkspaceSession(freshness_seconds=2.0)
        self.index = SkillIndex(self.session)
        #: the checks of the skill files that are not open (workspace diagnostics)
        self.disk = DiskFindings(self.session)
        self._project_settings: dict[Path, tuple[dict[str, Any], str | None]] = {}
        self.generation = 0  #: bumped whenever settings or the index change
        self._analyses: dict[str, tuple[tuple[Any, ...], Analysis]] = {}
        #: the analysis in progress per document (at most one: a newer text abandons it)
        self._runs: dict[str, AnalysisRun] = {}
        self.home: Path | None = None

    def set_client_settings(self, raw: Any) -> list[str]:
        self.client = read_client_settings(raw)
        self.invalidate()
        return self.client.problems

    def invalidate(self) -> None:
        self.generation += 1
        self._analyses.clear()
        self._project_settings.clear()
        self.session.expire()
        self.disk.invalidate()

    def settings_for(self, path: Path | None) -> Settings:
        base = Settings(home=self.home)
        if path is not None:
            section, problem = self._settings_of(path.parent)
            if problem:
                log.warning("ignoring [tool.wave-lsp]: %s", problem)
            base = settings_from_mapping(section, base)
        return settings_from_mapping(self.client.raw, base)

    def _settings_of(self, directory: Path) -> tuple[dict[str, Any], str | None]:
        # one lookup and the value kept locally: the worker thread of the unopened-file findings
        # calls this while the event loop may `invalidate` (clear) the cache
        known = self._project_settings.get(directory)
        if known is not None:
            return known
        if len(self._project_settings) > 256:
            self._project_settings.clear()
        found = self._project_settings[directory] = _read_project_settings(directory)
        return found

    def analyse(self, uri: str, path: Path | None, text: str, version: int | None,
                encoding: str) -> Analysis | None:
        """Findings and feature context for one document text (cached per version and settings);
        None for documents that are not skill files (or have no file name, like `untitled:`).
        An analysis of the same text in progress is finished, not started again."""
        run = self.start(uri, path, text, version, encoding)
        return run.finish() if run is not None else None

    def key(self, text: str, version: int | None, encoding: str) -> tuple[Any, ...]:
        """What an analysis depends on besides the file name: the text, its version, the settings
        and index (`generation`) and the position encoding."""
        return (version, len(text), hash(text), self.generation, encoding)

    def start(self, uri: str, path: Path | None, text: str, version: int | None,
              encoding: str) -> AnalysisRun | None:
        """The run that analyses this text of the document: a finished one when the analysis is
        cached, the one in progress for the same text and settings, or a new one (an older run
        of the document is abandoned); None for documents that are not skill files."""
        if path is None or not is_skill_file(path):
            return None
        key = self.key(text, version, encoding)
        cached = self._analyses.get(uri)
        if cached is not None and cached[0] == key:
            return AnalysisRun.finished(key, cached[1])
        running = self._runs.get(uri)
        if running is not None and running.key == key and not running.done:
            return running
        if running is not None:
            running.abandon()
        run = self._runs[uri] = AnalysisRun(key, self._analysis_steps(uri, path, text, version,
                                                                      encoding, key))
        return run

    def _analysis_steps(self, uri: str, path: Path, text: str, version: int | None,
                        encoding: str, key: tuple[Any, ...]) -> Steps[Analysis]:
        settings = self.settings_for(path)
        client_bom = text.startswith("\ufeff")
        disk_bom = not client_bom and _starts_with_bom(path)
        report = yield from check_file_steps(path, settings, text=text, bom=disk_bom,
                                             session=self.session)
        document = report.document
        assert document is not None
        assert report.location is not None
        context = FeatureContext(document, report.location, settings, self.index)
        analysis = Analysis(uri, version, report, Positions(document.lines, encoding, client_bom),
                            context)
        if self.key(text, version, encoding) == key:  # else settings or the index changed meanwhile
            self._analyses[uri] = (key, analysis)
        self.index.update(path, document)
        return analysis

    def affected_by(self, changed: list[Path], open_uris: list[str]) -> list[str]:
        """The open documents whose findings may change when `changed` files change: every one
        for a SKILL.md, settings, plugin, `.gitignore` or `pyproject.toml` change (collisions,
        listing budget, permissions, configuration), else those whose skill folder holds a
        changed file (references, resources)."""
        if any(path.name.lower() in GLOBAL_NAMES for path in changed):
            return list(open_uris)
        affected = []
        for uri in open_uris:
            skill_dir = _path_of(uri)
            if skill_dir is None:
                continue
            folder = skill_dir.parent
            if any(folder == path.parent or folder in path.parents for path in changed):
                affected.append(uri)
        return affected

    def workspace_skill_files(self) -> list[Path]:
        """The indexed SKILL.md files inside the workspace folders (not the personal roots)."""
        folders = self.index.folders
        return [entry.path for entry in self.index.skills()
                if any(entry.path.resolve().is_relative_to(folder) for folder in folders)]

    def unopened_findings(self, open_uris: list[str]) -> list[FileFindings]:
        """The findings about files of the workspace's skills that are not open, per file."""
        open_paths = [path for path in (_path_of(uri) for uri in open_uris) if path is not None]
        return self.disk.unopened(self.workspace_skill_files(), open_paths, self.settings_for)

    def concerns_skills(self, changed: list[Path]) -> bool:
        """Whether these changed files may change any skill's findings, open or not: a SKILL.md,
        settings, plugin, `.gitignore` or `pyproject.toml`, or a file inside an indexed skill's
        folder."""
        if any(path.name.lower() in GLOBAL_NAMES for path in changed):
            return True
        folders = {entry.path.parent for entry in self.index.skills()}
        return any(path.parent in folders or any(parent in folders for parent in path.parents)
                   for path in changed)

    def forget(self, uri: str) -> None:
        self._analyses.pop(uri, None)
        running = self._runs.pop(uri, None)
        if running is not None:
            running.abandon()


def _starts_with_bom(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(3) == BOM
    except OSError:
        return False


def _path_of(uri: str) -> Path | None:
    from pygls.uris import to_fs_path

    path = to_fs_path(uri)
    return Path(path) if path else None
