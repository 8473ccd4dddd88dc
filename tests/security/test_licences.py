"""No dependency in wave-lsp's installed runtime closure is GPL (issue 15: bashlex, GPL-3.0, is
gone; wave-lsp is MIT). The closure is walked from wave-lsp's own requirements (extras left out),
and every distribution's licence metadata (License-Expression, License, classifiers) is read."""

from __future__ import annotations

import re
from importlib import metadata

import pytest

EXTRA = re.compile(r";\s*.*extra\s*==")


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def runtime_closure() -> dict[str, metadata.Distribution]:
    seen: dict[str, metadata.Distribution] = {}
    todo = ["wave-lsp"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen[name] = dist
        for requirement in dist.requires or []:
            if EXTRA.search(requirement):
                continue
            marker = requirement.split(";", 1)[1] if ";" in requirement else None
            if marker and "python_version" in marker and "<" in marker:
                continue  # backports for older Pythons
            todo.append(_name(requirement))
    return seen


def licence_text(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    pieces = [meta.get("License-Expression") or "", (meta.get("License") or "")[:300]]
    pieces += [c for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    return " | ".join(p for p in pieces if p)


def is_gpl(text: str) -> bool:
    """GPL or AGPL (LGPL and "GPL-compatible" are not)."""
    return re.search(r"(?<![L\w-])A?GPL|GNU (Affero )?General Public License", text) is not None


def test_the_closure_holds_the_parser_and_not_bashlex() -> None:
    closure = runtime_closure()
    if "wave-lsp" not in closure:
        pytest.skip("wave-lsp is not installed in this environment")
    assert {"tree-sitter", "tree-sitter-bash"} <= set(closure)
    assert "bashlex" not in closure


def test_no_gpl_in_the_installed_runtime_closure() -> None:
    closure = runtime_closure()
    if "wave-lsp" not in closure:
        pytest.skip("wave-lsp is not installed in this environment")
    offenders = {name: licence_text(dist) for name, dist in closure.items()
                 if is_gpl(licence_text(dist))}
    assert offenders == {}


def test_the_gpl_check_recognises_gpl() -> None:
    assert is_gpl("GPL-3.0-or-later") and is_gpl("License :: OSI Approved :: GNU General Public "
                                                 "License v3 (GPLv3)")
    assert not is_gpl("MIT") and not is_gpl("LGPL-2.1") and not is_gpl("Apache-2.0")
