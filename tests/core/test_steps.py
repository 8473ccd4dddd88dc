"""Resumable checks (docs/design/lsp.md *Edits coalesce*): `check_document_steps` and
`check_file_steps` pause at checkpoints between rules and between the findings of a rule, give the
same findings as the one-shot functions when run to the end, and run no further rule once
abandoned (closed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from wave_lsp.core.checking import engine
from wave_lsp.core.checking.checker import check_file, check_file_steps
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.engine import check_document, check_document_steps, run_to_end
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.registry import Check
from wave_lsp.core.workspace.location import locate
from wave_lsp.core.workspace.session import WorkspaceSession

SKILLS = {
    "clean": "---\nname: clean\ndescription: Does it. Use when asked.\n---\n# Clean\n",
    "busy": ("---\nname: busy\ndescription: x\nallowed-tools: [Bash(rm *), Nope]\n---\n"
             "Run !`rm -rf /` with $0 and ${WAVE_NOPE}; read [a](references/missing.md).\n"),
    "no-frontmatter": "# Just a heading\n",
}


def _skill(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / ".wave/skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    (tmp_path / ".git").mkdir(exist_ok=True)
    return path


def _summary(findings: list[Finding]) -> list[tuple[str, int, int, str]]:
    return [(f.code, f.span.start, f.span.end, f.message) for f in findings]


@pytest.mark.parametrize("name", sorted(SKILLS))
def test_steps_run_to_the_end_find_what_the_one_shot_check_finds(tmp_path: Path,
                                                                 name: str) -> None:
    path = _skill(tmp_path, name, SKILLS[name])
    settings = Settings(home=tmp_path / "home")
    once = check_file(path, settings, session=WorkspaceSession())
    stepped = run_to_end(check_file_steps(path, settings, session=WorkspaceSession()))
    assert _summary(stepped.findings) == _summary(once.findings)
    assert stepped.verdict == once.verdict and stepped.skill == once.skill
    document = SkillDocument.from_text(SKILLS[name])
    location = locate(path, home=settings.home)
    assert _summary(run_to_end(check_document_steps(document, location, settings))) == \
        _summary(check_document(document, location, settings))


class _Recorder:
    """Fake rules that record which ran and how far: `first` yields two findings, `second` one."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def checks(self) -> tuple[Check, ...]:
        return (Check(("SK001",), self.first), Check(("SK002",), self.second))

    def first(self, ctx: CheckContext) -> Iterator[Finding]:
        self.events.append("first started")
        try:
            yield ctx.finding("SK001", Span(0, 1), "one")
            self.events.append("first resumed")
            yield ctx.finding("SK001", Span(1, 2), "two")
            self.events.append("first ended")
        finally:
            self.events.append("first closed")

    def second(self, ctx: CheckContext) -> Iterator[Finding]:
        self.events.append("second started")
        yield ctx.finding("SK002", Span(0, 1), "three")


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> _Recorder:
    recorded = _Recorder()
    monkeypatch.setattr(engine, "all_checks", recorded.checks)
    return recorded


def _steps(tmp_path: Path):  # type: ignore[no-untyped-def]  # a generator of the engine's type
    path = tmp_path / "s/SKILL.md"
    document = SkillDocument.from_text("---\nname: s\n---\nbody\n")
    return check_document_steps(document, locate(path), Settings())


def test_a_checkpoint_before_each_rule_and_after_each_finding(tmp_path: Path,
                                                              recorder: _Recorder) -> None:
    steps = _steps(tmp_path)
    next(steps)
    assert recorder.events == []  # paused before the first rule
    next(steps)
    assert recorder.events == ["first started"]  # paused after its first finding
    next(steps)
    assert recorder.events == ["first started", "first resumed"]
    next(steps)  # the first rule ended: paused before the second
    assert recorder.events[-2:] == ["first ended", "first closed"]
    assert "second started" not in recorder.events
    next(steps)
    assert recorder.events[-1] == "second started"
    findings = run_to_end(steps)
    assert [f.message for f in findings] == ["one", "three", "two"]  # sorted by position


def test_an_abandoned_run_stops_where_it_was_and_runs_no_further_rule(tmp_path: Path,
                                                                      recorder: _Recorder) -> None:
    steps = _steps(tmp_path)
    next(steps)
    next(steps)  # inside the first rule, after its first finding
    steps.close()
    assert recorder.events == ["first started", "first closed"]  # the rule itself was closed
    with pytest.raises(StopIteration):
        next(steps)
    assert "second started" not in recorder.events


def test_a_failing_rule_is_skipped_between_checkpoints(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(ctx: CheckContext) -> Iterator[Finding]:
        yield ctx.finding("SK001", Span(0, 1), "before the failure")
        raise RuntimeError("a bug in a rule")

    def fine(ctx: CheckContext) -> Iterator[Finding]:
        yield ctx.finding("SK002", Span(2, 3), "after")

    monkeypatch.setattr(engine, "all_checks",
                        lambda: (Check(("SK001",), broken), Check(("SK002",), fine)))
    findings = run_to_end(_steps(tmp_path))
    assert [f.message for f in findings] == ["before the failure", "after"]
    with pytest.raises(RuntimeError):
        run_to_end(check_document_steps(SkillDocument.from_text("---\nname: s\n---\n"),
                                        locate(tmp_path / "s/SKILL.md"), Settings(), strict=True))
