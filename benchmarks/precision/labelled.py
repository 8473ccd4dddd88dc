"""Precision and recall on the second labelled corpus, `../shared/corpus/labelled-2`.

    python benchmarks/precision/labelled.py [--dump FILE] [--unlabelled] [--lost]

The corpus's README says how a fair run looks; this is its *stored copy* run: the folder is copied,
an empty `.git` directory created at each `<owner>__<repo>` root (so that the project root is the
repository root) and an empty file for every path a `.corpus-files.tsv` lists as not copied; then
the skill files `wave-lsp check .` finds there are checked under `claude-code`, personal settings
off, `HOME` an empty folder. Findings about files outside the skill folders may be wrong only
because the stored copy lacks those files (the README: note them, do not tune to them).

Each error and warning is matched to a label of `_results/claude-code-verdicts*.tsv` by (code,
path, 1-based start line), allowing a shift of one line that is the same for every finding of one
(code, path), the message deciding between labels of one line; a finding without such a label
that sits on a line of `_results/claude-code-missed.tsv` (±1; one finding per line) is that true
problem, now reported (TP). The labels are TP / FP / ADVICE / COND; precision is TP / (every error
and warning), so a finding without a label counts as false until it is labelled by the README's
criterion. Recall is over the true problems the labels know:
every TP label and every line of `_results/claude-code-missed.tsv` **on a file the run checked**;
one is *found* when a finding of any code sits on its line (±1) at error or warning level (and, in
a second column, at any severity). A true problem on a file the run did not check (the labeller
also judged other SKILL.md files of the full clones, which neither run checks) cannot be found, so
it is left out of recall; the output says how many were left out and in how many files.

`--clones DIR` is the README's other fair run: each labelled file checked in a full clone of its
repository at the corpus commit (`clones.py` makes them), the whole clone being the project.
`--every-file` (with `--clones`) checks every skill file of each clone as well, the run the
labeller's Part 2b labels come from; the labels cover those files only in part, so precision
there counts many findings without a label as false.

`labelled-2-added.tsv` labels findings the independent labels do not cover (new findings of the
mechanisms they judge), made by the developer of issue 27 and so not independent: the figure with
them is printed separately, after the strict one.

The labels were made on an earlier version; a rule may be changed because of the mechanism a label
shows, never to match one instance (the README). `run.py` scores the first corpus the same way.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "labelled-2"
RESULTS = CORPUS / "_results"
#: the independent labels of the corpus (the sample: findings on other SKILL.md files of the clones,
#: which only `--every-file` checks)
VERDICTS = ("claude-code-verdicts.tsv", "claude-code-verdicts-clones.tsv",
            "claude-code-verdicts-clones-sample.tsv")
#: labels the developer added for findings the independent labels do not cover (not independent)
ADDED = HERE / "labelled-2-added.tsv"
#: labels made by a review session that did not write the rules (2026-12-02): independent
INDEPENDENT = HERE / "labelled-2-independent.tsv"
#: the labeller's verdicts on the findings a rule change left unlabelled (`to-label` rows: corpus,
#: target, path/skill, line, code, key, message, label, reason; its labelled-2 rows count here)
TO_LABEL_INDEPENDENT = HERE / "labels-to-label-independent.tsv"
sys.path.insert(0, str(REPO))


@dataclass(frozen=True, slots=True)
class Found:
    code: str
    path: str
    line: int
    column: int
    severity: str
    message: str


@dataclass(slots=True)
class Label:
    code: str
    path: str
    line: int
    verdict: str
    reason: str
    message: str
    matched: bool = False


def mirror(root: Path) -> None:
    """The stored-copy tree of the corpus README under `root`."""
    shutil.copytree(CORPUS, root, ignore=shutil.ignore_patterns("_results"), symlinks=True)
    for top in root.iterdir():
        if top.is_dir():
            (top / ".git").mkdir(exist_ok=True)
    for listing in root.rglob(".corpus-files.tsv"):
        for line in listing.read_text("utf-8").splitlines()[1:]:
            fields = line.split("\t")
            if len(fields) < 4 or not fields[3].startswith("no"):
                continue
            target = listing.parent / fields[0]
            if fields[2] == "dir":
                target.mkdir(parents=True, exist_ok=True)
            elif not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.touch()


def corpus_path(root: Path, where: Path) -> str:
    """`where` as a path of the corpus (relative to the copy's `root`), else as it is."""
    try:
        return where.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(where)


def collect(target: str = "claude-code") -> tuple[list[Found], set[str]]:
    """Every finding (all severities) of `check .` on the stored copy, and the files checked
    (corpus paths)."""
    from wave_lsp.api import check_files
    from wave_lsp.core.checking.checker import split_by_file
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.workspace.discovery import find_skill_files

    found: list[Found] = []
    checked: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="wave-labelled-") as temporary:
        root = Path(temporary) / "corpus"
        mirror(root)
        home = Path(temporary) / "home"
        home.mkdir()
        settings = Settings.for_target(target, home=home, personal=False)
        before = Path.cwd()
        os.chdir(root)
        try:
            files = [path for path in find_skill_files([Path(".")])
                     if path.suffix.lower() in (".md", ".markdown") or path.name == "SKILL.md"]
            reports = split_by_file(check_files([root / f for f in files], settings))
        finally:
            os.chdir(before)
        checked.update(corpus_path(root, root / f) for f in files)
        for report in reports:
            for finding in report.findings:
                relative = corpus_path(root, Path(finding.path) if finding.path else report.path)
                line = finding.range.start.line + 1 if finding.range and not finding.path else 1
                column = finding.range.start.character + 1 if finding.range and not finding.path \
                    else 1
                found.append(Found(finding.code, relative, line, column,
                                   finding.severity.name.lower(), finding.message))
    return found, checked


