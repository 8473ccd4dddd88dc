"""The reports of `check` are streamed (docs/design/product.md): each file's
report is written as it comes and let go, the JSON and SARIF documents are byte for byte the
documents built whole (`to_json`, `to_sarif`, which the MCP server returns), and the output goes
out through one buffer, one `write` for a small run whatever the stream's own buffering."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from wave_lsp.api import check_files, load_settings
from wave_lsp.core.checking.checker import FileReport, split_by_file
from wave_lsp.output import ReportWriter, summary, to_json, to_sarif, write

GOOD = "---\nname: {name}\ndescription: Does X. Use when asked.\n---\n# Body\n"
BROKEN = "---\nname: {name}\ndescription: Use when: asked\n---\nSee [the guide](guide.md).\n"
ODD = "---\nname: {name}\ndescription: >\n  Does Y. Use when asked about \"ü\".\nfoo: 1\n---\n"

#: the trees checked: SKILL.md path -> text; `.claude/skills` and `.agents/skills` give files of
#: other targets when no target is configured
TREES = {
    "none": {},
    "no findings": {"a/SKILL.md": GOOD},
    "findings in several files": {"a/SKILL.md": BROKEN, "b/SKILL.md": ODD, "c/SKILL.md": GOOD},
    "several targets": {".claude/skills/a/SKILL.md": BROKEN, ".agents/skills/b/SKILL.md": ODD,
                        "c/SKILL.md": BROKEN},
    "one other target": {".claude/skills/a/SKILL.md": ODD, ".claude/skills/b/SKILL.md": GOOD},
}


def reports_of(root: Path, files: dict[str, str], target: str | None) -> list[FileReport]:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(name=path.parent.name), "utf-8")
    settings = load_settings(root, target=target, personal=False)
    paths = sorted(root / relative for relative in files)
    return split_by_file(check_files(paths, settings))


def streamed(reports: list[FileReport], fmt: str, target: str, per_file: bool) -> str:
    out = io.StringIO()
    write(iter(reports), fmt, target, out, per_file)
    return out.getvalue()


@pytest.mark.parametrize("target", [None, "claude-code"])
@pytest.mark.parametrize("tree", TREES)
def test_the_streamed_documents_are_the_documents_built_whole(
        tree: str, target: str | None, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    reports = reports_of(tmp_path, TREES[tree], target)
    shown_target, per_file = target or "wave", target is None
    whole_json = json.dumps(to_json(reports, shown_target, per_file=per_file), indent=2,
                            ensure_ascii=False) + "\n"
    whole_sarif = json.dumps(to_sarif(reports, shown_target), indent=2,
                             ensure_ascii=False) + "\n"
    assert streamed(reports, "json", shown_target, per_file) == whole_json
    assert streamed(reports, "sarif", shown_target, per_file) == whole_sarif
    if tree == "findings in several files":  # the premise: several codes, so rule indexes
        assert len({r["ruleIndex"] for r in json.loads(whole_sarif)["runs"][0]["results"]}) > 2


@pytest.mark.parametrize("tree", TREES)
def test_the_totals_are_the_summary_of_every_report(tree: str, tmp_path: Path,
                                                    monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    reports = reports_of(tmp_path, TREES[tree], None)
    for fmt in ("text", "json", "sarif", "github"):
        totals = write(iter(reports), fmt, "wave", io.StringIO(), per_file=True)
        assert totals.summary() == summary(reports)


class CountingStream(io.StringIO):
    """A stream that counts the calls that reach it (an unbuffered stdout, `PYTHONUNBUFFERED`,
    makes one system call of each)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
@pytest.mark.parametrize("per_file", [False, True])
def test_a_small_run_is_one_write(fmt: str, per_file: bool, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    reports = reports_of(tmp_path, TREES["findings in several files"], None)
    out = CountingStream()
    write(iter(reports), fmt, "wave", out, per_file)
    assert out.writes == 1
    assert out.getvalue().count("\n") >= 4  # several findings and the summary in that write


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_each_report_is_written_before_the_next_is_asked_for(fmt: str, tmp_path: Path,
                                                             monkeypatch) -> None:
    """With a buffer of one character, the output grows with each report: nothing waits for
    the end (SARIF and a JSON document without a configured target wait in a temporary file)."""
    monkeypatch.chdir(tmp_path)
    reports = reports_of(tmp_path, TREES["findings in several files"], "wave")
    out = io.StringIO()
    written: list[int] = []

    def one_by_one() -> Iterator[FileReport]:
        for report in reports:
            written.append(len(out.getvalue()))
            yield report

    writer = ReportWriter(fmt, "wave", out, buffer_chars=1)
    for report in one_by_one():
        writer.add(report)
    writer.close()
    written.append(len(out.getvalue()))
    assert written == sorted(written) and len(set(written[1:])) == len(written) - 1
