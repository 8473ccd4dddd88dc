"""docs/design/rules.md *name*: SK030-SK041; each message says what to do in its first sentence
(docs/design/rules.md *How a message reads*)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.checking.loading import runtime_names
from wave_lsp.core.checking.messages import (
    capitalized,
    consequence,
    elsewhere,
    for_runtimes,
    validators,
    with_others,
)
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.reads import read_elsewhere
from wave_lsp.core.invocation.listing import display_label
from wave_lsp.core.parsing.document import FieldEntry
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import ALIAS
from wave_lsp.core.rules.helpers import double_quoted, shown, type_name
from wave_lsp.core.rules.registry import check

RESERVED_WORDS = ("anthropic", "claude")


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def suggest_name(text: str) -> str:
    """A kebab-case identifier close to `text` (`My Skill_v2` -> `my-skill-v2`)."""
    lowered = nfkc(text).strip().lower()
    ascii_only = unicodedata.normalize("NFKD", lowered).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_only).strip("-")[:64].strip("-")


def is_valid_name(text: str) -> bool:
    """Whether the schema accepts `text` as a `name`: its pattern and its length limit."""
    limit = schema.max_length("name") or 64
    form = schema.pattern("name")
    return (form is None or form.fullmatch(text) is not None) and len(text) <= limit


@check("SK030")
def name_missing(ctx: CheckContext) -> Iterator[Finding]:
    document = ctx.document
    if document.mapping is None or document.has("name"):
        return
    said = with_others("SK030", ctx.profile)
    elsewhere = read_elsewhere(document, ctx.profile, "name")
    level = None
    if elsewhere is not None:  # the runtime loads the skill with it (Gemini CLI's line parser)
        said = (f"{ctx.profile.runtime} reads `{shown(str(elsewhere))}` from another "
                "`name:` line and loads the skill; other runtimes find no name")
        level = Severity.INFORMATION
    fixes = []
    folder = ctx.location.dir_name
    if folder and is_valid_name(folder) and document.source.opener is not None:
        newline = "\r\n" if "\r\n" in document.text else "\n"
        at = document.source.frontmatter_offset
        fixes.append(Fix(f"Add `name: {folder}`", [TextEdit(Span(at, at), f"name: {folder}"
                                                             f"{newline}")], preferred=True))
    yield ctx.finding("SK030", document.opener_span,
                      "The frontmatter has no `name`: add `name:` with the folder's name. "
                      f"{said}.", fixes=fixes, level=level)


def _name(ctx: CheckContext) -> FieldEntry | None:
    entry = ctx.field("name")
    if entry is None or not isinstance(entry.value, str):
        return None
    return entry


@check("SK031")
def name_type(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("name")
    if entry is None:  # SK031 issues are about the `name` value: there are none without it
        return
    for located in ctx.issues_for("SK031"):
        node = located.node
        fixes = []
        if node.is_plain and node.text:
            fixes.append(Fix("Quote the name", [TextEdit(node.content_span,
                                                         double_quoted(node.text))]))
        yield ctx.finding("SK031", ctx.entry_span(entry),
                          f"`name` is {type_name(located.issue.value)}, not text: write the name "
                          f"as text (quote it if it is all digits). "
                          f"{with_others('SK031', ctx.profile)}.",
                          fixes=fixes)


@dataclass(frozen=True, slots=True)
class _NameValue:
    """The text of `name` as the format rules read it."""

    entry: FieldEntry
    raw: str  #: as written
    name: str  #: stripped and NFKC-normalised
    span: Span


def _name_value(ctx: CheckContext) -> _NameValue | None:
    """`name` when it is non-empty text (SK032 reports the empty one)."""
    entry = _name(ctx)
    if entry is None or not entry.value.strip():
        return None
    return _NameValue(entry, entry.value, nfkc(entry.value.strip()), ctx.entry_span(entry))


@check("SK032")
def name_empty(ctx: CheckContext) -> Iterator[Finding]:
    entry = _name(ctx)
    if entry is not None and not entry.value.strip():
        yield ctx.finding("SK032", ctx.entry_span(entry),
                          "`name` is empty: set it to the folder name. "
                          f"{with_others('SK032', ctx.profile)}.")


@check("SK041")
def name_padded(ctx: CheckContext) -> Iterator[Finding]:
    value = _name_value(ctx)
    if value is not None and value.raw != value.raw.strip():
        yield ctx.finding("SK041", value.span,
                          f"`name` has white space at its edges (`{shown(value.raw)}`): remove it. "
                          + for_runtimes("SK041", ctx.profile, "`name`, keeping the white space"),
                          fixes=[_set_name(ctx, value.entry, value.raw.strip(),
                                           "Remove the white space")])


def _own_check(ctx: CheckContext, code: str, value: _NameValue) -> tuple[str, Severity | None] | None:
    """What the target's runtime does with the name by its own check (`name_pattern`, with its
    `name_limit`), for a rule of the open specification's name rules: a sentence to add and the
    finding's level; None when the rule has nothing to report under this target (the runtime
    loads the name and the catalog reports the rule only as an error, where it stops loading).
    A runtime without a check of its own: ("", None), the rule speaks for the specification."""
    profile = ctx.profile
    accepts = profile.accepts_name(value.name)
    if accepts is None:
        return "", None
    check_text = f"its own check of the name, `{profile.name_pattern}`"
    if profile.over_limit == "reject" and profile.name_limit is not None:
        check_text += f" and at most {profile.name_limit} characters,"
    if not accepts:
        return (f" {capitalized(profile.runtime)} does not load the skill: {check_text} rejects "
                "it."), Severity.ERROR
    if rule(code).severity(profile) == Severity.ERROR:
        return None
    return (f" {capitalized(profile.runtime)} loads it: {check_text} allows it; {validators()} "
            "and the runtimes that follow the specification reject it."), None


@check("SK033")
def name_too_long(ctx: CheckContext) -> Iterator[Finding]:
    value = _name_value(ctx)
    limit = schema.max_length("name") or 64
    if value is None or len(value.name) <= limit or (own := _own_check(ctx, "SK033", value)) \
            is None:
        return
    yield ctx.finding("SK033", value.span, f"`name` has {len(value.name)} characters; the "
                                           f"limit is {limit}: shorten it (and the folder)."
                                           f"{own[0]}", level=own[1])


@check("SK034")
def name_upper_case(ctx: CheckContext) -> Iterator[Finding]:
    value = _name_value(ctx)
    if value is not None and value.name != value.name.lower():
        yield ctx.finding("SK034", value.span, f"`name` `{shown(value.name)}` has upper-case "
                                               "letters: write it in lower case "
                                               f"(`{shown(_lower_case_name(value.name))}`). Names "
                                               "must be lower case.",
                          fixes=[_lower_case_fix(ctx, value)])


def _lower_case_name(name: str) -> str:
    """Lower case, or the nearest valid name when lower case alone is not one (`Meeting Notes`
    becomes `meeting-notes`, not the still invalid `meeting notes`)."""
    lowered = name.lower()
    return lowered if is_valid_name(lowered) or not suggest_name(name) else suggest_name(name)


def _lower_case_fix(ctx: CheckContext, value: _NameValue) -> Fix:
    """`name` set to `_lower_case_name`."""
    new = _lower_case_name(value.name)
    if new == value.name.lower():
        return _set_name(ctx, value.entry, new, "Convert to lower case")
    return _set_name(ctx, value.entry, new, f"Rename to `{new}`")


@check("SK035")
def name_edge_hyphen(ctx: CheckContext) -> Iterator[Finding]:
    value = _name_value(ctx)
    if value is None or not (value.name.startswith("-") or value.name.endswith("-")) \
            or (own := _own_check(ctx, "SK035", value)) is None:
        return
    yield ctx.finding("SK035", value.span, "`name` starts or ends with `-`: remove the edge "
                                           f"hyphen. The spec forbids it.{own[0]}", level=own[1],
                      fixes=[_set_name(ctx, value.entry, value.name.strip("-"),
                                       "Remove the edge hyphen")])


@check("SK036")
def name_double_hyphen(ctx: CheckContext) -> Iterator[Finding]:
    value = _name_value(ctx)
    if value is None or "--" not in value.name or (own := _own_check(ctx, "SK036", value)) is None:
        return
    yield ctx.finding("SK036", value.span, f"`name` contains `--`; use single hyphens.{own[0]}",
                      level=own[1],
                      fixes=[_set_name(ctx, value.entry, re.sub("-{2,}", "-", value.name),
                                       "Collapse the hyphens")])


@check("SK037")
def name_characters(ctx: CheckContext) -> Iterator[Finding]:
    value = _name_value(ctx)
    if value is None:
        return
    invalid = sorted({ch for ch in value.name if not (ch.isalnum() or ch == "-")})
    own = _own_check(ctx, "SK037", value) if invalid else None
    if invalid and own is not None:
        shown_chars = " ".join(f"`{ch}`" if ch.strip() else "space" for ch in invalid)
        suggestion = suggest_name(value.name)
        fixes = ([_set_name(ctx, value.entry, suggestion, f"Rename to `{suggestion}`")]
                 if suggestion else [])
        advice = ("write it with letters, digits and `-` only"
                  + (f" (`{suggestion}`)" if suggestion else ""))
        if ctx.profile.labels_listing_with_name and not display_label(value.name, ""):
            # Claude Code names the command after the folder and shows `name` as a label only
            # when it is one (probes disc-name-variants, disc-plugin-name-space)
            yield ctx.finding("SK037", value.span,
                              f"`name` contains {shown_chars}: {advice}. {ctx.profile.runtime} "
                              "still runs the skill by its folder name, but does not show this "
                              "`name` in the listing, and `/name` cannot be typed with it.",
                              fixes=fixes)
            return
        yield ctx.finding("SK037", value.span,
                          f"`name` contains {shown_chars}: {advice}. Only letters, digits and `-` "
                          f"are allowed.{own[0]}", level=own[1], fixes=fixes)


@check("SK038")
def name_non_ascii(ctx: CheckContext) -> Iterator[Finding]:
    value = _name_value(ctx)
    if value is None:
        return
    non_ascii = sorted({ch for ch in value.name if ch.isalnum() and not ch.isascii()})
    own = _own_check(ctx, "SK038", value) if non_ascii else None
    if non_ascii and own is not None:
        who = (f"{validators()} accepts it, but the specification and the claude.ai upload "
               "accept only `a-z`, `0-9` and `-`")
        suggestion = suggest_name(value.name)
        spelled = f" (`{suggestion}`)" if suggestion else ""
        yield ctx.finding("SK038", value.span, f"`name` has non-ASCII letters "
                                               f"({' '.join(non_ascii)}): spell it with `a-z`, "
                                               f"`0-9` and `-`{spelled}. {who}.{own[0]}",
                          level=own[1])


@check("SK040")
def name_reserved_word(ctx: CheckContext) -> Iterator[Finding]:
    value = _name_value(ctx)
    if value is None:
        return
    lowered = value.name.lower()
    word = next((word for word in RESERVED_WORDS if word in lowered), None)
    if word is not None:
        yield ctx.finding("SK040", value.span,
                          f"`name` contains the reserved word `{word}`: remove it from the name, "
                          "as the claude.ai upload and the Skills API reject it.")


@check("SK039")
def name_dir_mismatch(ctx: CheckContext) -> Iterator[Finding]:
    entry = _name(ctx)
    folder = ctx.location.dir_name
    if entry is None or not folder or entry.value is ALIAS or not entry.value.strip():
        return
    if ctx.location.depth_in_root == 0:
        return  # the folder is a skills root itself (SK002)
    name = nfkc(entry.value.strip())
    if name == nfkc(folder):
        return
    if _at_repository_root(ctx):
        yield ctx.finding("SK039", ctx.entry_span(entry),
                          f"`name` is `{shown(name)}`: install the skill as a folder named "
                          f"`{shown(name)}` (for example `.claude/skills/{shown(name)}/SKILL.md`). "
                          "This SKILL.md lies at the root of its repository, outside every skills "
                          f"root, so `{folder}` is the clone's folder, not the one it is installed "
                          "into; runtimes that compare the name with the folder compare it with "
                          "that one.", level=Severity.INFORMATION)
        return
    version = _version_suffix(name, folder) if ctx.location.skills_root is None else None
    if version is not None:
        yield ctx.finding("SK039", ctx.entry_span(entry),
                          f"`name` is `{shown(name)}` and the folder `{folder}` is that name with "
                          f"the version `{version}`: install the skill as a folder named "
                          f"`{shown(name)}`. This SKILL.md lies outside every skills root, a "
                          "version kept beside others, so no runtime compares the name with "
                          "this folder.", level=Severity.INFORMATION)
        return
    said = _folder_consequence(ctx, entry.value.strip(), name, folder)
    fixes = []
    if is_valid_name(folder):
        fixes.append(_set_name(ctx, entry, folder, f"Set `name` to `{folder}`"))
    yield ctx.finding("SK039", ctx.entry_span(entry),
                      f"`name` is `{shown(name)}` but the folder is `{folder}`: set the name to "
                      f"the folder's (or rename the folder). {said}.", fixes=fixes,
                      level=_vendored_level(ctx))


def _folder_consequence(ctx: CheckContext, written: str, name: str, folder: str) -> str:
    """What the target does with a `name` that differs from the folder, from its profile's facts
    (`keys_skills_by_folder`, `labels_listing_with_name`, `name_must_match_folder`) and the
    catalog's effect row of SK039 (docs/design/rules.md *Facts*)."""
    profile = ctx.profile
    if profile.members and not profile.catalog_column:
        return _requires(ctx, folder)
    if profile.keys_skills_by_folder:
        return _named_after_folder(ctx, written, name, folder)
    said = capitalized(consequence("SK039", profile))
    if profile.members:  # those that drop it are named from their own runs (the checker)
        return said
    if profile.name_must_match_folder:
        return f"{said}: it requires the name to equal the folder `{folder}`"
    others = elsewhere("SK039", profile)
    named = f"{profile.runtime} names the skill `{shown(name)}` and does not compare it with the folder"
    if not effect_verified(profile):
        named = f"unverified (from its documentation only): {named}"
    return named + (f"; {others}" if others else "")


