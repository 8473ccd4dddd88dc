"""The seventh precision sample: 13 public repositories none of the project's corpora nor samples
1-6 hold (nor any repository already fetched on the project's machine), checked in full clones as
a user runs the checker, scored against independent labels (a held-out sample, made by a labeller
who wrote no rule and did not read the rules' source).

    python benchmarks/precision/sample7.py clone MIRRORS OUT
    python benchmarks/precision/sample7.py run OUT RAW [--wave-lsp PATH] [--timeout S]
    python benchmarks/precision/sample7.py score RAW [--unlabelled FILE] [--lost] [--by-repository]
    python benchmarks/precision/sample7.py info RAW [--count 50] [--seed 7]

The commands, the label format and the matching are `sample3.py`'s and the clones `sample4.py`'s
(read their docstrings); only the files differ: `sample-7-sources.tsv` (repository, commit,
licence, SKILL.md count, layout), `sample-7-labels.tsv` (every error and warning of both runs,
labelled TP / FP / ADVICE / COND / doubtful), `sample-7-info-labels.tsv` (a random 50 information
and hint findings: useful / noise / wrong). A clone is `OUT/<owner>+<name>/` and label paths are
`<owner>+<name>/<path in the repository>`.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sample4  # sample 4's commands, pointed at this sample's files

if __name__ == "__main__":
    sys.exit(sample4.main(7))
