"""Precision of wave-lsp's errors and warnings on the real-skills corpus, against hand labels.

    python benchmarks/precision/run.py [--targets wave claude-code] [--dump FILE] [--unlabelled]

Every skill of `../shared/corpus/real` is mirrored into a temporary tree together with every file
its `.corpus-files.tsv` says the upstream skill folder holds (empty files), so that the folder looks
as it does upstream, and checked under each target with personal settings off. Each error and
warning gets a stable key: target, skill (the corpus folder), code, 1-based line, and a short hash
of the code, the flagged text (or the resource path for a finding about another file) and its
occurrence number among identical ones on the same line. The findings are joined with `labels.tsv`
(target, skill, code, line, key, label, reason; label = true | false | advice), and the script
prints, per target, precision per rule and overall: true / reported. "advice" means the finding is
fair advice but not a mistake the author must fix, so it counts against precision at warning or
error level; a finding without a label counts as false until it is labelled (and, with
`--unlabelled`, is listed). Labels whose finding is no longer reported are listed too (a removed
true finding is a regression; "(below warning)" when a finding of that code is still on its line
at information or hint), and recall is the labelled-true findings still reported as error or
warning over the labelled-true ones of the skills the run checked (the labels of a skill the run
did not check, such as one missing from the stored corpus, are left out and counted). A third
recall figure counts by line, as `labelled.py` does: a lost true label is found when an error or
warning of any code sits on its line (a lost label there is marked "(line reported: codes)": its
problem may be reported under another code, or as another occurrence of the same text). The second
corpus, `labelled-2`, is scored by `labelled.py`.

`--dump FILE` writes every error and warning (with message and flagged text) as TSV, the input for
labelling.

`--upstream TREES` mirrors each skill where it lives in its repository instead (`path_in_repo` of
SOURCES.tsv), inside a tree holding an empty file for every file of the repository at the corpus
commit, with the plugin and marketplace manifests' real content, so that references resolve
against the plugin root, the project root and the folders between as they do upstream. TREES holds
`<owner>__<repo>.txt` (`git ls-tree -r --name-only <commit>`) and `<owner>__<repo>.manifests.json`
(path -> text of every `.claude-plugin/*.json` and `.wave-plugin/plugin.json`) per repository. The
repositories are public (SOURCES.tsv); their listings are not kept in this repository.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "real"
LABELS = HERE / "labels.tsv"
#: verdicts of a labeller who wrote no rule, on rows of labels.tsv (2026-12-02): they win
INDEPENDENT = HERE / "labels-real-independent.tsv"
LABEL_COLUMNS = ("target", "skill", "code", "line", "key", "label", "reason")
sys.path.insert(0, str(REPO))


@dataclass(frozen=True, slots=True)
class Reported:
    target: str
    skill: str
    code: str
    line: int
    key: str
    severity: str
    message: str
    text: str

    @property
    def ident(self) -> tuple[str, str, str, str, str]:
        return (self.target, self.skill, self.code, str(self.line), self.key)


def mirror(root: Path) -> list[tuple[str, Path]]:
    """Copy every corpus SKILL.md (and the text resources copied beside it) under `root`, and
    create the other files its listing names. Returns (skill, path of the copy)."""
    skills = []
    for source in sorted(CORPUS.rglob("SKILL.md")):
        skill = source.parent.relative_to(CORPUS).as_posix()
        destination = root / skill
        destination.mkdir(parents=True, exist_ok=True)
        for item in source.parent.iterdir():
            if item.is_file() and item.name != ".corpus-files.tsv":
                (destination / item.name).write_bytes(item.read_bytes())
        listing = source.parent / ".corpus-files.tsv"
        if listing.exists():
            for line in listing.read_text("utf-8").splitlines():
                fields = line.split("\t")
                if line.startswith("#") or len(fields) < 3:
                    continue
                relative, kind = fields[0], fields[2]
                target = destination / relative
                if kind == "dir":
                    target.mkdir(parents=True, exist_ok=True)
                elif not target.exists():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.touch()
        skills.append((skill, destination / "SKILL.md"))
    return skills


def mirror_upstream(root: Path, trees: Path) -> list[tuple[str, Path]]:
    """Each corpus skill at its path in a copy of its repository's file tree (empty files, real
    plugin manifests); returns (skill, path of the copy)."""
    import json

    with open(CORPUS / "SOURCES.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    skills = []
    made: set[str] = set()
    for row in rows:
        repo = row["repo"].replace("/", "__")
        base = root / repo
        if repo not in made:
            made.add(repo)
            (base / ".git").mkdir(parents=True, exist_ok=True)
            for name in (trees / f"{repo}.txt").read_text("utf-8").splitlines():
                if name.startswith(".git/"):
                    continue  # other skills' SKILL.md stay empty: links to them resolve
                target = base / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.touch()
            manifests = json.loads((trees / f"{repo}.manifests.json").read_text("utf-8"))
            for name, text in manifests.items():
                (base / name).parent.mkdir(parents=True, exist_ok=True)
                (base / name).write_text(text, "utf-8")
        source = CORPUS / row["corpus_dir"] / "SKILL.md"
        if not source.exists():
            continue
        destination = base / row["path_in_repo"]
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(source.read_bytes())
        for item in source.parent.iterdir():
            if item.is_file() and item.name not in (".corpus-files.tsv", "SKILL.md"):
                (destination.parent / item.name).write_bytes(item.read_bytes())
        skills.append((row["corpus_dir"], destination))
    return skills


def collect(targets: list[str], trees: Path | None = None) -> list[Reported]:
    from wave_lsp.cli import check_files
    from wave_lsp.core.checking.catalog import Severity
    from wave_lsp.core.checking.config import Settings

    found: list[Reported] = []
    quiet: list[Reported] = []  # information and hints: only for recall at any severity
    with tempfile.TemporaryDirectory(prefix="wave-precision-") as temporary:
        root = Path(temporary) / "corpus"
        skills = mirror_upstream(root, trees) if trees else mirror(root)
        CHECKED[:] = [skill for skill, _ in skills]
        folders = {skill: path.parent for skill, path in skills}
        by_path = {path: skill for skill, path in skills}
        for target in targets:
            settings = Settings.for_target(target, home=Path(temporary) / "home", personal=False)
            reports = check_files([path for _, path in skills], settings)
            for report in reports:
                skill = by_path[report.path]
                text = report.path.read_text("utf-8", errors="replace").lstrip("\ufeff")
                seen: Counter[tuple[str, str, int]] = Counter()
                seen_quiet: Counter[tuple[str, str, int]] = Counter()
                for finding in report.findings:
                    loud = finding.severity in (Severity.ERROR, Severity.WARNING)
                    counter = seen if loud else seen_quiet
                    if finding.path:
                        flagged = "@" + Path(finding.path).relative_to(folders[skill]).as_posix()
                        line = 0
                    else:
                        flagged = text[finding.span.start:finding.span.end][:200]
                        line = finding.range.start.line + 1 if finding.range else 0
                    counter[finding.code, flagged, line] += 1
                    digest = key(finding.code, flagged, counter[finding.code, flagged, line])
                    (found if loud else quiet).append(Reported(target, skill, finding.code, line, digest,
                                          finding.severity.name.lower(), finding.message,
                                          flagged))
    QUIET[:] = quiet
    return found


#: the information and hint findings of the last `collect` (recall at any severity)
QUIET: list[Reported] = []
#: the skills (corpus folders) the last `collect` checked: recall is over their labels only
CHECKED: list[str] = []


def key(code: str, flagged: str, occurrence: int) -> str:
    """The stable part of a finding: its code, the flagged text and which of the identical ones
    on its line it is."""
    return hashlib.sha1(f"{code}\0{flagged}\0{occurrence}".encode()).hexdigest()[:10]


def read_labels(independent: bool = True) -> dict[tuple[str, ...], dict[str, str]]:
    """`labels.tsv` (made by the rules' side), each row the independent labeller judged again
    (`labels-real-independent.tsv`, same columns) replaced by that verdict unless `independent`
    is False."""
    labels: dict[tuple[str, ...], dict[str, str]] = {}
    for path in (LABELS, INDEPENDENT) if independent else (LABELS,):
        if not path.exists():
            continue
        with open(path, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                labels[tuple(row[c] for c in LABEL_COLUMNS[:5])] = row
    return labels


def table(found: list[Reported], labels: dict[tuple[str, ...], dict[str, str]],
          target: str) -> list[str]:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for item in found:
        if item.target != target:
            continue
        label = labels.get(item.ident, {}).get("label", "unlabelled")
        counts[item.code][label] += 1
        counts[item.code][item.severity] += 1
        counts["ALL"][label] += 1
        counts["ALL"][item.severity] += 1
    lines = [f"## {target}", "",
             "| rule | errors | warnings | true | false | advice | unlabelled | precision |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for code in sorted(counts, key=lambda c: (c == "ALL", c)):
        c = counts[code]
        total = c["true"] + c["false"] + c["advice"] + c["unlabelled"]
        precision = f"{100 * c['true'] / total:.0f} %" if total else "–"
        lines.append(f"| {code} | {c['error']} | {c['warning']} | {c['true']} | {c['false']} | "
                     f"{c['advice']} | {c['unlabelled']} | {precision} |")
    return lines


def write_unlabelled(path: Path, unlabelled: list[Reported]) -> None:
    """The findings a labeller should judge, each at its place in its repository (SOURCES.tsv);
    `target` and `key` are the columns a row of labels.tsv needs besides the verdict."""
    with open(CORPUS / "SOURCES.tsv", encoding="utf-8") as handle:
        sources = {row["corpus_dir"]: row for row in csv.DictReader(handle, delimiter="\t")}
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write("# real: errors and warnings without a label; judge each by the criterion "
                     "of ../shared/corpus/labelled-2/README.md and add it to labels.tsv "
                     "(target, skill = the corpus folder, code, line, key, label, reason)\n")
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["repo", "path", "line", "code", "message", "target", "skill", "key"])
        for item in sorted(unlabelled, key=lambda r: (r.skill, r.line, r.code, r.key)):
            row = sources.get(item.skill)
            repo, where = (row["repo"], row["path_in_repo"]) if row else ("", item.skill)
            writer.writerow([repo, where, item.line, item.code, item.message.replace("\n", " "),
                             item.target, item.skill, item.key])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", nargs="+", default=["wave", "claude-code"])
    parser.add_argument("--dump", type=Path, help="write every error and warning to this TSV")
    parser.add_argument("--unlabelled", action="store_true", help="list findings without label")
    parser.add_argument("--write-unlabelled", type=Path, metavar="FILE",
                        help="write the errors and warnings without a label as TSV (repo, path, "
                             "line, code, message, target, key) for a labeller")
    parser.add_argument("--upstream", type=Path, metavar="TREES",
                        help="mirror each skill inside its repository's file tree (see above)")
    args = parser.parse_args(argv)
    if not CORPUS.exists():
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    found = collect(args.targets, args.upstream)
    labels = read_labels()
    if args.dump:
        with open(args.dump, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(["target", "skill", "code", "line", "key", "severity", "message",
                             "text"])
            for item in found:
                writer.writerow([item.target, item.skill, item.code, item.line, item.key,
                                 item.severity, item.message.replace("\n", " "),
                                 item.text.replace("\n", "⏎").replace("\t", " ")])
    for target in args.targets:
        print("\n".join(table(found, labels, target)))
        print()
    reported = {item.ident for item in found}
    loud_at: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for item in found:
        loud_at[item.target, item.skill, str(item.line)].add(item.code)

    def codes_on_line(row: dict[str, str]) -> list[str]:
        """The codes of the errors and warnings on a lost label's line (its problem may be
        reported under another code, or as another occurrence of the same text)."""
        return sorted(loud_at.get((row["target"], row["skill"], row["line"]), ()))

    checked = set(CHECKED)
    outside = [row for ident, row in labels.items()
               if ident[0] in args.targets and ident[1] not in checked]
    gone = [row for ident, row in labels.items()
            if ident[0] in args.targets and ident[1] in checked and ident not in reported]
    lost = [row for row in gone if row["label"] == "true"]
    print(f"labels whose finding is no longer an error or warning: {len(gone)} "
          f"(of them labelled true: {len(lost)})")
    for target in args.targets:
        kept = sum(1 for item in found if item.target == target
                   and labels.get(item.ident, {}).get("label") == "true")
        missing = sum(1 for row in lost if row["target"] == target)
        quiet = {item.ident[:4] for item in QUIET if item.target == target}
        below = sum(1 for row in lost if row["target"] == target
                    and tuple(row[c] for c in LABEL_COLUMNS[:4]) in quiet)
        on_line = sum(1 for row in lost if row["target"] == target and codes_on_line(row))
        if kept + missing:
            print(f"recall of labelled true findings, {target}: "
                  f"{100 * kept / (kept + missing):.0f} % as error or warning ({kept} of "
                  f"{kept + missing}), {100 * (kept + below) / (kept + missing):.0f} % at any "
                  f"severity ({kept + below}); by line, as labelled.py counts (an error or "
                  f"warning of any code on the label's line): "
                  f"{100 * (kept + on_line) / (kept + missing):.0f} % ({kept + on_line})")
    print(f"left out of recall: {sum(1 for row in outside if row['label'] == 'true')} true "
          f"labels on {len({row['skill'] for row in outside})} skills this run did not check")
    quiet_at = {item.ident[:4] for item in QUIET}
    for row in lost:
        below = tuple(row[c] for c in LABEL_COLUMNS[:4]) in quiet_at
        on_line = codes_on_line(row)
        print("  LOST TRUE", *(row[c] for c in LABEL_COLUMNS),
              *(["(below warning)"] if below else []),
              *([f"(line reported: {', '.join(on_line)})"] if on_line else []))
    unlabelled = [item for item in found if item.ident not in labels]
    print(f"findings without a label: {len(unlabelled)}")
    if args.write_unlabelled:
        write_unlabelled(args.write_unlabelled, unlabelled)
    if args.unlabelled:
        for item in unlabelled:
            print("  ", *item.ident, item.severity, item.message[:160], sep="\t")
    return 0


if __name__ == "__main__":
    sys.exit(main())
