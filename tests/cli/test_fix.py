"""`wave-lsp check --fix / --unsafe-fixes / --diff` and `wave-lsp rule`, on copies of the bundled
examples and on files with CRLF, a byte-order mark and non-ASCII text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from wave_lsp.cli import main
from wave_lsp.core.checking.catalog import rules

ROOT = Path(__file__).resolve().parents[2]
COLON = "---\nname: {name}\ndescription: Drafts notes. Use when: asked\n---\n# Body\n"


@pytest.fixture
def examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", copy)
    monkeypatch.chdir(copy)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return copy


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _codes(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["check", "--format", "json", "--no-personal", *args])
    report = json.loads(capsys.readouterr().out)
    return code, [f["code"] for item in report["files"] for f in item["findings"]]


def test_diff_prints_the_safe_fixes_and_writes_nothing(examples: Path, capsys) -> None:
    before = _snapshot(examples)
    assert main(["check", "skills", "--diff", "--no-personal"]) == 1
    out, err = capsys.readouterr()
    assert "--- a/skills/release-notes/SKILL.md" in out
    assert '+description: "Drafts release notes from merged pull requests. Use when: ' in out
    assert "Would fix 3 findings in 3 files (6 more with --unsafe-fixes)." in err
    assert _snapshot(examples) == before


def test_fix_applies_safe_fixes_and_reports_what_remains(examples: Path, capsys) -> None:
    before = _snapshot(examples)
    _, codes_before = _codes(capsys, "skills")
    code, codes_after = _codes(capsys, "skills", "--fix")
    assert "SK021" in codes_before and "SK021" not in codes_after  # the safe quoting fix
    assert "SK034" in codes_after  # upper-case name: its fix is unsafe, so it stays
    # no error remains: the examples lie where no runtime reads them, so SK034 (an error under
    # wave only) is information there (docs/cli.md, no runtime known)
    assert code == 0
    after = _snapshot(examples)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"skills/release-notes/SKILL.md", "skills/pr-review/SKILL.md",
                       "skills/Meeting Notes/SKILL.md"}
    # a second run has nothing left to fix: the files stay as they are
    main(["check", "skills", "--fix", "--no-personal"])
    capsys.readouterr()
    assert _snapshot(examples) == after


def test_unsafe_fixes_need_the_flag_and_permission_grants_are_never_applied(
        examples: Path, capsys) -> None:
    _codes(capsys, "skills", "--fix", "--unsafe-fixes")
    text = (examples / "skills/pr-review/SKILL.md").read_text("utf-8")
    assert "context: fork\n" in text  # SK092's unsafe fix
    # SK123 offers to add a rule to allowed-tools in editors; batch fixing never grants it
    assert rules()["SK123"].fix_applicability == "display-only"
    git_context = examples / "skills/git-context/SKILL.md"
    assert git_context.read_bytes() == (ROOT / "examples/skills/git-context/SKILL.md").read_bytes()


def test_fix_keeps_crlf_bom_and_non_ascii(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "notes/SKILL.md"
    path.parent.mkdir()
    text = "---\r\nname: notes\r\ndescription: Résumé des notes. Use when: asked\r\n---\r\n# Été\r\n"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    main(["check", "notes", "--fix", "--no-personal", "--ignore", "SK004"])
    capsys.readouterr()
    fixed = path.read_bytes()
    assert fixed.startswith(b"\xef\xbb\xbf")
    assert fixed[3:].decode("utf-8") == text.replace(
        "description: Résumé des notes. Use when: asked",
        'description: "Résumé des notes. Use when: asked"')


def test_files_without_fixes_and_invalid_utf8_are_untouched(tmp_path: Path, capsys,
                                                            monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    latin = tmp_path / "latin/SKILL.md"
    latin.parent.mkdir()
    latin.write_bytes(COLON.format(name="latin").replace("Drafts", "Dr\xe9fts").encode("latin-1"))
    good = tmp_path / "good/SKILL.md"
    good.parent.mkdir()
    good.write_bytes(b"---\nname: good\ndescription: Does X. Use when asked.\n---\n# Body\n")
    before = _snapshot(tmp_path)
    main(["check", ".", "--fix", "--no-personal"])
    capsys.readouterr()
    assert _snapshot(tmp_path) == before


def test_rule_explains_a_code(capsys) -> None:
    assert main(["rule", "sk034"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("SK034 name-uppercase")
    assert "Severity: wave error, claude-code information" in out
    assert "(quick fix: unsafe)" in out
    assert "`name_upper_case`" in out


def test_rule_all_as_json_lists_every_code(capsys) -> None:
    assert main(["rule", "--all", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)["rules"]
    assert [item["code"] for item in listed] == list(rules())
    assert all(item["checks"] for item in listed)


def test_rule_with_an_unknown_code_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["rule", "SK999"])
    assert raised.value.code == 2
    assert "unknown rule code 'SK999'" in capsys.readouterr().err


def test_every_fix_has_an_applicability() -> None:
    """A rule that offers a quick fix says whether batch fixing may apply it."""
    with_fixes = {finding["code"]
                  for path in (ROOT / "tests/golden/cases").glob("*/expected.json")
                  for findings in json.loads(path.read_text("utf-8")).values()
                  for finding in findings if finding.get("fixes")}
    assert len(with_fixes) > 20
    missing = sorted(code for code in with_fixes if not rules()[code].fix_applicability)
    assert not missing
