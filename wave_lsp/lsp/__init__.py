"""The thin LSP adapter (pygls 2): the only package that imports pygls or lsprotocol."""
