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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sample4  # sample 4's commands, pointed at this sample's files

if __name__ == "__main__":
    sys.exit(sample4.main(5))
