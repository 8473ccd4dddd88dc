"""The plugin as the real Claude Code reads it (docs/agents.md *Claude Code plugin*): the pinned release of
the differential harness (tests/oracle/README.md) adds this repository as a marketplace, installs
the plugin from it and counts its parts with `claude plugin details`, offline, in a fresh HOME.

What it must count is read from the plugin's own files (the skills' folders, `.mcp.json`,
`plugin.json`'s `lspServers`), so the test follows the plugin. A control copy without `.mcp.json`
shows that the MCP count comes from that file and that the test can fail.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.oracle.claude import NO_API, environment, fresh_home, installed_or_skip
from tests.plugin.test_plugin import MARKETPLACE, REPO, load, manifest, plugin_root

#: one `claude plugin …` command takes about a second; this only stops a hang
COMMAND_TIMEOUT = 120
#: an inventory line of `claude plugin details`: "  MCP servers (1)  wave-lsp  (…)"
_INVENTORY_LINE = re.compile(r"^\s+(?P<kind>[A-Za-z ]+?) \((?P<count>\d+)\)(?:\s+(?P<names>.*))?$")

pytestmark = pytest.mark.slow  # it runs the real Claude Code: `--slow`, the second step of .ci/run


@dataclass(frozen=True)
class Inventory:
    """The "Component inventory" of `claude plugin details`: each kind's count and the names
    listed after it (without the parenthesised remark)."""

    counts: dict[str, int]
    names: dict[str, list[str]]


def read_inventory(output: str) -> Inventory:
    section = output.split("Component inventory", 1)[1].split("\n\n", 1)[0]
    counts: dict[str, int] = {}
    names: dict[str, list[str]] = {}
    for line in section.splitlines():
        match = _INVENTORY_LINE.match(line)
        if match is None:
            continue
        kind = match["kind"]
        counts[kind] = int(match["count"])
        listed = re.sub(r"\s*\(.*\)\s*$", "", match["names"] or "")
        names[kind] = [name for name in re.split(r",?\s+", listed) if name]
    return Inventory(counts, names)


def copy_marketplace(destination: Path) -> Path:
    """The marketplace manifest and the plugin folder, copied, so that Claude Code reads exactly
    the repository's files and writes nothing into the checkout."""
    shutil.copytree(MARKETPLACE.parent, destination / MARKETPLACE.parent.name)
    shutil.copytree(plugin_root(), destination / plugin_root().relative_to(REPO))
    return destination


class ClaudeCode:
    """The pinned `claude` in one fresh HOME, run without a model."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        self.home = fresh_home(None)

    def run(self, *arguments: str) -> str:
        done = subprocess.run([str(self.binary), *arguments], cwd=self.home,
                              env=environment(self.home, NO_API), capture_output=True, text=True,
                              timeout=COMMAND_TIMEOUT, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, (arguments, done.stdout, done.stderr)
        return done.stdout

    def installed_details(self, marketplace: Path) -> Inventory:
        """`/plugin marketplace add`, `/plugin install wave-lsp@wave-lsp` (docs/agents.md's two
        steps, as commands), then `claude plugin details wave-lsp`."""
        self.run("plugin", "marketplace", "add", str(marketplace))
        self.run("plugin", "install", "wave-lsp@wave-lsp")
        return read_inventory(self.run("plugin", "details", "wave-lsp"))

    def close(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)


@pytest.fixture
def claude() -> ClaudeCode:
    return ClaudeCode(installed_or_skip())


def expected_parts() -> dict[str, list[str]]:
    """What the plugin's files declare, by the inventory's names for them."""
    root = plugin_root()
    return {"Skills": sorted(path.parent.name for path in root.glob("skills/*/SKILL.md")),
            "MCP servers": sorted(load(root / ".mcp.json")["mcpServers"]),
            "LSP servers": sorted(manifest()["lspServers"])}


@pytest.mark.timeout(4 * COMMAND_TIMEOUT)
def test_claude_plugin_details_counts_the_skill_the_mcp_server_and_the_language_server(
        claude: ClaudeCode, tmp_path: Path) -> None:
    try:
        inventory = claude.installed_details(copy_marketplace(tmp_path))
    finally:
        claude.close()
    expected = expected_parts()
    assert expected["MCP servers"] == ["wave-lsp"] and expected["LSP servers"] == ["wave-lsp"]
    for kind, names in expected.items():
        assert inventory.counts.get(kind) == len(names), (kind, inventory)
        assert sorted(inventory.names[kind]) == names, (kind, inventory)


@pytest.mark.timeout(4 * COMMAND_TIMEOUT)
def test_without_mcp_json_claude_code_counts_no_mcp_server(
        claude: ClaudeCode, tmp_path: Path) -> None:
    marketplace = copy_marketplace(tmp_path)
    (marketplace / plugin_root().relative_to(REPO) / ".mcp.json").unlink()
    try:
        inventory = claude.installed_details(marketplace)
    finally:
        claude.close()
    assert inventory.counts["MCP servers"] == 0, inventory
    assert inventory.counts["LSP servers"] == 1, inventory


@pytest.mark.timeout(2 * COMMAND_TIMEOUT)
def test_claude_plugin_validate_passes_and_lists_the_declared_servers(claude: ClaudeCode) -> None:
    try:
        marketplace = claude.run("plugin", "validate", str(REPO))
        plugin = claude.run("plugin", "validate", str(plugin_root()))
    finally:
        claude.close()
    assert "Validation passed" in marketplace
    assert "Validation passed" in plugin
    (mcp,) = load(plugin_root() / ".mcp.json")["mcpServers"].values()
    assert f"mcpServers: wave-lsp stdio {mcp['command']} {json.dumps(mcp['args'])}" in plugin
    (lsp,) = manifest()["lspServers"].values()
    assert f"lspServers: wave-lsp {lsp['command']} {json.dumps(lsp['args'])}" in plugin
