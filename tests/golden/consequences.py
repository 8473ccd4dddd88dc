"""What a finding's message says a runtime does with the skill: loads it, or does not (rejects,
skips, drops, cannot load, never finds it), and which runtimes it names as doing something
(issue 36 item 2: evidence ↔ severity ↔ `loads` ↔ message).

A message is cut into clauses (at sentence ends, `;`, `:`, and before `but`, `while`,
`whereas`, `although`, `yet`). A *claim* is a consequence phrase of the lexicon below whose object
is the skill (`the skill`, `this skill`, `the file`, `it`), never a field, a rule, a block or a
value: "drops the rule", "the block is dropped", "Runtimes drop it, so nothing is pre-approved"
are no claims about loading. The claim's actor is read from the clause before the phrase: the
runtimes it names (`Claude Code's quoting retry … loads it`: Claude Code), else the target
itself when it says `the runtime`, `this target`, `the model` (the target's model) or the
passive `this skill is never loaded`; a bare `it` or `they` is the runtimes named just before
(`Codex does not take ----, so it does not load the skill`);
a clause whose subject is someone unnamed (`Validators`, `strict parsers`, `Runtimes`) makes no
claim about a runtime. `Rejected by skills-ref` names its actor after `by`.

Runtimes are named as messages name them (`RuntimeProfile.runtime` and `reader_name`: `Copilot`
and `VS Code`), `Copilot` not counting inside `Copilot CLI`. The detector is tested on its own
table (`test_consequences.py`) so that a false message is caught for its words, not by luck.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from wave_lsp.core.runtime.profiles import PROFILES, RuntimeProfile

#: the object a consequence phrase must have to be about loading the skill
_OBJECT = r"(?:the skill|this skill|the file|this file|it|them|the skills)\b"
#: phrases that say the runtime does not load the skill; each applies to the text after the actor
NEGATIVE = (
    rf"\b(?:does not|do not|doesn't|don't|cannot|can't|will not|won't|never) (?:loads?|finds?) {_OBJECT}",
    rf"\b(?:rejects?|skips?|drops?|refuses?) {_OBJECT}",
    r"\b(?:rejects?|skips?|drops?) (?:the|this) whole (?:skill|file)\b",
    r"\bvanishes\b",
    #: a requirement of the runtime the skill fails: it does not load (`requires a name`)
    r"\brequires? (?:a|an|the)\b",
    r"\b(?:is|are|will be) (?:not|never) (?:loaded|found|discovered)\b",
    r"\bnot discovered by\b",
)
#: phrases that say the runtime loads it, or take it for granted: only a loaded skill is listed
#: to the model and then chosen or not ("never chosen" is the wrong kind of consequence for a
#: skill that is not loaded at all)
POSITIVE = (
    rf"(?<!not )(?<!never )(?<!n't )\bloads {_OBJECT}",
    r"(?<!not )(?<!never )(?<!n't )\bloads the fields\b",
    r"\bstill loads\b",
    r"\b(?:is|are) never chosen\b",
    r"\bnever chooses (?:the|this) skill\b",
    r"\bmay still pick (?:the|this) skill\b",
)
#: passive phrases whose actor follows `by`
PASSIVE_BY = re.compile(r"\b(?:rejected|skipped|dropped|not loaded|not discovered) by (?P<who>[^.;:(]+)",
                        re.I)
#: the target itself, when a clause names no runtime
SELF = re.compile(r"\b(?:the runtime|this target|the target|the model|its model)\b"
                  r"|\b(?:the|this) (?:skill|one)\s*$", re.I)
_CLAUSE = re.compile(r"(?<=[.;:!?])\s+|;\s*|\s+(?=(?:but|while|whereas|although|yet)\b)")
#: a clause whose subject is only a pronoun (`so it does not load the skill`): the runtimes the
#: clauses before it named
_PRONOUN = re.compile(r"^\W*(?:so |and |then )?(?:it|they)\s*$", re.I)


@dataclass(frozen=True, slots=True)
class Claim:
    """One clause that says someone loads the skill (`loads`) or does not."""

    actors: frozenset[str]  #: target names of the runtimes it names; {"<self>"}: the target
    loads: bool
    phrase: str  #: the clause, for the failure message


SELF_ACTOR = "<self>"


@cache
def _name_patterns() -> dict[str, re.Pattern[str]]:
    """Per target that reads files (runtimes and the validator): how messages name it."""
    patterns: dict[str, re.Pattern[str]] = {}
    for profile in PROFILES.values():
        if profile.kind == "aggregate":
            continue
        names = sorted({profile.runtime, profile.reader_name} - {"the open spec"}, key=len,
                       reverse=True)
        alternatives = "|".join(re.escape(n) for n in names)
        patterns[profile.name] = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-]| CLI\b)")
    return patterns


def named(text: str) -> frozenset[str]:
    """The targets whose runtime `text` names."""
    return frozenset(name for name, pattern in _name_patterns().items() if pattern.search(text))


def clauses(message: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(message) if c and c.strip()]


def _actors(subject: str, before: frozenset[str]) -> frozenset[str] | None:
    """Who the clause's subject is: the runtimes it names, those named before it for a bare
    pronoun, the target itself, or None (someone unnamed)."""
    found = named(subject)
    if found:
        return found
    if _PRONOUN.match(subject) and before:
        return before
    if SELF.search(subject) or not subject.strip():
        return frozenset({SELF_ACTOR})
    return None


def claims(message: str) -> list[Claim]:
    """Every claim of `message` about loading the skill."""
    result: list[Claim] = []
    before: frozenset[str] = frozenset()  # the runtimes named by the clauses so far
    for clause in clauses(message):
        claim = _claim(clause, before)
        if claim is not None:
            result.append(claim)
        before = named(clause) or before
    return result


def _claim(clause: str, before: frozenset[str]) -> Claim | None:
    passive = PASSIVE_BY.search(clause)
    if passive is not None and (who := named(passive.group("who"))):
        return Claim(who, False, clause)
    for patterns, loads in ((NEGATIVE, False), (POSITIVE, True)):
        match = _first(patterns, clause)
        if match is not None:
            actors = _actors(clause[:match.start()], before)
            return None if actors is None else Claim(actors, loads, clause)
    return None


def _first(patterns: tuple[str, ...], text: str) -> re.Match[str] | None:
    matches = [m for p in patterns if (m := re.search(p, text, re.I)) is not None]
    return min(matches, key=lambda m: m.start()) if matches else None


def own_names(profile: RuntimeProfile) -> frozenset[str]:
    """The targets `profile` speaks for: itself, or an aggregate's members."""
    if profile.members:
        return frozenset(m.trust_base.name if m.trust_base else m.name for m in profile.members)
    return frozenset({(profile.trust_base or profile).name})


