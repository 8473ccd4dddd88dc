"""Golden tests: one small skill tree per rule code, with its expected findings stored as a reviewed
snapshot, so that every change of a message, range or fix shows up as a diff of `expected.json`.

Layout of `cases/SKxxx/`:

- the skill tree, copied as it is into a temporary project folder (`<project>` in the snapshot);
  files are byte-exact (`.gitattributes` turns off end-of-line conversion), so a case can hold a
  BOM, CRLF or invalid UTF-8;
- `home/` (optional): the personal files, copied into a fresh temporary HOME (`<home>`), so that
  personal skills and settings of the machine never leak in;
- `case.toml` (optional):
    - `targets = [...]` the targets to run (default `["wave"]`);
    - `file = "..."` the file to check (default: the one `SKILL.md`, any case, outside `home/`);
    - `[target-file]` target = "...": the file the per-target snapshot checks under that target
      instead (`parity.py`);
    - `git = true` makes the project a git repository (an empty `.git/` folder);
    - `[settings]` as in `[tool.wave-lsp]` (`select`, `ignore`, `rules`, `settingsFiles`, ...);
    - `[files]` path = text: small files that cannot be stored in this repository as they are
      (`.gitignore`, paths the repository ignores);
    - `[[generate]]` files too many or too large to store: `path` (may use `{i}`), `count`
      (default 1), content `head` + `repeat` × `times` + `tail` (each may use `{i}`);
- `expected.json`: per target, every finding of every code (sorted), with paths relative to the
  project, ranges as `line:character-line:character` (0-based, as LSP counts), related locations
  and fixes (title and edits).

Run `pytest tests/golden --update-golden` to rewrite the snapshots, then review `git diff`.
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from wave_lsp.core.checking.catalog import rules
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings, settings_from_mapping
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.text import Range

CASES = Path(__file__).with_name("cases")
CASE_FILE, EXPECTED = "case.toml", "expected.json"
HOME = "home"

#: codes that no SKILL.md check can trigger, with the reason (SK003 is triggered by invalid UTF-8
#: bytes, the nearest file-based form of "unreadable")
EXCEPTIONS: dict[str, str] = {
    "SK152": "reported by the language server in CLAUDE.md, AGENTS.md, agent and command files, "
             "never by a check of a SKILL.md: tests/core/test_mentions.py and "
             "tests/lsp/test_references.py hold its findings",
}


def _case_codes() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def _config(case: Path) -> dict[str, Any]:
    path = case / CASE_FILE
    return tomllib.loads(path.read_text("utf-8")) if path.exists() else {}


def _build(case: Path, config: dict[str, Any], tmp_path: Path) -> tuple[Path, Path]:
    """Copy the case into `tmp_path/project` and `tmp_path/home`; returns both (absolute)."""
    project, home = tmp_path / "project", tmp_path / HOME
    shutil.copytree(case, project, symlinks=True,
                    ignore=lambda folder, names: [n for n in names if Path(folder) == case
                                                  and n in (CASE_FILE, EXPECTED, HOME)])
    if (case / HOME).is_dir():
        shutil.copytree(case / HOME, home, symlinks=True)
    else:
        home.mkdir()
    if config.get("git"):
        (project / ".git").mkdir()
    for name, text in config.get("files", {}).items():
        _write(project / name, text)
    for spec in config.get("generate", []):
        for i in range(spec.get("count", 1)):
            text = (spec.get("head", "") + spec.get("repeat", "") * spec.get("times", 1)
                    + spec.get("tail", ""))
            _write(project / spec["path"].format(i=i), text.replace("{i}", str(i)))
    return project, home


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def _checked_file(project: Path, config: dict[str, Any], code: str) -> str:
    """The file to check: `file` of case.toml, else the one SKILL.md (any case) of the tree."""
    if "file" in config:
        return config["file"]
    found = sorted(p.relative_to(project).as_posix() for p in project.rglob("*")
                   if p.name.lower() == "skill.md")
    assert len(found) == 1, f"{code}: say which file to check (`file` in case.toml): {found}"
    return found[0]


class _Shown:
    """Paths and texts as the snapshot stores them: no temporary folder names."""

    def __init__(self, project: Path, home: Path, checked: str) -> None:
        self.checked = checked
        self.roots = []
        for path, label in ((project, "<project>"), (home, "<home>"), (project.parent, "<tmp>")):
            for variant in {str(path), os.path.realpath(path)}:
                self.roots.append((variant, label))
        self.roots.sort(key=lambda item: -len(item[0]))
        self.project = project

    def text(self, value: str) -> str:
        for root, label in self.roots:
            value = value.replace(root, label)
        return value

    def path(self, value: str | None) -> str:
        if value is None:
            return self.checked
        try:
            return Path(value).relative_to(self.project).as_posix()
        except ValueError:
            return self.text(value)


def _range(value: Range | None) -> str | None:
    if value is None:
        return None
    return f"{value.start.line}:{value.start.character}-{value.end.line}:{value.end.character}"


def _finding(finding: Finding, shown: _Shown) -> dict[str, Any]:
    result: dict[str, Any] = {
        "code": finding.code,
        "severity": finding.severity.label,
        "path": shown.path(finding.path),
        "range": _range(finding.range),
        "message": shown.text(finding.message),
    }
    if finding.related:
        result["related"] = [{"path": shown.path(item.path), "range": _range(item.range),
                              "message": shown.text(item.message)} for item in finding.related]
    if finding.fixes:
        result["fixes"] = []
        for fix in finding.fixes:
            entry: dict[str, Any] = {"title": shown.text(fix.title)}
            if fix.preferred:
                entry["preferred"] = True
            entry["edits"] = [{"range": _range(edit.range), "newText": shown.text(edit.new_text)}
                              for edit in fix.edits]
            result["fixes"].append(entry)
    return result


def _sort_key(item: dict[str, Any]) -> tuple[Any, ...]:
    def position(text: str | None) -> tuple[int, ...]:
        if text is None:
            return (-1,)
        start, end = text.split("-")
        return tuple(int(n) for part in (start, end) for n in part.split(":"))

    return (item["path"], position(item["range"]), item["code"], item["message"])


def _no_managed_skills(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Claude Code's managed skills root (`/etc/claude-code/...`) is machine state: point it at an
    empty folder so that the snapshots do not depend on the machine."""
    try:
        from wave_lsp.core.workspace import runtime_view
    except ImportError:
        return
    if hasattr(runtime_view, "MANAGED_ROOT"):
        monkeypatch.setattr(runtime_view, "MANAGED_ROOT", tmp_path / "managed")


