"""Bad input gets findings, never a traceback (issue: core, *Bad input*), with exact positions.

No test here measures time: a test that proves "does not hang" has a pytest timeout of at least 10x
what the case takes on a loaded two-core machine; `benchmarks/bad_input.py` prints the figures.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.engine import check_document
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.text import Position
from wave_lsp.core.workspace.location import locate

VALID = "---\nname: my-skill\ndescription: Does things. Use when asked.\n---\n"


def check_bytes(tmp_path: Path, data: bytes, relpath: str = "my-skill/SKILL.md"):
    path = tmp_path / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return check_file(path, Settings(home=tmp_path / "home"), strict=True)


def codes(report) -> list[str]:
    return [f.code for f in report.findings]


def test_invalid_utf8_reports_first_bad_byte(tmp_path) -> None:
    data = VALID.encode() + "# Café ".encode() + b"\xff\xfe tail\n"
    report = check_bytes(tmp_path, data)
    (finding,) = [f for f in report.findings if f.code == "SK003"]
    assert finding.range.start == Position(4, 7)
    assert f"Byte {len(VALID.encode()) + len('# Café '.encode())}" in finding.message
    assert finding.severity.label == "error"


def test_invalid_utf8_under_claude_code_is_a_warning_that_says_what_it_does(tmp_path) -> None:
    """Claude Code 2.1.332 loads the file and shows the bad byte as U+FFFD (probe fm-invalid-utf8)."""
    from wave_lsp.core.facts.profiles import CLAUDE_CODE

    path = tmp_path / "my-skill/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(VALID.encode() + b"Caf\xe9\n")
    report = check_file(path, Settings(profile=CLAUDE_CODE, home=tmp_path / "home"), strict=True)
    (finding,) = [f for f in report.findings if f.code == "SK003"]
    assert finding.severity.label == "warning"
    assert "Claude Code loads it but shows each bad byte as U+FFFD" in finding.message
    assert finding.range.start == Position(4, 3)


def test_empty_file(tmp_path) -> None:
    assert codes(check_bytes(tmp_path, b"")) == ["SK005"]


def test_only_dashes(tmp_path) -> None:
    report = check_bytes(tmp_path, b"---\n")
    assert codes(report) == ["SK006"]


def test_empty_frontmatter(tmp_path) -> None:
    assert "SK009" in codes(check_bytes(tmp_path, b"---\n---\n"))


def test_binary_data(tmp_path) -> None:
    report = check_bytes(tmp_path, bytes(range(256)) * 4)
    assert "SK003" in codes(report)


def test_directory_named_skill_md(tmp_path) -> None:
    folder = tmp_path / "my-skill" / "SKILL.md"
    folder.mkdir(parents=True)
    report = check_file(folder, Settings(), strict=True)
    assert [(f.code, "directory" in f.message) for f in report.findings] == [("SK003", True)]
    assert report.findings[0].message == ("`SKILL.md` is a directory, not a file: check the path, "
                                          "and that it is a readable regular file.")


@pytest.mark.timeout(10)  # opening a FIFO would block forever; the check takes < 20 ms
def test_fifo_is_never_opened(tmp_path) -> None:
    fifo = tmp_path / "my-skill" / "SKILL.md"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    report = check_file(fifo, Settings(), strict=True)
    assert "FIFO" in report.findings[0].message


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(tmp_path) -> None:
    path = tmp_path / "my-skill" / "SKILL.md"
    path.parent.mkdir()
    path.write_text(VALID)
    path.chmod(0)
    report = check_file(path, Settings(), strict=True)
    assert "permission denied" in report.findings[0].message


def test_unreadable_file_reason_is_reported(monkeypatch, tmp_path) -> None:
    """Also as root: an open() that fails with EACCES becomes a finding."""
    path = tmp_path / "my-skill" / "SKILL.md"
    path.parent.mkdir()
    path.write_text(VALID)

    def deny(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("builtins.open", deny)
    report = check_file(path, Settings(), strict=True)
    assert [f.code for f in report.findings] == ["SK003"]
    assert "permission denied" in report.findings[0].message


@pytest.mark.timeout(10)  # expanded, the bomb would not finish; rejected it takes < 0.2 s
def test_alias_bomb_is_rejected_without_expansion(tmp_path) -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        previous, name = chr(96 + i), chr(97 + i)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    text = "---\nname: my-skill\ndescription: Bomb. Use when asked.\n" + "\n".join(lines) + "\n---\n"
    report = run(tmp_path, text)
    assert "SK023" in codes(report)


@pytest.mark.timeout(10)  # the check takes < 0.1 s
def test_ten_thousand_nested_levels(tmp_path) -> None:
    text = "---\nname: my-skill\ndescription: Deep.\nx: " + "[" * 10_000 + "]" * 10_000 + "\n---\n"
    report = run(tmp_path, text)
    (finding,) = [f for f in report.findings if f.code == "SK020"]
    assert "levels deep" in finding.message
    assert finding.range.start == Position(3, 103)


def test_deep_block_nesting(tmp_path) -> None:
    nested = "".join(" " * i + f"k{i}:\n" for i in range(150))
    report = run(tmp_path, "---\nname: my-skill\ndescription: Deep.\n" + nested + "---\n")
    assert any("levels deep" in f.message for f in report.findings)


@pytest.mark.timeout(30)  # writing the 50 MB input and the check: < 1 s idle, 2 s loaded
def test_ten_thousand_nested_block_levels(tmp_path) -> None:
    """10,000 indented levels are ~50 MB of indentation: refused before parsing."""
    nested = "".join(" " * i + f"k{i}:\n" for i in range(10_000))
    report = run(tmp_path, "---\nname: my-skill\ndescription: Deep.\n" + nested + "---\n")
    assert report.findings and report.findings[0].severity.label == "error"


@pytest.mark.timeout(60)  # < 1 s idle, up to 6 s on a loaded two-core machine
def test_ten_megabyte_file(tmp_path) -> None:
    body = ("A line of body text that goes on for a while. " * 2 + "\n") * 110_000
    report = run(tmp_path, VALID + body)
    assert {"SK110", "SK111"} <= set(codes(report))


@pytest.mark.timeout(60)  # about 1.5 s idle, up to 5 s on a loaded two-core machine
def test_ten_megabyte_frontmatter(tmp_path) -> None:
    big = "description: >-\n" + "  folded text line\n" * 600_000
    report = run(tmp_path, "---\nname: my-skill\n" + big + "---\n")
    assert any("not parsed" in f.message for f in report.findings)


def test_nul_bytes(tmp_path) -> None:
    report = check_bytes(tmp_path, b"---\nname: my-skill\ndescription: a\x00b\n---\n")
    assert "SK020" in codes(report)


def test_crlf_positions(tmp_path) -> None:
    text = "---\r\nname: My_Skill\r\ndescription: x\r\n---\r\n"
    report = run(tmp_path, text, relpath="My_Skill/SKILL.md")
    (finding,) = [f for f in report.findings if f.code == "SK037"]
    assert (finding.range.start, finding.range.end) == (Position(1, 6), Position(1, 14))


def test_non_ascii_positions(tmp_path) -> None:
    text = "---\nname: my-skill\ndescription: 提取文本😀 when: x\n---\n"
    report = run(tmp_path, text)
    (finding,) = [f for f in report.findings if f.code == "SK021"]
    assert finding.range.start == Position(2, 13)
    assert finding.range.end == Position(2, 13 + len("提取文本😀 when: x"))


def test_tabs_before_a_finding(tmp_path) -> None:
    text = "---\nname: my-skill\ndescription:\tTabs\there. Use when asked.\nflag:\t«x»\n---\n"
    report = run(tmp_path, text.replace("«", "").replace("»", ""))
    (finding,) = [f for f in report.findings if f.code == "SK070"]
    assert finding.range.start == Position(3, 0)


def test_bom_positions_do_not_count_the_mark(tmp_path) -> None:
    text = "\ufeff---\nname: My-Skill\ndescription: x. Use when asked.\n---\n"
    report = run(tmp_path, text, relpath="My-Skill/SKILL.md")
    assert {"SK004", "SK034"} <= set(codes(report))
    (finding,) = [f for f in report.findings if f.code == "SK034"]
    assert finding.range.start == Position(1, 6)


def test_lone_cr_line_endings(tmp_path) -> None:
    report = run(tmp_path, "---\rname: My-Skill\rdescription: x\r---\r", relpath="My-Skill/SKILL.md")
    (finding,) = [f for f in report.findings if f.code == "SK034"]
    assert finding.range.start == Position(1, 6)


def test_unsaved_document_without_path() -> None:
    document = SkillDocument.from_text(VALID)
    assert check_document(document, locate(None), strict=True) == []


def test_a_failing_rule_is_logged_and_the_others_still_report(monkeypatch, caplog) -> None:
    """A bug in one rule costs its findings only (non-strict); the traceback goes to the log."""
    import logging

    from wave_lsp.core.checking import engine
    from wave_lsp.core.rules.registry import Check

    def broken(_ctx: object) -> list[object]:
        raise RuntimeError("a bug in a rule")

    real = engine.all_checks()
    monkeypatch.setattr(engine, "all_checks", lambda: [Check(("SK034",), broken), *real])
    document = SkillDocument.from_text("---\nname: Bad Name\ndescription: x\n---\n")
    with caplog.at_level(logging.ERROR, logger="wave_lsp.core.checking.engine"):
        findings = check_document(document, locate(None))
    assert "SK037" in {f.code for f in findings}  # the other rules still ran
    (record,) = [r for r in caplog.records if "rule check broken failed" in r.getMessage()]
    assert record.exc_info is not None and "a bug in a rule" in str(record.exc_info[1])
    with pytest.raises(RuntimeError):
        check_document(document, locate(None), strict=True)
