"""docs/design/rules.md *Body*: file references — SK112 broken-reference, SK113 reference-escapes,
SK150 at-reference (SK114 reference-cycle is in `resources`).

Decisions: a reference is checked only when the skill has a folder on disk (an unsaved document has
none). Paths are resolved against every base the runtime or the model uses (issues 16 and 27): the
skill folder first, then each folder above it up to the outermost of its plugin root, its
project root and its repository (the folder holding `.git`) — skills write `scripts/x.sh` meaning
the plugin's or the project's script, and the model runs commands in the working directory — then
a twin skill folder of the same name (its built copy), and, for a bare path (a command may run
from any folder), any folder of the project outside other skills' folders where the written path
exists as a tail (`scripts/mcp/x.py` run from `opc/`). A path is broken (SK112) only when nothing
matches: a path that a rename left stale exists nowhere and stays a finding. The message names
the root the search stopped at, or, when only a sibling skill has the path, that sibling.

What nothing holds is still no missing file of this skill (issue 37) when shorthand for two files
names files that exist (`scripts/run.ps1/.sh`), when it lies in a git submodule the checkout lacks,
when the skill's words make it optional or the user's (`reference_words.marked_optional`, at any
mention of that path), or when a sentence that mentions it scopes it to a sibling skill that has it,
to another repository or to a skill this project does not hold (`reference_words.named_owners`,
`names_skill`). A plugin skill's `${CLAUDE_PLUGIN_ROOT}/…` is resolved against the plugin's root
(one that repeats the plugin's folder, `plugins/<name>/…`, says so), and a command that runs a path
only the plugin's root holds is reported: it runs in the user's project (issue 37).

How sure (docs/design/rules.md *Severity policy*): a link target or a path under
`${CLAUDE_SKILL_DIR}` that resolves nowhere is *likely* (the rule's confidence); a bare path-like
word in prose or code is *heuristic* (at most information): the text may mean a file the skill
creates, one of the user's project, or an example. A link that is no file is not a reference at all
(`file_references`): a docs-site route or a slash command (`/en/skills`, `/uipath:x`: an absolute
target without a file extension that does not exist), a placeholder (`(link)`, `{url1}`), a brace
alternative (`x.{sh,ps1}`).

A reference that leaves the folder is SK113 only (not also SK112). It is not reported when the
file exists inside the plugin (installed together with the skill) or the project the skill belongs
to; when it exists only outside both, it is information (it works here, not where the folder is
installed alone) under a runtime target; when it exists nowhere it keeps the catalog level (and a
validator or `portable`, which judge the folder as installed alone, keep it always). A skill no
plugin or project root holds is installed as its folder alone, unless its collection is used where
it lies (`neighbours`: the project's instructions to agents name it, or a runtime's project skills
root reaches it through a symbolic link). A broken
reference offers "did you mean" when a file of the folder is within two edits of the written path
(or has the same file name).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from wave_lsp.core.checking.catalog import Confidence, Severity
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.checking.messages import capitalized
from wave_lsp.core.parsing.example_words import code_annotation, template_line
from wave_lsp.core.parsing.file_references import (
    HOST_LIKE,
    WILDCARD,
    Reference,
    escapes,
    find_references,
    same_file_name,
    shorthand_files,
    skill_files,
    wildcard_matches,
)
from wave_lsp.core.parsing.markdown import parse_body
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.helpers import about_writing_plugins, capped, closest, once_per_skill, shown
from wave_lsp.core.rules.registry import check
from wave_lsp.core.workspace.disk_view import DIRECTORY, DiskView

MAX_REFERENCE_FINDINGS = 200


@check("SK112", "SK113")
def broken_references(ctx: CheckContext) -> Iterator[Finding]:
    """SK112/SK113 (`_broken_references`); a guide's example paths said once per skill."""
    guide = _about_writing_skills(ctx)
    yield from once_per_skill(_broken_references(ctx), lambda f: "x" if guide and f.code == "SK112"
                              and f.confidence is Confidence.HEURISTIC else None,
                              "other paths of this guide's examples that exist nowhere")


def _broken_references(ctx: CheckContext) -> Iterator[Finding]:
    skill_dir = ctx.location.skill_dir
    if skill_dir is None or not skill_dir.is_dir():
        return
    context = _context_root(ctx)
    outer = _outer_root(ctx, skill_dir, context)
    search = _Search(ctx, skill_dir, outer, _bases(skill_dir, outer))
    #: target as written -> why it leaves the folder (None: it stays) and whether a base holds it
    known: dict[str, tuple[str | None, bool]] = {}
    search.references = find_references(ctx.document)
    for reference in capped(search.references, MAX_REFERENCE_FINDINGS):
        if reference.target not in known:
            reason = escapes(reference, skill_dir, ctx.disk.is_link)
            known[reference.target] = (reason, reason is None and search.holds(reference))
        reason, held = known[reference.target]
        if reason is not None:
            finding = _escape(ctx, reference, reason, skill_dir, context, search)
            if finding is not None:
                yield finding
            continue
        if not held:
            yield from _missing(search, reference)
        elif reference.kind == "bare":
            yield from _run_from_plugin_root(ctx, reference, skill_dir)
    yield from _plugin_paths(ctx, outer)


