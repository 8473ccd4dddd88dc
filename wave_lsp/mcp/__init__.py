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


def sdk_missing() -> str | None:
    """Why the MCP server cannot start (the SDK is missing or too old), or None."""
    import importlib

    try:
        importlib.import_module(SDK_MODULE)
    except ImportError:
        return f"the MCP Python SDK (mcp>=2.3) is not installed; install it with {INSTALL_HINT}"
    return None
