"""The type of a runtime profile: `RuntimeProfile`, every way in which the targets differ as one
typed, immutable value, and the questions code asks of it (`profile.expands(name)`,
`profile.command_name(folder, name)`, `profile.accepts_name(name)`). The values, one per target,
are in `wave_lsp.core.facts.profiles`, which re-exports this type (docs/design/README.md *Targets
are profiles*; the facts behind each field in docs/design/runtime-facts.md).

Profiles compare and hash by identity, so a table can be keyed by the profile objects themselves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from wave_lsp.core.facts.profile_types import (
    Collision,
    ConfiguredRoots,
    ListingFormat,
    ProfileKind,
    YamlLoader,
)
from wave_lsp.core.parsing.source import LINE_CLOSER, ClosingRule


@dataclass(frozen=True, slots=True, eq=False)
class RuntimeProfile:
    """How one target loads, lists and invokes skills."""

    name: str  #: the target name users write
    runtime: str  #: how messages name the runtime ("Wave", "Claude Code", "skills-ref")
    reader_name: str  #: how messages name whoever reads its fields ("the open spec")
    #: "runtime" runs skills; "validator" only accepts or rejects them (skills-ref); "aggregate"
    #: stands for every runtime at once (the strictest reading of each fact)
    kind: ProfileKind
    #: the column of the rule catalog and the schema's `x-targets` this profile reads
    catalog_column: str

    # -- frontmatter --------------------------------------------------------------------------
    #: YAML errors are rescued by a quoting retry and otherwise leave empty metadata (Claude
    #: Code); a strict profile rejects the file
    lenient_frontmatter: bool
    #: how `allowed-tools` written as one string is split into rules
    allowed_tools_separators: str
    #: a string `allowed-tools` must separate its rules with commas (Wave splits on commas only)
    needs_comma_separated_tools: bool
    #: `allowed-tools` must take the open spec's form: one space-separated string
    needs_spec_tools_string: bool
    #: an `allowed-tools` rule with a placeholder it cannot resolve is dropped with a notice
    #: (else the rule stays literal and never matches)
    drops_unresolved_tool_rules: bool

    # -- placeholders and arguments ------------------------------------------------------------
    variables: frozenset[str]  #: `${NAME}` placeholders it substitutes
    #: `${user_config.KEY}` of a plugin's configuration is substituted
    plugin_user_config: bool
    #: the `${…}` that names a file holding the raw arguments inside injected commands
    arguments_file_variable: str | None
    argument_base: int  #: `$N` and `$ARGUMENTS[N]` count from this number
    #: "quoted-strict": Wave's quote-aware words (`arguments._wave_words`: `\` escapes only inside
    #: quotes); "shell": shell-quote words, operators dropped (Claude Code); "quoted": quote-aware
    #: words, `\` escaping anywhere
    argument_words: Literal["quoted", "shell", "quoted-strict", "regex-quoted"]
    #: an indexed placeholder with no argument stays as written (else it becomes empty)
    keeps_missing_indexed_argument: bool
    #: what separates the body from arguments appended when the body has no placeholder
    arguments_appended_after: str
    #: argument placeholders are substituted inside injected commands before they run
    splices_arguments_into_commands: bool
    #: the rendered body is trimmed of leading and trailing white space
    trims_body: bool

    # -- discovery -----------------------------------------------------------------------------
    #: project skills roots whose skills it loads (and compares for name collisions), lowest
    #: precedence first; the personal roots are the same folders under the home directory
    skills_roots: tuple[str, ...]
    #: it scans skills roots and plugins at all (a validator checks the folder it is given, so a
    #: stray file in a root means nothing to it)
    scans_roots: bool
    #: skills are keyed by folder name (the command name) rather than by frontmatter `name`
    keys_skills_by_folder: bool
    #: project roots of every directory up to the git root are scanned, deeper first, and the
    #: personal and managed roots beat the project's
    nested_project_roots: bool
    managed_root: Path | None
    legacy_command_folders: tuple[str, ...]  #: `<folder>/<name>.md` command files it loads
    precedence: str  #: the order of roots in words, for messages

    # -- invocation ----------------------------------------------------------------------------
    settings_folder: str  #: `<home or project>/<folder>/settings.json` hold permission rules
    #: `shell: powershell` runs injected commands with PowerShell (and its permission tool)
    honours_shell_field: bool
    #: a failing injected command aborts the invocation (else its error is shown in the prompt)
    aborts_on_command_failure: bool
    command_timeout_seconds: float
    #: Claude Code's read-only classifier: its built-in read-only commands (`git status`, `ls`)
    #: run without any permission rule (`wave_lsp.core.permissions.readonly_runtime`, and the
    #: guard's strict table `readonly`). Wave's own read-only list is part of its
    #: `permission_model` (`wave_lsp.core.permissions.wave_facts`), not this
    auto_allows_read_only: bool = False
    #: whose permission manager predicts an injected command: "claude-code" (`prediction.py`,
    #: runtime-facts §3.8: `:*` prefix rules, `ask` rules, `auto_allows_read_only`) or "wave"
    #: (`wave_prediction.py`, runtime-facts §8.12: `*` the only wildcard, no `:*` form, no `ask`
    #: rules, its own read-only commands and default allow rules, `permissions.permissionMode`)
    permission_model: Literal["claude-code", "wave"] = "claude-code"
    #: search and compare commands whose exit code 1 (nothing found, a difference) is a normal
    #: result, not a failure that aborts the invocation (Claude Code, runtime-facts §3.7)
    normal_exit_one: frozenset[str] = frozenset()
    #: an injected command's stderr goes into the same stream as its stdout, in the order
    #: written (as `2>&1` does); a failure shows that stream under `[stderr]`
    merges_command_stderr: bool = False
    #: boolean fields also read `yes`/`no`/`on`/`off`/`1`/`0`, in any case (else only `true` and
    #: `false`, bare or quoted)
    reads_boolean_words: bool = False
    #: with `disableSkillShellExecution: true` in a settings file it reads, no injection runs and
    #: each is replaced by this text (None: the runtime has no such setting)
    disabled_injection_text: str | None = None
    #: a frontmatter with no closing line is read to the end of the file (gray-matter): the skill
    #: loads with the fields found there and no body
    reads_unclosed_frontmatter_to_end: bool = False
    #: a byte that is not UTF-8 is read as U+FFFD and the skill loads (else it may be dropped)
    replaces_invalid_utf8: bool = False
    #: a tab used as indentation does not stop its YAML loader (gray-matter's js-yaml 3 read a
    #: tab-indented mapping with every field in the parser probe, runtime-facts.md §10)
    tolerates_tab_indentation: bool = False
    #: the YAML 1.1/1.2 standard tags (`!!str`, `!!int`, …) its YAML loader resolves: a value so
    #: tagged loads (js-yaml's default schema; parser probe `explicit !!str tag`)
    resolved_standard_tags: frozenset[str] = frozenset()
    #: a `metadata` that is not a mapping is dropped and the skill loads without it
    ignores_non_mapping_metadata: bool = False
    #: past the listing budget the skills invoked least are listed by name only (usage decides)
    lists_least_used_by_name: bool = False
    #: its listing budget in percent of the model's context window (Claude Code 1, Codex 2;
    #: `listing_budget_chars` is the budget of a window it does not know or of a 200K-context
    #: model); None: it has no budget of its own (Wave 469391bb lists every skill with its whole
    #: description), and SK131 measures against the others' as portability advice
    listing_budget_percent: int | None = None
    #: past the budget descriptions are shortened, then skills left out (Codex, runtime-facts §9.9)
    omits_skills_past_budget: bool = False
    #: a nested skills root inside a folder git ignores (`git check-ignore`) is skipped
    skips_git_ignored_roots: bool = False
    #: its YAML loader resolves a valid anchor and alias (`&a` … `*a`) and loads the skill (Bun:
    #: oracle; js-yaml: the parser probe, runtime-facts.md §10)
    resolves_yaml_aliases: bool = False

    # -- how the runtime reads a SKILL.md (docs/design/runtime-facts.md §3.1-§3.7) --------------
    #: the lenient YAML readings (`wave_lsp.core.parsing.yamltree.READINGS`) under which a
    #: frontmatter that strict YAML rejects still loads its fields; none: the file has empty
    #: metadata (or, for a strict loader, does not load)
    frontmatter_readings: frozenset[str] = frozenset()
    #: a byte-order mark is removed before the frontmatter is looked for
    strips_bom: bool = False
    #: which line ends the frontmatter and where the body starts (`source.ClosingRule`, applied by
    #: `source.cut_as`; runtime-facts.md §12): the default is a line of `---` and blanks, and the
    #: body from the next line; Claude Code ends it at the first `---` anywhere, even inside a
    #: value, and starts the body after the white space that follows
    frontmatter_closing: ClosingRule = LINE_CLOSER
    #: a skill without a description is described by its body's first non-blank line (a heading's
    #: `#`s removed, cut at 100 characters); this text when the body has none
    body_description_default: str | None = None
    #: that first line is the first one that is not a Markdown heading (Copilot CLI)
    body_description_skips_headings: bool = False
    #: the listing names a skill by its command (folder) name, with a valid different frontmatter
    #: `name` as a label, `- folder (name): …`; `/name` then works as well as `/folder`
    labels_listing_with_name: bool = False
    #: a plugin's skill with neither a frontmatter `description` nor `when_to_use` is left out of
    #: the model's listing (the model can still invoke it by name)
    lists_plugin_skills_only_when_described: bool = False
    #: a skill with `paths` patterns is neither listed nor known to `/name` until a file they
    #: match is read or edited in the session (`wave_lsp.core.facts.conditional`)
    hides_conditional_skills: bool = False
    #: `user-invocable: false` refuses `/name` with this message (`{name}`: the command name)
    not_user_invocable_message: str | None = None
    #: each run of control characters (C0, including newlines and tabs, DEL and C1) in a listing
    #: line's description is shown as one space
    listing_controls_as_spaces: bool = False
    #: terminal control sequences (`ESC …`, `CSI …`, control strings such as APC up to their
    #: `ST`, an unended one to the end of the field) are removed from the listing's description
    #: and `when_to_use`, each on its own, before that (`wave_lsp.core.invocation.terminal`)
    listing_strips_control_sequences: bool = False
    #: `${CLAUDE_EFFORT}` where neither `CLAUDE_CODE_EFFORT_LEVEL`, the skill's `effort` nor the
    #: settings' `effortLevel` sets it (`wave_lsp.core.invocation.substitute.effort_level`); None:
    #: the target has no effort
    default_effort: str | None = None
    #: the legacy command files of `legacy_command_folders` (nested: `sub:x`) and of a plugin's
    #: `commands/` (`<plugin>:x`) are listed and invocable like skills, and render without the
    #: base-directory line (`list` gives them rows marked `legacy`)
    lists_legacy_commands: bool = False
    #: `user-invocable` is true only when absent or `true`/`"true"`: any other value (`no`,
    #: `yes`, an empty value) makes the skill model-only (Wave 469391bb's `skillParser`)
    user_invocable_only_when_true: bool = False
    #: inline injections inside a single-backtick code span are left as written
    skips_injections_in_code_spans: bool = False
    #: a command's output loses its leading blank lines and trailing white space (the Bash tool's
    #: result); empty output becomes `empty_command_output` (`{tool}`: the shell tool)
    trims_command_output: bool = False
    empty_command_output: str | None = None
    #: the runtime version each fact was last verified against, by field name (Claude Code:
    #: docs/design/runtime-facts.md §3, facts not named hold from 2.1.88's source; the others
    #: §9, verified by the differential harness)
    fact_versions: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    # -- facts of the runtimes beyond Wave and Claude Code (docs/design/runtime-facts.md §9) ------
    #: where the facts come from: "code" (the runtime's source, with a commit), "docs" (its
    #: documentation only: messages say so, `evidence_note`) or "harness" (a closed-source
    #: runtime measured by the differential harness, `tests/oracle`)
    evidence: Literal["code", "docs", "spec", "harness"] = "code"
    #: the personal skills roots under the home directory, highest precedence first (None: the
    #: project roots' folders)
    personal_roots: tuple[str, ...] | None = None
    #: how deep below a skills root a SKILL.md is found: `<root>/SKILL.md` is depth 0,
    #: `<root>/<dir>/SKILL.md` depth 1 (None: any depth)
    min_scan_depth: int = 1
    max_scan_depth: int | None = 1
    #: the project roots, in words, as the runtime finds them (walk-up rules), for messages
    project_roots_rule: str = ""
    #: project roots looked for in every folder of a walk from the working folder (docs/design/
    #: runtime-facts.md §9.1): "to-project-root" walks up to the first folder holding one of
    #: `project_markers` (Codex; no marker: the working folder only), "to-worktree" up to the
    #: git root (OpenCode; no git root: the working folder only); the home folder ends a walk
    walked_roots: tuple[str, ...] = ()
    walk_to: Literal["", "to-project-root", "to-worktree"] = ""
    #: of two same-named skills in walked folders, the outer folder's wins (OpenCode loads the
    #: walk from the working folder upwards and keeps the last); else the deeper folder's
    walk_outer_wins: bool = False
    #: what marks the project root a walk stops at, and the user config file (under the home
    #: folder) and key that replace them (Codex: `project_root_markers` in `~/.codex/config.toml`)
    project_markers: tuple[str, ...] = (".git",)
    project_markers_setting: tuple[str, str] | None = None
    #: a folder holding a SKILL.md is one skill and the scan goes no deeper: a SKILL.md directly
    #: in a skills root makes the whole root one skill and hides the folders in it (Copilot CLI)
    scan_stops_at_skill: bool = False
    #: folders below a skills root a scan never enters (besides names starting with a dot)
    scan_skipped_folders: frozenset[str] = frozenset({"node_modules", ".git", ".hg", ".svn"})
    #: the roots whose scan enters folders named with a leading dot (OpenCode globs its
    #: `.claude` and `.agents` roots with `dot: true`); elsewhere a deep scan skips them
    dot_scanned_roots: tuple[str, ...] = ()
    #: the scan of one skills root stops after this many folders (Codex:
    #: `MAX_SKILLS_DIRS_PER_ROOT: usize = 2000`, the root included, breadth first); None: no cap
    max_scan_folders: int | None = None
    #: project (workspace) skills load only in a folder the user trusts (Gemini CLI): the user's
    #: trust file and settings file under the home folder, in the runtime's format
    #: (`wave_lsp.core.workspace.runtime_config`)
    workspace_trust_gated: bool = False
    trust_folders_file: str = ""
    trust_settings_file: str = ""
    #: what wave-lsp assumes about the folder's trust (the `workspace-trust` setting): "auto"
    #: reads the runtime's trust file, "trusted" and "untrusted" decide for every folder
    workspace_trust: Literal["auto", "trusted", "untrusted"] = "auto"
    #: the profile a `with_workspace_trust` variant was made from (None: not a variant)
    trust_base: RuntimeProfile | None = None
    #: config files of the runtime that name more skills roots, and how it reads them
    #: (`wave_lsp.core.workspace.runtime_config.ConfiguredRoots`)
    configured_roots: tuple[ConfiguredRoots, ...] = ()
    #: the roots in precedence order, highest first, as `project:<folder>` / `personal:<folder>`,
    #: when project and personal roots interleave (OpenCode); None: every project root, then
    #: every personal one
    root_order: tuple[str, ...] | None = None
    collision: Collision = "rank"
    yaml_loader: YamlLoader = "strict"
    #: the fields it reads from the frontmatter (None: the schema's `x-targets`); what it does
    #: with the rest, in a few words (SK070 says them after the runtime's name: "Copilot ignores
    #: it (VS Code marks it in the editor)"; which fields it does read is the schema's)
    other_fields: str = "ignored"
    #: where the command name comes from: "folder", "name" (the frontmatter `name`, required) or
    #: "name-or-folder" (the folder when `name` is missing)
    name_source: Literal["folder", "name", "name-or-folder"] = "name-or-folder"
    #: the skill is skipped when `name` differs from its folder
    name_must_match_folder: bool = False
    name_limit: int | None = 64  #: characters `name` may have (None: no limit)
    description_limit: int | None = 1024  #: characters `description` may have (None: no limit)
    #: characters `metadata.short-description` may have before the skill is rejected (Codex's
    #: `MAX_SHORT_DESCRIPTION_LEN`; None: the runtime does not read it)
    short_description_limit: int | None = None
    #: what happens over a limit: "reject" the skill, "truncate" the value, "none" (no limit)
    over_limit: Literal["reject", "truncate", "none"] = "reject"
    #: how the limits count characters: "code-point" (Python's `len`) or "utf-16" (JavaScript's
    #: `length`: a character beyond U+FFFF, an emoji, counts two; Copilot CLI 1.0.102)
    length_unit: Literal["code-point", "utf-16"] = "code-point"
    #: the runtime's own check of `name` (trimmed), a regular expression the whole name must
    #: match or the skill is not loaded (None: no check of its own is known); the rules of the
    #: open specification (SK033-SK038) say under this target whether the runtime loads the name
    name_pattern: str | None = None
    #: the released runtime's version whose frontmatter reader is a line parser that never fails
    #: (Wave 469391bb's `parseYamlFrontmatter`, `loaders.line_parser_value`), where the profile
    #: follows its specification's YAML: a YAML error's message says both (None: no such split)
    line_parser_release: str | None = None
    #: the invocation fields it reads (`invocation_fields`) must be YAML booleans: any other value
    #: (`no`, `"true"`, an empty value) stops the skill loading (Copilot CLI 1.0.102:
    #: `user-invocable must be a boolean`)
    invocation_fields_need_booleans: bool = False
    #: characters of `name` replaced by `-` in the command name (Gemini CLI)
    name_replaced_chars: str = ""
    #: how the user invokes a skill by name: `/name` or `$name` (Codex)
    command_sigil: str = "/"
    #: the whole file, frontmatter included, is given to the model on invocation (Codex)
    injects_frontmatter: bool = False
    #: where the rendered prompt names the skill's folder: "before" the body (`Base directory
    #: for this skill: …`, Wave and Claude Code), "after" it (OpenCode), or "none"
    base_directory_line: Literal["before", "after", "none"] = "before"
    #: a skill without a `description` still loads as a command, left out of the model's
    #: listing (OpenCode 1.18.33, case oc-no-description); else it is dropped
    commands_without_description: bool = False
    #: `$ARGUMENTS` and `$N` in the body are substituted (else they reach the model literally)
    substitutes_arguments: bool = True
    #: which placeholders and how (`arguments.py`): "escapable" (Claude Code's: `\$` escapes,
    #: names, `$ARGUMENTS[N]`, look-aheads, one pass) or "plain" (Wave's: `$ARGUMENTS` and `$N`
    #: as plain text, two passes, whenever the body has one, with or without arguments) or
    #: "last-takes-rest" (OpenCode's: `$N` with no look-ahead and no escape, the highest takes
    #: the remaining words, `$0` is `undefined`)
    argument_syntax: Literal["escapable", "plain", "last-takes-rest"] = "escapable"
    #: the whole rendered text is trimmed of white space at both ends, after the arguments and
    #: the base-directory lines are added (OpenCode: the body keeps its trailing newline)
    trims_rendered_text: bool = False
    #: where arguments go when the body has none of its placeholders, in words
    arguments_delivery: str = ""
    #: `` !`cmd` `` injections run before the model sees the body
    runs_injections: bool = True
    #: each injected command is checked against permission rules before it runs
    injections_permission_checked: bool = True
    #: an inline injection needs white space (or the line start) before `!` (OpenCode: no)
    injection_needs_lookbehind: bool = True
    #: ```` ```! ```` blocks run too (OpenCode runs only inline `` !`cmd` ``)
    runs_injection_blocks: bool = True
    #: when injections run, in words ("each time the skill is invoked")
    injections_run_when: str = "each time the skill is invoked"
    #: `disable-model-invocation` / `user-invocable` are honoured (else the model may run a
    #: "manual only" skill), and the runtime's own switch in words
    invocation_fields: frozenset[str] = frozenset({"disable-model-invocation", "user-invocable"})
    manual_only_switch: str = "`disable-model-invocation: true`"
    #: characters of the model-visible listing (None: no budget found)
    listing_budget_chars: int | None = 8000
    #: how a listing entry is written (`ListingFormat`), and the characters a description keeps
    #: in it (None: the whole; a longer one keeps the first `cut - 3` and `...`: Codex)
    listing_format: ListingFormat = "dash"
    listing_description_cut: int | None = None
    #: `description` and `metadata.short-description` are measured and listed on one line, each
    #: run of white space one space (Codex; `listing.measured_description` reads it)
    collapses_description: bool = False
    #: the text an invocation gives the model around the rendered skill (`{name}`, `{path}`: the
    #: SKILL.md, `{text}`); None: the rendered text as it is
    invocation_wrapper: str | None = None
    #: skills of Claude Code plugins (`.claude-plugin/plugin.json`, `<plugin>/skills/`) load
    loads_claude_plugins: bool = True
    #: a `skill.md` in any case in a plugin's `commands/` folder makes the folder one skill, and
    #: the folder's other commands are dropped (Claude Code: `/^skill\.md$/i`, runtime-facts §3.3)
    plugin_commands_match_skill_file: bool = False
    #: the skills roots named after this runtime (`.claude/skills`, `~/.copilot/skills`): with no
    #: target configured, a skill there is checked for this target (docs/design/rules.md
    #: *The default target*)
    own_roots: tuple[str, ...] = ()
    #: the manifests of this runtime's own plugin format (`.codex-plugin/plugin.json`): with no
    #: target configured, a skill in `<plugin>/skills/` beside one is checked for this target
    #: (docs/design/rules.md *The default target*; evidence: the plugin bundles published for
    #: each runtime, e.g. openclaw's bundle loader names `.codex-plugin/plugin.json` and
    #: `.cursor-plugin/plugin.json`; not probed on the runtimes)
    plugin_manifests: tuple[str, ...] = ()
    #: for an aggregate (`portable`): the profiles whose strictest reading it is
    members: tuple[RuntimeProfile, ...] = ()

    @property
    def frontmatter_ends_at_first_dashes(self) -> bool:
        """The frontmatter ends at the first `---` anywhere (Claude Code's lazy regex)."""
        return self.frontmatter_closing.fields_end == "dashes-anywhere"

    @property
    def wave_permissions(self) -> bool:
        """Injected commands are predicted by Wave's permission manager (`permission_model`)."""
        return self.permission_model == "wave"

    @property
    def evidence_note(self) -> str:
        """A sentence for messages about a runtime known from its documentation only."""
        if self.evidence != "docs":
            return ""
        return (f"{self.runtime} is closed source: this follows its documentation only, not "
                "its code")

    def personal_skills_roots(self) -> tuple[str, ...]:
        """The personal roots (under the home directory), lowest precedence first."""
        if self.personal_roots is None:
            return self.skills_roots
        return tuple(reversed(self.personal_roots))

    def length(self, text: str) -> int:
        """The length of `text` as the runtime counts it against its limits (`length_unit`)."""
        if self.length_unit == "utf-16":
            return len(text.encode("utf-16-le", errors="surrogatepass")) // 2
        return len(text)

    def accepts_name(self, name: str) -> bool | None:
        """Whether the runtime's own check of `name` (`name_pattern`, `name_limit` when it
        rejects over it) lets the skill load; None when it has no check of its own."""
        if self.name_pattern is None:
            return None
        text = name.strip()
        if self.over_limit == "reject" and self.name_limit is not None \
                and self.length(text) > self.name_limit:
            return False
        return re.fullmatch(self.name_pattern, text) is not None

    def finds_at_depth(self, depth: int) -> bool:
        """A SKILL.md `depth` folders below a skills root is discovered."""
        return depth >= self.min_scan_depth and (self.max_scan_depth is None
                                                 or depth <= self.max_scan_depth)

    def command_name(self, folder: str, name: object) -> str | None:
        """The name the user types (without the sigil), or None when the skill has no usable
        name for this runtime."""
        text = name.strip() if isinstance(name, str) else ""
        if self.name_source == "folder" or (self.name_source == "name-or-folder" and not text):
            text = folder
        if not text:
            return None
        text = " ".join(text.split())
        for char in self.name_replaced_chars:
            text = text.replace(char, "-")
        if self.name_replaced_chars:
            text = text.replace(" ", "-")
        if self.over_limit == "truncate" and self.name_limit is not None:
            text = text[: self.name_limit]
        return text

    def expands(self, variable: str) -> bool:
        """`${variable}` is substituted by this runtime."""
        if variable.startswith("user_config."):
            return self.plugin_user_config
        return variable in self.variables

    def scans_root(self, relative_root: str, personal: bool = False) -> bool:
        """`relative_root` (e.g. `.claude/skills`) is a skills root this profile scans (a
        personal one, under the home directory, when `personal`)."""
        folders = self.personal_skills_roots() if personal else self.skills_roots
        return self.scans_roots and relative_root in folders
