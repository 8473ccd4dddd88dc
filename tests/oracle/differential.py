"""The generic differential driver (tests/oracle/README.md *Runtimes*): the shared cases of
`tests/oracle/cases/`, each runtime adapter of `tests/oracle/runtimes/`, and wave-lsp's
prediction for the adapter's `--target`, compared one aspect at a time.

A case is a folder: `case.toml` (`about`; `[[invoke]]` entries with `skill`, `args`, `modes`
(default `["slash"]`); optional `runtimes = [...]` to restrict it; optional `git = false` (the
project is not a git repository) and `cwd = "a/b"` (the working folder the runtime and wave-lsp
run in, relative to the project; default its root)), `skills/` (copied into the project at the
adapter's `layout.project_skills`) and optional `personal/` (copied into the HOME at
`layout.personal_skills`). The adapter gets the flat list of invocations, one per mode the
runtime supports, and keys its outcomes by `<mode>#<index in that list>`.

Aspects: `listed` (which names the model is told about), `listing-text` (each entry exactly,
where `list` gives the line), `slash#N`/`tool#N` (the kind, then the text where both sides give
one) and `decision#N` (each injected command's permission decision, for adapters that observe it:
`decides_injections = True`). Paths under a run's HOME are written `~` on both sides.

The few rules beyond that, each for a runtime behaviour wave-lsp models differently in form only:
- a name listed twice (both skills load: Codex's `collision = "both"`) is keyed `name#2` on both
  sides, and invoking it is "not-found" (a plain mention selects neither);
- `KIND_ONLY`: the modes whose outcome is compared by kind only, by runtime;
- `HIDES_FORBIDDEN`: the runtimes that answer an invocation the skill's frontmatter forbids
  (`disable-model-invocation`, `user-invocable`) as "not-found" where wave-lsp predicts a refusal.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import shutil
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import tests.oracle.runtimes as RUNTIMES
from tests.oracle.predict import STRICTER as PREDICT_STRICTER
from tests.oracle.predict import preview, sandboxed, wave_json
from tests.oracle.runtimes.base import Invocation, Observation, Outcome, RuntimeAdapter
from tests.oracle.runtimes.common import homeless

CASES = Path(__file__).parent / "cases"
#: the adapters, by runtime name: module paths (one may be absent until its branch is merged)
ADAPTER_MODULES: dict[str, str] = {
    "claude-code": "tests.oracle.runtimes.claude_code",
    "wave": "tests.oracle.runtimes.wave",
    "codex": "tests.oracle.runtimes.codex",
    "gemini-cli": "tests.oracle.runtimes.gemini_cli",
    "opencode": "tests.oracle.runtimes.opencode",
    "copilot-cli": "tests.oracle.runtimes.copilot_cli",
}
#: an injected command as the runtimes find it inline: `!` and a code span
_INJECTION = re.compile(r"!`([^`\n]+)`")
#: the modes whose outcome is compared by kind only, by runtime: OpenCode 1.18.33's `skill` tool
#: answers `<skill_content name="…">` with the skill's file list around the body, which wave-lsp
#: does not render (`preview` renders `/name`)
KIND_ONLY: dict[str, frozenset[str]] = {"opencode": frozenset({"tool"})}
#: the runtimes that hide a skill from the mode its frontmatter forbids (Copilot CLI 1.0.102: no
#: such command, no such skill for the tool) where wave-lsp predicts a refusal
HIDES_FORBIDDEN: frozenset[str] = frozenset({"copilot-cli"})


# -- the adapters -------------------------------------------------------------------------------

def _adapter_in(module: ModuleType) -> RuntimeAdapter | None:
    """The adapter a module offers: `ADAPTER`, else `adapter()`, else the one class with `observe`
    and `install` that takes no arguments."""
    found = getattr(module, "ADAPTER", None)
    if found is None and callable(getattr(module, "adapter", None)):
        found = module.adapter()
    if found is None:
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__ \
                    and callable(getattr(value, "observe", None)) \
                    and callable(getattr(value, "install", None)):
                found = value()
                break
    return found  # type: ignore[no-any-return]


def adapters(names: list[str] | None = None) -> dict[str, RuntimeAdapter]:
    """The adapters whose modules are present (all, or `names`), by runtime name: the modules of
    `ADAPTER_MODULES`, and any other module of `tests/oracle/runtimes` that offers one."""
    paths = list(ADAPTER_MODULES.values())
    paths += [f"{RUNTIMES.__name__}.{info.name}" for info in pkgutil.iter_modules(RUNTIMES.__path__)
              if info.name != "base" and f"{RUNTIMES.__name__}.{info.name}" not in paths]
    found: dict[str, RuntimeAdapter] = {}
    for path in paths:
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError as error:
            if error.name != path:
                raise
            continue
        adapter = _adapter_in(module)
        if adapter is not None and (not names or adapter.name in names):
            found.setdefault(adapter.name, adapter)
    return {name: found[name] for name in sorted(found, key=_order)}


def _order(name: str) -> tuple[int, str]:
    known = list(ADAPTER_MODULES)
    return (known.index(name) if name in known else len(known), name)


# -- the cases ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Invoke:
    skill: str
    args: str | None
    modes: tuple[str, ...]


@dataclass
class Case:
    name: str
    about: str
    invokes: list[Invoke]
    folder: Path
    runtimes: tuple[str, ...] | None = None
    git: bool = True
    cwd: str = ""

    def applies_to(self, runtime: str) -> bool:
        return self.runtimes is None or runtime in self.runtimes

    def invocations(self, adapter: RuntimeAdapter) -> list[Invocation]:
        """The flat list the adapter gets: each invocation once per mode it supports."""
        return [Invocation(invoke.skill, invoke.args, mode) for invoke in self.invokes
                for mode in invoke.modes if mode in adapter.modes]

    def aspects(self, adapter: RuntimeAdapter) -> list[str]:
        found = ["listed", "listing-text"]
        for number, invocation in enumerate(self.invocations(adapter)):
            found.append(f"{invocation.mode}#{number}")
            if invocation.mode == "slash" and getattr(adapter, "decides_injections", False) \
                    and self.injections(invocation.skill):
                found.append(f"decision#{number}")
        return found

    def injections(self, skill: str) -> list[str]:
        """The commands the case's skill of that name injects (read from the case's files)."""
        for path in sorted((self.folder / "skills").rglob("SKILL.md")):
            text = path.read_text(encoding="utf-8")
            if path.parent.name == skill or re.search(rf"^name:\s*{re.escape(skill)}\s*$",
                                                      text, re.M):
                return [match.group(1) for match in _INJECTION.finditer(text)]
        return []

    def build(self, into: Path, adapter: RuntimeAdapter) -> tuple[Path, Path, Path]:
        """The project (a git repository, unless `git = false`, with the skills at the adapter's
        place), the HOME template and the working folder, under `into`."""
        project, home = into / "project", into / "home"
        home.mkdir(parents=True)
        shutil.copytree(self.folder / "skills", project / adapter.layout.project_skills,
                        symlinks=True)
        personal = self.folder / "personal"
        if personal.is_dir():
            if adapter.layout.personal_skills is None:
                raise ValueError(f"{self.name} has personal skills; {adapter.name} has no place "
                                 f"for them")
            shutil.copytree(personal, home / adapter.layout.personal_skills)
        if self.git:
            subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True)
        cwd = project / self.cwd
        cwd.mkdir(parents=True, exist_ok=True)
        return project, home, cwd


def load_case(folder: Path) -> Case:
    manifest = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
    invokes = [Invoke(str(item["skill"]), item.get("args"),
                      tuple(item.get("modes", ["slash"])))
               for item in manifest.get("invoke", [])]
    runtimes = manifest.get("runtimes")
    return Case(folder.name, str(manifest["about"]), invokes, folder,
                tuple(runtimes) if runtimes is not None else None,
                bool(manifest.get("git", True)), str(manifest.get("cwd", "")))


def cases() -> list[Case]:
    return [load_case(folder) for folder in sorted(CASES.iterdir())
            if (folder / "case.toml").is_file()]


# -- wave-lsp's side ----------------------------------------------------------------------------

@dataclass
class Prediction:
    rows: list[dict[str, Any]]
    outcomes: dict[str, Outcome]
    #: the aspects whose refusal is the frontmatter's (`disable-model-invocation` for the tool,
    #: `user-invocable` for `/name`): `HIDES_FORBIDDEN`
    forbidden: set[str] = field(default_factory=set)


def listed(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The rows wave-lsp puts in the model's listing, by name; a second row of a name that both
    load (Codex) as `name#2` (a third `name#3`, …)."""
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["loads"] and row["listingLine"] and not row.get("shadowedBy"):
            key, number = row["name"], 1
            while key in found:
                number += 1
                key = f"{row['name']}#{number}"
            found[key] = row
    return found


