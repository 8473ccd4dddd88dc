"""docs/design/rules.md *Unknown and target-specific fields*: SK070, SK071.

The field set of each target is the schema's `x-targets`. A key that is not a field of any target
but is a likely misspelling of one (same words in another case or separator, an edit distance of at
most 2, or a known confusion such as `args` or `tools`) is SK071; any other key the target does not
read is SK070. Each message says what to do in its first sentence, then who reads or ignores the
key (docs/design/rules.md *How a message reads*).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.rules.helpers import closest
from wave_lsp.core.rules.registry import check
from wave_lsp.core.runtime.profiles import PROFILES

#: well-known confusions that edit distance does not catch
KNOWN_CONFUSIONS = {"args": "arguments", "tools": "allowed-tools", "content": "context",
                    "allowedtools": "allowed-tools", "whentouse": "when_to_use"}
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
            fixes = []
            if not ctx.document.has(meant):
                fixes.append(Fix(f"Rename to `{meant}`", [TextEdit(entry.key.span, meant)],
                                 preferred=True))
            yield ctx.finding("SK071", entry.key.span,
                              f"`{name}` is not a field: rename it to `{meant}` if that is what "
                              "you meant. A misspelt key is ignored silently.", fixes=fixes,
                              suggestion=meant)
            continue
        yield ctx.finding("SK070", entry.key.span, _unknown_message(ctx, name))


def _unknown_message(ctx: CheckContext, name: str) -> str:
    known = schema.field_spec(name) is not None
    where = f"`{name}` is read by {_readers(name)}" if known else f"`{name}` is not a skill field"
    if ctx.profile.kind == "validator":
        allowed = ", ".join(sorted(s.name for s in schema.fields_for(ctx.profile)))
        tail = f"{ctx.profile.runtime} rejects the skill (only {allowed} are allowed)"
    elif ctx.profile.kind == "aggregate" and ctx.profile.catalog_column:
        tail = "skills-ref and the claude.ai upload reject the skill"
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
    else:
        tail = f"{ctx.profile.runtime} ignores it"
    advice = ("move it under `metadata`" if name in INFORMATIONAL or not known
              else "remove it for this target")
    return f"{where}: {advice}. {tail}."  # each tail starts with a name, as written
