"""The Codex 0.171.0 and OpenCode 1.18.33 facts the differential harness measured
(docs/design/runtime-facts.md §9.10; tests/oracle/cases/cx-*, oc-*), as table-driven unit tests of
the code that models them, so that they hold in a clone with no runtime installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import run
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.facts.loaders import codex_reading, unclosed_values
from wave_lsp.core.facts.profiles import CODEX, OPENCODE, PROFILES
from wave_lsp.core.invocation.arguments import (
    argument_references,
    declared_names,
    last_takes_rest,
    plain_placeholders,
    split_arguments,
    takes_rest,
)
from wave_lsp.core.invocation.listing import runtime_listing_entry
from wave_lsp.core.invocation.preview import invoke
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate

FM = "name: s\ndescription: d\n"


@pytest.mark.parametrize(("body", "raw", "rendered"), [
    ("zero=$0 one=$1 two=$2", 'a "b c" d e', "zero=undefined one=a two=b c d e"),  # indexed
    ("escaped=\\$1 glued=$1x all=$ARGUMENTS", "p q", "escaped=\\p q glued=p qx all=p q"),  # escape
    ("$1 and $3", "a b", "a and "),  # past the last word: nothing
    ("only=$0", "a b", "only=b"),  # `$0` the highest: `args.slice(-1)`
    ("only=$0", "", "only="),
    ("x=$ARGUMENTS", "a $& b", "x=a $ARGUMENTS b"),  # `replaceAll`'s `$&` is the match
    # oc-args-names: no `$ARGUMENTS[N]`, no names, and the only `$N` takes every word
    ("indexed=$ARGUMENTS[1] named=$issue first=$1", "A B", "indexed=A B[1] named=$issue first=A B"),
])
def test_opencode_placeholders(body: str, raw: str, rendered: str) -> None:
    assert last_takes_rest(body, raw, split_arguments(raw, OPENCODE)) == rendered


@pytest.mark.parametrize(("body", "rest"), [
    # the highest `$N` written takes every word from N on: which reference is flagged
    ("Copy $1 to $2.", {"$2"}),
    ("Use $1.", {"$1"}),
    ("Use $2, then $1, then $2 again.", {"$2"}),  # every occurrence of the highest
    ("Use $0.", {"$0"}),  # `args.slice(-1)`: the last word
    ("Use $0 and $1.", {"$1"}),
    ("Prose $1, code `$3`.", {"$3"}),  # the highest of the whole body, code included
    ("Only $ARGUMENTS.", set()),
])
def test_the_highest_placeholder_takes_the_rest(body: str, rest: set[str]) -> None:
    references = list(argument_references(body, [], profile=OPENCODE))
    assert {r.text for r in references if r.rest} == rest
    # no other target has the rule
    assert not any(r.rest for name, profile in PROFILES.items() if name != "opencode"
                   for r in argument_references(body, [], profile=profile))


@given(st.lists(st.sampled_from(["$0", "$1", "$2", "$3", "$ARGUMENTS"]), min_size=1, max_size=6),
       st.integers(min_value=0, max_value=4))
def test_references_agree_with_the_substitution(placeholders: list[str], count: int) -> None:
    """What hover, inlay hints and the rules say each placeholder becomes (a reference's word and
    its `rest`) is what OpenCode's substitution puts there."""
    body = "|".join(placeholders)
    words = [f"w{n}" for n in range(1, count + 1)]
    values = last_takes_rest(body, " ".join(words), words).split("|")
    for reference, value in zip(argument_references(body, [], profile=OPENCODE), values,
                                strict=True):
        word = reference.word([], OPENCODE)
        if reference.everything:
            expected = " ".join(words)
        elif word is None:  # `$0`: `undefined`, or the last word when it is the highest
            expected = " ".join(words[-1:]) if reference.rest else "undefined"
        elif word >= len(words):
            expected = ""
        else:
            expected = " ".join(words[word:]) if reference.rest else words[word]
        assert value == expected, (body, words)