def _run_from_plugin_root(ctx: CheckContext, reference: Reference,
                          skill_dir: Path) -> Iterator[Finding]:
    """A plugin skill's command that runs or reads a path of the plugin's root (`python
    scripts/x.py`, `scripts/` beside `skills/`): it runs in the user's project, and the skill's
    paths resolve from its folder (issue 37). Information: labellers disagree whether the model
    finds it (real corpus, `gws-setup`: false; issue 37's repositories: a problem)."""
    plugin = ctx.location.plugin
    if plugin is None or not ctx.profile.expands("CLAUDE_PLUGIN_ROOT") \
            or ctx.disk.exists(reference.resolved(skill_dir)) or _about_writing_skills(ctx):
        return
    before = _line_before(ctx.text, reference.span.start)
    fence = parse_body(ctx.text, ctx.document.body_offset).fence_at(reference.span.start)
    if not (_RUNS_OR_READS.search(before)
            or (fence is not None and _COMMAND_POSITION.search(before))):
        return
    if not ctx.disk.exists(reference.resolved(plugin.root)):
        return  # held by a folder above the plugin (the project's own script): not the plugin's
    target = reference.target.removeprefix("./")
    finding = ctx.finding("SK112", reference.span,
                          f"Write `${{CLAUDE_PLUGIN_ROOT}}/{shown(target)}`: `{shown(target)}` is "
                          "the plugin's file, but the command runs in the user's project and the "
                          "skill's paths resolve from the skill's folder, where neither has it "
                          "(the model may still find it from there).", target=reference.target,
                          fixes=[ctx.replace_fix("Write it from `${CLAUDE_PLUGIN_ROOT}`",
                                                 reference.span,
                                                 f"${{CLAUDE_PLUGIN_ROOT}}/{target}")])
    finding.confidence = Confidence.HEURISTIC
    yield finding


def _plugin_paths(ctx: CheckContext, outer: Path | None) -> Iterator[Finding]:
    """`${CLAUDE_PLUGIN_ROOT}/…` that points nowhere in the plugin (issue 37), where the target
    expands the variable and the skill is a plugin's (elsewhere SK117 speaks); not in a guide to
    writing skills, whose paths are examples. A path that repeats the plugin's own folder from a
    folder above it (`plugins/<name>/…`) says so and offers the path without it."""
    from wave_lsp.core.parsing.file_references import plugin_root_paths

    plugin = ctx.location.plugin
    if plugin is None or not ctx.profile.expands("CLAUDE_PLUGIN_ROOT") \
            or _about_writing_skills(ctx) or ctx.disk.kind(str(plugin.root)) != DIRECTORY:
        return
    root, disk = plugin.root, ctx.disk
    shown_root = _relative(root, outer) if outer is not None and outer != root else "."
    for reference in capped(plugin_root_paths(ctx.document), MAX_REFERENCE_FINDINGS):
        if disk.exists(reference.resolved(root)):
            continue
        written = f"${{CLAUDE_PLUGIN_ROOT}}/{shown(reference.target)}"
        from wave_lsp.core.workspace.neighbours import undoubled_plugin_path  # a missing path

        fixed = undoubled_plugin_path(disk, reference.target, root, outer)
        if fixed is not None:
            yield ctx.finding("SK112", reference.span,
                              f"`{written}` names the plugin's folder twice: write "
                              f"`${{CLAUDE_PLUGIN_ROOT}}/{shown(fixed)}`. `${{CLAUDE_PLUGIN_ROOT}}` "
                              f"already is the plugin's root (`{shown_root}` here), so the path "
                              "points nowhere.", target=reference.target,
                              fixes=[ctx.replace_fix(f"Change to `{shown(fixed)}`",
                                                     reference.span, fixed)])
            continue
        first = reference.target.removeprefix("./").split("/", 1)[0]
        made = "/" in reference.target and disk.kind(str(root / first)) != DIRECTORY
        finding = ctx.finding("SK112", reference.span,
                              f"`{written}` does not exist: fix the path or add the file. "
                              f"`${{CLAUDE_PLUGIN_ROOT}}` is the plugin's root (`{shown_root}` "
                              "here), which is all that is installed with the plugin"
                              + (f"; it has no `{shown(first)}/` here (a build step may make "
                                 "it, or this checkout lacks it)." if made else "."),
                              target=reference.target)
        if made:  # a folder the plugin lacks altogether: built (`dist/`), or not checked out
            finding.confidence = Confidence.HEURISTIC
        yield finding


def _missing(search: _Search, reference: Reference) -> Iterator[Finding]:
    """The finding for a reference no base holds, unless the disk or the skill's words say it is
    no missing file of this skill: shorthand for files that all exist, a path in a submodule this
    checkout lacks, a file the skill marks as optional or the user's, or one the sentence scopes to
    a sibling skill that has it (or to another repository or a skill this project does not hold)
    (issue 37)."""
    files = shorthand_files(reference)
    if files:
        for file in files:
            if not search.holds(file):
                yield from _missing(search, file)
        return
    if search.in_absent_submodule(reference) or search.optional(reference) \
            or search.of_the_users_project(reference):
        return
    holders, named = search.owners(reference)
    if named is None:
        return  # scoped to a sibling that has it, or to something not checked here
    yield _broken(search.ctx, reference, search.files(), _stopped_at(search.ctx, search.outer),
                  holders, named)