def reached(rows: list[dict[str, Any]], command: str) -> list[dict[str, Any]]:
    """The rows `/command` (or `$command`) may reach, none shadowed: those named `command` (more
    than one when both load: Codex), else the first with that alias (Claude Code's label);
    loaded ones first (one that does not load is reached only when none loads)."""
    unshadowed = [row for row in rows if not row.get("shadowedBy")]
    found = [row for row in unshadowed if row["name"] == command] \
        or [row for row in unshadowed if command in (row.get("aliases") or [])][:1]
    loaded = [row for row in found if row.get("loads", True)]
    return loaded or found[:1]


def predict(target: str, project: Path, home: Path,
            invocations: list[Invocation], cwd: Path | None = None) -> Prediction:
    """`wave-lsp list` and `preview` for the tree, in the working folder (default: the project)
    with HOME set."""
    cwd = cwd or project
    rows: list[dict[str, Any]] = wave_json(
        ["list", "--format", "json", "--target", target, str(cwd)], cwd, home)["skills"]
    for row in rows:
        if isinstance(row.get("listingLine"), str):
            row["listingLine"] = homeless(row["listingLine"], home)
    found = Prediction(rows, {})
    for number, invocation in enumerate(invocations):
        key = f"{invocation.mode}#{number}"
        outcome = _outcome(target, rows, invocation, cwd, home)
        found.outcomes[key] = Outcome(outcome.kind, homeless(outcome.text, home), outcome.exact)
        candidates = reached(rows, invocation.skill)
        row = candidates[0] if len(candidates) == 1 else None
        allowed = "modelInvocable" if invocation.mode == "tool" else "userInvocable"
        if row is not None and outcome.kind == "refused" and not row[allowed]:
            found.forbidden.add(key)
        if invocation.mode == "slash" and row is not None:
            dry = preview(_path(row, cwd), invocation.args, cwd, home, execute=False, target=target)
            lines = [f"{'allow' if item.get('decision') == 'allow' else 'refuse'} "
                     f"{item.get('command')}" for item in dry.get("injections") or []]
            found.outcomes[f"decision#{number}"] = Outcome("decided", "\n".join(lines))
    return found


