"""The skill index's cheap read of a SKILL.md gives exactly what the full parse gives: the
frontmatter found without indexing the lines (`quick_frontmatter`), the top-level values built from
libyaml's events without the node tree (`quick_values`), and so every summary the index keeps;
wherever the cheap read is not sure it steps aside (None) and the full parse decides
(docs/design/product.md *Indexing speed*). Compared on the whole corpus and on generated texts."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.grammar import frontmatter, skill_texts
from wave_lsp.core.parsing import yamltree
from wave_lsp.core.parsing.document import FrontmatterValues, SkillDocument, field_values
from wave_lsp.core.parsing.reading import load_document
from wave_lsp.core.parsing.source import decode, quick_frontmatter, split
from wave_lsp.core.parsing.yamltree import parse_frontmatter, quick_values
from wave_lsp.core.workspace.runtime_view import read_summary, summary_of_document

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real"
pytestmark = pytest.mark.skipif(yamltree._CParser is None, reason="ruamel.yaml.clib is missing")
#: the names the index reads (`summary_of_document`, `listing_entry`)
SUMMARY_NAMES = ("name", "description", "argument-hint", "when_to_use",
                 "disable-model-invocation", "user-invocable")


def same(left: Any, right: Any) -> bool:
    """Equal values of equal types (1 is not 1.0 nor True; NaN equals NaN; order of keys kept)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return len(left) == len(right) and all(
            same(k1, k2) and same(v1, v2)
            for (k1, v1), (k2, v2) in zip(left.items(), right.items(), strict=True))
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same, left, right))
    if isinstance(left, float) and math.isnan(left):
        return math.isnan(right)
    return bool(left == right)


def assert_values_agree(text: str) -> bool:
    """The cheap read of `text` (a whole SKILL.md) answers `value` as its `SkillDocument` does;
    True when the cheap read served it."""
    decoded = decode(text.encode("utf-8", errors="surrogatepass"))
    document = SkillDocument.from_decoded(decoded)
    quick = quick_frontmatter(decoded.text)
    if quick is not None:
        assert quick == split(decoded.text).frontmatter
    values = field_values(decoded)
    if not isinstance(values, FrontmatterValues):
        assert values is document
        return False
    assert values.names == frozenset(document.fields)
    for name in (*document.fields, *SUMMARY_NAMES, "absent"):
        assert same(values.value(name), document.value(name)), name
        assert same(values.value(name, "default"), document.value(name, "default")), name
    return True


def assert_frontmatter_agrees(text: str) -> None:
    """`quick_values` of a frontmatter is the full tree's top-level mapping, or None."""
    quick = quick_values(text)
    if quick is None:
        return
    tree = parse_frontmatter(text)
    assert tree.problem is None, text
    mapping = tree.mapping
    if mapping is None:
        assert quick.values == {} and quick.scalar_keys == frozenset()
        return
    assert same(quick.values, mapping.value()), text
    assert quick.scalar_keys == {key.text for key, _value in mapping.pairs if key.kind == "scalar"}


def corpus_paths() -> list[Path]:
    paths = sorted(CORPUS.rglob("SKILL.md")) if CORPUS.exists() else []
    if not paths:
        pytest.skip("the shared corpus is not beside the repository")
    return paths


def test_the_cheap_read_agrees_on_the_whole_corpus() -> None:
    paths = corpus_paths()
    served = sum(assert_values_agree(path.read_bytes().decode("utf-8", errors="replace"))
                 for path in paths)
    assert served > len(paths) * 0.8  # it really serves most skills


