"""A minimal local driver for the Codex and OpenCode adapters, until the shared one
(`differential.py`, not merged yet) lands: it reads the runtime-neutral cases
(`tests/oracle/cases/<case>/case.toml` + `skills/`), builds each case's tree for an adapter's
layout, asks the adapter what the runtime did and wave-lsp what it predicts (`wave-lsp list
--format json --target T` and `wave-lsp preview --target T --format json`, in the working folder
with HOME set, as `tests/oracle/predict.py` does), and compares one aspect at a time: `listed`,
`listing-text`, `slash#N` / `tool#N`.

`case.toml` (the contract's keys, plus two this driver reads): `about`, `runtimes`, `[[invoke]]`
`skill`/`args`/`modes`, and `git = false` (the project is not a git repository), `cwd = "a/b"`
(the working folder, relative to the project; default its root). Paths under HOME are `~` on both
sides.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.oracle.predict import wave_json
from tests.oracle.runtimes.base import Invocation, Observation, Outcome, RuntimeAdapter

CASES = Path(__file__).resolve().parents[1] / "cases"
#: runtime processes at a time (the CI machine has two cores)
PARALLEL = 2


@dataclass
class Case:
    name: str
    about: str
    invokes: list[tuple[str, str | None, tuple[str, ...]]]  #: skill, args, modes
    runtimes: tuple[str, ...] | None = None
    git: bool = True
    cwd: str = ""
    source: Path | None = None

    def invocations(self, adapter: RuntimeAdapter) -> list[Invocation]:
        """One invocation per (invoke, mode) the adapter supports, in order."""
        return [Invocation(skill, args, mode) for skill, args, modes in self.invokes
                for mode in modes if mode in adapter.modes]

    def aspects(self, adapter: RuntimeAdapter) -> list[str]:
        return ["listed", "listing-text"] + [f"{i.mode}#{n}" for n, i in
                                             enumerate(self.invocations(adapter))]


def load_case(folder: Path) -> Case:
    manifest = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
    invokes = [(str(item["skill"]), item.get("args"), tuple(item.get("modes", ("slash",))))
               for item in manifest.get("invoke", [])]
    runtimes = manifest.get("runtimes")
    return Case(folder.name, str(manifest.get("about", "")), invokes,
                tuple(runtimes) if runtimes else None, bool(manifest.get("git", True)),
                str(manifest.get("cwd", "")), folder)


def cases_for(runtime: str, prefix: str = "") -> list[Case]:
    found = [load_case(folder) for folder in sorted(CASES.iterdir())
             if (folder / "case.toml").is_file() and folder.name.startswith(prefix)]
    return [case for case in found if case.runtimes is None or runtime in case.runtimes]


@dataclass
class Built:
    project: Path
    home: Path
    cwd: Path


def build(case: Case, adapter: RuntimeAdapter, into: Path) -> Built:
    """The case's tree for `adapter`: `skills/*` in the project's `layout.project_skills`,
    `home/` (if any) as the HOME template, a git repository unless `git = false`."""
    project, home = into / "project", into / "home"
    home.mkdir(parents=True)
    project.mkdir(parents=True)
    assert case.source is not None
    if (case.source / "skills").is_dir():
        shutil.copytree(case.source / "skills", project / adapter.layout.project_skills,
                        symlinks=True)
    if (case.source / "home").is_dir():
        shutil.copytree(case.source / "home", home, symlinks=True, dirs_exist_ok=True)
    if case.git:
        subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True)
    cwd = project / case.cwd
    cwd.mkdir(parents=True, exist_ok=True)
    return Built(project, home, cwd)


# -- wave-lsp's side ----------------------------------------------------------------------------------

@dataclass
class Prediction:
    rows: list[dict[str, Any]]
    listing: dict[str, str]
    outcomes: dict[str, Outcome] = field(default_factory=dict)


def _homeless(text: str, home: Path) -> str:
    return text.replace(str(home), "~")


def predict(adapter: RuntimeAdapter, built: Built, invocations: list[Invocation]) -> Prediction:
    rows: list[dict[str, Any]] = wave_json(
        ["list", "--format", "json", "--target", adapter.target, str(built.cwd)], built.cwd,
        built.home)["skills"]
    listing: dict[str, str] = {}
    for row in rows:
        if row["loads"] and row.get("listingLine") and not row.get("shadowedBy") \
                and row["modelInvocable"]:
            key = row["name"] if row["name"] not in listing else f"{row['name']}#2"
            listing[key] = _homeless(row["listingLine"], built.home)
    prediction = Prediction(rows, listing)
    for number, invocation in enumerate(invocations):
        prediction.outcomes[f"{invocation.mode}#{number}"] = _outcome(adapter, rows, invocation,
                                                                      built)
    return prediction


def _outcome(adapter: RuntimeAdapter, rows: list[dict[str, Any]], invocation: Invocation,
             built: Built) -> Outcome:
    found = [row for row in rows if row["loads"] and not row.get("shadowedBy")
             and invocation.skill in [row["name"], *(row.get("aliases") or [])]]
    if len(found) != 1:  # none, or two that a plain mention cannot choose between (Codex)
        return Outcome("not-found", "")
    row = found[0]
    if invocation.mode == "tool":
        # wave-lsp has no rendering of a runtime's skill tool: the decision is compared
        return Outcome("rendered" if row["modelInvocable"] else "refused", "", exact=False)
    if not row["userInvocable"]:
        return Outcome("refused", "", exact=False)
    argv = ["preview", "--target", adapter.target, "--format", "json", row["path"]]
    if invocation.args:
        argv += ["--", invocation.args]
    result = wave_json(argv, built.cwd, built.home)
    if result.get("ok"):
        return Outcome("rendered", _homeless(result.get("text") or "", built.home))
    return Outcome("refused", _homeless(result.get("error") or "", built.home))


# -- comparing --------------------------------------------------------------------------------------

@dataclass
class CaseRun:
    built: Built
    observation: Observation
    prediction: Prediction


def run_cases(adapter: RuntimeAdapter, cases: list[Case], folder: Path) -> dict[str, CaseRun]:
    """Both sides of every case, `PARALLEL` runtime processes at a time."""
    built = {case.name: build(case, adapter, folder / f"c{number:03d}")
             for number, case in enumerate(cases)}
    with ThreadPoolExecutor(PARALLEL) as pool:
        futures = {case.name: pool.submit(adapter.observe, built[case.name].project,
                                          built[case.name].home, built[case.name].cwd,
                                          case.invocations(adapter)) for case in cases}
        predictions = {case.name: predict(adapter, built[case.name], case.invocations(adapter))
                       for case in cases}
        return {name: CaseRun(built[name], future.result(), predictions[name])
                for name, future in futures.items()}


def describe(outcome: Outcome) -> str:
    return f"{outcome.kind}: {outcome.text!r}" + ("" if outcome.exact else " (kind only)")


def disagreement(runtime: str, aspect: str, run: CaseRun) -> str | None:
    """How the runtime and wave-lsp differ on one aspect (None: they agree)."""
    seen, predicted = run.observation, run.prediction
    if seen.listing is None and (aspect.startswith("listing") or aspect == "listed"):
        return f"[{aspect}] no listing observed: " + "; ".join(seen.notes)
    if aspect == "listed":
        theirs, ours = sorted(seen.listing or {}), sorted(predicted.listing)
        return None if theirs == ours else f"{runtime} lists {theirs}, wave-lsp {ours}"
    if aspect == "listing-text":
        problems = [f"{name}: {runtime} {seen.listing[name]!r}, wave-lsp {predicted.listing[name]!r}"
                    for name in sorted(set(seen.listing or {}) & set(predicted.listing))
                    if (seen.listing or {})[name] != predicted.listing[name]]
        return "; ".join(problems) or None
    theirs_outcome = seen.outcomes.get(aspect)
    if theirs_outcome is None:
        return f"[{aspect}] not observed: " + "; ".join(seen.notes)
    ours_outcome = predicted.outcomes[aspect]
    if theirs_outcome.kind != ours_outcome.kind:
        return f"{runtime} {describe(theirs_outcome)}, wave-lsp {describe(ours_outcome)}"
    if not (theirs_outcome.exact and ours_outcome.exact) or theirs_outcome.kind != "rendered":
        return None
    if theirs_outcome.text != ours_outcome.text:
        return f"{runtime} {describe(theirs_outcome)}, wave-lsp {describe(ours_outcome)}"
    return None


def main(argv: list[str]) -> int:
    """`python -m tests.oracle.runtimes._local codex|opencode [case-prefix]`: both sides of each
    case and every disagreement."""
    from tests.oracle.runtimes.codex import ADAPTER as CODEX
    from tests.oracle.runtimes.opencode import ADAPTER as OPENCODE

    adapter: RuntimeAdapter = {"codex": CODEX, "opencode": OPENCODE}[argv[0]]
    cases = cases_for(adapter.name, argv[1] if len(argv) > 1 else "")
    folder = Path(tempfile.mkdtemp(prefix="wave-lsp-local-")).resolve()
    try:
        runs = run_cases(adapter, cases, folder)
        for case in cases:
            run = runs[case.name]
            print(f"== {case.name}: listing {run.observation.listing}")
            for note in run.observation.notes:
                print(f"   note: {note}")
            for aspect in case.aspects(adapter):
                problem = disagreement(adapter.name, aspect, run)
                print(f"   {aspect}: {'ok' if problem is None else problem}")
                if aspect[0] in "st" and aspect in run.observation.outcomes:
                    print(f"      runtime: {describe(run.observation.outcomes[aspect])}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