class _Search:
    """Where one skill's references are looked for, and what the project around it holds, each
    asked once per check (`neighbours`: the project's skill folders, its submodules)."""

    def __init__(self, ctx: CheckContext, skill_dir: Path, outer: Path | None,
                 bases: list[str]) -> None:
        self.ctx, self.skill_dir, self.outer, self.bases = ctx, skill_dir, outer, bases
        self.references: list[Reference] = []
        self._files: list[str] | None = None
        self._skills: list[str] | None = None
        self._modules: tuple[str, ...] | None = None
        self._optional: dict[str, bool] = {}
        self._owners: dict[str, tuple[list[str], str | None]] = {}
        self._instructed: bool | None = None
        self._places: list[Path] | None = None
        self._made: frozenset[str] | None = None

    def holds(self, reference: Reference) -> bool:
        """Whether a base holds the path, or (a bare path) a folder of the project, or a twin.
        A file name with a wildcard (`assets/*.template.md`, a glob the model expands) is held
        where a file of its folder matches it (sample 5)."""
        disk = self.ctx.disk
        if WILDCARD.search(reference.target.rsplit("/", 1)[-1]):
            return any(wildcard_matches(reference.resolved(base), disk.entries)
                       for base in self.bases)
        return (any(disk.exists(reference.resolved(base)) for base in self.bases)
                or (self.outer is not None and _tail_exists(
                    disk, self.outer, reference, self.skill_dir.name,
                    bare=reference.kind == "bare")))

    def files(self) -> list[str]:
        if self._files is None:
            self._files = skill_files(self.skill_dir)
        return self._files

    def in_absent_submodule(self, reference: Reference) -> bool:
        """The path lies in a git submodule the repository declares and this checkout lacks."""
        from wave_lsp.core.workspace.neighbours import in_absent_submodule, submodules
        if self._modules is None:
            self._modules = submodules(self.ctx.disk, self.ctx.session.git_root(self.skill_dir))
        if not self._modules or reference.absolute:
            return False
        paths = [reference.resolved(base) for base in self.bases]
        return in_absent_submodule(self.ctx.disk, paths, self._modules) is not None

    def optional(self, reference: Reference) -> bool:
        """The skill marks the file as optional or the user's, at this mention or another of the
        same path (`markdown`'s `./scripts/fix-markdown.sh` under "Optional Helpers (if present
        in repo)" is the same file where a later step runs it)."""
        from wave_lsp.core.parsing.reference_words import marked_optional

        target = reference.target
        if target not in self._optional:
            text = self.ctx.text
            structure = parse_body(text, self.ctx.document.body_offset)
            self._optional[target] = any(marked_optional(text, other.span, structure)
                                         for other in self.references if other.target == target)
        return self._optional[target]

    def of_the_users_project(self, reference: Reference) -> bool:
        """The skill's words make the path a file of the project it works in, not its own
        (sample 4): it probes for it (`ls scripts/dev.sh 2>/dev/null`, `[ -f x ]`) at any
        mention, a mention is in an example of some project ("Sample grouping for a typical
        repo:"), or the skill makes the folder there itself (`mkdir -p scripts/ralph`,
        `cp … scripts/ralph/`, "Creating directory structure (`scripts/`, …)") and its own
        folder has no such folder."""
        from wave_lsp.core.parsing.reference_words import (
            example_of_a_project,
            made_folders,
            probed,
        )

        if reference.absolute:
            return False
        text = self.ctx.text
        structure = parse_body(text, self.ctx.document.body_offset)
        mentions = [other for other in self.references if other.target == reference.target]
        if any(probed(text, other.span, structure) or example_of_a_project(text, other.span)
               for other in mentions):
            return True
        if self._made is None:
            self._made = made_folders(text, structure)
        target = reference.target.removeprefix("./")
        first = target.split("/", 1)[0]
        if self.ctx.disk.exists(str(self.skill_dir / first)):
            return False
        return any(target == made or target.startswith(made + "/") for made in self._made)

    def owners(self, reference: Reference) -> tuple[list[str], str | None]:
        """The sibling skill folders that hold the path (relative to their folder), and the name
        of the skill a sentence scopes it to when that skill lacks it ("" when no sentence names
        one); (…, None) when the path is no missing file of this skill: a sentence that mentions
        it names a sibling that has it, another repository, or a skill this project does not
        hold. Every mention of the same path counts (the skill says once whose file it is)."""
        target = reference.target
        known = self._owners.get(target)
        if known is not None:
            return known
        parts = _parts(reference)
        skills = self._skill_folders()
        disk = self.ctx.disk
        holders = [folder for folder in skills
                   if parts and disk.exists(os.path.join(folder, *parts))]
        named: str | None = ""
        for other in self.references:
            if other.target == target:
                verdict = self._scope(other.span, holders, skills)
                if verdict is None:
                    named = None
                    break
                named = named or verdict
        self._owners[target] = (holders, named)
        return holders, named

    def _scope(self, span: Span, holders: list[str], skills: list[str]) -> str | None:
        """What one mention's sentence says about whose file the path is (`owners`)."""
        from wave_lsp.core.parsing.reference_words import named_owners, names_skill

        text = self.ctx.text
        if any(names_skill(text, span, os.path.basename(folder)) for folder in holders):
            return None
        own = {self.skill_dir.name.lower(), str(self.ctx.value("name") or "").lower()}
        structure = parse_body(text, self.ctx.document.body_offset)
        owners = [] if structure.fence_at(span.start) is not None else named_owners(text, span)
        for name, kind in owners:
            if name.lower() in own:
                continue
            if kind == "repository":
                return None
            folder = next((f for f in skills if os.path.basename(f).lower() == name.lower()), None)
            if folder is None or folder in holders:
                return None  # a skill of another plugin or project is not checked here
            return name
        return ""

    def in_place(self, reference: Reference) -> bool:
        """The skill's collection is used where it lies (`neighbours`): the project's
        instructions to agents name it, or a runtime's project skills root reaches it through a
        symbolic link from where the path leads to a file too."""
        from wave_lsp.core.workspace.neighbours import named_by_instructions

        ctx = self.ctx
        if self._instructed is None:
            self._instructed = named_by_instructions(ctx.disk, self.skill_dir,
                                                     ctx.location.project_root)
        return self._instructed or any(
            ctx.disk.exists(os.path.normpath(os.path.join(place, reference.target)))
            for place in self.places())

    def places(self) -> list[Path]:
        """Where runtimes load the skill from through a symbolic link (`neighbours`)."""
        from wave_lsp.core.workspace.neighbours import load_locations

        if self._places is None:
            ctx = self.ctx
            real = ctx.real_skill_dir or os.path.realpath(self.skill_dir)
            self._places = load_locations(ctx.disk, self.skill_dir, real,
                                          ctx.location.project_root,
                                          ctx.settings.home or Path.home(), ctx.settings.personal)
        return self._places

    def _skill_folders(self) -> list[str]:
        from wave_lsp.core.workspace.neighbours import skill_folders

        if self._skills is None:
            root = self.outer or self.skill_dir.parent
            own = str(self.skill_dir)
            self._skills = [folder for folder in skill_folders(self.ctx.disk, root)
                            if folder != own]
        return self._skills


