"""Registering a rule's check: `@check("SKnnn", …)` marks a function of a family module as the check
that reports those codes (docs/design/rules.md). The mark lives on the function itself; the
registry (`wave_lsp.core.rules.all_checks`) collects the marked functions of the family modules, so
nothing is recorded in module state at import time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wave_lsp.core.checking.context import CheckContext
    from wave_lsp.core.checking.findings import Finding

CheckFunction = Callable[["CheckContext"], Iterable["Finding"]]
#: the attribute that carries a check function's codes
CODES_ATTRIBUTE = "wave_lsp_codes"


@dataclass(frozen=True, slots=True)
class Check:
    """A check function with the codes it reports."""

    codes: tuple[str, ...]
    function: CheckFunction
    #: how the engine's checkpoints name the check: `name (SK001, SK002)`, built once
    label: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", f"{self.name} ({', '.join(self.codes)})")

    @property
    def name(self) -> str:
        return self.function.__name__


def check(*codes: str) -> Callable[[CheckFunction], CheckFunction]:
    """Mark `function` as the check that reports `codes`."""
    def mark(function: CheckFunction) -> CheckFunction:
        setattr(function, CODES_ATTRIBUTE, codes)
        return function

    return mark


def marked_codes(function: object) -> tuple[str, ...] | None:
    codes = getattr(function, CODES_ATTRIBUTE, None)
    return codes if isinstance(codes, tuple) else None
