"""The rule catalog (docs/design/rules.md), loaded from `wave_lsp/data/rules.toml`.

One table serves every surface: the engine asks it for a rule's severity under a target, the CLI for
names, the LSP for `codeDescription` links and hover text, `wave_lsp.docs` for the pages under
`docs/rules/`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wave_lsp.core.runtime.profiles import RuntimeProfile

#: the columns of the `severity` letters in rules.toml; a profile reads its `catalog_column`
CATALOG_COLUMNS: tuple[str, ...] = ("wave", "claude-code", "agentskills", "portable")
DOCS_BASE_URL = "https://github.com/wave-lsp/wave-lsp/blob/main/docs/rules/"


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


_LETTERS = {"E": Severity.ERROR, "W": Severity.WARNING, "I": Severity.INFORMATION,
            "H": Severity.HINT, "-": None}


@dataclass(frozen=True, slots=True)
class Rule:
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

    def severity(self, profile: RuntimeProfile) -> Severity | None:
        """The default severity under `profile`, or None when that target does not report it."""
        return self.severities.get(profile.catalog_column)

    @property
    def url(self) -> str:
        return f"{DOCS_BASE_URL}{self.code}.md"


@cache
def rules() -> dict[str, Rule]:
    """Every rule of the catalog by code, in catalog order."""
    import tomllib  # when the catalog is first read: the server answers `initialize` without it

    raw = tomllib.loads(_catalog_text())
    catalog: dict[str, Rule] = {}
    for code, entry in raw.items():
        levels = dict(zip(CATALOG_COLUMNS, (_LETTERS[letter] for letter in entry["severity"]), strict=True))
        catalog[code] = Rule(code=code, name=entry["name"], family=entry["family"],
                             severities=levels, summary=entry["summary"], why=entry["why"],
                             example=entry["example"], fix=entry["fix"],
                             notes=entry.get("notes", ""),
                             fix_applicability=entry.get("fix-applicability", ""),
                             stops_loading=_columns(code, entry.get("stops-loading", [])))
    return catalog


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


def rule(code: str) -> Rule:
    return rules()[code]