def _parts(reference: Reference) -> list[str]:
    """The written path's parts, for a path relative to a folder ([] for one that is not)."""
    if reference.absolute:
        return []
    parts = [part for part in PurePosixPath(reference.target).parts if part not in ("", ".")]
    return [] if ".." in parts else parts


def _context_root(ctx: CheckContext) -> Path | None:
    """The folder the skill is installed together with: its plugin root, else its project root."""
    location = ctx.location
    if location.plugin is not None:
        return location.plugin.root
    return location.project_root


def _outer_root(ctx: CheckContext, skill_dir: Path, context: Path | None) -> Path | None:
    """The outermost folder the skill belongs to: its repository (`.git`), project or plugin root,
    whichever holds the others; None for a folder that belongs to none."""
    # the session's answer: once per folder and run (SK112 and SK150 both ask)
    candidates = [root for root in (context, ctx.location.project_root,
                                    ctx.session.git_root(skill_dir))
                  if root is not None and (root == skill_dir or root in skill_dir.parents)]
    return min(candidates, key=lambda root: len(root.parts), default=None)


def _stopped_at(ctx: CheckContext, outer: Path | None) -> str:
    """Where the search ended, in words: the root that `outer` is."""
    if outer is None:
        return "the skill folder"
    plugin = ctx.location.plugin
    if plugin is not None and plugin.root == outer:
        return "the skill folder, the folders above it up to the plugin root, or any folder below it"
    return ("the skill folder, the folders above it up to the project root, or any folder of the "
            "project")


