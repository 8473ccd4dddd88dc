"""A minimal differential runner for the Gemini CLI and Copilot CLI adapters, until the shared
driver (the harness's differential module, another helper's) is merged: it reads the runtime-neutral
cases (`tests/oracle/cases/<case>/case.toml` + `skills/`), lays each out for one adapter (a git
project with the case's `skills/*` under `layout.project_skills`, an empty HOME), asks the runtime
(`adapter.observe`) and wave-lsp (`wave-lsp list` / `preview --target <target> --format json`, run
in the project with HOME set), and compares one aspect at a time: `listed`, `listing-text` (the
entries of the skills both list), and `<mode>#<N>` (the kind, then the text where both sides give it exactly).

`python -m tests.oracle.runtimes.local_runner gemini-cli [case-prefix…]` prints both sides.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.oracle.predict import wave_json
from tests.oracle.runtimes.base import Invocation, Observation, Outcome, RuntimeAdapter

CASES = Path(__file__).resolve().parents[1] / "cases"


@dataclass(frozen=True)
class Case:
    name: str
    about: str
    invocations: tuple[Invocation, ...]
    runtimes: tuple[str, ...] | None
    folder: Path


def load_case(folder: Path) -> Case:
    data = tomllib.loads((folder / "case.toml").read_text())
    invocations = tuple(Invocation(entry["skill"], entry.get("args"), mode)
                        for entry in data.get("invoke") or []
                        for mode in entry.get("modes") or ["slash"])
    runtimes = data.get("runtimes")
    return Case(folder.name, data["about"], invocations,
                tuple(runtimes) if runtimes is not None else None, folder)


def cases(prefixes: tuple[str, ...] = ("gm-", "cp-")) -> list[Case]:
    return [load_case(folder) for folder in sorted(CASES.iterdir())
            if folder.is_dir() and folder.name.startswith(prefixes)
            and (folder / "case.toml").is_file()]


@dataclass
class Comparison:
    """One aspect: what the runtime did and what wave-lsp predicts."""

    aspect: str
    observed: object
    predicted: object
    exact: bool = True

    @property
    def agrees(self) -> bool:
        return self.observed == self.predicted

    def describe(self) -> str:
        return (f"{self.aspect}: the runtime {self.observed!r}, wave-lsp {self.predicted!r}"
                + ("" if self.exact else " (kind only)"))


@dataclass
class CaseRun:
    case: Case
    observation: Observation
    comparisons: dict[str, Comparison] = field(default_factory=dict)


def lay_out(case: Case, adapter: RuntimeAdapter, scratch: Path) -> tuple[Path, Path]:
    """The case's project (a git repository) and HOME in `scratch`."""
    project, home = scratch / "project", scratch / "home"
    home.mkdir(parents=True)
    target = project / adapter.layout.project_skills
    target.parent.mkdir(parents=True)
    shutil.copytree(case.folder / "skills", target)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    return project, home


def run_case(case: Case, adapter: RuntimeAdapter) -> CaseRun:
    scratch = Path(tempfile.mkdtemp(prefix=f"wave-lsp-case-{case.name}-")).resolve()
    try:
        project, home = lay_out(case, adapter, scratch)
        observation = adapter.observe(project, home, project, list(case.invocations))
        result = CaseRun(case, observation)
        try:
            rows = wave_rows(adapter.target, project, home)
        except (SystemExit, ValueError) as error:  # an unknown target, output that is no JSON
            observation.notes.append(f"wave-lsp list --target {adapter.target} failed: {error!r}")
            return result
        _compare(result, adapter.target, rows, project, home)
        return result
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _tilde(value: str, home: Path) -> str:
    return value.replace(str(home), "~")


def wave_rows(target: str, project: Path, home: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = wave_json(
        ["list", "--format", "json", "--target", target, str(project)], project, home)["skills"]
    return rows


def wave_listed(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in rows
            if row["loads"] and row["listingLine"] and not row.get("shadowedBy")}


def wave_outcome(target: str, rows: list[dict[str, Any]], invocation: Invocation,
                 project: Path, home: Path) -> Outcome:
    """What wave-lsp predicts the invocation gives the model."""
    row = next((row for row in rows if invocation.skill in [row["name"], *(row.get("aliases")
                                                                          or [])]
                and row["loads"] and not row.get("shadowedBy")), None)
    if row is None:  # wave-lsp words no message for it: the kind is compared
        return Outcome("not-found", invocation.skill, exact=False)
    if invocation.mode == "tool" and not row["modelInvocable"]:
        return Outcome("refused", "", exact=False)
    if invocation.mode == "slash" and not row["userInvocable"]:
        return Outcome("refused", "", exact=False)
    path = Path(row["path"]) if Path(row["path"]).is_absolute() else project / row["path"]
    argv = ["preview", "--target", target, "--format", "json", str(path)]
    args = invocation.args if invocation.mode == "slash" else None
    if args:
        argv += ["--", args]
    result: dict[str, Any] = wave_json(argv, project, home)
    if result.get("ok"):
        return Outcome("rendered", _tilde(result.get("text") or "", home))
    return Outcome("refused", result.get("error") or "")


def _compare(result: CaseRun, target: str, rows: list[dict[str, Any]], project: Path,
             home: Path) -> None:
    observation = result.observation
    listed = {name: _tilde(row["listingLine"], home)
              for name, row in wave_listed(rows).items()}
    if observation.listing is not None:
        result.comparisons["listed"] = Comparison(
            "listed", sorted(observation.listing), sorted(listed))
        both = sorted(set(observation.listing) & set(listed))
        result.comparisons["listing-text"] = Comparison(
            "listing-text", {name: observation.listing[name] for name in both},
            {name: listed[name] for name in both})
    for index, invocation in enumerate(result.case.invocations):
        aspect = f"{invocation.mode}#{index}"
        seen = observation.outcomes.get(aspect)
        if seen is None or seen.kind in ("unsupported", "missing"):
            continue
        predicted = wave_outcome(target, rows, invocation, project, home)
        if not predicted.exact and predicted.kind == "refused" and seen.kind == "not-found":
            # wave-lsp says only that the invocation does not render; a runtime that hides the
            # skill from that mode (Copilot CLI) answers "not found"
            predicted = Outcome("not-found", "", exact=False)
        exact = seen.exact and predicted.exact and seen.kind == predicted.kind
        result.comparisons[aspect] = Comparison(
            aspect, (seen.kind, seen.text) if exact else seen.kind,
            (predicted.kind, predicted.text) if exact else predicted.kind, exact)


def adapter_named(name: str) -> RuntimeAdapter:
    if name == "gemini-cli":
        from tests.oracle.runtimes.gemini_cli import ADAPTER as GEMINI

        return GEMINI
    if name == "copilot-cli":
        from tests.oracle.runtimes.copilot_cli import ADAPTER as COPILOT

        return COPILOT
    raise SystemExit(f"no adapter {name!r} (gemini-cli, copilot-cli)")


def main(argv: list[str]) -> int:
    adapter = adapter_named(argv[0])
    prefixes = tuple(argv[1:]) or ("gm-", "cp-")
    for case in cases(prefixes):
        result = run_case(case, adapter)
        print(f"== {case.name}: {case.about}")
        for note in result.observation.notes:
            print(f"   note: {note}")
        for comparison in result.comparisons.values():
            mark = "ok  " if comparison.agrees else "DIFF"
            print(f"   {mark} {comparison.describe()}")
        for aspect, outcome in result.observation.outcomes.items():
            print(f"   seen {aspect}: {outcome.kind} {outcome.text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
