"""wave-lsp: the language server and command-line checker for Agent Skills (SKILL.md files)."""

__version__ = "0.1.0"