def _tail_exists(disk: DiskView, root: Path, reference: Reference, twin: str,
                 bare: bool) -> bool:
    """Whether some folder below `root` holds the written path (`scripts/mcp/x.py` under `opc/`):
    its first part is looked up in every folder of the project (`neighbours.project_folders`)
    except inside another skill's folder (one holding a SKILL.md): `references/x.md` there is that
    skill's file, not this one's. Only bare paths are searched so: a command may run from any
    folder of the project, but a link or a `${CLAUDE_SKILL_DIR}` path is opened from the skill
    folder. Any reference resolves in a *twin*: another skill folder of this one's name
    (`skill-flavors/x/` composed into `skills/x/` at build time), which holds the skill as it is
    installed."""
    from wave_lsp.core.workspace.neighbours import project_folders  # only for a path no base holds

    parts = _parts(reference)
    if not parts:
        return False
    first = parts[0]
    for folder, entries in project_folders(disk, root):
        if "SKILL.md" in entries and folder != str(root):
            if os.path.basename(folder) == twin and disk.exists(os.path.join(folder, *parts)):
                return True  # this skill's twin (its built or installed copy) has it
            continue  # another skill's folder
        if bare and first in entries and disk.exists(os.path.join(folder, *parts)):
            return True
    return False


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
            context: Path | None, search: _Search | None = None) -> Finding | None:
    target = reference.resolve(skill_dir)
    if reference.target.startswith("/") and context is not None:
        target = Path(os.path.normpath(context / reference.target.lstrip("/")))
    lexical = not reason.startswith("is a symbolic link")
    exists = lexical and ctx.disk.exists(target)
    if _route_or_command(reference) and not exists and not ctx.disk.exists(reference.target):
        return None  # `(/en/skills)`, `(/uipath:uipath-solution)`: a page or a command, no file
    if not exists and _PLACEHOLDER_PATH.search(reference.target):
        return None  # `/path/to/phase1-recording.mp4`, `<your-file>`: the model fills it in
    alone = _installed_alone(ctx)
    if alone and exists and not reference.absolute and search is not None \
            and search.in_place(reference):
        alone = False  # the collection is used where it lies: the sibling is there (issue 37)
    if exists and not alone and context is not None and (target == context
                                                         or context in target.parents):
        return None  # installed together with the skill (plugin) or part of its project
    head = f"`{shown(reference.target)}` {reason}"
    message = (f"{head}: {_KEEP_INSIDE}. A skill is installed as its folder, so the file will not "
               "be there on other machines.")
    places = search.places() if search is not None and exists and alone else []
    if places and not reference.absolute:
        where = ", ".join(f"`{_relative(place, context)}`" for place in places[:MAX_HOLDERS_SHOWN])
        return _less_sure(ctx.finding(
            "SK113", reference.span, f"{head}: {_KEEP_INSIDE}. It exists beside the skill, but a "
            f"runtime loads the skill as {where} (a symbolic link), where the file is not."),
            reference)
    if exists and alone and not reference.absolute:
        return _less_sure(_alone(ctx, reference, head, target), reference)
    if exists and ctx.profile.kind == "runtime" and not reference.absolute:
        return _less_sure(ctx.finding(
            "SK113", reference.span, f"{head}: {_KEEP_INSIDE} if the folder is ever installed on "
            "its own. It exists here, but not where the folder is installed on its own.",
            level=Severity.INFORMATION), reference)
    if not exists and lexical and not reference.absolute:
        optional = search is not None and search.optional(reference)
        message = (f"{head} and points nowhere: fix the path or remove the reference. No file "
                   "is at that path here, nor where the skill is installed" + (
                       " (the skill's words expect it may be absent)." if optional else "."))
        return _less_sure(ctx.finding("SK113", reference.span, message, level=Severity.INFORMATION
                                      if optional else None), reference)
    return _less_sure(ctx.finding("SK113", reference.span, message), reference)


def _alone(ctx: CheckContext, reference: Reference, head: str, target: Path) -> Finding:
    """A path that exists here, in a skill installed on its own. A sibling skill's file resolves
    where the two are installed side by side and not where this one is installed alone: the
    message says both, and whether a README installs it alone or nothing says (sample 6; a
    README that installs the collection whole makes it information before this)."""
    from wave_lsp.core.workspace.neighbours import installed_whole, sibling_skill

    sibling = sibling_skill(ctx.disk, target, ctx.location.skill_dir)
    if sibling is None:
        return ctx.finding(
            "SK113", reference.span, f"{head}: {_KEEP_INSIDE}. It exists in this repository, but "
            "no plugin or project here loads the skill, so it is installed as its folder alone "
            "(copied, or `npx skills add`) and the file will not be there.")
    how = ("this repository's README installs it alone" if installed_whole(
        ctx.disk, ctx.location) is False else "nothing here says the collection is installed whole")
    return ctx.finding(
        "SK113", reference.span, f"{head} into the sibling skill `{sibling}`: {_KEEP_INSIDE}, or "
        f"name the `{sibling}` skill instead of its path. It resolves where the two are installed "
        f"side by side (the collection copied whole, or both installed with `npx skills add`), "
        f"not where this skill is installed alone, and {how}.")


#: a path written as a placeholder the model or the user fills in: `/path/to/x`, `<your-file>`,
#: `{file}`, `/your/project/x`, `YOUR_FILE`
_PLACEHOLDER_PATH = re.compile(r"(?:^|/)path/to(?:/|$)|<[^<>/]+>|\{[^{}/]+\}|"
                               r"(?:^|/)(?:your|my)[-_]?[\w-]*(?:/|$)|(?:^|/)YOUR_\w+", re.I)


def _relative(path: Path, root: Path | None) -> str:
    if root is not None and (root == path or root in path.parents):
        return path.relative_to(root).as_posix()
    return str(path)


#: SK113's advice: what keeps the file with the skill wherever its folder goes
_KEEP_INSIDE = "put the file in the skill folder and refer to it there"


