"""Before/after table per rule from two `run.py --dump` files and labels.tsv:

    python benchmarks/precision/compare.py BEFORE.tsv AFTER.tsv
"""

from __future__ import annotations

import csv
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import LABEL_COLUMNS, read_labels


def counts(dump: str, labels: dict[tuple[str, ...], dict[str, str]]) -> dict[tuple[str, str], Counter[str]]:
    table: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    with open(dump, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            ident = tuple(row[c] for c in LABEL_COLUMNS[:5])
            label = labels.get(ident, {}).get("label", "unlabelled")
            for code in (row["code"], "ALL"):
                table[row["target"], code][label] += 1
    return table


def cell(c: Counter[str]) -> str:
    labelled = c["true"] + c["false"] + c["advice"]
    if not labelled and not c["unlabelled"]:
        return "– | –"
    share = f"{100 * c['true'] / labelled:.0f} %" if labelled else "–"
    extra = f" +{c['unlabelled']}?" if c["unlabelled"] else ""
    return f"{labelled + c['unlabelled']} ({c['true']}/{c['false']}/{c['advice']}{extra}) | {share}"


def main(before: str, after: str) -> None:
    labels = read_labels()
    old, new = counts(before, labels), counts(after, labels)
    for target in ("wave", "claude-code"):
        print(f"\n#### {target}\n")
        print("| rule | before: findings (true/false/advice) | precision | after: findings "
              "(true/false/advice) | precision |")
        print("|---|---:|---:|---:|---:|")
        codes = sorted({code for (t, code) in [*old, *new] if t == target},
                       key=lambda code: (code == "ALL", code))
        for code in codes:
            print(f"| {code} | {cell(old.get((target, code), Counter()))} | "
                  f"{cell(new.get((target, code), Counter()))} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
