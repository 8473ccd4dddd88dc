"""Runtime profiles: everything in which the targets differ, in one typed, immutable value each.

A target (`--target`, `wave.target`, `[tool.wave-lsp] target`) names a profile. Code asks the
profile (`profile.argument_base`, `profile.expands(name)`, `profile.lenient_frontmatter`) and never
compares target names: adding a runtime means one more profile here plus its severity column in
`wave_lsp/data/rules.toml` (and its `x-targets` entries in the schema). The facts behind each value
are in docs/design/runtime-facts.md (§3 Claude Code, §4 Wave) and docs/design/product.md
*Discovery*, *Preview* and *Permission engine*.

Profiles compare and hash by identity, so tables of per-runtime wording can be keyed by the profile
objects themselves (`{CLAUDE_CODE: "…"}`) and fall back to a sentence built from the profile's
attributes for a runtime they do not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from wave_lsp.core.parsing.yamltree import BUN, QUOTE_RETRY, TAB_RETRY

#: the three placeholder families a runtime may expand in the body and in `allowed-tools`
WAVE_VARIABLES = frozenset({"WAVE_SKILL_DIR", "WAVE_PLUGIN_ROOT", "WAVE_SESSION_ID",
                            "WAVE_ARGUMENTS_FILE"})
CLAUDE_SHARED_VARIABLES = frozenset({"CLAUDE_SKILL_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_SESSION_ID"})
CLAUDE_ONLY_VARIABLES = frozenset({"CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR", "CLAUDE_EFFORT"})

#: every project skills root any runtime scans, lowest precedence first
ALL_SKILLS_ROOTS = (".agents/skills", ".claude/skills", ".wave/skills")

ProfileKind = Literal["runtime", "validator", "aggregate"]


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
    #: "quoted": quote-aware words (Wave); "shell": shell-quote words, operators dropped (Claude)
    argument_words: Literal["quoted", "shell"]
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
    #: built-in read-only commands (`git status`, `ls`) run without any permission rule
    #: (`wave_lsp.core.runtime.readonly`; Claude Code yes, Wave's permission manager no)
    auto_allows_read_only: bool = False

    # -- how the runtime reads a SKILL.md (docs/design/runtime-facts.md §3.1-§3.7) --------------
    #: the lenient YAML readings (`wave_lsp.core.parsing.yamltree.READINGS`) under which a
    #: frontmatter that strict YAML rejects still loads its fields; none: the file has empty
    #: metadata (or, for a strict loader, does not load)
    frontmatter_readings: frozenset[str] = frozenset()
    #: a byte-order mark is removed before the frontmatter is looked for
    strips_bom: bool = False
    #: the frontmatter ends at the first `---` anywhere, even inside a value (a lazy regular
    #: expression, not a delimiter line), and the body starts after the white space that follows
    #: it: the body's leading blank lines are not sent
    frontmatter_ends_at_first_dashes: bool = False
    #: a skill without a description is described by its body's first non-blank line (a heading's
    #: `#`s removed, cut at 100 characters); this text when the body has none
    body_description_default: str | None = None
    #: the listing names a skill by its command (folder) name, with a valid different frontmatter
    #: `name` as a label, `- folder (name): …`; `/name` then works as well as `/folder`
    labels_listing_with_name: bool = False
    #: `user-invocable: false` refuses `/name` with this message (`{name}`: the command name)
    not_user_invocable_message: str | None = None
    #: each run of control characters (C0, including newlines and tabs, DEL and C1) in a listing
    #: line's description is shown as one space
    listing_controls_as_spaces: bool = False
    #: inline injections inside a single-backtick code span are left as written
    skips_injections_in_code_spans: bool = False
    #: a command's output loses its leading blank lines and trailing white space (the Bash tool's
    #: result); empty output becomes `empty_command_output` (`{tool}`: the shell tool)
    trims_command_output: bool = False
    empty_command_output: str | None = None
    #: the Claude Code version each fact above was last verified against, by field name
    #: (docs/design/runtime-facts.md §3: facts not named hold from 2.1.88's source)
    fact_versions: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def expands(self, variable: str) -> bool:
        """`${variable}` is substituted by this runtime."""
        if variable.startswith("user_config."):
            return self.plugin_user_config
        return variable in self.variables

    def scans_root(self, relative_root: str) -> bool:
        """`relative_root` (e.g. `.claude/skills`) is a skills root this profile scans."""
        return self.scans_roots and relative_root in self.skills_roots


WAVE = RuntimeProfile(
    name="wave", runtime="Wave", reader_name="Wave", kind="runtime", catalog_column="wave",
    lenient_frontmatter=False, allowed_tools_separators=",", needs_comma_separated_tools=True,
    needs_spec_tools_string=False, drops_unresolved_tool_rules=True,
    variables=WAVE_VARIABLES | CLAUDE_SHARED_VARIABLES, plugin_user_config=False,
    arguments_file_variable="WAVE_ARGUMENTS_FILE", argument_base=1, argument_words="quoted",
    keeps_missing_indexed_argument=False, arguments_appended_after=" ",
    splices_arguments_into_commands=False, trims_body=True,
    skills_roots=ALL_SKILLS_ROOTS, keys_skills_by_folder=False, nested_project_roots=False,
    scans_roots=True, managed_root=None,
    legacy_command_folders=(".claude/commands", ".wave/commands"),
    precedence="project > personal, and `.wave/skills` > `.claude/skills` > `.agents/skills` "
               "within each",
    settings_folder=".wave", honours_shell_field=False, aborts_on_command_failure=False,
    command_timeout_seconds=30.0,
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
    command_timeout_seconds=120.0,  # the Bash tool's 2 minutes (§3.7)
    auto_allows_read_only=True,
    frontmatter_readings=frozenset({BUN, QUOTE_RETRY, TAB_RETRY}), strips_bom=True,
    frontmatter_ends_at_first_dashes=True, body_description_default="Skill",
    labels_listing_with_name=True, listing_controls_as_spaces=True,
    not_user_invocable_message=("This skill can only be invoked by Claude, not directly by users. "
                                'Ask Claude to use the "{name}" skill for you.'),
    skips_injections_in_code_spans=True, trims_command_output=True,
    empty_command_output="({tool} completed with no output)",
    fact_versions=MappingProxyType({
        # verified against 2.1.332 (issue 26 measurements); 2.1.88 had no tab retry, did not
        # label the listing with `name` and ran injections inside code spans
        "frontmatter_readings": "2.1.332", "strips_bom": "2.1.332",
        "frontmatter_ends_at_first_dashes": "2.1.332", "body_description_default": "2.1.332",
        "labels_listing_with_name": "2.1.332", "not_user_invocable_message": "2.1.332",
        "skips_injections_in_code_spans": "2.1.332", "trims_command_output": "2.1.332",
        "empty_command_output": "2.1.332", "arguments_appended_after": "2.1.332",
        # verified by the harness (tests/oracle): the listing's control characters, and the
        # argument words ending at the first shell operator after a word
        "listing_controls_as_spaces": "2.1.332", "argument_words": "2.1.332",
    }),
)

AGENTSKILLS = RuntimeProfile(
    name="agentskills", runtime="skills-ref", reader_name="the open spec", kind="validator",
    catalog_column="agentskills",
    lenient_frontmatter=False, allowed_tools_separators=", \t", needs_comma_separated_tools=False,
    needs_spec_tools_string=True, drops_unresolved_tool_rules=False,
    variables=frozenset(), plugin_user_config=False, arguments_file_variable=None,
    argument_base=1, argument_words="quoted", keeps_missing_indexed_argument=False,
    arguments_appended_after=" ", splices_arguments_into_commands=False, trims_body=True,
    skills_roots=ALL_SKILLS_ROOTS, scans_roots=False, keys_skills_by_folder=False,
    nested_project_roots=False, managed_root=None,
    legacy_command_folders=(".claude/commands", ".wave/commands"),
    precedence=WAVE.precedence,
    settings_folder=".wave", honours_shell_field=False, aborts_on_command_failure=False,
    command_timeout_seconds=30.0,
)

PORTABLE = RuntimeProfile(
    name="portable", runtime="every runtime", reader_name="every runtime", kind="aggregate",
    catalog_column="portable",
    lenient_frontmatter=False, allowed_tools_separators=", \t", needs_comma_separated_tools=True,
    needs_spec_tools_string=False, drops_unresolved_tool_rules=False,
    variables=CLAUDE_SHARED_VARIABLES, plugin_user_config=False, arguments_file_variable=None,
    argument_base=1, argument_words="quoted", keeps_missing_indexed_argument=False,
    arguments_appended_after=" ", splices_arguments_into_commands=False, trims_body=True,
    skills_roots=ALL_SKILLS_ROOTS, keys_skills_by_folder=False, nested_project_roots=False,
    scans_roots=True, managed_root=None,
    legacy_command_folders=(".claude/commands", ".wave/commands"), precedence=WAVE.precedence,
    settings_folder=".wave", honours_shell_field=False, aborts_on_command_failure=False,
    command_timeout_seconds=30.0,
)

#: every built-in profile by target name, in catalog column order
PROFILES = MappingProxyType({p.name: p for p in (WAVE, CLAUDE_CODE, AGENTSKILLS, PORTABLE)})
TARGETS: tuple[str, ...] = tuple(PROFILES)
DEFAULT_PROFILE = WAVE


def profile_named(name: str) -> RuntimeProfile | None:
    return PROFILES.get(name)
