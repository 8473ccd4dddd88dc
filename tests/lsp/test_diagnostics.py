"""Diagnostics through a real client: push or pull by capability, versions, codes, links, data,
related information, and exact positions in every encoding."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import (
    change_document,
    diagnostics,
    encoding_of,
    open_document,
    position_of,
    published,
    pulls,
    wait_until,
)
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings

pytestmark = pytest.mark.asyncio(loop_scope="module")

BROKEN = """---
name: Broken_Skill
description: >-
  Folded text.
name: broken-skill
---
Body
"""


async def test_diagnostics_carry_code_source_link_data_and_version(client: LanguageClient,
                                                                    workspace: Path) -> None:
    uri = open_document(client, workspace / ".wave/skills/broken-skill/SKILL.md", BROKEN)
    found = await diagnostics(client, uri)
    codes = {d.code for d in found}
    assert "SK022" in codes  # duplicate key
    duplicate = next(d for d in found if d.code == "SK022")
    assert duplicate.source == "wave-lsp"
    assert duplicate.code_description.href.endswith("/docs/rules/SK022.md")
    # the link works offline: a page on this machine, the rule's own
    href = duplicate.code_description.href
    assert href.startswith("file:///")
    page = Path(urllib.parse.unquote(urllib.parse.urlparse(href).path))
    assert page.read_text("utf-8").startswith("# SK022 ")
    assert duplicate.range.start == types.Position(4, 0)
    assert duplicate.related_information and duplicate.related_information[0].location.uri == uri
    assert duplicate.related_information[0].location.range.start.line == 1
    assert duplicate.data["name"] == "duplicate-key"
    assert isinstance(duplicate.data["fixes"], list) and duplicate.data["fixes"]
    assert duplicate.severity == types.DiagnosticSeverity.Error


async def test_push_or_pull_never_both(client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, workspace / ".wave/skills/pp/SKILL.md", "---\nname: pp\n---\n")
    found = await diagnostics(client, uri)
    assert any(d.code == "SK050" for d in found)
    if pulls(client):
        assert uri not in client.diagnostics  # nothing was pushed
        assert client.initialize_result.capabilities.diagnostic_provider is not None
    else:
        assert client.initialize_result.capabilities.diagnostic_provider is None


async def test_every_change_is_published_with_its_version(client: LanguageClient,
                                                          workspace: Path) -> None:
    path = workspace / ".wave/skills/versions/SKILL.md"
    uri = open_document(client, path, "---\nname: versions\n---\n")
    assert any(d.code == "SK050" for d in await diagnostics(client, uri, 1))
    fixed = "---\nname: versions\ndescription: Checks versions. Use when asked.\n---\n"
    change_document(client, uri, fixed, 2)
    assert [d.code for d in await diagnostics(client, uri, 2)] == []
    change_document(client, uri, fixed, 3)  # same findings: still published, with version 3
    assert [d.code for d in await diagnostics(client, uri, 3)] == []


async def test_server_findings_equal_the_cli(client: LanguageClient, workspace: Path) -> None:
    path = workspace / ".wave/skills/same-as-cli/SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = BROKEN.replace("Body", "See [x](missing.md) and $0.\n\n!`git status`")
    path.write_text(text, "utf-8")
    found = await diagnostics(client, open_document(client, path, text))
    cli = check_file(path, Settings(personal=False))
    assert sorted((d.code, d.message) for d in found) == sorted(
        (f.code, f.message) for f in cli.findings)
    assert {d.severity for d in found} >= {types.DiagnosticSeverity.Hint}


async def test_positions_after_chinese_and_emoji(client: LanguageClient, workspace: Path) -> None:
    text = "---\nname: emoji\ndescription: 处理😀文档 <b>. Use when asked.\n---\n"
    uri = open_document(client, workspace / ".wave/skills/emoji/SKILL.md", text)
    found = [d for d in await diagnostics(client, uri) if d.code == "SK054"]
    assert found, "angle brackets in the description"
    encoding = encoding_of(client)
    assert found[0].range.start == position_of(text, "<b>", 0, encoding)
    assert found[0].range.end == position_of(text, "<b>", 1, encoding)


async def test_other_markdown_files_get_nothing(client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, workspace / "README.md", "---\nname: X\n---\n")
    if pulls(client):
        assert await diagnostics(client, uri) == []
    # push clients: nothing is ever published for README.md
    probe = open_document(client, workspace / ".wave/skills/probe/SKILL.md",
                          "---\nname: probe\n---\n")
    await diagnostics(client, probe)
    assert uri not in client.diagnostics


async def test_language_id_does_not_matter(client: LanguageClient, workspace: Path) -> None:
    uri = open_document(client, workspace / ".wave/skills/lang/SKILL.md", "---\nname: lang\n---\n",
                        language_id="skill")
    assert any(d.code == "SK050" for d in await diagnostics(client, uri))


async def test_bad_input_gets_findings_and_the_server_keeps_serving(client: LanguageClient,
                                                                   workspace: Path) -> None:
    nested = "---\nname: deep\ndescription: " + "[" * 5000 + "\n---\n"
    uri = open_document(client, workspace / ".wave/skills/deep/SKILL.md", nested)
    assert any(d.code == "SK020" for d in await diagnostics(client, uri))
    uri = open_document(client, workspace / ".wave/skills/nul/SKILL.md", "\x00\x01---\n\udcff")
    await diagnostics(client, uri)
    # unknown documents: empty answers, no error
    missing = (workspace / "nope/SKILL.md").as_uri()
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=missing), position=types.Position(0, 0)))
    assert result is None


async def test_adversarial_documents_get_findings(client: LanguageClient, workspace: Path) -> None:
    """Each document is answered within the helpers' deadline (20 s; the three together take
    about 1 s here: `benchmarks/bad_input.py`), and the server keeps serving."""
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"] + [
        f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 9) + "]"
        for i in range(1, 12)]
    documents = {
        "bomb": "---\nname: bomb\ndescription: B. Use when asked.\n" + "\n".join(bomb) + "\n---\n",
        "huge": "---\nname: huge\ndescription: H. Use when asked.\n---\n" + "x" * 10_000_000,
        "binary": "\x00\x01\x02---\nname: \udcff\n" * 100,
    }
    expected = {"bomb": "SK023", "huge": "SK111", "binary": None}
    for name, text in documents.items():
        uri = open_document(client, workspace / f".wave/skills/{name}/SKILL.md", text)
        found = await diagnostics(client, uri)
        if expected[name]:
            assert expected[name] in {d.code for d in found}, name
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert symbols is not None  # still serving


async def test_findings_about_resources_go_to_the_resource(client: LanguageClient,
                                                           workspace: Path) -> None:
    folder = workspace / ".wave/skills/with-binary"
    (folder / "assets").mkdir(parents=True, exist_ok=True)
    (folder / "assets/table.xlsx").write_bytes(b"PK\x03\x04\x00\x00")
    text = "---\nname: with-binary\ndescription: Has a table. Use when asked.\n---\n"
    uri = open_document(client, folder / "SKILL.md", text)
    found = await diagnostics(client, uri)
    assert "SK140" not in {d.code for d in found}  # not on the SKILL.md
    if not pulls(client):
        resource = (folder / "assets/table.xlsx").as_uri()
        # published right after the SKILL.md's own diagnostics
        publishes = await wait_until(client, lambda: published(client, resource) or None,
                                     f"diagnostics for {resource}")
        assert [d.code for d in publishes[-1].diagnostics] == ["SK140"]


DENSE = "---\nname: dense\ndescription: Dense. Use when asked.\n---\n" + "".join(
    f"Step {n}: run `scripts/step{n}.sh` with $ARGUMENTS and read [ref](references/r{n}.md).\n"
    for n in range(2000))


async def test_a_burst_of_edits_publishes_the_last_version(client: LanguageClient,
                                                           workspace: Path) -> None:
    """Ten edits sent back to back: the last version is published and publishes never go back to
    an older version. How many of the middle versions are skipped depends on how fast this client
    sends 170 kB messages against how fast the server analyses (a version that is the newest when
    its analysis ends is published): test_edit_coalescing.py holds the analyses deterministically
    and checks that only the last version of a burst is published."""
    path = workspace / ".wave/skills/dense/SKILL.md"
    uri = open_document(client, path, DENSE)
    await diagnostics(client, uri, 1)
    for version in range(2, 12):
        change_document(client, uri, DENSE + f"Edit {version}.\n", version)
    await diagnostics(client, uri, 11)
    if pulls(client):
        return  # a pull client asks for the current text; nothing is pushed
    versions = [params.version for params in published(client, uri)]
    assert versions == sorted(versions) and versions[-1] == 11
    assert len(versions) == len(set(versions))  # no version is published twice
