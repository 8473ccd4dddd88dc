"""How fast the permission decisions are: the prediction (`--decision prediction`, the default:
what SK123 and the preview use) or wave-lsp's execution guard (`--decision guard`), for every
injected command of the corpus (the commands `find_injections` finds in each SKILL.md body),
checked with a realistic rule set (the user's deny and ask rules plus broad allow rules), with the
parse cache cleared before every round so each command is parsed and walked afresh. Target
(issue 15): at most 0.3 ms per command.

Run: `python benchmarks/permissions.py [--rounds 20] [--corpus PATH]`. Prints the number of
commands, the median and p95 per command over the rounds, and the slowest command.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from wave_lsp.core.facts.profiles import PROFILES, TARGETS
from wave_lsp.core.parsing.injections import find_injections
from wave_lsp.core.permissions.guard import StrictEngine
from wave_lsp.core.permissions.prediction import Predictor, RuntimeInputs
from wave_lsp.core.permissions.rules import make_rule
from wave_lsp.core.permissions.shell import split_command

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


def _round(engine: StrictEngine | Predictor, found: list[str], cold: bool) -> tuple[float, float]:
    """(CPU ms, wall ms) per command for one pass over `found`."""
    if cold:
        split_command.cache_clear()
    cpu, wall = time.process_time(), time.perf_counter()
    for command in found:
        engine.check(command)
    count = max(len(found), 1)
    return ((time.process_time() - cpu) / count * 1000, (time.perf_counter() - wall) / count * 1000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared/corpus/real")
    parser.add_argument("--target", default="wave", choices=sorted(TARGETS),
                        help="the runtime profile: `claude-code` also runs the read-only "
                             "classifier for every command no rule allows (in this folder)")
    parser.add_argument("--decision", default="prediction", choices=("prediction", "guard"))
    args = parser.parse_args()
    found = commands(args.corpus) + commands(REPO / "examples")
    profile = PROFILES[args.target]
    engine: StrictEngine | Predictor = (
        Predictor(RULES, profile=profile, inputs=RuntimeInputs((Path.cwd(),)))
        if args.decision == "prediction" else StrictEngine(RULES, project=Path.cwd(),
                                                           profile=profile))
    engine.check("warm up")  # loads the grammar once
    print(f"{len(found)} injected commands, {args.decision}, target {args.target}, "
          f"{args.rounds} rounds; ms per "
          "command "
          "(CPU time; wall time in brackets); target <= 0.3 ms")
    for label, cold in (("cold (parse cache cleared every round)", True),
                        ("warm (parse cached, rules matched again)", False)):
        rounds = [_round(engine, found, cold) for _ in range(args.rounds)]
        cpu = [r[0] for r in rounds]
        wall = [r[1] for r in rounds]
        print(f"  {label:42} best {min(cpu):.3f} [{min(wall):.3f}]  median "
              f"{statistics.median(cpu):.3f} [{statistics.median(wall):.3f}]")
    split_command.cache_clear()
    slowest = (0.0, "")
    for command in found:
        begin = time.process_time()
        engine.check(command)
        slowest = max(slowest, ((time.process_time() - begin) * 1000, command))
    print(f"  slowest single command (cold): {slowest[0]:.3f} ms: {slowest[1][:70]!r}")


if __name__ == "__main__":
    main()