def collect_clones(clones: Path, target: str = "claude-code",
                   every_file: bool = False) -> tuple[list[Found], set[str]]:
    """Every finding on the labelled files, each checked in a full clone of its repository at the
    corpus commit (`clones/<owner>__<repo>/`, made by `clones.py`), paths mapped back to the corpus
    layout, and the files checked (corpus paths). The whole clone is the project (its plugins,
    its other skills and files); only the labelled files are checked, as the README asks. With
    `every_file`, every skill file `check .` finds in each clone is checked too, named
    `<owner>__<repo>/<path in the repository>` as the labeller's Part 2b names them."""
    from wave_lsp.api import check_files
    from wave_lsp.core.checking.checker import split_by_file
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.workspace.discovery import find_skill_files

    with open(CORPUS / "SOURCES.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    by_path = {}
    for row in rows:
        where = clones / row["repo"].replace("/", "__") / row["path_in_repo"]
        if where.exists():
            by_path[str(where)] = row["corpus_path"]
    if every_file:
        before = Path.cwd()
        for repository in sorted({row["repo"].replace("/", "__") for row in rows}):
            os.chdir(clones / repository)
            try:
                for name in find_skill_files([Path(".")]):
                    if name.suffix.lower() in (".md", ".markdown") or name.name == "SKILL.md":
                        where = clones / repository / name  # `name` may be absolute
                        # not resolved: a folder linked to another (`.agents/skills` ->
                        # `skills`) is a path of its own, as the labeller names it
                        inside = os.path.relpath(where, clones / repository)
                        by_path.setdefault(str(where), f"{repository}/{Path(inside).as_posix()}")
            finally:
                os.chdir(before)
    found: list[Found] = []
    with tempfile.TemporaryDirectory(prefix="wave-labelled-") as temporary:
        settings = Settings.for_target(target, home=Path(temporary), personal=False)
        reports = split_by_file(check_files([Path(p) for p in by_path], settings))
    for report in reports:
        relative = by_path.get(str(report.path))
        if relative is None:
            continue
        for finding in report.findings:
            if finding.path:
                continue  # about another file of the skill: not a labelled line
            line = finding.range.start.line + 1 if finding.range else 1
            column = finding.range.start.character + 1 if finding.range else 1
            found.append(Found(finding.code, relative, line, column,
                               finding.severity.name.lower(), finding.message))
    return found, set(by_path.values())


def read_labels(added: bool = False) -> list[Label]:
    """The independent labels, and with `added` the developer's (`labelled-2-added.tsv`)."""
    labels: list[Label] = []
    for path in ([RESULTS / name for name in VERDICTS] + [INDEPENDENT]
                 + ([ADDED] if added else [])):
        with open(path, encoding="utf-8", newline="") as handle:
            lines = (line for line in handle if not line.startswith("#"))
            for row in csv.DictReader(lines, delimiter="\t"):
                labels.append(Label(row["code"], row["path"], int(row["line"]), row["verdict"],
                                    row.get("reason", ""), row.get("message", "")))
    with open(TO_LABEL_INDEPENDENT, encoding="utf-8", newline="") as handle:
        lines = (line for line in handle if not line.startswith("#"))
        for row in csv.DictReader(lines, delimiter="\t"):
            # a relabel request names several lines and judges existing labels: not added here
            if row["corpus"].startswith("labelled-2") and row["label"] and \
                    row["line"].isdigit():
                labels.append(Label(row["code"], row["path/skill"], int(row["line"]),
                                    row["label"], row.get("reason", ""), row.get("message", "")))
    return labels


def read_missed() -> list[tuple[str, int, str]]:
    with open(RESULTS / "claude-code-missed.tsv", encoding="utf-8", newline="") as handle:
        return [(row["path"], int(row["line"]), row["problem"])
                for row in csv.DictReader(handle, delimiter="\t")]


def match(found: list[Found], labels: list[Label]) -> dict[Found, Label]:
    """Each error or warning's label: same code and path, the line shifted by the one offset
    (0, +1 or -1) that matches most of that (code, path)'s findings; the message decides
    between labels of one line."""
    by_group: dict[tuple[str, str], list[Label]] = defaultdict(list)
    for label in labels:
        by_group[label.code, label.path].append(label)
    findings: dict[tuple[str, str], list[Found]] = defaultdict(list)
    for item in found:
        if item.severity in ("error", "warning"):
            findings[item.code, item.path].append(item)
    result: dict[Found, Label] = {}
    missed = defaultdict(list)
    for path, line, problem in read_missed():
        missed[path].append(Label("", path, line, "TP", f"missed: {problem}", ""))
    for group, items in findings.items():
        candidates = by_group.get(group, [])
        lines = Counter(label.line for label in candidates)
        shift = max((0, 1, -1), key=lambda s: sum(1 for f in items if lines[f.line + s]))
        for item in items:
            free = [label for label in candidates
                    if label.line == item.line + shift and not label.matched]
            if not free:  # a true problem the labels list as missed, now reported
                free = [label for label in missed[item.path]
                        if abs(label.line - item.line) <= 1 and not label.matched]
            if not free:
                continue
            best = next((label for label in free if label.message == item.message), free[0])
            best.matched = True
            result[item] = best
    return result


@dataclass(frozen=True, slots=True)
class Recall:
    """The true problems the labels know on the files a run checked, and how many were found."""

    problems: int
    strong: int  # found at error or warning
    weak: int  # found at any severity
    lost: list[str]
    left_out: int  # true problems on files the run did not check
    left_out_files: int


def recall(found: list[Found], labels: list[Label], missed: list[tuple[str, int, str]],
           checked: set[str]) -> Recall:
    """Recall over the TP labels and missed problems of the files in `checked`; the ones on other
    files are counted as left out (no finding can be on them)."""
    at: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for item in found:
        at[item.path][item.line].add(item.severity)
    problems = [(label.path, label.line, f"{label.code} {label.message[:90]}")
                for label in labels if label.verdict == "TP"]
    problems += [(path, line, f"missed: {problem[:90]}") for path, line, problem in missed]
    outside = [problem for problem in problems if problem[0] not in checked]
    problems = [problem for problem in problems if problem[0] in checked]
    strong = weak = 0
    lost = []
    for path, line, what in problems:
        near = set().union(*(at[path].get(line + d, set()) for d in (-1, 0, 1)))
        if near & {"error", "warning"}:
            strong += 1
        else:
            lost.append(f"{path}:{line}\t{what}" + ("\t(below warning)" if near else ""))
        if near:
            weak += 1
    return Recall(len(problems), strong, weak, lost, len(outside),
                  len({path for path, _, _ in outside}))


def table(found: list[Found], matched: dict[Found, Label]) -> list[str]:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for item in found:
        if item.severity not in ("error", "warning"):
            continue
        verdict = matched[item].verdict if item in matched else "unlabelled"
        for code in (item.code, "ALL"):
            counts[code][verdict] += 1
            counts[code][item.severity] += 1
    lines = ["| rule | errors | warnings | TP | FP | ADVICE | COND | unlabelled | precision |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for code in sorted(counts, key=lambda c: (c == "ALL", c)):
        c = counts[code]
        total = c["error"] + c["warning"]
        lines.append(f"| {code} | {c['error']} | {c['warning']} | {c['TP']} | {c['FP']} | "
                     f"{c['ADVICE']} | {c['COND']} | {c['unlabelled']} | "
                     f"{100 * c['TP'] / total:.0f} % |")
    return lines


def write_unlabelled(path: Path, unlabelled: list[Found], run: str) -> None:
    """The findings a labeller should judge, each at its place in its repository (SOURCES.tsv)."""
    with open(CORPUS / "SOURCES.tsv", encoding="utf-8") as handle:
        sources = {row["corpus_path"]: row for row in csv.DictReader(handle, delimiter="\t")}
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(f"# labelled-2 ({run}), claude-code: errors and warnings without an independent "
                     "label; judge each by the criterion of labelled-2/README.md and add it to "
                     "_results with its corpus path (the path column's file under "
                     "<owner>__<repo>/)\n")
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["repo", "path", "line", "code", "message"])
        for item in sorted(unlabelled, key=lambda f: (f.path, f.line, f.column, f.code)):
            row = sources.get(item.path)
            repo, where = (row["repo"], row["path_in_repo"]) if row else ("", item.path)
            writer.writerow([repo, where, item.line, item.code, item.message.replace("\n", " ")])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--dump", type=Path, help="write every finding (all severities) as TSV")
    parser.add_argument("--unlabelled", action="store_true",
                        help="list the errors and warnings without a label")
    parser.add_argument("--clones", type=Path, metavar="DIR",
                        help="check the labelled files in full clones under DIR (clones.py)")
    parser.add_argument("--every-file", action="store_true",
                        help="with --clones: check every skill file of each clone, not only the "
                             "labelled ones (wider than the README's run: the labels cover the "
                             "other files only in part)")
    parser.add_argument("--write-unlabelled", type=Path, metavar="FILE",
                        help="write the errors and warnings without an independent label as TSV "
                             "(repo, path, line, code, message) for a labeller")
    parser.add_argument("--lost", action="store_true",
                        help="list the true problems not reported as error or warning")
    args = parser.parse_args(argv)
    if not CORPUS.exists():
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    if args.every_file and not args.clones:
        parser.error("--every-file needs --clones")
    found, checked = (collect_clones(args.clones, every_file=args.every_file) if args.clones
                      else collect())
    labels = read_labels()
    matched = match(found, labels)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(["code", "severity", "path", "line", "column", "verdict", "message"])
            for item in found:
                verdict = matched[item].verdict if item in matched else ""
                writer.writerow([item.code, item.severity, item.path, item.line, item.column,
                                 verdict, item.message.replace("\n", " ")])
    run = ("full clones, every skill file" if args.every_file else "full clones") if args.clones \
        else "stored copy"
    print(f"## labelled-2, claude-code ({run})\n")
    print("\n".join(table(found, matched)))
    scored = recall(found, labels, read_missed(), checked)
    total = max(scored.problems, 1)
    print(f"\nrecall of the true problems the labels know on the {len(checked)} files checked "
          f"({scored.problems}): {100 * scored.strong / total:.0f} % as error or warning "
          f"({scored.strong}), {100 * scored.weak / total:.0f} % at any severity ({scored.weak})")
    print(f"left out of recall: {scored.left_out} true problems on {scored.left_out_files} files "
          "this run did not check (labelled on other files of the full clones)")
    if args.lost:
        for line in scored.lost:
            print("  NOT FOUND", line)
    unlabelled = [item for item in found
                  if item.severity in ("error", "warning") and item not in matched]
    print(f"errors and warnings without a label: {len(unlabelled)}")
    both = match(found, read_labels(added=True))
    loud = [item for item in found if item.severity in ("error", "warning")]
    true = sum(1 for item in loud if item in both and both[item].verdict == "TP")
    left = sum(1 for item in loud if item not in both)
    print(f"with the developer's labels of {ADDED.name} (not independent): precision "
          f"{100 * true / max(len(loud), 1):.0f} % ({true} of {len(loud)}; {left} still unlabelled)")
    if args.write_unlabelled:
        write_unlabelled(args.write_unlabelled, unlabelled, run)
    if args.unlabelled:
        for item in unlabelled:
            print("  ", item.code, item.severity, f"{item.path}:{item.line}:{item.column}",
                  item.message[:200], sep="\t")
    return 0


if __name__ == "__main__":
    sys.exit(main())
