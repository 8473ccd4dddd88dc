"""CLI throughput: `wave-lsp check` against skills-ref's Python API on the same generated skills,
at two sizes (default 1,000 and 5,000), each in its own process, in the same run.

Prints skills per second, milliseconds per skill (which must stay flat as the count grows) and
the ratio. skills-ref runs its 18 checks; wave-lsp runs every rule of the `wave` target, the
workspace rules (collisions, listing budget) and reference checks included.

Run: `python benchmarks/cli_throughput.py [--sizes 1000 5000] [--jobs N]` (installs skills-ref on
first use; `--jobs` is passed to `wave-lsp check`, whose default is one process per core).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import skills_ref
from skills_tree import make_tree

SKILLS_REF = """
import sys
from pathlib import Path
from skills_ref.validator import validate
problems = 0
for folder in sorted(Path(sys.argv[1]).glob(".wave/skills/*")):
    problems += len(validate(folder))
print(problems)
"""


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--jobs", type=int, default=None, help="`wave-lsp check --jobs N`")
    args = parser.parse_args()
    skills_ref()
    print(f"{'skills':>7}  {'wave-lsp s':>10} {'skills/s':>9} {'ms/skill':>9}   "
          f"{'skills-ref s':>12} {'skills/s':>9} {'ms/skill':>9}   throughput ratio")
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            make_tree(root, size)
            jobs = [] if args.jobs is None else ["--jobs", str(args.jobs)]
            ours = timed([sys.executable, "-m", "wave_lsp", "check", str(root), "--format", "json",
                          "--no-personal", *jobs])
            theirs = timed([sys.executable, "-c", SKILLS_REF, str(root)])
            print(f"{size:>7}  {ours:>10.2f} {size / ours:>9.0f} {ours / size * 1000:>9.2f}   "
                  f"{theirs:>12.2f} {size / theirs:>9.0f} {theirs / size * 1000:>9.2f}   "
                  f"×{theirs / ours:.2f}")


if __name__ == "__main__":
    main()
