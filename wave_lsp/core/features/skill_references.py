"""Skills and the files that mention them: find-references, the unknown `/name` finding (SK152),
hover and go-to-definition on a mention (docs/features/references.md; docs/design/lsp.md
*Renaming a skill* for the rename that uses the same mentions).

The files that mention skills are the workspace's SKILL.md files, its `CLAUDE.md`,
`CLAUDE.local.md` and `AGENTS.md` files, the agent and command files under `.claude/agents/` and
`.claude/commands/`, and plugin manifests (`.claude-plugin/plugin.json`, `marketplace.json`).
`wave_lsp.core.features.mentions` finds the mentions in one text; this module reads the files
(through a `read` function: the editor's text when a file is open), decides which skill each
mention names (by `SkillIndex`), and answers in offsets of each file's text without its
byte-order mark: the language server converts at the protocol boundary.

SK152 is reported in CLAUDE.md, AGENTS.md, agent and command files (not in manifests, not in
SKILL.md: a skill's own body is checked by the rules of SKILL.md) for a `/name` that no skill of
the index, no command file and no built-in command of the runtime provides
(`wave_lsp/data/builtin_commands.toml`, with its evidence): by the language server in the open
files, and by `wave-lsp check` in those inside the paths it checks (`check_mentions`).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.features.mentions import LINK, SLASH, Mention, base_name, find_mentions
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.text import LineIndex, Span
from wave_lsp.core.parsing.yamltree import ALIAS
from wave_lsp.core.rules.helpers import closest
from wave_lsp.core.workspace.discovery import file_kind
from wave_lsp.core.workspace.index import SkillEntry, SkillIndex
from wave_lsp.core.workspace.session import WorkspaceSession

if TYPE_CHECKING:
    from wave_lsp.core.checking.checker import FileReport

CODE = "SK152"
#: what the reader gets for a file: its text as the editor shows it (None: unreadable)
ReadText = Callable[[Path], str | None]
SKIPPED = frozenset({".git", "node_modules", ".hg", ".svn", ".venv", "__pycache__", ".tox"})
#: the walk for mention files stops after this many folders or files (a huge workspace)
MAX_FOLDERS = 20_000
MAX_FILES = 2_000
#: the hover text of a skill quotes at most this much of its description
HOVER_DESCRIPTION = 400


# -- built-in commands -----------------------------------------------------------------------------
@cache
def builtin_commands() -> frozenset[str]:
    """Every built-in slash command of Claude Code (the probed list, the bundle's commands and
    their aliases)."""
    beside = Path(__file__).parents[2] / "data" / "builtin_commands.toml"
    if beside.is_file():
        text = beside.read_text("utf-8")
    else:  # pragma: no cover - an installed package that is not a folder
        from importlib import resources

        text = resources.files("wave_lsp.data").joinpath("builtin_commands.toml").read_text("utf-8")
    names: set[str] = set()
    for runtime in tomllib.loads(text).values():
        for key in ("probed", "read", "aliases"):
            names.update(runtime.get(key, ()))
    return frozenset(names)


# -- the texts -------------------------------------------------------------------------------------
def read_from_disk(path: Path) -> str | None:
    """A file's text as an editor shows it (UTF-8, the byte-order mark not counted)."""
    try:
        return path.read_bytes().decode("utf-8-sig", errors="replace")  # line ends kept as they are
    except OSError:
        return None


@dataclass(frozen=True, slots=True)
class MentionText:
    """One file's text and its mentions."""

    path: Path
    lines: LineIndex  #: of the text without its byte-order mark
    bom: bool
    mentions: tuple[Mention, ...]


def read_mentions(path: Path, text: str, known: Iterable[str]) -> MentionText:
    """The mentions of one file's text (`text` as the editor holds it, a BOM included)."""
    bom = text.startswith("\ufeff")
    body = text[1:] if bom else text
    if path.suffix.lower() == ".json":
        mentions = find_mentions(body, tuple(known), markdown=False)
    else:
        document = SkillDocument.from_text(body)
        declared = _name_line(document)
        mentions = [m for m in find_mentions(body, tuple(known), body_offset=document.body_offset)
                    if declared is None or not declared.start <= m.span.start < declared.end]
    return MentionText(path, LineIndex(body), bom, tuple(mentions))


def _name_line(document: SkillDocument) -> Span | None:
    """The frontmatter's `name:` line (its value declares, it does not mention)."""
    entry = document.fields.get("name")
    if entry is None:
        return None
    line = document.lines.line_of(entry.key.span.start)
    return document.lines.span_of_line(line)