def effect_verified(profile: RuntimeProfile) -> bool:
    """SK039's effect under `profile` rests on a confirmed fact."""
    effect = rule("SK039").effect(profile)
    return effect is None or effect.verified


def _named_after_folder(ctx: CheckContext, written: str, name: str, folder: str) -> str:
    """A runtime that names the command after the folder: how it shows `name`."""
    runtime = ctx.profile.runtime
    if not ctx.profile.labels_listing_with_name:
        return (f"{runtime} names the command `/{folder}` after the folder and shows `name` only "
                "as a label")
    plugin = ctx.location.plugin if ctx.location.scope == "plugin" else None
    command = f"{plugin.name}:{folder}" if plugin else folder
    label = display_label(written, folder)
    label = f"{plugin.name}:{label}" if plugin and label else label
    first = _first_labelled(ctx, name) if label and not plugin else None
    shown_as = (f"lists it as `- {command} ({label}): …` and accepts `/{label}` too"
                if label else "does not show this `name` at all (not a valid label)")
    if first is not None:
        shown_as = (f"lists it as `- {command}: …`: it shows the label `{label}` beside "
                    f"`{first}` only, the first skill named so, and `/{label}` runs that one")
    return f"{runtime} names the command `/{command}` after the folder, {shown_as}"


#: what follows a skill's name in a folder that keeps one version of it: `-260611-0`,
#: `-15-0-0`, `-0.5.0-old`, `-v2` (sample 4: tangled-skills' `misc/git-260611-0`)
_VERSION = re.compile(r"^[-_.@]v?(\d+(?:[-_.]\d+)*(?:[-_.][a-z]+)?)$", re.I)


