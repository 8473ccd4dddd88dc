"""docs/design/rules.md *Workspace*: the files of a skill folder — SK140 resource-unreadable, SK141
resource-limits (the Wisp indexer's limits, docs/design/runtime-facts.md §4.5), and SK114
reference-cycle (helper Markdown files of the folder that link each other in a cycle).

Decisions: hidden files and folders, `node_modules` and `scripts/` are skipped, as the indexer skips
them (scripts are run, not read), and so are images, fonts, audio and video (`MEDIA`), which the
model never reads as text. SK140 is reported on the resource itself (its own path, first
position), once per folder: on the folder's first such file by name, with the count of the others
(sample 6: one indexer's limit said for each of 190 brand images was half of all information
findings); SK141 on the SKILL.md's opening delimiter. A folder with more than `MAX_WALK` entries is
not walked further (SK141 says so).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.file_references import Reference, find_references
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.registry import check
from wave_lsp.core.workspace.disk_view import DiskView
from wave_lsp.core.workspace.location import SKILL_FILE

MAX_RESOURCE_BYTES = 64 * 1024
MAX_ENTRIES_PER_FOLDER = 200
MAX_DEPTH = 5
MAX_TEXT_BYTES = 2 * 1024 * 1024
MAX_WALK = 5_000
SKIPPED = {"node_modules", "scripts"}


#: images, fonts, audio and video: the model never reads them as text (an icon, a brand image, a
#: font a script embeds), so an indexer that marks them unreadable changes nothing (sample 6: 190
#: brand images, 40 skill icons and a DocC catalog's pictures, all labelled noise). PDFs,
#: spreadsheets and other documents stay: the model may be told to read them.
MEDIA = frozenset({
    ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".ico", ".icns", ".bmp", ".tif", ".tiff",
    ".avif", ".heic", ".ttf", ".otf", ".woff", ".woff2", ".eot", ".mp3", ".wav", ".ogg",
    ".flac", ".m4a", ".aac", ".mp4", ".mov", ".webm", ".avi", ".mkv"})


def _unreadable(path: Path, info: os.stat_result, disk: DiskView) -> str | None:
    if stat.S_ISREG(info.st_mode) and info.st_nlink == 1 and path.suffix.lower() in MEDIA:
        return None
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    if info.st_nlink > 1:
        return f"is a hard link ({info.st_nlink} names for one file)"
    if info.st_size > MAX_RESOURCE_BYTES:
        return f"is {info.st_size / 1024:,.0f} KiB (over 64 KiB)"
    head = disk.head(path, 8192)  # what SK114 read of a helper already, else read now
    if isinstance(head, OSError):
        return f"cannot be read ({head.strerror or head})"
    if b"\x00" in head:
        return "is binary"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 4:  # not just a character cut at the 8 KiB boundary
            return "is not UTF-8 text"
    return None


@check("SK140", "SK141")
def resources(ctx: CheckContext) -> Iterator[Finding]:
    skill_dir = ctx.location.skill_dir
    if skill_dir is None or not skill_dir.is_dir() or ctx.location.path is None:
        return
    limits: list[str] = []
    text_bytes = walked = 0
    for folder, dirs, files in os.walk(skill_dir):
        depth = len(Path(folder).relative_to(skill_dir).parts)
        entries = len(dirs) + len(files)
        if entries > MAX_ENTRIES_PER_FOLDER:
            limits.append(f"`{_relative(Path(folder), skill_dir)}` has {entries} entries "
                          f"(limit {MAX_ENTRIES_PER_FOLDER})")
        if depth >= MAX_DEPTH and dirs:
            limits.append(f"`{_relative(Path(folder), skill_dir)}` is nested deeper than "
                          f"{MAX_DEPTH} levels")
            dirs[:] = []
        for name in list(dirs):
            if os.path.islink(os.path.join(folder, name)):
                yield _resource(ctx, skill_dir, Path(folder) / name, "is a symbolic link to a folder")
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED
                         and not os.path.islink(os.path.join(folder, d)))
        unreadable: list[tuple[Path, str]] = []
        for name in sorted(files):
            if name.startswith(".") or (depth == 0 and name == SKILL_FILE):
                continue
            walked += 1
            if walked > MAX_WALK:
                limits.append(f"more than {MAX_WALK:,} files (not all were examined)")
                break
            path = Path(folder) / name
            try:
                info = os.lstat(path)
            except OSError:
                continue
            problem = _unreadable(path, info, ctx.disk)
            if problem:
                unreadable.append((path, problem))
            else:
                text_bytes += info.st_size
        if unreadable:  # once per folder, on its first such file (sample 6: 190 brand images)
            yield _resource(ctx, skill_dir, *unreadable[0], others=len(unreadable) - 1)
        if walked > MAX_WALK:
            break
    if text_bytes > MAX_TEXT_BYTES:
        limits.append(f"{text_bytes / 1048576:.1f} MiB of text (limit 2 MiB)")
    if limits:
        yield ctx.finding("SK141", ctx.document.opener_span,
                          "Make the skill folder smaller: it exceeds the limits of skill "
                          "indexers such as Wisp's local-skills indexer, which shows the model "
                          "nothing beyond them: " + "; ".join(limits) + ".")


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() or "."


def _resource(ctx: CheckContext, skill_dir: Path, path: Path, problem: str,
              others: int = 0) -> Finding:
    folder = _relative(path.parent, skill_dir)
    more = (f" Said once for `{folder}/`: {others} other file{'s' if others != 1 else ''} there "
            f"{'are' if others != 1 else 'is'} binary, large or linked too.") if others else ""
    finding = ctx.finding("SK140", Span(0, 0),
                          f"Keep skill resources small, regular text files: "
                          f"`{_relative(path, skill_dir)}` {problem}, so skill indexers such as "
                          "Wisp's local-skills indexer mark it unreadable and the model cannot "
                          "open it there." + more)
    finding.path = str(path)
    return finding


MAX_HELPERS = 100
#: what every reference to a Markdown file contains: `.md` in any case, letters maybe
#: percent-encoded in a link (`%2Emd`); a helper without it links no other helper (half of the
#: corpus's helper files, whose scan is then skipped)
_MAY_NAME_MARKDOWN = re.compile(r"(?:\.|%2e)(?:m|%[46]d)(?:d|%[46]4)", re.I)
MAX_HELPER_BYTES = 256 * 1024  # at most `disk_view.READ_LIMIT`


#: the shortest cycle reported: two references that link each other ("see also", "go back to")
#: are a cross-reference the model reads once, not a chain deeper than one level (samples 3 and
#: 6: every two-file cycle labelled noise)
MIN_CYCLE = 3


@check("SK114")
def reference_cycle(ctx: CheckContext) -> Iterator[Finding]:
    """Helper markdown files (not SKILL.md) that link each other in a cycle of `MIN_CYCLE` files
    or more. Links in a helper are resolved against the helper's own folder, as a reader
    following them would."""
    skill_dir = ctx.location.skill_dir
    if skill_dir is None or not skill_dir.is_dir():
        return
    root = Path(ctx.real_skill_dir or os.path.realpath(skill_dir))
    disk = ctx.disk
    starts: dict[Path, Reference] = {}
    helpers: dict[str, Path | None] = {}  # target as written -> helper (a target repeats)
    for reference in find_references(ctx.document):
        if reference.target not in helpers:
            helpers[reference.target] = _helper(reference, skill_dir, root, disk)
        target = helpers[reference.target]
        if target is not None:
            starts.setdefault(target, reference)
    graph = _helper_graph(list(starts), root, disk)
    reported: set[frozenset[Path]] = set()
    for start, reference in starts.items():
        cycle = _cycle_from(start, graph)
        if cycle is None or frozenset(cycle) in reported:
            continue
        reported.add(frozenset(cycle))
        path = " → ".join(p.relative_to(root).as_posix() for p in [*cycle, cycle[0]])
        yield ctx.finding("SK114", reference.span,
                          "Helper files link each other in a cycle: link the helper files from "
                          f"SKILL.md only. A model that follows links may loop ({path}).")


def _helper(reference: Reference, folder: Path, root: Path, disk: DiskView) -> Path | None:
    """The real path of the helper markdown file a reference leads to inside the skill folder
    `root` (real), or None."""
    if reference.absolute or not reference.target.lower().endswith(".md"):
        return None
    path = disk.realpath(reference.resolved(folder))
    inside = str(root).rstrip(os.sep) + os.sep
    if os.path.basename(path) == "SKILL.md" or not path.startswith(inside) \
            or not disk.is_file(path):
        return None
    return Path(path)


def _helper_graph(starts: list[Path], root: Path, disk: DiskView) -> dict[Path, list[Path]]:
    graph: dict[Path, list[Path]] = {}
    queue = list(starts)
    while queue and len(graph) < MAX_HELPERS:
        current = queue.pop(0)
        if current in graph:
            continue
        graph[current] = []
        data = disk.read(current)  # once per run of the rules: SK140 looks at it again
        if isinstance(data, OSError):
            continue
        text = data[:MAX_HELPER_BYTES].decode("utf-8", errors="replace")
        if not _MAY_NAME_MARKDOWN.search(text):
            continue  # no reference of this helper can end with `.md`: nothing to scan for
        for reference in find_references(SkillDocument.from_text(text)):
            target = _helper(reference, current.parent, root, disk)
            if target is not None and target not in graph[current]:
                graph[current].append(target)
                queue.append(target)
    return graph


def _cycle_from(start: Path, graph: dict[Path, list[Path]]) -> list[Path] | None:
    """A cycle reachable from `start` (depth-first, the first one found)."""
    path: list[Path] = []
    on_path: set[Path] = set()
    done: set[Path] = set()

    def visit(node: Path) -> list[Path] | None:
        if node in on_path:  # two files that link each other cross-refer: no chain (sample 6)
            cycle = path[path.index(node):]
            return cycle if len(cycle) >= MIN_CYCLE else None
        if node in done:
            return None
        path.append(node)
        on_path.add(node)
        for successor in graph.get(node, []):
            found = visit(successor)
            if found is not None:
                return found
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    return visit(start)
