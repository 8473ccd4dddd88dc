"""`python -m wave_lsp` runs the command-line interface."""

from wave_lsp.cli import main

raise SystemExit(main())
