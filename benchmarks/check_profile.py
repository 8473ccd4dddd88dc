"""Where a `check` of the real-skills corpus spends its time, without a profiler's distortion:
the phases and every rule function are wrapped with CPU-time counters (cProfile multiplies the
cost of pure-Python code too unevenly to be trusted for shares), and the counters are printed as
shares of the whole run.

Phases are nested: `rules` includes the scans a rule triggers the first time it needs them (the
Markdown structure, the references, the injections; each cached per text), so the scan rows are
also shown on their own.

Run: `python benchmarks/check_profile.py [--target wave] [--top 20] [PATH]` (default path:
`../shared/corpus/real`).
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"

spent: dict[str, float] = defaultdict(float)
calls: dict[str, int] = defaultdict(int)


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`function`, counting its CPU time under `label` (not counting a recursive call twice)."""
    active = [0]

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if active[0]:
            return function(*args, **kwargs)
        active[0] += 1
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - start
            calls[label] += 1
            active[0] -= 1

    return wrapper


def everywhere(original: Callable[..., Any], label: str) -> None:
    """Replace `original` by its timed wrapper in every wave_lsp module that imported it."""
    wrapper = timed(label, original)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("wave_lsp"):
            for name, value in list(vars(module).items()):
                if value is original:
                    setattr(module, name, wrapper)


def instrument() -> None:
    """Wrap the phases and the rules where their callers look them up."""
    from wave_lsp.core.checking import checker, engine
    from wave_lsp.core.parsing import document, file_references, injections, markdown, yamltree
    from wave_lsp.core.rules import all_checks
    from wave_lsp.core.rules.registry import Check
    from wave_lsp.core.workspace import session

    everywhere(checker.locate, "locate the skill (folders, plugin)")
    everywhere(checker.read_skill_file, "read the file")
    everywhere(checker.decode, "decode")
    document._parse = timed("parse a SKILL.md or linked file (split, YAML tree)",  # cached
                            document._parse)
    everywhere(yamltree.parse_frontmatter, "  of which the YAML tree")
    snapshot = session.WorkspaceSession.project
    session.WorkspaceSession.project = timed(  # type: ignore[method-assign]
        "project snapshot (every skill read once)", snapshot)
    everywhere(markdown.parse_body, "scan: Markdown structure (cached per text)")
    everywhere(file_references.find_references, "scan: file references (cached per text)")
    everywhere(injections.find_injections, "scan: injections (cached per text)")
    def consumed(function: Callable[..., Any]) -> Callable[..., Any]:
        """A rule yields its findings lazily: time the whole iteration."""
        return functools.wraps(function)(lambda context: list(function(context)))

    checks = tuple(Check(item.codes, timed(f"rule {item.name} ({', '.join(item.codes)})",
                                           consumed(item.function))) for item in all_checks())
    engine.all_checks = lambda: checks
    everywhere(engine.finalize, "severities, ranges, sort")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--target", default="wave")
    parser.add_argument("--top", type=int, default=20, help="rules shown")
    args = parser.parse_args()
    from wave_lsp.api import check_files, load_settings

    files = sorted(args.path.rglob("SKILL.md"))
    settings = load_settings(args.path, target=args.target, personal=False)
    check_files(files[:5], settings)  # imports and caches of the modules, not measured
    instrument()
    start = time.process_time()
    check_files(files, settings)
    total = time.process_time() - start
    print(f"{len(files)} skills, target {args.target}: {total:.2f} s CPU, "
          f"{total / len(files) * 1000:.2f} ms per skill")
    phases = {k: v for k, v in spent.items() if not k.startswith("rule ")}
    rules = sorted(((v, k) for k, v in spent.items() if k.startswith("rule ")), reverse=True)
    all_rules = sum(v for v, _ in rules)
    print(f"  {'every rule (scans they trigger included)':<58} {all_rules:6.2f} s "
          f"{all_rules / total:6.1%}")
    for label, value in sorted(phases.items(), key=lambda kv: -kv[1]):
        print(f"  {label:<58} {value:6.2f} s {value / total:6.1%}  ({calls[label]} calls)")
    print(f"rules, the {args.top} costliest:")
    for value, label in rules[:args.top]:
        print(f"  {label[5:]:<58} {value:6.2f} s {value / total:6.1%}")
    rest = sum(v for v, _ in rules[args.top:])
    print(f"  {'the other ' + str(len(rules) - args.top) + ' rules':<58} {rest:6.2f} s "
          f"{rest / total:6.1%}")


if __name__ == "__main__":
    sys.exit(main())
