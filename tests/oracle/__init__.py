"""The differential harness: wave-lsp's `claude-code` predictions against the real Claude Code
(tests/oracle/README.md, docs/design/runtime-facts.md §3)."""
