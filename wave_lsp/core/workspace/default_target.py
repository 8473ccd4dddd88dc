"""The target of a file when none is configured (docs/design/rules.md *The default target*).

No `--target`, no `wave.target` setting and no `[tool.wave-lsp] target`: each skill is checked for
the runtime that will read it, chosen from where it lives. A skills root named after a runtime
(`.wave/skills`, `.claude/skills`, `.codex/skills`, `.github/skills`, …; `RuntimeProfile.own_roots`)
picks that runtime; a Claude Code plugin picks `claude-code` and a Wave plugin `wave`; a root no
runtime owns (`.agents/skills`) is read as `portable` across the runtimes that scan it
(`shared_root_profile`); anything else (a repository that distributes skills, `examples/`) keeps
the `wave` default. An explicit target always wins.
"""

from __future__ import annotations

from wave_lsp.core.runtime.profiles import (
    CLAUDE_CODE,
    DEFAULT_PROFILE,
    PROFILES,
    WAVE,
    RuntimeProfile,
    shared_root_profile,
)
from wave_lsp.core.workspace.location import SkillLocation, root_name

#: the runtime each owned root belongs to
_OWNERS = {root: profile for profile in PROFILES.values() for root in profile.own_roots}


def target_for(location: SkillLocation) -> RuntimeProfile:
    """The profile a file is checked for when no target is configured."""
    if location.scope == "plugin" and location.plugin is not None:
        manifests = [m for m in (".wave-plugin/plugin.json",)
                     if (location.plugin.root / m).is_file()]
        return WAVE if manifests else CLAUDE_CODE
    if location.skills_root is None:
        return DEFAULT_PROFILE
    relative = root_name(location)
    owner = _OWNERS.get(relative)
    if owner is not None:
        return owner
    shared = shared_root_profile(relative, location.scope == "personal")
    return shared if shared.members else DEFAULT_PROFILE
