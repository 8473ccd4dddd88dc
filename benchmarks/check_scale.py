"""Memory and CPU of a `check` as the number of skills grows (issue 30 item 3): `wave-lsp check
--format json --jobs 1` against agnix 0.59.3 (`agnix --format json --max-files 0`, the PyPI wheel's
Rust binary) on the same generated trees (`skills_tree.make_tree`: each skill a SKILL.md, a
`references/guide.md` and a `scripts/run.py`), whole processes in interleaved rounds: CPU (user +
system), wall time and peak RSS from `wait4` (`speed.whole_process`), medians.

Run: `python benchmarks/check_scale.py [--sizes 1000 10000 50000] [--rounds 3] [--trees DIR]`
(`--trees`: keep the generated trees there and reuse them; 50,000 skills are 150,000 files). Sizes
above 10,000 are run once. Prints figures only; no test asserts them. Goals (issue 30): 10,000
skills ≤ 200 MiB peak and ≤ 60 MiB more than 1,000; 50,000 ≤ 300 MiB and ≥ 5× cheaper (CPU) than
agnix.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import agnix
from skills_tree import make_tree
from speed import WAVE_LSP, Process, interleaved, load, show


def tree(base: Path, size: int) -> Path:
    """The generated tree of `size` skills under `base`, made once (a finished tree has `.git`,
    which `make_tree` creates last)."""
    root = base / f"skills-{size}"
    if not (root / ".git").is_dir():
        make_tree(root, size)
    return root


def measure(root: Path, rounds: int) -> dict[str, Process]:
    return interleaved({
        "wave-lsp check --jobs 1": [*WAVE_LSP, "check", ".", "--no-personal", "--format", "json",
                                    "--jobs", "1"],
        "agnix": [agnix(), ".", "--format", "json", "--max-files", "0"],
    }, rounds, root)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds up to 10,000")
    parser.add_argument("--trees", type=Path, help="where to keep the generated trees")
    args = parser.parse_args()
    print(f"load average {load()}")
    with tempfile.TemporaryDirectory() as scratch:
        base = args.trees or Path(scratch)
        found: dict[int, dict[str, Process]] = {}
        for size in args.sizes:
            rounds = args.rounds if size <= 10_000 else 1
            found[size] = measure(tree(base, size), rounds)
            show(f"{size:,} generated skills (median of {rounds} interleaved rounds; load "
                 f"{load()}):", found[size])
    print("\n skills   wave-lsp peak RSS   agnix peak RSS   CPU wave-lsp / agnix")
    for size, figures in found.items():
        ours, theirs = figures["wave-lsp check --jobs 1"], figures["agnix"]
        print(f"{size:>7,}   {ours.rss_mib:12.1f} MiB {theirs.rss_mib:12.1f} MiB"
              f"   {ours.cpu:7.2f} s / {theirs.cpu:7.2f} s = ×{ours.cpu / theirs.cpu:.2f}")
    if len(found) > 1:
        sizes = sorted(found)
        small, large = (found[s]["wave-lsp check --jobs 1"].rss_mib for s in (sizes[0], sizes[-1]))
        print(f"wave-lsp peak RSS from {sizes[0]:,} to {sizes[-1]:,} skills: +{large - small:.1f} "
              "MiB")
    print(f"load average now {load()}")


if __name__ == "__main__":
    main()
