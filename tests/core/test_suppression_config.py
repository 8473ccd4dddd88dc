"""Inline suppressions, rule selection, severity overrides and `[tool.wave-lsp]`."""

from __future__ import annotations

import pytest

from tests.helpers import run
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import (
    Settings,
    SettingsError,
    load_pyproject,
    parse_codes,
    parse_severity_overrides,
    settings_from_mapping,
)

BASE = "---\nname: my-skill\ndescription: X. Use when asked.\n"


def codes(report) -> list[str]:
    return [f.code for f in report.findings]


def test_comment_on_the_same_line(tmp_path) -> None:
    assert codes(run(tmp_path, BASE + "author: me  # wave-lsp: ignore SK070\n---\n")) == []


def test_comment_alone_silences_the_next_line(tmp_path) -> None:
    text = BASE + "# wave-lsp: ignore SK070, SK071\nauthor: me\nallowed_tools: Read\n---\n"
    assert codes(run(tmp_path, text)) == ["SK071"]


def test_html_comment_in_the_body(tmp_path) -> None:
    body = "---\n<!-- wave-lsp: ignore SK110 -->\n" + "x\n" * 601
    report = run(tmp_path, BASE + body)
    assert "SK110" in codes(report)  # the comment is on line 5, the finding on line 505
    text = BASE + "---\n" + "x\n" * 499 + "<!-- wave-lsp: ignore SK110 -->\nx\nx\n" + "x\n" * 100
    assert "SK110" not in codes(run(tmp_path, text))


def test_ignore_file(tmp_path) -> None:
    text = BASE + "author: me\ntags: x\n---\n<!-- wave-lsp: ignore-file SK070 -->\n"
    assert codes(run(tmp_path, text)) == []


def test_a_hash_inside_a_quoted_value_is_not_a_comment(tmp_path) -> None:
    text = BASE + 'author: "me # wave-lsp: ignore SK070"\n---\n'
    assert codes(run(tmp_path, text)) == ["SK070"]


def test_select_ignore_and_severity(tmp_path) -> None:
    path = tmp_path / "my-skill" / "SKILL.md"
    path.parent.mkdir()
    path.write_text(BASE + "author: me\nallowed_tools: Read\n---\n")
    assert codes(check_file(path, Settings(select=("SK07",), ignore=("SK071",)))) == ["SK070"]
    report = check_file(path, Settings(severity={"SK070": Severity.ERROR, "SK071": "off"}))
    assert [(f.code, f.severity) for f in report.findings] == [("SK070", Severity.ERROR)]


def test_parsing_settings() -> None:
    assert parse_codes(["SK001,SK02", "all"], "--select") == ("SK001", "SK02", "ALL")
    with pytest.raises(SettingsError):
        parse_codes(["XX1"], "--select")
    assert parse_severity_overrides(["SK054=warning", "SK056=off"]) == {
        "SK054": Severity.WARNING, "SK056": "off"}
    with pytest.raises(SettingsError):
        parse_severity_overrides(["SK054=loud"])
    with pytest.raises(SettingsError):
        settings_from_mapping({"target": "vim"})


def test_pyproject_section(tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.wave-lsp]\ntarget = "claude-code"\nignore = ["SK056"]\n'
        'severity = { SK054 = "error" }\n')
    section, found = load_pyproject(tmp_path / "sub")
    settings = settings_from_mapping(section)
    assert found == tmp_path / "pyproject.toml"
    assert settings.target == "claude-code"
    assert not settings.enabled("SK056")
    assert settings.severity_of("SK054", Severity.INFORMATION) == Severity.ERROR
