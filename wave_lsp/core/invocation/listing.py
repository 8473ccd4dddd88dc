"""The skill's entry in the model's listing and what it costs (docs/design/runtime-facts.md §3.5).

Every model-invocable skill is resident in the context as one line
`- <name>: <description>[ - <when_to_use>]`, the description part cut at 1,536 characters. This is
what the code lens shows, what `list` reports as `listingChars`, and what SK055/SK131 measure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.reads import coerce_description, read_as
from wave_lsp.core.invocation.skill_location import SkillLocation
from wave_lsp.core.parsing.document import FieldValues, SkillDocument

#: Claude Code cuts `description` + ` - when_to_use` at this many characters
LISTING_ENTRY_CAP = 1536
CHARS_PER_TOKEN = 4


@dataclass(frozen=True, slots=True)
class ListingEntry:
    """A skill's line in the model's listing, and who can invoke the skill."""

    name: str
    text: str  #: the line the model sees (empty when the skill is not listed)
    model_invocable: bool
    user_invocable: bool
    truncated: bool = False
    #: the `paths` patterns that keep it out of the listing until a file they match is touched
    activates_on: tuple[str, ...] = ()

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def tokens(self) -> int:
        return (self.chars + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


#: the words a runtime with `reads_boolean_words` reads as booleans, in any case
BOOLEAN_WORDS = MappingProxyType({"true": True, "yes": True, "on": True, "1": True,
                                  "false": False, "no": False, "off": False, "0": False})


def truthy(value: object, words: bool = False) -> bool | None:
    """How a runtime reads a boolean field: `true` or `"true"` (Wave, older Claude Code), and
    with `words` (`RuntimeProfile.reads_boolean_words`) also `yes`/`no`/`on`/`off`/`1`/`0` in
    any case; None if not a boolean."""
    if isinstance(value, bool):
        return value
    if words and isinstance(value, int):
        value = str(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("true", "false") or (words and word in BOOLEAN_WORDS):
            return BOOLEAN_WORDS[word]
    return None


def _flag(value: object, default: bool, words: bool = False) -> bool:
    found = truthy(value, words)
    return default if found is None else found


def skill_name(document: FieldValues, location: SkillLocation) -> str:
    """The name the runtime lists: the frontmatter `name`, else the folder name; a plugin's skill
    (one in the plugin's skills folder or listed by its manifest) as `<plugin>:<name>`. A skill
    elsewhere in a plugin's repository (`.claude/skills/x` beside the plugin's manifest) is not
    one of the plugin's skills and keeps its plain name."""
    name = document.value("name")
    base = name.strip() if isinstance(name, str) and name.strip() else location.dir_name or "skill"
    if location.plugin is not None and location.scope == "plugin":
        return f"{location.plugin.name}:{base}"
    return base


def listing_description(document: FieldValues) -> str:
    """`description`, joined with ` - when_to_use` when there is one, before the cap."""
    description = document.value("description")
    description = description.strip() if isinstance(description, str) else ""
    when = document.value("when_to_use")
    if isinstance(when, str) and when.strip():
        return f"{description} - {when.strip()}" if description else when.strip()
    return description


def listing_entry(document: FieldValues, location: SkillLocation) -> ListingEntry:
    name = skill_name(document, location)
    model = not _flag(document.value("disable-model-invocation"), False)
    user = _flag(document.value("user-invocable"), True)
    if not model:
        return ListingEntry(name, "", False, user)
    combined = listing_description(document)
    truncated = len(combined) > LISTING_ENTRY_CAP
    if truncated:
        combined = combined[: LISTING_ENTRY_CAP - 1] + "…"
    text = f"- {name}: {combined}" if combined else f"- {name}"
    return ListingEntry(name, text, True, user, truncated)


def command_name(document: FieldValues, location: SkillLocation, profile: RuntimeProfile) -> str:
    """The name `/name` invokes under `profile`: the folder name where the runtime keys skills by
    folder (a plugin's skill as `<plugin>:<folder>`: Claude Code 2.1.332, probes
    disc-plugin-name-field, disc-plugin-name-variants), else `skill_name`. A legacy command file
    is its command (`sub:x`) where the runtime lists those (`lists_legacy_commands`)."""
    if location.legacy_command is not None and profile.lists_legacy_commands:
        return location.legacy_command
    if profile.keys_skills_by_folder and location.dir_name:
        plugin = location.plugin if location.scope == "plugin" else None
        keyed = folder_command(location.dir_name, plugin.name if plugin else None,
                               plugin is not None and location.skill_dir == plugin.root)
        if keyed is not None:
            return keyed
    return skill_name(document, location)


