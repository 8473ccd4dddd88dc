"""Conditional skills (docs/design/runtime-facts.md §3.2, `paths`): the patterns a skill's `paths`
holds as Claude Code reads them, and whether they make the skill conditional, hidden from the
listing and from `/name` until a file they match is read or edited in the session (probes
fm-glob-paths, fm-paths-everything)."""

from __future__ import annotations

import re

from wave_lsp.core.parsing.document import FieldValues


def activating_patterns(values: FieldValues) -> list[str]:
    """The patterns that make a skill conditional ([] when it is not: no `paths`, no pattern, or
    only `**`, which Claude Code treats as no `paths`)."""
    patterns = path_patterns(values.value("paths"))
    if all(pattern.strip("/") == "**" for pattern in patterns):
        return []
    return patterns


def path_patterns(value: object) -> list[str]:
    """`paths` as Claude Code reads it: commas split a string (not inside `{}`), braces expand
    (within one budget for the whole value: `_Budget`)."""
    raw: list[str] = []
    if isinstance(value, str):
        depth, current = 0, ""
        for char in value:
            depth += char == "{"
            depth -= char == "}"
            if char == "," and depth <= 0:
                raw.append(current)
                current = ""
            else:
                current += char
        raw.append(current)
    elif isinstance(value, list):
        raw = [v for v in value if isinstance(v, str)]
    patterns: list[str] = []
    budget = _Budget()
    for item in (r.strip() for r in raw):
        if not item:
            continue
        patterns.extend(_expand_braces(item, budget))
    return [p[: -len("/**")] if p.endswith("/**") and p != "/**" else p for p in patterns]


#: patterns one `paths` value may expand to: `{a,b}` twenty times over is a million patterns
MAX_EXPANSIONS = 1_000
#: characters of intermediate patterns one `paths` value may build while expanding
MAX_EXPANSION_WORK = 4_000_000


class _Budget:
    """What is left of one `paths` value's budget: a list of a thousand `{a,b}…` items shares
    it, instead of each item having its own (a million patterns again)."""

    __slots__ = ("expansions", "work")

    def __init__(self) -> None:
        self.expansions = MAX_EXPANSIONS
        self.work = MAX_EXPANSION_WORK


def _expand_braces(pattern: str, budget: _Budget) -> list[str]:
    """The patterns `{a,b}` lists stand for, innermost first, in order, while the value's
    `budget` lasts (the rest is left out: a million patterns help no one; with none expanded by
    then, the pattern as written, so an item costs at most its own text once the budget is
    spent)."""
    done: list[str] = []
    pending = [pattern]  # a stack, not recursion: `{}` five thousand times is one pattern
    while pending and budget.expansions > 0 and budget.work > 0:
        current = pending.pop()
        budget.work -= len(current)
        match = _BRACES.search(current)
        if not match:
            done.append(current)
            budget.expansions -= 1
            continue
        head, tail = current[: match.start()], current[match.end() :]
        pending.extend(reversed([head + option + tail for option in match.group(1).split(",")]))
    return done or [pattern]  # nothing expanded within the budget: the pattern as written


_BRACES = re.compile(r"\{([^{}]*)\}")
