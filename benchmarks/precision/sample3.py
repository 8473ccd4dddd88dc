"""The third precision sample: public repositories none of the project's corpora holds, checked
in full clones as a user runs the checker, scored against independent labels.

    python benchmarks/precision/sample3.py clone MIRRORS OUT
    python benchmarks/precision/sample3.py run OUT RAW [--wave-lsp PATH] [--timeout S]
    python benchmarks/precision/sample3.py score RAW [--unlabelled FILE] [--lost]
    python benchmarks/precision/sample3.py info RAW [--count 50] [--seed 3]

`sample-3-sources.tsv` names each repository, its commit, its licence and how many SKILL.md files
it tracks. The repositories are not kept here (they are public; the sources file says where).

- `clone` writes `OUT/<owner>__<name>/` for each repository: every file git tracks at the commit,
  made a git repository whose index tracks exactly those files (`clones.py`'s mechanism). MIRRORS
  holds one git directory per repository, `<owner>+<name>/repo` (what the `fetch` tool of the
  project's sessions brings to `/work/.mirror`) or `<owner>__<name>`; a plain
  `git clone --bare https://github.com/<owner>/<name> MIRRORS/<owner>__<name>` works as well.
- `run` checks each clone, one repository at a time, as a user would: at its root,
  `wave-lsp check . --format json --no-personal` (no target: each file for the runtime that reads
  it) and the same with `--target claude-code`, `HOME` an empty folder. RAW gets
  `<owner>__<name>.<run>.json` (stdout as written), `.stderr`, and `runs.tsv` (repository, run,
  exit status, seconds, files, findings); a run over `--timeout` is killed and recorded as such.
- `score` joins every error and warning of RAW with `sample-3-labels.tsv` and prints precision
  per run and per rule: TP / (every error and warning), so ADVICE, COND, FP and a finding without
  a label all count against it (the criterion of `../shared/corpus/labelled-2/README.md`);
  `--by-repository` adds the figures per repository, `--unlabelled FILE` writes the findings a
  labeller still has to judge (in the label file's columns), `--lost` lists true labels no longer
  reported as error or warning (recall).
- `info` draws a reproducible random sample of the information and hint findings for the
  usefulness labels (`sample-3-info-labels.tsv`) and prints their tally.

A label row: `run code severity path line column verdict reason message`, `path` =
`<owner>__<name>/<path in the repository>`, `line`/`column` 1-based (the JSON's 0-based start +
1). A finding matches the label of the same run, code, path and line (the message decides between
labels of one line; a label is used once), so a later version that moves nothing keeps its labels.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "sample-3-sources.tsv"
LABELS = HERE / "sample-3-labels.tsv"
INFO_LABELS = HERE / "sample-3-info-labels.tsv"
RUNS = {"default": [], "claude-code": ["--target", "claude-code"]}
LOUD = ("error", "warning")
sys.path.insert(0, str(HERE))


@dataclass(frozen=True, slots=True)
class Found:
    run: str
    code: str
    severity: str
    path: str
    line: int
    column: int
    message: str
    checked_for: str


def sources() -> list[dict[str, str]]:
    with open(SOURCES, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def folder(repo: str) -> str:
    return repo.replace("/", "__")


def clone(mirrors: Path, out: Path) -> int:
    from clones import extract, git_dir

    for row in sources():
        target = out / folder(row["repo"])
        if target.exists():
            continue
        files, missing = extract(git_dir(mirrors, row["repo"]), row["commit"], target)
        subprocess.run(["git", "init", "-q", str(target)], check=True)
        subprocess.run(["git", "-C", str(target), "add", "-A", "-f"], check=True,
                       capture_output=True)
        print(row["repo"], files, "files,", missing, "missing from the mirror", flush=True)
    return 0


def run(clones: Path, raw: Path, wave_lsp: str, timeout: float) -> int:
    raw.mkdir(parents=True, exist_ok=True)
    lines = ["repo\trun\tstatus\tseconds\tfiles\tfindings"]
    for row in sources():
        name = folder(row["repo"])
        for label, extra in RUNS.items():
            with tempfile.TemporaryDirectory(prefix="sample3-home-") as home:
                command = [wave_lsp, "check", ".", "--format", "json", "--no-personal", *extra]
                start = time.monotonic()
                try:
                    done = subprocess.run(command, cwd=clones / name, capture_output=True,
                                          timeout=timeout, env={**os.environ, "HOME": home})
                    status, stdout, stderr = str(done.returncode), done.stdout, done.stderr
                except subprocess.TimeoutExpired as expired:
                    status, stdout, stderr = "timeout", expired.stdout or b"", expired.stderr or b""
                seconds = time.monotonic() - start
            (raw / f"{name}.{label}.json").write_bytes(stdout)
            (raw / f"{name}.{label}.stderr").write_bytes(stderr)
            try:
                document = json.loads(stdout)
                files, findings = document["summary"]["files"], document["summary"]["findings"]
            except (ValueError, KeyError):
                files = findings = -1
            lines.append(f"{row['repo']}\t{label}\t{status}\t{seconds:.1f}\t{files}\t{findings}")
            print(lines[-1], flush=True)
    (raw / "runs.tsv").write_text("\n".join(lines) + "\n", "utf-8")
    return 0


def collect(raw: Path) -> list[Found]:
    """Every finding of every run in RAW, paths as `<owner>__<name>/<path in the repository>`."""
    found = []
    for row in sources():
        name = folder(row["repo"])
        for label in RUNS:
            document = json.loads((raw / f"{name}.{label}.json").read_bytes())
            for entry in document["files"]:
                for item in entry["findings"]:
                    start = item["range"]["start"]
                    found.append(Found(label, item["code"], item["severity"],
                                       f"{name}/{entry['path']}", start["line"] + 1,
                                       start["character"] + 1, item["message"],
                                       entry.get("checkedFor", document.get("target", ""))))
    return found


@dataclass(slots=True)
class Label:
    run: str
    code: str
    path: str
    line: int
    verdict: str
    reason: str
    message: str
    used: bool = False


def read_labels(path: Path = LABELS) -> list[Label]:
    if not path.exists():
        return []
    with open(path, encoding="utf-8", newline="") as handle:
        rows = csv.DictReader((line for line in handle if not line.startswith("#")),
                              delimiter="\t")
        return [Label(row["run"], row["code"], row["path"], int(row["line"]), row["verdict"],
                      row["reason"], row["message"]) for row in rows]


def match(found: list[Found], labels: list[Label]) -> dict[Found, Label]:
    by_place: dict[tuple[str, str, str, int], list[Label]] = defaultdict(list)
    for label in labels:
        by_place[label.run, label.code, label.path, label.line].append(label)
    result = {}
    for item in found:
        if item.severity not in LOUD:
            continue
        free = [label for label in by_place[item.run, item.code, item.path, item.line]
                if not label.used]
        if free:
            best = next((label for label in free if label.message == item.message), free[0])
            best.used = True
            result[item] = best
    return result


def table(found: list[Found], matched: dict[Found, Label], run_name: str) -> list[str]:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for item in found:
        if item.run != run_name or item.severity not in LOUD:
            continue
        verdict = matched[item].verdict if item in matched else "unlabelled"
        for code in (item.code, "ALL"):
            counts[code][verdict] += 1
            counts[code][item.severity] += 1
    lines = [f"#### run: {run_name}", "",
             "| rule | errors | warnings | TP | FP | ADVICE | COND | unlabelled | precision |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for code in sorted(counts, key=lambda c: (c == "ALL", c)):
        c = counts[code]
        total = c["error"] + c["warning"]
        lines.append(f"| {code} | {c['error']} | {c['warning']} | {c['TP']} | {c['FP']} | "
                     f"{c['ADVICE']} | {c['COND']} | {c['unlabelled']} | "
                     f"{100 * c['TP'] / total:.0f} % ({c['TP']}/{total}) |")
    return lines


def by_repository(found: list[Found], matched: dict[Found, Label]) -> list[str]:
    """TP / errors and warnings per repository and run: how concentrated the sample is."""
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for item in found:
        if item.severity in LOUD:
            verdict = matched[item].verdict if item in matched else "unlabelled"
            counts[item.path.split("/")[0], item.run][verdict] += 1
    lines = ["| repository | " + " | ".join(f"{run}: TP/all" for run in RUNS) + " |",
             "|---|" + "---:|" * len(RUNS)]
    for repo in sorted({repo for repo, _ in counts}):
        cells = [f"{counts[repo, run]['TP']}/{sum(counts[repo, run].values())}" for run in RUNS]
        lines.append(f"| {repo} | " + " | ".join(cells) + " |")
    return lines


def score(raw: Path, unlabelled_out: Path | None, lost: bool, repositories: bool = False) -> int:
    found = collect(raw)
    labels = read_labels()
    matched = match(found, labels)
    for name in RUNS:
        print("\n".join(table(found, matched, name)), end="\n\n")
    if repositories:
        print("\n".join(by_repository(found, matched)), end="\n\n")
    loud = [item for item in found if item.severity in LOUD]
    missing = [item for item in loud if item not in matched]
    print(f"errors and warnings without a label: {len(missing)}")
    true = [label for label in labels if label.verdict == "TP"]
    kept = sum(1 for label in true if label.used)
    print(f"recall of the labelled true findings: {kept} of {len(true)} still reported "
          "as error or warning")
    if lost:
        for label in true:
            if not label.used:
                print("  LOST", label.run, label.code, f"{label.path}:{label.line}",
                      label.message[:120], sep="\t")
    if unlabelled_out:
        with open(unlabelled_out, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(["run", "code", "severity", "path", "line", "column", "verdict",
                             "reason", "message"])
            for item in sorted(missing, key=lambda f: (f.path, f.line, f.code, f.run)):
                writer.writerow([item.run, item.code, item.severity, item.path, item.line,
                                 item.column, "", "", item.message.replace("\n", " ")])
    return 0


def info(raw: Path, count: int, seed: int) -> int:
    """A random sample of the information and hint findings of both runs (one per distinct
    finding), and the tally of `sample-3-info-labels.tsv` (verdict useful | noise | wrong)."""
    quiet = sorted({(f.code, f.severity, f.path, f.line, f.column, f.message)
                    for f in collect(raw) if f.severity not in LOUD})
    chosen = random.Random(seed).sample(quiet, min(count, len(quiet)))
    print(f"{len(quiet)} distinct information and hint findings; sample of {len(chosen)} "
          f"(seed {seed}):")
    for item in chosen:
        print(*item[:5], item[5].replace("\n", " "), sep="\t")
    if INFO_LABELS.exists():
        with open(INFO_LABELS, encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader((line for line in handle if not line.startswith("#")),
                                       delimiter="\t"))
        tally = Counter(row["verdict"] for row in rows)
        by_code: dict[str, Counter[str]] = defaultdict(Counter)
        for row in rows:
            by_code[row["code"]][row["verdict"]] += 1
        print("\ntally:", dict(tally))
        for code, verdicts in sorted(by_code.items()):
            print(f"  {code}: {dict(verdicts)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("clone")
    making.add_argument("mirrors", type=Path)
    making.add_argument("out", type=Path)
    running = commands.add_parser("run")
    running.add_argument("clones", type=Path)
    running.add_argument("raw", type=Path)
    running.add_argument("--wave-lsp", default=str(Path(sys.executable).with_name("wave-lsp")))
    running.add_argument("--timeout", type=float, default=900)
    scoring = commands.add_parser("score")
    scoring.add_argument("raw", type=Path)
    scoring.add_argument("--unlabelled", type=Path, metavar="FILE",
                         help="write the errors and warnings without a label (label columns)")
    scoring.add_argument("--lost", action="store_true", help="list true labels not reported")
    scoring.add_argument("--by-repository", action="store_true",
                         help="also print TP / errors and warnings per repository")
    sampling = commands.add_parser("info")
    sampling.add_argument("raw", type=Path)
    sampling.add_argument("--count", type=int, default=50)
    sampling.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    if args.command == "clone":
        return clone(args.mirrors, args.out)
    if args.command == "run":
        return run(args.clones, args.raw, args.wave_lsp, args.timeout)
    if args.command == "score":
        return score(args.raw, args.unlabelled, args.lost, args.by_repository)
    return info(args.raw, args.count, args.seed)


if __name__ == "__main__":
    sys.exit(main())