def folder_command(folder: str, plugin: str | None, is_plugin_root: bool) -> str | None:
    """The command of a runtime that keys skills by folder: the folder's name, a plugin's skill
    as `<plugin>:<folder>`; None for a plugin-root SKILL.md, which is named by `name`."""
    if plugin is None:
        return folder
    return None if is_plugin_root else f"{plugin}:{folder}"


def name_alias(document: FieldValues, location: SkillLocation, profile: RuntimeProfile,
               command: str) -> str | None:
    """The other name that invokes the skill where the runtime labels the listing with `name`
    (`labels_listing_with_name`): the frontmatter `name` (a plugin's as `<plugin>:<name>`) when
    it differs from the command, whether or not it is a valid label (Claude Code 2.1.332 finds a
    command by its display name too; probes disc-name-variants, disc-plugin-name-space)."""
    if not profile.labels_listing_with_name:
        return None
    text = _name_text(document.value("name"))
    text = text.strip() if text is not None else ""
    if not text:
        return None
    if location.scope == "plugin" and location.plugin is not None:
        text = f"{location.plugin.name}:{text}"
    return None if text == command else text


#: Claude Code ignores a frontmatter `name` longer than this (`Frontmatter "name" … is over`)
MAX_DISPLAY_NAME = 256
_DISPLAY_NAME_CHARACTERS = frozenset("_:.-")


def _name_text(value: object) -> str | None:
    """A frontmatter `name` as Claude Code's `String(name)` writes it (None for none or a
    collection)."""
    if value is None or isinstance(value, (dict, list)):
        return None
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def display_label(value: object, command: str) -> str | None:
    """The label Claude Code lists beside the command name, `- command (label): …`: the
    frontmatter `name` when it differs from the command, is at most 256 characters of letters,
    marks, digits, `_`, `:`, `.` and `-` (any script), and is not the command's last
    `:`-segment; None otherwise (an invalid `name` is not shown)."""
    label = _name_text(value)
    if label is None:
        return None
    if (label == command or command.endswith(f":{label}") or not label
            or len(label) > MAX_DISPLAY_NAME):
        return None
    for character in label:
        if character not in _DISPLAY_NAME_CHARACTERS and unicodedata.category(character)[0] not in "LMN":
            return None
    return label


def _when_to_use(values: FieldValues) -> str:
    when = values.value("when_to_use")
    return when if isinstance(when, str) else coerce_description(when) or ""


def unlisted_without_description(values: FieldValues, location: SkillLocation,
                                 profile: RuntimeProfile) -> bool:
    """A plugin's skill that this runtime leaves out of the listing when it has no frontmatter
    `description` (`lists_plugin_skills_only_when_described`): it has no `when_to_use` either."""
    return (profile.lists_plugin_skills_only_when_described and location.scope == "plugin"
            and not _when_to_use(values))


def invocation_flags(values: FieldValues, profile: RuntimeProfile) -> tuple[bool, bool]:
    """Whether the model and the user may invoke the skill: `disable-model-invocation` and
    `user-invocable` count only where the runtime reads them (`RuntimeProfile.invocation_fields`:
    Codex 0.171.0, OpenCode 1.18.33 and Gemini CLI 0.61.0 ignore both, cases cx-dmi-ignored,
    gm-dmi-ignored; Cursor reads only the first), `user-invocable` is true only when absent or
    `true` under `user_invocable_only_when_true` (Wave 469391bb)."""
    fields, words = profile.invocation_fields, profile.reads_boolean_words
    model = "disable-model-invocation" not in fields \
        or not _flag(values.value("disable-model-invocation"), False, words)
    user_value = values.value("user-invocable")
    if "user-invocable" not in fields:
        user = True
    elif profile.user_invocable_only_when_true:
        user = user_value is None or truthy(user_value) is True
    else:
        user = _flag(user_value, True, words)
    return model, user


#: the invocation fields the plain `listing_entry` honours
_BOTH_FIELDS = frozenset({"disable-model-invocation", "user-invocable"})


