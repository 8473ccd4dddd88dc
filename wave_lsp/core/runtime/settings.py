"""The settings files a runtime reads, and the permission rules in them (docs/design/runtime-facts.md
§3.8 *Rule sources*; docs/security.md for the trust model).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from wave_lsp.core.runtime.profiles import RuntimeProfile
from wave_lsp.core.runtime.rules import BEHAVIORS, PermissionRule, make_rule


@dataclass(slots=True)
class RuleSet:
    rules: list[PermissionRule] = field(default_factory=list)
    #: settings files that exist but cannot be used, with why
    problems: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  #: the settings files consulted
    #: the files that set `disableSkillShellExecution: true` (Claude Code then runs no injection)
    disables_shell: list[Path] = field(default_factory=list)

    def extend(self, other: RuleSet) -> None:
        self.rules += other.rules
        self.problems += other.problems
        self.files += other.files
        self.disables_shell += other.disables_shell


def settings_files(profile: RuntimeProfile, project_root: Path | None, home: Path | None,
                   personal: bool = True, extra: Iterable[str] = ()) -> list[tuple[str, Path, bool]]:
    """(label, path, personal) of every settings file the target reads, lowest precedence first."""
    folder = profile.settings_folder
    files: list[tuple[str, Path, bool]] = []
    if personal and home is not None:
        files.append(("user settings", home / folder / "settings.json", True))
    if project_root is not None:
        files.append(("project settings", project_root / folder / "settings.json", False))
        files.append(("local project settings", project_root / folder / "settings.local.json",
                      False))
    for item in extra:
        path = Path(item).expanduser()
        if not path.is_absolute() and project_root is not None:
            path = project_root / path
        files.append(("settings file", path, False))
    return files


def user_settings_files(home: Path) -> list[Path]:
    """The user's settings file of every runtime (`~/.wave/settings.json`, `~/.claude/…`): their
    deny and ask rules apply whatever the target (docs/security.md)."""
    from wave_lsp.core.runtime.profiles import PROFILES

    folders = dict.fromkeys(profile.settings_folder for profile in PROFILES.values())
    return [home / folder / "settings.json" for folder in folders]


def load_settings(label: str, path: Path, personal: bool) -> RuleSet:
    """The `permissions.allow|ask|deny` rules of one settings file (missing file: no rules);
    read again only when the file changes."""
    try:
        info = path.stat()
    except OSError:
        return RuleSet()
    cached = _load_settings(label, path, personal, info.st_mtime_ns, info.st_size)
    return RuleSet(list(cached.rules), list(cached.problems), list(cached.files),
                   list(cached.disables_shell))


@lru_cache(maxsize=64)
def _load_settings(label: str, path: Path, personal: bool, _mtime: int, _size: int) -> RuleSet:
    result = RuleSet()
    try:
        if not path.is_file():
            return result
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        result.problems.append(f"{path}: cannot be read as JSON ({error})")
        return result
    result.files.append(path)
    if not isinstance(data, dict):
        result.problems.append(f"{path}: is not a JSON object")
        return result
    if data.get("disableSkillShellExecution") is True:
        result.disables_shell.append(path)
    permissions = data.get("permissions")
    if permissions is None:
        return result
    if not isinstance(permissions, dict):
        result.problems.append(f"{path}: permissions is not an object")
        return result
    for behavior in BEHAVIORS:
        entries = permissions.get(behavior, [])
        if not isinstance(entries, list):
            result.problems.append(f"{path}: permissions.{behavior} is not a list")
            continue
        for entry in entries:
            rule = make_rule(entry, behavior, label, path, personal) if isinstance(entry, str) \
                else None
            if rule is None:
                if behavior != "allow":  # a restriction that cannot be read fails closed
                    result.problems.append(f"{path}: permissions.{behavior} has an entry that is "
                                           f"not a rule: {json.dumps(entry)[:80]}")
                continue
            result.rules.append(rule)
    return result

