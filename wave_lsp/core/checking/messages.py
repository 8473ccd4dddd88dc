"""How a finding's message is built: its first sentence says what is wrong and what to do, the
details follow (docs/design/rules.md *How a message reads*).

Editors show a message on one line and cut it where the panel ends, so anything a surface adds
(which runtimes drop the skill, whose level an aggregate reports) goes after the first sentence,
never before it. `first_sentence` is the one splitter: the surfaces that add text and the style
test (tests/core/test_message_style.py) agree on where the first sentence ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wave_lsp.core.facts.profiles import RuntimeProfile

_ABBREVIATION = re.compile(r"(?:\be\.g|\bi\.e|\betc|\bvs)\.$", re.IGNORECASE)


def first_sentence_end(message: str) -> int:
    """The index just past the first sentence's final `.`, `?` or `!` (the whole length when the
    message is one sentence). A stop inside inline code (`` `a.b` ``) or a double-quoted quotation
    does not end it, nor does one of `e.g.`, `i.e.`, `etc.`, `vs.`, nor one not followed by white
    space (`1.5`, `SKILL.md`)."""
    in_code = in_quote = False
    for index, char in enumerate(message):
        if char == "`":
            in_code = not in_code
        elif in_code:
            continue
        elif char == '"':
            in_quote = not in_quote
        elif not in_quote and char in ".?!" and _ends_sentence(message, index):
            return index + 1
    return len(message)


def _ends_sentence(message: str, index: int) -> bool:
    """The stop at `index` is followed by white space (or the end) and ends no abbreviation."""
    followed = index + 1 == len(message) or message[index + 1].isspace()
    return followed and not _ABBREVIATION.search(message[max(0, index - 4):index + 1])


def first_sentence(message: str) -> str:
    """The first sentence of `message` (see `first_sentence_end`)."""
    return message[:first_sentence_end(message)]


def capitalized(text: str) -> str:
    """`text` with its first letter in upper case, to start a sentence ("every runtime …"); a
    runtime's own name keeps its case (`skills-ref`)."""
    from wave_lsp.core.facts.profiles import PROFILES

    if any(text.startswith(p.runtime) for p in PROFILES.values() if p.runtime[:1].islower()
           and p.kind != "aggregate"):
        return text
    return text[:1].upper() + text[1:]


def after_first_sentence(message: str, addition: str) -> str:
    """`addition` (a sentence) placed right after the first sentence of `message`, so that what
    is wrong and what to do stay at the front."""
    end = first_sentence_end(message)
    head, rest = message[:end], message[end:].lstrip()
    if not head.endswith((".", "?", "!")):
        head += "."
    return f"{head} {addition}" + (f" {rest}" if rest else "")


def runtime_names(names: Iterable[str]) -> str:
    """`Copilot`, `Copilot and Gemini CLI`, `Codex, Copilot and Gemini CLI`."""
    items = list(names)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


# -- sentences derived from the catalog's facts (docs/design/rules.md *Facts*) -----------------

