"""The shortcuts that make a long skill's analysis cheaper (docs/design/lsp.md *Edits coalesce*)
give the answers of the plain computations they replace: the `_written_to` pre-check, the
early-exit edit distance and the fence lookup by bisection."""

from __future__ import annotations

import random

import pytest

from wave_lsp.core.parsing import file_references
from wave_lsp.core.parsing.markdown import parse_body
from wave_lsp.core.rules.helpers import damerau_levenshtein

WINDOWS = [
    "Document findings in ", "Save the report TO the ", "write it into a `", "Store results under **",
    "the emitted SKILL.md + `", "generated x + ", "Read the guide in ", "Run it as ", "Copy to",
    "Extract the section to `references/", "Read [the guide](", "Use ", "", "x" * 200,
    "Put the file in the ſ", "Move the notes as ", "write ſuch as ",
]


@pytest.mark.parametrize("window", WINDOWS)
def test_the_destination_pre_check_never_changes_the_answer(window: str) -> None:
    text = window + "references/x.md trailing\n"
    start = len(window)
    full = bool(file_references._WRITTEN_TO.search(window.replace("\n", " "))
                or file_references._WRITTEN_AFTER.search(text[start + 15:].split("\n")[0]))
    assert file_references._written_to(text, start, start + 15) == full


def _plain_distance(a: str, b: str) -> int:
    """Optimal string alignment distance, computed in full."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def test_the_bounded_distance_agrees_with_the_full_one_up_to_the_limit() -> None:
    generator = random.Random(17)
    for _ in range(20_000):
        a = "".join(generator.choice("abc") for _ in range(generator.randint(0, 7)))
        b = "".join(generator.choice("abc") for _ in range(generator.randint(0, 7)))
        limit = generator.randint(0, 4)
        full, bounded = _plain_distance(a, b), damerau_levenshtein(a, b, limit)
        assert bounded == full if full <= limit else bounded > limit, (a, b, limit)


def test_the_fence_at_an_offset_is_the_one_a_scan_finds() -> None:
    text = "---\nname: x\n---\n" + "".join(
        f"Line {n}\n```bash\necho {n}\n```\n\n~~~\nplain\n~~~\n" for n in range(30)) + "```\nopen"
    body = parse_body(text, text.index("Line 0"))
    for offset in range(len(text) + 1):
        scanned = next((fence for fence in body.fences
                        if fence.span.start <= offset < fence.span.end), None)
        assert body.fence_at(offset) == scanned, offset
