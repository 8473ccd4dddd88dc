"""How long the server's work per edit takes: analysis of one SKILL.md text (parse, every rule,
conversion to LSP diagnostics in UTF-16), measured on the bundled examples and the real-world corpus.

Run: `python benchmarks/diagnostics_latency.py [--repeat N]`. Prints median, p95 and max in ms.
The language server does not debounce: these figures are the reason it does not need to.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.lsp.convert import Positions, diagnostic

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"


def measure(paths: list[Path], repeat: int) -> list[float]:
    settings = Settings(personal=False)
    timings = []
    for path in paths:
        text = path.read_text("utf-8", errors="replace")
        for index in range(repeat):
            edited = text + " " * (index + 1)  # a new text each time, as after a keystroke
            start = time.perf_counter()
            report = check_file(path, settings, text=edited)
            positions = Positions(report.document.lines, "utf-16")
            [diagnostic(f, positions, path.as_uri()) for f in report.findings]
            timings.append((time.perf_counter() - start) * 1000)
    return timings


def report(name: str, timings: list[float]) -> None:
    ordered = sorted(timings)
    p95 = ordered[int(len(ordered) * 0.95) - 1] if len(ordered) > 1 else ordered[0]
    print(f"{name:<22} n={len(ordered):<6} median {statistics.median(ordered):7.2f} ms   "
          f"p95 {p95:7.2f} ms   max {ordered[-1]:7.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    examples = sorted((ROOT / "examples" / "skills").glob("*/SKILL.md"))
    report("examples", measure(examples, args.repeat))
    if CORPUS.exists():
        report("corpus (675 skills)", measure(sorted(CORPUS.glob("*/*/SKILL.md")), 1))


if __name__ == "__main__":
    main()
