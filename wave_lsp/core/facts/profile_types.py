"""The value types of the runtime profiles' fields (`RuntimeProfile` in
`wave_lsp.core.facts.runtime_profile`): the kinds of YAML loader, listing format and name
collision, and the skills roots a runtime's own configuration names (docs/design/runtime-facts.md §9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ProfileKind = Literal["runtime", "validator", "aggregate"]
#: how a runtime reads the frontmatter's YAML (docs/design/runtime-facts.md §9.6):
#: "strict" rejects a file with any YAML error; "quoting-retry" (Claude Code) quotes bad values
#: and retries, else loads empty metadata; "colon-retry" (OpenCode) rewrites top-level values
#: with `:` of non-hyphenated keys as block scalars and retries once, and otherwise drops the
#: skill; "line-fallback" (Gemini CLI) reads `name:` and `description:` lines by regex when the
#: YAML fails; "error-collecting" (VS Code) keeps whatever attributes its parser recovers
#: "serde-struct" (Codex 0.171.0): values a strict parse rejects are read as text
#: (`loaders.codex_repaired`), and the frontmatter is decoded into the few fields it reads, so any other key,
#: even a duplicated one, is ignored, while a duplicated `name`/`description`/`metadata` or a
#: `metadata` that is not a mapping drops the skill
YamlLoader = Literal["strict", "quoting-retry", "colon-retry", "line-fallback", "error-collecting",
                     "serde-struct"]
#: how the model's listing writes one skill (`listing.runtime_listing_entry` dispatches on it):
#: "dash" (`- name: description`, Claude Code's); "bullet" (Wave 469391bb: `• **name** (type):
#: description` in the `Skill` function's description, the description as read, no
#: `when_to_use`, no cap, runtime-facts.md §8); "dash-with-file" (Codex 0.171.0: `- name:
#: description (file: <SKILL.md>)`, the description on one line); "xml-escaped-path" (OpenCode
#: 1.18.33: a `<skill>` element of `<available_skills>`, name and description as written, the
#: SKILL.md's path XML-escaped as `<location>`); "xml-path" (Gemini CLI 0.61.0: the same, the path
#: as written); "xml-escaped-scope" (Copilot CLI 1.0.102: `<skill>` with XML-escaped name and
#: description and the scope, `project` or `user`, as `<location>`; runtime-facts.md §11)
ListingFormat = Literal["dash", "bullet", "dash-with-file", "xml-escaped-path", "xml-path",
                        "xml-escaped-scope"]
#: which skill wins two of the same name: "rank" (the root of highest precedence, then the first
#: in name order), "race" (the same as "rank", as the usual outcome of a race: OpenCode 1.18.33
#: reads every SKILL.md at once and keeps the last of a name to finish, usually the last it
#: started, which is in the root it loads last (`root_order`) and, as Bun's glob walks a folder
#: backwards, the first in the folder's order, for which name order stands in; cases
#: shadow-personal, dup-same-name), "both" (both load and a plain mention selects neither: Codex)
Collision = Literal["rank", "race", "both"]


@dataclass(frozen=True, slots=True)
class ConfiguredRoots:
    """Where a runtime's own configuration names more skills roots (docs/design/runtime-facts.md
    §9.1): the files it reads (relative to a folder; the last one that sets the key wins), under
    which key, and what relative paths in it are relative to."""

    #: the files, relative to the folder `files_in` names
    files: tuple[str, ...]
    #: "home" (the home folder), "walk" (each folder of the profile's walk, the outermost first)
    #: or "workspace" (the working folder)
    files_in: Literal["home", "walk", "workspace"]
    key: tuple[str, ...]  #: the setting, as the keys leading to it (`("skills", "paths")`)
    #: "list": a list of paths; "object": paths as keys, each on (`true`) or off. Relative
    #: paths are relative to the working folder, and `~/` is the home folder
    form: Literal["list", "object"]
    scan: Literal["any-depth", "profile"]  #: `**/SKILL.md`, or the profile's own depths
    #: these roots beat the profile's others (OpenCode loads them last, and the last one wins)
    wins: bool = False
