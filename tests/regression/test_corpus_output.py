"""The refactoring guard: `check --format json` on the shared corpus and on `examples/` prints, for
every target, exactly the output recorded in `tests/regression/baseline/` (gzip-compressed).

A behaviour change must show up here as a reviewed diff: run `pytest tests/regression
--update-golden`, look at `git diff --stat` plus the decompressed difference, and say in the commit
why the output changed.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wave_lsp.core.facts.profiles import TARGETS

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus" / "real"
BASELINE = Path(__file__).with_name("baseline")
INPUTS = {"examples": REPO / "examples" / "skills", "corpus": CORPUS}


def _working_folder(source: Path) -> Path:
    """Where `check` runs for one input. `check` prints paths relative to its working folder when the
    file is below it and absolute otherwise, so the corpus (beside the repository, wherever a CI
    machine puts both) is checked from the folder that holds `shared/`: its paths then read
    `shared/corpus/real/...` on every machine."""
    return REPO if source.is_relative_to(REPO) else CORPUS.parents[2]


def _command(target: str, source: Path) -> list[str]:
    return [sys.executable, "-m", "wave_lsp", "check",
            os.path.relpath(source, _working_folder(source)),
            "--target", target, "--format", "json", "--no-personal"]


def _difference(stored: bytes, printed: bytes) -> str:
    """The first findings that differ, so that a failure on a CI machine says what changed."""
    def rows(output: bytes) -> set[str]:
        return {f"{report['path']}:{finding['range']['start']['line']}:{finding['code']}"
                for report in json.loads(output)["files"] for finding in report["findings"]}
    old, new = rows(stored), rows(printed)
    return f"gone {sorted(old - new)[:5]}, new {sorted(new - old)[:5]}"


@pytest.mark.timeout(600)  # about 55 s on two idle cores; generous for a loaded machine
def test_check_output_is_unchanged(tmp_path: Path, update_golden: bool) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "NO_COLOR": "1"}
    runs = {}
    for name, source in INPUTS.items():
        if not source.exists():
            continue
        for target in TARGETS:
            runs[name, target] = subprocess.Popen(
                _command(target, source), cwd=_working_folder(source), env=env,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if ("corpus", "wave") not in runs:
        pytest.skip("the shared corpus is not beside the repository")
    changed = []
    for (name, target), process in runs.items():
        out, err = process.communicate(timeout=580)
        assert process.returncode in (0, 1), err.decode()
        assert not err, err.decode()[:2000]
        stored = BASELINE / f"{name}-{target}.json.gz"
        if update_golden:
            stored.write_bytes(gzip.compress(out, mtime=0))
        elif (recorded := gzip.decompress(stored.read_bytes())) != out:
            changed.append(f"{stored.name} ({_difference(recorded, out)})")
    assert not changed, f"check output changed for {changed}; see the module docstring"
