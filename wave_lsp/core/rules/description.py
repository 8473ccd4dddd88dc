"""docs/design/rules.md *description and other spec fields*: SK050-SK062; each message says what
to do in its first sentence (docs/design/rules.md *How a message reads*)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.checking.messages import (
    agree,
    capitalized,
    consequence,
    effect_sentence,
    elsewhere,
    for_runtimes,
    runtimes_that,
    validators,
)
from wave_lsp.core.facts.profiles import PORTABLE, RuntimeProfile
from wave_lsp.core.facts.reads import read_as, read_elsewhere
from wave_lsp.core.invocation.listing import (
    CUT_MARK,
    LISTING_ENTRY_CAP,
    description_kept,
    listed_description,
    listing_description,
    measured_description,
    unlisted_without_description,
)
from wave_lsp.core.parsing.document import FieldEntry
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import yaml11_type
from wave_lsp.core.rules.helpers import double_quoted, shown, type_name
from wave_lsp.core.rules.registry import check

#: words that say *when* a skill applies (English, Chinese, Japanese)
_TRIGGER = re.compile(
    r"\b(use|used|uses|using|invoke[sd]?|trigger(s|ed)?|when(ever)?|if|whether|asks?|asked|"
    r"mentions?|mentioned|needs?|wants?|requests?|before|after|during|for)\b"
    r"|当|时|時|用于|適用|适用|使用|如果|場合|とき|際",
    re.IGNORECASE,
)


@check("SK050")
def description_missing(ctx: CheckContext) -> Iterator[Finding]:
    if ctx.document.mapping is None or ctx.document.has("description"):
        return
    elsewhere = read_elsewhere(ctx.document, ctx.profile, "description")
    if elsewhere is not None:  # the runtime loads the skill with it (Gemini CLI's line parser)
        yield ctx.finding("SK050", ctx.document.opener_span,
                          "The frontmatter has no top-level `description`: add one that says "
                          f"what the skill does and when to use it. {ctx.profile.runtime} reads "
                          f"`{shown(str(elsewhere))}` from another `description:` line and loads "
                          "the skill; other runtimes find no description.",
                          level=Severity.INFORMATION)
        return
    yield ctx.finding("SK050", ctx.document.opener_span,
                      "The frontmatter has no `description`: add one that says what the skill "
                      f"does and when to use it. {_without_description(ctx)}.")


def _without_description(ctx: CheckContext) -> str:
    """What the target does with a skill that has no `description`: from its profile's facts
    (`commands_without_description`, `body_description_default`, the plugin listing rule) where
    it still loads the skill, else the catalog's effect row of SK050."""
    profile = ctx.profile
    if profile.commands_without_description:
        return capitalized(consequence("SK050", profile, kind="unlisted"))
    if unlisted_without_description(ctx.document, ctx.location, profile):
        return (f"{capitalized(consequence('SK050', profile, kind='unlisted'))}: a plugin's "
                f"skill without a description is not listed (still invocable as "
                f"`/{_plugin_command(ctx)}`)")
    if profile.body_description_default is not None:
        # Claude Code 2.1.332; Copilot CLI 1.0.102 passes headings over (case cp-no-description)
        line = "line of the body that is not a heading" \
            if profile.body_description_skips_headings else "line of the body"
        return f"{profile.runtime} falls back to the first {line}, which rarely says when to use the skill"
    return capitalized(consequence("SK050", profile))


def _empty_description(ctx: CheckContext) -> str:
    """What the target does with a blank `description`, from the catalog's effect row of SK052:
    a runtime that loads the skill gives the model nothing to match against; one that treats a
    blank description as none falls back as for a missing one (SK050); the others drop it."""
    effect = rule("SK052").effect(ctx.profile)
    if ctx.profile.members or effect is None:
        return capitalized(consequence("SK052", ctx.profile))
    if effect.kind == "falls-back":
        return _without_description(ctx)
    if effect.kind == "loads" and effect.verified:
        return (f"{ctx.profile.runtime} loads the skill, but the model has nothing to match "
                "against and never chooses it")
    return capitalized(consequence("SK052", ctx.profile))


def _plugin_command(ctx: CheckContext) -> str:
    """`plugin:folder`, the command of a plugin's skill."""
    plugin, folder = ctx.location.plugin, ctx.location.dir_name or "name"
    return f"{plugin.name}:{folder}" if plugin is not None else folder