@pytest.mark.parametrize(("target", "plain", "rest", "names"), [
    # one profile fact, `argument_syntax`, read through `arguments` by the rules, completion,
    # hover and inlay hints alike
    ("claude-code", False, False, ["issue"]),
    ("wave", True, False, []),
    ("opencode", True, True, []),
    ("copilot-cli", False, False, ["issue"]),
])
def test_which_placeholders_a_target_has(target: str, plain: bool, rest: bool,
                                         names: list[str]) -> None:
    profile = PROFILES[target]
    assert (plain_placeholders(profile), takes_rest(profile)) == (plain, rest)
    assert declared_names(["issue"], profile) == names


@pytest.mark.parametrize(("raw", "words"), [
    ('a "b c" d', ["a", "b c", "d"]), ("'x y' z", ["x y", "z"]),
    ('ab"cd ef"', ["ab", "cd ef"]), ("[Image 1] t", ["[Image 1]", "t"]), ("  ", []),
])
def test_opencode_words(raw: str, words: list[str]) -> None:
    assert split_arguments(raw, OPENCODE) == words


@given(st.text(alphabet="ab $0123\\\"'", max_size=12), st.text(alphabet="ab \"'", max_size=10))
def test_opencode_substitution_never_fails(body: str, raw: str) -> None:
    rendered = last_takes_rest(body, raw, split_arguments(raw, OPENCODE))
    assert "$1" not in rendered or "$1" in raw


def _preview(tmp_path: Path, profile_name: str, text: str, arguments: str) -> str:
    path = tmp_path / ".agents/skills/s/SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    home = tmp_path / "home"
    result = invoke(SkillDocument.from_text(text), locate(path, home=home),
                    Settings.for_target(profile_name, home=home), arguments)
    assert result.ok and result.text is not None, result.error
    return result.text


BASE = ("\n\nBase directory for this skill: {dir}\nRelative paths in this skill (e.g., scripts/, "
        "references/) are relative to this base directory.")


@pytest.mark.parametrize(("body", "arguments", "expected"), [
    ("\n# Plain\n\nDo it.\n", "", "# Plain\n\nDo it.\n" + BASE),  # oc-body-newline
    ("\nSummarise.\n", "alpha beta", "Summarise.\n" + BASE + "\n\nalpha beta"),  # oc-args-appended
    ("\nUse $1.\n", "a b", "Use a b.\n" + BASE),  # the only `$N` takes every word
])
def test_opencode_command_template(tmp_path: Path, body: str, arguments: str,
                                   expected: str) -> None:
    shown = _preview(tmp_path, "opencode", f"---\n{FM}---{body}", arguments)
    assert shown == expected.format(dir=(tmp_path / ".agents/skills/s").as_posix())


@pytest.mark.parametrize(("frontmatter", "loads"), [
    (FM + "x-extra: {a: [1}\n", True),  # an unknown key's broken flow is read as text
    (FM + "metadata: {a: [1}\n", False),  # read as text, `metadata` is then no mapping
    ("name: s\ndescription: [a] [b] text\n", True),
    ("name: s\ndescription: first\ndescription: second\n", False),  # a field it reads, twice
    (FM + "color: red\ncolor: blue\n", True),  # an unknown key twice
    (FM + "metadata:\n  short-description: a: b\n", True),  # at any depth
    ("name: s\ndescription: line one\n  continued: here\n", False),
    (FM + "paths: **/*.ts\n", False),  # an alias to no anchor
    ('name: s\ndescription: "unterminated\n', False),
    ("name: s\r\ndescription: Use when: crlf\r\n", True),
])
def test_codex_reading(frontmatter: str, loads: bool) -> None:
    values, why = codex_reading(frontmatter)
    assert (values is not None) is loads, why


def test_codex_reads_the_text_as_written() -> None:
    values, _ = codex_reading("name: s\ndescription: [a] [b] text\n")
    assert values == {"name": "s", "description": "[a] [b] text"}


@pytest.mark.parametrize(("rest", "fields"), [
    ("name: s\ndescription: d\n", {"name": "s", "description": "d"}),  # loads, no body
    ("name: s\ndescription: d\n\nBody text.\n", None),  # the body breaks the YAML: dropped
    ("name: s\ndescription: Use when: x\n", {"name": "s", "description": "Use when: x"}),
])
def test_opencode_reads_an_unclosed_frontmatter_to_the_end(rest: str,
                                                           fields: dict[str, str] | None) -> None:
    assert unclosed_values(OPENCODE, rest) == fields