def _installed_alone(ctx: CheckContext) -> bool:
    """Whether the skill folder is distributed to be installed on its own: no plugin holds it and
    it is in no skills root of a project or of the user (a repository of skills, `skills/x/`):
    a user copies the folder, so nothing beside it comes along (issue 27), unless the repository
    shows the collection installed whole (`neighbours.installed_whole`)."""
    from wave_lsp.core.workspace.neighbours import installed_whole

    return ctx.location.plugin is None and ctx.location.scope == "workspace" \
        and installed_whole(ctx.disk, ctx.location) is not True


def _route_or_command(reference: Reference) -> bool:
    """A link to a docs-site route or a slash command: an absolute target (one `/`, not `//`)
    whose last part has no file extension."""
    target = reference.target
    return (reference.kind == "link" and target.startswith("/") and not target.startswith("//")
            and "." not in target.rstrip("/").rsplit("/", 1)[-1])


def _less_sure(finding: Finding, reference: Reference) -> Finding:
    """A bare path-like word is a guess that the text means a file: heuristic."""
    if reference.kind == "bare":
        finding.confidence = Confidence.HEURISTIC
    return finding


def _broken(ctx: CheckContext, reference: Reference, files: list[str],
            where: str = "the skill folder", holders: list[str] | None = None,
            named: str = "") -> Finding:
    written = reference.target.removeprefix("./")
    suggestion = closest(written, files) or same_file_name(written, files)
    advice = []
    if reference.kind == "link" and HOST_LIKE.match(reference.target):
        advice.append(f"write `https://{shown(reference.target)}` (it looks like a web address "
                      "without a scheme)")
    fixes = []
    if suggestion is not None:
        prefix = "./" if reference.target.startswith("./") else ""
        advice.append(f"change it to `{suggestion}` if that is the file meant")
        fixes.append(ctx.replace_fix(f"Change to `{suggestion}`", reference.span, prefix + suggestion))
    todo = ', or '.join(advice) or 'fix the path or add the file'
    if named:
        message = (f"`{shown(reference.target)}` is not in the `{shown(named)}` skill the sentence "
                   f"names: {todo}. It is not in this skill's folder either.")
    elif holders and suggestion is None:
        message = (f"`{shown(reference.target)}` does not exist here: {todo}. "
                   f"{_in_a_sibling(ctx, reference, holders)}")
    else:
        message = f"`{shown(reference.target)}` does not exist: {todo}. It is not in {where}."
    finding = ctx.finding("SK112", reference.span, message, fixes=fixes, target=reference.target)
    if reference.kind == "bare" and not _meant_as_own_file(ctx, reference):
        finding.confidence = Confidence.HEURISTIC
    if _PROJECT_FOLDER.match(reference.target) and ctx.location.scope != "project":
        # `.github/pull_request_template.md` in a distributed skill: a file of the project the
        # skill is used in, which may well have it
        finding.confidence = Confidence.HEURISTIC
    return finding


MAX_HOLDERS_SHOWN = 3


def _in_a_sibling(ctx: CheckContext, reference: Reference, holders: list[str]) -> str:
    """Where the path exists when only sibling skills hold it (issue 37), and when the model
    finds it there: the model resolves a skill's paths from that skill's folder."""
    names = [os.path.basename(folder) for folder in holders]
    root = _outer_root(ctx, ctx.location.skill_dir or Path(), _context_root(ctx))
    path = _shown_from(holders[0], reference, root)
    if len(names) == 1:
        return (f"It is not in the skill folder or the folders above it, but the sibling skill "
                f"`{names[0]}` has `{path}`: the model, resolving the path from this skill's "
                f"folder, finds that one only after reading the `{names[0]}` skill.")
    listed = ", ".join(f"`{name}`" for name in names[:MAX_HOLDERS_SHOWN])
    more = ", …" if len(names) > MAX_HOLDERS_SHOWN else ""
    return (f"It is not in the skill folder or the folders above it, but the sibling skills "
            f"{listed}{more} have one (`{path}`, …): the model, resolving the path from this "
            f"skill's folder, finds those only after reading one of them.")


def _shown_from(folder: str, reference: Reference, root: Path | None) -> str:
    """The sibling's file, relative to the project (or the folder above the skill)."""
    path = os.path.join(folder, *_parts(reference))
    base = str(root) if root is not None else os.path.dirname(os.path.dirname(folder))
    return os.path.relpath(path, base).replace(os.sep, "/")


