"""The MCP server (`wave-lsp mcp`): the checker's tools for agents that speak the Model Context
Protocol (docs/design/product.md *Command line*).

`handlers` holds the tools as plain functions over a project root (no SDK import), `mcp_server`
registers them with the official `mcp` Python SDK. The SDK is an optional extra
(`pip install 'wave-lsp[mcp]'`), so nothing here imports it at module level.
"""

from __future__ import annotations

#: the SDK API this package is written against (`mcp.server.mcpserver.MCPServer`, mcp 2.x)
SDK_MODULE = "mcp.server.mcpserver"
INSTALL_HINT = "pip install 'wave-lsp[mcp]'"


def install_hint(prefix: str) -> str:
    """How to add the `mcp` extra to the installation whose environment is at `prefix`
    (`sys.prefix`): a pipx or uv tool environment is changed with its own tool, anything else
    with that environment's pip. A clone installs `.[mcp]` instead of `wave-lsp[mcp]`."""
    from pathlib import PurePath

    where = PurePath(prefix)
    parts = {part.lower() for part in where.parts}
    if where.parent.name == "venvs" and any("pipx" in part for part in parts):
        return ("pipx inject wave-lsp 'mcp>=2.3,<3' (or reinstall: pipx install --force "
                "'wave-lsp[mcp]', from a clone pipx install --force '.[mcp]')")
    if where.parent.name == "tools" and "uv" in parts:
        return ("uv tool install --force 'wave-lsp[mcp]' (from a clone: uv tool install --force "
                "'.[mcp]')")
    return (f"{INSTALL_HINT} (from a clone: pip install '.[mcp]'; pipx users: pipx inject "
            "wave-lsp 'mcp>=2.3,<3'; uv users: uv tool install --force 'wave-lsp[mcp]')")


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