def runtime_listing_entry(document: SkillDocument, location: SkillLocation,
                          profile: RuntimeProfile, labelled: bool = True) -> ListingEntry:
    """The skill's entry exactly as `profile`'s runtime lists it (`wave_lsp.core.facts.reads`:
    the fields it loads, its description or the body's first line, its command name and label),
    written in the profile's `listing_format`. For a profile without those facts this is
    `listing_entry`. `labelled` False: an earlier skill already shows the same label, so this
    one is listed without it (Claude Code 2.1.332, case dup-same-name)."""
    if profile.listing_format == "bullet":
        return wave_listing_entry(document, location, profile)
    reading = read_as(document, profile)
    if reading.same_fields and not reading.described_from_body \
            and not profile.labels_listing_with_name and profile.listing_format == "dash" \
            and profile.invocation_fields >= _BOTH_FIELDS:
        return listing_entry(document, location)
    values = reading.values
    name = command_name(values, location, profile)
    model, user = invocation_flags(values, profile)
    if not model:
        return ListingEntry(name, "", False, user)
    if reading.described_from_body and unlisted_without_description(values, location, profile):
        return ListingEntry(name, "", True, user)  # invocable by name, but not listed
    if profile.hides_conditional_skills and values.value("paths") is not None:
        from wave_lsp.core.facts.conditional import activating_patterns  # only with `paths`

        if patterns := activating_patterns(values):  # listed once a matching file is touched
            return ListingEntry(name, "", True, user, activates_on=tuple(patterns))
    if profile.listing_format != "dash":
        return _formatted_entry(location, profile, name, reading.description or "", user)
    when_text = _when_to_use(values)
    description = reading.description or ""
    if profile.listing_strips_control_sequences:  # each field on its own (fm-c1-strings)
        # imported here: a one-file check needs no terminal parser (tests/cli/test_start_up.py)
        from wave_lsp.core.invocation.terminal import strip_control_sequences

        description = strip_control_sequences(description)
        when_text = strip_control_sequences(when_text)
    shown = name
    if profile.labels_listing_with_name and labelled:
        label = display_label(values.value("name"), name)
        if label and location.scope == "plugin" and location.plugin is not None:
            label = f"{location.plugin.name}:{label}"
        shown = f"{name} ({label})" if label else name
    combined = description
    if when_text:
        combined = f"{combined} - {when_text}" if combined else when_text
    if profile.listing_controls_as_spaces:
        combined = _CONTROL_RUN.sub(" ", combined)
    truncated = len(combined) > LISTING_ENTRY_CAP
    if truncated:
        combined = combined[: LISTING_ENTRY_CAP - 1] + "…"
    text = f"- {shown}: {combined}" if combined else f"- {shown}"
    return ListingEntry(shown, text, True, user, truncated)


def wave_listing_entry(document: SkillDocument, location: SkillLocation,
                       profile: RuntimeProfile) -> ListingEntry:
    """Wave's entry (`listing_format = "bullet"`, 469391bb's `skillTool.prompt`):
    `• **name** (type): description`, the description as read (no `when_to_use`, no cap); the
    type is "project" for a skill under a `.wave`, `.claude` or `.agents` skills folder, a
    personal one included (Wave tests the path), else "personal" (a plugin's)."""
    values = read_as(document, profile).values
    name = skill_name(values, location)
    model, user = invocation_flags(values, profile)
    if not model:
        return ListingEntry(name, "", False, user)
    description = values.value("description")
    text = description.strip() if isinstance(description, str) else ""
    kind = "personal" if location.scope == "plugin" else "project"
    return ListingEntry(name, f"• **{name}** ({kind}): {text}", True, user)


def _formatted_entry(location: SkillLocation, profile: RuntimeProfile, name: str,
                     description: str, user: bool) -> ListingEntry:
    """The entry of a runtime whose listing is not a dash line (`RuntimeProfile.listing_format`;
    runtime-facts.md §9, §11): Codex's `- name: description (file: <SKILL.md>)`, its description
    on one line (white space collapsed) and cut to `listing_description_cut` characters with
    `...`; the `<skill>` element of an `<available_skills>` block (OpenCode's, Gemini CLI's and
    Copilot CLI's, `_xml_element`). `description` is the runtime's (`reads.read_as`: under
    Gemini CLI's line parser, the one that parser reads)."""
    if not description and profile.commands_without_description:
        return ListingEntry(name, "", True, user)  # a command, not listed (oc-no-description)
    if profile.listing_format == "dash-with-file":
        path = location.path.as_posix() if location.path is not None else ""
        text, truncated = listed_description(profile, description)
        return ListingEntry(name, f"- {name}: {text} (file: {path})", True, user, truncated)
    return ListingEntry(name, _xml_element(profile, name, description, location), True, user)