def _meant_as_own_file(ctx: CheckContext, reference: Reference) -> bool:
    """Whether the skill's own words make a bare path a file it tells the model to open or run
    (issue 27: *likely*, not a guess): the skill keeps its own files in that folder (its
    `references/` exists, so a missing `references/x.md` is one it lacks), or the path is what a
    command runs or reads (`python scripts/x.py`, `./scripts/x`, `cat references/x.md`), or an
    instruction in prose names it ("Read `references/x.md`", "see references/x.md"). A guide to
    writing skills, commands or plugins names other skills' files, in code (a fenced example, an
    inline span) or on a template line ("Pattern: [core idea]. See references/file.md for
    [edge cases]", sample 5): there a bare path stays a guess, unless the guide's own prose,
    outside code, tells the model to open it ("Consult these guides: See references/workflows.md
    for …")."""
    before = _line_before(ctx.text, reference.span.start)
    if _MADE_HERE.search(before):
        return False  # "the emitted `references/x.md`", "Save the chart to assets/x.png"
    structure = parse_body(ctx.text, ctx.document.body_offset)
    if _about_writing_skills(ctx):
        return (not structure.in_code(reference.span.start)
                and bool(_TOLD_TO_OPEN.search(before))
                and not template_line(ctx.text, reference.span.start))
    skill_dir = ctx.location.skill_dir
    first = reference.target.removeprefix("./").split("/", 1)[0]
    if skill_dir is not None and ctx.disk.kind(str(skill_dir / first)) == DIRECTORY:
        return True
    if _RUNS_OR_READS.search(before):
        return True
    if structure.fence_at(reference.span.start) is not None:
        return bool(_COMMAND_POSITION.search(before))
    after = ctx.text[reference.span.end:reference.span.end + MAX_LEAD]
    return bool(_TOLD_TO_OPEN.search(before) or _listed_file(reference, before, after)
                or (structure.in_code(reference.span.start) and _INLINE_COMMAND.match(after)
                    and before.endswith("`")))


def _listed_file(reference: Reference, before: str, after: str) -> bool:
    """A file in the skill's inventory of its files: a list item or a table cell that is the
    path and what it is for ("- `scripts/flash.py` — esptool wrapper", "| Report | `references/
    report.md` | … |"). A folder (no file extension) there may be one the skill makes."""
    if "." not in reference.target.rstrip("/").rsplit("/", 1)[-1]:
        return False
    return bool((_ITEM_START.search(before) and _ITEM_DESCRIBED.match(after))
                or (_CELL_START.search(before) and _CELL_END.match(after)))


def _about_writing_skills(ctx: CheckContext) -> bool:
    """A guide to writing skills, commands or plugins (hooks, MCP servers, agents): the paths in
    its examples are the reader's skill's or plugin's (`scripts/my-hook.sh`, sample 5)."""
    return about_writing_plugins(ctx.value("name"), ctx.value("description"))


def _line_before(text: str, offset: int) -> str:
    """The text of the line before `offset`, at most `MAX_LEAD` characters."""
    start = max(text.rfind("\n", 0, offset) + 1, offset - MAX_LEAD)
    return text[start:offset]


MAX_LEAD = 80
#: a command word right before the path: what runs it or reads it (a Python module run with
#: `-m` reads the path it is given: `python -m runtime.harness scripts/x.py`)
_RUNS_OR_READS = re.compile(
    r"(?:^|[\s`(;&|])(?:(?:uv\s+run\s+)?python[\d.]*(?:\s+-[\w-]+)*(?:\s+-m\s+[\w.]+)?|"
    r"uv\s+run|uvx|bash|sh|zsh|node|"
    r"deno(?:\s+run)?|bun(?:\s+run)?|npx(?:\s+(?:tsx|ts-node))?|tsx|ts-node|ruby|perl|Rscript|"
    r"source|cat|less|head|tail|php|pwsh|powershell)(?:\s+-[\w-]+)*\s+[\"']?$")
