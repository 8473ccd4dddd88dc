"""The fourth precision sample: 24 public repositories none of the project's corpora nor samples
1-3 hold, checked in full clones as a user runs the checker, scored against independent labels.

    python benchmarks/precision/sample4.py clone MIRRORS OUT
    python benchmarks/precision/sample4.py run OUT RAW [--wave-lsp PATH] [--timeout S]
    python benchmarks/precision/sample4.py score RAW [--unlabelled FILE] [--lost] [--by-repository]
    python benchmarks/precision/sample4.py info RAW [--count 50] [--seed 4]

The commands, the label format and the matching are `sample3.py`'s (read its docstring); only the
files differ: `sample-4-sources.tsv` (repository, commit, licence, SKILL.md count, layout),
`sample-4-labels.tsv` (every error and warning of both runs, labelled TP / FP / ADVICE / COND /
doubtful by a labeller who wrote no rule), `sample-4-info-labels.tsv` (a random 50 information and
hint findings: useful / noise / wrong). A clone is `OUT/<owner>+<name>/` and label paths are
`<owner>+<name>/<path in the repository>`.

`clone` makes a real clone (`git clone` of the mirror, detached at the recorded commit: history,
`.git`, every tracked file), which is what a user has; MIRRORS holds `<owner>+<name>/repo` (what the
`fetch` tool brings to `/work/.mirror`) or `<owner>__<name>` bare git directories.

Rerunning on a newer main: `run OUT RAW2`, then `score RAW2 --unlabelled new.tsv` writes exactly
the errors and warnings no label matches (a finding matches the label of the same run, code, path
and line), to be labelled and appended to `sample-4-labels.tsv`; `--lost` lists true labels no
longer reported.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sample3  # noqa: E402  (the shared commands; this module points them at one sample)


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


def point_at(sample: int) -> None:
    """Point sample3's shared commands at the files of sample `sample` (4, 5: `sample5.py`)."""
    sample3.SOURCES = HERE / f"sample-{sample}-sources.tsv"
    sample3.LABELS = HERE / f"sample-{sample}-labels.tsv"
    sample3.INFO_LABELS = HERE / f"sample-{sample}-info-labels.tsv"
    sample3.folder = folder
    sample3.clone = clone
    sample3.read_labels = read_labels


def main(sample: int) -> int:
    """The command line of sample `sample`; `info` draws with the sample's number as its seed."""
    point_at(sample)
    if len(sys.argv) > 1 and sys.argv[1] == "info" and "--seed" not in sys.argv:
        sys.argv += ["--seed", str(sample)]
    return sample3.main()


if __name__ == "__main__":
    sys.exit(main(4))
