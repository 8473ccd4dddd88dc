"""The quick schema test (`wave_lsp.core.checking.quick_schema`) never vouches for a value that
jsonschema rejects, vouches for the usual valid values (so they need no jsonschema), and the check
of a plain skill really imports neither jsonschema nor the permission engine and its shell parser."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.quick_schema import surely_valid

FIELDS = sorted(schema.fields())
HOOK = {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi", "timeout": 5}]}


def jsonschema_errors(name: str, value: object) -> list[str]:
    validator = Draft202012Validator(schema.fields()[name].schema)
    return [error.message for error in validator.iter_errors(value)]


# field, value, what the quick test answers (True: valid for sure; False: ask jsonschema)
CASES = [
    ("name", "pdf-extract", True),
    ("name", "Meeting Notes", False),        # pattern
    ("name", "a" * 65, False),                # maxLength
    ("name", 42, False),                      # type
    ("description", "Does X. Use when asked.", True),
    ("description", "", False),               # minLength
    ("description", "é" * 1024, True),        # code points, not bytes
    ("description", "é" * 1025, False),
    ("description", None, False),
    ("metadata", {"version": "2", "author": "me"}, True),
    ("metadata", {"version": 2}, False),
    ("metadata", {1: "x"}, True),             # keys are not constrained
    ("allowed-tools", "Read Grep", True),
    ("allowed-tools", ["Read", "Bash(git:*)"], True),
    ("allowed-tools", ["Read", 3], False),
    ("allowed-tools", ("Read",), False),      # not a list for jsonschema either
    ("effort", "high", True),
    ("effort", 3, True),
    ("effort", 0, False),                     # minimum
    ("effort", 3.0, False),                   # an integer for jsonschema: not decided here
    ("effort", True, False),                  # a boolean is not an integer
    ("effort", "extreme", False),
    ("context", "fork", True),
    ("context", "forked", False),
    ("context", True, False),
    ("disable-model-invocation", True, True),
    ("disable-model-invocation", "yes", False),
    ("disable-model-invocation", 1, False),
    ("hooks", {"PreToolUse": [HOOK]}, True),
    ("hooks", {"PreToolUse": [{"matcher": "Bash"}]}, False),          # required `hooks`
    ("hooks", {"PreToolUse": [{**HOOK, "hooks": [{"type": "command", "timeout": 0}]}]}, False),
    ("hooks", {"PreToolUse": [{**HOOK, "hooks": [{"type": "x", "timeout": math.nan}]}]}, False),
    ("hooks", {"PreToolUse": [{**HOOK, "hooks": [{"type": "x", "timeout": Decimal(1)}]}]},
     False),
    ("hooks", {"OnFire": [HOOK]}, False),     # propertyNames
    ("hooks", {1: [HOOK]}, False),
    ("paths", ["src/**/*.ts"], True),
    ("shell", "bash", True),
    ("shell", "fish", False),
]


@pytest.mark.parametrize(("name", "value", "quick"), CASES)
def test_quick_answer_and_jsonschema_agree(name: str, value: object, quick: bool) -> None:
    assert surely_valid(schema.fields()[name].schema, value) is quick
    if quick:
        assert jsonschema_errors(name, value) == []


def test_unknown_keywords_and_schemas_are_left_to_jsonschema() -> None:
    assert surely_valid({"type": "string", "format": "email"}, "x") is False
    assert surely_valid({"$ref": "#/$defs/x"}, "x") is False
    assert surely_valid({"patternProperties": {"^a": {}}, "additionalProperties": False},
                        {"a": 1}) is False
    assert surely_valid({"description": "only annotations", "x-rule": "SK001"}, object()) is True
    assert surely_valid(True, 1) is True and surely_valid(False, 1) is False


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True),
                    st.sampled_from(["", "fork", "inline", "high", "bash", "Read", "pdf-extract",
                                     "PreToolUse", "Bad Name", "type", "hooks", "command"]),
                    st.text(max_size=5))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.one_of(st.sampled_from(["hooks", "type", "matcher", "timeout", "command",
                                               "PreToolUse", "Stop"]), st.text(max_size=3),
                              st.integers(0, 2)), inner, max_size=3)), max_leaves=12)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIELDS), values)
def test_never_vouches_for_a_value_jsonschema_rejects(name: str, value: object) -> None:
    if surely_valid(schema.fields()[name].schema, value):
        assert jsonschema_errors(name, value) == []


def test_validate_field_gives_the_same_issues_with_or_without_the_quick_test(monkeypatch) -> None:
    with_quick = {(n, repr(v)): schema.validate_field(n, v) for n, v, _ in CASES}
    monkeypatch.setattr(schema, "surely_valid", lambda _schema, _value: False)
    without = {(n, repr(v)): schema.validate_field(n, v) for n, v, _ in CASES}
    assert with_quick == without
    assert any(with_quick.values())


IMPORTED = """
import json, sys
from wave_lsp.cli import main
code = main(["check", "--no-personal", "--format", "json", sys.argv[1]])
heavy = ("jsonschema", "tree_sitter", "tree_sitter_bash", "wave_lsp.core.permissions.shell")
print(json.dumps({"heavy": sorted(m for m in heavy if m in sys.modules)}), file=sys.stderr)
"""
PLAIN = "---\nname: {name}\ndescription: Does X. Use when asked.\n---\n# Body\nRun `make`.\n"


def heavy_modules(tmp_path: Path, folder: str, text: str) -> tuple[list[str], dict]:
    path = tmp_path / folder / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(text.format(name=folder), "utf-8")
    done = subprocess.run([sys.executable, "-c", IMPORTED, str(path)], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path, check=False)
    heavy = json.loads(done.stderr.strip().splitlines()[-1])["heavy"]
    return heavy, json.loads(done.stdout)


@pytest.mark.parametrize(("text", "heavy", "codes"), [
    (PLAIN, [], []),
    (PLAIN.replace("Use when asked.\n", "Use when asked.\ncontext: forked\n"),
     ["jsonschema"], ["SK092"]),
    (PLAIN.replace("Run `make`.", "Title: !`gh pr view --json title`"),
     # SK123 only: SK120 is not said again beside the SK123 of the same injection
     ["tree_sitter", "tree_sitter_bash", "wave_lsp.core.permissions.shell"], ["SK123"]),
])
def test_what_a_check_imports(tmp_path: Path, text: str, heavy: list[str],
                              codes: list[str]) -> None:
    imported, report = heavy_modules(tmp_path, "my-skill", text)
    assert imported == heavy
    found = [f["code"] for f in report["files"][0]["findings"]]
    assert all(code in found for code in codes)
