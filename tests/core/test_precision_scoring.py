"""How `benchmarks/precision/labelled.py` scores labelled-2 (issue 27): findings matched to labels
by (code, path, line) with one shift per (code, path), the message deciding within a line, the
missed problems counted as true once reported, and recall over TP labels plus missed problems."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def scoring():
    spec = importlib.util.spec_from_file_location(
        "labelled_scoring", ROOT / "benchmarks" / "precision" / "labelled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_consistent_shift_and_the_message_decide(scoring, monkeypatch) -> None:
    Found, Label = scoring.Found, scoring.Label
    monkeypatch.setattr(scoring, "read_missed", lambda: [("a/SKILL.md", 40, "an @ file")])
    labels = [Label("SK112", "a/SKILL.md", 11, "TP", "", "x missing"),
              Label("SK112", "a/SKILL.md", 11, "FP", "", "y missing"),
              Label("SK112", "a/SKILL.md", 21, "FP", "", "z missing")]
    found = [Found("SK112", "a/SKILL.md", 10, 1, "warning", "y missing"),   # shifted by +1
             Found("SK112", "a/SKILL.md", 10, 9, "warning", "x missing"),
             Found("SK112", "a/SKILL.md", 20, 1, "warning", "z missing"),
             Found("SK150", "a/SKILL.md", 41, 1, "warning", "@ file"),      # a missed problem
             Found("SK150", "a/SKILL.md", 60, 1, "warning", "elsewhere"),   # unlabelled
             Found("SK112", "a/SKILL.md", 30, 1, "information", "quiet")]   # not scored
    matched = scoring.match(found, labels)
    assert {(f.line, f.message): matched[f].verdict for f in matched} == {
        (10, "y missing"): "FP", (10, "x missing"): "TP", (20, "z missing"): "FP",
        (41, "@ file"): "TP"}
    table = "\n".join(scoring.table(found, matched))
    assert "| ALL | 0 | 5 | 2 | 2 | 0 | 0 | 1 | 40 % |" in table


def test_recall_counts_any_code_on_the_line_and_splits_by_severity(scoring) -> None:
    Found, Label = scoring.Found, scoring.Label
    labels = [Label("SK112", "a/SKILL.md", 5, "TP", "", "m"),
              Label("SK116", "a/SKILL.md", 9, "TP", "", "m"),
              Label("SK113", "a/SKILL.md", 12, "FP", "", "m")]
    found = [Found("SK112", "a/SKILL.md", 5, 1, "information", "m"),
             Found("SK115", "a/SKILL.md", 8, 1, "warning", "m")]  # ±1, another code
    scored = scoring.recall(found, labels, [("a/SKILL.md", 30, "gone")], {"a/SKILL.md"})
    assert (scored.problems, scored.strong, scored.weak) == (3, 1, 2)
    assert [line.split("\t")[0] for line in scored.lost] == ["a/SKILL.md:5", "a/SKILL.md:30"]
    assert (scored.left_out, scored.left_out_files) == (0, 0)


def test_recall_leaves_out_the_true_problems_of_files_the_run_did_not_check(scoring) -> None:
    """The labeller judged other files of the clones too: their true problems cannot be found by
    a run that checks only the corpus files, so they are left out and counted, not lost."""
    Found, Label = scoring.Found, scoring.Label
    labels = [Label("SK112", "a/SKILL.md", 5, "TP", "", "m"),
              Label("SK112", "b/SKILL.md", 5, "TP", "", "m"),
              Label("SK113", "b/SKILL.md", 9, "TP", "", "m"),
              Label("SK113", "c/SKILL.md", 2, "FP", "", "m")]
    found = [Found("SK112", "a/SKILL.md", 5, 1, "warning", "m")]
    scored = scoring.recall(found, labels, [("d/SKILL.md", 3, "gone"), ("a/SKILL.md", 7, "x")],
                            {"a/SKILL.md", "c/SKILL.md"})
    assert (scored.problems, scored.strong, scored.weak) == (2, 1, 1)
    assert [line.split("\t")[0] for line in scored.lost] == ["a/SKILL.md:7"]
    assert (scored.left_out, scored.left_out_files) == (3, 2)


def test_every_file_names_the_other_skill_files_as_the_labeller_does(
        scoring, tmp_path: Path, monkeypatch) -> None:
    """`--every-file` checks every skill file of a clone, each named `<owner>__<repo>/<path in
    the repository>` without resolving a linked folder (`.agents/skills` -> `skills`), so that
    the labeller's Part 2b labels meet their findings; the labelled files keep their corpus
    paths."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "SOURCES.tsv").write_text(
        "corpus_path\trepo\tcommit\tpath_in_repo\n"
        "o__r/skills/a/SKILL.md\to/r\tabc\tskills/a/SKILL.md\n", "utf-8")
    monkeypatch.setattr(scoring, "CORPUS", corpus)
    clone = tmp_path / "clones" / "o__r"
    text = "---\nname: {}\ndescription: Does x. Use when asked.\n---\nBody.\n"
    for name in ("a", "b"):
        (clone / "skills" / name).mkdir(parents=True)
        (clone / "skills" / name / "SKILL.md").write_text(text.format(name), "utf-8")
    (clone / ".agents").mkdir()
    (clone / ".agents" / "skills").symlink_to(clone / "skills", target_is_directory=True)
    (clone / ".git").mkdir()
    _, labelled_only = scoring.collect_clones(tmp_path / "clones")
    assert labelled_only == {"o__r/skills/a/SKILL.md"}
    _, every = scoring.collect_clones(tmp_path / "clones", every_file=True)
    # discovery meets each file through the linked folder first; the names stay unresolved,
    # and the labelled file keeps its corpus path as well (the labeller names both)
    assert every == {"o__r/skills/a/SKILL.md", "o__r/.agents/skills/a/SKILL.md",
                     "o__r/.agents/skills/b/SKILL.md"}
