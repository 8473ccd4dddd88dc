"""What the reference rules ask the disk, answered from directory listings (docs/design/lsp.md
*Edits coalesce*: a cheaper analysis of a long document).

A SKILL.md with hundreds of file references used to cost one `stat` per reference and base folder,
one `lstat` per path part (symbolic links that leave the folder) and one `realpath` per helper
link. A `DiskView` belongs to one run of the rules: it lists each folder it is asked about once
(`os.scandir`) and answers "does this path exist", "is it a file", "is it a symbolic link" and
"where does it really lead" from the listing. The listings are kept across runs by a
`ListingCache` (owned by the `WorkspaceSession`) and trusted only while the folder is unchanged:
same device, inode and modification time, and listed at least `RACY_SECONDS` after that
modification (a folder changed twice within the file system's timestamp granularity keeps its
modification time; such a listing is taken again). So the answers are exactly what `os.stat`
would say, without the cost:

- a symbolic link is never trusted from a listing: its target is looked up (`os.stat`) each run;
- a name that is not in the listing is looked up once (`os.lstat`): on a case-insensitive file
  system `References/x.md` exists when the listing says `references/x.md`; that answer is kept with
  the listing, which changes when the folder does;
- a folder that cannot be listed (no read permission) is asked with `os.stat` per path.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

#: a folder modified this recently may change again without a new modification time
RACY_SECONDS = 2.0
#: the cache forgets every listing beyond this many folders (bounded memory)
MAX_LISTINGS = 4096

DIRECTORY, FILE, OTHER, LINK = "dir", "file", "other", "link"


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return DIRECTORY
    if stat.S_ISREG(mode):
        return FILE
    if stat.S_ISLNK(mode):
        return LINK
    return OTHER


@dataclass(slots=True)
class Listing:
    """The entries of one folder: name -> kind, the kind of a symbolic link being `LINK` (its
    target is not part of the folder and may change without it)."""

    identity: tuple[int, int, int]  #: device, inode, modification time (ns)
    listed_at: float  #: wall-clock time of the listing
    entries: dict[str, str]
    #: names looked up with `lstat` that the listing does not hold (case-insensitive file
    #: systems): name -> kind, or None when there is no such entry
    probed: dict[str, str | None] = field(default_factory=dict)


class ListingCache:
    """Folder listings kept across runs, each trusted while its folder is unchanged. Safe to share
    between the event loop and a worker thread: a listing is replaced whole, never edited in place
    except for `probed`, whose entries are the same whoever writes them first."""

    def __init__(self) -> None:
        self._listings: dict[str, Listing] = {}

    def listing(self, folder: str, info: os.stat_result) -> Listing | None:
        """The listing of `folder` (whose `os.stat` is `info`), or None when it cannot be listed."""
        identity = (info.st_dev, info.st_ino, info.st_mtime_ns)
        known = self._listings.get(folder)
        if known is not None and known.identity == identity \
                and known.listed_at - info.st_mtime_ns / 1e9 >= RACY_SECONDS:
            return known
        listed_at = time.time()
        try:
            entries = {entry.name: LINK if entry.is_symlink() else
                       DIRECTORY if entry.is_dir(follow_symlinks=False) else
                       FILE if entry.is_file(follow_symlinks=False) else OTHER
                       for entry in os.scandir(folder)}
        except OSError:
            return None
        fresh = Listing(identity, listed_at, entries)
        if len(self._listings) >= MAX_LISTINGS:
            self._listings.clear()
        self._listings[folder] = fresh
        return fresh


#: how much of a linked file `DiskView.read` reads (SK114 follows Markdown helpers up to this size)
READ_LIMIT = 256 * 1024


class DiskView:
    """The disk as one run of the rules sees it: each folder stat-ed and listed at most once, each
    symbolic link resolved at most once, each linked file that a rule follows read at most once
    (`read`; SK114 reads the helpers, SK140 looks at the same files again). Paths are taken as
    given (already normalised)."""

    def __init__(self, cache: ListingCache | None = None) -> None:
        self._cache = cache or ListingCache()
        self._folders: dict[str, Listing | None] = {}
        self._kinds: dict[str, str | None] = {}
        self._real: dict[str, str] = {}
        self._contents: dict[str, bytes | OSError] = {}

    def read(self, path: Path | str) -> bytes | OSError:
        """The first `READ_LIMIT` bytes of the file, or the error that opening or reading it
        raised; read once for this run of the rules and kept while it lasts."""
        text = os.fspath(path)
        known = self._contents.get(text)
        if known is None:
            known = self._contents[text] = _read(text, READ_LIMIT)
        return known

    def head(self, path: Path | str, size: int) -> bytes | OSError:
        """The first `size` bytes of the file (at most `READ_LIMIT`), or the error: from what
        `read` kept when a rule read it already, else read now and not kept (a folder's other
        files are looked at once)."""
        known = self._contents.get(os.fspath(path))
        if known is None:
            return _read(os.fspath(path), size)
        return known if isinstance(known, OSError) else known[:size]

    def kind(self, path: Path | str) -> str | None:
        """What `os.stat(path)` finds (symbolic links followed): `DIRECTORY`, `FILE`, `OTHER`, or
        None when nothing is there."""
        text = os.fspath(path)
        known = self._kinds.get(text, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]  # a kind or None once stored
        found = self._kinds[text] = self._look_up(text)
        return found

    def exists(self, path: Path | str) -> bool:
        return self.kind(path) is not None

    def is_file(self, path: Path | str) -> bool:
        return self.kind(path) == FILE

    def is_link(self, path: Path | str) -> bool:
        """What `os.path.islink(path)` says."""
        parent, name = os.path.split(os.fspath(path))
        listing = self._listing(parent) if _plain(name) else None
        if listing is None:
            return os.path.islink(path)
        return self._entry(listing, parent, name) == LINK

    def realpath(self, path: Path | str) -> str:
        """What `os.path.realpath(path)` says: the real path of its folder (once per folder), then
        the name, unless the name is a symbolic link."""
        text = os.fspath(path)
        parent, name = os.path.split(text)
        if not _plain(name):
            return os.path.realpath(text)
        real_parent = self._real.get(parent)
        if real_parent is None:
            real_parent = self._real[parent] = self._real_folder(parent)
        if self.is_link(os.path.join(real_parent, name)):
            return os.path.realpath(text)
        return os.path.join(real_parent, name)

    def knows_real(self, folder: Path | str, real: str) -> None:
        """`real` is what `os.path.realpath(folder)` says (the caller asked already): the
        folders below it are resolved from it."""
        self._real[os.fspath(folder)] = real

    def entries(self, folder: Path | str) -> dict[str, str]:
        """The names in `folder` with their kinds (`DIRECTORY`, `FILE`, `OTHER`, `LINK`), from its
        listing; empty when it is no folder or cannot be listed."""
        listing = self._listing(os.fspath(folder))
        return {} if listing is None else listing.entries

    # -- internals ----------------------------------------------------------------------------
    def _real_folder(self, folder: str) -> str:
        """`os.path.realpath(folder)`; from its parent's real path when that is known and the
        folder is no symbolic link (a skill's `references/` below its known folder)."""
        above, name = os.path.split(folder)
        real_above = self._real.get(above)
        if real_above is None or not _plain(name):
            return os.path.realpath(folder)
        inside = os.path.join(real_above, name)
        return os.path.realpath(folder) if self.is_link(inside) else inside

    def _look_up(self, text: str) -> str | None:
        parent, name = os.path.split(text)
        listing = self._listing(parent) if _plain(name) else None
        if listing is None:
            return _stat_kind(text)
        entry = self._entry(listing, parent, name)
        if entry == LINK:
            return _stat_kind(text)
        return entry

    def _listing(self, folder: str) -> Listing | None:
        """The folder's listing; `_EMPTY` when there is no folder there (nothing below it
        exists); None when it cannot be listed (then each path is asked with `os.stat`)."""
        folder = folder or "."
        if folder in self._folders:
            return self._folders[folder]
        try:
            info = os.stat(folder)
        except (OSError, ValueError):
            info = None
        if info is None or not stat.S_ISDIR(info.st_mode):
            listing: Listing | None = _EMPTY
        else:
            listing = self._cache.listing(folder, info)
        self._folders[folder] = listing
        return listing

    def _entry(self, listing: Listing, parent: str, name: str) -> str | None:
        found = listing.entries.get(name)
        if found is not None or listing is _EMPTY:
            return found
        probed = listing.probed.get(name, _UNKNOWN)
        if probed is not _UNKNOWN:
            return probed  # type: ignore[return-value]  # a kind or None once stored
        try:
            kind: str | None = _kind_of(os.lstat(os.path.join(parent or ".", name)).st_mode)
        except (OSError, ValueError):
            kind = None
        listing.probed[name] = kind
        return kind


def _read(path: str, size: int) -> bytes | OSError:
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError as error:
        return error


def _plain(name: str) -> bool:
    """A name a listing can answer for (not empty, `.` or `..`)."""
    return name not in ("", ".", "..")


def _stat_kind(text: str) -> str | None:
    try:
        return _kind_of(os.stat(text).st_mode)
    except (OSError, ValueError):
        return None


_UNKNOWN = object()
#: the listing of a folder that does not exist, or of a file: nothing below it exists
_EMPTY = Listing((0, 0, 0), 0.0, {})
