"""Every golden case under every target, each placed where that target's runtime finds it
(issue 36 item 2, *Parity tests*; docs/design/rules.md *A target speaks of what it loads*).

A target speaks only of the files its runtime finds (`wave_lsp.core.workspace.applies`), so a case
checked as it lies (`release-notes/SKILL.md`, a skill to be installed) would say nothing of where
each runtime reads it. `build` copies a case of `cases/` and moves its skill into the target's
own project skills root (`.wave/skills`, `.claude/skills`, `.codex/skills`, `.github/skills`,
`.cursor/skills`, `.opencode/skills`, `.gemini/skills`; Copilot CLI, which owns no root, reads
`.github/skills`):

- a top-level folder holding a SKILL.md (any case) moves into the root; the other files stay
  where they are (SK113's `../common` then lies outside the root as outside the skill, and
  SK150's `@docs/style.md` is still read from the project root);
- a skills root already in the case (`.claude/skills`, also below `vendor/…`) becomes the
  target's root, and a personal root under `home/` the target's first personal root, so a case
  about the workspace (a name collision, a listing budget) keeps its shape;
- the validator (`agentskills`) and the aggregate (`portable`) scan no root of their own: they
  check the case as it lies (a skill to be installed is read by every one of their runtimes).

A case whose rule judges the same situation the other way round under one target (SK081: Wave
misreads the open spec's space-separated `allowed-tools`, skills-ref flags a list) names that
target's file in `case.toml`, `[target-file] <target> = "<path>"`; the snapshot's `file` shows it.
A rule that cannot fire under a target at all is listed in `silent.toml`, with the reason
(`test_parity.test_silent_pairs_are_silent_for_their_reason`).

Every project is a git repository (the runtimes that scan up to the git root find it). The result
per target is the load verdict (`loads`, `stoppedBy`, `droppedBy`, as `check --format json` shows
them) and the findings in the format of `test_golden.py`. The targets come from the profiles, so a
new target is one more section in every snapshot (`pytest tests/golden --update-golden`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.golden.test_golden import (
    CASES,
    _build,
    _checked_file,
    _config,
    _finding,
    _no_managed_skills,
    _Shown,
    _sort_key,
)
from wave_lsp.core.checking.checker import FileReport, check_file, target_reach
from wave_lsp.core.checking.config import Settings, settings_from_mapping
from wave_lsp.core.facts.profiles import (
    ALL_PERSONAL_ROOTS,
    ALL_SKILLS_ROOTS,
    PROFILES,
    TARGETS,
    RuntimeProfile,
)

SNAPSHOTS = Path(__file__).with_name("targets")
SKILL_NAMES = ("skill.md",)  # compared in lower case


def project_root(profile: RuntimeProfile) -> str | None:
    """The project skills root a target's runtime finds its own skills in; None for a target that
    scans no root of its own (a validator, an aggregate): the case stays as it lies."""
    if profile.kind != "runtime":
        return None
    for root in (*profile.own_roots, *reversed(profile.skills_roots)):
        if profile.scans_root(root):
            return root
    raise AssertionError(f"{profile.name} scans no project skills root")


def personal_root(profile: RuntimeProfile) -> str | None:
    roots = profile.personal_skills_roots() if profile.kind == "runtime" else ()
    return roots[-1] if roots else None


def _move(source: Path, destination: Path) -> None:
    if source == destination or not source.exists():
        return
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(source), str(destination))


def _skills_roots_in(base: Path, roots: tuple[str, ...]) -> list[Path]:
    """The skills roots (folders) of the case below `base`."""
    found = [base / root for root in roots if (base / root).is_dir()]
    for folder in sorted(base.rglob("*"), key=lambda p: -len(p.parts)):
        if not folder.is_dir() or folder in found or ".git" in folder.parts:
            continue
        relative = folder.relative_to(base).as_posix()
        if any(relative.endswith("/" + root) for root in roots):
            found.append(folder)
    return found


def place(project: Path, home: Path, checked: str, profile: RuntimeProfile) -> str:
    """Move the case's skills to where `profile`'s runtime finds them; the checked file's new
    path (relative to the project)."""
    root = project_root(profile)
    if root is None:
        return checked
    moves: list[tuple[Path, Path]] = []
    for folder in _skills_roots_in(project, ALL_SKILLS_ROOTS):
        relative = folder.relative_to(project).as_posix()
        prefix = next(relative.removesuffix(r) for r in ALL_SKILLS_ROOTS if relative.endswith(r))
        moves.append((folder, project / (prefix + root)))
    for folder in sorted(project.iterdir()):
        holds_skill = folder.is_dir() and any(
            p.name.lower() in SKILL_NAMES for p in folder.iterdir())
        if not folder.name.startswith(".") and holds_skill:
            moves.append((folder, project / root / folder.name))
    shown = checked
    for source, destination in moves:
        relative = source.relative_to(project).as_posix()
        if shown == relative or shown.startswith(relative + "/"):
            shown = destination.relative_to(project).as_posix() + shown[len(relative):]
        _move(source, destination)
    own_personal = personal_root(profile)
    if own_personal is not None:
        for root in ALL_PERSONAL_ROOTS:
            if root != own_personal and (home / root).is_dir():
                _move(home / root, home / own_personal)
    return shown


@dataclass(frozen=True)
class Placed:
    """A case checked under one target, placed where its runtime finds it."""

    report: FileReport
    shown: _Shown
    #: the profile the file was checked with: the target, or an aggregate narrowed to its
    #: runtimes that find the file (`applies.reach`)
    profile: RuntimeProfile
    found: bool  #: the target finds the file where it lies


def check_placed(code: str, target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                 ) -> Placed:
    """Build case `code` in `tmp_path` placed for `target`, and check its file."""
    case = CASES / code
    config = _config(case)
    project, home = _build(case, config, tmp_path)
    (project / ".git").mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    _no_managed_skills(monkeypatch, tmp_path)
    checked = config.get("target-file", {}).get(target) or _checked_file(project, config, code)
    checked = place(project, home, checked, PROFILES[target])
    base = Settings().merged(target=target, home=home)
    settings = settings_from_mapping(config.get("settings", {}), base)
    report = check_file(project / checked, settings, strict=True)
    assert report.location is not None
    settings = settings.for_file(report.location)
    reach = target_reach(settings, report.location)
    return Placed(report, _Shown(project, home, checked), reach.profile, reach.found)


def record(report: FileReport, shown: _Shown) -> dict[str, Any]:
    """One target's section of a snapshot: where the file lay, the verdict, the findings."""
    verdict = report.verdict.to_json() if report.verdict is not None else {"loads": None}
    return {"file": shown.checked, **verdict,
            "findings": sorted((_finding(f, shown) for f in report.findings), key=_sort_key)}


def run_parity(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
               ) -> dict[str, tuple[FileReport, dict[str, Any]]]:
    """Case `code` under every target: the report and its snapshot section."""
    result = {}
    for target in TARGETS:
        folder = tmp_path / target
        folder.mkdir()
        placed = check_placed(code, target, folder, monkeypatch)
        result[target] = (placed.report, record(placed.report, placed.shown))
    return result
