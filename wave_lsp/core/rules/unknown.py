"""docs/design/rules.md *Unknown and target-specific fields*: SK070, SK071.

The field set of each target is the schema's `x-targets`. A key that is not a field of any target
but is a likely misspelling of one (same words in another case or separator, an edit distance of at
most 2, or a known confusion such as `args`, `tools` or `denied-tools`) is SK071; any other key the
target does not read is SK070. Each message says what to do in its first sentence, then who reads
or ignores the key (docs/design/rules.md *How a message reads*).

Decisions (issue 37): SK070 is said once per key per collection (`workspace.said_here`: the first
skill of the skills root or plugin that carries the key, the others as related locations), since
a collection's own keys (`id`, `type`, `updated`) are on every skill on purpose. A field of the
Agent Skills specification (`license`, `metadata`, …) that some runtime ignores is never to be
removed: the message says to keep it. SK071 is a warning when the author believes in an effect
that does not exist (`denied-tools`, `user-invokable: false`); it is information, said once per
collection, when the ignored key changes nothing: its value is the meant field's default
(`user-invokable: true`), or the meant field is there and already grants what it lists (`tools:`
beside an `allowed-tools` that holds the same tools).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.checking.loading import runtime_names
from wave_lsp.core.checking.messages import validators
from wave_lsp.core.facts.profiles import AGENTSKILLS, PROFILES
from wave_lsp.core.facts.toolrules import entries, parse_rule
from wave_lsp.core.parsing.document import FieldEntry
from wave_lsp.core.rules.helpers import closest
from wave_lsp.core.rules.registry import check
from wave_lsp.core.rules.workspace import also_in, collection, said_here

if TYPE_CHECKING:
    from wave_lsp.core.workspace.runtime_view import RuntimeSkill

#: well-known confusions that edit distance does not catch
KNOWN_CONFUSIONS = {"args": "arguments", "tools": "allowed-tools", "content": "context",
                    "allowedtools": "allowed-tools", "whentouse": "when_to_use",
                    "deniedtools": "disallowed-tools", "denytools": "disallowed-tools",
                    "blockedtools": "disallowed-tools", "forbiddentools": "disallowed-tools",
                    "disallowtools": "disallowed-tools", "excludedtools": "disallowed-tools"}
#: the keys that keep a skill away from the model (docs/design/runtime-facts.md §9.8)
_MANUAL_ONLY = frozenset({"disable-model-invocation", "user-invocable"})
#: informational keys authors commonly put at the top level (the spec wants them in `metadata`)
INFORMATIONAL = {"version", "author", "authors", "tags", "homepage", "repository", "category",
                 "keywords", "source", "origin", "created", "updated", "maintainer", "emoji"}


def normalized(key: str) -> str:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", key)
    return re.sub(r"[-_\s]+", "", spaced.lower())


@lru_cache(maxsize=1024)
def likely_meant(key: str) -> str | None:
    """The known field `key` is probably a misspelling of, if any (memoised: the same unknown
    keys, `version` or `author`, come back in skill after skill)."""
    known = list(schema.fields())
    if key in known:
        return None
    squashed = normalized(key)
    for field_name in known:
        if normalized(field_name) == squashed:
            return field_name
    if squashed in KNOWN_CONFUSIONS:
        return KNOWN_CONFUSIONS[squashed]
    return closest(key, known) if len(key) >= 5 else None


def _readers(field_name: str) -> str:
    spec = schema.field_spec(field_name)
    readers = [p.reader_name for p in PROFILES.values()
               if p.kind != "aggregate" and spec is not None and spec.read_by(p)]
    if len(readers) > 2:
        return f"{', '.join(readers[:-1])} and {readers[-1]}"
    return " and ".join(readers) or "no runtime"


@check("SK070", "SK071")
def unknown_fields(ctx: CheckContext) -> Iterator[Finding]:
    for name, entry in ctx.document.fields.items():
        if ctx.reads(name):
            continue
        meant = likely_meant(name)
        if meant is not None and (meant == "context" and name == "content"
                                  and ctx.value("content") != "fork"):
            meant = None
        if meant is not None:
            yield from _misspelt(ctx, name, entry, meant)
            continue
        if ctx.profile.kind != "validator" and _restricts_invocation(name, entry.value):
            yield _invented_restriction(ctx, name, entry)
            continue
        others = said_here(ctx, partial(_has_key, name)) if _ignores_keys(ctx) else []
        if others is None:
            continue  # said on the first skill of the collection that has the key
        sentence, related = also_in(others, f"have `{name}`", _where(ctx))
        yield ctx.finding("SK070", entry.key.span, _unknown_message(ctx, name) + sentence,
                          related=related)


def _ignores_keys(ctx: CheckContext) -> bool:
    """The target ignores a key it does not read (SK070 below a warning): a key is then a fact of
    the collection, said once; where the target rejects the skill for it (skills-ref, the
    claude.ai upload: an error) each skill is rejected, and each is told."""
    return rule("SK070").severity(ctx.profile) in (Severity.INFORMATION, Severity.HINT)


def _has_key(key: str, skill: RuntimeSkill) -> bool:
    return key in skill.fields


def _where(ctx: CheckContext) -> str:
    found = collection(ctx)
    return found.label if found is not None else "the collection"


def _misspelt(ctx: CheckContext, name: str, entry: FieldEntry, meant: str) -> Iterator[Finding]:
    """SK071: a warning with "did you mean" and a rename, unless the ignored key changes nothing
    (then information, said once per collection)."""
    idle = _changes_nothing(ctx, entry, meant) if _ignores_keys(ctx) else None
    if idle is not None:
        beside = ctx.document.has(meant)  # the first skill with both keys speaks for the others
        others = said_here(ctx, lambda skill: name in skill.fields and
                           (not beside or meant in skill.fields))
        if others is None:
            return
        what = f"have `{name}`" + (f" beside `{meant}`" if beside else "")
        sentence, related = also_in(others, what, _where(ctx))
        yield ctx.finding("SK071", entry.key.span,
                          f"`{name}` is not a field: remove it. {idle}{sentence}",
                          level=Severity.INFORMATION, related=related, suggestion=meant)
        return
    fixes = []
    if not ctx.document.has(meant):
        fixes.append(Fix(f"Rename to `{meant}`", [TextEdit(entry.key.span, meant)],
                         preferred=True))
    who = _readers(meant)
    verb = "read it" if " and " in who else "reads it"
    readers = "" if ctx.reads(meant) else (f" ({ctx.profile.runtime} does not read `{meant}` "
                                           f"either: {who} {verb})")
    yield ctx.finding("SK071", entry.key.span,
                      f"`{name}` is not a field (did you mean `{meant}`?): rename it{readers}. "
                      "A misspelt key is ignored silently, so what it seems to set does not "
                      "happen.", fixes=fixes, suggestion=meant)


#: the words of a key that is about who may see or start the skill (`visibility`, `hidden`,
#: `internal`, `private`, `invocable`, `listed`, `exposed`), and of a value that restricts it
_ABOUT_INVOCATION = re.compile(r"^(?:visib\w*|hidden|hide|internal|private|public|listed|"
                               r"exposed?|expose-to-\w+|invo[ck]able|invocation|discoverable|"
                               r"user-facing|model-invo[ck]able|show-in-\w+)$")
_RESTRICTING = frozenset({"internal", "private", "hidden", "hide", "none", "restricted",
                          "agent-only", "agent", "model-only", "model", "system", "no", "off",
                          "never"})
#: keys that say what is allowed: `false` restricts them; the others say what is kept away
_PERMISSIVE_KEYS = re.compile(r"^(?:visib\w*|public|listed|exposed?|expose-to-\w+|"
                              r"invo[ck]able|discoverable|user-facing|model-invo[ck]able|"
                              r"show-in-\w+)$")


def _restricts_invocation(name: str, value: object) -> bool:
    """An unknown key that shows the author means to keep the skill from the user or the model
    (issue 37, sample 4: `visibility: internal` on 33 skills): its name is about visibility or
    invocation and its value restricts (`internal`, `private`, `hidden`; `false` for a key that
    says what is allowed, `true` for one that says what is kept away: `hidden: true`)."""
    key = normalized(name)
    spaced = re.sub(r"[-_\s]+", "-", name.lower())
    if _ABOUT_INVOCATION.match(spaced) is None and _ABOUT_INVOCATION.match(key) is None:
        return False
    if isinstance(value, bool):
        return value is not bool(_PERMISSIVE_KEYS.match(spaced))
    return isinstance(value, str) and value.strip().lower() in _RESTRICTING


def _invented_restriction(ctx: CheckContext, name: str, entry: FieldEntry) -> Finding:
    """SK071 for a key that restricts who starts the skill but is no field: the skill stays listed
    and invocable; name the fields that do restrict it. Information, not a warning: a collection
    may keep such a key on purpose as its own marker (sample 4's Neplich: its check script calls
    `visibility: internal` a declaration the runtimes do not read, and direct invocation is meant;
    an independent labeller judged the warnings false)."""
    value = entry.value if isinstance(entry.value, str) else str(entry.value).lower()
    ways = []
    if ctx.reads("user-invocable"):
        ways.append("`user-invocable: false` keeps it out of the `/` menu (the model may still "
                    "use it)")
    switch = ctx.profile.manual_only_switch
    if switch != "none" and not switch.startswith("none"):
        ways.append(f"{switch} keeps the model from choosing it by itself")
    runtime = ctx.profile.runtime
    how = "; ".join(ways) if ways else f"{runtime} has no field for it"
    return ctx.finding("SK071", entry.key.span,
                       f"`{name}: {value}` is not a field, so the skill is not restricted: "
                       f"{runtime} ignores the key and the skill stays listed and invocable. "
                       f"To restrict it: {how}.", level=Severity.INFORMATION)


def _changes_nothing(ctx: CheckContext, entry: FieldEntry, meant: str) -> str | None:
    """Why the ignored key `entry` changes nothing, when it does not: its value is the default of
    the field it stands for, or that field is there and grants every tool it lists."""
    spec = schema.field_spec(meant)
    default = spec.schema.get("default") if spec is not None else None
    if default is not None and entry.value == default and not ctx.document.has(meant):
        return (f"It is ignored, and `{meant}` is `{str(default).lower()}` by default, so the skill "
                f"behaves as written; but set to `{str(not default).lower()}` it would change "
                "nothing either.")
    granted = ctx.field(meant)
    if meant == "allowed-tools" and granted is not None and _covers(ctx, granted, entry):
        return ("It is ignored, and `allowed-tools` beside it already grants every tool it "
                "lists.")
    return None


def _covers(ctx: CheckContext, granted: FieldEntry, listed: FieldEntry) -> bool:
    """Whether every rule of `listed` is granted by a rule of `granted` (the same rule, or the
    bare tool)."""
    have = [parse_rule(item.text) for item in entries(granted.node, ctx.text)]
    want = [parse_rule(item.text) for item in entries(listed.node, ctx.text)]
    bare = {given.tool for given in have if given.content is None}
    raw = {given.raw for given in have}
    return bool(want) and all(asked.tool in bare or asked.raw in raw for asked in want)


def _unknown_message(ctx: CheckContext, name: str) -> str:
    known = schema.field_spec(name) is not None
    where = f"`{name}` is read by {_readers(name)}" if known else f"`{name}` is not a skill field"
    if ctx.profile.kind == "validator":
        allowed = ", ".join(sorted(s.name for s in schema.fields_for(ctx.profile)))
        tail = f"{ctx.profile.runtime} rejects the skill (only {allowed} are allowed)"
    elif ctx.profile.kind == "aggregate" and ctx.profile.catalog_column:
        tail = f"{validators()} and the claude.ai upload reject the skill"
    elif ctx.profile.kind == "aggregate":
        spec = schema.field_spec(name)
        ignoring = [m.runtime for m in ctx.profile.members
                    if spec is None or not spec.read_by(m)]
        shown = (" and ".join(ignoring) if len(ignoring) < 3
                 else f"{', '.join(ignoring[:-1])} and {ignoring[-1]}")
        tail = f"{shown} ignore it"
    elif name in _MANUAL_ONLY and name not in ctx.profile.invocation_fields:
        switch = ctx.profile.manual_only_switch
        tail = (f"{ctx.profile.runtime} ignores it, so its model may still pick this skill by "
                f"itself; {ctx.profile.runtime}'s own switch: {switch}")
    else:  # with what it does with the fields it does not read, when the profile says more
        detail = ctx.profile.other_fields
        tail = f"{ctx.profile.runtime} ignores it" + (
            "" if detail == "ignored" else f" {detail.removeprefix('ignored ')}"
            if detail.startswith("ignored (") else f" ({detail})")
    spec = schema.field_spec(name)
    readers = [m.reader_name for m in ctx.profile.members if spec is not None and spec.read_by(m)]
    if spec is not None and spec.read_by(AGENTSKILLS):
        where = f"`{name}` is a field of the Agent Skills specification"
        advice = "keep it"  # ignoring an informational spec field changes nothing
    elif readers and ctx.profile.kind == "aggregate" and not ctx.profile.catalog_column:
        advice = f"keep it if {runtime_names(readers)} should read it"  # they share the file
    else:
        advice = ("move it under `metadata`" if name in INFORMATIONAL or not known
                  else "remove it for this target")
    return f"{where}: {advice}. {tail}."  # each tail starts with a name, as written
