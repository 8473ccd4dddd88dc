"""The server's preview files (`wave_lsp.lsp.previews`): read-only, in a folder of the server's
own, one per skill name, removed at exit (docs/design/lsp.md *Preview in any client*)."""

from __future__ import annotations

from wave_lsp.lsp.previews import PreviewFiles


def test_preview_files_are_read_only_replaced_and_removed() -> None:
    files = PreviewFiles()
    first = files.write("my skill/../x", "one")
    assert first.parent == files.folder and first.name == "my-skill-..-x.preview.md"
    assert first.stat().st_mode & 0o222 == 0
    assert files.write("my skill/../x", "two") == first and first.read_text("utf-8") == "two"
    folder = files.folder
    files.remove()
    files.remove()
    assert folder is not None and not folder.exists()
