"""`wave-lsp check --jobs N`: the output is the same, byte for byte and in the same order, whether
the files are checked in one process or in several (docs/design/product.md *Command line*), and the
workspace rules of a worker still see every skill of the project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import wave_lsp.api as api
from wave_lsp.api import worker_count
from wave_lsp.cli import main
from wave_lsp.core.checking.config import Settings

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ("text", "json", "sarif", "github")
#: long enough that 50 descriptions overflow the listing budget (SK131 speaks)
LONG = "Turns meeting notes into a summary with owners and dates. " * 8


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_skill(root: Path, rel: str, name: str, description: str = LONG, body: str = "") -> None:
    path = root / rel / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}Use when asked.\n---\n"
                    f"# {name}\n{body}", "utf-8")


def fifty_skills(root: Path) -> None:
    """30 project skills of `.wave/skills`, 20 of `.claude/skills` with the names of the first 20
    (collisions across roots), a few broken ones, references, an injection and a binary file in a
    skill folder (reported under its own path)."""
    (root / ".git").mkdir(parents=True)
    for index in range(30):
        description = "Use when: asked\n" if index % 7 == 3 else LONG
        body = "See [the guide](references/guide.md).\n" if index % 5 == 0 else ""
        if index == 11:
            body = "Branch: !`git branch --show-current`\n"
        write_skill(root, f".wave/skills/s{index:02d}", f"s{index:02d}", description, body)
    for index in range(20):
        write_skill(root, f".claude/skills/s{index:02d}", f"s{index:02d}")
    (root / ".wave/skills/s01/assets").mkdir()
    (root / ".wave/skills/s01/assets/x.bin").write_bytes(b"\x00\x01")  # findings of its own


@pytest.mark.parametrize("fmt", FORMATS)
def test_examples_give_the_same_output_with_one_or_two_jobs(fmt: str, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    serial = run(capsys, "examples/skills", "--no-personal", "--format", fmt, "--jobs", "1")
    parallel = run(capsys, "examples/skills", "--no-personal", "--format", fmt, "--jobs", "2")
    assert parallel == serial
    assert serial[1].strip()


@pytest.mark.parametrize("target", ["wave", "claude-code"])
def test_fifty_skills_with_collisions_give_the_same_output(target: str, tmp_path: Path, capsys,
                                                            monkeypatch) -> None:
    fifty_skills(tmp_path)
    monkeypatch.chdir(tmp_path)
    for fmt in ("text", "json"):
        serial = run(capsys, ".", "--no-personal", "--target", target, "--format", fmt, "-j", "1")
        parallel = run(capsys, ".", "--no-personal", "--target", target, "--format", fmt,
                       "-j", "2")
        assert parallel == serial
    _, out, _ = parallel
    # the workspace rules of the workers saw every description and (wave) the other root
    assert "SK131" in out
    assert ("SK130" in out) == (target == "wave")  # claude-code does not read `.wave/skills`
    # …so its rules say nothing of those files, a resource's included: one SK002 each
    assert (".wave/skills/s01/assets/x.bin" in out) == (target == "wave")
    assert ("Not discovered by Claude Code" in out) == (target == "claude-code")


PIDS: list[Path] = []  #: where the recording check below writes (set before the workers fork)
UNPATCHED = api._Worker.check


def recording_check(path: Path) -> api.FileReport:
    """`_Worker.check`, noting which process ran it (module level: the pool pickles it by name)."""
    with PIDS[0].open("a", encoding="utf-8") as log:
        log.write(f"{os.getpid()}\n")
    return UNPATCHED(path)


def test_jobs_2_checks_in_other_processes(tmp_path: Path, monkeypatch) -> None:
    fifty_skills(tmp_path / "project")
    files = sorted((tmp_path / "project").glob(".*/skills/*/SKILL.md"))
    PIDS[:] = [tmp_path / "pids.txt"]
    monkeypatch.setattr(api._Worker, "check", staticmethod(recording_check))
    settings = Settings(personal=False)
    try:
        parallel = api.check_files(files, settings, jobs=2)
    finally:
        PIDS.clear()
    pids = set((tmp_path / "pids.txt").read_text("utf-8").split())
    assert pids and str(os.getpid()) not in pids
    serial = api.check_files(files, settings, jobs=1)
    assert [r.path for r in parallel] == files
    assert [(r.path, r.skill, r.findings) for r in parallel] == \
        [(r.path, r.skill, r.findings) for r in serial]


@pytest.mark.parametrize(("jobs", "files", "expected"), [
    (1, 1000, 1),       # serial when asked
    (2, 1000, 2),
    (4, 3, 3),          # never more workers than files
    (3, 0, 1),
    (None, 1, 1),       # the default is this process, whatever the size of the run
    (None, 100_000, 1),
])
def test_worker_count(jobs: int | None, files: int, expected: int) -> None:
    assert worker_count(jobs, files) == expected


def test_jobs_below_one_is_an_error() -> None:
    """The default became one process (issue 30: two workers did not pay on two cores)."""
    with pytest.raises(ValueError):
        worker_count(0, 10)


@pytest.mark.parametrize(("value", "message"), [
    ("0", "must be at least 1"),
    ("-2", "must be at least 1"),
    ("two", "expected a whole number of processes, got 'two'"),
    ("1.5", "expected a whole number"),
])
def test_jobs_is_validated(value: str, message: str, capsys) -> None:
    with pytest.raises(SystemExit) as usage:
        main(["check", "--jobs", value, "."])
    assert usage.value.code == 2
    assert message in capsys.readouterr().err
