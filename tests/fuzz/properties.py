"""The properties every SKILL.md text must satisfy, shared by the short run in the test suite and
the long fuzz run (`python -m tests.fuzz.long_run`)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from importlib import resources
from pathlib import Path

import jsonschema

from wave_lsp.cli import main
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.engine import check_document
from wave_lsp.core.facts.profiles import TARGETS
from wave_lsp.core.invocation.preview import invoke
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.text import LineIndex
from wave_lsp.core.workspace.location import locate

ROOT = Path(__file__).resolve().parents[2]
OUTPUT_SCHEMA = json.loads((ROOT / "schemas" / "check-output.schema.json").read_text("utf-8"))
del resources


def check_text(text: str, path: Path | None = None) -> None:
    """Never raises, ranges inside the document, deterministic — under every target."""
    document = SkillDocument.from_text(text)
    lines = LineIndex(document.text)
    end = lines.position(len(document.text))
    location = locate(path)
    for target in TARGETS:
        settings = Settings.for_target(target, personal=False)
        findings = check_document(document, location, settings, strict=True)
        for finding in findings:
            assert finding.range is not None and finding.message
            for point in (finding.range.start, finding.range.end):
                assert 0 <= point.line < lines.line_count
                assert (point.line, point.character) <= (end.line, end.character)
                assert point.character <= len(lines.line_text(point.line))
            assert finding.range.start <= finding.range.end
            for fix in finding.fixes:
                for edit in fix.edits:
                    assert 0 <= edit.span.start <= edit.span.end <= len(document.text)
        again = check_document(SkillDocument.from_text(text), location, settings, strict=True)
        assert [(f.code, f.range, f.message) for f in again] == [
            (f.code, f.range, f.message) for f in findings]


def check_preview(text: str, path: Path) -> None:
    """A dry run never raises and never runs anything."""
    document = SkillDocument.from_text(text)
    for target in ("wave", "claude-code"):
        result = invoke(document, locate(path), Settings.for_target(target, personal=False),
                        "a 'b c' $(x)", "dry-run")
        assert not any(item.executed for item in result.injections)
        assert (result.text is None) == (not result.ok)
        json.dumps(result.to_json())


def check_cli_json(path: Path) -> None:
    """`check --format json` prints valid JSON that matches its published schema."""
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["check", str(path), "--format", "json", "--no-personal"])
    assert code in (0, 1)
    jsonschema.validate(json.loads(out.getvalue()), OUTPUT_SCHEMA)
