"""How long bad input takes: the cases of `tests/core/test_input.py`, `tests/core/test_adversarial.py`
and the adversarial documents of `tests/lsp/test_diagnostics.py`, timed.

The tests assert only behaviour (the right finding, nothing hangs: each has a pytest timeout at
least 10x the figure printed here). The figures live here.

Run: `python benchmarks/bad_input.py [--repeat N] [--no-server]`. Prints the median and the max of N
runs per case, in ms; the server cases are open → diagnostics through a stdio client.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_client import LspClient, publish_for

from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings

WAVE = [sys.executable, "-m", "wave_lsp", "serve", "--stdio"]
VALID = "---\nname: my-skill\ndescription: Does things. Use when asked.\n---\n"
TEXT = "---\nname: my-skill\ndescription: X. Use when asked.\n---\n"


def bomb_lines() -> list[str]:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        previous, name = chr(96 + i), chr(97 + i)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    return lines


def write(root: Path, text: str) -> Path:
    path = root / "my-skill" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def fifo(root: Path) -> Path:
    path = root / "my-skill" / "SKILL.md"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    return path


def symlink_loops(root: Path) -> Path:
    folder = root / "my-skill"
    (folder / "references").mkdir(parents=True)
    (folder / "references/loop").symlink_to(folder)
    (folder / "references/self").symlink_to(folder / "references/self")
    return write(root, TEXT + "See [loop](references/loop/references/loop/SKILL.md).\n")


def many_files(root: Path) -> Path:
    folder = root / "my-skill" / "references"
    folder.mkdir(parents=True)
    for index in range(100_000):
        os.close(os.open(folder / f"f{index:06d}.md", os.O_CREAT | os.O_WRONLY, 0o644))
    return write(root, TEXT)


#: name -> builds the input under a fresh folder and returns the SKILL.md to check (not timed)
CORE_CASES: dict[str, Callable[[Path], Path]] = {
    "FIFO named SKILL.md": fifo,
    "alias bomb": lambda root: write(root, "---\nname: my-skill\ndescription: Bomb. Use when asked.\n"
                                     + "\n".join(bomb_lines()) + "\n---\n"),
    "10,000 nested flow levels": lambda root: write(
        root, "---\nname: my-skill\ndescription: Deep.\nx: " + "[" * 10_000 + "]" * 10_000 + "\n---\n"),
    "10,000 nested block levels": lambda root: write(
        root, "---\nname: my-skill\ndescription: Deep.\n"
        + "".join(" " * i + f"k{i}:\n" for i in range(10_000)) + "---\n"),
    "10 MB body": lambda root: write(
        root, VALID + ("A line of body text that goes on for a while. " * 2 + "\n") * 110_000),
    "10 MB frontmatter": lambda root: write(
        root, "---\nname: my-skill\ndescription: >-\n" + "  folded text line\n" * 600_000 + "---\n"),
    "symlink loops": symlink_loops,
}
#: slow to set up: measured once
SLOW_CASES: dict[str, Callable[[Path], Path]] = {"100,000 files in the skill": many_files}

SERVER_CASES = {
    "bomb": "---\nname: bomb\ndescription: B. Use when asked.\n" + "\n".join(bomb_lines()) + "\n---\n",
    "huge (10 MB)": "---\nname: huge\ndescription: H. Use when asked.\n---\n" + "x" * 10_000_000,
    "binary": "\x00\x01\x02---\nname: \udcff\n" * 100,
}


def time_core(build: Callable[[Path], Path], repeat: int) -> tuple[list[float], list[float]]:
    """Milliseconds to build the input (what else the test spends) and to check it."""
    setups, timings = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            start = time.perf_counter()
            path = build(root)
            setups.append((time.perf_counter() - start) * 1000)
            settings = Settings(home=root / "home")
            start = time.perf_counter()
            check_file(path, settings, strict=True)
            timings.append((time.perf_counter() - start) * 1000)
    return setups, timings


def time_server(repeat: int) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {name: [] for name in SERVER_CASES}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / ".git").mkdir()
        client = LspClient(WAVE, settings={"wave": {"personalSkills": False}})
        client.initialize(root)
        try:
            for round_ in range(repeat):
                for name, text in SERVER_CASES.items():
                    path = root / ".wave/skills" / f"{name.split()[0]}-{round_}" / "SKILL.md"
                    uri = path.as_uri()
                    published = client.expect(publish_for(uri, 1))
                    start = time.perf_counter()
                    client.notify("textDocument/didOpen", {"textDocument": {
                        "uri": uri, "languageId": "markdown", "version": 1, "text": text}})
                    timings[name].append((LspClient.wait(published) - start) * 1000)
        finally:
            client.close()
    return timings


def report(name: str, timings: list[float]) -> None:
    print(f"{name:<34} n={len(timings):<3} median {statistics.median(timings):9.1f} ms   "
          f"max {max(timings):9.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-server", action="store_true", help="only the in-process cases")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:  # warm up: imports are not part of a case
        check_file(write(Path(folder), VALID), Settings(home=Path(folder) / "home"), strict=True)
    print("check_file (in process)")
    for name, build in CORE_CASES.items():
        report(name, time_core(build, args.repeat)[1])
    for name, build in SLOW_CASES.items():
        setups, timings = time_core(build, 1)
        report(name, timings)
        report("  (creating its input)", setups)
    if not args.no_server:
        print("server: didOpen -> publishDiagnostics")
        for name, timings in time_server(args.repeat).items():
            report(name, timings)


if __name__ == "__main__":
    main()
