"""The VS Code extension's manifest (vscode-client/README.md *VS Code's own SKILL.md checks*): it
maps skill files to Markdown, so that VS Code's own skill validator and completion (which work on
the language id `skill` only) stay off, while the extension still selects the files by name; the
README's way back to VS Code's checks is valid and replaces that default; and the manifest names
no repository address that cannot be reached, while `vsce package` still builds the `.vsix`
(vscode-client/e2e/run.sh and `scripts/release` run it; the e2e test sees the checks in a real
VS Code); and the build checks first that its Node.js is one vsce runs on (20 or later)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

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


# -- Node.js >= 20 for the .vsix build ----------------------------------------------------------
CHECK_NODE = CLIENT / "scripts" / "check-node.js"
#: Node versions and whether the .vsix build accepts them (vsce 3.9.2 declares `node >= 20`)
NODE_VERSIONS = [("18.19.0", False), ("v18.20.8", False), ("12.22.12", False), ("19.9.0", False),
                 ("20.0.0", True), ("v20.20.2", True), ("22.11.0", True), ("24.1.0", True)]


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("Node.js is not installed")
    return found


def test_vsce_needs_the_node_the_check_asks_for() -> None:
    """The minimum is vsce's own: the version package-lock.json pins declares it."""
    lock = json.loads((CLIENT / "package-lock.json").read_text("utf-8"))
    vsce = lock["packages"]["node_modules/@vscode/vsce"]
    assert vsce["engines"]["node"] == ">= 20", vsce.get("engines")
    assert "var MINIMUM = 20;" in CHECK_NODE.read_text("utf-8")


@pytest.mark.parametrize(("version", "accepted"), NODE_VERSIONS)
def test_the_node_check_accepts_20_and_later(version: str, accepted: bool) -> None:
    completed = subprocess.run([node(), str(CHECK_NODE), version], capture_output=True, text=True,
                               timeout=30)
    assert (completed.returncode == 0) is accepted, completed.stderr
    if not accepted:
        message = completed.stderr
        assert message.startswith("wave-lsp: ") and "needs Node.js 20 or later" in message, message
        assert f"this is Node.js {version.removeprefix('v')}" in message and "--no-vsix" in message


def test_the_node_check_passes_on_this_node_when_it_is_recent_enough() -> None:
    completed = subprocess.run([node(), "--version"], capture_output=True, text=True, timeout=30)
    major = int(completed.stdout.strip().lstrip("v").split(".")[0])
    checked = subprocess.run([node(), str(CHECK_NODE)], capture_output=True, text=True, timeout=30)
    assert (checked.returncode == 0) is (major >= 20), checked.stderr


def test_the_package_script_checks_node_first() -> None:
    assert manifest()["scripts"]["package"].startswith("node scripts/check-node.js && ")


def test_release_says_what_the_vsix_needs_before_building_anything(tmp_path: Path) -> None:
    """With no Node.js on PATH, scripts/release stops at once and names the way without it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "dirname", "sed", "env"):  # what the script needs before its Node check
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    out = tmp_path / "out"
    completed = subprocess.run(["bash", str(REPO / "scripts" / "release"), "--out", str(out)],
                               capture_output=True, text=True, timeout=60,
                               env={**os.environ, "PATH": str(bin_dir)})
    assert completed.returncode == 2, completed.stdout + completed.stderr
    assert "needs Node.js 20 or later and npm" in completed.stderr and "--no-vsix" in completed.stderr
    assert not out.exists()