def _version_suffix(name: str, folder: str) -> str | None:
    """The version a folder adds to the skill's name (`git-260611-0` for `git`), or None."""
    if not name or not folder.lower().startswith(name.lower()):
        return None
    found = _VERSION.match(folder[len(name):])
    return found.group(1) if found else None


def _requires(ctx: CheckContext, folder: str) -> str:
    """Who requires the name to equal the folder, among the runtimes of an aggregate of runtimes
    (`.agents/skills`): those that compare them (`name_must_match_folder`, SK039's effect
    `drops`), and which of them do not check."""
    members = [m for m in ctx.profile.members if m.kind == "runtime"]
    strict = [m.runtime for m in members if m.name_must_match_folder]
    loose = [m.runtime for m in members if not m.name_must_match_folder]
    if not strict:
        return f"{runtime_names(loose)} do not check the name against the folder `{folder}`"
    sentence = (f"{runtime_names(strict)} require{'s' if len(strict) == 1 else ''} the name to "
                f"equal the folder `{folder}` and do{'es' if len(strict) == 1 else ''} not load "
                "the skill otherwise")
    return sentence + (f"; {runtime_names(loose)} do{'es' if len(loose) == 1 else ''} not "
                       "check it" if loose else "")


def _vendored_level(ctx: CheckContext) -> Severity | None:
    """Information for a SKILL.md inside another skill's folder (`a/references/vendor/SKILL.md`):
    material of that skill, a copy of someone else's skill, whose name is not the author's to
    keep in step with its folder (SK002 says which runtimes still load it); None otherwise."""
    location = ctx.location
    root, folder = location.skills_root, location.skill_dir
    if root is None or folder is None or (location.depth_in_root or 0) < 2:
        return None
    above = folder.parent
    while above != root and root in above.parents:
        if ctx.disk.exists(str(above / "SKILL.md")):
            return Severity.INFORMATION
        above = above.parent
    return None


