"""What the sandbox adds to one executed command (docs/security.md *The sandbox*; issue 35's
target: at most 50 ms per command). Each round runs every command twice, interleaved: through
`wave_lsp.core.execution.execution.run_command` (bubblewrap or sandbox-exec, limits, output capture)
and directly with `bash -c` on the host in the same folder (the floor). Commands are the preview's
ordinary ones: `true`, `git status`, `cat`, `grep -R`, `ls`, `node -e` where Node is installed.

Run: `python benchmarks/sandbox.py [--rounds 20]`. Prints, per command, the median and p95 of
both and of the difference, then the overall median difference.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from wave_lsp.core.execution.execution import run_command

COMMANDS = ["true", "git status --short", "cat notes.txt", "grep -R hello .", "ls -la"]


def project(folder: Path) -> Path:
    (folder / "notes.txt").write_text("hello\n" * 100, "utf-8")
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def timed(action: object) -> float:
    start = time.perf_counter()
    action()  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    options = parser.parse_args()
    commands = COMMANDS + (["node -e 'console.log(1)'"] if shutil.which("node") else [])
    with tempfile.TemporaryDirectory() as scratch:
        cwd = project(Path(scratch))
        run_command("true", cwd)  # the sandbox's one-time start-up check
        differences: list[float] = []
        print(f"{'command':32} {'sandboxed ms':>14} {'host ms':>10} {'added ms (p95)':>16}")
        for command in commands:
            inside, outside = [], []
            for _ in range(options.rounds):
                inside.append(timed(lambda c=command: run_command(c, cwd)))
                outside.append(timed(lambda c=command: subprocess.run(
                    ["bash", "-c", c], cwd=cwd, capture_output=True, check=False)))
            added = [a - b for a, b in zip(inside, outside, strict=True)]
            differences += added
            p95 = sorted(added)[int(0.95 * (len(added) - 1))]
            print(f"{command:32} {statistics.median(inside):14.1f} "
                  f"{statistics.median(outside):10.1f} {statistics.median(added):9.1f} ({p95:.1f})")
        print(f"overall median added per command: {statistics.median(differences):.1f} ms")


if __name__ == "__main__":
    main()
