"""Issue 18's goals in one run, each ratio measured against its peer in the same run on the same
inputs, ending with a table of goal, figure and verdict.

1. `check` throughput on the real-skills corpus (`../shared/corpus/real`, every rule of the `wave`
   target) against skills-ref 0.1.1: in process (`api.check_files` against a loop over
   `skills_ref.validator.validate`, each in a fresh interpreter, imports excluded), and as command
   lines (one `wave-lsp check` of the corpus, serial and with its default workers, against
   `agentskills validate`, which takes one skill per process: a sample of skills, per skill).
2. A one-file `check` against `agentskills validate` of the same skill (rounds interleaved, so that
   the machine's noise hits both alike): wall time and CPU time of the process.
3. Server start-up (spawn → `initialize` answer) against a bare pygls 2 server, interleaved, and
   edit → diagnostics on 30 generated skills (`editor_latency.session`, full and incremental sync).
4. The server on 5,000 generated skills (and 50,000 with `--large`): time to index, re-index after
   a file event, peak RSS (`workspace_scale.measure`).

Issue 30's goals (`--issue 30`), against agnix 0.59.3 (a linter written in Rust; the PyPI wheel
ships its binary) beside skills-ref, every command a whole process in the same interleaved rounds
(CPU = user + system of the process and its children, peak RSS of the process, from `wait4`):

5. A one-file `check` against `agnix FILE`, `agentskills validate` and the interpreter's floor,
   `python -I -c pass`.
6. `check` of the real-skills corpus with `--target claude-code` (every rule), `--jobs 1` and
   `--jobs 2`, against `agnix --target claude-code` and skills-ref's `validate()` loop.
7. Generated skills (`skills_tree.make_tree`): 1,000, 5,000 and 10,000 (and 50,000 with `--large`),
   `check --format json --jobs 1` against `agnix --max-files 0` and the `validate()` loop: CPU and
   peak RSS.

Issue 36's "no slower" (`--issue 36 --base DIR`): the corpus `check` of item 6 (`--target
claude-code`, every rule, `--jobs 1`) by this checkout against another checkout of wave-lsp
(`git worktree add /tmp/speed-base main`), both on this interpreter and its packages, in the same
interleaved rounds as agnix and the interpreter's floor; their JSON reports are compared first.

Run: `python benchmarks/speed.py [--issue 18|30|36|all] [--base DIR] [--rounds 10] [--throughput-rounds 3]
[--sample 40] [--large] [--sizes 1000 5000 10000]` (installs skills-ref and agnix on first use).
Prints figures only; no test asserts them. The machine's load average is printed first and last:
on a busy machine read the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from editor_latency import BARE, WAVE, session, startup
from lsp_client import percentiles
from peers import agnix, skills_ref
from skills_tree import make_tree
from workspace_scale import measure, report

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
ONE_SKILL = ROOT / "examples" / "skills" / "pdf-extract"

#: in a fresh interpreter: CPU and wall seconds of checking every SKILL.md under argv[1]
WAVE_IN_PROCESS = """
import json, sys, time
from pathlib import Path
from wave_lsp.api import check_files, load_settings, with_codes
root = Path(sys.argv[1])
files = sorted(root.rglob("SKILL.md"))
settings = load_settings(root, target="wave", personal=False)
if sys.argv[2:]:
    settings = with_codes(settings, select=sys.argv[2:])
cpu, wall = time.process_time(), time.perf_counter()
reports = check_files(files, settings, jobs=1)
print(json.dumps({"files": len(files), "cpu": time.process_time() - cpu,
                  "wall": time.perf_counter() - wall,
                  "findings": sum(len(r.findings) for r in reports)}))
"""

SKILLS_REF_IN_PROCESS = """
import json, sys, time
from pathlib import Path
from skills_ref.validator import validate
folders = sorted(p.parent for p in Path(sys.argv[1]).rglob("SKILL.md"))
problems = crashes = 0
cpu, wall = time.process_time(), time.perf_counter()
for folder in folders:
    try:
        problems += len(validate(folder))
    except Exception:  # skills-ref 0.1.1 raises on some real skills (a C1 control character)
        crashes += 1
