"""The body scans on every Markdown text of the real-skills corpus, against their plain versions
(`tests/core/scan_oracles.py`) and against one combined regex (docs/design/README.md *Scanning a
body*): CPU seconds for all texts, best of `--rounds` rounds, the two interleaved.

Run: `python benchmarks/scans.py [--rounds 3] [PATH]` (default path: `../shared/corpus/real`).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.core import scan_oracles as plain  # noqa: E402
from wave_lsp.core.invocation import arguments  # noqa: E402
from wave_lsp.core.parsing import file_references, injections, markdown  # noqa: E402
from wave_lsp.core.parsing.text import LineIndex  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "real"


def best(rounds: int, work: Callable[[], object]) -> float:
    """The least CPU time of `rounds` runs of `work`."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def scans(texts: list[str]) -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    """Each scan as (plain version, current version) over all texts, caches bypassed."""
    def each(function: Callable[[str], object]) -> Callable[[], object]:
        return lambda: [function(text) for text in texts]

    def plain_references(text: str) -> object:
        return [list(pattern.finditer(text)) for pattern in
                (plain.LINK, plain.SKILL_DIR_PATH, plain.BARE_PATH)]

    def references(text: str) -> object:
        return (list(file_references._links(text, 0)), list(file_references._skill_dir_paths(text, 0)),
                list(file_references._bare_paths(text, 0)))

    return {
        "line index": (each(plain.line_bounds), each(LineIndex)),
        "Markdown with headings": (each(lambda text: plain.markdown(text, 0)),
                                   each(lambda text: markdown._parse.__wrapped__(text, 0).headings)),
        # the rules never ask for headings (document symbols do): they are found when asked
        "Markdown, as rules ask": (each(lambda text: plain.markdown(text, 0)),
                                   each(lambda text: markdown._parse.__wrapped__(text, 0))),
        "reference patterns": (each(plain_references), each(references)),
        "argument placeholders": (
            each(lambda text: [m for m in plain.ARGUMENT.finditer(text) if not m.group(1)]),
            each(lambda text: list(arguments.unescaped_placeholders(text)))),
    }


def combined(texts: list[str]) -> tuple[float, float]:
    """The literal-led patterns one after another, and the same patterns as one alternation
    (wrong answers, as overlapping kinds consume each other; only its speed is of interest; the
    code-span pattern is left out, its back-reference would point at another group)."""
    patterns = [markdown._FENCE_AFTER_LF, markdown._HEADING_AFTER_LF,
                file_references._LINK, file_references._SKILL_DIR_PATH,
                file_references._BARE_PATH, arguments._UNESCAPED, injections._INLINE_CANDIDATE,
                injections.BLOCK_OPENER]
    together = re.compile("|".join(f"(?:{pattern.pattern})" for pattern in patterns))
    separate = best(3, lambda: [list(p.finditer(t)) for t in texts for p in patterns])
    alternation = best(3, lambda: [list(together.finditer(t)) for t in texts])
    return separate, alternation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    texts = [path.read_text("utf-8", errors="replace") for path in sorted(args.path.rglob("*.md"))]
    print(f"{len(texts)} texts, {sum(map(len, texts)) / 1e6:.1f} M characters; CPU seconds, best of "
          f"{args.rounds}")
    print(f"  {'scan':<24} {'plain':>8} {'current':>8} {'speed-up':>9}")
    for name, (slow, fast) in scans(texts).items():
        before, after = best(args.rounds, slow), best(args.rounds, fast)
        print(f"  {name:<24} {before:8.3f} {after:8.3f} {before / after:8.1f}x")
    separate, alternation = combined(texts)
    print(f"  literal-led patterns one after another {separate:.3f} s; as one alternation "
          f"{alternation:.3f} s ({alternation / separate:.1f}x)")


if __name__ == "__main__":
    sys.exit(main())
