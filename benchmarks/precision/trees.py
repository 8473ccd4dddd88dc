"""The TREES folder `run.py --upstream` reads, made from bare or full clones of the corpus
repositories:

    python benchmarks/precision/trees.py CLONES OUT

CLONES holds one git directory per repository, `<owner>+<name>/repo` (as the project's mirror
keeps them) or `<owner>__<name>`; for each repository of `../shared/corpus/real/SOURCES.tsv` at
its commit, OUT gets `<owner>__<name>.txt` (`git ls-tree -r --name-only <commit>`) and
`<owner>__<name>.manifests.json` (path -> text of every `.claude-plugin/*.json` and
`.wave-plugin/plugin.json`).
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real"


def git_dir(clones: Path, repo: str) -> Path:
    for candidate in (clones / repo.replace("/", "+") / "repo", clones / repo.replace("/", "__")):
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f"no clone of {repo} under {clones}")


def main(clones: Path, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    with open(CORPUS / "SOURCES.tsv", encoding="utf-8") as handle:
        commits = {row["repo"]: row["commit"] for row in csv.DictReader(handle, delimiter="\t")}
    for repo, commit in sorted(commits.items()):
        where = str(git_dir(clones, repo))
        names = subprocess.run(["git", "--git-dir", where, "ls-tree", "-r", "--name-only", commit],
                               capture_output=True, text=True, check=True).stdout
        manifests = {}
        for name in names.splitlines():
            if ((f"/{name}".rsplit("/", 2)[-2] == ".claude-plugin" and name.endswith(".json"))
                    or name.endswith(".wave-plugin/plugin.json")):
                manifests[name] = subprocess.run(
                    ["git", "--git-dir", where, "show", f"{commit}:{name}"],
                    capture_output=True, text=True, check=True).stdout
        stem = out / repo.replace("/", "__")
        Path(f"{stem}.txt").write_text(names, "utf-8")
        Path(f"{stem}.manifests.json").write_text(json.dumps(manifests), "utf-8")
        print(repo, len(names.splitlines()), "files,", len(manifests), "manifests")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
