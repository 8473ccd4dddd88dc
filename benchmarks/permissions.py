"""How fast the permission engine decides: every injected command of the corpus (the commands
`find_injections` finds in each SKILL.md body), checked with a realistic rule set (the user's deny
and ask rules plus broad allow rules), with the parse cache cleared before every round so each
command is parsed and walked afresh. Target (issue 15): at most 0.3 ms per command.

Run: `python benchmarks/permissions.py [--rounds 20] [--corpus PATH]`. Prints the number of
commands, the median and p95 per command over the rounds, and the slowest command.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from wave_lsp.core.parsing.injections import find_injections
from wave_lsp.core.runtime.permissions import PermissionEngine, make_rule, split_command

REPO = Path(__file__).resolve().parents[1]
RULES = ([make_rule(r, "deny", "user settings") for r in ("Bash(rm -rf:*)", "Bash(curl*)",
                                                          "Bash(git push:*)")]
         + [make_rule(r, "ask", "user settings") for r in ("Bash(sudo *)", "Bash(npm publish*)")]
         + [make_rule(r, "allow", "allowed-tools") for r in ("Bash(git *)", "Bash(ls *)",
                                                             "Bash(cat *)", "Bash(echo *)",
                                                             "Bash(npm run:*)", "Bash(find *)")])


def commands(corpus: Path) -> list[str]:
    found: list[str] = []
    for path in sorted(corpus.rglob("SKILL.md")):
        try:
            text = path.read_text("utf-8", errors="replace")
        except OSError:
            continue
        found += [i.command for i in find_injections(text).items if not i.empty]
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared/corpus/real")
    args = parser.parse_args()
    found = commands(args.corpus) + commands(REPO / "examples")
    engine = PermissionEngine(RULES)
    engine.check("warm up")  # loads the grammar once
    per_round: list[float] = []
    slowest = (0.0, "")
    for _ in range(args.rounds):
        split_command.cache_clear()
        start = time.perf_counter()
        for command in found:
            engine.check(command)
        per_round.append((time.perf_counter() - start) / max(len(found), 1) * 1000)
    split_command.cache_clear()
    for command in found:
        begin = time.perf_counter()
        engine.check(command)
        slowest = max(slowest, ((time.perf_counter() - begin) * 1000, command))
    print(f"{len(found)} injected commands, {args.rounds} rounds, cache cleared each round")
    print(f"per command: median {statistics.median(per_round):.3f} ms, "
          f"max round {max(per_round):.3f} ms (target <= 0.3 ms)")
    print(f"slowest single command: {slowest[0]:.3f} ms: {slowest[1][:80]!r}")


if __name__ == "__main__":
    main()
