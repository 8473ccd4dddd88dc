"""The rule catalog (docs/design/rules.md), loaded from `wave_lsp/data/rules.toml`.

One table serves every surface: the engine asks it for a rule's severity under a target, the CLI for
names, the LSP for `codeDescription` links and hover text, `wave_lsp.docs` for the pages under
`docs/rules/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wave_lsp.core.facts.profiles import RuntimeProfile

#: the columns of the `severity` letters in rules.toml; a profile reads its `catalog_column`
CATALOG_COLUMNS: tuple[str, ...] = ("wave", "claude-code", "agentskills", "portable", "codex",
                                     "copilot", "cursor", "opencode", "gemini-cli",
                                     "copilot-cli")
#: the public address of the rule pages (`docs/rules/`), ending in `/`, once the project publishes
#: them; None: no link leaves the machine, and every surface uses the pages shipped in the package
#: (`page`) or `wave-lsp rule CODE` instead (docs/design/product.md *Command line*)
PUBLIC_DOCS_URL: str | None = None
#: the project's public home page, once there is one (SARIF `informationUri`); None: not linked
PUBLIC_HOME_URL: str | None = None
#: the pages in the wheel (pyproject.toml force-includes docs/rules there), else in the checkout
_PAGES = (Path(__file__).parents[2] / "_data" / "rules",
          Path(__file__).resolve().parents[3] / "docs" / "rules")


class Severity(IntEnum):
    """Finding severities, numbered as LSP numbers them (1 is the most severe)."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        key = text.strip().lower()
        aliases = {"e": "error", "w": "warning", "warn": "warning", "i": "information",
                   "info": "information", "h": "hint"}
        return cls[aliases.get(key, key).upper()]


class Confidence(IntEnum):
    """How a rule knows what it reports (docs/design/rules.md *Severity policy*), most sure first.

    *certain*: the runtime's own code decides it (the skill will not load, the invocation aborts,
    the text is substituted); *likely*: a fact checked against the files, which may still depend on
    where the skill is installed or run (a link target that resolves against no base); *heuristic*:
    a guess from the text (a path-like word in prose or code, an author's intent). The severity a
    target gives is capped by it: a likely finding is at most a warning, a heuristic one at most
    information."""

    CERTAIN = 1
    LIKELY = 2
    HEURISTIC = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def ceiling(self) -> Severity:
        """The most severe level a finding of this confidence is reported at."""
        return _CEILING[self]

    def cap(self, severity: Severity) -> Severity:
        """`severity`, lowered to this confidence's ceiling (Severity numbers grow milder)."""
        return Severity(max(severity, self.ceiling))

    @classmethod
    def parse(cls, text: str) -> Confidence:
        return cls[text.strip().upper()]


_CEILING = {Confidence.CERTAIN: Severity.ERROR, Confidence.LIKELY: Severity.WARNING,
            Confidence.HEURISTIC: Severity.INFORMATION}


