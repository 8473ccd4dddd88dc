"""The assembled language server: the base server of `wave_lsp.lsp.server` with every feature
module registered on it (lifecycle, language features, commands). Kept apart from the base so
that the feature modules can import the server class without an import cycle."""

from __future__ import annotations

from wave_lsp.lsp import commands, decorations, features, lifecycle, mention_files, renaming
from wave_lsp.lsp.server import WaveLanguageServer


def create_server() -> WaveLanguageServer:
    """A fresh server with every feature registered."""
    server = WaveLanguageServer()
    lifecycle.register(server)
    features.register(server)
    commands.register(server)
    renaming.register(server)
    mention_files.register(server)
    decorations.register(server)
    return server
