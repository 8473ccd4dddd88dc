"""The body scans find exactly what their plain versions (`scan_oracles.py`) find, on every text of
the real-skills corpus (also with CRLF and lone-CR line breaks) and on generated texts made of the
pieces the scans care about (docs/design/README.md *Scanning a body*)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.core import scan_oracles as oracle
from wave_lsp.core.invocation.arguments import unescaped_placeholders
from wave_lsp.core.parsing import file_references, markdown
from wave_lsp.core.parsing.text import LineIndex

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real"
CORPUS_TEXTS = sorted(CORPUS.rglob("*.md")) if CORPUS.exists() else []

PIECES = [
    "```", "````", "~~~", "```!", "```bash", " ", "   ", "    ", "\t", "\n", "\r\n", "\r", "#", "## ",
    "`", "``", "x", "é", "!", "[", "]", "(", ")", "<", ">", "\\", "$", "{", "}", "/", ".", "./",
    "scripts/", "references/a.md", "assets/", "{baseDir}/", "${WAVE_SKILL_DIR}/",
    "${CLAUDE_SKILL_DIR}", "$1", "$ARGUMENTS", "$ARGUMENTS[2]", "$name", "a-", "@", "[t](u)",
    "[r]: x.md", "*", "\n[d]: <a b>", "  [e]:", "]:",
]
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


def assert_same_scans(text: str) -> None:
    """Every scan of `text` agrees with its oracle, from several body offsets."""
    lines = LineIndex(text)
    assert (lines._starts, lines._content_ends) == oracle.line_bounds(text)
    for offset in sorted({0, len(text) // 3, len(text) // 2, len(text)}):
        _assert_same_markdown(text, offset)
        _assert_same_references(text, offset)
        _assert_same_placeholders(text, offset)


def _assert_same_markdown(text: str, offset: int, probes: Iterable[int] | None = None) -> None:
    """The structure of the body at `offset`, and `code_at`/`in_code` at each probe (every offset
    of the body when None)."""
    body = markdown.parse_body(text, offset)
    fences, spans, headings = oracle.markdown(text, offset)
    assert [(f.span, f.content, f.info, f.info_span, f.closed) for f in body.fences] == fences
    assert body.code_spans == spans
    assert [(h.level, h.text, h.span, h.text_span) for h in body.headings] == headings
    regions = sorted([fence[1] for fence in fences] + spans)
    starts = [region.start for region in regions]
    for point in range(offset, len(text) + 1) if probes is None else probes:
        index = bisect.bisect_right(starts, point) - 1
        inside = regions[index] if index >= 0 and point < regions[index].end else None
        assert body.code_at(point) == inside
        assert body.in_code(point) == (inside is not None)


def _assert_same_references(text: str, offset: int) -> None:
    links = [(m.start(), m.start(1), m.group(1)) for m in oracle.LINK.finditer(text, offset)]
    assert [(start, m.start(1), m.group(1))
            for start, m in file_references._links(text, offset)] == links
    definitions = [(m.start(), m.group(1), m.start(1))
                   for m in oracle.DEFINITION.finditer(text, offset)]
    assert list(file_references._definitions(text, offset)) == definitions
    paths = [(m.start(), m.start(1), m.group(1))
             for m in oracle.SKILL_DIR_PATH.finditer(text, offset)]
    assert [(start, m.start(2), m.group(2))
            for start, m in file_references._skill_dir_paths(text, offset)] == paths
    bare = [(m.start(1), m.end(1)) for m in oracle.BARE_PATH.finditer(text, offset)]
    assert [(span.start, span.end) for span in file_references._bare_paths(text, offset)] == bare


def _assert_same_placeholders(text: str, offset: int) -> None:
    expected = [(m.span(), m.groups()[1:]) for m in oracle.ARGUMENT.finditer(text, offset)
                if not m.group(1)]
    assert [(m.span(), m.groups()[1:]) for m in unescaped_placeholders(text, offset)] == expected


@given(texts)
@example("```\na\n```\n```\nb\n```")
@example("``x`")
@example("`a\n\nb`")
@example("`a\r\n\r\nb` `c\n\r\nd`")
@example("x\r\n```\r\ncode\r\n```\r\n# h #\r\n")
@example("a./scripts/x.sh ./scripts/y.sh x-scripts/a@assets/b")
@example("${CLAUDE_SKILL_DIR}/x${CLAUDE_SKILL_DIR}/y {WAVE_SKILL_DIR}/z")
@example("[a](x!)[b](y) ![i](j)")
@example("\\$1 $1\\$ARGUMENTS[2] $$3")
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_texts_scan_as_the_plain_versions_do(text: str) -> None:
    assert_same_scans(text)


@pytest.mark.skipif(not CORPUS_TEXTS, reason="the shared corpus is not beside the repo")
# every text of both corpora through both scanners: about 25 s alone, near a minute on a loaded
# 2-core machine
@pytest.mark.timeout(240)
def test_corpus_texts_scan_as_the_plain_versions_do() -> None:
    for path in CORPUS_TEXTS:
        text = path.read_text(encoding="utf-8", errors="replace")
        offset = text.find("\n---", 3) + 4 if text.startswith("---") else 0
        _assert_same_references(text, offset)
        _assert_same_placeholders(text, offset)
        for variant in (text, text.replace("\n", "\r\n"), text.replace("\n", "\r")):
            _assert_corpus_structure(variant)


def _assert_corpus_structure(text: str) -> None:
    """The line index and the Markdown structure, with `code_at` tried at the edges of code
    regions only (a corpus text has tens of thousands of offsets)."""
    lines = LineIndex(text)
    assert (lines._starts, lines._content_ends) == oracle.line_bounds(text)
    offset = text.find("---", 3) + 4 if text.startswith("---") else 0
    fences, spans, _ = oracle.markdown(text, offset)
    edges = [point for region in [fence[1] for fence in fences] + spans
             for point in (region.start - 1, region.start, region.end - 1, region.end)]
    _assert_same_markdown(text, offset, edges)