#: the path is the command itself: at the start of a line or after `$ `, `&&`, `;`, `|`, `(`
_COMMAND_POSITION = re.compile(r"(?:^|[;&|(]|\$)\s*[`\"']?$")
#: a list item that starts with the path, and what follows it there: a dash, a colon, the end
_ITEM_START = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+[`*]*$")
_ITEM_DESCRIBED = re.compile(r"[`*]*\s*(?:[\u2014\u2013:(-]|$)", re.M)
#: a table cell that holds only the path
_CELL_START = re.compile(r"^\s*\|(?:[^|\n]*\|)*\s*[`*]*$")
_CELL_END = re.compile(r"[`*]*\s*\|")
#: an inline code span that starts with the path and gives it arguments: a command
_INLINE_COMMAND = re.compile(r" [^`\n]+`")
#: words before the path that make it something the skill produces, not a file it has
_MADE_HERE = re.compile(r"\b(?:emit(?:s|ted)?|generat\w*|creat\w*|writ(?:e|es|ing)|written|"
                        r"produc(?:e|es|ed|ing)|sav(?:e|es|ed|ing)|exports?|exported)\b", re.I)
#: an instruction in prose that names the path as a file to open or run, in the same clause
_TOLD_TO_OPEN = re.compile(
    r"\b(?:read|reads|reading|see|load|loads|open|consult|run|runs|execute|executes|invoke|"
    r"follow|refer\s+to|use|edit|modify)\b[^.;:!?()\n]{0,40}?[`*\"'\s(]*$", re.I)


#: a path into a project's own configuration folders (`.github/`, `.claude/`, `.vscode/`)
_PROJECT_FOLDER = re.compile(r"^\.(?!\.?/)[\w-]+/")


#: `@path` as Claude Code finds it in a local skill's text when the skill is invoked: after the
#: start of a line or white space; the path up to white space (a trailing sentence mark is not part
#: of it). docs/design/rules.md *Body*.
_AT_REFERENCE = re.compile(r"(?:^|(?<=\s))@(\"[^\"\n]+\"|[^\s`'\"()<>\[\]{},;|]+)", re.M)
#: what an `@` word must look like to be meant as a file: a path with a slash and a file name with
#: an extension, or a leading `/`, `./`, `../`, `~/` (`@claude`, `@agent-x`, `@types/node` are not)
_AT_FILE = re.compile(r"^(?:[/~.]|.*\.[A-Za-z0-9]{1,8}$)")


@check("SK150")
def at_references(ctx: CheckContext) -> Iterator[Finding]:
    """SK150 (`_at_references`); the `@` paths a guide shows in code said once per skill."""
    shown: set[int] = set()
    yield from once_per_skill(_at_references(ctx, shown), lambda f: "x" if id(f) in shown
                              else None, "other `@` paths of commands this guide shows")


def _at_references(ctx: CheckContext, examples: set[int]) -> Iterator[Finding]:
    """`@path` in prose or inline code that resolves nowhere against the runtime's base, the
    working directory (the project the skill is used in): Claude Code attaches the file when the
    skill is invoked and drops a missing one silently. Code blocks are skipped (`npm i @scope/x`,
    a decorator, a mention in an example), and so is a template (`@/docs/{name}`). An absolute
    `@/x` or `@~/x` is likely wrong wherever the skill runs; a relative one is checked against the
    project, which is the working directory only for a project's own skill (scope "project"): a
    plugin's, a personal or a distributed skill runs in the user's project, so there it is
    heuristic. A guide to writing commands is no exception in its prose: its "Read the guide
    first: @/docs/x.md" is attached like any other (labelled-2's reviewer: true); in its inline
    code the `@` path is the text of a command it shows ("**Multiple files:** `Compare
    @src/old.js with @src/new.js`", sample 5): heuristic."""
    skill_dir = ctx.location.skill_dir
    if skill_dir is None or not skill_dir.is_dir():
        return
    structure = parse_body(ctx.text, ctx.document.body_offset)
    outer = _outer_root(ctx, skill_dir, _context_root(ctx))
    #: where the user may run the runtime: the project root, or (no root known) any folder above
    bases = [str(outer)] if outer is not None else [str(p) for p in skill_dir.parents][:MAX_UP]
    disk = ctx.disk
    found = 0
    for match in _AT_REFERENCE.finditer(ctx.text, ctx.document.body_offset):
        if found >= MAX_REFERENCE_FINDINGS:
            return
        raw = match.group(1).strip('"').rstrip(".:!?")
        if ctx.text[match.end():match.end() + 1] == "{":
            continue  # `@/docs/command-resources/{relevant-templates}`: a template
        if structure.fence_at(match.start()) is not None or not raw or "@" in raw \
                or not _AT_FILE.match(raw) or _SCHEME_LIKE.match(raw) or HOST_LIKE.match(raw):
            continue  # `@claude`, `@types/node`, `@posit.co`: a mention, a package, a domain
        if code_annotation(raw, ctx.text[match.end():match.end() + 1]):
            continue  # `@Acl.Matcher(…)`, `@app.route("/")`: an annotation or a decorator
        if raw.startswith(("~", "/")):
            targets = [os.path.expanduser(raw)]
        else:
            targets = [os.path.normpath(os.path.join(base, raw)) for base in bases]
        if any(disk.exists(target) for target in targets):
            continue
        found += 1
        where = ("the file system root (an `@/` path is absolute)" if raw.startswith("/")
                 else "your home folder" if raw.startswith("~")
                 else "the working directory (the project the skill is used in)")
        span = Span(match.start(1), match.start(1) + len(match.group(1).rstrip(".:!?")))
        finding = ctx.finding("SK150", span,
                              f"`@{shown(raw)}` names a file that does not exist, so the model "
                              f"never sees it: fix the path or add the file. {_attacher(ctx)} "
                              f"when the skill is invoked, resolved against {where}, and "
                              f"drop{'' if ctx.profile.kind == 'aggregate' else 's'} a missing "
                              "one silently.")
        if structure.in_code(match.start()) and _about_writing_skills(ctx):
            finding.confidence = Confidence.HEURISTIC  # a command's text a guide shows (sample 5)
            examples.add(id(finding))
        elif not raw.startswith(("~", "/")) and ctx.location.scope != "project":
            # only a project's own skill (`.claude/skills/`) runs with this project as its
            # working directory; a plugin's or a distributed skill runs in the user's project,
            # and whether that has the file is unknown here
            finding.confidence = Confidence.HEURISTIC
        yield finding


def _attacher(ctx: CheckContext) -> str:
    """Who attaches `@` files (SK150): the target's runtime, or for an aggregate the runtimes that
    do (not every member does)."""
    if ctx.profile.kind == "aggregate":
        return "The runtimes that attach `@` files do so"
    return f"{capitalized(ctx.profile.runtime)} attaches `@` files"


_SCHEME_LIKE = re.compile(r"^[A-Za-z][\w+.-]*:")
#: how many folders above a skill that belongs to no project may be the working directory
MAX_UP = 6
