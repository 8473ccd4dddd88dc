"""Every message says what is wrong and what to do in its first sentence (docs/design/rules.md
*How a message reads*; issue 29: the Problems panel cuts a message at the panel's edge, so a fix
given last is a fix nobody reads).

The messages checked are those of every golden case under every built-in target and every message
of the corpus baseline (`tests/regression/baseline/`, in the repository), so each rule is checked
in each wording its targets give it. "What to do" is an imperative at the start of a clause of the
first sentence (`Quote the value`, `…: rename it to SKILL.md`, `…; add one`); the verbs are
listed below — add a verb when a message really tells the author to do it, never to let a message
that gives no advice pass.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import cache
from pathlib import Path

import pytest

from tests.golden.test_golden import EXCEPTIONS, _case_codes, run_case
from wave_lsp.core.checking.catalog import rules
from wave_lsp.core.checking.messages import after_first_sentence, first_sentence

BASELINE = Path(__file__).parents[1] / "regression" / "baseline"
TARGETS = ["wave", "claude-code", "agentskills", "portable", "codex", "copilot", "cursor",
           "opencode", "gemini-cli"]

#: imperatives a first sentence may give the author
FIX_VERBS = sorted({
    "add", "allow", "ask", "avoid", "break", "change", "check", "choose", "close", "convert",
    "create", "declare", "define", "delete", "describe", "drop", "escape", "fix", "give", "grant",
    "include", "indent", "install", "keep", "link", "list", "lower-case", "make", "mark", "merge",
    "move", "name", "pass", "point", "put", "quote", "read", "remove", "rename", "replace",
    "restrict", "rewrite", "run", "save", "say", "set", "shorten", "spell", "split", "start",
    "state", "stop", "trust", "turn", "unquote", "use", "wrap", "write",
}, key=len, reverse=True)
_CLAUSE_START = r"(?:^|[:;,(—]\s*|\b(?:or|and|then|instead)\s+)"
FIX = re.compile(_CLAUSE_START + r"(" + "|".join(FIX_VERBS) + r")\b", re.IGNORECASE)
#: the advice starts within this many characters, so that a panel one line wide shows it
FIX_WITHIN = 200


def says_what_to_do(message: str) -> bool:
    found = FIX.search(first_sentence(message))
    return found is not None and found.start(1) <= FIX_WITHIN


@pytest.mark.parametrize(("message", "sentence"), [
    ("Rename it. Details.", "Rename it."),
    ("One sentence without a stop", "One sentence without a stop"),
    ("`a. b` is code. Next.", "`a. b` is code."),
    ('It says "stop. here" and more. Next.', 'It says "stop. here" and more.'),
    ("Use a list, e.g. `- Read`, instead. Next.", "Use a list, e.g. `- Read`, instead."),
    ("The limit is 1.5 KiB in SKILL.md files. Next.", "The limit is 1.5 KiB in SKILL.md files."),
    ("Is it? Yes.", "Is it?"),
])
def test_first_sentence(message: str, sentence: str) -> None:
    assert first_sentence(message) == sentence


@pytest.mark.parametrize(("message", "addition", "result"), [
    ("Rename it: wrong. Details.", "Dropped by Codex.", "Rename it: wrong. Dropped by Codex. Details."),
    ("Rename it", "Dropped by Codex.", "Rename it. Dropped by Codex."),
])
def test_after_first_sentence(message: str, addition: str, result: str) -> None:
    assert after_first_sentence(message, addition) == result


@pytest.mark.parametrize(("message", "expected"), [
    ("`name` has upper-case letters: write it in lower case.", True),
    ("Quote this value: YAML reads a mapping.", True),
    ("The file is named `skill.md`: Wave will not find it. Rename it to `SKILL.md`.", False),
    ("`name` is empty.", False),
    ("A used tool: nothing else.", False),  # "used" is no imperative at a clause start
    ("x" * 250 + ": rename it.", False),  # the advice would be cut off
])
def test_says_what_to_do(message: str, expected: bool) -> None:
    assert says_what_to_do(message) is expected


@cache
def _baseline_messages() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "code" in node and "message" in node:
                found.setdefault(node["code"], set()).add(node["message"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted(BASELINE.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            walk(json.load(stream))
    return found


def _golden_messages(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> set[str]:
    result = run_case(code, tmp_path, monkeypatch, targets=TARGETS)
    return {item["message"] for findings in result.values() for item in findings
            if item["code"] == code}


def test_every_code_has_messages_to_check() -> None:
    """A code without a golden case (`EXCEPTIONS`: reported outside SKILL.md) has its messages
    checked with its own tests (SK152: tests/core/test_mentions.py)."""
    assert set(_case_codes()) | set(EXCEPTIONS) == set(rules()), \
        "a code without a golden case is not checked here"


@pytest.mark.parametrize("code", _case_codes())
def test_first_sentence_says_what_to_do(code: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    messages = _golden_messages(code, tmp_path, monkeypatch) | _baseline_messages().get(code, set())
    assert messages, f"{code}: no message to check"
    wrong = sorted(m for m in messages if not says_what_to_do(m))
    assert not wrong, f"{code}: {len(wrong)} of {len(messages)} messages give no advice in their " \
                      f"first sentence, e.g. {wrong[:3]}"