def _path(row: dict[str, Any], project: Path) -> Path:
    path = Path(row["path"])
    return path if path.is_absolute() else project / path


#: how `preview --execute` says it did not run what the runtime runs (its execution guard, or a
#: prediction that cannot tell; docs/design/product.md *Two decisions*): the prediction is then
#: the dry run's, compared by kind
STRICTER = PREDICT_STRICTER


def _outcome(target: str, rows: list[dict[str, Any]], invocation: Invocation, project: Path,
             home: Path) -> Outcome:
    candidates = reached(rows, invocation.skill)
    if len(candidates) > 1:  # two skills of that name both load: a mention selects neither
        return Outcome("not-found", f"{invocation.skill}: {len(candidates)} skills", exact=False)
    row = candidates[0] if candidates else None
    if row is None or row.get("activatesOn"):
        return Outcome("not-found", invocation.skill, exact=False)
    if not row.get("loads", True):
        # the runtime does not have it: a headless run cannot show why (the kind is compared)
        return Outcome("not-found", f"{invocation.skill}: {row.get('stoppedBy')}", exact=False)
    if invocation.mode == "tool" and not row["modelInvocable"]:
        return Outcome("refused", "", exact=False)
    path = _path(row, project)
    if not row["userInvocable"]:
        # `preview` renders `/name`: a runtime with a refusal for it gives that refusal (and the
        # model may still invoke it); one without has no such command (`unavailable`:
        # no-command), and the preview renders nothing for either
        refusal = preview(path, invocation.args, project, home, execute=False, target=target)
        if invocation.mode == "slash":
            return Outcome("not-found", invocation.skill, exact=False) \
                if refusal.get("ok") or refusal.get("unavailable") == "no-command" \
                else Outcome("refused", refusal.get("error") or "")
        if not refusal.get("ok"):
            return Outcome("rendered", "", exact=False)
    result = preview(path, invocation.args, project, home, execute=True, target=target)
    if (not result.get("ok") and any(mark in (result.get("error") or "") for mark in STRICTER)) \
            or sandboxed(result):
        result = preview(path, invocation.args, project, home, execute=False, target=target)
        if result.get("ok"):
            return Outcome("rendered", result.get("text") or "", exact=False)
    if result.get("ok"):
        return Outcome("rendered", result.get("text") or "")
    return Outcome("refused", result.get("error") or "")


