"""The fifth precision sample: 15 public repositories none of the project's corpora nor samples
1-4 hold, checked in full clones as a user runs the checker, scored against independent labels
(a held-out sample: made while the rules were tuned on samples 3 and 4, unseen by their tuners).

    python benchmarks/precision/sample5.py clone MIRRORS OUT
    python benchmarks/precision/sample5.py run OUT RAW [--wave-lsp PATH] [--timeout S]
    python benchmarks/precision/sample5.py score RAW [--unlabelled FILE] [--lost] [--by-repository]
    python benchmarks/precision/sample5.py info RAW [--count 50] [--seed 5]

The commands, the label format and the matching are `sample3.py`'s (read its docstring); only the
files differ: `sample-5-sources.tsv` (repository, commit, licence, SKILL.md count, layout),
`sample-5-labels.tsv` (every error and warning of both runs, labelled TP / FP / ADVICE / COND /
doubtful by a labeller who wrote no rule), `sample-5-info-labels.tsv` (a random 50 information and
hint findings: useful / noise / wrong). A clone is `OUT/<owner>+<name>/` and label paths are
`<owner>+<name>/<path in the repository>`.

`clone` makes a real clone (`git clone` of the mirror, detached at the recorded commit: history,
`.git`, every tracked file), which is what a user has; MIRRORS holds `<owner>+<name>/repo` (what the
`fetch` tool brings to `/work/.mirror`) or `<owner>__<name>` bare git directories.

Rerunning on a newer main: `run OUT RAW2`, then `score RAW2 --unlabelled new.tsv` writes exactly
the errors and warnings no label matches (a finding matches the label of the same run, code, path
and line), to be labelled and appended to `sample-5-labels.tsv`; `--lost` lists true labels no
longer reported.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sample3  # noqa: E402  (the shared commands; this module only points them at sample 5)

sample3.SOURCES = HERE / "sample-5-sources.tsv"
sample3.LABELS = HERE / "sample-5-labels.tsv"
sample3.INFO_LABELS = HERE / "sample-5-info-labels.tsv"


def folder(repo: str) -> str:
    return repo.replace("/", "+")


def clone(mirrors: Path, out: Path) -> int:
    """A full clone of each repository at its recorded commit (detached HEAD)."""
    for row in sample3.sources():
        target = out / folder(row["repo"])
        if target.exists():
            continue
        mirror = next((path for path in (mirrors / folder(row["repo"]) / "repo",
                                         mirrors / row["repo"].replace("/", "__"))
                       if path.exists()), None)
        if mirror is None:
            print(row["repo"], "no mirror in", mirrors, flush=True)
            continue
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(mirror), str(target)],
                       check=True)
        subprocess.run(["git", "-C", str(target), "checkout", "-q", "--detach", row["commit"]],
                       check=True)
        print(row["repo"], row["commit"][:12], flush=True)
    return 0


_read_labels = sample3.read_labels


def read_labels(path: Path | None = None) -> list[sample3.Label]:
    """sample3's reader, defaulting to this sample's label file (its default is bound early)."""
    return _read_labels(path or sample3.LABELS)


sample3.folder = folder
sample3.clone = clone
sample3.read_labels = read_labels

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "info" and "--seed" not in sys.argv:
        sys.argv += ["--seed", "5"]
    sys.exit(sample3.main())