def known_names(index: SkillIndex) -> set[str]:
    """The names skills are mentioned by: each invocation (`acme:deploy`) and its last part."""
    names: set[str] = set()
    for entry in index.skills():
        names.add(entry.name)
        names.add(base_name(entry.name))
    return names


def skills_of(mention: Mention, index: SkillIndex, path: Path) -> list[SkillEntry]:
    """The skills a mention in `path` names: by the name they are invoked by (`acme:deploy` for
    a plugin's skill: its bare `deploy` names another command, as in rename); a link by the
    folder its path leads to."""
    if mention.kind == LINK:
        return _linked(mention, index, path)
    return index.named(mention.invoked)


def _linked(mention: Mention, index: SkillIndex, path: Path) -> list[SkillEntry]:
    target = mention.target
    cut = target.split("/")
    upto = "/".join(cut[:cut.index(mention.invoked) + 1]) if mention.invoked in cut else target
    base = path.parent.parent if path.parent.name == ".claude-plugin" else path.parent
    folder = os.path.normpath(os.path.join(base, upto))
    real = os.path.realpath(folder)
    return [entry for entry in index.skills()
            if os.path.realpath(entry.skill_dir) == real]


# -- the workspace's files ------------------------------------------------------------------------
def mention_files(folders: Iterable[Path]) -> list[Path]:
    """The memory, agent, command and manifest files under the workspace folders (bounded)."""
    found: list[Path] = []
    walked = 0
    for folder in folders:
        for current, dirs, files in os.walk(folder):
            walked += 1
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
            for name in sorted(files):
                path = Path(current, name)
                if file_kind(path) not in (None, "skill"):
                    found.append(path)
            if walked > MAX_FOLDERS or len(found) > MAX_FILES:
                return found
    return found


def workspace_files(index: SkillIndex) -> list[Path]:
    """Every file of the workspace folders that may mention a skill: the skills, then the others."""
    folders = [Path(os.path.realpath(folder)) for folder in index.folders]

    def inside(path: Path) -> bool:
        real = Path(os.path.realpath(path))
        return any(folder == real or folder in real.parents for folder in folders)

    skills = sorted({entry.path for entry in index.skills() if inside(entry.path)})
    return [*skills, *mention_files(folders)]


@dataclass(frozen=True, slots=True)
class Place:
    """A span of one file, with what converts it for the client."""

    path: Path
    lines: LineIndex
    bom: bool
    span: Span


def references(skill: SkillEntry, index: SkillIndex, read: ReadText,
               files: Iterable[Path] | None = None) -> list[Place]:
    """Every mention of `skill` in the workspace's files, by file then offset."""
    known = known_names(index)
    places: list[Place] = []
    for path in (workspace_files(index) if files is None else files):
        text = read(path)
        if text is None:
            continue
        found = read_mentions(path, text, known)
        for mention in found.mentions:
            if any(_same(entry.path, skill.path) for entry in skills_of(mention, index, path)):
                places.append(Place(path, found.lines, found.bom, mention.span))
    return places


def declaration(skill: SkillEntry, read: ReadText) -> Place | None:
    """Where the skill declares its name: the `name:` value of its SKILL.md (its start when it
    has none)."""
    text = read(skill.path)
    if text is None:
        return None
    bom = text.startswith("\ufeff")
    document = SkillDocument.from_text(text)
    span = name_value_span(document) or Span(0, 0)
    return Place(skill.path, document.lines, bom, span)


def _same(first: Path, second: Path) -> bool:
    return first == second or os.path.realpath(first) == os.path.realpath(second)


def name_value_span(document: SkillDocument) -> Span | None:
    """Where the text of `name:` is written (inside its quotes), or None when it is not one line
    of text (missing, empty, a block scalar, an alias or not a string)."""
    entry = document.fields.get("name")
    if entry is None or entry.value is ALIAS or not isinstance(entry.value, str):
        return None
    node = entry.node
    if node.kind != "scalar" or node.style in ("|", ">") or not entry.value.strip():
        return None
    span = node.content_span
    if node.style in ("'", '"'):
        span = Span(span.start + 1, max(span.start + 1, span.end - 1))
    if "\n" in document.text[span.start:span.end] or "\r" in document.text[span.start:span.end]:
        return None
    return span