def run_case(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             targets: list[str] | None = None) -> dict[str, list[dict]]:
    """The case's findings per target: those of its `case.toml` unless `targets` names others."""
    case = CASES / code
    config = _config(case)
    targets = targets or config.get("targets", ["wave"])
    assert code in rules(), f"{code} is not a code of the catalog"
    known = set(rules()[code].severities)  # the catalog's columns: the built-in targets
    assert targets and set(targets) <= known, f"{code}: unknown targets {targets}"
    project, home = _build(case, config, tmp_path)
    monkeypatch.setenv("HOME", str(home))  # anything that asks Path.home() sees the fresh HOME
    _no_managed_skills(monkeypatch, tmp_path)
    checked = _checked_file(project, config, code)
    shown = _Shown(project, home, checked)
    result: dict[str, list[dict]] = {}
    for target in targets:
        base = Settings().merged(target=target, home=home)
        settings = settings_from_mapping(config.get("settings", {}), base)
        report = check_file(project / checked, settings, strict=True)
        result[target] = sorted((_finding(f, shown) for f in report.findings), key=_sort_key)
    return result


def dump(result: dict[str, list[dict]]) -> str:
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("code", _case_codes())
def test_golden(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                update_golden: bool) -> None:
    result = run_case(code, tmp_path, monkeypatch)
    for target, findings in result.items():
        assert any(f["code"] == code for f in findings), (
            f"{code} is not reported under {target}: {[(f['code'], f['message']) for f in findings]}")
    expected = CASES / code / EXPECTED
    text = dump(result)
    if update_golden:
        expected.write_text(text, "utf-8")
        return
    assert expected.exists(), f"{expected} is missing: run pytest tests/golden --update-golden"
    assert expected.read_text("utf-8") == text, (
        f"findings of {code} changed; review the diff and run pytest tests/golden --update-golden")


def test_every_catalog_code_has_a_case() -> None:
    catalog = set(rules())
    cases = set(_case_codes())
    assert sorted(catalog - cases - set(EXCEPTIONS)) == [], "rule codes without a golden case"
    assert sorted(cases - catalog) == [], "golden cases for codes the catalog does not know"
    assert sorted(set(EXCEPTIONS) & cases) == [], "a code listed as an exception has a case"
    assert sorted(set(EXCEPTIONS) - catalog) == []


def test_every_case_has_its_snapshot() -> None:
    missing = [code for code in _case_codes() if not (CASES / code / EXPECTED).is_file()]
    assert missing == [], f"cases without {EXPECTED}: run pytest tests/golden --update-golden"