#: one template per effect kind (`catalog.EFFECTS`), for one runtime and for several: `{who}` is
#: the profile's `runtime` (or several, `runtime_names`), `{what}` what the rule names (the value,
#: the field); a rule never writes a runtime's name itself (tests/core/test_facts.py)
EFFECT_SENTENCES: dict[str, tuple[str, str]] = {
    "drops": ("{who} does not load the skill", "{who} do not load the skill"),
    "rejects": ("{who} rejects the skill", "{who} reject the skill"),
    "not-found": ("{who} looks for `SKILL.md` exactly: on a case-sensitive file system this "
                  "file is not its skill file",
                  "{who} look for `SKILL.md` exactly: on a case-sensitive file system this file "
                  "is not their skill file"),
    "renames": ("{who} loads the skill under its folder's name",
                "{who} load the skill under its folder's name"),
    "ignores": ("{who} loads the skill but ignores {what}",
                "{who} load the skill but ignore {what}"),
    "truncates": ("{who} loads the skill but cuts {what}", "{who} load the skill but cut {what}"),
    "falls-back": ("{who} loads the skill and describes it by its body's first line, which "
                   "rarely says when to use it",
                   "{who} load the skill and describe it by its body's first line, which "
                   "rarely says when to use it"),
    "unlisted": ("{who} loads the skill but leaves it out of the model's listing, so the model "
                 "never chooses it (it runs only when someone names it)",
                 "{who} load the skill but leave it out of the model's listing, so the model "
                 "never chooses it (it runs only when someone names it)"),
    "misreads": ("{who} loads the skill but misreads {what}",
                 "{who} load the skill but misread {what}"),
    "loads": ("{who} loads the skill", "{who} load the skill"),
    "passes": ("{who} loads the skill and passes {what} on as written, with no fallback",
               "{who} load the skill and pass {what} on as written, with no fallback"),
}
#: how a sentence from an unconfirmed fact starts; a message that has it says no more about where
#: the fact comes from (`engine.finalize` adds no `evidence_note` then)
UNVERIFIED = "unverified"
#: what a sentence of a kind says when the rule names nothing (`{what}`)
_DEFAULT_WHAT = {"ignores": "the value", "truncates": "the value", "misreads": "the frontmatter"}


def effect_sentence(kind: str, who: Sequence[str], what: str = "", *,
                    verified: bool = True, documented_only: bool = False) -> str:
    """The sentence for effect `kind` of the runtimes named `who`; an unconfirmed fact says so
    once ("unverified: …"), and one known from documentation only says that."""
    single, plural = EFFECT_SENTENCES[kind]
    sentence = (single if len(who) == 1 else plural).format(
        who=runtime_names(who), what=what or _DEFAULT_WHAT.get(kind, "the value"))
    if verified:
        return sentence
    # an unconfirmed drop is not asserted: the skill still counts as loaded (`stops-loading`)
    sentence = (sentence.replace(" does not ", " may not ").replace(" do not ", " may not ")
                .replace(" rejects ", " may reject ").replace(" reject ", " may reject "))
    source = "from its documentation only" if documented_only else "not run"
    return f"{UNVERIFIED} ({source}): {sentence}"


def consequence(code: str, profile: RuntimeProfile, what: str = "",
                kind: str | None = None) -> str:
    """What `profile`'s runtime does in the situation of rule `code`, from the catalog's
    `effect` row (`kind`: a finding whose situation is another effect the runtime's profile
    decides, e.g. a plugin skill left out of the listing); for an aggregate, what its members
    do, grouped by effect, those that do not load the skill first."""
    from wave_lsp.core.checking.catalog import rule

    item = rule(code)
    if profile.members and (kind is None or not profile.catalog_column):
        return _members_consequence(code, profile, what)
    effect = item.effect(profile)  # None only where the target does not report the rule
    chosen = kind or (effect.kind if effect is not None else "loads")
    verified = effect is None or effect.verified or kind is not None
    if chosen == "loads" and profile.kind == "validator":  # it accepts, it loads nothing
        return f"{profile.runtime} accepts the skill"
    return effect_sentence(chosen, [profile.runtime], what, verified=verified,
                           documented_only=profile.evidence == "docs")


def _members_consequence(code: str, profile: RuntimeProfile, what: str) -> str:
    """`consequence` for an aggregate: what its members that still load the skill do with it,
    grouped by effect (those that drop it are named by the checker from their own runs,
    `checker._name_members`, so they are not repeated here)."""
    from wave_lsp.core.checking.catalog import EFFECTS, rule

    item = rule(code)
    groups: dict[tuple[str, bool], list[str]] = {}
    for member in profile.members:
        effect = item.effect(member)
        if effect is not None and (effect.loads or not effect.verified):
            groups.setdefault((effect.kind, effect.verified), []).append(member.runtime)
    order = list(EFFECTS)
    chosen = sorted((key for key in groups if key[0] != "loads" and key[1]),
                    key=lambda key: order.index(key[0]))
    if not chosen:
        chosen = [key for key in groups if key == ("loads", True)]
    if not chosen:
        return "no runtime loads it as written"
    return "; ".join(effect_sentence(kind, groups[(kind, verified)], what, verified=verified)
                     for kind, verified in chosen)