def _entry(tmp_path: Path, profile_name: str, text: str) -> tuple[str, bool]:
    path = tmp_path / ".agents/skills/s/SKILL.md"
    entry = runtime_listing_entry(SkillDocument.from_text(text), locate(path, home=tmp_path / "h"),
                                  {"codex": CODEX, "opencode": OPENCODE}[profile_name])
    return entry.text, entry.model_invocable


def test_codex_listing_line(tmp_path: Path) -> None:
    path = (tmp_path / ".agents/skills/s/SKILL.md").as_posix()
    text = "---\nname: s\ndescription: >-\n  two\n  lines   here\nwhen_to_use: never shown\n" \
           "disable-model-invocation: true\n---\n"
    assert _entry(tmp_path, "codex", text) == (f"- s: two lines here (file: {path})", True)
    long = "x " * 700
    line, _ = _entry(tmp_path, "codex", f"---\nname: s\ndescription: {long}\n---\n")
    assert line == f"- s: {long.strip()[:1021]}... (file: {path})"


@pytest.mark.parametrize(("description", "listed", "cut"), [
    # Codex 0.171.0 measures and lists the description on one line (cx-description-1100)
    ('"a  b\\n\\t c"', "a b c", False),
    ('"' + "x" * 1024 + '"', "x" * 1024, False),
    ('"' + "x" * 1025 + '"', "x" * 1021 + "...", True),
    # 1,101 characters as written, 3 on one line: over the spec's limit, not cut by Codex
    ('"a' + " " * 1099 + 'b"', "a b", False),
    ("|\n" + "  word\n" * 300, ("word " * 300)[:1021] + "...", True),
])
def test_codex_listing_and_sk053_measure_the_description_alike(
        tmp_path: Path, description: str, listed: str, cut: bool) -> None:
    """One fact (`collapses_description`, `listing_description_cut`) read by the listing line and
    by SK053: SK053 says the listing cuts the description exactly when the line is cut."""
    (tmp_path / ".git").mkdir()
    text = f"---\nname: s\ndescription: {description}\n---\nBody\n"
    line, _ = _entry(tmp_path, "codex", text)
    assert line.startswith(f"- s: {listed} (file: ")
    report = run(tmp_path, text, target="codex", relpath=".agents/skills/s/SKILL.md")
    says_cut = [f for f in report.findings if f.code == "SK053" and "lists only the first 1,021 "
                "characters of the description and `...`" in f.message]
    assert bool(says_cut) is cut, [f.message for f in report.findings]


@pytest.mark.parametrize(("short", "rejected"), [
    ("x" * 1024, False), ("x" * 1025, True),
    ("|\n" + "    x\n" * 600, True),  # 1,199 on one line
    ("|\n" + "    x\n" * 512, False),  # 1,023 on one line, 1,024 as written
    ('"a' + " " * 1100 + 'b"', False),
])
def test_codex_measures_the_short_description_on_one_line(tmp_path: Path, short: str,
                                                          rejected: bool) -> None:
    (tmp_path / ".git").mkdir()
    text = f"---\nname: s\ndescription: d\nmetadata:\n  short-description: {short}\n---\nBody\n"
    report = run(tmp_path, text, target="codex", relpath=".agents/skills/s/SKILL.md")
    assert any(f.code == "SK053" for f in report.findings) is rejected


def test_opencode_listing_element(tmp_path: Path) -> None:
    path = (tmp_path / ".agents/skills/s/SKILL.md").as_posix()
    text = "---\nname: s\ndescription: For <tags> & \"quotes\".\n---\n"
    assert _entry(tmp_path, "opencode", text) == (
        f"<skill>\n    <name>s</name>\n    <description>For <tags> & \"quotes\".</description>\n"
        f"    <location>{path}</location>\n  </skill>", True)
    assert _entry(tmp_path, "opencode", "---\nname: s\n---\nBody\n") == ("", True)
