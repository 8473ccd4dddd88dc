"""Inlay hints and semantic tokens through a real client (VS Code: UTF-16, Neovim 0.11: UTF-8):
the legend, the decoded token integers at exact positions (an emoji before a token makes the
encoding matter), range requests, and the hints' labels, positions and tooltips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, make_workspace, start
from tests.lsp.helpers import answer, encoding_of, open_document, position_of, wait_until
from wave_lsp.core.features.inlay import short_label

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = """---
name: deco
description: Decorations. Use when asked.
arguments: [issue]
allowed-tools: Bash(echo *)
---
Fix $1 in ${WAVE_SKILL_DIR}.
😀 中文 $ARGUMENTS, ${WAVE_SESSION_ID} and \\$2
Say: !`echo 😀 hi` then !`curl x` and !`git push`
```!
echo $1
```
"""

#: the legend the server must declare, in this order (the integers index into it)
TOKEN_TYPES = ["macro", "function", "variable", "parameter"]
TOKEN_MODIFIERS = ["readonly", "defaultLibrary"]


def write(workspace: Path, text: str) -> Path:
    path = workspace / ".wave/skills/deco/SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    (workspace / ".wave/settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(curl *)"]}}), "utf-8")
    return path


def decode(data: list[int], legend: types.SemanticTokensLegend
           ) -> list[tuple[int, int, int, str, set[str]]]:
    """The protocol's relative integers back to (line, start, length, type, modifiers)."""
    assert len(data) % 5 == 0, data
    result, line, start = [], 0, 0
    for index in range(0, len(data), 5):
        delta_line, delta_start, length, kind, bits = data[index:index + 5]
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        modifiers = {name for bit, name in enumerate(legend.token_modifiers) if bits & (1 << bit)}
        result.append((line, start, length, legend.token_types[kind], modifiers))
    return result


def expected_tokens(text: str, encoding: str, items: list[tuple[str, str, set[str]]]
                    ) -> list[tuple[int, int, int, str, set[str]]]:
    """(needle, type, modifiers) → decoded form; each needle is searched after the previous one."""
    result, position = [], 0
    for needle, kind, modifiers in items:
        index = text.index(needle, position)
        start = _position(text, index, encoding)
        end = _position(text, index + len(needle), encoding)
        assert start.line == end.line, needle
        result.append((start.line, start.character, end.character - start.character, kind,
                       modifiers))
        position = index + len(needle)
    return result


def _position(text: str, index: int, encoding: str) -> types.Position:
    """The position of offset `index` in `encoding` units (counted here, not by the server)."""
    prefix = text[text.rfind("\n", 0, index) + 1:index]
    units = {"utf-8": len(prefix.encode("utf-8")), "utf-32": len(prefix)}.get(
        encoding, len(prefix.encode("utf-16-le")) // 2)
    return types.Position(text.count("\n", 0, index), units)


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def test_capabilities_declare_the_legend(client: LanguageClient) -> None:
    capabilities = client.initialize_result.capabilities
    provider = capabilities.semantic_tokens_provider
    assert provider is not None and provider.full and provider.range
    assert list(provider.legend.token_types) == TOKEN_TYPES
    assert list(provider.legend.token_modifiers) == TOKEN_MODIFIERS
    assert capabilities.inlay_hint_provider is not None


async def test_semantic_tokens_decode_to_exact_positions(client: LanguageClient,
                                                        workspace: Path) -> None:
    uri = open_document(client, write(workspace, TEXT), TEXT)
    result = await answer(client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc(uri))), "semanticTokens/full")
    legend = client.initialize_result.capabilities.semantic_tokens_provider.legend
    builtin, constant = {"defaultLibrary"}, {"readonly", "defaultLibrary"}
    assert decode(list(result.data), legend) == expected_tokens(TEXT, encoding_of(client), [
        ("$1", "parameter", builtin), ("${WAVE_SKILL_DIR}", "variable", constant),
        ("$ARGUMENTS", "parameter", builtin), ("${WAVE_SESSION_ID}", "variable", constant),
        ("$2", "parameter", builtin),  # Wave has no escape: `\\$2` is substituted
        ("!`", "macro", set()), ("echo 😀 hi", "function", set()), ("`", "macro", set()),
        ("!`", "macro", set()), ("curl x", "function", set()), ("`", "macro", set()),
        ("!`", "macro", set()), ("git push", "function", set()), ("`", "macro", set()),
        # Wave never splices arguments into a command: `$1` there is command text
        ("```!", "macro", set()), ("echo $1", "function", set()), ("```", "macro", set()),
    ])


