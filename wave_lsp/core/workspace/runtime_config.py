"""What a runtime's own configuration changes about where it finds skills, read the way the runtime
reads it (docs/design/runtime-facts.md §9.1; docs/design/product.md *Discovery*).

Every answer is driven by the profile's facts (`RuntimeProfile.walk_to`, `project_markers`,
`project_markers_setting`, `workspace_trust_gated`, `configured_roots`); nothing here names a
runtime:

- **The walk** (`walk_folders`): the folders whose `walked_roots` the runtime scans, from the
  working folder up to the project root (the first folder holding a project marker; Codex reads
  `project_root_markers` from `~/.codex/config.toml`, an empty list meaning the working folder
  only) or up to the worktree (the git root). Without a marker or a git root the working folder
  is the only one. The home folder ends a walk (its roots are the personal ones).
- **Workspace trust** (`workspace_trust`): the runtime's trust file (`~/.gemini/trustedFolders.json`:
  folder -> `TRUST_FOLDER`, `TRUST_PARENT` or `DO_NOT_TRUST`; the longest matching folder decides,
  `TRUST_PARENT` covering the folder's parent) and its switch (`security.folderTrust.enabled` in
  `~/.gemini/settings.json`, on unless set to `false`). With no rule for the folder the runtime
  asks when it first starts there (and trusts every folder in a headless run), so the answer is
  "unknown", which discovery treats as trusted. The user's `workspace-trust` setting, when not
  "auto", decides instead; with personal files off (`--no-personal`) "auto" reads no file.
- **Configured roots** (`configured_roots`): the skills roots named in the runtime's config files
  (OpenCode's `skills.paths` in `opencode.json`, VS Code's `chat.agentSkillsLocations`), resolved
  against the working folder with `~/` as the home folder; the last file that sets the key wins.

Config files are JSON with comments and trailing commas allowed (as JSONC readers take them), or
TOML for a `.toml` file. A file that cannot be read or parsed counts as absent.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Literal

from wave_lsp.core.facts.profile_types import ConfiguredRoots
from wave_lsp.core.facts.profiles import RuntimeProfile

Trust = Literal["trusted", "untrusted", "unknown"]


# -- config files -----------------------------------------------------------------------------
_JSONC_NOISE = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*[\s\S]*?\*/|,(?=\s*[}\]])')


def read_config(path: Path) -> object:
    """The parsed content of a JSON (comments and trailing commas allowed) or TOML file; None
    when it is missing, unreadable or malformed."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if path.suffix == ".toml":
        import tomllib  # only when a TOML config file exists

        try:
            return tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError):  # RecursionError: deeply nested
            return None
    try:
        return json.loads(_JSONC_NOISE.sub(lambda m: m.group(1) or "", text))
    except (ValueError, RecursionError):
        return None


def setting(data: object, key: tuple[str, ...]) -> object:
    """`data[key[0]][key[1]]…`; a dotted name such as `chat.agentSkillsLocations` is one key, as
    VS Code writes it. None when a step is missing."""
    for part in key:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


# -- the walk -------------------------------------------------------------------------------------
def project_markers(profile: RuntimeProfile, home: Path | None, personal: bool) -> tuple[str, ...]:
    """The markers of a project root: the user's setting when the profile has one and it is a
    list of strings, else the profile's defaults."""
    configured = profile.project_markers_setting
    if configured is None or home is None or not personal:
        return profile.project_markers
    value = setting(read_config(home / configured[0]), (configured[1],))
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    return profile.project_markers


def walk_folders(profile: RuntimeProfile, working: Path, home: Path | None,
                 personal: bool = True) -> list[Path]:
    """The folders of the profile's walk, the working folder first (just it for a profile that
    does not walk). Without a project root, a walk to the project root is the working folder
    only (Codex), while a walk to the worktree goes on to the file system's root (OpenCode
    1.18.33, whose worktree outside git is `/`: case oc-walk-no-git); the home folder, whose
    roots are the personal ones, ends either."""
    if not profile.walk_to:
        return [working]
    markers = (project_markers(profile, home, personal) if profile.walk_to == "to-project-root"
               else (".git",))
    unrooted = [working] if profile.walk_to == "to-project-root" else None
    chain: list[Path] = []
    for folder in [working, *working.parents]:
        if home is not None and folder == home and chain:
            return unrooted or chain  # the walk met the home folder before a project root
        chain.append(folder)
        if any(os.path.lexists(folder / marker) for marker in markers):
            return chain
    return unrooted or chain