# -- the skill at an offset -----------------------------------------------------------------------
def skill_at(path: Path, text: str, offset: int, index: SkillIndex) -> list[SkillEntry]:
    """The skills named at `offset` of a file: on a mention, the skills it names; in a SKILL.md,
    on its `name:` value or its first `#` heading, the skill itself. `offset` counts without a
    byte-order mark."""
    found = read_mentions(path, text, known_names(index))
    for mention in found.mentions:
        if mention.span.start <= offset <= mention.span.end:
            return skills_of(mention, index, path)
    if file_kind(path) != "skill":
        return []
    document = SkillDocument.from_text(text)
    if _on_own_name(document, offset):
        own = index.entry(path)
        return [own] if own is not None else []
    return []


def _on_own_name(document: SkillDocument, offset: int) -> bool:
    from wave_lsp.core.parsing.markdown import parse_body

    span = name_value_span(document)
    if span is not None and span.start <= offset <= span.end:
        return True
    headings = [h for h in parse_body(document.text, document.body_offset).headings
                if h.level == 1]
    return bool(headings) and headings[0].span.start <= offset <= headings[0].span.end


def hover_markdown(entries: list[SkillEntry]) -> str:
    """What a hover on a mention shows: each skill's name, description and file."""
    parts = []
    for entry in entries:
        description = entry.description.strip()
        if len(description) > HOVER_DESCRIPTION:
            description = description[:HOVER_DESCRIPTION].rstrip() + "…"
        hint = f" `{entry.argument_hint}`" if entry.argument_hint else ""
        parts.append(f"**/{entry.name}**{hint} — skill ({entry.scope})\n\n{description}\n\n"
                     f"`{entry.path}`")
    return "\n\n---\n\n".join(parts)


# -- SK152 ------------------------------------------------------------------------------------------
def command_names(folders: Iterable[Path], home: Path | None) -> set[str]:
    """The commands of the legacy command files (`.claude/commands/x.md` is `/x`;
    `.claude/commands/group/x.md` is `/group:x` and `/x`), in the folders and the home folder."""
    names: set[str] = set()
    for base in [*folders, *([home] if home else [])]:
        root = base / ".claude" / "commands"
        if not root.is_dir():
            continue
        for count, path in enumerate(root.rglob("*.md")):
            if count > MAX_FILES:
                break
            relative = path.relative_to(root).with_suffix("")
            names.add(relative.name)
            names.add(":".join(relative.parts))
    return names


def unknown_mentions(mentions: Iterable[Mention], index: SkillIndex,
                     commands: set[str]) -> Iterator[tuple[Mention, str | None]]:
    """The slash mentions no skill, command file or built-in provides, each with the nearest
    known name (None when none is near)."""
    provided = known_names(index) | commands | builtin_commands()
    candidates = sorted(known_names(index) | commands)
    for mention in mentions:
        if mention.kind != SLASH or "__" in mention.invoked:
            continue  # MCP prompts (`/mcp__server__prompt`) are the MCP servers' business
        if mention.invoked in provided or mention.invoked.lower() in provided:
            continue
        yield mention, closest(mention.invoked, candidates)


def mention_findings(found: MentionText, index: SkillIndex, settings: Settings,
                     commands: set[str]) -> list[Finding]:
    """SK152 in one memory, agent or command file, severities applied for the target (none when
    the target does not report the rule or the settings turn it off), suppression comments
    honoured as in a SKILL.md."""
    from wave_lsp.core.checking.suppression import collect

    default = rule(CODE).severity(settings.profile)
    if default is None or not reports_mentions(settings):
        return []
    shared = settings.auto_target and found.path.name.lower() == "agents.md"
    if shared:  # read by runtimes whose built-in commands wave-lsp has no list of
        default = Severity.INFORMATION
    suppressions = collect(SkillDocument.from_text(found.lines.text))  # `<!-- wave-lsp: ignore … -->`
    findings = []
    for mention, nearest in unknown_mentions(found.mentions, index, commands):
        finding = _finding(mention, nearest, settings, default, found.lines)
        if shared:
            finding.message += _SHARED_MEMORY
        assert finding.range is not None
        if not suppressions.silences(CODE, finding.range.start.line):
            findings.append(finding)
    return findings


#: said of a `/name` in an `AGENTS.md` checked with no target configured: Codex, OpenCode, Copilot,
#: Cursor and Gemini CLI read the file too, and their built-in commands (Codex's `/review`) are in
#: no list of wave-lsp's, so an unknown name is information there (docs/features/references.md)
_SHARED_MEMORY = (" (Information only: other runtimes read `AGENTS.md` too, and their built-in "
                  "commands are not known here; set a target to check it for one runtime.)")


def reports_mentions(settings: Settings) -> bool:
    """Whether SK152 is reported with these settings: their target has a list of its built-in
    commands (the others' rows of the catalog are `-`) and the rule is not turned off."""
    return rule(CODE).severity(settings.profile) is not None and settings.enabled(CODE)


