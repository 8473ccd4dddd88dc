"""In-process tests of the adapter's pure parts: position conversion, snippets for clients without
snippet support, settings parsing, and handlers that fail."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from wave_lsp.core.parsing.text import LineIndex, Span
from wave_lsp.lsp.convert import Positions, semantic_token_data
from wave_lsp.lsp.features import plain_text
from wave_lsp.lsp.server import WaveLanguageServer, safe
from wave_lsp.lsp.state import read_client_settings

TEXT = "a😀b\r\n中x\n"


@pytest.mark.parametrize(("encoding", "offset", "expected"), [
    ("utf-16", 2, (0, 3)), ("utf-8", 2, (0, 5)), ("utf-32", 2, (0, 2)),
    ("utf-16", 3, (0, 4)), ("utf-8", 6, (1, 3)), ("utf-32", 7, (1, 2)),
    ("utf-16", 8, (2, 0)),
])
def test_positions_both_ways(encoding: str, offset: int, expected: tuple[int, int]) -> None:
    positions = Positions(LineIndex(TEXT), encoding)
    assert positions.position(offset) == types.Position(*expected)
    assert positions.offset(types.Position(*expected)) == offset


def test_positions_inside_a_surrogate_pair_or_past_the_line_clamp() -> None:
    positions = Positions(LineIndex(TEXT), "utf-16")
    assert positions.offset(types.Position(0, 2)) == 1  # middle of 😀: before it
    assert positions.offset(types.Position(0, 99)) == 3  # past the end: end of line
    assert positions.offset(types.Position(99, 0)) == len(TEXT)


def test_client_byte_order_mark_shifts_the_first_line_only() -> None:
    positions = Positions(LineIndex("---\nx\n"), "utf-8", client_bom=True)
    assert positions.position(0) == types.Position(0, 3)
    assert positions.position(4) == types.Position(1, 0)
    assert positions.offset(types.Position(0, 3)) == 0


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize("bom", [False, True])
def test_many_positions_equal_one_at_a_time(encoding: str, bom: bool) -> None:
    positions = Positions(LineIndex(TEXT), encoding, client_bom=bom)
    offsets = [*range(len(TEXT) + 1), 3, 0, 7, 7, 2]  # in order, then back and forth
    assert positions.many(offsets) == [positions.position(offset) for offset in offsets]


@pytest.mark.parametrize(("encoding", "data"), [
    # `b` after 😀 (2 UTF-16 units, 4 UTF-8 bytes), then `中` on the next line and `x` after it
    ("utf-16", [0, 3, 1, 2, 1, 1, 0, 1, 0, 0, 0, 1, 1, 3, 2]),
    ("utf-8", [0, 5, 1, 2, 1, 1, 0, 3, 0, 0, 0, 3, 1, 3, 2]),
    ("utf-32", [0, 2, 1, 2, 1, 1, 0, 1, 0, 0, 0, 1, 1, 3, 2]),
])
def test_semantic_token_data_is_relative_and_in_client_units(encoding: str,
                                                             data: list[int]) -> None:
    tokens = [(Span(2, 3), 2, 1), (Span(5, 6), 0, 0), (Span(6, 7), 3, 2)]
    assert semantic_token_data(tokens, Positions(LineIndex(TEXT), encoding)) == data


@pytest.mark.parametrize(("snippet", "plain"), [
    ("description: ${1:What it does}. Use when ${2:asked}.", "description: What it does. Use when asked."),
    ("context: ${1|fork,inline|}", "context: fork"),
    ("x: $1", "x: "),
    ("Bash(node \\${WAVE_SKILL_DIR}/${1:x.mjs} *)", "Bash(node ${WAVE_SKILL_DIR}/x.mjs *)"),
    ("hooks:\n  ${1|PreToolUse,Stop|}:\n    - matcher: \"${2:Bash}\"",
     "hooks:\n  PreToolUse:\n    - matcher: \"Bash\""),
])
def test_snippets_become_plain_text(snippet: str, plain: str) -> None:
    assert plain_text(snippet) == plain


def test_client_settings_keep_what_is_valid() -> None:
    settings = read_client_settings({"target": "claude-code", "rules": {"SK070": "loud"},
                                     "preview": {"allowExecution": True}, "settingsFiles": 3})
    assert settings.raw == {"target": "claude-code", "preview": {"allowExecution": True}}
    assert settings.allow_execution is True
    assert len(settings.problems) == 2
    assert read_client_settings([1, 2]).problems


def test_a_failing_handler_is_logged_and_answers_empty(caplog) -> None:
    server = WaveLanguageServer()

    @safe(list)
    def broken(ls: WaveLanguageServer, params: object) -> list:
        raise RuntimeError("boom")

    assert broken(server, None) == []
    assert "boom" in caplog.text


def test_project_settings_survive_an_invalidate_between_store_and_read(tmp_path) -> None:
    """`settings_for` runs in the worker thread of the unopened-file findings while the event
    loop may `invalidate` (which clears the per-folder settings). Deterministic interleaving: the
    cache forgets everything right after each store; the lookup must still answer."""
    from wave_lsp.lsp.state import ServerState

    class ClearedRightAfterStore(dict):  # type: ignore[type-arg]  # a stand-in for the cache
        def __setitem__(self, key: object, value: object) -> None:
            super().__setitem__(key, value)
            self.clear()  # the loop thread's invalidate()

    state = ServerState()
    state._project_settings = ClearedRightAfterStore()
    assert state.settings_for(tmp_path / "SKILL.md").profile is not None


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_pushed_diagnostics_are_what_the_converter_makes_of_them(encoding: str,
                                                                   tmp_path: Path) -> None:
    """The push path builds each diagnostic's JSON itself (`diagnostic_json`); it must be exactly
    pygls' conversion of the typed `diagnostic`, on every finding of the examples, the sample of real
    skills in tests/data/real and, when it is beside the repository, the larger shared corpus
    (related information, tags, fixes, non-ASCII text and all)."""
    import json
    from pathlib import Path

    from pygls.protocol import default_converter

    from wave_lsp.api import check_files, load_settings
    from wave_lsp.lsp.convert import diagnostic, diagnostic_json

    converter = default_converter()
    repository = Path(__file__).resolve().parents[2]
    # the sample of real skills is copied out of `tests/`: a SKILL.md in a test suite's data is
    # one nothing loads, checked no further (docs/design/rules.md), so in place it has no finding
    import shutil

    copied = tmp_path / "real"
    shutil.copytree(repository / "tests" / "data" / "real", copied)
    (copied / ".git").mkdir()
    roots = [repository / "examples", copied, repository.parent / "shared" / "corpus" / "real"]
    compared = 0
    for root in (r for r in roots if r.exists()):
        files = sorted(root.rglob("SKILL.md"))
        for report in check_files(files, load_settings(root, target="claude-code",
                                                       personal=False)):
            if report.document is None:
                continue
            positions = Positions(report.document.lines, encoding, report.document.bom)
            uri = report.path.as_uri()
            for finding in report.findings:
                typed = json.loads(json.dumps(converter.unstructure(
                    diagnostic(finding, positions, uri))))
                assert diagnostic_json(finding, positions, uri) == typed, finding
                compared += 1
    assert compared > 100


def test_pushed_diagnostic_with_tags_and_a_related_file() -> None:
    """The parts the corpus rarely has: the Unnecessary tag, related information in another file
    (with and without a range), no fixes."""
    import json

    from pygls.protocol import default_converter

    from wave_lsp.core.checking.catalog import Severity
    from wave_lsp.core.checking.findings import Finding, Related
    from wave_lsp.core.parsing.text import Position, Range
    from wave_lsp.lsp.convert import diagnostic, diagnostic_json

    text = "---\nname: é\n---\nbody 😀 here\n"
    lines = LineIndex(text)
    finding = Finding("SK070", "unknown key `x` — ignored", Span(4, 8), data={"unnecessary": True},
                      related=[Related("the other", path="/tmp/other/SKILL.md",
                                       range=Range(Position(2, 1), Position(2, 4))),
                               Related("no range", path="/tmp/x.md"),
                               Related("here", span=Span(20, 24))],
                      severity=Severity.HINT)
    finding.resolve(lines)
    positions = Positions(lines, "utf-16")
    typed = json.loads(json.dumps(default_converter().unstructure(
        diagnostic(finding, positions, "file:///s/SKILL.md"))))
    assert diagnostic_json(finding, positions, "file:///s/SKILL.md") == typed
    assert typed["tags"] == [1] and len(typed["relatedInformation"]) == 3


def test_the_pushed_cut_short_note_is_what_the_converter_makes_of_the_pulled_one() -> None:
    """A push sends the note of a check cut short as JSON built directly; a pull returns the
    typed diagnostic: the two are the same message."""
    import json

    from pygls.protocol import default_converter

    from wave_lsp.lsp.server import CUT_SHORT_CODE, cut_short_note, cut_short_note_json

    message = "wave-lsp stopped checking this version after 1 s: the rule é took 1.2 s."
    typed = json.loads(json.dumps(default_converter().unstructure(cut_short_note(message))))
    assert cut_short_note_json(message) == typed
    assert typed["code"] == CUT_SHORT_CODE and typed["range"]["end"] == {"line": 0,
                                                                         "character": 0}


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_unit_counts_agree_with_their_definition(encoding: str) -> None:
    """`_units` counts at C speed; the count is what each encoding defines, lone surrogates and
    characters outside the Basic Multilingual Plane included."""
    from hypothesis import given
    from hypothesis import strategies as st

    from wave_lsp.lsp.convert import _units

    def defined(text: str) -> int:
        if encoding == "utf-8":
            return len(text.encode("utf-8", errors="surrogatepass"))
        if encoding == "utf-16":
            return sum(2 if ord(char) > 0xFFFF else 1 for char in text)
        return len(text)

    @given(st.text(alphabet=st.characters(codec=None), max_size=20))
    def agree(text: str) -> None:
        assert _units(text, encoding) == defined(text)

    agree()
    assert _units("a\ud800😀é", encoding) == defined("a\ud800😀é")
