"""Renaming a skill: where the rename can start, whether the new name is valid, and every edit it
takes (docs/design/lsp.md *Renaming a skill*; the name rules of docs/design/rules.md *name*).

A rename starts on the `name:` value of a skill file's frontmatter, or on a `/name` mention of a
known skill in a body (the mention that go-to-definition follows). The new name must be one the
schema accepts (`name`'s pattern and length, `wave_lsp.core.rules.name.is_valid_name`); when it is
not, the messages of the checker's own name rules say why. The plan edits the `name:` value (its
quotes kept), every mention (`/old-name`, `` `old-name` ``, a hyphenated name in prose:
`wave_lsp.core.features.mentions`) and every Markdown link into the skill's folder in the skills
of the workspace and in the files that mention skills (`CLAUDE.md`, `AGENTS.md`, agent and
command files, plugin manifests: their paths to the folder too), and renames the folder when it
is named after the skill (the runtime requires name == folder). Spans are offsets into each
file's text as given by `read` (without a byte-order mark); the language server converts them at
the protocol boundary.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import rule
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import TextEdit
from wave_lsp.core.features import FeatureContext, match_at
from wave_lsp.core.features.mentions import LINK
from wave_lsp.core.features.navigation import SKILL_REFERENCE
from wave_lsp.core.features.skill_references import (
    mention_files,
    name_value_span,
    read_from_disk,
    read_mentions,
)
from wave_lsp.core.invocation.listing import skill_name
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.file_references import Reference, find_references
from wave_lsp.core.parsing.text import LineIndex, Span
from wave_lsp.core.rules import all_checks
from wave_lsp.core.rules.helpers import double_quoted
from wave_lsp.core.rules.name import is_valid_name
from wave_lsp.core.workspace.index import SkillIndex
from wave_lsp.core.workspace.location import SKILL_FILE, SkillLocation, locate

#: the rules of this catalog family judge a `name` value
NAME_FAMILY = "name"
#: name rules about the skill rather than the value (missing key, folder mismatch)
_NOT_ABOUT_THE_VALUE = ("SK030", "SK039")

#: how a plan reads a file: the editor's text when it is open, else the disk (None: unreadable)
ReadText = Callable[[Path], str | None]


class RenameError(Exception):
    """A rename that cannot be done, with the reason for the user. `invalid_name`: the new name is
    the problem (the request's params), not the place or the workspace."""

    def __init__(self, message: str, *, invalid_name: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.invalid_name = invalid_name


@dataclass(frozen=True, slots=True)
class RenameTarget:
    """The skill a rename is about, found at an offset of a document."""

    span: Span  #: where its name is written at the offset (the range the editor lets the user edit)
    name: str  #: the current name (the editor's placeholder)
    skill_file: Path  #: the skill's SKILL.md (or stray skill file)


@dataclass(frozen=True, slots=True)
class FileEdits:
    """The edits of one file, in offsets of `lines.text` (the file's text without its BOM)."""

    path: Path
    lines: LineIndex
    bom: bool  #: the text as read started with a byte-order mark (the editor counts it)
    edits: tuple[TextEdit, ...]


@dataclass(frozen=True, slots=True)
class FolderRename:
    old: Path
    new: Path


@dataclass(frozen=True, slots=True)
class RenamePlan:
    old_name: str
    new_name: str
    #: the renamed skill's file first, then the other files by path; none is empty
    files: tuple[FileEdits, ...]
    #: the skill's folder, when it is named after the skill
    folder: FolderRename | None
    #: what the rename leaves alone, for the user
    notes: tuple[str, ...] = field(default=())


# -- where a rename can start --------------------------------------------------------------------
def rename_target(ctx: FeatureContext, offset: int) -> RenameTarget | None:
    """The skill named at `offset` (the `name:` value or a `/name` mention), or None when nothing
    there can be renamed; RenameError when a mention names several skills."""
    own = _own_name_target(ctx, offset)
    if own is not None:
        return own
    return _mention_target(ctx, offset)


def _own_name_target(ctx: FeatureContext, offset: int) -> RenameTarget | None:
    path = ctx.location.path
    span = name_value_span(ctx.document)
    if path is None or span is None or not span.start <= offset <= span.end:
        return None
    return RenameTarget(span, ctx.document.value("name").strip(), path)


def _mention_target(ctx: FeatureContext, offset: int) -> RenameTarget | None:
    match = match_at(ctx, SKILL_REFERENCE, offset)
    if match is None and offset > 0:  # the cursor just after the mention's last character
        match = match_at(ctx, SKILL_REFERENCE, offset - 1)
    if match is None:
        return None
    mentioned = match.group(1)
    entries = ctx.index.named(mentioned)
    if not entries:
        return None
    if len(entries) > 1:
        places = ", ".join(str(entry.path) for entry in entries)
        raise RenameError(f"Several skills are named `{mentioned}` ({places}): rename the one you "
                          "mean from the `name:` of its SKILL.md.")
    base = mentioned.rsplit(":", 1)[-1]
    return RenameTarget(Span(match.end(1) - len(base), match.end(1)), base, entries[0].path)


# -- the new name ---------------------------------------------------------------------------------
def check_new_name(new_name: str, settings: Settings | None = None) -> None:
    """RenameError (invalid_name) when the schema does not accept `new_name` as a `name`; the
    message is what the checker's name rules would report about it."""
    if is_valid_name(new_name):
        return
    problems = name_problems(new_name, settings or Settings())
    spec = schema.field_spec("name")
    reason = " ".join(problems) or (spec.description if spec else "")
    raise RenameError(f"`{new_name}` is not a valid skill name: {reason}", invalid_name=True)


def name_problems(value: str, settings: Settings) -> list[str]:
    """The messages of the checker's name rules about a `name:` holding `value`."""
    document = SkillDocument.from_text(f"---\nname: {double_quoted(value)}\n---\n")
    context = CheckContext(document=document, location=SkillLocation(None, None, None),
                           settings=settings)
    messages = []
    for check in all_checks():
        if not any(rule(code).family == NAME_FAMILY and code not in _NOT_ABOUT_THE_VALUE
                   for code in check.codes):
            continue
        messages += [f"{finding.message} ({finding.code})"
                     for finding in check.function(context)
                     if finding.code not in _NOT_ABOUT_THE_VALUE]
    return messages


# -- the plan -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Skill:
    """The renamed skill, as its file says now."""

    path: Path
    document: SkillDocument
    bom: bool
    location: SkillLocation
    name: str
    invocation: str  #: what a mention writes after `/`: the name, or `plugin:name` in a plugin

    @property
    def folder(self) -> Path:
        return self.path.parent


def plan_rename(target: RenameTarget, new_name: str, index: SkillIndex, *,
                settings: Settings | None = None, read: ReadText = read_from_disk) -> RenamePlan:
    """Every edit that renames the skill of `target` to `new_name` (RenameError when it cannot)."""
    settings = settings or Settings()
    check_new_name(new_name, settings)
    skill = _load_skill(target.skill_file, read, settings)
    new_invocation = skill.invocation[: len(skill.invocation) - len(skill.name)] + new_name
    _refuse_collision(skill, new_invocation, index)
    folder = _folder_rename(skill, new_name)
    notes = []
    if folder is not None and _holds_a_workspace_folder(folder.old, index):
        notes.append(f"The folder {folder.old} was not renamed: the editor has it open (it is or "
                     f"holds a workspace folder). Rename it to {new_name} yourself.")
        folder = None
    others = [entry.path for entry in index.named(skill.invocation)
              if not _same_file(entry.path, skill.path)]
    if others:
        notes.append(f"The `/{skill.invocation}` mentions were left as they are: "
                     f"{len(others)} other skill(s) have that name too.")
    files = []
    names = _names_of(skill, index)
    for path in _files_to_scan(skill.path, index):
        found = _file_edits(path, skill, new_name, folder, read,
                            mentions=names if not others else frozenset())
        if found is not None:
            files.append(found)
    return RenamePlan(skill.name, new_name, tuple(files), folder, tuple(notes))


def _load_skill(path: Path, read: ReadText, settings: Settings) -> _Skill:
    text = read(path)
    if text is None:
        raise RenameError(f"Cannot read {path}.")
    document = SkillDocument.from_text(text)
    if name_value_span(document) is None:
        raise RenameError(f"{path} has no one-line `name:` to rename.")
    location = locate(path, home=settings.home)
    name = document.value("name").strip()
    return _Skill(path, document, text.startswith("\ufeff"), location, name,
                  skill_name(document, location))


def _refuse_collision(skill: _Skill, new_invocation: str, index: SkillIndex) -> None:
    taken = [entry.path for entry in index.named(new_invocation)
             if not _same_file(entry.path, skill.path)]
    if taken:
        raise RenameError(f"A skill named `{new_invocation}` already exists ({taken[0]}): "
                          "choose another name. Two skills of one name collide (SK130).")


def _folder_rename(skill: _Skill, new_name: str) -> FolderRename | None:
    """The folder's new path when the folder is named after the skill (and is not a skills root)."""
    location = skill.location
    if skill.path.name != SKILL_FILE or location.depth_in_root == 0 or \
            skill.folder.name != skill.name or new_name == skill.name:
        return None
    new = skill.folder.with_name(new_name)
    if os.path.lexists(new):
        raise RenameError(f"Cannot rename the folder {skill.folder.name} to {new_name}: {new} "
                          "already exists.")
    return FolderRename(skill.folder, new)


def _holds_a_workspace_folder(folder: Path, index: SkillIndex) -> bool:
    """Whether `folder` is one of the workspace folders or an ancestor of one: renaming it would
    pull the workspace out from under the editor."""
    real = Path(os.path.realpath(folder))
    opened = [Path(os.path.realpath(item)) for item in index.folders]
    return any(item == real or real in item.parents for item in opened)


def _files_to_scan(own: Path, index: SkillIndex) -> list[Path]:
    """The renamed skill's file, then every skill file of the workspace folders."""
    folders = [Path(os.path.realpath(folder)) for folder in index.folders]

    def in_workspace(path: Path) -> bool:
        real = Path(os.path.realpath(path))
        return any(folder in real.parents for folder in folders)

    others = sorted({entry.path for entry in index.skills()
                     if not _same_file(entry.path, own) and in_workspace(entry.path)})
    return [own, *others, *mention_files(folders)]


def _names_of(skill: _Skill, index: SkillIndex) -> frozenset[str]:
    """What a mention writes to name the skill: its invocation (`deploy`; `acme:deploy` in a
    plugin, whose bare `/deploy` names another command)."""
    del index  # the invocation alone: a plugin skill's bare name is not its mention
    return frozenset({skill.invocation})


def _same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file (the index resolves its folders; the editor's paths may go
    through a symbolic link)."""
    return first == second or os.path.realpath(first) == os.path.realpath(second)


def _file_edits(path: Path, skill: _Skill, new_name: str, folder: FolderRename | None,
                read: ReadText, *, mentions: frozenset[str]) -> FileEdits | None:
    if path == skill.path:
        text, document, bom = None, skill.document, skill.bom
    else:
        text = read(path)
        if text is None:
            return None
        document, bom = SkillDocument.from_text(text), text.startswith("\ufeff")
    edits: dict[Span, str] = {}
    if path == skill.path:
        span = name_value_span(document)
        assert span is not None  # _load_skill checked it
        edits[span] = new_name
    if mentions:
        edits.update({span: new_name for span in _mention_spans(path, document, mentions)})
    if folder is not None:
        edits.update({span: new_name for span in _link_spans(document, path.parent, folder.old)})
        edits.update({span: new_name for span in _manifest_spans(path, document, folder.old)})
    if not edits:
        return None
    ordered = tuple(TextEdit(span, new) for span, new in sorted(edits.items()))
    return FileEdits(path, document.lines, bom, ordered)


def _mention_spans(path: Path, document: SkillDocument, names: frozenset[str]) -> Iterable[Span]:
    """The name part of every mention of the skill (`/name`, `/plugin:name`, `` `name` ``, a
    distinctive name in prose; `wave_lsp.core.features.mentions`), not the `name:` that declares
    another file's own name; links are `_link_spans`' business."""
    for mention in read_mentions(path, document.text, names).mentions:
        if mention.kind != LINK and mention.invoked in names:
            yield mention.name_span


def _manifest_spans(path: Path, document: SkillDocument, old_folder: Path) -> Iterable[Span]:
    """In a plugin manifest, the segment of each path that leads to `old_folder` (relative to the
    plugin's root, the folder that holds `.claude-plugin/`)."""
    if path.suffix.lower() != ".json":
        return
    root = path.parent.parent if path.parent.name == ".claude-plugin" else path.parent
    for mention in read_mentions(path, document.text, {old_folder.name}).mentions:
        if mention.kind != LINK:
            continue
        parts = mention.target.split("/")
        upto = "/".join(parts[:parts.index(mention.invoked) + 1])
        if os.path.realpath(os.path.join(root, upto)) == os.path.realpath(old_folder):
            yield mention.span


def _link_spans(document: SkillDocument, base: Path, old_folder: Path) -> Iterable[Span]:
    """In every Markdown link that leads into `old_folder`, the path segment naming that folder."""
    for reference in find_references(document):
        if reference.kind == "link":
            span = _folder_segment(document.text, reference, base, old_folder)
            if span is not None:
                yield span


def _folder_segment(text: str, reference: Reference, base: Path, old_folder: Path) -> Span | None:
    """The span of the segment of the written link path that names `old_folder`, if the link goes
    into it (the path as written may be percent-encoded)."""
    target = reference.resolve(base)
    if reference.target.startswith("~") or (target != old_folder and old_folder not in target.parents):
        return None
    written = text[reference.span.start:reference.span.end]
    start = reference.span.start
    walked = Path("/") if written.startswith("/") else base
    for segment in written.split("/"):
        walked = Path(os.path.normpath(walked / unquote(segment))) if segment else walked
        if walked == old_folder and unquote(segment) == old_folder.name:
            return Span(start, start + len(segment))
        start += len(segment) + 1
    return None
