"""Reading the client's messages from stdin on the event loop (docs/design/lsp.md *Edits coalesce*).

pygls reads stdin with one thread round trip per line (`run_in_executor(readline)`): a message is
three round trips, and each needs the event loop to run a callback and the reader thread to get
the GIL. While an analysis holds the loop, slicing it does not help much: ten edits sent back to
back trickle in one every few slices, so the analysis of an old version is rarely abandoned in
time. Here the loop reads the pipe itself (`loop.connect_read_pipe`): whatever the client has
written is in memory after one turn of the loop, and pygls' own message loop (`run_async`)
handles every complete message it holds without waiting again.

Used only where that is safe: stdin is a pipe or a socket (not a terminal, not a file: the loop
makes its file description non-blocking) that is not also stdout, on a platform with Unix pipes.
Anywhere else pygls' reader is used, as before.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from typing import BinaryIO

#: a header line longer than this is not a header (the body is read with `readexactly`, unbounded)
LINE_LIMIT = 1 << 20


class LoopReader:
    """The `AsyncReader` that pygls' `run_async` expects, reading stdin on the event loop."""

    def __init__(self, source: BinaryIO) -> None:
        self._source = source
        self._reader: asyncio.StreamReader | None = None

    async def _stream(self) -> asyncio.StreamReader:
        if self._reader is None:
            reader = asyncio.StreamReader(limit=LINE_LIMIT)
            loop = asyncio.get_running_loop()
            await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                         self._source)
            self._reader = reader
        return self._reader

    async def readline(self) -> bytes:
        """A line with its end, or b"" at the end of the input (pygls then stops)."""
        stream = await self._stream()
        try:
            return await stream.readline()
        except ValueError:  # longer than LINE_LIMIT (asyncio dropped it): not a header
            return b"X-Dropped: a line over the length limit\r\n"  # pygls ignores it

    async def readexactly(self, count: int) -> bytes:
        """`count` bytes, or what is left at the end of the input (b"": pygls stops)."""
        stream = await self._stream()
        try:
            return await stream.readexactly(count)
        except asyncio.IncompleteReadError as end:
            return end.partial


def loop_can_read(source: BinaryIO, sink: BinaryIO) -> bool:
    """Whether the event loop may read `source` itself (see the module docstring)."""
    if os.name != "posix" or sys.platform in ("emscripten", "wasi"):
        return False
    try:
        info = os.fstat(source.fileno())
        out = os.fstat(sink.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's BytesIO)
        return False
    shared = (info.st_dev, info.st_ino) == (out.st_dev, out.st_ino)
    return (stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode)) and not shared
