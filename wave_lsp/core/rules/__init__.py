"""The rules: one family module per section of docs/design/rules.md, each a set of small check
functions marked with `@check("SKnnn", ...)` (`wave_lsp.core.rules.registry`).

A check function takes a `CheckContext` and yields `Finding`s for the codes it declares. Adding a
rule touches one place: its family module (plus its catalog entry). The engine skips a check when
none of its codes is reported under the active target and settings.
"""

from __future__ import annotations

import importlib
from functools import cache

from wave_lsp.core.rules.registry import Check, marked_codes

#: the family modules, in the order their checks run
FAMILIES = ("allowed_tools", "body", "description", "file", "invocation", "name", "placeholders",
            "references", "resources", "shell_injections", "unknown", "workspace", "yaml")


@cache
def all_checks() -> tuple[Check, ...]:
    """Every check of every family, in family order and then in definition order."""
    found: list[Check] = []
    for family in FAMILIES:
        module = importlib.import_module(f"wave_lsp.core.rules.{family}")
        for value in vars(module).values():
            codes = marked_codes(value)
            if codes is not None and callable(value) and value.__module__ == module.__name__:
                found.append(Check(codes, value))
    return tuple(found)


def implemented_codes() -> set[str]:
    return {code for item in all_checks() for code in item.codes}
