"""The language server under each target of issue 28 (setting `wave.target`), through pytest-lsp:
the diagnostic only that target gives for one skill (tests/target_cases.py), a change of target
re-checks the open file, and an unknown target is logged with the valid ones
(docs/design/targets-facts.md *Every surface*)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, start
from tests.lsp.helpers import diagnostics, diagnostics_until, open_document
from tests.target_cases import (
    COLON_CHARACTER,
    COLON_FINDING,
    COLON_LINE,
    COLON_SKILL,
    EXPECTED,
    NEW_TARGETS,
    write_colon_project,
)
from wave_lsp.core.facts.profiles import TARGETS

SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "information": types.DiagnosticSeverity.Information,
            "hint": types.DiagnosticSeverity.Hint}


@pytest_lsp.fixture(config=SERVER, params=NEW_TARGETS)
async def configured(lsp_client: LanguageClient, request: pytest.FixtureRequest,
                     tmp_path: Path):
    write_colon_project(tmp_path)
    lsp_client.target = request.param  # type: ignore[attr-defined]
    await start(lsp_client, "visual-studio-code", tmp_path, settings={"target": request.param})
    yield
    await lsp_client.shutdown_session()


def colon_findings(found: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in found if d.code == COLON_FINDING]


def says(phrase: str) -> Callable[[list[types.Diagnostic]], bool]:
    """The condition: the colon finding's message holds `phrase`."""
    return lambda found: any(phrase in d.message for d in colon_findings(found))


async def test_the_diagnostic_is_the_targets_own(configured: LanguageClient,
                                                 tmp_path: Path) -> None:
    target = configured.target  # type: ignore[attr-defined]
    expected = EXPECTED[target]
    path = write_colon_project(tmp_path, target)  # in a root the target scans
    uri = open_document(configured, path, COLON_SKILL)
    [finding] = colon_findings(await diagnostics(configured, uri))
    assert finding.severity == SEVERITY[expected.severity]
    assert finding.range.start == types.Position(COLON_LINE, COLON_CHARACTER)
    assert expected.says in finding.message
    assert not [t for t, other in EXPECTED.items() if t != target and other.says in
                finding.message]


@pytest_lsp.fixture(config=SERVER)
async def vscode(lsp_client: LanguageClient, tmp_path: Path):
    write_colon_project(tmp_path)
    await start(lsp_client, "visual-studio-code", tmp_path, settings={"target": "codex"})
    yield
    await lsp_client.shutdown_session()


async def test_changing_the_target_re_checks_the_open_file(vscode: LanguageClient,
                                                           tmp_path: Path) -> None:
    uri = open_document(vscode, write_colon_project(tmp_path), COLON_SKILL)
    [codex] = colon_findings(await diagnostics(vscode, uri))
    assert codex.severity == SEVERITY[EXPECTED["codex"].severity]
    assert EXPECTED["codex"].says in codex.message
    for target in ("opencode", "copilot", "gemini-cli"):
        vscode.set_configuration({"target": target, "personalSkills": False}, section="wave")
        vscode.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings=None))
        found = await diagnostics_until(vscode, uri, says(EXPECTED[target].says))
        assert [d.severity for d in colon_findings(found)] == [
            SEVERITY[EXPECTED[target].severity]]


async def test_an_unknown_target_is_logged_with_the_valid_ones(vscode: LanguageClient,
                                                               tmp_path: Path) -> None:
    vscode.set_configuration({"target": "nope", "personalSkills": False}, section="wave")
    vscode.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    uri = open_document(vscode, write_colon_project(tmp_path), COLON_SKILL)
    # the default (no target: the one that fits `.agents/skills`, read as `portable` across the
    # runtimes that scan it) replaces the unknown one
    await diagnostics_until(vscode, uri, lambda found: any(
        "Dropped by" in d.message for d in colon_findings(found)))
    logged = [m.message for m in vscode.log_messages if "'nope'" in m.message]
    assert logged, [m.message for m in vscode.log_messages]
    assert logged[0].startswith("wave-lsp: wave.target: unknown target 'nope'; choose one of ")
    assert all(name in logged[0] for name in TARGETS)
    assert logged[0].endswith("; using the default")