_LETTERS = {"E": Severity.ERROR, "W": Severity.WARNING, "I": Severity.INFORMATION,
            "H": Severity.HINT, "-": None}


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the catalog: its code, name, family, severity per target and documentation."""

    code: str
    name: str
    family: str
    severities: dict[str, Severity | None]
    summary: str
    why: str
    example: str
    fix: str
    notes: str = ""  #: how wave-lsp decides where docs/design/rules.md leaves room
    #: for rules with quick fixes: "safe" (`check --fix`), "unsafe" (`--unsafe-fixes`) or
    #: "display-only" (offered in editors, never applied in batch); "" when there is no fix
    fix_applicability: str = ""
    #: the catalog columns under which an *error* of this rule means the runtime does not load
    #: the skill at all (docs/design/rules.md *Does it load?*)
    stops_loading: frozenset[str] = frozenset()
    #: how the rule knows (its most sure findings; one finding may say it knows less)
    confidence: Confidence = Confidence.CERTAIN
    #: the runtime facts the rule rests on, each with its source and the version it was verified
    #: against (docs/design/rules.md *Severity policy*)
    evidence: tuple[Evidence, ...] = ()
    #: what each target's runtime does in the situation the rule covers (`EFFECTS`), by catalog
    #: column; empty for a rule whose findings say nothing a runtime does (docs/design/rules.md
    #: *Facts: the effect of a rule under a target*)
    effects: dict[str, Effect] = field(default_factory=dict)

    def effect(self, profile: RuntimeProfile) -> Effect | None:
        """What `profile`'s runtime does in this rule's situation (None: no fact recorded)."""
        return self.effects.get(profile.catalog_column)

    def severity(self, profile: RuntimeProfile) -> Severity | None:
        """The default severity under `profile` (the catalog column capped by the rule's
        confidence), or None when that target does not report it. An aggregate with no column of
        its own (the runtimes that scan `.agents/skills`) reads the strictest of its members'
        columns."""
        if not profile.catalog_column and profile.members:
            levels = [level for member in profile.members
                      if (level := self.severities.get(member.catalog_column)) is not None]
            found = min(levels) if levels else None
        else:
            found = self.severities.get(profile.catalog_column)
        return None if found is None else self.confidence.cap(found)

    @property
    def url(self) -> str | None:
        """The rule's public page, or None when no public address is configured."""
        return f"{PUBLIC_DOCS_URL}{self.code}.md" if PUBLIC_DOCS_URL else None

    @property
    def page(self) -> Path | None:
        """The rule's page on this machine: shipped in the package, or in the checkout."""
        return _page(self.code)

    @property
    def link(self) -> str | None:
        """What an editor links the code to: the public page, else the local one."""
        page = self.page
        return self.url or (page.as_uri() if page is not None else None)


@cache
def _page(code: str) -> Path | None:
    for folder in _PAGES:
        candidate = folder / f"{code}.md"
        if candidate.is_file():
            return candidate
    return None


#: what `evidence-target` says of a fact that holds under every target
ALL_TARGETS = "all"
#: how an advice row starts its fact, and what it gives as its version: the project's own
#: judgement, which no runtime version can verify (docs/design/rules.md *Evidence*)
ADVICE_PREFIX = "advice: "
ADVICE_VERIFIED = "not a runtime fact"
#: how a fact that no source confirmed starts, and what it gives as its version
UNVERIFIED_PREFIX = "unverified: "
UNVERIFIED_VERIFIED = "not verified"


@dataclass(frozen=True, slots=True)
class Evidence:
    """One fact a rule rests on: what the runtime does, where that is seen (its source code, its
    documentation, an oracle probe), the runtime version it was verified against, and the catalog
    columns (targets) it is about. An *advice* row is the project's own judgement instead."""

    fact: str
    source: str
    verified: str
    #: the catalog columns the fact is about; empty: every target
    targets: tuple[str, ...] = ()

    @property
    def is_advice(self) -> bool:
        return self.fact.startswith(ADVICE_PREFIX)

    @property
    def is_unverified(self) -> bool:
        return self.fact.startswith(UNVERIFIED_PREFIX)

    def covers(self, column: str) -> bool:
        """Whether the fact is about the target of catalog column `column`."""
        return not self.targets or column in self.targets

    @property
    def target_label(self) -> str:
        return ", ".join(self.targets) if self.targets else ALL_TARGETS

    def to_json(self) -> dict[str, object]:
        return {"fact": self.fact, "source": self.source, "verified": self.verified,
                "targets": list(self.targets) or [ALL_TARGETS]}


#: the kinds of effect a runtime has on a skill in the situation a rule covers, and whether the
#: skill still loads (docs/design/rules.md *Facts: the effect of a rule under a target*); each
#: kind has one sentence template (`wave_lsp.core.checking.messages.EFFECT_SENTENCES`)
EFFECTS: dict[str, bool] = {
    "drops": False,       # the runtime does not load the skill
    "rejects": False,     # the validator rejects the skill
    "not-found": True,    # the runtime does not find the file (a file question, not a load)
    "renames": True,      # it loads under another name (the folder's)
    "ignores": True,      # it loads and ignores the value, as if it were not written
    "truncates": True,    # it loads and cuts the value
    "falls-back": True,   # it loads and describes the skill by its body's first line
    "unlisted": True,     # it loads as a command, left out of the model's listing
    "misreads": True,     # it loads and reads other text than written (fields or body lost)
    "passes": True,       # it loads and passes the value on as written, with no fallback
    "loads": True,        # it loads the skill as written: the finding is about other runtimes
}
#: how a cell says its fact is unconfirmed (documentation only, or not run)
UNVERIFIED_MARK = "?"


