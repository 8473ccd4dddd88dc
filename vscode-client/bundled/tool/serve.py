"""Start the wave-lsp server bundled with the VS Code extension: `python -I serve.py [serve options]`.

bundled/libs (filled by `npm run bundle`) goes first on sys.path here, not through PYTHONPATH, so
the commands the server runs (an allowed preview's injected commands) get the user's environment
unchanged. `-I` keeps the user's PYTHONPATH, user site-packages and the working directory (a
workspace with its own `wave_lsp`) out of the server's sys.path.
"""

import os
import sys

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")
sys.path.insert(0, LIBS)

from wave_lsp.cli import main  # noqa: E402  (after the path is set)

raise SystemExit(main(["serve", *sys.argv[1:]]))
