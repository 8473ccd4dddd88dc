"""The settings files a runtime reads, and what the permission decisions take from them
(docs/design/runtime-facts.md §3.8, its rule sources; docs/security.md for the trust model).

For Claude Code (runtime-facts §3.8, the settings the prediction reads): the user's file under
`$CLAUDE_CONFIG_DIR` when it is set (else `~/.claude`), the project's and local files of the folder
Claude Code starts in, the files of `settingsFiles`, and the managed settings
(`/etc/claude-code/managed-settings.json` on Linux, `/Library/Application Support/ClaudeCode/`
on macOS, `C:\\ProgramData\\ClaudeCode\\` on Windows, each with its `managed-settings.d/*.json`),
highest precedence last. Besides `permissions.allow|ask|deny` a file gives
`permissions.defaultMode`, `permissions.additionalDirectories`, `skillOverrides`,
`disableSkillShellExecution`, `effortLevel` and whether it has `PreSkillShellCommand` hooks. For Wave
(runtime-facts §8.12) it also gives `permissions.permissionMode`, Wave's key of the mode.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from copy import copy as shallow_copy
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.permissions.rules import BEHAVIORS, PermissionRule, make_rule
from wave_lsp.core.permissions.wave_facts import MODE_KEY as WAVE_MODE_KEY
from wave_lsp.core.permissions.wave_facts import MODES as WAVE_MODES


@dataclass(slots=True)
class RuleSet:
    rules: list[PermissionRule] = field(default_factory=list)
    #: settings files that exist but cannot be used, with why
    problems: list[str] = field(default_factory=list)
    #: those of `problems` that are files the JSON parser rejects (a runtime may skip such a file
    #: alone, where a file that parses but fails validation costs more: Wave, §8.12)
    unparsable: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  #: the settings files consulted
    #: the files that set `disableSkillShellExecution: true` (Claude Code then runs no injection)
    disables_shell: list[Path] = field(default_factory=list)
    #: `permissions.defaultMode` of each file that sets one, lowest precedence first
    modes: list[tuple[str, Path]] = field(default_factory=list)
    #: `permissions.additionalDirectories`, absolute
    directories: list[Path] = field(default_factory=list)
    #: `skillOverrides`: skill name -> (value, file), the highest precedence file's
    overrides: dict[str, tuple[str, Path]] = field(default_factory=dict)
    #: the files with a `PreSkillShellCommand` hook (it gates every injected command)
    hooks: list[Path] = field(default_factory=list)
    #: Wave's `permissions.permissionMode` of each file that sets one, lowest precedence first
    #: (runtime-facts §8.12)
    wave_modes: list[tuple[str, Path]] = field(default_factory=list)
    #: `effortLevel` of each file that sets one, lowest precedence first (`${CLAUDE_EFFORT}`)
    efforts: list[tuple[str, Path]] = field(default_factory=list)

    def extend(self, other: RuleSet) -> None:
        """Add `other`'s (a higher-precedence file's) to these: lists appended, `overrides`
        updated."""
        for item in fields(self):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            if isinstance(mine, dict):
                mine.update(theirs)
            else:
                mine += theirs

    @property
    def mode(self) -> tuple[str, Path] | None:
        """The permission mode in force: the highest precedence file's `defaultMode`."""
        return self.modes[-1] if self.modes else None

    def mode_for(self, profile: RuntimeProfile) -> tuple[str, Path] | None:
        """The mode `profile`'s runtime reads: Wave's `permissionMode` from its own settings
        files, else `defaultMode`."""
        if not profile.wave_permissions:
            return self.mode
        own = [(mode, path) for mode, path in self.wave_modes
               if path.parent.name == profile.settings_folder]
        return own[-1] if own else None

    def copy(self) -> RuleSet:
        """A copy whose lists and mapping can be extended without touching these."""
        return RuleSet(**{item.name: shallow_copy(getattr(self, item.name)) for item in fields(self)})


#: where Claude Code reads managed settings, per platform (runtime-facts §3.8; the settings
#: documentation, code.claude.com/docs/en/settings)
MANAGED_FOLDERS = {"linux": Path("/etc/claude-code"),
                   "darwin": Path("/Library/Application Support/ClaudeCode"),
                   "win32": Path("C:/ProgramData/ClaudeCode")}


def managed_settings_files(profile: RuntimeProfile) -> list[Path]:
    """The managed settings files of `profile`'s runtime on this machine (Claude Code only):
    `managed-settings.json`, then the `managed-settings.d/*.json` drop-ins in name order."""
    if profile.settings_folder != ".claude":
        return []
    folder = MANAGED_FOLDERS.get(sys.platform, MANAGED_FOLDERS["linux"])
    drop_ins = folder / "managed-settings.d"
    try:
        extra = sorted(drop_ins.glob("*.json")) if drop_ins.is_dir() else []
    except OSError:
        extra = []
    return [folder / "managed-settings.json", *extra]


