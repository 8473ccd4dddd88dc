"""Wave's own argument code against wave-lsp's model of it (docs/design/runtime-facts.md §4.3).

Wave is not published to a package registry, so this runs where a clone of its repository is at
hand: `WAVE_AGENT_GIT` names its git directory (default: `netease-lcap+wave-agent/repo` in the
`.mirror` folder beside the project, where the project's tools put fetched repositories). The
file `packages/agent-sdk/src/utils/commandArgumentParser.ts` is read at the commit the facts
cite, transpiled with TypeScript (installed from the npm registry into the oracle's cache) and
run by Node on generated inputs; each result must equal `arguments.split_arguments`,
`fills_placeholder` and `plain_substitution` under the `wave` profile. Skipped, with the
reason, when the clone, Node, npm or the registry is missing. Nothing of Wave's code is stored
in this repository.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.oracle.install import cache_root
from wave_lsp.core.facts.profiles import PROFILES
from wave_lsp.core.invocation.arguments import fills_placeholder, plain_substitution, split_arguments

pytestmark = pytest.mark.slow

#: the Wave commit docs/design/runtime-facts.md §4 was read at
WAVE_COMMIT = "469391bbda8d656393c8fa9d74cd7057b231d1d1"
SOURCE = "packages/agent-sdk/src/utils/commandArgumentParser.ts"
TYPESCRIPT = "typescript@5.6.3"
WAVE = PROFILES["wave"]

#: Node reads one JSON case per line and answers with Wave's three results (`node -e` puts the
#: first argument after `--` at `process.argv[1]`)
RUNNER = """
const lines = require("fs").readFileSync(0, "utf8").split("\\n").filter(Boolean);
const wave = require(process.argv[1]);
for (const line of lines) {
  const [content, args] = JSON.parse(line);
  console.log(JSON.stringify([wave.parseCommandArguments(args),
    wave.hasParameterPlaceholders(content), wave.substituteCommandParameters(content, args)]));
}
"""
TRANSPILE = """
const ts = require(process.argv[1]);
const source = require("fs").readFileSync(0, "utf8");
process.stdout.write(ts.transpileModule(source, {compilerOptions: {module: "commonjs",
  target: "es2022"}}).outputText);
"""


def _git_dir() -> Path:
    explicit = os.environ.get("WAVE_AGENT_GIT")
    if explicit:
        return Path(explicit)
    return Path(__file__).resolve().parents[3] / ".mirror" / "netease-lcap+wave-agent" / "repo"


@pytest.fixture(scope="module")
def wave_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wave's parser, transpiled to a CommonJS module in a temporary folder."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node and npm are needed to run Wave's code")
    git = _git_dir()
    shown = subprocess.run(["git", "--git-dir", str(git), "show", f"{WAVE_COMMIT}:{SOURCE}"],
                           capture_output=True, text=True, check=False)
    if shown.returncode != 0:
        pytest.skip(f"no clone of Wave at {WAVE_COMMIT[:8]} in {git} (set WAVE_AGENT_GIT)")
    typescript = cache_root() / "typescript"
    if not (typescript / "node_modules" / "typescript").exists():
        installed = subprocess.run([npm, "install", "--prefix", str(typescript), "--no-audit",
                                    "--no-fund", TYPESCRIPT], capture_output=True, text=True,
                                   check=False, timeout=300)
        if installed.returncode != 0:
            pytest.skip(f"npm install {TYPESCRIPT} failed: {installed.stderr.strip()[-300:]}")
    folder = tmp_path_factory.mktemp("wave")
    javascript = subprocess.run(
        [node, "-e", TRANSPILE, "--", str(typescript / "node_modules" / "typescript")],
        input=shown.stdout, capture_output=True, text=True, check=True, timeout=120).stdout
    module = folder / "commandArgumentParser.js"
    module.write_text(javascript, "utf-8")
    return module


def _wave(module: Path, cases: list[tuple[str, str]]) -> list[list[object]]:
    node = shutil.which("node")
    assert node is not None
    lines = "".join(json.dumps(case) + "\n" for case in cases)
    done = subprocess.run([node, "-e", RUNNER, "--", str(module)], input=lines,
                          capture_output=True, text=True, check=True, timeout=60)
    return [json.loads(line) for line in done.stdout.splitlines()]


def _ours(content: str, args: str) -> list[object]:
    words = split_arguments(args, WAVE)
    found = fills_placeholder(content, words, [], WAVE)
    if not found:  # Wave appends the arguments; that half is the preview's (test_preview.py)
        return [words, found, None]
    return [words, found, plain_substitution(content, args, words, WAVE.argument_base)]


#: the characters that matter to Wave's parser and substitution, and a few others
_PIECES = st.sampled_from(["$", "$1", "$2", "$10", "$0", "$ARGUMENTS", "$ARGUMENTS[1]", "\\", "\\$1",
                           '"', "'", " ", "\t", "\n", "a", "b c", "$$", "$&", "$`", "$'", "K", "[",
                           "]", "{", "}", "é", "😀", "$name", "0", "9"])
_TEXT = st.lists(_PIECES, max_size=12).map("".join)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(_TEXT, _TEXT), min_size=1, max_size=40))
def test_wave_s_parser_and_substitution_agree(wave_module: Path,
                                              cases: list[tuple[str, str]]) -> None:
    for case, theirs in zip(cases, _wave(wave_module, cases), strict=True):
        mine = _ours(*case)
        if mine[2] is None:  # no placeholder: compare the words and the decision only
            theirs = [theirs[0], theirs[1], None]
        assert mine == theirs, case


@pytest.mark.parametrize(("content", "args"), [
    ("First $1 and cost $250K and \\$2 here.", ""),
    ("$ARGUMENTS[0] and $10 before $1", "a b c d e f g h i j"),
    ("<$ARGUMENTS> $2 $1", "$`|$' $1"),
    ("Use $ARGUMENTS", '"a \\" b" \'c\\\\d\' "" e\\f'),
])
def test_the_cases_the_facts_quote(wave_module: Path, content: str, args: str) -> None:
    (theirs,) = _wave(wave_module, [(content, args)])
    assert _ours(content, args) == theirs
