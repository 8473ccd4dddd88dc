"""`python -m tests.oracle.show PROBE…`: run probes on both sides and print what each said, and
every disagreement (tests/oracle/README.md); `--requests` also prints the user turns Claude Code
sent. For looking into a disagreement by hand."""

from __future__ import annotations

import json
import sys

from tests.oracle.install import find_claude
from tests.oracle.mock_api import MockApi
from tests.oracle.oracle import Oracle, disagreement
from tests.oracle.probes import real_probes, repository_probes


def main(argv: list[str]) -> int:
    show_requests = "--requests" in argv
    names = [name for name in argv if not name.startswith("--")]
    every = {probe.name: probe for probe in repository_probes() + real_probes()}
    chosen = [every[name] for name in names]
    with MockApi() as api:
        oracle = Oracle(find_claude(), api)
        try:
            oracle.run(chosen)
            for probe in chosen:
                claude, wave = oracle.claude[probe.name], oracle.wave[probe.name]
                print(f"== {probe.name}: {probe.about}")
                for name, entry in claude.entries.items():
                    print(f"  claude listing {name}: {entry.line!r}")
                for row in wave.rows:
                    print(f"  wave row {json.dumps(row, ensure_ascii=False)}")
                for aspect, outcome in claude.outcomes.items():
                    print(f"  claude {aspect}: {outcome.describe()}")
                    print(f"  wave   {aspect}: {wave.outcomes[aspect].describe()}")
                for note in claude.notes:
                    print(f"  note: {note}")
                for aspect in probe.aspects():
                    problem = disagreement(probe, aspect, claude, wave)
                    if problem:
                        print(f"  DISAGREE {problem}")
                if show_requests:
                    for observed in oracle.observed.get(probe.name, []):
                        print(f"  -- run {observed.prompt!r}: exit {observed.returncode}, "
                              f"stdout {observed.stdout[:500]!r}")
                        for request in observed.requests:
                            users = [m for m in request.get("messages", [])
                                     if m.get("role") == "user"]
                            print("     " + json.dumps(users[-1] if users else None,
                                                       ensure_ascii=False)[:3000])
        finally:
            oracle.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