def contradictions(message: str, profile: RuntimeProfile, loads: bool,
                   dropped_by: frozenset[str]) -> list[str]:
    """The claims of `message` that the load verdict contradicts. `dropped_by`: for an
    aggregate, the targets of its runtimes that drop the skill (`droppedBy`)."""
    own = own_names(profile)
    wrong = []
    for claim in claims(message):
        actors = own if SELF_ACTOR in claim.actors and not profile.members else \
            claim.actors & own
        if not actors:
            continue
        if profile.members:
            bad = {a for a in actors
                   if PROFILES[a].kind == "runtime" and (a in dropped_by) == claim.loads}
        else:
            bad = set(actors) if claim.loads != loads else set()
        if bad:
            verb = "loads" if claim.loads else "does not load"
            wrong.append(f"says {', '.join(sorted(bad))} {verb} the skill: {claim.phrase!r}")
    return wrong


#: words that make a message about another runtime a comparison with the target
_COMPARING_SELF = re.compile(r"\b(?:the runtime|this target|the target)\b", re.I)


def foreign_runtimes(message: str, profile: RuntimeProfile) -> frozenset[str]:
    """The runtimes other than the target's own that `message` names without comparing them
    with the target (naming neither the target's runtime nor `this target`). A validator
    (skills-ref) is no runtime: a message may say what it rejects, as portability advice."""
    own = own_names(profile)
    others = {name for name in named(message) - own if PROFILES[name].kind == "runtime"}
    if not others or named(message) & own or _COMPARING_SELF.search(message):
        return frozenset()
    return frozenset(others)
