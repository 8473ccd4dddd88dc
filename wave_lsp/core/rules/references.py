"""docs/design/rules.md *Body*: file references — SK112 broken-reference, SK113 reference-escapes.

Decisions: a reference is checked only when the skill has a folder on disk (an unsaved document has
none). Paths are resolved against every base the runtime or the model uses (issue 16): the skill
folder first, then each folder above it up to the plugin root or, outside a plugin, the project
root (skills write `scripts/x.sh` meaning the plugin's or the project's script, and the model runs
commands in the working directory). A path is broken (SK112) only when no base holds it.

A reference that leaves the folder is SK113 only (not also SK112). It is not reported when the
file exists inside the plugin (installed together with the skill) or the project the skill belongs
to; when it exists only outside both, it is information (it works here, not where the folder is
installed alone) under a runtime target; when it exists nowhere it keeps the catalog level (and a
validator or `portable`, which judge the folder as installed alone, keep it always). A broken
reference offers "did you mean" when a file of the folder is within two edits of the written path
(or has the same file name).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.file_references import Reference, escapes, find_references, skill_files
from wave_lsp.core.rules.helpers import capped, closest, shown
from wave_lsp.core.rules.registry import check
from wave_lsp.core.workspace.disk_view import DiskView

MAX_REFERENCE_FINDINGS = 200


@check("SK112", "SK113")
def broken_references(ctx: CheckContext) -> Iterator[Finding]:
    skill_dir = ctx.location.skill_dir
    if skill_dir is None or not skill_dir.is_dir():
        return
    files: list[str] | None = None
    context = _context_root(ctx)
    bases = _bases(skill_dir, context)
    disk = ctx.disk
    #: target as written -> why it leaves the folder (None: it stays) and whether a base holds it
    known: dict[str, tuple[str | None, bool]] = {}
    for reference in capped(find_references(ctx.document), MAX_REFERENCE_FINDINGS):
        if reference.target not in known:
            reason = escapes(reference, skill_dir, disk.is_link)
            held = reason is None and any(disk.exists(reference.resolved(base)) for base in bases)
            known[reference.target] = (reason, held)
        reason, held = known[reference.target]
        if reason is not None:
            finding = _escape(ctx, reference, reason, skill_dir, context)
            if finding is not None:
                yield finding
            continue
        if held:
            continue
        if files is None:
            files = skill_files(skill_dir)
        yield _broken(ctx, reference, files, len(bases) > 1)


def _context_root(ctx: CheckContext) -> Path | None:
    """The folder the skill is installed together with: its plugin root, else its project root."""
    location = ctx.location
    if location.plugin is not None:
        return location.plugin.root
    return location.project_root


def _bases(skill_dir: Path, context: Path | None) -> list[str]:
    """The skill folder, then every folder above it up to `context` (included)."""
    bases = [str(skill_dir)]
    if context is not None and context in skill_dir.parents:
        for parent in skill_dir.parents:
            bases.append(str(parent))
            if parent == context:
                break
    return bases


def _escape(ctx: CheckContext, reference: Reference, reason: str, skill_dir: Path,
            context: Path | None) -> Finding | None:
    target = reference.resolve(skill_dir)
    if reference.target.startswith("/") and context is not None:
        target = Path(os.path.normpath(context / reference.target.lstrip("/")))
    lexical = not reason.startswith("is a symbolic link")
    exists = lexical and ctx.disk.exists(target)
    if exists and context is not None and (target == context or context in target.parents):
        return None  # installed together with the skill (plugin) or part of its project
    message = (f"`{shown(reference.target)}` {reason}: a skill is installed as its folder, so the "
               "file will not be there on other machines.")
    if exists and ctx.profile.kind == "runtime" and not reference.absolute:
        return ctx.finding("SK113", reference.span,
                           f"`{shown(reference.target)}` {reason}: it exists here, but not where "
                           "the folder is installed on its own.", level=Severity.INFORMATION)
    return ctx.finding("SK113", reference.span, message)


def _broken(ctx: CheckContext, reference: Reference, files: list[str],
            above: bool = False) -> Finding:
    written = reference.target.removeprefix("./")
    suggestion = closest(written, files) or _same_file_name(written, files)
    where = ("the skill folder or any folder above it up to the plugin or project root"
             if above else "the skill folder")
    message = f"`{shown(reference.target)}` does not exist in {where}."
    fixes = []
    if suggestion is not None:
        prefix = "./" if reference.target.startswith("./") else ""
        message += f" Did you mean `{suggestion}`?"
        fixes.append(ctx.replace_fix(f"Change to `{suggestion}`", reference.span, prefix + suggestion))
    return ctx.finding("SK112", reference.span, message, fixes=fixes, target=reference.target)


def _same_file_name(written: str, files: list[str]) -> str | None:
    name = PurePosixPath(written).name
    matches = [path for path in files if path.rpartition("/")[2] == name]  # clean relative paths
    return matches[0] if len(matches) == 1 else None


MAX_HELPERS = 100
#: what every reference to a Markdown file contains: `.md` in any case, letters maybe
#: percent-encoded in a link (`%2Emd`); a helper without it links no other helper (half of the
#: corpus's helper files, whose scan is then skipped)
_MAY_NAME_MARKDOWN = re.compile(r"(?:\.|%2e)(?:m|%[46]d)(?:d|%[46]4)", re.I)
MAX_HELPER_BYTES = 256 * 1024


@check("SK114")
def reference_cycle(ctx: CheckContext) -> Iterator[Finding]:
    """Helper markdown files (not SKILL.md) that link each other in a cycle. Links in a helper are
    resolved against the helper's own folder, as a reader following them would."""
    skill_dir = ctx.location.skill_dir
    if skill_dir is None or not skill_dir.is_dir():
        return
    root = Path(os.path.realpath(skill_dir))
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
                          f"Helper files link each other in a cycle ({path}): a model that "
                          "follows links may loop. Link the helper files from SKILL.md only.")


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
        try:
            with open(current, "rb") as handle:
                text = handle.read(MAX_HELPER_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
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
        if node in on_path:
            return path[path.index(node):]
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
