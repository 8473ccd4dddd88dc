"""The source line and caret under each finding in `check`'s text output (wave_lsp/excerpt.py):
the caret stands under the finding's characters as a terminal draws the line — tabs to stops of 4,
wide characters as 2 columns, combining marks as 0, control and invisible format characters shown
as visible symbols — and a file with CRLF line endings shows as one with LF. Tables of lines worked
out by hand, properties with hypothesis, and the command's output end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wave_lsp.cli import main
from wave_lsp.excerpt import MAX_COLUMNS, excerpt, shown

#: (line, start, end) -> (the line as shown, the caret line)
CASES = [
    (("name: Demo", 6, 10), ("name: Demo", "      ^^^^")),
    (("abc", 1, 1), ("abc", " ^")),  # an empty range: one caret
    (("abc", 3, 3), ("abc", "   ^")),  # at the end of the line
    (("abc", 2, 99), ("abc", "  ^")),  # past the end: clamped
    (("", 0, 0), ("", "^")),
    (("\tRun $0", 5, 7), ("    Run $0", "        ^^")),  # a leading tab is 4 columns
    (("a\tb", 2, 3), ("a   b", "    ^")),  # a tab goes to the next stop
    (("abcd\tx", 5, 6), ("abcd    x", "        ^")),  # a tab at a stop is a whole stop
    (("日本語: x", 5, 6), ("日本語: x", "        ^")),  # wide characters are 2 columns
    (("日本語", 1, 2), ("日本語", "  ^^")),
    (("e\u0301t", 2, 3), ("e\u0301t", " ^")),  # a combining accent takes no column
    (("👍 $0", 2, 4), ("👍 $0", "   ^^")),  # an emoji is wide
    (("x\u202ey $0", 4, 6), ("x<U+202E>y $0", "           ^^")),  # a bidi override is shown
    (("a\u200bb", 2, 3), ("a<U+200B>b", "         ^")),  # so is a zero-width space
    (("a\x1b[31mb", 6, 7), ("a␛[31mb", "      ^")),  # an escape cannot colour the terminal
    (("a\x00b", 2, 3), ("a␀b", "  ^")),
    (("a\x7fb", 2, 3), ("a␡b", "  ^")),
    (("café $0", 5, 7), ("café $0", "     ^^")),  # a precomposed é is one column
]


@pytest.mark.parametrize(("given_line", "expected"), CASES)
def test_the_caret_stands_under_the_finding(given_line: tuple[str, int, int],
                                            expected: tuple[str, str]) -> None:
    result = excerpt(*given_line)
    assert (result.text, result.carets) == expected


def test_a_long_line_is_cut_around_the_finding() -> None:
    line = "a" * 200 + "$0" + "b" * 200
    result = excerpt(line, 200, 202)
    assert result.text.startswith("…") and result.text.endswith("…")
    assert len(result.text) == MAX_COLUMNS
    assert result.text[result.column:result.column + 2] == "$0" and result.width == 2
    start = excerpt("$0" + "b" * 300, 0, 2)
    assert start.text.startswith("$0") and start.text.endswith("…") and start.column == 0
    end = excerpt("b" * 300 + "$0", 300, 302)
    assert end.text.startswith("…") and end.text.endswith("$0")
    assert end.text[end.column:] == "$0"


def test_a_range_cut_by_the_window_is_underlined_up_to_the_cut() -> None:
    result = excerpt("x" * 10 + "y" * 400, 10, 410)
    assert result.carets.strip() == "^" * (len(result.text) - 1 - result.column)


# -- properties -----------------------------------------------------------------------------------
#: characters whose width a terminal agrees on (no ambiguous East Asian widths)
CHARACTERS = st.sampled_from(["a", "Z", " ", "$", "\t", "é", "e\u0301"[1], "日", "語", "👍",
                              "\u202e", "\u200b", "\x00", "\x1b", "\u0300", "ß", "Ω"])
LINES = st.lists(CHARACTERS, max_size=160).map("".join)


def width_of(text: str) -> int:
    """The columns `text` takes, from `shown` (each character on its own, at its column)."""
    column = 0
    for character in text:
        column += shown(character, column)[1]
    return column


@given(LINES, st.integers(0, 170), st.integers(0, 170))
def test_the_caret_starts_where_the_characters_before_it_end(line: str, a: int, b: int) -> None:
    start, end = min(a, b), max(a, b)
    result = excerpt(line, start, end, max_columns=10_000)
    # the text before the finding, as shown, is exactly as wide as the caret's indent
    assert result.column == width_of(line[:min(start, len(line))])
    assert result.width >= 1
    assert "\t" not in result.text and not any(ord(c) < 0x20 for c in result.text)
    assert "\u202e" not in result.text and "\u200b" not in result.text


@given(LINES, st.integers(0, 170))
def test_a_cut_line_keeps_the_finding_in_sight(line: str, start: int) -> None:
    result = excerpt(line, start, start + 1, max_columns=40)
    assert width_of(result.text) <= 40 + 2 or "<U+" in result.text
    assert result.column <= width_of(result.text)


@given(st.text(alphabet="ab $\t", max_size=60), st.integers(0, 60))
def test_a_tab_before_the_line_moves_the_caret_one_stop(line: str, start: int) -> None:
    plain = excerpt(line.replace("\t", " "), start, start + 1)
    tabbed = excerpt("\t" + line.replace("\t", " "), start + 1, start + 2)
    assert tabbed.column == plain.column + 4


# -- the command ------------------------------------------------------------------------------------
SKILL = "---\nname: Demo\ndescription: 日本語\tUse when: asked\n---\n\tRun $0 é.\n"


def run(tmp_path: Path, capsys, text: str, *options: str) -> str:
    skill = tmp_path / ".wave/skills/demo/SKILL.md"
    skill.parent.mkdir(parents=True, exist_ok=True)
    skill.write_bytes(text.encode("utf-8"))
    main(["check", ".wave/skills/demo", "--no-personal", "--target", "wave", *options])
    return capsys.readouterr().out


def test_the_text_output_quotes_the_line_under_each_finding(tmp_path: Path, capsys,
                                                            monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = run(tmp_path, capsys, SKILL)
    assert ("SK115 [warning] `$0` is always empty in Wave" in out
            and "  |\n5 |     Run $0 é.\n  |         ^^\n  |\n" in out), out
    assert "3 | description: 日本語 Use when: asked\n  |              ^" in out, out
    assert "2 | name: Demo\n  |       ^^^^\n" in out


def test_crlf_line_endings_show_as_lf(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    lf = run(tmp_path, capsys, SKILL)
    crlf = run(tmp_path, capsys, SKILL.replace("\n", "\r\n"))
    assert "\r" not in crlf
    quoted = [line for line in lf.splitlines() if " | " in line]
    assert quoted and quoted == [line for line in crlf.splitlines() if " | " in line]


@pytest.mark.parametrize("fmt", ["full", "text"])
def test_full_is_the_default_text_output(tmp_path: Path, capsys, monkeypatch, fmt: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(tmp_path, capsys, SKILL, "--format", fmt) == run(tmp_path, capsys, SKILL)


def test_concise_is_one_line_per_finding(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = run(tmp_path, capsys, SKILL, "--format", "concise")
    assert " | " not in out
    findings = [line for line in out.splitlines() if line.startswith(".wave/")]
    assert len(findings) == len(out.splitlines()) - 2  # the summary and the not-loaded line
    full = run(tmp_path, capsys, SKILL)
    assert findings == [line for line in full.splitlines() if line.startswith(".wave/")]


def test_a_finding_on_a_binary_file_has_no_excerpt(tmp_path: Path, capsys, monkeypatch) -> None:
    """Findings about the skill's other files quote their line when the file is text; a compiled
    file is named without one."""
    monkeypatch.chdir(tmp_path)
    skill = tmp_path / ".claude/skills/tool/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: tool\ndescription: Does X. Use when asked.\n---\nRun it.\n", "utf-8")
    (skill.parent / "__pycache__").mkdir()
    (skill.parent / "__pycache__/x.cpython-311.pyc").write_bytes(b"\x00\xff\x00binary")
    main(["check", ".claude/skills/tool", "--no-personal"])
    out = capsys.readouterr().out
    lines = out.splitlines()
    pyc = [index for index, line in enumerate(lines) if ".pyc:" in line]
    assert pyc, out
    for index in pyc:
        assert not lines[index + 1].endswith(" |"), out  # the next finding or a summary, no gutter
