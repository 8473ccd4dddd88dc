"""The pure core of wave-lsp: everything that understands skills, with no LSP dependency.

Nothing below this package may import pygls or lsprotocol (a test enforces it). Positions are
character offsets (Unicode code points) into the document text; conversion to the client's
position encoding happens only in `wave_lsp.lsp`.
"""
