"""Where a SKILL.md lies, as data: its skill folder, project root, skills root, scope and plugin
(docs/design/product.md *Discovery*). A runtime names a skill, fills its `${…}` values and picks
the working folder from these facts, so they live in the invocation layer; finding them on disk
is `wave_lsp.core.workspace.location.locate`, a layer above, which fills them in.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Plugin:
    name: str
    root: Path
    #: the folders the manifest's `skills` lists (a skill folder or a folder of skills), absolute;
    #: they are loaded besides `<root>/skills/<dir>/`
    skill_paths: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class SkillLocation:
    """Facts about a SKILL.md path that do not depend on its content."""

    path: Path | None  #: absolute path of the file (None for an unsaved document)
    skill_dir: Path | None
    project_root: Path | None
    #: the skills root the file lies under (`<root>/.wave/skills`, a plugin's `skills`), if any
    skills_root: Path | None = None
    #: 1 for `<skills root>/<dir>/SKILL.md`, 0 for a file in the root itself, 2+ deeper
    depth_in_root: int | None = None
    scope: str = "workspace"  #: "project", "personal", "plugin" or "workspace"
    plugin: Plugin | None = None
    #: a legacy command file (`.claude/commands/sub/x.md`, a plugin's `commands/x.md`): its
    #: command, `sub:x` or `<plugin>:x` (`legacy_command`); None for a skill
    legacy_command: str | None = None

    @property
    def dir_name(self) -> str | None:
        return self.skill_dir.name if self.skill_dir else None

    @property
    def file_name(self) -> str | None:
        return self.path.name if self.path else None