@dataclass(frozen=True, slots=True)
class Effect:
    """One cell of a rule's `effect` row: the kind (`EFFECTS`) and whether any source confirmed
    it (a cell written `drops?` rests on `unverified: ` evidence only)."""

    kind: str
    verified: bool = True

    @property
    def loads(self) -> bool:
        return EFFECTS[self.kind]

    @property
    def stops_loading(self) -> bool:
        return not self.loads

    def __str__(self) -> str:
        return self.kind + ("" if self.verified else UNVERIFIED_MARK)


@cache
def rules() -> dict[str, Rule]:
    """Every rule of the catalog by code, in catalog order."""
    raw = parse_catalog(_catalog_text())
    catalog: dict[str, Rule] = {}
    for code, entry in raw.items():
        effects = _effects(code, entry)
        levels = dict(zip(CATALOG_COLUMNS, (_LETTERS[letter] for letter in entry["severity"]), strict=True))
        catalog[code] = Rule(code=code, name=entry["name"], family=entry["family"],
                             severities=levels, summary=entry["summary"], why=entry["why"],
                             example=entry["example"], fix=entry["fix"],
                             notes=entry.get("notes", ""),
                             fix_applicability=entry.get("fix-applicability", ""),
                             stops_loading=_stops_loading(code, entry, effects),
                             confidence=_confidence(code, entry.get("confidence")),
                             evidence=_evidence(code, entry), effects=effects)
    return catalog


def parse_catalog(text: str) -> dict[str, Any]:
    """rules.toml as `tomllib.loads` reads it.

    The catalog keeps to a small part of TOML: comments, `[CODE]` tables and `key = value` lines
    whose value is a one-line string or array of strings, with the escapes that JSON shares. Such a
    file is read a line at a time, each value as it is or, when it has escapes or is an array, with
    `json.loads`: three times faster than tomllib, which a one-file `check` would otherwise import
    and run at every start (docs/design/product.md *Command line*). A file with anything else (a
    multi-line or literal string, a trailing comment, another escape) is read by tomllib, which
    also reports the error of an invalid file."""
    fast = _parse_simple_toml(text)
    if fast is not None:
        return fast
    import tomllib

    return tomllib.loads(text)


#: the escapes TOML and JSON read alike: a backslash left once they are removed starts another one
#: (JSON's `\/`; TOML's `\e`, `\x..`, `\U........`; a `\u` surrogate), which is left to tomllib
_SHARED_ESCAPE = re.compile(r'\\(?:[\\"bfnrt]|u(?![dD][89abAB])[0-9A-Fa-f]{4})')
_TABLE = re.compile(r"\[([A-Za-z0-9_-]+)\]")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
#: characters TOML allows nowhere in a file (a tab is fine; a line's CR LF is removed before)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def _parse_simple_toml(text: str) -> dict[str, Any] | None:
    """`parse_catalog`'s fast reader: the tables, or None when `text` leaves its subset."""
    tables: dict[str, dict[str, Any]] = {}
    current: dict[str, Any] | None = None
    for line in text.split("\n"):
        stripped = line.removesuffix("\r").strip(" \t")
        if not stripped.isprintable() and _CONTROL.search(stripped):
            return None
        if not stripped or stripped.startswith("#"):
            continue
        table = _TABLE.fullmatch(stripped)
        if table is not None:
            if table.group(1) in tables:
                return None
            current = tables[table.group(1)] = {}
            continue
        key, equals, value = stripped.partition("=")
        key, value = key.strip(" \t"), value.strip(" \t")
        if current is None or not equals or not _BARE_KEY.fullmatch(key) or key in current:
            return None
        parsed = _simple_value(value)
        if parsed is None:
            return None
        current[key] = parsed
    return tables


def _simple_value(value: str) -> str | list[str] | None:
    """A one-line TOML string or array of strings, or None for any other value."""
    inner = value[1:-1]
    if value[:1] == '"' and value[-1:] == '"' and len(value) > 1 and '"' not in inner \
            and "\\" not in inner:
        return inner  # most of the catalog: nothing to unescape
    if value[:1] not in ('"', "[") or "\t" in value or "\\" in _SHARED_ESCAPE.sub("", value):
        return None  # a tab is fine in TOML, not in JSON: tomllib reads it
    import json

    try:
        parsed = json.loads(value)
    except ValueError:
        return None
    if isinstance(parsed, str):
        return parsed
    if isinstance(parsed, list) and all(isinstance(item, str) for item in parsed):
        return parsed
    return None