def elsewhere(code: str, profile: RuntimeProfile, kinds: Sequence[str] = ("drops", "rejects"),
              what: str = "") -> str:
    """What the other runtimes (of `portable`'s members) whose verified effect in the situation
    of rule `code` is one of `kinds` do, as a sentence ("" when none): what a target that
    loads the skill should know of those that do not."""
    from wave_lsp.core.checking.catalog import rule
    from wave_lsp.core.facts.profiles import PORTABLE

    item = rule(code)
    by_kind: dict[str, list[str]] = {}
    for member in PORTABLE.members:
        effect = item.effect(member)
        if member is not profile and effect is not None and effect.verified \
                and effect.kind in kinds:
            by_kind.setdefault(effect.kind, []).append(member.runtime)
    return "; ".join(effect_sentence(kind, by_kind[kind], what) for kind in kinds
                     if kind in by_kind)


def with_others(code: str, profile: RuntimeProfile, what: str = "") -> str:
    """`consequence`, and where the target loads the skill, the runtimes that do not
    (`elsewhere`): one sentence, capitalised."""
    from wave_lsp.core.checking.catalog import rule

    said = consequence(code, profile, what=what)
    effect = rule(code).effect(profile)
    if effect is not None and effect.loads and not profile.members:
        others = elsewhere(code, profile)
        said = f"{said}; {others}" if others else said
    return capitalized(said)


def runtimes_that(test: Callable[[RuntimeProfile], bool], *, kinds: Sequence[str] = ("runtime",),
                  but: RuntimeProfile | None = None) -> list[str]:
    """The names of the targets (of `portable`'s members, of `kinds`) whose profile passes
    `test`: how a message names the runtimes a fact holds for, never by a literal."""
    from wave_lsp.core.facts.profiles import PORTABLE

    return [member.runtime for member in PORTABLE.members
            if member.kind in kinds and member is not but and test(member)]


def validators() -> str:
    """The reference validators (skills-ref), named."""
    return runtime_names(runtimes_that(lambda _: True, kinds=("validator",)))


def agree(names: Sequence[str], singular: str, plural: str) -> str:
    """`names` and the verb that agrees with them (`Wave reads`, `Wave and OpenCode read`)."""
    return f"{runtime_names(names)} {singular if len(names) == 1 else plural}"


def who_reports(code: str, profile: RuntimeProfile,
                test: Callable[[RuntimeProfile], bool] = lambda _: True) -> list[str]:
    """The runtime a message about rule `code` speaks of: `profile`'s own, or for an aggregate
    (`portable`) its members under which the rule is reported and `test` holds, never "every
    runtime" for a fact only some of them have (issue 36)."""
    from wave_lsp.core.checking.catalog import rule

    if not profile.members:
        return [profile.runtime]
    item = rule(code)
    return [member.runtime for member in profile.members
            if member.kind == "runtime" and item.severity(member) is not None and test(member)]


def for_runtimes(code: str, profile: RuntimeProfile, what: str = "") -> str:
    """`consequence` as a sentence (capitalised, with its stop); where `profile`'s runtime (or
    validator) loads the skill as written (its cell `loads`), followed by what the other runtimes
    do (`portable`'s members' verified effects): the reason a target reports what it accepts."""
    from wave_lsp.core.checking.catalog import rule
    from wave_lsp.core.facts.profiles import PORTABLE

    said = consequence(code, profile, what=what)
    effect = rule(code).effect(profile)
    if not profile.members and effect is not None and effect.kind == "loads":
        others = consequence(code, PORTABLE, what=what)
        said += f"; {others}" if others != "no runtime loads it as written" else ""
    return capitalized(said) + "."
