"""Reading a SKILL.md (or any skill file) from disk safely: bytes, or why they cannot be had.

A directory, a FIFO, a device or a socket named SKILL.md is reported without being opened; a file
larger than `MAX_READ_BYTES` is not read (docs/design/product.md *Contract details*).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.source import decode

#: files larger than this are not read at all (a SKILL.md is a few KiB; SK111 starts at 64 KiB)
MAX_READ_BYTES = 32 * 1024 * 1024


def read_skill_file(path: Path,
                    info: os.stat_result | None = None) -> tuple[bytes | None, str | None]:
    """The file's bytes, or None and a sentence saying why it cannot be read (`info`: its
    `os.stat`, when the caller has just taken it)."""
    if info is None:
        try:
            info = os.stat(path)
        except FileNotFoundError:
            return None, "does not exist"
        except OSError as error:
            return None, f"cannot be examined ({error.strerror or error})"
    if stat.S_ISDIR(info.st_mode):
        return None, "is a directory, not a file"
    if stat.S_ISFIFO(info.st_mode):
        return None, "is a named pipe (FIFO), not a regular file; it was not opened"
    if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode):
        return None, "is a device, not a regular file; it was not opened"
    if stat.S_ISSOCK(info.st_mode):
        return None, "is a socket, not a regular file; it was not opened"
    if not stat.S_ISREG(info.st_mode):
        return None, "is not a regular file; it was not opened"
    if info.st_size > MAX_READ_BYTES:
        return None, (f"is {info.st_size / 1048576:,.1f} MiB, too large to be a skill "
                      f"(not read beyond {MAX_READ_BYTES // 1048576} MiB)")
    try:
        with open(path, "rb") as handle:
            return _read_capped(handle, info.st_size), None
    except PermissionError:
        return None, "cannot be read: permission denied"
    except OSError as error:
        return None, f"cannot be read ({error.strerror or error})"


def _read_capped(handle: BinaryIO, size: int) -> bytes:
    """What `handle.read(MAX_READ_BYTES + 1)` returns, without allocating a 32 MiB buffer for a
    file of a few KiB: `size` (the `stat`) + 1 bytes first, more only if the file grew."""
    data = handle.read(min(size, MAX_READ_BYTES) + 1)
    if len(data) > size:
        data += handle.read(MAX_READ_BYTES + 1 - len(data))
    return data


def load_document(path: Path, info: os.stat_result | None = None) -> SkillDocument | None:
    """The parsed file, or None when it cannot be read (see `read_skill_file`)."""
    data, _problem = read_skill_file(path, info)
    return None if data is None else SkillDocument.from_decoded(decode(data))
