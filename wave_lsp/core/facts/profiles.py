"""Runtime profiles: everything in which the targets differ, in one typed, immutable value each.

A target (`--target`, `wave.target`, `[tool.wave-lsp] target`) names a profile. Code asks the
profile (`profile.argument_base`, `profile.expands(name)`, `profile.lenient_frontmatter`) and never
compares target names: adding a runtime means one more profile here plus its severity column in
`wave_lsp/data/rules.toml` (and its `x-targets` entries in the schema). The facts behind each value
are in docs/design/runtime-facts.md (§3 Claude Code, §4 Wave, §9 Codex, Copilot in VS Code, Cursor,
OpenCode and Gemini CLI) and docs/design/product.md *Discovery*, *Preview* and *Permission engine*.
`portable` is the strictest reading over every other profile (its `members`): its messages name the
members that drop a skill (docs/design/rules.md *Targets*).

The type itself, `RuntimeProfile`, with the questions code asks of a profile, is in
`wave_lsp.core.facts.runtime_profile` (re-exported here); the types of its fields are in
`profile_types`. Profiles compare and hash by identity, so tables of per-runtime wording can be
keyed by the profile objects themselves (`{CLAUDE_CODE: "…"}`) and fall back to a sentence built
from the profile's attributes for a runtime they do not know.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path
from types import MappingProxyType

from wave_lsp.core.facts.profile_types import ConfiguredRoots
from wave_lsp.core.facts.runtime_profile import RuntimeProfile as RuntimeProfile
from wave_lsp.core.parsing.source import LINE_CLOSER, ClosingRule
from wave_lsp.core.parsing.yamltree import BUN, QUOTE_RETRY, TAB_RETRY

#: the three placeholder families a runtime may expand in the body and in `allowed-tools`
WAVE_VARIABLES = frozenset({"WAVE_SKILL_DIR", "WAVE_PLUGIN_ROOT", "WAVE_SESSION_ID",
                            "WAVE_ARGUMENTS_FILE"})
CLAUDE_SHARED_VARIABLES = frozenset({"CLAUDE_SKILL_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_SESSION_ID"})
CLAUDE_ONLY_VARIABLES = frozenset({"CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR", "CLAUDE_EFFORT"})

#: the project skills roots Wave scans, lowest precedence first
WAVE_SKILLS_ROOTS = (".agents/skills", ".claude/skills", ".wave/skills")
#: every project skills root any runtime scans (computed from the profiles below)
ALL_SKILLS_ROOTS: tuple[str, ...] = WAVE_SKILLS_ROOTS


WAVE = RuntimeProfile(
    name="wave", runtime="Wave", reader_name="Wave", kind="runtime", catalog_column="wave",
    lenient_frontmatter=False, allowed_tools_separators=",", needs_comma_separated_tools=True,
    needs_spec_tools_string=False, drops_unresolved_tool_rules=True,
    variables=WAVE_VARIABLES | CLAUDE_SHARED_VARIABLES, plugin_user_config=False,
    arguments_file_variable="WAVE_ARGUMENTS_FILE", argument_base=1, argument_words="quoted-strict",
    argument_syntax="plain", keeps_missing_indexed_argument=False, arguments_appended_after=" ",
    splices_arguments_into_commands=False, trims_body=True,
    skills_roots=WAVE_SKILLS_ROOTS, keys_skills_by_folder=False, nested_project_roots=False,
    scans_roots=True, managed_root=None,
    legacy_command_folders=(".claude/commands", ".wave/commands"),
    precedence="project > personal, and `.wave/skills` > `.claude/skills` > `.agents/skills` "
               "within each",
    settings_folder=".wave", honours_shell_field=False, aborts_on_command_failure=False,
    command_timeout_seconds=30.0, permission_model="wave",
    evidence="spec", description_limit=None, own_roots=(".wave/skills",),
    # the harness's Wave runs (tests/oracle, runtime-facts.md §8): fm-basic, invoke-user-invocable-no,
    # fm-closing-dashes (its fields regex closes at `----`, its body regex needs `---` alone)
    listing_format="bullet", user_invocable_only_when_true=True,
    frontmatter_closing=ClosingRule("dashes-line", "after-bare-line-else-file"),
    # `validateSkillMetadata`: `/^[a-z0-9-]+$/`, so `-a` and `a--b` load (case name-invalid)
    name_pattern=r"[a-z0-9-]+",
    # its line parser loads `description: Use when: x` as written (case fm-colon-value)
    line_parser_release="469391bb",
    fact_versions=MappingProxyType({"listing_format": "wave 469391bb",
                                    "user_invocable_only_when_true": "wave 469391bb",
                                    "frontmatter_closing": "wave 469391bb",
                                    "name_pattern": "wave 469391bb",
                                    "line_parser_release": "wave 469391bb"}),
)

CLAUDE_CODE = RuntimeProfile(
    name="claude-code", runtime="Claude Code", reader_name="Claude Code", kind="runtime",
    catalog_column="claude-code",
    lenient_frontmatter=True, allowed_tools_separators=", \t", needs_comma_separated_tools=False,
    needs_spec_tools_string=False, drops_unresolved_tool_rules=False,
    variables=CLAUDE_SHARED_VARIABLES | CLAUDE_ONLY_VARIABLES, plugin_user_config=True,
    arguments_file_variable=None, argument_base=0, argument_words="shell",
    keeps_missing_indexed_argument=True, arguments_appended_after="\n\nARGUMENTS: ",
    splices_arguments_into_commands=True, trims_body=False,
    skills_roots=(".claude/skills",), keys_skills_by_folder=True, nested_project_roots=True,
    scans_roots=True, managed_root=Path("/etc/claude-code/.claude/skills"),
    legacy_command_folders=(".claude/commands",),
    precedence="managed > personal > project (deeper project folders first)",
    settings_folder=".claude", honours_shell_field=True, aborts_on_command_failure=True,
    normal_exit_one=frozenset({"grep", "egrep", "fgrep", "rg", "diff", "cmp", "git diff"}),
    command_timeout_seconds=120.0,  # the Bash tool's 2 minutes (§3.7)
    auto_allows_read_only=True, merges_command_stderr=True, reads_boolean_words=True,
    disabled_injection_text="[shell command execution disabled by policy]",
    replaces_invalid_utf8=True,
    frontmatter_readings=frozenset({BUN, QUOTE_RETRY, TAB_RETRY}), strips_bom=True,
    frontmatter_closing=ClosingRule("dashes-anywhere", "after-blanks"),
    body_description_default="Skill",
    labels_listing_with_name=True, listing_controls_as_spaces=True,
    listing_strips_control_sequences=True, default_effort="medium", lists_legacy_commands=True,
    lists_plugin_skills_only_when_described=True, hides_conditional_skills=True,
    plugin_commands_match_skill_file=True, resolves_yaml_aliases=True,
    # the facts behind SK062 (runtime-facts.md §3.2), SK131 and SK133 (their evidence rows)
    ignores_non_mapping_metadata=True, lists_least_used_by_name=True, skips_git_ignored_roots=True,
    listing_budget_percent=1,
    not_user_invocable_message=("This skill can only be invoked by Claude, not directly by users. "
                                'Ask Claude to use the "{name}" skill for you.'),
    skips_injections_in_code_spans=True, trims_command_output=True,
    empty_command_output="({tool} completed with no output)",
    fact_versions=MappingProxyType({
        # verified against 2.1.332 (issue 26 measurements); 2.1.88 had no tab retry, did not
        # label the listing with `name` and ran injections inside code spans
        "frontmatter_readings": "2.1.332", "strips_bom": "2.1.332",
        "frontmatter_closing": "2.1.332", "body_description_default": "2.1.332",
        "labels_listing_with_name": "2.1.332", "not_user_invocable_message": "2.1.332",
        "lists_plugin_skills_only_when_described": "2.1.332", "hides_conditional_skills": "2.1.332",
        "skips_injections_in_code_spans": "2.1.332", "trims_command_output": "2.1.332",
        "empty_command_output": "2.1.332", "arguments_appended_after": "2.1.332",
        # verified by the harness (tests/oracle): the listing's control characters, and the
        # argument words ending at the first shell operator after a word
        "listing_controls_as_spaces": "2.1.332", "argument_words": "2.1.332",
        # the probes fm-c1-apc, fm-c1-strings (`a\u009fb` is listed `a`)
        "listing_strips_control_sequences": "2.1.332",
        # the probes arg-effort (medium), arg-effort-setting, arg-effort-field, arg-effort-values
        "default_effort": "2.1.332",
        # the probes disc-legacy-command, disc-legacy-variants, disc-skill-beats-command
        "lists_legacy_commands": "2.1.332",
        # the probes inj-stderr-*, inj-failing-streams: `err`, `out`, `err2` in that order
        "merges_command_stderr": "2.1.332",
        # the probes inv-dmi-yes, inv-user-invocable-no (CCDOCS: since 2.1.218)
        "reads_boolean_words": "2.1.332",
        # the probe inj-disabled-by-setting (project settings)
        "disabled_injection_text": "2.1.332",
        # the probe fm-invalid-utf8
        "replaces_invalid_utf8": "2.1.332",
    }),
    yaml_loader="quoting-retry", name_source="folder", name_limit=None, description_limit=None,
    over_limit="none", own_roots=(".claude/skills",),
)

AGENTSKILLS = RuntimeProfile(
    name="agentskills", runtime="skills-ref", reader_name="the open spec", kind="validator",
    catalog_column="agentskills",
    lenient_frontmatter=False, allowed_tools_separators=", \t", needs_comma_separated_tools=False,
    needs_spec_tools_string=True, drops_unresolved_tool_rules=False,
    variables=frozenset(), plugin_user_config=False, arguments_file_variable=None,
    argument_base=1, argument_words="quoted", keeps_missing_indexed_argument=False,
    arguments_appended_after=" ", splices_arguments_into_commands=False, trims_body=True,
    skills_roots=WAVE_SKILLS_ROOTS, scans_roots=False, keys_skills_by_folder=False,
    nested_project_roots=False, managed_root=None,
    legacy_command_folders=(".claude/commands", ".wave/commands"),
    precedence=WAVE.precedence,
    settings_folder=".wave", honours_shell_field=False, aborts_on_command_failure=False,
    command_timeout_seconds=30.0,
    name_source="name", name_must_match_folder=True,
)

#: the tags of js-yaml's default schema (js-yaml 4 `DEFAULT_SCHEMA`, js-yaml 3 `DEFAULT_SAFE_SCHEMA`:
#: the core types plus timestamp, merge, binary, omap, pairs and set)
JS_YAML_TAGS = frozenset({"!!str", "!!seq", "!!map", "!!null", "!!bool", "!!int", "!!float",
                          "!!timestamp", "!!merge", "!!binary", "!!omap", "!!pairs", "!!set"})

#: what the runtimes below share: no `${…}` variables, no permission settings of their own, no
#: legacy command files (each profile changes the rest)
_PLAIN = replace(
    AGENTSKILLS, kind="runtime", scans_roots=True, legacy_command_folders=(),
    arguments_appended_after="", invocation_fields=frozenset(), listing_budget_chars=None,
    loads_claude_plugins=False, substitutes_arguments=False, runs_injections=False,
    injections_permission_checked=False, manual_only_switch="none",
)

CODEX = replace(
    _PLAIN, base_directory_line="none",
    name="codex", runtime="Codex", reader_name="Codex", catalog_column="codex",
    skills_roots=(".agents/skills", ".codex/skills"),
    personal_roots=(".agents/skills", ".codex/skills"),
    min_scan_depth=0, max_scan_depth=6,
    project_roots_rule="`.agents/skills` and `.codex/skills` in every folder from the project root "
                       "(the first ancestor with a project marker, `.git` by default, or "
                       "`project_root_markers` of `~/.codex/config.toml`) down to the working "
                       "folder; personal `~/.agents/skills`, `$CODEX_HOME/skills`, admin "
                       "`/etc/codex/skills`; at most 2,000 folders per root",
    precedence="both skills of one name load (Repo, then User, System, Admin); a plain `$name` "
               "then selects neither",
    collision="both", settings_folder=".codex", own_roots=(".codex/skills",),
    plugin_manifests=(".codex-plugin/plugin.json",),
    walked_roots=(".agents/skills", ".codex/skills"), walk_to="to-project-root",
    project_markers_setting=(".codex/config.toml", "project_root_markers"),
    scan_skipped_folders=frozenset(), max_scan_folders=2000, short_description_limit=1024,
    name_source="name-or-folder", name_must_match_folder=False, command_sigil="$",
    injects_frontmatter=True, trims_body=False, arguments_delivery="part of the prompt, as typed",
    manual_only_switch="`policy: allow_implicit_invocation: false` in `agents/openai.yaml`",
    listing_budget_chars=8000, listing_budget_percent=2, omits_skills_past_budget=True,
    # Codex 0.171.0, the differential harness (tests/oracle/cases cx-*; runtime-facts.md §9)
    yaml_loader="serde-struct",
    # `line.trim() == "---"`: `----` is no closing line (case fm-closing-dashes)
    frontmatter_closing=ClosingRule("trimmed-line"),
    listing_format="dash-with-file", listing_description_cut=1024, collapses_description=True,
    invocation_wrapper="<skill>\n<name>{name}</name>\n<path>{path}</path>\n{text}\n</skill>",
    fact_versions=MappingProxyType({
        "yaml_loader": "0.171.0", "listing_format": "0.171.0",
        "listing_description_cut": "0.171.0", "collapses_description": "0.171.0",
        "invocation_wrapper": "0.171.0",
        "collision": "0.171.0", "invocation_fields": "0.171.0", "frontmatter_closing": "0.171.0"}),
)

COPILOT = replace(
    _PLAIN, base_directory_line="none",
    name="copilot", runtime="Copilot", reader_name="VS Code", catalog_column="copilot",
    skills_roots=(".claude/skills", ".agents/skills", ".github/skills"),
    personal_roots=(".copilot/skills", ".agents/skills", ".claude/skills"),
    project_roots_rule="`.github/skills`, `.agents/skills`, `.claude/skills` of the workspace "
                       "folder, and `chat.agentSkillsLocations`",
    precedence="workspace > personal, `.github/skills` > `.agents/skills` > `.claude/skills`; "
               "the first skill of a name wins and later ones are skipped",
    settings_folder=".github", own_roots=(".github/skills", ".copilot/skills"),
    configured_roots=(ConfiguredRoots((".vscode/settings.json",), "workspace",
                                      ("chat.agentSkillsLocations",), "object", "profile"),),
    yaml_loader="error-collecting", name_source="name",
    name_must_match_folder=True, over_limit="truncate",
    arguments_delivery="part of the prompt, as typed",
    invocation_fields=frozenset({"disable-model-invocation", "user-invocable", "user-invokable"}),
    other_fields="ignored (VS Code marks it in the editor)",
)

CURSOR = replace(
    _PLAIN, base_directory_line="none",
    name="cursor", runtime="Cursor", reader_name="Cursor", catalog_column="cursor",
    evidence="docs",
    skills_roots=(".codex/skills", ".claude/skills", ".cursor/skills"),
    project_roots_rule="`.cursor/skills`, `.claude/skills` and `.codex/skills` of the project",
    precedence="not documented", settings_folder=".cursor", own_roots=(".cursor/skills",),
    plugin_manifests=(".cursor-plugin/plugin.json",),
    name_source="name",
    name_must_match_folder=False, arguments_delivery="part of the prompt (not documented further)",
    invocation_fields=frozenset({"disable-model-invocation"}),
    other_fields="not documented",
)

OPENCODE = replace(
    _PLAIN, base_directory_line="after",
    name="opencode", runtime="OpenCode", reader_name="OpenCode", catalog_column="opencode",
    skills_roots=(".claude/skills", ".agents/skills", ".opencode/skill", ".opencode/skills"),
    personal_roots=(".config/opencode/skills", ".config/opencode/skill", ".agents/skills",
                    ".claude/skills"),
    root_order=("project:.opencode/skills", "project:.opencode/skill",
                "personal:.config/opencode/skills", "personal:.config/opencode/skill",
                "project:.agents/skills", "project:.claude/skills",
                "personal:.agents/skills", "personal:.claude/skills"),
    min_scan_depth=0, max_scan_depth=None,
    project_roots_rule="`.claude/skills`, `.agents/skills` and `.opencode/{skill,skills}` of every "
                       "folder from the working folder up to the worktree (the git root), then "
                       "`skills.paths` of `opencode.json`",
    precedence="the last skill loaded wins: personal `~/.claude`, `~/.agents`, then the project's "
               "`.claude`, `.agents` (walking up), then the config folders `~/.config/opencode` "
               "and the project's `.opencode`",
    settings_folder=".opencode", yaml_loader="colon-retry", strips_bom=True, collision="race",
    reads_unclosed_frontmatter_to_end=True,  # gray-matter (parser probe, runtime-facts §10)
    tolerates_tab_indentation=True, resolved_standard_tags=JS_YAML_TAGS,  # the same
    resolves_yaml_aliases=True,
    walked_roots=(".claude/skills", ".agents/skills", ".opencode/skill", ".opencode/skills"),
    walk_to="to-worktree", walk_outer_wins=True,
    dot_scanned_roots=(".claude/skills", ".agents/skills"),
    configured_roots=(
        ConfiguredRoots((".config/opencode/config.json", ".config/opencode/opencode.json",
                         ".config/opencode/opencode.jsonc"), "home", ("skills", "paths"),
                        "list", "any-depth", wins=True),
        ConfiguredRoots(("opencode.json", "opencode.jsonc", ".opencode/opencode.json",
                         ".opencode/opencode.jsonc"), "walk", ("skills", "paths"), "list",
                        "any-depth", wins=True),
    ),
    own_roots=(".opencode/skills", ".opencode/skill", ".config/opencode/skills",
               ".config/opencode/skill"),
    name_source="name", name_limit=None, description_limit=None, over_limit="none",
    name_must_match_folder=False,  # documented, not enforced (SK039's evidence)
    argument_base=1, arguments_appended_after="\n\n", splices_arguments_into_commands=True,
    arguments_delivery="appended after a blank line, after the base-directory lines",
    substitutes_arguments=True,
    # OpenCode 1.18.33, the differential harness (tests/oracle/cases oc-*; runtime-facts.md §9);
    # `$0` is `undefined` unless it is the highest `$N` written, then the last word (case
    # args-zero); `hidden: true` is not read (case invoke-hidden: listed and invocable)
    argument_syntax="last-takes-rest", argument_words="regex-quoted", trims_body=False,
    trims_rendered_text=True, listing_format="xml-escaped-path", scan_skipped_folders=frozenset(),
    commands_without_description=True,
    # gray-matter: the first `\n---` closes, the body starts after those three dashes (case
    # fm-closing-dashes: `----` leaves `-` as the body's first line)
    frontmatter_closing=ClosingRule("dashes-line", "after-dashes"),
    fact_versions=MappingProxyType({
        "frontmatter_closing": "1.18.33", "collision": "1.18.33",
        "commands_without_description": "1.18.33",
        "argument_syntax": "1.18.33", "argument_words": "1.18.33", "trims_body": "1.18.33",
        "trims_rendered_text": "1.18.33", "listing_format": "1.18.33",
        "scan_skipped_folders": "1.18.33", "invocation_fields": "1.18.33"}),
    runs_injections=True, injections_permission_checked=False, injection_needs_lookbehind=False,
    runs_injection_blocks=False,
    injections_run_when="when the user types `/<name>` (not when the model loads the skill)",
    manual_only_switch="a `deny` rule in `permission.skill` (which hides the skill)",
)

GEMINI_CLI = replace(
    _PLAIN, base_directory_line="none",
    name="gemini-cli", runtime="Gemini CLI", reader_name="Gemini CLI",
    catalog_column="gemini-cli",
    skills_roots=(".gemini/skills", ".agents/skills"), min_scan_depth=0, max_scan_depth=1,
    project_roots_rule="`.agents/skills` and `.gemini/skills` of the workspace (trusted folders "
                       "only); personal `~/.agents/skills`, `~/.gemini/skills`",
    precedence="workspace > personal > extensions > built-in, and `.agents/skills` > "
               "`.gemini/skills` within each; the later tier replaces the earlier one with a "
               "conflict warning",
    settings_folder=".gemini", own_roots=(".gemini/skills",), yaml_loader="line-fallback",
    resolved_standard_tags=JS_YAML_TAGS,  # js-yaml `load` (runtime-facts.md §9.6)
    resolves_yaml_aliases=True,
    workspace_trust_gated=True, trust_folders_file=".gemini/trustedFolders.json",
    trust_settings_file=".gemini/settings.json",
    name_source="name", name_must_match_folder=False,
    name_limit=None, description_limit=None, over_limit="none",
    name_replaced_chars=':\\/<>*?"|',
    listing_format="xml-path",  # runtime-facts.md §11 (harness: Gemini CLI 0.61.0)
    # `/^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/`: `----` closes, with no body (case
    # fm-closing-dashes)
    frontmatter_closing=ClosingRule("dashes-line", "next-line-if-bare"),
    fact_versions=MappingProxyType({"listing_format": "0.61.0", "frontmatter_closing": "0.61.0"}),
    arguments_delivery="a separate follow-up prompt",
    manual_only_switch="none (only `skills.disabled`, which removes the skill)",
)

#: GitHub Copilot CLI (not Copilot in VS Code, the `copilot` target): closed source, so every
#: fact is measured by the differential harness (docs/design/runtime-facts.md §11, the cases
#: `tests/oracle/cases/cp-*`); it reads skills and renders arguments as Claude Code does, but reads
#: YAML strictly and has no injections
COPILOT_CLI = replace(
    _PLAIN, name="copilot-cli", runtime="Copilot CLI", reader_name="Copilot CLI",
    catalog_column="copilot-cli", evidence="harness",
    skills_roots=(".claude/skills", ".agents/skills", ".github/skills"),
    personal_roots=(".copilot/skills", ".agents/skills"),
    min_scan_depth=0, max_scan_depth=None, scan_stops_at_skill=True,
    walked_roots=(".claude/skills", ".agents/skills", ".github/skills"), walk_to="to-worktree",
    project_roots_rule="`.github/skills`, `.agents/skills` and `.claude/skills` of every folder "
                       "from the working folder up to the git root; personal `~/.copilot/skills` "
                       "and `~/.agents/skills` (not `~/.claude/skills`)",
    precedence="project > personal, and `.github/skills` > `.agents/skills` > `.claude/skills` "
               "within each",
    settings_folder=".copilot", own_roots=(), yaml_loader="strict",
    name_source="name-or-folder", name_must_match_folder=False,
    # its limits and name check, and the booleans (runtime-facts.md §12.2: cases desc-long,
    # name-invalid, invoke-user-invocable-no, cp-description-limit, cp-name-rules,
    # cp-invocation-booleans)
    name_limit=64, description_limit=1024, over_limit="reject", length_unit="utf-16",
    name_pattern=r"[A-Za-z0-9][A-Za-z0-9_.: -]*", invocation_fields_need_booleans=True,
    body_description_default="", body_description_skips_headings=True,
    listing_format="xml-escaped-scope",
    substitutes_arguments=True, argument_base=0, argument_words="shell",
    argument_syntax="escapable", keeps_missing_indexed_argument=True,
    arguments_appended_after="\n\nARGUMENTS: ", base_directory_line="before", trims_body=False,
    arguments_delivery="substituted as Claude Code does, else appended as `ARGUMENTS: …`",
    invocation_fields=frozenset({"disable-model-invocation", "user-invocable"}),
    manual_only_switch="`disable-model-invocation: true`",
    other_fields="ignored",
    # `----`, `--- x` or no closing line: not loaded (cases fm-closing-dashes, fm-unclosed)
    frontmatter_closing=LINE_CLOSER,
    fact_versions=MappingProxyType({
        "frontmatter_closing": "1.0.102", "name_limit": "1.0.102", "description_limit": "1.0.102",
        "over_limit": "1.0.102", "length_unit": "1.0.102", "name_pattern": "1.0.102",
        "invocation_fields_need_booleans": "1.0.102"}),
)

PORTABLE = RuntimeProfile(
    name="portable", runtime="every runtime", reader_name="every runtime", kind="aggregate",
    catalog_column="portable",
    lenient_frontmatter=False, allowed_tools_separators=", \t", needs_comma_separated_tools=True,
    needs_spec_tools_string=False, drops_unresolved_tool_rules=False,
    # the variables every member substitutes: none (Codex, VS Code, OpenCode and Gemini CLI leave
    # `${CLAUDE_SKILL_DIR}` literal, runtime-facts.md §9.7)
    variables=frozenset(), plugin_user_config=False, arguments_file_variable=None,
    argument_base=1, argument_words="quoted", keeps_missing_indexed_argument=False,
    arguments_appended_after=" ", splices_arguments_into_commands=False, trims_body=True,
    skills_roots=WAVE_SKILLS_ROOTS, keys_skills_by_folder=False, nested_project_roots=False,
    scans_roots=True, managed_root=None,
    legacy_command_folders=(".claude/commands", ".wave/commands"), precedence=WAVE.precedence,
    settings_folder=".wave", honours_shell_field=False, aborts_on_command_failure=False,
    command_timeout_seconds=30.0,
    name_source="name", name_must_match_folder=True,
    members=(WAVE, CLAUDE_CODE, AGENTSKILLS, CODEX, COPILOT, CURSOR, OPENCODE, GEMINI_CLI,
             COPILOT_CLI),
)

#: every built-in profile by target name, in catalog column order
PROFILES = MappingProxyType({p.name: p for p in (WAVE, CLAUDE_CODE, AGENTSKILLS, PORTABLE, CODEX,
                                                 COPILOT, CURSOR, OPENCODE, GEMINI_CLI,
                                                 COPILOT_CLI)})
ALL_SKILLS_ROOTS = tuple(dict.fromkeys(root for p in PROFILES.values() for root in p.skills_roots))
#: every personal skills root (under the home directory) any runtime scans
ALL_PERSONAL_ROOTS = tuple(dict.fromkeys(root for p in PROFILES.values()
                                         for root in p.personal_skills_roots()))
TARGETS: tuple[str, ...] = tuple(PROFILES)
DEFAULT_PROFILE = WAVE


def profile_named(name: str) -> RuntimeProfile | None:
    return PROFILES.get(name)


TRUST_CHOICES = ("auto", "trusted", "untrusted")


@cache
def with_workspace_trust(profile: RuntimeProfile, trust: str) -> RuntimeProfile:
    """`profile` as wave-lsp reads it with the user's `workspace-trust` choice (`TRUST_CHOICES`):
    the same profile for "auto" or a runtime without workspace trust; for an aggregate, its
    members so read. One object per choice, so sessions and tables keyed by profile stay apt."""
    if trust not in TRUST_CHOICES:
        return profile
    base = profile.trust_base or profile
    if trust == "auto":
        return base
    if profile is not base:
        return with_workspace_trust(base, trust)
    if profile.members:
        members = tuple(with_workspace_trust(member, trust) for member in profile.members)
        return profile if members == profile.members else replace(
            profile, members=members, trust_base=profile)
    if not profile.workspace_trust_gated:
        return profile
    return replace(profile, workspace_trust="trusted" if trust == "trusted" else "untrusted",
                   trust_base=profile)


@cache
def shared_root_profile(relative_root: str, personal: bool = False) -> RuntimeProfile:
    """For a skills root no runtime owns (`.agents/skills`): the strictest reading across the
    runtimes that scan it, as an aggregate whose severities are its members' strictest (it has no
    catalog column of its own)."""
    members = tuple(p for p in PROFILES.values()
                    if p.kind == "runtime" and p.scans_root(relative_root, personal))
    label = f"every runtime that scans `{relative_root}`"
    return replace(PORTABLE, runtime=label, reader_name=label, catalog_column="",
                   members=members, skills_roots=(relative_root,), personal_roots=(relative_root,))
