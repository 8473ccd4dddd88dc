"""The edit distance behind every "did you mean" suggestion (`rules/helpers.py`): the banded,
early-stopping computation agrees with the textbook optimal-string-alignment table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wave_lsp.core.rules.helpers import closest, damerau_levenshtein


def full_table_distance(a: str, b: str) -> int:
    """Optimal string alignment over the whole table, no band and no early stop."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        table[i][0] = i
    for j in range(len(b) + 1):
        table[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[len(a)][len(b)]


@pytest.mark.parametrize(("a", "b", "limit", "expected"), [
    ("descripton", "description", 2, 1),
    ("allowed_tools", "allowed-tools", 2, 1),
    ("ab", "ba", 2, 1),  # one transposition
    ("ca", "abc", 3, 3),  # optimal string alignment: no edit of a transposed pair
    ("name", "name", 0, 0),
    ("model", "modle", 1, 1),
    ("references/a.md", "reference/b.md", 1, 2),  # above the limit: limit + 1
    ("x", "much-longer", 3, 4),
    ("", "abc", 3, 3),
])
def test_distance_table(a: str, b: str, limit: int, expected: int) -> None:
    assert damerau_levenshtein(a, b, limit) == expected


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="abcd-_", max_size=9), st.text(alphabet="abcd-_", max_size=9),
       st.integers(min_value=0, max_value=4))
def test_banded_distance_agrees_with_the_full_table(a: str, b: str, limit: int) -> None:
    exact = full_table_distance(a, b)
    assert damerau_levenshtein(a, b, limit) == (exact if exact <= limit else limit + 1)


def test_closest_prefers_the_nearest_and_ignores_case() -> None:
    assert closest("Scirpts", ["scripts", "script"]) == "scripts"
    assert closest("refs", ["references", "assets"]) is None
    assert closest("modle", ["mod", "model"]) == "model"  # transposition: one edit, not two
    assert closest("mdoe", ["mode", "model"]) == "mode"  # one edit from `mode`, two from `model`