def _catalog_text() -> str:
    """rules.toml, read from the package folder (importlib.resources, which costs a few imports,
    only for a package that is not a folder on disk)."""
    beside = Path(__file__).parents[2] / "data" / "rules.toml"
    if beside.is_file():
        return beside.read_text("utf-8")
    from importlib import resources

    return resources.files("wave_lsp.data").joinpath("rules.toml").read_text("utf-8")


def _columns(code: str, names: list[str]) -> frozenset[str]:
    unknown = set(names) - set(CATALOG_COLUMNS)
    if unknown:
        raise ValueError(f"{code}: stops-loading names unknown targets {sorted(unknown)}")
    return frozenset(names)


def _effects(code: str, entry: dict[str, Any]) -> dict[str, Effect]:
    """`effect`: one cell per catalog column, like `severity` (`-` where the target does not
    report the rule); none for a rule without runtime facts."""
    cells = entry.get("effect")
    if cells is None:
        return {}
    if not isinstance(cells, list) or len(cells) != len(CATALOG_COLUMNS):
        raise ValueError(f"{code}: effect must have one cell per target ({len(CATALOG_COLUMNS)})")
    effects: dict[str, Effect] = {}
    for column, cell in zip(CATALOG_COLUMNS, cells, strict=True):
        if cell == "-":
            continue
        kind = cell.removesuffix(UNVERIFIED_MARK)
        if kind not in EFFECTS:
            raise ValueError(f"{code}: unknown effect {cell!r} under {column}")
        effects[column] = Effect(kind, verified=not cell.endswith(UNVERIFIED_MARK))
    return effects


def _stops_loading(code: str, entry: dict[str, Any], effects: dict[str, Effect]
                   ) -> frozenset[str]:
    """The columns where an error of the rule means the skill does not load: derived from the
    `effect` row where the rule has one (a verified `drops` or `rejects`), else `stops-loading`."""
    if not effects:
        return _columns(code, entry.get("stops-loading", []))
    if "stops-loading" in entry:
        raise ValueError(f"{code}: give `effect` or `stops-loading`, not both (the effect "
                         "decides which targets stop loading)")
    return frozenset(column for column, effect in effects.items()
                     if effect.stops_loading and effect.verified)


def _confidence(code: str, value: object) -> Confidence:
    """The `confidence` every rule declares: certain, likely or heuristic."""
    if not isinstance(value, str) or value.strip().upper() not in Confidence.__members__:
        raise ValueError(f"{code}: confidence must be one of certain, likely, heuristic "
                         f"(got {value!r})")
    return Confidence.parse(value)


def _evidence(code: str, entry: dict[str, Any]) -> tuple[Evidence, ...]:
    """`evidence`, `evidence-source`, `evidence-verified` and `evidence-target`: parallel arrays
    of strings (the catalog keeps to one-line values), one item per fact; a target item is
    `all` or catalog columns separated by spaces."""
    facts = entry.get("evidence", [])
    sources = entry.get("evidence-source", [])
    verified = entry.get("evidence-verified", [])
    targets = entry.get("evidence-target", [])
    if not (len(facts) == len(sources) == len(verified) == len(targets)):
        raise ValueError(f"{code}: evidence, evidence-source, evidence-verified and "
                         "evidence-target must have one item each per fact")
    return tuple(Evidence(fact, source, version, _evidence_targets(code, target))
                 for fact, source, version, target
                 in zip(facts, sources, verified, targets, strict=True))


def _evidence_targets(code: str, text: str) -> tuple[str, ...]:
    """One `evidence-target` item as catalog columns (empty for `all`)."""
    names = tuple(text.split())
    if names == (ALL_TARGETS,):
        return ()
    unknown = [name for name in names if name not in CATALOG_COLUMNS]
    if not names or unknown:
        raise ValueError(f"{code}: evidence-target must be `all` or catalog columns "
                         f"(got {text!r})")
    return names


def rule(code: str) -> Rule:
    return rules()[code]

