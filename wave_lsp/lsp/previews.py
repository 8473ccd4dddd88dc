"""Preview documents for clients that can show a file (docs/design/lsp.md *Preview in any client*).

The server writes a rendered preview (`wave_lsp.core.invocation.preview.preview_markdown`) to a
read-only file in a temporary folder of its own, created on first use and removed when the process
exits, and asks the client to open it with `window/showDocument`. Nothing is ever written into the
user's project.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import stat
import threading
from pathlib import Path

READ_ONLY = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH


class PreviewFiles:
    """The preview files of one server process, one per skill name (a new preview replaces it)."""

    def __init__(self) -> None:
        self._folder: Path | None = None
        self._lock = threading.Lock()

    @property
    def folder(self) -> Path | None:
        return self._folder

    def write(self, skill_name: str, text: str) -> Path:
        """Write `text` as the preview of `skill_name`, read-only; the path written."""
        with self._lock:
            folder = self._ensure_folder()
            safe = re.sub(r"[^A-Za-z0-9._-]+", "-", skill_name).strip(".-") or "skill"
            path = folder / f"{safe}.preview.md"
            if path.exists():
                path.chmod(stat.S_IRUSR | stat.S_IWUSR)
                path.unlink()
            path.write_text(text, "utf-8")
            path.chmod(READ_ONLY)
            return path

    def _ensure_folder(self) -> Path:
        if self._folder is None:
            import tempfile  # here: the server starts without it (tempfile imports random, shutil)

            self._folder = Path(tempfile.mkdtemp(prefix=f"wave-lsp-preview-{os.getpid()}-"))
            atexit.register(self.remove)
        return self._folder

    def remove(self) -> None:
        """Delete the folder and its read-only files (at exit; safe to call twice)."""
        folder, self._folder = self._folder, None
        if folder is None:
            return
        for child in folder.iterdir():  # Windows refuses to delete a read-only file
            with contextlib.suppress(OSError):
                child.chmod(stat.S_IRUSR | stat.S_IWUSR)
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
