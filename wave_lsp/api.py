"""What the command line and the MCP server share (docs/design/product.md *Command line*): the
settings of a run, checking a list of files, and rendering an invocation.

Both front ends call these functions, so `wave-lsp check --format json` and the MCP `check` tool
report the same findings, and `wave-lsp preview` and the MCP `preview` tool render the same prompt.
Errors a caller must correct (an unreadable `[tool.wave-lsp]`, a bad code list) are raised as
`SettingsError`; each front end words them its own way.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wave_lsp.core.checking.checker import FileReport
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.runtime.preview import Invocation
    from wave_lsp.core.workspace.session import WorkspaceSession


def load_settings(start: Path, *, target: str | None = None,
                  personal: bool | None = None) -> Settings:
    """`[tool.wave-lsp]` of the nearest pyproject.toml at or above `start`, then `target` and
    `personal` (None keeps what the file says). Raises `SettingsError`."""
    from wave_lsp.core.checking.config import load_pyproject, settings_from_mapping

    section, _ = load_pyproject(start)
    return settings_from_mapping(section).merged(target=target, personal=personal)


def with_codes(settings: Settings, *, select: Iterable[str] = (), ignore: Iterable[str] = (),
               severity: Iterable[str] = (), labels: tuple[str, str] = ("--select", "--ignore"),
               ) -> Settings:
    """`settings` with the rule selection of a run: `select` replaces the configured selection,
    `ignore` adds to the configured ignores, `severity` (`CODE=LEVEL`) overrides levels. `labels`
    name the two options in error messages. Raises `SettingsError`."""
    from wave_lsp.core.checking.config import parse_codes, parse_severity_overrides

    select, ignore, severity = list(select), list(ignore), list(severity)
    return settings.merged(
        select=parse_codes(select, labels[0]) or None,
        ignore=(settings.ignore + parse_codes(ignore, labels[1])) or None,
        severity=({**settings.severity, **parse_severity_overrides(severity)}
                  if severity else None),
    )


def check_files(files: list[Path], settings: Settings,
                parallel_from: int | None = None) -> list[FileReport]:
    """Check `files`; from `parallel_from` files on (None: never), with several cores, in worker
    processes forked after the projects' skills have been read once (the workers inherit them, so
    each SKILL.md is parsed once per process at most)."""
    import multiprocessing
    import os

    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.workspace.location import locate
    from wave_lsp.core.workspace.session import WorkspaceSession

    # one snapshot of the disk for the whole run: each SKILL.md is parsed once
    session = WorkspaceSession(keep_documents=True, freshness_seconds=None)
    workers = min(os.cpu_count() or 1, 8)
    if (parallel_from is None or len(files) < parallel_from or workers < 2
            or "fork" not in multiprocessing.get_all_start_methods()):
        return [check_file(path, settings, session=session) for path in files]
    home = settings.home or Path.home()
    for project in {locate(path, home=home).project_root for path in files}:
        session.project(settings.profile, project, home, settings.personal)
    context = multiprocessing.get_context("fork")
    chunk = max(16, len(files) // (workers * 8))
    with context.Pool(workers, initializer=_Worker.start, initargs=(settings, session)) as pool:
        return pool.map(_Worker.check, files, chunksize=chunk)


class _Worker:
    """The state of one forked `check` worker process. It is set once by the pool's initializer
    in the child (the parent never writes it), so the forked session's snapshots are shared
    copy-on-write instead of being pickled for every file."""

    settings: Settings | None = None
    session: WorkspaceSession | None = None

    @classmethod
    def start(cls, settings: Settings, session: WorkspaceSession) -> None:
        cls.settings, cls.session = settings, session

    @staticmethod
    def check(path: Path) -> FileReport:
        from wave_lsp.core.checking.checker import check_file

        report = check_file(path, _Worker.settings, session=_Worker.session)
        report.document = None  # not needed for the output; not worth sending back
        return report


def skill_file(path: Path) -> Path:
    """The SKILL.md a path names: the path itself, or `SKILL.md` in it when it is a folder."""
    from wave_lsp.core.workspace.location import SKILL_FILE

    return path / SKILL_FILE if path.is_dir() else path


def render_invocation(path: Path, raw_arguments: str, settings: Settings, *,
                      execute: bool = False, session_id: str | None = None,
                      ) -> Invocation | str:
    """The invocation of the skill at `path` (a SKILL.md) as the runtime renders it, or why the
    file cannot be read. Nothing runs unless `execute` is true, and then only what the permission
    engine allows."""
    from wave_lsp.core.checking.loading import invoke_loaded
    from wave_lsp.core.parsing.document import SkillDocument
    from wave_lsp.core.parsing.reading import read_skill_file
    from wave_lsp.core.parsing.source import decode
    from wave_lsp.core.workspace.location import locate

    data, problem = read_skill_file(path)
    if data is None:
        return f"{path}: {problem}"
    document = SkillDocument.from_decoded(decode(data))
    return invoke_loaded(document, locate(path, home=settings.home), settings, raw_arguments,
                  "execute" if execute else "dry-run", session_id)
