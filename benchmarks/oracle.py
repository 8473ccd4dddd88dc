"""Claude Code's newest release against the pinned one, through the differential harness
(tests/oracle/README.md, docs/design/runtime-facts.md §3.10).

Run: `python benchmarks/oracle.py [--version V] [PROBE…]`. Installs the newest published
`@anthropic-ai/claude-code` (or `--version V`) into the harness's cache beside the pinned version
(`tests/oracle/install.py`), runs every probe (or the ones named) against both, and prints what
changed between the two releases: listing lines, rendered skills and refusals, probe by probe, then
how wave-lsp's predictions fare against the newest (agreements, and each disagreement). When the
pinned version is the newest, it says so and only checks the predictions. Needs npm and the npm
registry; takes about twice the harness's time (README *Differential harness*).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.oracle.install import CLAUDE_CODE_VERSION, install, latest_version
from tests.oracle.mock_api import MockApi
from tests.oracle.oracle import ClaudeSide, Oracle, disagreement
from tests.oracle.probes import Probe, real_probes, repository_probes


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", help="the release to compare (default: the newest)")
    parser.add_argument("probes", nargs="*", help="probe names (default: all)")
    args = parser.parse_args()
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
