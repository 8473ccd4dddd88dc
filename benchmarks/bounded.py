"""How long the pathological inputs of issue 35 item 3 (*Bounded everywhere*) take now: a wildcard
rule of 50 stars against commands it almost matches (the regex it replaced backtracked for minutes
on 60 characters), the same through the permission engine, a glob under a folder with three links
to itself (`*/` forty times), a 64-level and a 100,000-level nested pyproject, and a `.gitignore`
of many stars (`*a*a*a*a*a*a*a*b`, which pathspec's regex took 9 s on against a 40-`a` folder name)
matched directly and through `wave-lsp check`'s walk; and the ordinary case the linear matcher must
not slow down: an 80-line Python/Node `.gitignore` against 1,000 paths (beside pathspec, when it is
installed) and `check`'s walk of 1,000 generated skills under it. Numbers only: no
target is asserted (tests assert answers, not time).

Run: `python benchmarks/bounded.py [--rounds 5]`. Prints the best and median time per case.
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

from skills_tree import make_tree

from wave_lsp.core.checking.config import SettingsError, load_pyproject
from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.core.permissions.globbing import bounded_glob
from wave_lsp.core.permissions.guard import StrictEngine as PermissionEngine
from wave_lsp.core.permissions.rules import make_rule
from wave_lsp.core.permissions.wildcard import matches, parse_wildcard
from wave_lsp.core.workspace.discovery import find_skill_files
from wave_lsp.core.workspace.gitignore import GitIgnore

FIFTY = "echo " + "*a" * 50 + "*b"


def wildcard_cases() -> dict[str, Callable[[], object]]:
    pattern = parse_wildcard(FIFTY)
    cases: dict[str, Callable[[], object]] = {}
    for gap in (0, 20, 2_000):
        # 49 `a`s where the rule needs 50, spread out, ending in `b`: a miss found at the end
        command = "echo " + ("x" * gap + "a") * 49 + "x" * gap + "b"
        cases[f"50 stars, {len(command):,}-char miss"] = lambda c=command: matches(pattern, c)
    cases["50 stars, 100,000-char match"] = lambda: matches(pattern, "echo " + "a" * 100_000 + "b")
    # str.find's worst case under CPython's 2,500-character threshold (a needle that matches 300
    # characters at every alignment before failing)
    needle = "a" * 300 + "b" + "a" * 299
    hard = parse_wildcard("*" + needle + "*c")
    cases["str.find worst case, 2,401-char miss"] = lambda: matches(hard, "a" * 2_400 + "c")
    engine = PermissionEngine([make_rule(f"Bash({FIFTY})", "deny", "user settings"),
                               make_rule(f"Bash({FIFTY})", "allow", "allowed-tools")],
                              profile=CLAUDE_CODE)
    engine.check("warm up")
    cases["engine: 50-star deny+allow, 300-char command"] = lambda: engine.check(
        "echo " + "a" * 300)
    return cases


def gitignore_cases() -> dict[str, Callable[[], object]]:
    """Each case parses its line again: a `GitIgnore` remembers what a segment matched, and
    these cases time the first match."""
    cases: dict[str, Callable[[], object]] = {}
    for stars in (7, 30, 100):
        line = "*a" * stars + "*b"
        for length in (40, 255):
            name = "a" * length + "/"
            cases[f".gitignore {stars} stars, {length}-a folder"] = (
                lambda s=line, n=name: GitIgnore.from_lines([s]).match_file(n))
        near = "xa" * (stars - 1) + "b"  # one `a` short, found at the end of the name
        cases[f".gitignore {stars} stars, {len(near)}-char near miss"] = (
            lambda s=line, n=near: GitIgnore.from_lines([s]).match_file(n))
    deep = "**/" + "a*/**/" * 20 + "b"
    path = "/".join(["a" * 20] * 60)
    cases[".gitignore 20 ** runs, 60-level miss"] = (
        lambda: GitIgnore.from_lines([deep]).match_file(path))
    return cases


#: the usual lines of GitHub's Python and Node .gitignore templates (80 patterns)
ORDINARY_GITIGNORE = """\
__pycache__/
*.py[cod]
*$py.class
*.so
.Python
build/
dist/
eggs/
.eggs/
lib/
lib64/
parts/
sdist/
var/
wheels/
*.egg-info/
*.egg
MANIFEST
*.manifest
*.spec
pip-log.txt
htmlcov/
.tox/
.nox/
.coverage
.coverage.*
.cache
coverage.xml
*.cover
.hypothesis/
.pytest_cache/
cover/
*.mo
*.pot
*.log
local_settings.py
db.sqlite3
instance/
docs/_build/
target/
.ipynb_checkpoints
__pypackages__/
.env
.venv
env/
venv/
ENV/
.mypy_cache/
dmypy.json
.pyre/
.pytype/
cython_debug/
logs
npm-debug.log*
yarn-debug.log*
yarn-error.log*
lerna-debug.log*
.pnpm-debug.log*
report.[0-9]*.[0-9]*.[0-9]*.[0-9]*.json
pids
*.pid
*.seed
*.pid.lock
lib-cov
coverage
*.lcov
.nyc_output
.grunt
bower_components
.lock-wscript
build/Release
node_modules/
jspm_packages/
web_modules/
*.tsbuildinfo
.npm
.eslintcache
.stylelintcache
.yarn-integrity
.parcel-cache
"""


def ordinary_cases(folder: Path) -> dict[str, Callable[[], object]]:
    """The file is parsed in every round (as `check` does once per run): a `GitIgnore`
    remembers the segments it has seen."""
    lines = ORDINARY_GITIGNORE.splitlines()
    paths = [f"src/pkg{i % 10}/module_{i}.{('py', 'md', 'json', 'txt')[i % 4]}"
             for i in range(1_000)]

    def ours() -> object:
        spec = GitIgnore.from_lines(lines)
        return [spec.match_file(p) for p in paths]

    cases: dict[str, Callable[[], object]] = {"80-line .gitignore, 1,000 paths": ours}
    try:
        import pathspec
    except ImportError:
        pass
    else:
        def theirs() -> object:
            reference = pathspec.GitIgnoreSpec.from_lines(lines)
            return [reference.match_file(p) for p in paths]

        cases["  the same with pathspec"] = theirs
    tree = folder / "ordinary"
    make_tree(tree, 1_000)
    (tree / ".gitignore").write_text("\n".join(lines) + "\n", "utf-8")
    bare = folder / "bare"
    make_tree(bare, 1_000)
    cases["walk of 1,000 skills, 80-line .gitignore"] = lambda: list(find_skill_files([tree]))
    cases["  the same walk without .gitignore"] = lambda: list(find_skill_files([bare]))
    return cases


def disk_cases(folder: Path) -> dict[str, Callable[[], object]]:
    loop = folder / "loop"
    loop.mkdir()
    for name in ("self", "me", "here"):
        os.symlink(".", loop / name)
    (loop / "x").write_text("x\n", "utf-8")
    shallow, deep, huge = folder / "p64", folder / "pdeep", folder / "parray"
    for path in (shallow, deep, huge):
        path.mkdir()
    (shallow / "pyproject.toml").write_text(
        "[tool.wave-lsp]\n[tool.wave-lsp." + ".".join(["a"] * 64) + "]\nx = "
        + "{a = " * 64 + "1" + "}" * 64 + "\n", "utf-8")
    (huge / "pyproject.toml").write_text(
        "[tool.wave-lsp]\ntarget = " + "[" * 100_000 + "]" * 100_000 + "\n", "utf-8")

    def refused(path: Path) -> object:
        try:
            return load_pyproject(path)
        except SettingsError as error:
            return error

    ignored = folder / "ignored"
    (ignored / ("a" * 40) / "s").mkdir(parents=True)
    (ignored / ("a" * 40) / "s" / "SKILL.md").write_text("---\nname: s\n---\n", "utf-8")
    (ignored / ".gitignore").write_text("*a" * 30 + "*b\n", "utf-8")
    return {"glob */ x40 under 3 self-links": lambda: bounded_glob("*/" * 40 + "x", loop),
            ".gitignore check walk, 30 stars, 40-a folder": lambda: list(
                find_skill_files([ignored])),
            "pyproject 64 levels": lambda: load_pyproject(shallow),
            "pyproject 100,000-deep array (error)": lambda: refused(huge)}


def timed(case: Callable[[], object], rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        begin = time.perf_counter()
        case()
        times.append((time.perf_counter() - begin) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cases = {**wildcard_cases(), **gitignore_cases(), **disk_cases(Path(folder)),
                 **ordinary_cases(Path(folder))}
        print(f"{args.rounds} rounds; ms per case (best / median)")
        for label, case in cases.items():
            times = timed(case, args.rounds)
            print(f"  {label:48} {min(times):9.3f} / {statistics.median(times):9.3f}")


if __name__ == "__main__":
    main()
