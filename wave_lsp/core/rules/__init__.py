"""The rule registry. A rule is a small function in the module of its family (docs/design/rules.md sections).

A check function takes a `CheckContext` and yields `Finding`s for the codes it declares with
`@check("SKnnn", ...)`. Adding a rule touches one place: its family module (plus its catalog entry).
The engine skips a check when none of its codes is reported under the active target and settings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wave_lsp.core.checking.context import CheckContext
    from wave_lsp.core.checking.findings import Finding

CheckFunction = Callable[["CheckContext"], Iterable["Finding"]]


@dataclass(frozen=True, slots=True)
class Check:
    codes: tuple[str, ...]
    function: CheckFunction

    @property
    def name(self) -> str:
        return self.function.__name__


REGISTRY: list[Check] = []


def check(*codes: str) -> Callable[[CheckFunction], CheckFunction]:
    def register(function: CheckFunction) -> CheckFunction:
        REGISTRY.append(Check(codes, function))
        return function

    return register


def all_checks() -> list[Check]:
    """Every registered check (importing the family modules registers them)."""
    from wave_lsp.core.rules import (  # noqa: F401
        allowed_tools,
        body,
        description,
        file,
        invocation,
        name,
        placeholders,
        references,
        resources,
        shell_injections,
        unknown,
        workspace,
        yaml,
    )

    return REGISTRY


def implemented_codes() -> set[str]:
    return {code for item in all_checks() for code in item.codes}