print(json.dumps({"files": len(folders), "cpu": time.process_time() - cpu,
                  "wall": time.perf_counter() - wall, "problems": problems,
                  "crashes": crashes}))
"""


@dataclass
class Run:
    wall: float  #: seconds
    cpu: float  #: user + system seconds of the process and its children


def run(command: list[str], cwd: Path | None = None) -> Run:
    """Run `command` to its end; its wall time and the CPU time it and its children used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu)


def in_process(script: str, *codes: str) -> dict[str, float]:
    output = subprocess.run([sys.executable, "-c", script, str(CORPUS), *codes], check=True,
                            capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def median_run(runs: list[dict[str, float]]) -> dict[str, float]:
    """The run with the median CPU time (its other figures kept with it)."""
    return sorted(runs, key=lambda run: run["cpu"])[len(runs) // 2]


def agentskills() -> str:
    command = shutil.which("agentskills", path=str(Path(sys.executable).parent))
    if command is None:
        raise SystemExit("skills-ref's `agentskills` command is not installed")
    return command


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def throughput_in_process(rounds: int = 3
                          ) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """The three in-process runs, `rounds` times interleaved (the machine's speed changes from
    minute to minute), each figure the median of its rounds."""
    runs: dict[str, list[dict[str, float]]] = {"ours": [], "frontmatter": [], "theirs": []}
    for _ in range(rounds):
        runs["ours"].append(in_process(WAVE_IN_PROCESS))
        runs["frontmatter"].append(in_process(WAVE_IN_PROCESS, "SK0"))
        runs["theirs"].append(in_process(SKILLS_REF_IN_PROCESS))
    ours, frontmatter, theirs = (median_run(runs[kind]) for kind in ("ours", "frontmatter", "theirs"))
    print(f"in process, {ours['files']:.0f} skills (imports excluded; median of {rounds} interleaved "
          "rounds):")
    print(f"  wave-lsp   CPU {ours['cpu']:6.2f} s  {ours['cpu'] / ours['files'] * 1000:5.2f} ms/skill"
          f"  (wall {ours['wall']:.2f} s; {ours['findings']:.0f} findings; every rule)")
    print(f"  wave-lsp   CPU {frontmatter['cpu']:6.2f} s  "
          f"{frontmatter['cpu'] / frontmatter['files'] * 1000:5.2f} ms/skill  (wall "
          f"{frontmatter['wall']:.2f} s; {frontmatter['findings']:.0f} findings; `--select SK0`: "
          "the frontmatter and folder rules, skills-ref's scope)")
    print(f"  skills-ref CPU {theirs['cpu']:6.2f} s  "
          f"{theirs['cpu'] / theirs['files'] * 1000:5.2f} ms/skill  (wall {theirs['wall']:.2f} s; "
          f"{theirs['problems']:.0f} problems, {theirs['crashes']:.0f} skills it crashed on)")
    return ours, frontmatter, theirs


def throughput_cli(sample: int) -> tuple[Run, Run, Run, int]:
    skills = len(list(CORPUS.rglob("SKILL.md")))
    check = [sys.executable, "-m", "wave_lsp", "check", str(CORPUS), "--no-personal",
             "--format", "json"]
    serial = run([*check, "--jobs", "1"])
    parallel = run(check)
    folders = sorted(p.parent for p in CORPUS.rglob("SKILL.md"))
    step = max(1, len(folders) // sample)
    chosen = folders[::step][:sample]
    command = agentskills()
    theirs = [run([command, "validate", str(folder)]) for folder in chosen]
    per_skill = Run(sum(r.wall for r in theirs) / len(theirs), sum(r.cpu for r in theirs) / len(theirs))
    print(f"command lines, {skills} skills:")
    print(f"  wave-lsp check --jobs 1      wall {serial.wall:6.2f} s  CPU {serial.cpu:6.2f} s  "
          f"{serial.wall / skills * 1000:5.2f} ms/skill")
    print(f"  wave-lsp check (default)     wall {parallel.wall:6.2f} s  CPU {parallel.cpu:6.2f} s  "
          f"{parallel.wall / skills * 1000:5.2f} ms/skill  ({os.cpu_count()} cores)")
    print(f"  agentskills validate (one skill per process, {len(chosen)} sampled) "
          f"wall {per_skill.wall * 1000:6.1f} ms/skill  CPU {per_skill.cpu * 1000:6.1f} ms/skill")
    return serial, parallel, per_skill, skills


def one_file(rounds: int) -> tuple[Run, Run]:
    with tempfile.TemporaryDirectory() as folder:  # no repository around it
        skill = Path(folder) / ONE_SKILL.name
        shutil.copytree(ONE_SKILL, skill)
        ours_command = [sys.executable, "-m", "wave_lsp", "check", str(skill / "SKILL.md"),
                        "--no-personal"]
        theirs_command = [agentskills(), "validate", str(skill)]
        ours: list[Run] = []
        theirs: list[Run] = []
        for _ in range(rounds):
            ours.append(run(ours_command, cwd=Path(folder)))
            theirs.append(run(theirs_command, cwd=Path(folder)))

    def median(runs: list[Run]) -> Run:
        return Run(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs))

    mine, peer = median(ours), median(theirs)
    print(f"one-file check of {ONE_SKILL.name} (median of {rounds} interleaved rounds):")
    print(f"  wave-lsp check        wall {mine.wall * 1000:6.1f} ms  CPU {mine.cpu * 1000:6.1f} ms")
    print(f"  agentskills validate  wall {peer.wall * 1000:6.1f} ms  CPU {peer.cpu * 1000:6.1f} ms")
    return mine, peer


def start_up(rounds: int) -> tuple[float, float]:
    bare: list[float] = []
    wave: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(rounds):
            bare += startup(BARE, Path(folder), 1)
            wave += startup(WAVE, Path(folder), 1)
    b, w = statistics.median(bare) * 1000, statistics.median(wave) * 1000
    print(f"start-up, spawn → initialize answer (median of {rounds} interleaved):")
    print(f"  bare pygls 2 {b:6.1f} ms   wave-lsp {w:6.1f} ms")
    return b, w


def edit_latency() -> float:
    """p50 in milliseconds from a `didChange` (full or incremental) to its diagnostics."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        files = make_tree(root, 30)
        figures = session(WAVE, files, 5, {"wave": {"personalSkills": False}}, root,
                          line_of_key=1, publishes_versions=True)
    edits = [*figures["full"], *figures["incremental"]]  # type: ignore[misc]
    p50, p95, _ = percentiles(edits)
    print(f"edit → diagnostics, 30 skills × 10 edits: p50 {p50:5.2f} ms  p95 {p95:5.2f} ms")
    return p50


def verdict(met: bool) -> str:
    return "met" if met else "not met"


@dataclass
class Process:
    cpu: float  #: user + system seconds of the process and its children
    wall: float  #: seconds
    rss_mib: float  #: the peak resident set of the process (its largest child's, if larger)


def whole_process(command: list[str], cwd: Path | None = None) -> Process:
    """Run `command` to its end with its output thrown away: its own CPU time and peak RSS
    (`os.wait4`), and its wall time."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped here; keeps Popen from waiting again
    wall = time.perf_counter() - start
    return Process(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024)


def interleaved(commands: dict[str, list[str]], rounds: int, cwd: Path | None = None
                ) -> dict[str, Process]:
    """Each command once per round, in turn (the machine's noise hits all alike); per command
    the median of each figure over the rounds."""
    runs: dict[str, list[Process]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            runs[name].append(whole_process(command, cwd))
    return {name: Process(statistics.median(r.cpu for r in found),
                          statistics.median(r.wall for r in found),
                          statistics.median(r.rss_mib for r in found))
            for name, found in runs.items()}


def show(title: str, figures: dict[str, Process]) -> None:
    print(title)
    for name, figure in figures.items():
        print(f"  {name:<34} CPU {figure.cpu * 1000:9.1f} ms  wall {figure.wall * 1000:9.1f} ms"
              f"  peak RSS {figure.rss_mib:7.1f} MiB")


WAVE_LSP = [sys.executable, "-m", "wave_lsp"]


def one_file_vs_agnix(rounds: int) -> dict[str, Process]:
    with tempfile.TemporaryDirectory() as folder:  # no repository around it
        skill = Path(folder) / ONE_SKILL.name
        shutil.copytree(ONE_SKILL, skill)
        wave = shutil.which("wave-lsp", path=str(Path(sys.executable).parent))
        figures = interleaved({
            "wave-lsp check FILE": [wave or sys.executable, *([] if wave else ["-m", "wave_lsp"]),
                                    "check", f"{skill.name}/SKILL.md", "--no-personal"],
            "agnix FILE": [agnix(), f"{skill.name}/SKILL.md"],
            "agentskills validate": [agentskills(), skill.name],
            "python -I -c pass (the floor)": [sys.executable, "-I", "-c", "pass"],
        }, rounds, Path(folder))
    show(f"one-file check of {ONE_SKILL.name} (median of {rounds} interleaved rounds):", figures)
    return figures


def corpus_vs_agnix(rounds: int) -> dict[str, Process]:
    check = [*WAVE_LSP, "check", str(CORPUS), "--no-personal", "--target", "claude-code",
             "--format", "json"]
    figures = interleaved({
        "wave-lsp check --jobs 1": [*check, "--jobs", "1"],
        "wave-lsp check --jobs 2": [*check, "--jobs", "2"],
        "agnix --target claude-code": [agnix(), str(CORPUS), "--target", "claude-code",
                                       "--format", "json", "--max-files", "0"],
        "skills-ref validate() loop": [sys.executable, "-c", SKILLS_REF_IN_PROCESS, str(CORPUS)],
    }, rounds)
    count = len(list(CORPUS.rglob("SKILL.md")))
    show(f"the corpus, {count} skills, claude-code (median of {rounds} interleaved rounds):",
         figures)
    return figures


def generated_vs_agnix(sizes: list[int], rounds: int) -> dict[int, dict[str, Process]]:
    found: dict[int, dict[str, Process]] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            make_tree(root, size)
            figures = found[size] = interleaved({
                "wave-lsp check --jobs 1": [*WAVE_LSP, "check", ".", "--no-personal",
                                            "--format", "json", "--jobs", "1"],
                "agnix": [agnix(), ".", "--format", "json", "--max-files", "0"],
                "skills-ref validate() loop": [sys.executable, "-c", SKILLS_REF_IN_PROCESS, "."],
            }, rounds if size <= 10_000 else 1, root)
        show(f"{size:,} generated skills (median of {rounds if size <= 10_000 else 1} "
             "interleaved rounds):", figures)
    return found


def issue_30(args: argparse.Namespace) -> list[tuple[str, str, bool]]:
    """Issue 30's measurements and its goal rows (goal, figure, met)."""
    one = one_file_vs_agnix(args.rounds)
    corpus = corpus_vs_agnix(args.throughput_rounds)
    sizes = args.sizes + ([50000] if args.large else [])
    scale = generated_vs_agnix(sizes, args.throughput_rounds)
    ours, floor = one["wave-lsp check FILE"], one["python -I -c pass (the floor)"]
    serial, parallel = corpus["wave-lsp check --jobs 1"], corpus["wave-lsp check --jobs 2"]
    peer = corpus["agnix --target claude-code"]
    rows = [
        ("one-file check CPU ≤ 1.5× `python -I -c pass`", f"×{ours.cpu / floor.cpu:.2f}",
         ours.cpu <= 1.5 * floor.cpu),
        ("  the same against agnix FILE (CPU)", f"×{ours.cpu / one['agnix FILE'].cpu:.2f}",
         ours.cpu <= one["agnix FILE"].cpu),
        ("corpus check CPU ≤ 1.0× agnix (every rule, --jobs 1)", f"×{serial.cpu / peer.cpu:.2f}",
         serial.cpu <= peer.cpu),
        ("--jobs 2 wall ≤ 0.6× --jobs 1 (corpus)", f"×{parallel.wall / serial.wall:.2f} "
         f"(CPU ×{parallel.cpu / serial.cpu:.2f})", parallel.wall <= 0.6 * serial.wall),
    ]
    if 1000 in scale and 10000 in scale:
        small = scale[1000]["wave-lsp check --jobs 1"].rss_mib
        large = scale[10000]["wave-lsp check --jobs 1"].rss_mib
        rows += [("10,000 skills peak RSS ≤ 200 MiB", f"{large:.0f} MiB", large <= 200),
                 ("  ≤ 60 MiB more than at 1,000", f"+{large - small:.0f} MiB",
                  large - small <= 60)]
    for size, figures in scale.items():
        ratio = figures["agnix"].cpu / figures["wave-lsp check --jobs 1"].cpu
        rows.append((f"  {size:,} skills: agnix CPU / ours", f"×{ratio:.2f}", ratio >= 1))
    if 50000 in scale:
        figures = scale[50000]
        ours_large = figures["wave-lsp check --jobs 1"]
        ratio = figures["agnix"].cpu / ours_large.cpu
        rows.append(("50,000 skills ≤ 300 MiB and ≥ 5× cheaper than agnix",
                     f"{ours_large.rss_mib:.0f} MiB, ×{ratio:.1f}",
                     ours_large.rss_mib <= 300 and ratio >= 5))
    edit_p50 = edit_latency()
    rows.append(("edit → diagnostics p50 ≤ 5 ms", f"{edit_p50:.2f} ms", edit_p50 <= 5))
    return rows


#: `wave-lsp ARGUMENTS` run from the checkout at argv[1] (this interpreter, its packages)
FROM_CHECKOUT = ("import sys; root = sys.argv[1]; sys.path.insert(0, root); "
                 "from wave_lsp.cli import main; sys.exit(main(sys.argv[2:]))")


def issue_36(args: argparse.Namespace) -> list[tuple[str, str, bool]]:
    """Issue 36 item 6: the corpus check's CPU here against `--base`'s (ratio ≤ 1.0)."""
    if args.base is None:
        raise SystemExit("--issue 36 needs --base DIR, a checkout of wave-lsp to compare with")
    base = Path(args.base).resolve()
    check = ["check", str(CORPUS), "--no-personal", "--target", "claude-code", "--format", "json",
             "--jobs", "1"]
    at_base = [sys.executable, "-c", FROM_CHECKOUT, str(base), *check]
    here = [sys.executable, "-c", FROM_CHECKOUT, str(ROOT), *check]
    reports = [subprocess.run(command, capture_output=True, check=False).stdout
               for command in (at_base, here)]
    same = reports[0] == reports[1]
    print(f"the JSON reports of {base} and {ROOT}: {'identical' if same else 'DIFFERENT'}")
    figures = interleaved({
        f"wave-lsp check at {base.name}": at_base,
        "wave-lsp check (this checkout)": here,
        "agnix --target claude-code": [agnix(), str(CORPUS), "--target", "claude-code",
                                       "--format", "json", "--max-files", "0"],
        "python -I -c pass (the floor)": [sys.executable, "-I", "-c", "pass"],
    }, args.throughput_rounds)
    count = len(list(CORPUS.rglob("SKILL.md")))
    show(f"the corpus, {count} skills, claude-code, --jobs 1 (median of {args.throughput_rounds} "
         f"interleaved rounds, load {load()}):", figures)
    ours, theirs = figures["wave-lsp check (this checkout)"], figures[f"wave-lsp check at {base.name}"]
    peer = figures["agnix --target claude-code"]
    return [("corpus check CPU ≤ 1.0× --base (no slower)",
             f"×{ours.cpu / theirs.cpu:.3f} ({ours.cpu:.2f} / {theirs.cpu:.2f} s)",
             ours.cpu <= theirs.cpu),
            ("  the same findings as --base", "identical" if same else "different", same),
            ("  against agnix (CPU)", f"×{ours.cpu / peer.cpu:.2f} (base ×"
             f"{theirs.cpu / peer.cpu:.2f})", ours.cpu <= peer.cpu)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--issue", choices=("18", "30", "36", "all"), default="all",
                        help="whose goals to measure (36 only when named, with --base)")
    parser.add_argument("--base", help="a checkout of wave-lsp to compare with (--issue 36)")
    parser.add_argument("--rounds", type=int, default=10, help="one-file and start-up rounds")
    parser.add_argument("--sample", type=int, default=40,
                        help="skills validated one per process by skills-ref's command line")
    parser.add_argument("--throughput-rounds", type=int, default=3,
                        help="interleaved rounds of the throughput runs")
    parser.add_argument("--large", action="store_true", help="also 50,000 skills (slow)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000, 10000],
                        help="generated trees for --issue 30 (none: leave them to "
                             "check_scale.py)")
    args = parser.parse_args()
    if args.issue != "36":
        skills_ref()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average {load()}\n")
    rows = issue_18(args) if args.issue in ("18", "all") else []
    if args.issue in ("30", "all"):
        rows += issue_30(args)
    if args.issue == "36":
        rows += issue_36(args)
    print(f"\ngoals (load average now {load()}):")
    for goal, figure, met in rows:
        print(f"  {goal:<60} {figure:<24} {verdict(met)}")


def issue_18(args: argparse.Namespace) -> list[tuple[str, str, bool]]:
    """Issue 18's measurements and its goal rows (goal, figure, met)."""
    ours, frontmatter, theirs = throughput_in_process(args.throughput_rounds)
    serial, parallel, per_skill_peer, skills = throughput_cli(args.sample)
    mine, peer = one_file(args.rounds)
    bare, wave = start_up(args.rounds)
    edit_p50 = edit_latency()
    scale = [measure(5000)] + ([measure(50000)] if args.large else [])
    for figures in scale:
        print(report(figures))
    in_process_ratio = (theirs["cpu"] / theirs["files"]) / (ours["cpu"] / ours["files"])
    scope_ratio = (theirs["cpu"] / theirs["files"]) / (frontmatter["cpu"] / frontmatter["files"])
    jobs_ratio = (theirs["wall"] / theirs["files"]) / (parallel.wall / skills)
    print(f"  as run in CI: one `wave-lsp check` of the corpus is ×"
          f"{per_skill_peer.wall / (serial.wall / skills):.1f} the throughput of one "
          "`agentskills validate` per skill (interpreter start-up per skill); not a goal figure")
    rows = [
        ("throughput ≥ 2× skills-ref (in process, CPU per skill, every rule)",
         f"×{in_process_ratio:.2f}", in_process_ratio >= 2),
        ("  the same, frontmatter and folder rules only (SK0xx)", f"×{scope_ratio:.2f}",
         scope_ratio >= 2),
        ("≥ 3× with --jobs (check's wall per skill vs validate() loop)", f"×{jobs_ratio:.2f}",
         jobs_ratio >= 3),
        ("one-file check ≤ 1× skills-ref's command line (wall)",
         f"×{mine.wall / peer.wall:.2f} (CPU ×{mine.cpu / peer.cpu:.2f})", mine.wall <= peer.wall),
        ("start-up ≤ 1.1× bare pygls", f"×{wave / bare:.2f}", wave <= 1.1 * bare),
        ("edit → diagnostics p50 ≤ 5 ms", f"{edit_p50:.2f} ms", edit_p50 <= 5),
    ]
    for figures in scale:
        count = int(figures["skills"])
        if count == 5000:
            rows += [
                ("5,000 skills indexed ≤ 1.5 s", f"{figures['indexed_s']:.2f} s",
                 figures["indexed_s"] <= 1.5),
                ("re-index p95 ≤ 5 ms (5,000 skills)", f"{figures['reindex_p95_ms']:.1f} ms",
                 figures["reindex_p95_ms"] <= 5),
                ("RSS ≤ 60 MiB with 5,000 skills indexed", f"{figures['indexed_rss_mib']:.1f} MiB",
                 figures["indexed_rss_mib"] <= 60),
            ]
        else:
            rows += [("50,000 skills indexed ≤ 15 s within 300 MiB",
                      f"{figures['indexed_s']:.1f} s, {figures['peak_rss_mib']:.0f} MiB",
                      figures["indexed_s"] <= 15 and figures["peak_rss_mib"] <= 300)]
    return rows


if __name__ == "__main__":
    main()