def user_settings_folder(profile: RuntimeProfile, home: Path) -> Path:
    """The user's settings folder: `$CLAUDE_CONFIG_DIR` for Claude Code when it is set, else
    `~/<settings folder>`."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
    if profile.settings_folder == ".claude" and configured:
        return Path(configured).expanduser()
    return home / profile.settings_folder


def start_folder(project_root: Path | None) -> Path | None:
    """The folder the runtime starts in, whose project settings it reads: the working directory
    when it is inside `project_root` (a monorepo's `apps/web`), else the project root."""
    if project_root is None:
        return None
    try:
        here = Path.cwd()
    except OSError:
        return project_root
    root = os.path.normcase(os.path.abspath(project_root))
    inside = os.path.normcase(str(here))
    if inside == root or inside.startswith(root.rstrip(os.sep) + os.sep):
        return here
    return project_root


def settings_files(profile: RuntimeProfile, project_root: Path | None, home: Path | None,
                   personal: bool = True, extra: Iterable[str] = ()) -> list[tuple[str, Path, bool]]:
    """(label, path, personal) of every settings file the target reads, lowest precedence first."""
    folder = profile.settings_folder
    files: list[tuple[str, Path, bool]] = []
    if personal and home is not None:
        files.append(("user settings", user_settings_folder(profile, home) / "settings.json",
                      True))
    start = start_folder(project_root)
    roots = [start] if start == project_root else [project_root, start]
    for root in roots:
        if root is not None:
            files.append(("project settings", root / folder / "settings.json", False))
            files.append(("local project settings", root / folder / "settings.local.json", False))
    for item in extra:
        path = Path(item).expanduser()
        if not path.is_absolute() and project_root is not None:
            path = project_root / path
        files.append(("settings file", path, False))
    files += [("managed settings", path, False) for path in managed_settings_files(profile)]
    return files


def user_settings_files(home: Path) -> list[Path]:
    """The user's settings file of every runtime (`~/.wave/settings.json`, `~/.claude/…`): their
    deny and ask rules apply whatever the target (docs/security.md)."""
    from wave_lsp.core.facts.profiles import PROFILES

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
    return cached.copy()


@lru_cache(maxsize=64)
def _load_settings(label: str, path: Path, personal: bool, _mtime: int, _size: int) -> RuleSet:
    result = RuleSet()
    try:
        if not path.is_file():
            return result
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        result.problems.append(f"{path}: cannot be read as JSON ({error})")
        result.unparsable.append(result.problems[-1])
        return result
    result.files.append(path)
    if not isinstance(data, dict):
        result.problems.append(f"{path}: is not a JSON object")
        return result
    if data.get("disableSkillShellExecution") is True:
        result.disables_shell.append(path)
    _runtime_keys(data, path, result)
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



#: the permission modes Claude Code knows (`manual` is its alias of `default`)
MODES = frozenset({"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto"})


def _runtime_keys(data: dict[str, object], path: Path, result: RuleSet) -> None:
    """`permissions.defaultMode` and `additionalDirectories`, `skillOverrides`, `effortLevel`
    and `hooks.PreSkillShellCommand` of one settings file."""
    permissions = data.get("permissions")
    if isinstance(permissions, dict):
        mode = permissions.get("defaultMode")
        if mode == "manual":
            mode = "default"
        if isinstance(mode, str) and mode in MODES:
            result.modes.append((mode, path))
        wave_mode = permissions.get(WAVE_MODE_KEY)
        if isinstance(wave_mode, str) and wave_mode in WAVE_MODES:
            result.wave_modes.append((wave_mode, path))
        folders = permissions.get("additionalDirectories")
        if isinstance(folders, list):
            base = path.parent.parent
            result.directories += [Path(os.path.normpath(base / Path(item).expanduser()))
                                   for item in folders if isinstance(item, str) and item]
    effort = data.get("effortLevel")
    if isinstance(effort, str) and effort:
        result.efforts.append((effort, path))
    overrides = data.get("skillOverrides")
    if isinstance(overrides, dict):
        result.overrides.update({name: (value, path) for name, value in overrides.items()
                                 if isinstance(name, str) and isinstance(value, str)})
    hooks = data.get("hooks")
    if isinstance(hooks, dict) and hooks.get("PreSkillShellCommand"):
        result.hooks.append(path)
