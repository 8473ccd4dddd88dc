"""Where a re-index goes, in process (no transport, no other thread): the server's state follows a
file event (`ServerState.file_events`: the index and the project snapshot updated from the one
changed SKILL.md) and re-checks the open skill that depends on it, as for a client that watches
files (the two-second look at the disk covers only what no event reports). Two events: another skill's
body edited (nothing else depends on it) and another skill's `when_to_use` edited (the listing of
the load group the open skill shares changes, so the open skill is checked again). Then the
functions that take the time of the re-check, from cProfile.

Run: `python benchmarks/reindex_profile.py [--skills 5000]`.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_client import percentiles
from skills_tree import make_tree

from wave_lsp.core.workspace.snapshot import FileChange
from wave_lsp.lsp.state import ServerState

ROUNDS = 40


def measure(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        paths = make_tree(root, count)
        state = ServerState()
        state.client.raw = {"personalSkills": False}
        state.index.rebuild([root], state.settings_for(root / "SKILL.md"))
        state.session.watch([root])  # as for a client that watches files
        opened, text = paths[0], paths[0].read_text("utf-8")
        uri = opened.as_uri()
        state.analyse(uri, opened, text, 1, "utf-16")
        listed = [p for p in paths[1:] if "disable-model-invocation" not in p.read_text("utf-8")]

        def event(path: Path) -> tuple[float, list[str]]:
            start = time.perf_counter()
            affected, _ = state.file_events([(path, FileChange.CHANGED)], [uri])
            return time.perf_counter() - start, affected

        body, listing, recheck = [], [], []
        for index in range(ROUNDS):
            other = listed[ROUNDS + index]
            other.write_text(other.read_text("utf-8") + f"\nEdited {index}.\n", "utf-8")
            elapsed, affected = event(other)
            assert not affected
            body.append(elapsed)
        profile = cProfile.Profile()
        for index in range(ROUNDS):
            other = listed[index]
            source = other.read_text("utf-8")
            name_line = source.split("\n", 2)[1]
            other.write_text(source.replace(name_line, f"{name_line}\nwhen_to_use: Edited {index}.",
                                            1), "utf-8")
            elapsed, affected = event(other)
            assert affected == [uri]
            listing.append(elapsed)
            start = time.perf_counter()
            profile.enable()
            state.analyse(uri, opened, text, 1, "utf-16")
            profile.disable()
            recheck.append(time.perf_counter() - start)
        rows = [("body edit: event handled", body), ("listing edit: event handled", listing),
                ("listing edit: open skill re-checked", recheck)]
        print(f"{count} skills, {ROUNDS} events each (ms):")
        for label, samples in rows:
            p50, p95, top = percentiles(samples)
            print(f"  {label:38} p50 {p50:6.2f}  p95 {p95:6.2f}  max {top:6.2f}")
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(14)
        print("re-check of the open skill, cumulative (cProfile, all rounds):")
        print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, nargs="+", default=[5000])
    for count in parser.parse_args().skills:
        measure(count)


if __name__ == "__main__":
    main()