#: what ends a description cut to `listing_description_cut` (Codex 0.171.0, cx-description-1100)
CUT_MARK = "..."


def measured_description(profile: RuntimeProfile, text: str) -> str:
    """`text` (a `description` or `metadata.short-description`) as `profile` measures and lists it:
    on one line, each run of white space one space, where it collapses them (Codex)."""
    return " ".join(text.split()) if profile.collapses_description else text


def description_kept(profile: RuntimeProfile) -> int | None:
    """The characters of a description over `listing_description_cut` that the listing keeps
    before `CUT_MARK` (None: it keeps the whole)."""
    cut = profile.listing_description_cut
    return None if cut is None else cut - len(CUT_MARK)


def listed_description(profile: RuntimeProfile, text: str) -> tuple[str, bool]:
    """The description as `profile`'s listing shows it, and whether it was cut: measured
    (`measured_description`), then over `listing_description_cut` the first `description_kept`
    characters and `CUT_MARK`."""
    shown = measured_description(profile, text)
    kept = description_kept(profile)
    if kept is None or len(shown) <= kept + len(CUT_MARK):
        return shown, False
    return shown[:kept] + CUT_MARK, True


def _xml_element(profile: RuntimeProfile, name: str, description: str,
                 location: SkillLocation) -> str:
    """The `<skill>` element: OpenCode 1.18.33 ("xml-escaped-path") writes name and description
    as written (`<tags> & "quotes"`) and the SKILL.md's path XML-escaped (`&lt;built-in&gt;`);
    Gemini CLI 0.61.0 ("xml-path") writes all three as written; both indent the children by four
    spaces and the closing tag by two. Copilot CLI 1.0.102 ("xml-escaped-scope") escapes name and
    description, quotes included, writes the scope (`project`, or `user` for a personal skill) as
    `<location>` and indents by two."""
    path = location.path.as_posix() if location.path is not None else ""
    if profile.listing_format == "xml-escaped-scope":
        where = "user" if location.scope == "personal" else "project"
        return (f"<skill>\n  <name>{_xml(name, True)}</name>\n  <description>"
                f"{_xml(description, True)}</description>\n  <location>{where}</location>\n"
                "</skill>")
    if profile.listing_format == "xml-escaped-path":
        path = _xml(path)
    return (f"<skill>\n    <name>{name}</name>\n    <description>{description}</description>\n"
            f"    <location>{path}</location>\n  </skill>")