def _at_repository_root(ctx: CheckContext) -> bool:
    """The SKILL.md lies at the root of a git repository, in no skills root and no plugin: a
    repository that is one skill, whose folder is named by whoever clones it."""
    location = ctx.location
    folder = location.skill_dir
    if folder is None or location.skills_root is not None or location.scope == "plugin":
        return False
    return ctx.disk.exists(str(folder / ".git"))


def _first_labelled(ctx: CheckContext, name: str) -> str | None:
    """The command of the first skill of the project (in the listing's order) whose frontmatter
    `name` is `name`, when that is another skill: Claude Code 2.1.332 shows a label beside the
    first skill that has it only (case dup-same-name). None when it is this one or unknown."""
    project, folder = ctx.project, ctx.real_skill_dir
    if project is None or folder is None:
        return None
    me = project.by_real_dir.get(folder)
    if me is None:
        return None
    for skill in project.skills:
        if skill.shadowed_by is None and skill.group == me.group \
                and nfkc(skill.listing.name.strip()) == name:
            return None if skill is me else skill.name
    return None


def _set_name(ctx: CheckContext, entry: FieldEntry, new: str, title: str) -> Fix:
    text = new if is_valid_name(new) else double_quoted(new)
    return Fix(title, [TextEdit(entry.node.content_span, text)], preferred=True)
