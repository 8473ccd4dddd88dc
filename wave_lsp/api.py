"""What the command line and the MCP server share (docs/design/product.md *Command line*): the
settings of a run, checking a list of files, and rendering an invocation.

Both front ends call these functions, so `wave-lsp check --format json` and the MCP `check` tool
report the same findings, and `wave-lsp preview` and the MCP `preview` tool render the same prompt.
Errors a caller must correct (an unreadable `[tool.wave-lsp]`, a bad code list) are raised as
`SettingsError`; each front end words them its own way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wave_lsp.core.checking.checker import FileReport
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.invocation.preview import Invocation
    from wave_lsp.core.workspace.session import WorkspaceSession


def load_settings(start: Path, *, target: str | None = None,
                  personal: bool | None = None) -> Settings:
    """`[tool.wave-lsp]` of the nearest pyproject.toml at or above `start`, then `target` and
    `personal` (None keeps what the file says). Raises `SettingsError`."""
    from wave_lsp.core.checking.config import Settings, load_pyproject, settings_from_mapping

    section, _ = load_pyproject(start)
    # with no target in the file nor in the call, each file gets its own (`Settings.for_file`)
    return settings_from_mapping(section, Settings(auto_target=True)).merged(
        target=target, personal=personal)


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


def worker_count(jobs: int | None, file_count: int) -> int:
    """How many processes check `file_count` files: `jobs` of them (never more than there are
    files); `jobs=None` (the command line's default) is one, this process: on two cores, two
    workers checked the 675-skill corpus in ×0.89–0.92 of the wall time for ×1.15–1.21 of the CPU
    time (benchmarks/RESULTS.md, issue 30), short of the ×0.6 that would make them the default."""
    if jobs is None:
        return 1
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    return max(1, min(jobs, file_count))


def check_files(files: list[Path], settings: Settings, jobs: int | None = 1) -> list[FileReport]:
    """Check `files` in this order (`iter_reports`), all reports at once."""
    return list(iter_reports(files, settings, jobs))


def iter_reports(files: list[Path], settings: Settings, jobs: int | None = 1
                 ) -> Iterator[FileReport]:
    """The report of each of `files`, in this order, each as soon as it is known, so that a
    caller can write it out and let it go (docs/design/product.md); with `jobs`
    other than 1 (see `worker_count`), from worker processes forked after the projects' skills
    have been read once (the workers inherit them, so the workspace rules of every worker see
    every skill).

    The reports are the same, in the same order, whatever `jobs` is. Where processes cannot be
    forked (Windows), the files are checked in this process."""
    from wave_lsp.core.checking.checker import check_file
    from wave_lsp.core.workspace.session import WorkspaceSession

    # one snapshot of the disk for the whole run. The snapshots summarise each SKILL.md from its
    # frontmatter alone (0.03 ms) and the check parses it (0.15 ms): keeping the parsed
    # documents for the checks would save 2 % of the time for 20 KiB a skill held all run long
    session = WorkspaceSession(freshness_seconds=None)
    workers = worker_count(jobs, len(files))
    if workers < 2 or not _can_fork():
        for path in files:
            yield check_file(path, settings, session=session)
        return
    yield from _check_in_workers(files, settings, session, workers)


def find_files(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """The skill files under `paths` and the files there that mention skills (`CLAUDE.md`,
    `AGENTS.md`, `.claude/agents/*.md`, `.claude/commands/*.md`: SK152), found in one walk (the
    same folders skipped and gitignored); a path named explicitly is one or the other."""
    from wave_lsp.core.workspace.discovery import (
        find_skill_files,
        is_diagnosed,
        is_mention_path,
        is_skill_file,
    )

    skills: list[Path] = []
    mentions: list[Path] = []
    for path in find_skill_files(paths, also=is_mention_path):
        mention = not path.is_dir() and not is_skill_file(path) and is_diagnosed(path)
        (mentions if mention else skills).append(path)
    return skills, mentions


def iter_mention_reports(files: list[Path], settings: Settings) -> Iterator[FileReport]:
    """The report of each of `files` (found by `find_files`) that is checked for SK152 with
    `settings` (`skill_references.check_mentions`: not under a target without a list of its
    built-in commands), in this order."""
    from wave_lsp.core.features.skill_references import check_mentions
    from wave_lsp.core.workspace.session import WorkspaceSession

    return check_mentions(files, settings, WorkspaceSession(freshness_seconds=None))


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _check_in_workers(files: list[Path], settings: Settings, session: WorkspaceSession,
                      workers: int) -> Iterator[FileReport]:
    import gc
    import multiprocessing

    from wave_lsp.core.workspace.location import locate

    home = settings.home or Path.home()
    for project in {locate(path, home=home, facts=session.pass_facts).project_root
                    for path in files}:
        session.project(settings.profile, project, home, settings.personal)
    context = multiprocessing.get_context("fork")
    # about eight chunks per worker, so that a slow chunk does not leave the other cores idle
    chunk = max(1, min(64, len(files) // (workers * 8)))
    # the workers' garbage collector would otherwise walk (and so copy) every inherited object
    gc.freeze()
    try:
        with context.Pool(workers, initializer=_Worker.start,
                          initargs=(settings, session)) as pool:
            yield from pool.imap(_Worker.check, files, chunksize=chunk)
    finally:
        gc.unfreeze()


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
    from wave_lsp.core.checking.availability import invoke_loaded
    from wave_lsp.core.parsing.document import SkillDocument
    from wave_lsp.core.parsing.reading import read_skill_file
    from wave_lsp.core.parsing.source import decode
    from wave_lsp.core.workspace.location import locate

    data, problem = read_skill_file(path)
    if data is None:
        return f"{path}: {problem}"
    document = SkillDocument.from_decoded(decode(data))
    location = locate(path, home=settings.home)
    return invoke_loaded(document, location, settings.for_file(location), raw_arguments,
                  "execute" if execute else "dry-run", session_id)
