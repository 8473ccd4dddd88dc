"""The two YAML front ends agree: wherever libyaml (ruamel.yaml.clib) accepts a frontmatter, it
yields the same events as ruamel.yaml's pure-Python parser (type, value, style, anchor, tag, flow
style and character offsets), and it never accepts a text the pure parser rejects. So the fast path
cannot change a finding, and errors always come from the pure parser (docs/design/README.md)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from tests.fuzz.grammar import frontmatter
from wave_lsp.core.parsing import yamltree
from wave_lsp.core.parsing.source import split

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real"
pytestmark = pytest.mark.skipif(yamltree._CParser is None, reason="ruamel.yaml.clib is missing")


def _picture(event: Any) -> tuple[Any, ...]:
    style = getattr(event, "style", None) or None
    return (type(event).__name__, getattr(event, "value", None), style,
            getattr(event, "anchor", None), getattr(event, "tag", None),
            getattr(event, "flow_style", None), event.start_mark.index, event.end_mark.index)


def _pure(text: str) -> list[tuple[Any, ...]] | None:
    try:
        return [_picture(e) for e in YAML(typ="safe", pure=True).parse(text)]
    except Exception:
        return None


def _c(text: str) -> list[tuple[Any, ...]] | None:
    parser = yamltree._CParser(io.StringIO(text))
    found = []
    try:
        while True:
            event = parser.get_event()
            if yamltree._c_differs(event):
                return None  # the fast path hands such texts to the pure parser
            found.append(_picture(event))
            if found[-1][0] == "StreamEndEvent":
                return found
    except Exception:
        return None
    finally:
        parser.dispose()


def _agree(text: str) -> None:
    text = yamltree._neutralise_inner_tabs(text)
    if not yamltree._c_can_parse(text):
        return  # always parsed by the pure parser
    fast = _c(text)
    if fast is not None:
        assert _pure(text) == fast, text


def test_both_paths_agree_on_the_corpus() -> None:
    texts = [split(p.read_text("utf-8", errors="replace")).frontmatter
             for p in sorted(CORPUS.rglob("SKILL.md"))] if CORPUS.exists() else []
    texts = [t for t in texts if t is not None]
    if not texts:
        pytest.skip("the shared corpus is not beside the repository")
    for text in texts:
        _agree(text)
    accepted = sum(_c(yamltree._neutralise_inner_tabs(t)) is not None for t in texts)
    assert accepted > len(texts) * 0.9  # the fast path really serves nearly every skill


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frontmatter)
def test_both_paths_agree_on_generated_frontmatter(text: str) -> None:
    _agree(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list("ab: -#'\"|>[]{},&*!\n\t\r é?%@`._🧬\U0010fffd")),
               max_size=60))
def test_both_paths_agree_on_yaml_punctuation(text: str) -> None:
    _agree(text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 400), st.sampled_from(["", " # c", " 🌐", " & x", " * y"])),
                min_size=1, max_size=30))
def test_both_paths_agree_on_long_lines_outside_the_basic_plane(lines: list[tuple[int, str]]) -> None:
    """Characters outside the Basic Multilingual Plane (emoji) count as one character on both
    paths, however far into the text and however many come before."""
    _agree("".join(f"k{n}: {'🧬' * count}{tail}\n" for n, (count, tail) in enumerate(lines)))
    _agree("d: |\n" + "".join(f"  {'😀' * count}\n" for count, _ in lines))
