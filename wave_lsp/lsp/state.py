"""What the server knows between requests: settings, the skill index and analysed documents.

Settings are the `[tool.wave-lsp]` section of the nearest `pyproject.toml` (as the CLI reads it),
with the client's `wave` section on top; so with no editor settings the server reports exactly
what `wave-lsp check` reports. A setting that cannot be understood is logged and ignored.
"""

from __future__ import annotations

import logging
import os
import threading
import time
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
from wave_lsp.core.workspace.location import SKILL_FILE
from wave_lsp.core.workspace.session import WorkspaceChange, WorkspaceSession
from wave_lsp.core.workspace.snapshot import FileChange
from wave_lsp.lsp.convert import Positions

log = logging.getLogger(__name__)
#: the project settings remembered per folder: more than the skill folders of a large workspace,
#: whose unopened files are all checked after a file event (256 made every check re-read them)
MAX_SETTINGS_FOLDERS = 16_384
BOM = b"\xef\xbb\xbf"
#: files whose change may change the findings of every skill (settings, plugins, ignore rules,
#: configuration): a change to one of them checks everything again
GLOBAL_NAMES = frozenset({"settings.json", "settings.local.json", "plugin.json",
                          "marketplace.json", ".gitignore", "pyproject.toml"})


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
    #: the check ran out of its time budget: why, said to the user (`AnalysisRun`)
    cut_short: str | None = None


#: how long one check of one document text may compute, summed over its slices, before the
#: server stops it and reports what it found (docs/design/lsp.md *Time budget per check*)
CHECK_BUDGET = 1.0
#: test seams, read only while pytest runs a test (`PYTEST_CURRENT_TEST` is set): the budget in
#: seconds, and `<rule name or *>:<seconds>`, a rule (every rule) made slow — each of its steps
#: computes that long — in a document whose text holds `SLOW_MARK`
BUDGET_ENV = "WAVE_LSP_TEST_CHECK_BUDGET"
SLOW_RULE_ENV = "WAVE_LSP_TEST_SLOW_RULE"
SLOW_MARK = "wave-lsp-test-slow"


def _under_test(name: str) -> str | None:
    return os.environ.get(name) if os.environ.get("PYTEST_CURRENT_TEST") else None


