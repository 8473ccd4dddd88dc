"""Full clones of the labelled-2 repositories at their corpus commits, for `labelled.py --clones`:

    python benchmarks/precision/clones.py MIRRORS OUT

MIRRORS holds one git directory per repository, `<owner>+<name>/repo` (as the project's mirror
keeps them) or `<owner>__<name>`. For each repository of `labelled-2/SOURCES.tsv`, OUT gets
`<owner>__<name>/`: every file git tracks at the commit (a blob the mirror lacks, such as a large
binary, is written empty), made a git repository whose index tracks exactly those files (so that
`check .` sees what git tracks, even under a gitignored path).
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "labelled-2"


def git_dir(mirrors: Path, repo: str) -> str:
    for candidate in (mirrors / repo.replace("/", "+") / "repo", mirrors / repo.replace("/", "__")):
        if candidate.exists():
            return str(candidate)
    raise FileNotFoundError(f"no clone of {repo} under {mirrors}")


def extract(where: str, commit: str, out: Path) -> tuple[int, int]:
    """The files of `commit` under `out`: (files, blobs missing from the mirror)."""
    listing = subprocess.run(["git", "--git-dir", where, "ls-tree", "-r", "-z", commit],
                             capture_output=True, check=True).stdout.split(b"\0")
    blobs = []
    for entry in filter(None, listing):
        meta, name = entry.split(b"\t", 1)
        mode, kind, sha = meta.decode().split()
        if kind == "blob":
            blobs.append((mode, sha, name.decode("utf-8", "surrogateescape")))
    missing = 0
    with subprocess.Popen(["git", "--git-dir", where, "cat-file", "--batch"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE) as batch:
        assert batch.stdin is not None and batch.stdout is not None
        for mode, sha, name in blobs:
            batch.stdin.write(sha.encode() + b"\n")
            batch.stdin.flush()
            header = batch.stdout.readline().split()
            data = b""
            if len(header) == 3 and header[1] != b"missing":
                data = batch.stdout.read(int(header[2]))
                batch.stdout.read(1)
            else:
                missing += 1
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if mode == "120000":
                os.symlink(data.decode(), target)
            else:
                target.write_bytes(data)
        batch.stdin.close()
    return len(blobs), missing


def main(mirrors: Path, out: Path) -> int:
    with open(CORPUS / "SOURCES.tsv", encoding="utf-8") as handle:
        commits = {row["repo"]: row["commit"] for row in csv.DictReader(handle, delimiter="\t")}
    for repo, commit in sorted(commits.items()):
        target = out / repo.replace("/", "__")
        if target.exists():
            continue
        files, missing = extract(git_dir(mirrors, repo), commit, target)
        subprocess.run(["git", "init", "-q", str(target)], check=True)
        subprocess.run(["git", "-C", str(target), "add", "-A", "-f"], check=True,
                       capture_output=True)
        print(repo, files, "files,", missing, "missing from the mirror", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
