"""What wave-lsp itself executes and how it is protected: the OS sandbox, its resource limits and
running one command in it (docs/design/README.md *Layering*, docs/security.md). Knows nothing of
runtimes: a prediction never comes from here."""