def _compute_for(seconds: float) -> None:
    """Spend `seconds` of this thread's CPU time (the slow-rule test seam: a sleep would not
    count against a budget of CPU time)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def check_budget() -> float:
    try:
        return max(0.0, float(_under_test(BUDGET_ENV) or CHECK_BUDGET))
    except ValueError:
        return CHECK_BUDGET


def _slow_rule(text: str) -> tuple[str, float] | None:
    """The test seam's slow rule for this text: the variable is read first, so outside a test
    that sets it the text is never searched for `SLOW_MARK`."""
    name, _, seconds = (_under_test(SLOW_RULE_ENV) or "").partition(":")
    if not name or SLOW_MARK not in text:
        return None
    try:
        return name, float(seconds)
    except ValueError:
        return None


def cut_short_message(budget: float, rule: str, seconds: float) -> str:
    return (f"wave-lsp stopped checking this version of the document after {budget:g} s: the "
            f"rule {rule} took {seconds:.1f} s. The rules after it did not run, so findings may "
            "be missing; the next edit checks again, and `wave-lsp check` has no time limit.")


class AnalysisRun:
    """One analysis of one document text, in progress (docs/design/lsp.md *Edits coalesce*).

    The edit task advances it a few steps at a time and lets the event loop read messages in
    between; a request that needs the same analysis finishes it at once (the work done so far is
    kept, nothing is computed twice); a newer text of the document abandons it. Single-threaded:
    only the thread that created a run (the event loop's) may advance it; another thread gets a
    `RuntimeError` at once rather than a race with the event loop (a command that works in a
    worker thread asks for the analysis before it leaves the loop)."""

    def __init__(self, key: tuple[Any, ...], steps: Steps[Analysis] | None,
                 budget: float | None = None, slow: tuple[str, float] | None = None) -> None:
        self.key = key
        self._steps = steps
        self.result: Analysis | None = None
        self._owner = threading.get_ident()
        #: seconds of computation allowed (None: unlimited), spent so far, and per rule
        self.budget = budget
        self.spent = 0.0
        self._times: dict[str, float] = {}
        self._doing = "reading the document"
        self._stopping = False
        self._slow = slow  #: test seam (`SLOW_RULE_ENV`)

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
        if threading.get_ident() != self._owner:
            raise RuntimeError("an analysis run is advanced only by the thread that started it")
        # the thread's CPU time, not the wall clock: on a loaded machine (or a laptop on battery)
        # waiting for a core is not the check's computation, and must not cut a check short
        doing, begin = self._doing, time.thread_time()
        try:
            if self._slow is not None and self._slow[0] in ("*", doing.split(" ")[0]):
                _compute_for(self._slow[1])  # test seam: this rule is slow (`SLOW_RULE_ENV`)
            label = self._steps.send(True if self._stopping else None)
            self._doing = label or self._doing
        except StopIteration as end:
            self.result = end.value
            self._steps = None
            if self._stopping and self.result is not None:
                self.result.cut_short = self._cut_short_message()
        except BaseException:
            self._steps = None
            raise
        finally:
            elapsed = time.thread_time() - begin
            self.spent += elapsed
            self._times[doing] = self._times.get(doing, 0.0) + elapsed
        if self._steps is not None and self.budget is not None and self.spent > self.budget:
            self._stopping = True  # the next step ends the run with the findings so far
        return self._steps is None

    def _cut_short_message(self) -> str:
        rule, seconds = max(self._times.items(), key=lambda item: item[1])
        return cut_short_message(self.budget or 0.0, rule, seconds)

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
        #: SKILL.md path -> whether its real path lies in a workspace folder
        self._inside_workspace: dict[Path, bool] = {}

    def set_client_settings(self, raw: Any) -> list[str]:
        self.client = read_client_settings(raw)
        self.invalidate()
        return self.client.problems

    def invalidate(self) -> None:
        self.generation += 1
        self._analyses.clear()
        self._project_settings.clear()
        self._inside_workspace.clear()
        self.session.expire()
        self.disk.invalidate()

    def settings_for(self, path: Path | None) -> Settings:
        """The settings of one file: `[tool.wave-lsp]`, then the editor's `wave` section; with no
        target in either, the target chosen from where the file lives (docs/design/rules.md
        *The default target*)."""
        base = Settings(home=self.home, auto_target=True)
        if path is not None:
            section, problem = self._settings_of(path.parent)
            if problem:
                log.warning("ignoring [tool.wave-lsp]: %s", problem)
            base = settings_from_mapping(section, base)
        settings = settings_from_mapping(self.client.raw, base)
        if path is not None and settings.auto_target:
            from wave_lsp.core.workspace.location import locate

            return settings.for_file(locate(path, home=self.home))
        return settings

    def _settings_of(self, directory: Path) -> tuple[dict[str, Any], str | None]:
        # one lookup and the value kept locally: the worker thread of the unopened-file findings
        # calls this while the event loop may `invalidate` (clear) the cache
        known = self._project_settings.get(directory)
        if known is not None:
            return known
        if len(self._project_settings) > MAX_SETTINGS_FOLDERS:
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
                                                                      encoding, key),
                                            check_budget(), _slow_rule(text))
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

    def file_events(self, changes: list[tuple[Path, FileChange]],
                    open_uris: list[str]) -> tuple[list[str], bool]:
        """Follow files changed on disk (docs/design/product.md *Incremental re-indexing*): the
        index and the project snapshots re-read only the changed skills; answers the open
        documents to check again and whether the findings of unopened files may have changed.
        A settings, plugin, `.gitignore` or `pyproject.toml` change, or one that the snapshots
        cannot follow, checks everything again."""
        paths = [path for path, _change in changes]
        for path in paths:  # a link may have been made or moved
            self._inside_workspace.pop(path, None)
            self._inside_workspace.pop(path / SKILL_FILE, None)
        if any(path.name.lower() in GLOBAL_NAMES for path in paths):
            self.session.forget_summaries(paths)
            self._follow_in_index(changes)
            self.invalidate()
            return list(open_uris), True
        change = self.session.apply_changes(changes)
        self._follow_in_index(changes)
        if change.full:
            self.invalidate()
            return list(open_uris), True
        affected = [uri for uri in open_uris if self._depends(uri, paths, change)]
        for uri in affected:
            self.forget(uri)
        if change.empty:
            self.disk.forget_around(paths)
        else:  # a name or a listing changed: every skill of the group may read differently
            self.disk.invalidate()
        return affected, not change.empty or self.concerns_skills(paths)

    def _follow_in_index(self, changes: list[tuple[Path, FileChange]]) -> None:
        for path, change in changes:
            self.index.follow(path, deleted=change is FileChange.DELETED)

    def _depends(self, uri: str, changed: list[Path], change: WorkspaceChange) -> bool:
        """Whether the open document `uri` may read differently after `change`: a changed file
        in or above its folder (references, resources), a changed skill of its name, a changed
        listing of its load group."""
        path = _path_of(uri)
        if path is None or not is_skill_file(path):
            return False
        folder = path.parent
        if any(p == folder or folder in p.parents or p in folder.parents for p in changed):
            return True
        if change.empty:
            return False
        if change.everywhere:
            return True
        real = os.path.realpath(folder)
        loaded = [skill for snapshot in self.session.projects()
                  if (skill := snapshot.by_real_dir.get(real)) is not None]
        if not loaded:  # its snapshot is not remembered: nothing says it is independent
            return True
        names = {skill.name for skill in loaded}
        entry = self.index.entry(path)  # the name of its editor text
        if entry is not None:
            names.add(entry.name)
        return bool(names & change.names) or any(skill.group in change.groups
                                                  for skill in loaded)

    def workspace_skill_files(self) -> list[Path]:
        """The indexed SKILL.md files inside the workspace folders (not the personal roots), by
        real path; each path is resolved once (until a file event or `invalidate`)."""
        folders = self.index.folders
        inside = self._inside_workspace
        found = []
        for entry in self.index.skills():
            known = inside.get(entry.path)
            if known is None:
                real = entry.path.resolve()
                known = inside[entry.path] = any(real.is_relative_to(f) for f in folders)
            if known:
                found.append(entry.path)
        return found

    def unopened_findings(self, open_uris: list[str]) -> list[FileFindings]:
        """The findings about files of the workspace's skills that are not open, per file."""
        open_paths = [path for path in (_path_of(uri) for uri in open_uris) if path is not None]
        return self.disk.unopened(self.workspace_skill_files(), open_paths, self.settings_for)

    def concerns_skills(self, changed: list[Path]) -> bool:
        """Whether these changed files may change any skill's findings, open or not: a SKILL.md,
        settings, plugin, `.gitignore` or `pyproject.toml`, or a file inside an indexed skill's
        folder (looked up by the folders above it, not by going through the index)."""
        if any(path.name.lower() in GLOBAL_NAMES or path.name.lower() == "skill.md"
               for path in changed):
            return True
        return any(self.index.entry(folder / SKILL_FILE) is not None
                   for path in changed for folder in (path, *path.parents))

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
