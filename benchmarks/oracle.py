"""A runtime's new release against the pinned one, through the differential harness
(tests/oracle/README.md, docs/design/runtime-facts.md §3.10).

Any runtime: `python benchmarks/oracle.py --runtime NAME [--version V] [--source FILE] [CASE…]`
installs V (default: the newest release on the npm registry) beside the pinned version (every
adapter's class takes `version=`; Wave takes the new source tarball as `--source`, its version
being the commit), runs the shared cases
(tests/oracle/cases) on both and prints what changed (listing entries, outcomes, injection
decisions), then how wave-lsp's predictions fare against V.

Claude Code on its own probes: `python benchmarks/oracle.py [--version V] [PROBE…]`. Installs the
newest published `@anthropic-ai/claude-code` (or `--version V`) into the harness's cache beside
the pinned version (`tests/oracle/install.py`), runs every probe (or the ones named) against
both, and prints what changed between the two releases: listing lines, rendered skills and
refusals, probe by probe, then how wave-lsp's predictions fare against the newest (agreements,
and each disagreement). When the pinned version is the newest, it says so and only checks the
predictions. Needs npm and the npm registry; takes about twice the harness's time (README
*Differential harness*).

Where the harness's time goes: `WAVE_LSP_ORACLE_TIMES=t.tsv python -m pytest tests/oracle --slow`,
then `python benchmarks/oracle.py --times t.tsv`.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.oracle import differential
from tests.oracle.differential import Case, adapters, cases, describe, predict
from tests.oracle.install import CLAUDE_CODE_VERSION, install, latest_version
from tests.oracle.mock_api import MockApi
from tests.oracle.oracle import ClaudeSide, Oracle, disagreement
from tests.oracle.probes import Probe, real_probes, repository_probes
from tests.oracle.runtimes.base import RuntimeAdapter


def run_version(version: str, probes: list[Probe]) -> Oracle:
    binary = install(version)
    with MockApi() as api:
        oracle = Oracle(binary, api)
        oracle.run(probes)
    return oracle


def _seen(side: ClaudeSide, scratch: Path) -> dict[str, str]:
    """A probe's listing lines and outcomes, with the run's scratch folder written `<scratch>`
    (each release runs in its own)."""
    seen = {f"listing {name}": entry.line for name, entry in side.entries.items()}
    seen.update({aspect: outcome.describe() for aspect, outcome in side.outcomes.items()})
    return {key: value.replace(str(scratch), "<scratch>") for key, value in seen.items()}


def changes(old: Oracle, new: Oracle, probe: Probe) -> list[str]:
    """What Claude Code does differently with `probe` in the new release."""
    before = _seen(old.claude[probe.name], old.folder)
    after = _seen(new.claude[probe.name], new.folder)
    return [f"{key}: {before.get(key)} -> {after.get(key)}"
            for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key)]


def _observed(adapter: RuntimeAdapter, case: Case, folder: Path,
              side: str) -> tuple[dict[str, str], Any]:
    """What `adapter` does with `case` (its scratch folder written `<scratch>`), and wave-lsp's
    prediction for the same tree."""
    project, home, cwd = case.build(folder / adapter.name / side / case.name, adapter)
    invocations = case.invocations(adapter)
    predicted = predict(adapter.target, project, home, invocations, cwd)
    seen = adapter.observe(project, home, cwd, invocations)
    found = {f"listing {name}": line for name, line in (seen.listing or {}).items()}
    found.update({aspect: describe(outcome) for aspect, outcome in seen.outcomes.items()})
    found.update({f"note {number}": note for number, note in enumerate(seen.notes)})
    return {key: value.replace(str(project), "<project>") for key, value in found.items()}, \
        (seen, predicted)


def newest_release(adapter: RuntimeAdapter) -> str | None:
    """The newest published version of an npm runtime (`npm view <package> version`; None for
    Wave, which is on no registry, or without npm)."""
    package = getattr(adapter, "package", None)
    npm = shutil.which("npm")
    if not package or npm is None:
        return None
    done = subprocess.run([npm, "view", package, "version"], capture_output=True, text=True,
                          timeout=120)
    return done.stdout.strip() or None if done.returncode == 0 else None


def compare_runtime(name: str, version: str | None, source: str | None,
                    names: list[str]) -> int:
    """The shared cases on the pinned adapter and on `version` (default: the newest release
    on the npm registry) of the same runtime."""
    pinned = adapters([name]).get(name)
    if pinned is None:
        print(f"no adapter for {name!r}", file=sys.stderr)
        return 1
    asked = version
    version = version or newest_release(pinned)
    if version is None:
        print(f"{name}: give the release to compare (--version, and --source for Wave)",
              file=sys.stderr)
        return 1
    if version == pinned.version and asked is None:
        print(f"{name}: the pinned version {version} is the newest: nothing to compare between "
              "releases")
        return 0
    extra = {"version": version} | ({"source": Path(source)} if source else {})
    try:
        newer = type(pinned)(**extra)  # type: ignore[call-arg]
    except TypeError:
        print(f"the {name} adapter cannot be made for another version (its class takes no "
              f"`version=`)", file=sys.stderr)
        return 1
    newer.install()
    chosen = [case for case in cases() if case.applies_to(name)
              and (not names or case.name in names)]
    folder = Path(tempfile.mkdtemp(prefix="wave-lsp-oracle-release-")).resolve()
    started, changed, total, disagreements = time.monotonic(), 0, 0, 0
    print(f"{name}: pinned {pinned.version}, compared with {newer.version}; {len(chosen)} cases")
    try:
        for case in chosen:
            before, _ = _observed(pinned, case, folder, "pinned")
            after, (seen, predicted) = _observed(newer, case, folder, "new")
            lines = [f"{key}: {before.get(key)} -> {after.get(key)}"
                     for key in sorted(set(before) | set(after))
                     if before.get(key) != after.get(key)]
            changed += bool(lines)
            for line in lines:
                print(f"CHANGED {case.name} {line}")
            for aspect in case.aspects(newer):
                total += 1
                problem = differential.disagreement(name, case.name, aspect, seen, predicted)
                if problem:
                    disagreements += 1
                    print(f"DISAGREES {problem}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{changed} of {len(chosen)} cases behave differently in {newer.version}; wave-lsp "
          f"agrees with it on {total - disagreements} of {total} comparisons "
          f"({time.monotonic() - started:.0f} s)")
    return 0


def print_times(path: Path) -> int:
    """Per runtime: observations, invocations, seconds in all and per invocation, from the lines
    `test_differential` appends to `WAVE_LSP_ORACLE_TIMES` (runtime, case, invocations, s)."""
    totals: dict[str, list[float]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        runtime, _case, invocations, seconds = line.split("\t")
        total = totals.setdefault(runtime, [0, 0, 0.0])
        total[0] += 1
        total[1] += int(invocations)
        total[2] += float(seconds)
    print(f"{'runtime':<12} {'observations':>12} {'invocations':>11} {'seconds':>8} {'s/inv':>6}")
    for runtime, (count, invocations, seconds) in sorted(totals.items(),
                                                         key=lambda item: -item[1][2]):
        print(f"{runtime:<12} {count:>12.0f} {invocations:>11.0f} {seconds:>8.0f} "
              f"{seconds / max(1, invocations):>6.1f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runtime", help="the runtime (default: Claude Code on its probes)")
    parser.add_argument("--version", help="the release to compare (default: the newest)")
    parser.add_argument("--source", help="Wave: the new release's source tarball")
    parser.add_argument("--times", help="summarise a WAVE_LSP_ORACLE_TIMES file (where the "
                                        "harness's time goes) and stop")
    parser.add_argument("probes", nargs="*", help="probe (or case) names (default: all)")
    args = parser.parse_args()
    if args.times:
        return print_times(Path(args.times))
    if (args.runtime and args.runtime != "claude-code") or args.source:
        if args.runtime == "wave" and not (args.version and args.source):
            parser.error("--runtime wave needs --version (the commit) and --source (its tarball)")
        return compare_runtime(args.runtime or "claude-code", args.version, args.source,
                               args.probes)
    every = repository_probes() + real_probes()
    probes = [p for p in every if p.name in args.probes] if args.probes else every
    newest = args.version or latest_version()
    started = time.monotonic()
    print(f"pinned {CLAUDE_CODE_VERSION}, {'compared with' if args.version else 'newest'} "
          f"{newest}; {len(probes)} probes")
    new = run_version(newest, probes)
    if newest != CLAUDE_CODE_VERSION:
        old = run_version(CLAUDE_CODE_VERSION, probes)
        changed = 0
        for probe in probes:
            found = changes(old, new, probe)
            changed += bool(found)
            for line in found:
                print(f"CHANGED {probe.name} {line}")
        print(f"{changed} of {len(probes)} probes behave differently in {newest}")
        old.close()
    else:
        print("the pinned version is the newest: nothing to compare between releases")
    total = disagreements = 0
    for probe in probes:
        for aspect in probe.aspects():
            total += 1
            problem = disagreement(probe, aspect, new.claude[probe.name], new.wave[probe.name])
            if problem:
                disagreements += 1
                print(f"DISAGREES {problem}")
    new.close()
    print(f"wave-lsp agrees with {newest} on {total - disagreements} of {total} comparisons "
          f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
