"""Stopping a check early (wave_lsp/core/checking/engine.py `Steps`): the language server's time
budget per check resumes the steps with `send(True)`; the result holds the findings of the rules
that ran, and each checkpoint names the rule it is at (issue 35 item 3)."""

from __future__ import annotations

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.engine import check_document, check_document_steps
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate

TEXT = "---\nname: Bad Name\n---\nBody with [a link](missing.md).\n"


def test_a_stopped_check_returns_the_findings_so_far() -> None:
    document = SkillDocument.from_text(TEXT)
    settings = Settings.for_target("claude-code")
    full = check_document(document, locate(None), settings)
    steps = check_document_steps(document, locate(None), settings)
    labels = [next(steps) for _ in range(4)]
    assert all(label and "(SK" in label for label in labels), labels
    try:
        steps.send(True)
    except StopIteration as end:
        partial = end.value
    else:
        raise AssertionError("the check did not stop")
    assert len(partial) < len(full)
    assert {(f.code, f.span) for f in partial} <= {(f.code, f.span) for f in full}