async def test_semantic_tokens_range(client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, write(workspace, TEXT), TEXT)
    line = TEXT.splitlines().index("😀 中文 $ARGUMENTS, ${WAVE_SESSION_ID} and \\$2")
    result = await answer(client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(text_document=doc(uri), range=types.Range(
            types.Position(line, 0), types.Position(line + 1, 0)))), "semanticTokens/range")
    legend = client.initialize_result.capabilities.semantic_tokens_provider.legend
    constant = {"readonly", "defaultLibrary"}
    # relative to the start of the document, like a full answer
    assert decode(list(result.data), legend) == expected_tokens(TEXT, encoding_of(client), [
        ("$ARGUMENTS", "parameter", {"defaultLibrary"}),
        ("${WAVE_SESSION_ID}", "variable", constant), ("$2", "parameter", {"defaultLibrary"})])


async def inlay_hints(client: LanguageClient, uri: str, first: int, last: int
                      ) -> list[types.InlayHint]:
    found = await answer(client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=doc(uri),
        range=types.Range(types.Position(first, 0), types.Position(last, 0)))), "inlayHint")
    return list(found or [])


def after(text: str, needle: str, encoding: str) -> types.Position:
    return position_of(text, needle, len(needle), encoding)


async def test_inlay_hints(client: LanguageClient, workspace: Path) -> None:
    path = write(workspace, TEXT)
    uri = open_document(client, path, TEXT)
    encoding = encoding_of(client)
    hints = await inlay_hints(client, uri, 0, TEXT.count("\n") + 1)
    assert [(hint.position, hint.label) for hint in hints] == [
        (after(TEXT, "Fix $1", encoding), "arg 1"),  # Wave reads no `arguments` names
        (after(TEXT, "${WAVE_SKILL_DIR}", encoding), short_label(path.parent.as_posix())),
        (after(TEXT, "$ARGUMENTS", encoding), "all args"),
        (after(TEXT, "${WAVE_SESSION_ID}", encoding), "per session"),
        (after(TEXT, "\\$2", encoding), "arg 2"),
        (after(TEXT, "!`echo 😀 hi`", encoding), "read-only"),  # Wave: `echo` is read-only
        (after(TEXT, "!`curl x`", encoding), "denied"),
        (after(TEXT, "!`git push`", encoding), "needs approval"),
        (after(TEXT, "echo $1", encoding), "literal"),
        (after(TEXT, "echo $1\n```", encoding), "read-only"),  # Wave runs `echo $1` as is
    ]
    kinds = [hint.kind for hint in hints]
    assert kinds[0] == kinds[2] == types.InlayHintKind.Parameter and kinds[1] is None
    assert all(hint.padding_left for hint in hints)
    directory = hints[1].tooltip
    assert isinstance(directory, types.MarkupContent)
    assert directory.kind == types.MarkupKind.Markdown
    assert f"Resolves to `{path.parent.as_posix()}`" in directory.value
    denied = hints[6].tooltip
    assert isinstance(denied, types.MarkupContent) and "Bash(curl *)" in denied.value


async def test_inlay_hints_only_in_the_range(client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, write(workspace, TEXT), TEXT)
    line = TEXT.splitlines().index("Say: !`echo 😀 hi` then !`curl x` and !`git push`")
    hints = await inlay_hints(client, uri, line, line + 1)
    assert [hint.label for hint in hints] == ["read-only", "denied", "needs approval"]


async def test_no_decorations_outside_skill_files(client: LanguageClient, workspace: Path) -> None:
    text = "# Notes\n\nUse $1 and ${WAVE_SKILL_DIR} and !`ls`\n"
    uri = open_document(client, workspace / "NOTES.md", text)
    assert await inlay_hints(client, uri, 0, 3) == []
    result = await answer(client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc(uri))), "semanticTokens/full")
    assert list(result.data) == []


@pytest.fixture(scope="module")
def own_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_workspace(tmp_path_factory.mktemp("refresh"))


@pytest_lsp.fixture(scope="module", config=SERVER)
async def neovim(lsp_client: LanguageClient, own_workspace: Path):
    """Neovim 0.11's capabilities: it allows `workspace/inlayHint/refresh` and
    `workspace/semanticTokens/refresh`."""
    await start(lsp_client, "neovim-0.11", own_workspace)
    yield
    await lsp_client.shutdown_session()


async def test_a_new_target_refreshes_the_hints(neovim: LanguageClient, own_workspace: Path) -> None:
    text = TEXT.replace("Fix $1", "Fix $0 $1")
    uri = open_document(neovim, write(own_workspace, text), text)
    before = await inlay_hints(neovim, uri, 6, 7)
    # wave counts from 1 and reads no names
    assert [hint.label for hint in before[:2]] == ["empty", "arg 1"]
    seen = dict(neovim.decoration_refreshes)
    neovim.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"wave": {"target": "claude-code", "personalSkills": False}}))
    await wait_until(neovim, lambda: neovim.decoration_refreshes if all(
        neovim.decoration_refreshes.get(kind, 0) > seen.get(kind, 0) for kind in ("inlay", "tokens"))
        else None, "workspace/inlayHint/refresh and workspace/semanticTokens/refresh")
    after = await inlay_hints(neovim, uri, 6, 7)
    assert [hint.label for hint in after[:2]] == ["issue", "arg 2"]  # claude-code counts from 0
