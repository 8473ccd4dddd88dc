"""File references in a SKILL.md body (docs/rules/SK112.md, SK113.md; docs/design/product.md *Language
server* links).

A reference is a relative Markdown link or image (`[x](references/api.md)`, not inside code), a path
after `${WAVE_SKILL_DIR}/`, `${CLAUDE_SKILL_DIR}/` or `{baseDir}/`, or a bare `scripts/…`,
`references/…` or `assets/…` path (also inside code: `python scripts/run.py` is how skills call
their scripts), except on a line that gives it as an example ("e.g.", "for example", "such as"). The
same list feeds the broken-reference rules, document links and go-to-definition.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.markdown import Fence, parse_body
from wave_lsp.core.parsing.text import Span

_LINK = re.compile(r"!?\[(?:[^\[\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)", re.M)
_SKILL_DIR_PATH = re.compile(
    r"(?:\$\{(?:WAVE_SKILL_DIR|CLAUDE_SKILL_DIR)\}|\{baseDir\})/([^\s`'\"()<>\[\]{},;|&]+)")
#: `{baseDir}/…`: the skill folder, as the model reads it from the "Base directory for this skill"
#: line Claude Code puts above the body (skills written for Claude Code use it in links too)
_BASE_DIR = "{baseDir}/"
_BARE_PATH = re.compile(r"(?<![\w./$}-])((?:\./)?(?:scripts|references|assets)/[\w./@+-]*[\w@+-])")
#: info strings of code blocks whose bare paths are commands the skill runs
SHELL_FENCES = {"", "bash", "sh", "shell", "zsh", "console", "terminal", "text", "!", "powershell",
                "pwsh", "cmd", "bat"}
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True, slots=True)
class Reference:
    """A path the body refers to, relative to the skill directory (or absolute)."""

    target: str  #: the path as written, without `#fragment`/`?query`
    span: Span  #: where the path is written
    kind: str  #: "link", "placeholder" or "bare"

    @property
    def absolute(self) -> bool:
        return self.target.startswith(("/", "~")) or bool(re.match(r"^[A-Za-z]:[\\/]", self.target))

    def resolve(self, skill_dir: Path) -> Path:
        if self.target.startswith("~"):
            return Path(os.path.expanduser(self.target))
        return Path(os.path.normpath(skill_dir / self.target))


def find_references(document: SkillDocument) -> list[Reference]:
    """Every file reference of the body, in document order, one per span."""
    return list(_find_references(document.text, document.body_offset))


@lru_cache(maxsize=64)
def _find_references(text: str, start: int) -> tuple[Reference, ...]:
    structure = parse_body(text, start)
    found: dict[Span, Reference] = {}
    for match in _LINK.finditer(text, start):
        if structure.in_code(match.start()):
            continue
        _add_link(found, match.group(1), match.start(1))
    for match in _DEFINITION.finditer(text, start):
        if not structure.in_code(match.start()):
            _add_link(found, match.group(1), match.start(1))
    for match in _SKILL_DIR_PATH.finditer(text, start):
        path = match.group(1).rstrip(".:")
        if path:
            span = Span(match.start(1), match.start(1) + len(path))
            found[span] = Reference(path, span, "placeholder")
    for match in _BARE_PATH.finditer(text, start):
        span = Span(match.start(1), match.end(1))
        fence = structure.fence_at(span.start)
        if _template_or_foreign(text, match.end(1), fence):
            continue
        if fence is None and _EXAMPLE.search(_line_around(text, span.start)):
            continue
        if not any(_overlaps(span, other) for other in found):
            found[span] = Reference(match.group(1), span, "bare")
    return tuple(sorted(found.values(), key=lambda ref: ref.span.start))


#: a line that gives bare paths as examples (a skill-writing guide's `scripts/rotate_pdf.py`), not
#: as files of this skill; links are references wherever they are
_EXAMPLE = re.compile(r"\b(?:e\.g\.|for example|for instance|such as)|\bexamples?\b[*_]*\s*:|"
                      r"\blike `", re.I)


def _line_around(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return text[start:end if end >= 0 else len(text)]


def _template_or_foreign(text: str, end: int, fence: Fence | None) -> bool:
    """A bare path that is a pattern (`scripts/*.py`, `scripts/{name}.sh`) or sits in a non-shell
    code block (a `docker-compose.yml` mounting `./scripts/init.sql` means the user's project)."""
    if end < len(text) and text[end] in "*{<[$%":
        return True
    return fence is not None and fence.info.split(" ")[0].lower() not in SHELL_FENCES


def _add_link(found: dict[Span, Reference], raw: str, offset: int) -> None:
    if raw.startswith("<") and raw.endswith(">"):
        raw, offset = raw[1:-1], offset + 1
    if raw.startswith(_BASE_DIR):
        raw, offset = raw[len(_BASE_DIR):], offset + len(_BASE_DIR)
    path = re.split(r"[#?]", raw, maxsplit=1)[0]
    if not path or (_SCHEME.match(path) and not re.match(r"^[A-Za-z]:[\\/]", path)):
        return
    span = Span(offset, offset + len(path))
    found[span] = Reference(unquote(path), span, "link")


def _overlaps(a: Span, b: Span) -> bool:
    return a.start < b.end and b.start < a.end


def escapes(reference: Reference, skill_dir: Path) -> str | None:
    """Why `reference` leaves the skill directory, or None when it stays inside."""
    if reference.absolute:
        return "is an absolute path"
    lexical = reference.resolve(skill_dir)
    root = Path(os.path.normpath(skill_dir))
    if not _is_within(lexical, root):
        return "goes above the skill directory (`..`)"
    # only a symbolic link below the skill folder can lead out of it: look for one
    current = root
    for part in lexical.relative_to(root).parts:
        current = current / part
        if os.path.islink(current):
            try:
                real = Path(os.path.realpath(current))
            except (OSError, ValueError):
                return None
            if not _is_within(real, Path(_real(str(root)))):
                return "is a symbolic link that points outside the skill directory"
            break
    return None


@lru_cache(maxsize=256)
def _real(path: str) -> str:
    return os.path.realpath(path)


def _is_within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def skill_files(skill_dir: Path, limit: int = 2000) -> list[str]:
    """Relative POSIX paths of the files in a skill folder (no hidden or `node_modules` folders,
    symlinked folders not followed, at most `limit`), for completion and "did you mean"."""
    found: list[str] = []
    for folder, dirs, files in os.walk(skill_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules"
                         and not os.path.islink(os.path.join(folder, d)))
        relative = Path(folder).relative_to(skill_dir)
        for name in sorted(files):
            if name.startswith("."):
                continue
            found.append((relative / name).as_posix())
            if len(found) >= limit:
                return found
    return found
