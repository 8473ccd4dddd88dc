"""A runtime's new release against the pinned one, through the differential harness
(tests/oracle/README.md, docs/design/runtime-facts.md §3.10).

Any runtime: `python benchmarks/oracle.py --runtime NAME --version V [--source FILE] [CASE…]`
installs V beside the pinned version (an adapter whose class takes `version=`; Wave takes the new
source tarball as `--source`, its version being the commit), runs the shared cases
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
"""

from __future__ import annotations

import argparse
import shutil
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


def _observed(adapter: RuntimeAdapter, case: Case, folder: Path) -> tuple[dict[str, str], Any]:
    """What `adapter` does with `case` (its scratch folder written `<scratch>`), and wave-lsp's
    prediction for the same tree."""
    project, home = case.build(folder / adapter.name / adapter.version / case.name, adapter)
    invocations = case.invocations(adapter)
    predicted = predict(adapter.target, project, home, invocations)
    seen = adapter.observe(project, home, project, invocations)
    found = {f"listing {name}": line for name, line in (seen.listing or {}).items()}
    found.update({aspect: describe(outcome) for aspect, outcome in seen.outcomes.items()})
    found.update({f"note {number}": note for number, note in enumerate(seen.notes)})
    return {key: value.replace(str(project), "<project>") for key, value in found.items()}, \
        (seen, predicted)


def compare_runtime(name: str, version: str, source: str | None, names: list[str]) -> int:
    """The shared cases on the pinned adapter and on `version` of the same runtime."""
    pinned = adapters([name]).get(name)
    if pinned is None:
        print(f"no adapter for {name!r}", file=sys.stderr)
        return 1
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
            before, _ = _observed(pinned, case, folder)
            after, (seen, predicted) = _observed(newer, case, folder)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runtime", help="the runtime (default: Claude Code on its probes)")
    parser.add_argument("--version", help="the release to compare (default: the newest)")
    parser.add_argument("--source", help="Wave: the new release's source tarball")
    parser.add_argument("probes", nargs="*", help="probe (or case) names (default: all)")
    args = parser.parse_args()
    if (args.runtime and args.runtime != "claude-code") or args.source:
        if not args.version:
            parser.error("--runtime needs --version (the release to compare)")
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