def mention_settings(path: Path, settings: Settings) -> Settings:
    """The settings a mention file is checked with: these, or with no target configured
    (`auto_target`), Claude Code for its own files (`CLAUDE.md`, `CLAUDE.local.md`, the agent and
    command files under `.claude/`), which it reads, and for another (`AGENTS.md`) the target its
    place gives (`Settings.for_file`), still marked as not chosen by the user."""
    if not settings.auto_target:
        return settings
    from dataclasses import replace

    from wave_lsp.core.facts.profiles import CLAUDE_CODE
    from wave_lsp.core.workspace.location import locate

    claude = file_kind(path) in ("agent", "command") or path.name.lower() != "agents.md"
    if claude:
        return replace(settings, profile=CLAUDE_CODE, auto_target=False)
    # `auto_target` stays on: the target was not the user's choice (`mention_findings` makes an
    # unknown name information there)
    return replace(settings.for_file(locate(path, home=settings.home)), auto_target=True)


def workspace_of(path: Path) -> Path:
    """The folder whose skills and command files a mention file's `/name` may name, for
    `wave-lsp check` (the language server asks its workspace folders): the file's git project,
    else the folder that holds its `.claude` folder (an agent or command file), else its own
    folder."""
    from wave_lsp.core.workspace.location import find_git_root

    absolute = Path(os.path.abspath(path))
    found = find_git_root(absolute.parent)
    if found is not None:
        return found
    parts = [part.lower() for part in absolute.parts[:-1]]
    if ".claude" in parts:
        return Path(*absolute.parts[:len(parts) - 1 - parts[::-1].index(".claude")])
    return absolute.parent


def check_mentions(files: Iterable[Path], settings: Settings,
                   session: WorkspaceSession | None = None,
                   read: ReadText | None = None) -> Iterator[FileReport]:
    """SK152 in each of `files` (memory, agent and command files; `wave-lsp check`), one report
    per file, each against the skills of its workspace (`workspace_of`; the personal ones unless
    `personal` is off) and the command files there and in the home folder, as the language server
    reports it for an open file. A file checked for a target that does not report SK152 (or with
    the rule turned off), or that cannot be read, gets no report: it was not checked."""
    from wave_lsp.core.checking.checker import FileReport
    from wave_lsp.core.workspace.location import locate

    reading = read or read_from_disk
    session = session or WorkspaceSession()
    home = settings.home or Path.home()
    indexes: dict[Path, tuple[SkillIndex, set[str]]] = {}
    for path in files:
        location = locate(path, home=home)
        own = mention_settings(path, settings)
        text = reading(path) if reports_mentions(own) else None
        if text is None:
            continue
        folder = workspace_of(path)
        if folder not in indexes:
            index = SkillIndex(session)
            index.rebuild([folder], settings)
            indexes[folder] = index, command_names(index.folders, index.home)
        index, commands = indexes[folder]
        found = read_mentions(path, text, known_names(index))
        yield FileReport(path, mention_findings(found, index, own, commands), location=location,
                         target=own.profile.name, checked_for=own.profile.runtime)


def _finding(mention: Mention, nearest: str | None, settings: Settings, default: Severity,
             lines: LineIndex) -> Finding:
    said = f"No skill, command file or built-in command provides `/{mention.invoked}`"
    rest = "Otherwise the model looks for a command that does not exist."
    fixes = []
    if nearest is None:
        # no name near it: more often a plugin's, a submodule's or a personal skill the index
        # does not see than a typo (sample 7: a CLAUDE.md naming its plugin's skills), so it is
        # information; a near miss of a known name stays at the rule's level
        message = (f"{said}: write the name of an existing skill, or create the skill. {rest} "
                   "(Information: no known name is near it, so a plugin or a personal skill "
                   "this check does not see may provide it.)")
        default = max(default, Severity.INFORMATION)  # the less severe of the two
    else:
        message = (f"{said}: replace it with `/{nearest}`, the nearest name, or create the skill. "
                   f"Did you mean `/{nearest}`? {rest}")
        fixes.append(Fix(f"Replace with `/{nearest}`",
                         [TextEdit(Span(mention.span.start + 1, mention.span.end), nearest)],
                         preferred=True))
    finding = Finding(CODE, message, mention.span, fixes=fixes,
                      data={"mentioned": mention.invoked, "suggestion": nearest})
    finding.severity = settings.severity_of(CODE, finding.certainty.cap(default))
    finding.resolve(lines)
    return finding