# -- workspace trust --------------------------------------------------------------------------------
_TRUST_LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")


def workspace_trust(profile: RuntimeProfile, folder: Path, home: Path | None,
                    personal: bool = True) -> Trust:
    """Whether the runtime loads the workspace skills of `folder`: "trusted", "untrusted", or
    "unknown" (no rule: the runtime asks). Always "trusted" for a runtime without trust."""
    if not profile.workspace_trust_gated or profile.workspace_trust == "trusted":
        return "trusted"
    if profile.workspace_trust == "untrusted":
        return "untrusted"
    if home is None or not personal:
        return "unknown"
    switch = setting(read_config(home / profile.trust_settings_file),
                     ("security", "folderTrust", "enabled"))
    if switch is False:
        return "trusted"
    rules = read_config(home / profile.trust_folders_file)
    if not isinstance(rules, dict):
        return "unknown"
    return _longest_rule(rules, os.path.realpath(folder))


def _longest_rule(rules: dict[str, object], folder: str) -> Trust:
    """The level of the longest rule path whose folder holds `folder` (Gemini CLI's
    `isPathTrusted`: `TRUST_PARENT` covers the parent of its path)."""
    longest, level = -1, None
    for rule_path, value in rules.items():
        if value not in _TRUST_LEVELS:
            continue
        covered = os.path.dirname(rule_path) if value == "TRUST_PARENT" else rule_path
        real = os.path.realpath(covered)
        if (folder == real or folder.startswith(real.rstrip(os.sep) + os.sep)) \
                and len(rule_path) > longest:
            longest, level = len(rule_path), value
    if level is None:
        return "unknown"
    return "untrusted" if level == "DO_NOT_TRUST" else "trusted"


# -- configured roots -------------------------------------------------------------------------------
def configured_root_paths(profile: RuntimeProfile, working: Path, home: Path | None,
                          personal: bool = True) -> list[tuple[Path, ConfiguredRoots, Path]]:
    """(root, the config that names it, the file that does) for every skills root the runtime's
    config files add, in the files' order of precedence (the last setting file wins)."""
    found: list[tuple[Path, ConfiguredRoots, Path]] = []
    for config in profile.configured_roots:
        chosen: tuple[Path, object] | None = None
        for file in _config_files(profile, config, working, home, personal):
            value = setting(read_config(file), config.key)
            if value is not None:
                chosen = (file, value)
        if chosen is not None:
            found += [(path, config, chosen[0]) for path in
                      _paths(chosen[1], config, working, home)]
    return found


def _config_files(profile: RuntimeProfile, config: ConfiguredRoots, working: Path,
                  home: Path | None, personal: bool) -> list[Path]:
    if config.files_in == "home":
        return [home / name for name in config.files] if home is not None and personal else []
    if config.files_in == "workspace":
        return [working / name for name in config.files]
    folders = list(reversed(walk_folders(profile, working, home, personal)))  # outermost first
    return [folder / name for name in config.files for folder in folders]


def _paths(value: object, config: ConfiguredRoots, working: Path,
           home: Path | None) -> list[Path]:
    if config.form == "object":
        items = ([key for key, on in value.items() if on is True] if isinstance(value, dict)
                 else value if isinstance(value, list) else [])
    else:
        items = value if isinstance(value, list) else []
    found: list[Path] = []
    for item in items:
        if not isinstance(item, str) or not item.strip():
            continue
        text = item.strip()
        if text.startswith("~/"):
            if home is None:
                continue
            path = home / text[2:]
        else:
            path = working / text
        found.append(Path(os.path.normpath(path)))
    return found
