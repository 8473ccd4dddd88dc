"""The server keeps answering while pathological input is open (issue 35, *Done when*: "a wildcard
rule of 50 stars and a 64-level pyproject leave the server answering"): a skill whose
`allowed-tools` and the project's deny rules hold a 50-star wildcard, with an injected command the
rule almost matches (the old regex backtracked for hours on it), in a project whose pyproject
nests `[tool.wave-lsp]` 64 levels deep and whose Claude Code settings hold the same rule. The test
asserts answers — the pathological document's diagnostics, and hover, completion and diagnostics of
a normal document — each within the helpers' generous deadline: a hang fails, speed is measured
in benchmarks/bounded.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import PROFILES, SERVER, make_workspace, start
from tests.lsp.helpers import answer, diagnostics, encoding_of, open_document, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

STARS = "echo " + "*a" * 50 + "*b"
EVIL = (f"---\nname: evil\ndescription: Echoes. Use when asked.\nallowed-tools: Bash({STARS})\n"
        f"---\nRun !`echo {'a' * 300}` now.\n\nThen !`echo {'a' * 60}b`.\n")
NORMAL = "---\nname: normal\ndescription: Formats notes. Use when asked.\n---\n# Notes\n"


def pathological_workspace(root: Path) -> Path:
    make_workspace(root)
    nested = ".".join(f"level{index}" for index in range(64))
    inline = "{a = " * 64 + "1" + "}" * 64
    (root / "pyproject.toml").write_text(
        f"[tool.wave-lsp]\ntarget = \"claude-code\"\n[tool.wave-lsp.{nested}]\nx = {inline}\n",
        "utf-8")
    settings = root / ".claude/settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"permissions": {"deny": [f"Bash({STARS})"],
                                                    "ask": [f"Bash({STARS} *)"]}}), "utf-8")
    return root


@pytest_lsp.fixture(scope="module", params=PROFILES, config=SERVER)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory):
    root = pathological_workspace(tmp_path_factory.mktemp("pathological"))
    lsp_client.root = root  # type: ignore[attr-defined]
    await start(lsp_client, request.param, root)
    yield
    await lsp_client.shutdown_session()


async def test_the_server_answers_with_a_fifty_star_rule_open(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    evil = open_document(client, root / ".claude/skills/evil/SKILL.md", EVIL)
    normal = open_document(client, root / ".claude/skills/normal/SKILL.md", NORMAL)
    encoding = encoding_of(client)
    hover = await answer(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=normal),
        position=position_of(NORMAL, "description", 1, encoding))), "hover")
    assert hover is not None and "description" in hover.contents.value.lower()
    completion = await answer(client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=normal),
        position=position_of(NORMAL, "# Notes", 0, encoding))), "completion")
    assert completion is not None
    assert not any(d.severity == types.DiagnosticSeverity.Error
                   for d in await diagnostics(client, normal))
    found = await diagnostics(client, evil)
    lines = {(d.code, d.range.start.line) for d in found}
    # the first command almost matches the deny rule (no final `b`): Claude Code runs it as a
    # read-only command; the second matches it: denied, so the invocation aborts
    assert ("SK120", 5) in lines and ("SK123", 5) not in lines, lines
    assert ("SK123", 7) in lines, lines
    rule_hover = await answer(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=evil),
        position=position_of(EVIL, "!`echo", 3, encoding))), "hover on the injection")
    assert rule_hover is not None and "echo" in rule_hover.contents.value