@check("SK051")
def description_type(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("description")
    if entry is None:
        return
    node = entry.node
    if ctx.issues_for("SK051"):
        what = type_name(entry.value)
    elif node.is_plain and node.text and yaml11_type(node.text):
        what = f"text for YAML 1.2 but a {yaml11_type(node.text)} for YAML 1.1 loaders"
    else:
        return
    fixes = []
    if node.kind == "scalar" and node.style is None and node.text:
        fixes.append(Fix("Quote the description",
                         [TextEdit(node.content_span, double_quoted(node.text))], preferred=True))
    yield ctx.finding(
        "SK051", ctx.entry_span(entry),
        f"`description` is {what}: write the description as quoted text. "
        f"{_type_consequence(ctx, entry.value)}; the claude.ai upload rejects it (`Description "
        "must be a string`).", fixes=fixes)


def _type_consequence(ctx: CheckContext, value: object) -> str:
    """What the target does with a `description` that is not text: the catalog's effect row of
    SK051, and where the runtime reads the fields as it loads them (`read_as`), whether it keeps
    the value as text or drops it and describes the skill by its body."""
    profile = ctx.profile
    effect = rule("SK051").effect(profile)
    if effect is None or not effect.loads or profile.members:
        return capitalized(consequence("SK051", profile))
    reading = read_as(ctx.document, profile)
    if reading.described_from_body or reading.description is None:
        said = consequence("SK051", profile, what="this value", kind="ignores")
        said += " and describes it by its body's first line" if reading.described_from_body \
            else ""
    else:
        said = (f"{profile.runtime} loads the skill and reads the value as "
                f"`{shown(reading.description, 40)}`")
    others = elsewhere("SK051", profile)
    return capitalized(said) + (f"; {others}" if others else "")


def _description(ctx: CheckContext) -> tuple[FieldEntry, str] | None:
    entry = ctx.field("description")
    if entry is None or not isinstance(entry.value, str):
        return None
    return entry, entry.value


@check("SK052", "SK053", "SK054", "SK056")
def description_text(ctx: CheckContext) -> Iterator[Finding]:
    yield from _short_description(ctx)
    found = _description(ctx)
    if found is None:
        return
    entry, text = found
    span = ctx.entry_span(entry)
    if not text.strip():
        yield ctx.finding("SK052", span, "`description` is empty: write what the skill does and "
                                         f"when to use it. {_empty_description(ctx)}.")
        return
    limit = schema.max_length("description") or 1024
    profile = ctx.profile
    count = profile.length(text)
    if count > limit:
        others = "; ".join(effect_sentence(kind, names, "the description")
                           for kind, names in _limit_groups(PORTABLE, profile).items())
        said = (f"the specification counts {len(text):,} characters and allows it"
                if len(text) <= limit else others)  # over the runtime's count only, or not
        level = None
        kept = description_kept(profile)
        if kept is not None and listed_description(profile, text)[1]:
            # Codex 0.171.0 loads it and cuts the listing's copy (case cx-description-1100)
            said = (f"{profile.runtime} loads the skill but lists only the first "
                    f"{kept:,} characters of the description and `{CUT_MARK}`"
                    + (f"; {said}" if said else ""))
            level = Severity.WARNING
        elif profile.kind == "runtime" and profile.description_limit is not None \
                and count > profile.description_limit \
                and profile.catalog_column in rule("SK053").stops_loading:
            # Copilot CLI 1.0.102 (cases desc-long, cp-description-limit)
            said = (f"{consequence('SK053', profile)} (it takes at most "
                    f"{profile.description_limit:,})" + (f"; {said}" if said else ""))
        elif len(text) > limit:
            said = _limit_consequence(profile)
        consequence_ = capitalized(said)
        counted = "" if count == len(text) else \
            f" as {profile.runtime} counts them, a character beyond U+FFFF as two"
        yield ctx.finding("SK053", span, f"`description` has {count:,} characters{counted} "
                                         f"(limit {limit:,}): shorten it and move details into "
                                         f"the body. {consequence_}.", level=level)
    for offset in _angle_brackets(ctx, entry):
        yield ctx.finding("SK054", Span(offset, offset + 1),
                          "`description` contains `<` or `>`: write the words instead. "
                          + for_runtimes("SK054", ctx.profile, "`description`, removing any "
                                                              "tag-shaped text (`<…>`)")
                          + " The claude.ai upload and skill-creator's validator "
                          "(`quick_validate.py` of Anthropic's skill-creator skill) reject "
                          "descriptions with angle brackets.")
        break
    if not _TRIGGER.search(text):
        yield from _no_trigger(ctx, span)


def _no_trigger(ctx: CheckContext, span: Span) -> Iterator[Finding]:
    """SK056, said once per collection (a collection whose descriptions all name the task and
    none says when is written so on purpose: the same hint on each of its skills is noise,
    sample 4), on its first skill in load order with the others as related locations."""
    from wave_lsp.core.rules.workspace import also_in, collection, said_here

    others = said_here(ctx, lambda skill: not _TRIGGER.search(skill.description))
    if others is None:
        return
    found = collection(ctx)
    sentence, related = also_in(others, "have no *when* in their description",
                                found.label if found is not None else "the collection")
    yield ctx.finding("SK056", span, "`description` says what the skill is but not *when* to "
                                     "use it; add a sentence such as \"Use when the user asks "
                                     "to …\" so the model knows when to pick it." + sentence,
                      related=related)


def _limit_consequence(profile: RuntimeProfile) -> str:
    """What the target does with a description over the specification's limit (the catalog's
    effect row of SK053, whose `drops` under a runtime that cuts the listing's copy is about
    `metadata.short-description`), and who does not load or cuts it when the target loads it."""
    if profile.members:  # those that drop it are named from their own runs (the checker)
        cut = _limit_groups(profile).get("truncates")
        return (effect_sentence("truncates", cut, "the description") if cut
                else consequence("SK053", profile))
    said = consequence("SK053", profile, what="the description")
    effect = rule("SK053").effect(profile)
    if effect is None or effect.kind != "loads":
        return said
    if profile.description_limit is None:
        said = f"{profile.runtime} has no limit"
    others = "; ".join(effect_sentence(kind, names, "the description")
                       for kind, names in _limit_groups(PORTABLE, profile).items())
    return f"{said}, but {others}" if others else said


def _limit_groups(aggregate: RuntimeProfile, but: RuntimeProfile | None = None
                  ) -> dict[str, list[str]]:
    """The members of `aggregate` (but `but`) that do not load or cut a long description, by
    effect: a runtime that cuts the listing's copy (`description_kept`) cuts it."""
    item = rule("SK053")
    groups: dict[str, list[str]] = {}
    for member in aggregate.members:
        effect = item.effect(member)
        if member is but or effect is None or not effect.verified:
            continue
        kind = "truncates" if description_kept(member) is not None else effect.kind
        if kind in ("drops", "rejects", "truncates"):
            groups.setdefault(kind, []).append(member.runtime)
    return groups


def _short_description(ctx: CheckContext) -> Iterator[Finding]:
    """SK053 for `metadata.short-description` under a runtime that limits it (Codex rejects the
    skill: `invalid metadata.short-description: exceeds maximum length of 1024 characters`)."""
    limit = ctx.profile.short_description_limit
    entry = ctx.document.fields.get("metadata")
    if limit is None or entry is None or entry.node.kind != "mapping":
        return
    for key, value in entry.node.pairs:
        text = value.value() if key.value() == "short-description" else None
        collapsed = measured_description(ctx.profile, text) if isinstance(text, str) else ""
        if len(collapsed) > limit:  # Codex measures it on one line, white space collapsed
            yield ctx.finding("SK053", value.span,
                              f"`metadata.short-description` has {len(collapsed):,} characters "
                              f"(limit {limit:,}): shorten it. {ctx.profile.runtime} rejects the "
                              "skill (`invalid metadata.short-description: exceeds maximum length "
                              f"of {limit} characters`).")


def _angle_brackets(ctx: CheckContext, entry: FieldEntry) -> Iterator[int]:
    """Offsets of `<`/`>` inside the description's source (block headers excluded)."""
    node = entry.node
    if "<" not in entry.value and ">" not in entry.value:
        return
    start, end = node.content_span.start, node.content_span.end
    if node.is_block_scalar:
        newline = ctx.text.find("\n", start, end)
        start = newline + 1 if newline >= 0 else end
    found = False
    for match in re.finditer(r"[<>]", ctx.text[start:end]):
        found = True
        yield start + match.start()
    if not found:
        yield node.content_span.start


@check("SK055")
def listing_truncated(ctx: CheckContext) -> Iterator[Finding]:
    found = _description(ctx)
    if found is None:
        return
    entry, _text = found
    when = ctx.value("when_to_use")
    total = len(listing_description(ctx.document))
    if total <= LISTING_ENTRY_CAP:
        return
    combined = "`description` + ` - when_to_use`" if isinstance(when, str) else "`description`"
    yield ctx.finding("SK055", ctx.entry_span(entry),
                      f"{combined} is {total:,} characters: put the trigger words first and "
                      "shorten it. " + for_runtimes(
                          "SK055", ctx.profile, f"its listing entry at {LISTING_ENTRY_CAP:,} "
                          f"characters, so the model never sees the last "
                          f"{total - LISTING_ENTRY_CAP:,}"))


@check("SK060")
def compatibility_invalid(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("compatibility")
    if entry is None:
        return
    for located in ctx.issues_for("SK060")[:1]:
        issue = located.issue
        if issue.keyword == "maxLength":
            message = (f"`compatibility` has {len(issue.value):,} characters; the limit is "
                       f"{schema.max_length('compatibility')}: write one short sentence.")
        elif issue.keyword == "minLength":
            message = ("`compatibility` is empty: remove it, or write one short sentence. The "
                       "spec asks for 1-500 characters.")
        else:
            message = (f"`compatibility` is {type_name(issue.value)}, not text: write one short "
                       f"sentence. {validators()} rejects it (`Field 'compatibility' must be a "
                       "string`).")
        yield ctx.finding("SK060", ctx.entry_span(entry), message)


#: a file name in a `license` value: `LICENSE`, `COPYING.md`, `docs/terms.txt` (not "MIT license")
_LICENSE_FILE = re.compile(r"(?<![\w./:-])((?:[\w.-]+/)*(?:LICEN[CS]E|COPYING|NOTICE)[\w.-]*"
                           r"|(?:[\w.-]+/)*[\w-]+\.(?:txt|md|rst|TXT|MD))(?![\w/-])")


@check("SK061")
def license_invalid(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("license")
    if entry is None:
        return
    if ctx.issues_for("SK061"):
        yield ctx.finding("SK061", ctx.entry_span(entry),
                          f"`license` is {type_name(entry.value)}, not text: write a licence "
                          "name (`MIT`) or the name of a bundled licence file.")
        return
    skill_dir = ctx.location.skill_dir
    if not isinstance(entry.value, str) or skill_dir is None:
        return
    match = _LICENSE_FILE.search(entry.value)
    if match is None or re.fullmatch(r"[\w.-]+-\d+(\.\d+)*", match.group(1)):
        return
    name = match.group(1)
    if (skill_dir / name).exists():
        return
    yield ctx.finding("SK061", ctx.entry_span(entry),
                      f"`license` names `{name}`, which does not exist in the skill folder: add "
                      "the file or write the licence name.", level=Severity.HINT)


def _metadata_ignored() -> str:
    """Who ignores a `metadata` that is not a mapping (`ignores_non_mapping_metadata`), with the
    verb."""
    return agree(runtimes_that(lambda p: p.ignores_non_mapping_metadata), "ignores", "ignore")


@check("SK062")
def metadata_shape(ctx: CheckContext) -> Iterator[Finding]:
    entry = ctx.field("metadata")
    if entry is None:
        return
    for located in ctx.issues_for("SK062"):
        node, issue = located.node, located.issue
        if not issue.path:
            if entry.value is None:
                message = ("`metadata` is empty (null): remove it or add `key: \"value\"` lines. "
                           f"{_metadata_ignored()} a value that is not a mapping.")
            else:
                message = (f"`metadata` is {type_name(issue.value)}, not a mapping of text "
                           "values: write it as `key: \"value\"` lines under `metadata:`. "
                           f"{_metadata_ignored()} it.")
            yield ctx.finding("SK062", ctx.entry_span(entry), message)
            continue
        key = ".".join(str(p) for p in issue.path)
        fixes = []
        if node.kind == "scalar" and node.style is None and node.text:
            fixes.append(Fix("Quote the value", [TextEdit(node.content_span,
                                                          double_quoted(node.text))],
                             preferred=True))
            what = f"{type_name(issue.value)} (`{shown(node.text)}`)"
        else:
            what = f"{type_name(issue.value)}"
        yield ctx.finding("SK062", node.content_span,
                          f"`metadata.{key}` is {what}; the spec wants string values (quote "
                          "numbers, flatten nested maps).", fixes=fixes)
