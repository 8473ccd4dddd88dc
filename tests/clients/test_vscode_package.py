"""The VS Code extension's manifest (vscode-client/README.md *VS Code's own SKILL.md checks*): it
maps skill files to Markdown, so that VS Code's own skill validator and completion (which work on
the language id `skill` only) stay off, while the extension still selects the files by name; the
README's way back to VS Code's checks is valid and replaces that default; and the manifest names
no repository address that cannot be reached, while `vsce package` still builds the `.vsix`
(vscode-client/e2e/run.sh and `scripts/release` run it; the e2e test sees the checks in a real
VS Code)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "vscode-client"


def manifest() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CLIENT / "package.json").read_text("utf-8"))
    return loaded


def readme_snippet(name: str) -> dict[str, Any]:
    text = (CLIENT / "README.md").read_text("utf-8")
    match = re.search(rf"<!-- vscode-settings: {name} -->\n```json\n(.*?)^```$", text,
                      re.MULTILINE | re.DOTALL)
    assert match, f"vscode-client/README.md has no {name} snippet"
    loaded: dict[str, Any] = json.loads(match[1])
    return loaded


def test_the_extension_maps_skill_files_to_markdown_by_default() -> None:
    defaults = manifest()["contributes"]["configurationDefaults"]
    # one pattern: VS Code matches file associations without case, so it covers skill.md too,
    # and a user's value for the same key replaces it
    assert defaults == {"files.associations": {"**/SKILL.md": "markdown"}}


def test_the_extension_selects_skill_files_by_name_whatever_their_language() -> None:
    source = (CLIENT / "src" / "extension.ts").read_text("utf-8")
    selector = source.split("const SELECTOR = [", 1)[1].split("];", 1)[0]
    for pattern in ("**/SKILL.md", "**/skill.md"):
        assert f'{{ scheme: "file", pattern: "{pattern}" }}' in selector, pattern
    assert "language:" not in selector.replace('{ scheme: "untitled", language: "skill" }', "")
    assert {"onLanguage:markdown", "workspaceContains:**/SKILL.md"} <= set(
        manifest()["activationEvents"])


def test_the_way_back_to_vscodes_own_checks_replaces_the_default() -> None:
    back = readme_snippet("vscode-checks-back")["files.associations"]
    default = manifest()["contributes"]["configurationDefaults"]["files.associations"]
    assert set(back) == set(default) and back == {"**/SKILL.md": "skill"}
    # VS Code merges a user's object setting into the default key by key: the same key wins
    assert {**default, **back} == back


def test_the_manifest_names_no_address_that_cannot_be_reached() -> None:
    text = (CLIENT / "package.json").read_text("utf-8")
    assert "repository" not in manifest()
    assert not re.findall(r"https?://", text)
    package = manifest()["scripts"]["package"]
    # without a repository vsce needs to be told, and must leave the README's relative links
    # (the screenshots shipped in the .vsix) as they are instead of pointing them at an address
    assert "vsce package" in package
    assert "--allow-missing-repository" in package and "--no-rewrite-relative-links" in package
    release = (REPO / "scripts" / "release").read_text("utf-8")
    assert "npm run -s package" in release


def test_the_readmes_images_are_shipped_in_the_extension() -> None:
    text = (CLIENT / "README.md").read_text("utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text)
    assert images
    ignored = (CLIENT / ".vscodeignore").read_text("utf-8") if (CLIENT / ".vscodeignore").exists() else ""
    for image in images:
        assert not re.match(r"\w+:", image), image
        assert (CLIENT / image).is_file(), image
        assert not any(line.strip() and Path(image).match(line.strip()) for line in ignored.splitlines()
                       if not line.startswith("!")), image
