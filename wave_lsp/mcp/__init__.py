"""The MCP server (`wave-lsp mcp`): the checker's tools for agents that speak the Model Context
Protocol (docs/design/product.md *Command line*).

`handlers` holds the tools as plain functions over a project root (no SDK import), `mcp_server`
registers them with the official `mcp` Python SDK. The SDK is an optional extra
(`pip install 'wave-lsp[mcp]'`), so nothing here imports it at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

#: the SDK API this package is written against (`mcp.server.mcpserver.MCPServer`, mcp 2.x)
SDK_MODULE = "mcp.server.mcpserver"
INSTALL_HINT = "pip install 'wave-lsp[mcp]'"


def install_hint(prefix: str) -> str:
    """How to add the `mcp` extra to the installation whose environment is at `prefix`
    (`sys.prefix`): a pipx or uv tool environment is changed with its own tool, anything else
    with that environment's pip (`pip install 'wave-lsp[mcp]'` keeps the installed wave-lsp and
    adds the extra, published or not). The tool is known by the file it leaves in the
    environment (`pipx_metadata.json`, `uv-receipt.toml`) or, failing that, by its default
    folder. A uv tool is reinstalled from the source its receipt names: before wave-lsp is on the
    package index, `uv tool install --force 'wave-lsp[mcp]'` finds nothing to install."""
    from pathlib import Path, PurePath

    where = PurePath(prefix)
    parts = {part.lower() for part in where.parts}
    if (Path(prefix) / "pipx_metadata.json").is_file() or (
            where.parent.name == "venvs" and any("pipx" in part for part in parts)):
        return ("pipx inject wave-lsp 'mcp>=2.3,<3' (or reinstall: pipx install --force "
                "'wave-lsp[mcp]', from a clone pipx install --force '.[mcp]')")
    receipt = Path(prefix) / "uv-receipt.toml"
    if receipt.is_file() or (where.parent.name == "tools" and "uv" in parts):
        source = _uv_source(receipt)
        if source is not None:
            return f"uv tool install --force 'wave-lsp[mcp] @ {source}'"
        return ("uv tool install --force '.[mcp]' from a clone (once wave-lsp is on the package "
                "index: uv tool install --force 'wave-lsp[mcp]')")
    return (f"{INSTALL_HINT} (from a clone: pip install '.[mcp]'; pipx users: pipx inject "
            "wave-lsp 'mcp>=2.3,<3'; uv users: uv tool install --force '.[mcp]' from a clone)")


def _uv_source(receipt: Path) -> str | None:
    """The folder, file or URL that uv installed wave-lsp from, as its receipt records it; None
    when it came from the package index or the receipt cannot be read."""
    import tomllib

    try:
        recorded = tomllib.loads(receipt.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None
    requirements = recorded.get("tool", {}).get("requirements", [])
    for requirement in requirements if isinstance(requirements, list) else []:
        if isinstance(requirement, dict) and requirement.get("name") == "wave-lsp":
            for key in ("directory", "path", "url", "git"):
                value = requirement.get(key)
                if isinstance(value, str) and value and "'" not in value:
                    return f"git+{value}" if key == "git" and not value.startswith("git+") else value
    return None


def sdk_missing() -> str | None:
    """Why the MCP server cannot start (the SDK is missing or too old), or None."""
    import importlib
    import sys

    try:
        importlib.import_module(SDK_MODULE)
    except ImportError:
        return ("the MCP Python SDK (mcp>=2.3), the `mcp` extra, is not installed; install it "
                f"with {install_hint(sys.prefix)}")
    return None
