"""Permissions: reading a shell command (`shell`, `shell_words`), permission rules and the settings
that hold them (`rules`, `settings`), the read-only tables (`readonly`, which reads
`wave_lsp/data/readonly.toml`, and `readonly_runtime`), and the two decisions
(docs/design/product.md *Two decisions*): what the runtime does (`prediction`) and what wave-lsp
itself runs (`guard`)."""