def _xml(text: str, quotes: bool = False) -> str:
    """XML escaping of an element's text (`quotes`: `"` and `'` too, as Copilot CLI 1.0.102 writes
    them, `&quot;`, `&apos;`)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;").replace("'", "&apos;") if quotes else text


#: what Claude Code shows as one space in a listing line (2.1.332: `Line one\nline two`,
#: `a\r\nb`, a tab, BEL, U+0080; docs/design/runtime-facts.md §3.5)
_CONTROL_RUN = re.compile(r"[\x00-\x1f\x7f-\x9f]+")


#: Claude Code: 1% of a 200k context × 4 characters per token (`SLASH_COMMAND_TOOL_CHAR_BUDGET`)
DEFAULT_LISTING_BUDGET = 8_000
MIN_DESCRIPTION_CHARS = 20
LISTING_HEADER = "The following skills are available for use with the Skill tool:\n\n"


@dataclass(slots=True)
class Listing:
    """The model-visible listing of all skills, as the runtime renders it under a budget."""

    text: str
    budget: int
    full_chars: int  #: what the listing would take without cutting
    #: name -> characters of its description kept (only for entries that were cut)
    cut: dict[str, int]
    names_only: bool = False
    count: int = 0  #: model-visible entries

    @property
    def over_budget(self) -> bool:
        return self.full_chars > self.budget


def render_listing(entries: list[ListingEntry], budget: int = DEFAULT_LISTING_BUDGET) -> Listing:
    """Claude Code's overflow algorithm (v2.1.88): when the entries do not fit, every description
    gets the same share; below 20 characters only names are listed."""
    visible = [entry for entry in entries if entry.model_invocable and entry.text]
    full = "\n".join(entry.text for entry in visible)
    if len(full) <= budget or not visible:
        return Listing(full, budget, len(full), {}, count=len(visible))
    count = len(visible)
    names = sum(len(entry.name) + 4 for entry in visible)
    share = (budget - names - (count - 1)) // count
    if share < MIN_DESCRIPTION_CHARS:
        text = "\n".join(f"- {entry.name}" for entry in visible)
        return Listing(text, budget, len(full), {e.name: 0 for e in visible}, names_only=True,
                       count=count)
    lines, cut = [], {}
    for entry in visible:
        description = entry.text[len(entry.name) + 4 :]
        if len(description) > share:
            description = description[: share - 1] + "…"
            cut[entry.name] = share - 1
        lines.append(f"- {entry.name}: {description}" if description else f"- {entry.name}")
    return Listing("\n".join(lines), budget, len(full), cut, count=count)


@dataclass(frozen=True, slots=True)
class ListingTotals:
    """What the budget rule needs of a listing, without rendering it: sums over its model-visible
    entries. `render_listing` cuts exactly the entries `kept` names (tests/core/test_incremental.py
    holds the two together); the sums follow a changed entry in O(1), so a project snapshot keeps
    each load group's totals up to date without looking at the other skills
    (docs/design/product.md *Incremental re-indexing*)."""

    count: int = 0  #: model-visible entries
    text_chars: int = 0  #: their lines' characters
    name_chars: int = 0  #: their `- <name>: ` prefixes' characters
    budget: int = DEFAULT_LISTING_BUDGET

    def plus(self, entry: ListingEntry, sign: int = 1) -> ListingTotals:
        """The totals with `entry` added (`sign` -1: removed); an entry that is not listed
        changes nothing."""
        if not entry.model_invocable:
            return self
        return ListingTotals(self.count + sign, self.text_chars + sign * len(entry.text),
                             self.name_chars + sign * (len(entry.name) + 4), self.budget)

    @property
    def full_chars(self) -> int:
        """The characters of the listing without cutting (lines joined by newlines)."""
        return self.text_chars + max(self.count - 1, 0)

    @property
    def over_budget(self) -> bool:
        return self.count > 0 and self.full_chars > self.budget

    @property
    def share(self) -> int:
        """The characters each description keeps when the listing is over budget."""
        return (self.budget - self.name_chars - (self.count - 1)) // max(self.count, 1)

    @property
    def names_only(self) -> bool:
        return self.over_budget and self.share < MIN_DESCRIPTION_CHARS

    def kept(self, entry: ListingEntry) -> int | None:
        """The characters of `entry`'s description kept when the listing cuts it (0: only its name
        is listed), None when it is not cut."""
        if not self.over_budget or not entry.model_invocable:
            return None
        if self.names_only:
            return 0
        share = self.share
        return share - 1 if len(entry.text) - len(entry.name) - 4 > share else None


def listing_totals(entries: Iterable[ListingEntry],
                   budget: int = DEFAULT_LISTING_BUDGET) -> ListingTotals:
    visible = [entry for entry in entries if entry.model_invocable and entry.text]
    return ListingTotals(len(visible), sum(len(entry.text) for entry in visible),
                         sum(len(entry.name) + 4 for entry in visible), budget)


def typed_command(values: FieldValues, location: SkillLocation,
                  profile: RuntimeProfile) -> str | None:
    """What the user types to run the skill under `profile` (`/deploy`, `$deploy`,
    `/plugin:deploy`, Gemini CLI's replaced characters), whether or not the runtime offers the
    command (`user_command`); None when the skill has no usable name there."""
    name = profile.command_name(location.dir_name or "", values.value("name"))
    if name is None:
        return None
    plugin = location.plugin
    if location.scope == "plugin" and plugin is not None:
        name = f"{plugin.name}:{name}"
    return f"{profile.command_sigil}{name}"


def user_command(document: SkillDocument, location: SkillLocation,
                 profile: RuntimeProfile) -> str | None:
    """`typed_command` of a skill the runtime offers as a command; None when it does not (a
    `user-invocable` it honours says no: `invocation_flags`)."""
    values = read_as(document, profile).values
    return typed_command(values, location, profile) if invocation_flags(values, profile)[1] \
        else None