def test_every_summary_of_the_corpus_is_the_full_parses(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for path in corpus_paths():
        document = load_document(path)
        if document is None:
            assert read_summary(path, home) is None
            continue
        assert read_summary(path, home) == summary_of_document(path, document, home), path


@pytest.mark.parametrize("text, served", [
    ("---\nname: x\ndescription: Does x.\n---\nbody\n", True),
    ("---\r\nname: x\r\ndescription: 'Does x.'\r\n---\r\nbody\r\n", True),
    ("\ufeff---\nname: x\n---\n", True),
    ("---  \nname: x\n--- \n", True),  # delimiters with trailing blanks
    ("---\nname: x\n----\nmore: y\n---\n", False),  # `----` inside: libyaml may read it apart
    ("---\nname: x\n----\n", False),  # only a loose closer: `split` decides
    ("---\rname: x\r---\r", False),  # lone carriage returns
    ("\n---\nname: x\n---\n", False),  # a blank line first
    ("---\nname: x\n", False),  # no closer
    ("no frontmatter\n", False),
    ("---\nname: &a x\ndescription: *a\n---\n", False),  # anchors and aliases
    ("---\nname: !!str 1\n---\n", False),  # tags: their spelling decides the value
    ("---\nname:\ndescription: x\n---\n", False),  # an empty plain value
    ("---\nname: x\n\tdescription: y\n---\n", False),  # a tab
    ("---\nname: [unclosed\n---\n", False),  # a YAML error: the full parse reports it
    ("---\nname: x\n...\n---\n", False),  # a document marker
    ("---\nuser-invocable: yes\ndisable-model-invocation: True\n---\n", True),
    ("---\nname: x\nname: y\n'name': z\n---\n", True),  # duplicates: the last wins
    ("---\n? [a, b]\n: c\n1: one\nnull: none\n0x1f: hex\n.nan: x\n---\n", True),
    ("---\n- a\n- b\n---\n", True),  # not a mapping: no fields
    ("---\njust text\n---\n", True),
    ("---\n---\n", True),  # an empty frontmatter
    ("---\ndescription: >-\n  folded\n  text\nallowed-tools:\n  - Read\n  - Bash(git status)\n"
     "metadata: {a: 1, b: [x, {c: d}]}\n---\n", True),
    ("---\ndescription: |\n  # not a comment\n# a comment\n---\n", False),  # libyaml may differ
    ("---\nname: x\ndescription: \"é\\u00e9 😀\"\n---\n", True),  # outside the BMP: one character
    ("---\nname: x\ndescription: R & D * 2\n---\n", True),  # `&` and `*` with no name: text
    ("---\nname: x\ndescription: \"é\\u00e9\"\n---\n", True),
])
def test_where_the_cheap_read_serves_it_agrees(text: str, served: bool) -> None:
    assert assert_values_agree(text) is served


def test_the_cheap_read_keeps_values_as_yaml_1_2_reads_them() -> None:
    values = field_values(decode(b"---\nuser-invocable: yes\nname: 012\nlist: [1, '2']\n---\n"))
    assert isinstance(values, FrontmatterValues)
    assert values.value("user-invocable") == "yes" and values.value("name") == 12
    assert values.value("list") == [1, "2"] and values.value("missing", 3) == 3


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(skill_texts())
def test_the_cheap_read_agrees_on_generated_skills(text: str) -> None:
    assert_values_agree(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frontmatter)
def test_quick_values_agree_on_generated_frontmatter(text: str) -> None:
    assert_frontmatter_agrees(text)
    assert_values_agree(f"---\n{text}\n---\nbody\n")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list("ab: -#'\"|>[]{},&*!\n\t\r é?%@`.1~")),
               max_size=60))
def test_quick_values_agree_on_yaml_punctuation(text: str) -> None:
    assert_frontmatter_agrees(text)
    assert_values_agree(f"---\n{text}\n---\n")


# -- `_c_can_parse`, searched piecewise, says what the combined patterns say ------------------------
def combined_can_parse(text: str) -> bool:
    if yamltree._C_UNSAFE.search(text) or yamltree._DOCUMENT_MARKER.search(text):
        return False
    return not (yamltree._COMMENT_LINE.search(text) and yamltree._BLOCK_HEADER.search(text))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab: -#|>&*!.\n\t\r\u0085\u2028\ufeff😀é[{,+1")),
               max_size=40))
def test_the_piecewise_check_is_the_combined_one(text: str) -> None:
    assert yamltree._c_can_parse(text) is combined_can_parse(text)


def test_the_piecewise_check_is_the_combined_one_on_the_corpus() -> None:
    for path in corpus_paths():
        text = split(path.read_bytes().decode("utf-8", errors="replace")).frontmatter or ""
        assert yamltree._c_can_parse(text) is combined_can_parse(text), path
        assert yamltree._c_can_parse(re.sub("^", "  ", text)) is combined_can_parse(
            re.sub("^", "  ", text))


# -- `resolve_plain_12` answers a string at once when no other type can start so ---------------------
def reference_resolve(text: str) -> Any:
    """The core schema's resolution by the patterns alone (before the first-character check)."""
    if yamltree._NULL_12.fullmatch(text):
        return None
    if yamltree._BOOL_12.fullmatch(text):
        return text.lower() == "true"
    if yamltree._INT_12.fullmatch(text):
        return int(text, 0) if text[:2] in ("0o", "0x") else int(text)
    if yamltree._FLOAT_12.fullmatch(text):
        lowered = text.lower()
        if lowered.endswith(".inf"):
            return float("-inf") if lowered.startswith("-") else float("inf")
        if lowered.endswith(".nan"):
            return float("nan")
        return float(text)
    return text


@settings(max_examples=1000, deadline=None)
@given(st.one_of(
    st.text(alphabet=st.sampled_from(list("~nNtTfFuelrsaIN-+.0123456789eExXoObB _é")), max_size=8),
    st.sampled_from(["", "~", "null", "Null", "NULL", "true", "False", "0o17", "0x1F", "-.inf",
                     ".NaN", "+1.5e3", "1.", ".5", "nil", "yes", "True!", "1_000"])))
def test_resolving_a_plain_scalar_is_the_patterns_answer(text: str) -> None:
    assert same(yamltree.resolve_plain_12(text), reference_resolve(text))