# -- comparing ----------------------------------------------------------------------------------

def describe(outcome: Outcome) -> str:
    return f"{outcome.kind}: {outcome.text!r}" + ("" if outcome.exact else " (decision only)")


def disagreement(runtime: str, case: str, aspect: str, seen: Observation,
                 predicted: Prediction) -> str | None:
    """How the runtime and wave-lsp differ on one aspect (None: they agree)."""
    prefix = f"{runtime}/{case} [{aspect}]"
    notes = "; ".join(seen.notes)
    expected = listed(predicted.rows)
    if aspect in ("listed", "listing-text"):
        if seen.listing is None:
            return f"{prefix}: no listing observed" + (f" ({notes})" if notes else "")
        if aspect == "listed":
            theirs, ours = sorted(seen.listing), sorted(expected)
            return None if theirs == ours else \
                f"{prefix}: {runtime} lists {theirs}, wave-lsp `list` says {ours}"
        problems = []
        for name in sorted(set(seen.listing) & set(expected)):
            line, row = seen.listing[name], expected[name]
            if isinstance(row.get("listingLine"), str):
                if row["listingLine"] != line:
                    problems.append(f"{name}: {runtime} {line!r}, wave-lsp {row['listingLine']!r}")
            elif row.get("listingChars") != len(line):
                problems.append(f"{name}: {runtime} {line!r} ({len(line)} characters), "
                                f"wave-lsp listingChars {row.get('listingChars')}")
        return f"{prefix}: " + "; ".join(problems) if problems else None
    theirs = seen.outcomes.get(aspect)
    ours = predicted.outcomes.get(aspect)
    if theirs is None or theirs.kind == "missing":
        return f"{prefix}: {runtime} gave no outcome" + (f" ({notes})" if notes else "")
    if ours is None:
        return f"{prefix}: wave-lsp gave no outcome"
    if runtime in HIDES_FORBIDDEN and aspect in predicted.forbidden and theirs.kind == "not-found":
        return None
    if aspect.split("#")[0] in KIND_ONLY.get(runtime, ()):
        ours = Outcome(ours.kind, ours.text, exact=False)
    if theirs.kind != ours.kind or (theirs.exact and ours.exact and theirs.text != ours.text):
        return f"{prefix}: {runtime} {describe(theirs)}, wave-lsp {describe(ours)}"
    return None


def gate_reason(adapter: RuntimeAdapter) -> str | None:
    """Why the runtime cannot run here (None: it is installed)."""
    try:
        if adapter.executable() is not None:
            return None
    except Exception as error:  # an adapter's check must not break collection
        return f"{adapter.name}: {error}"
    return (f"{adapter.name} {adapter.version} is not installed; run `python -m "
            f"tests.oracle.install {adapter.name}`")


def parallel() -> int:
    """How many observations run at once: two per core over all of the session's xdist workers
    (a run waits for its UI or its mock about half of its time, so two per core keep the cores
    busy; `-n auto` on two cores: two per worker), `WAVE_LSP_ORACLE_PARALLEL` overrides."""
    explicit = os.environ.get("WAVE_LSP_ORACLE_PARALLEL")
    if explicit:
        return int(explicit)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    return max(1, 2 * (os.cpu_count() or 1) // max(1, workers))
