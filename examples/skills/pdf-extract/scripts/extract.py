"""Example helper script of the pdf-extract skill (not executed by wave-lsp)."""
