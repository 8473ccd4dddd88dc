"""Small pieces several rule families share: quoting, type names, naming suggestions."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import ALIAS, YamlNode

if TYPE_CHECKING:
    from wave_lsp.core.facts.profiles import RuntimeProfile

T = TypeVar("T")


def type_name(value: Any) -> str:
    if value is ALIAS:
        return "an alias"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "text"


def double_quoted(text: str) -> str:
    """`text` as a YAML double-quoted scalar (JSON escaping is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def shown(text: str, limit: int = 80) -> str:
    """A value for a message: one line, cut at `limit` characters."""
    flat = text.replace("\r", "").replace("\n", "⏎")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def damerau_levenshtein(a: str, b: str, limit: int = 3) -> int:
    """Optimal-string-alignment distance when it is at most `limit`; otherwise `limit + 1`.

    Only the cells within `limit` of the diagonal are computed (a cell farther out costs more than
    `limit` anyway), and the scan stops at the first row whose every cell is above `limit`. The
    common prefix and suffix are left out first: two paths share `references/` and `.md`."""
    if a == b:
        return 0
    a, b = _without_common_affixes(a, b)  # the distance is that of what differs
    over = limit + 1
    if abs(len(a) - len(b)) > limit:
        return over
    width = len(b)
    previous2: list[int] = []
    previous = [j if j <= limit else over for j in range(width + 1)]
    for i in range(1, len(a) + 1):
        current = [over] * (width + 1)
        current[0] = i if i <= limit else over
        char_a = a[i - 1]
        row_best = current[0]
        for j in range(max(1, i - limit), min(width, i + limit) + 1):
            char_b = b[j - 1]
            cell = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                cell = min(cell, previous2[j - 2] + 1)
            current[j] = cell if cell < over else over
            row_best = min(row_best, current[j])
        if row_best > limit:
            return over
        previous2, previous = previous, current
    return previous[width]


def _without_common_affixes(a: str, b: str) -> tuple[str, str]:
    """`a` and `b` without their common prefix and suffix (`references/` and `.md` of two paths)."""
    start = 0
    shortest = min(len(a), len(b))
    while start < shortest and a[start] == b[start]:
        start += 1
    end = 0
    while end < shortest - start and a[-1 - end] == b[-1 - end]:
        end += 1
    return a[start:len(a) - end], b[start:len(b) - end]


def closest(word: str, candidates: Iterable[str], max_distance: int = 2) -> str | None:
    """The candidate nearest to `word` (case-insensitive) within `max_distance` edits, the first
    of equally near ones."""
    best: tuple[int, str] | None = None
    lowered = word.lower()
    for candidate in candidates:
        distance = damerau_levenshtein(lowered, candidate.lower(), max_distance)
        if distance <= max_distance and (best is None or distance < best[0]):
            best = (distance, candidate)
    return best[1] if best else None


def once_per_skill(findings: Iterable[Finding], key: Callable[[Finding], str | None],
                   what: str) -> Iterator[Finding]:
    """The findings, but of those `key` groups (None: not grouped) only the first of each group,
    which says how many more it stands for (issue 37: a guide's thirty mentions of one variable,
    each an information finding with the same sentence, are one fact about the skill). `what`
    names the others: "other mentions of `${X}`" -> "Said once here: 3 other mentions …"."""
    first: dict[str, Finding] = {}
    more: dict[str, int] = {}
    for finding in findings:
        group = key(finding)
        if group is None:
            yield finding
        elif group in first:
            more[group] = more.get(group, 0) + 1
        else:
            first[group] = finding
    for group, finding in first.items():
        count = more.get(group, 0)
        if count:
            finding.message += (f" Said once for this skill: {count} "
                                f"{what.format(group)} {'is' if count == 1 else 'are'} "
                                "not reported.")
        yield finding


def capped(items: Iterable[T], limit: int) -> Iterator[T]:
    """At most `limit` items (rules that could fire thousands of times on hostile input)."""
    for index, item in enumerate(items):
        if index >= limit:
            return
        yield item


def after_key_colon(text: str, key: YamlNode) -> int:
    """The offset just after the `:` that follows a mapping key."""
    return text.index(":", key.span.end) + 1


def value_region(text: str, key: YamlNode, value: YamlNode) -> Span:
    """From just after `key:` to the end of its value (for edits that rewrite a value's form)."""
    colon = after_key_colon(text, key)
    return Span(colon, max(value.content_span.end, colon))


#: a skill about writing skills or commands (by its name and description): the `$1`,
#: `scripts/x.py` and `@docs/x.md` in its text are a generic skill's, shown as examples
_WRITING_GUIDE = re.compile(
    r"\b(?:skills?|commands?|slash[- ]commands?)[- ](?:creat|develop|author|writ|build)\w*|"
    r"\b(?:creat|writ|author|build|develop|design)\w*\s+(?:[\w-]+\s+){0,3}?"
    r"(?:skills?|slash[- ]commands?|commands?|playbooks?)\b", re.I)


def about_writing_skills(name: object, description: object) -> bool:
    """Whether a skill is a guide to writing skills or commands, by its `name` and `description`
    read as one text (`slash-commands` + "Create and use …" is one)."""
    about = " ".join(v for v in (name, description) if isinstance(v, str))
    return bool(_WRITING_GUIDE.search(about))


def counted_by(code: str, profile: RuntimeProfile) -> dict[int, list[str]]:
    """The runtimes that substitute arguments and report rule `code` under `profile` (its
    members for an aggregate), by the number they count `$N` from."""
    from wave_lsp.core.checking.messages import who_reports

    by_base: dict[int, list[str]] = {}
    reporting = who_reports(code, profile)
    for member in profile.members or (profile,):
        if member.substitutes_arguments and member.runtime in reporting:
            by_base.setdefault(member.argument_base, []).append(member.runtime)
    return by_base


def substituting(code: str, profile: RuntimeProfile) -> str:
    """Who substitutes the skill's text, with the verb: the target's runtime, or under an
    aggregate its members that substitute arguments and report rule `code` ("every runtime" is
    false there: Codex, Gemini CLI and VS Code substitute nothing)."""
    from wave_lsp.core.checking.messages import agree, who_reports

    names = who_reports(code, profile, lambda p: p.substitutes_arguments)
    return agree(names, "substitutes", "substitute") if names else "a runtime substitutes"


#: a skill about writing a plugin or its parts (hooks, MCP servers, agents), or the rules for them
#: (sample 5: `hook-development` "Creates and configures event-driven hooks in Codex plugins",
#: `mcp-integration`, `plugin-rulebook`, "create a plugin"): the `${CLAUDE_PLUGIN_ROOT}/x.sh` of
#: its hooks.json, `scripts/my-hook.sh` of its commands are the plugin's the reader writes
_PLUGIN_GUIDE = re.compile(
    r"\b(?:plugins?|hooks?|mcp|sub-?agents?|agents?)-(?:develop|creat|author|writ|build|"
    r"structure|rulebook|integration)\w*|"
    r"\b(?:creat|writ|author|build|develop|design|scaffold|configur)(?:e|es|ed|ing|s)?[,\s]+"
    r"(?:[\w-]+[,\s]+){0,5}?(?:plugins?|hooks?|sub-?agents?)\b", re.I)
#: words that make those plugins an agent runtime's (not a Godot editor's, not a git hook's)
_AGENT_PLUGINS = re.compile(r"claude|codex|copilot|gemini|opencode|\bskills?\b|\bcommands?\b|"
                            r"plugin\.json|hooks\.json|\.mcp\.json|marketplace", re.I)


def about_writing_plugins(name: object, description: object) -> bool:
    """Whether a skill is a guide to writing skills or commands (`about_writing_skills`) or a
    plugin and its parts: hooks, MCP servers, agents (`_PLUGIN_GUIDE`)."""
    about = " ".join(v for v in (name, description) if isinstance(v, str))
    return bool(_WRITING_GUIDE.search(about)
                or (_PLUGIN_GUIDE.search(about) and _AGENT_PLUGINS.search(about)))


def counting_from(base: int, singular: str, plural: str) -> str:
    """The runtimes that substitute `$N` counting from `base`, with the verb that agrees."""
    from wave_lsp.core.checking.messages import agree, runtimes_that

    names = runtimes_that(lambda p: p.substitutes_arguments and p.argument_base == base)
    return agree(names, singular, plural) if names else f"a runtime counting from {base} {singular}"


def indexed_syntax() -> str:
    """The runtimes with `$ARGUMENTS[N]` and named arguments (`argument_syntax` "escapable")."""
    from wave_lsp.core.checking.messages import runtime_names, runtimes_that

    return runtime_names(runtimes_that(lambda p: p.argument_syntax == "escapable"
                                       and p.substitutes_arguments))
