"""Completion, hover, code actions, symbols, links, definition and code lens through a real client
(VS Code and Neovim capabilities)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics, encoding_of, open_document, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")


def doc_id(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def complete_at(client: LanguageClient, uri: str, text: str, needle: str,
                      offset: int | None = None) -> list[types.CompletionItem]:
    position = position_of(text, needle, len(needle) if offset is None else offset,
                           encoding_of(client))
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc_id(uri), position=position))
    return list(result.items)


def labels(items: list[types.CompletionItem]) -> set[str]:
    return {item.label for item in items}


async def hover_at(client: LanguageClient, uri: str, text: str, needle: str,
                   offset: int = 1) -> str:
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=doc_id(uri), position=position_of(text, needle, offset, encoding_of(client))))
    assert result is not None, needle
    return result.contents.value


# -- completion ---------------------------------------------------------------------------------
KEYS = "---\nname: keys\nd\n---\n"


async def test_completion_offers_missing_keys_with_docs_and_snippets(client: LanguageClient,
                                                                    workspace: Path) -> None:
    uri = open_document(client, workspace / ".wave/skills/keys/SKILL.md", KEYS)
    items = await complete_at(client, uri, KEYS, "\nd")
    found = {item.label: item for item in items}
    assert "description" in found and "allowed-tools" in found and "name" not in found
    description = found["description"]
    assert "when" in description.documentation.value.lower()
    assert description.text_edit.range.start == types.Position(2, 0)
    assert description.text_edit.new_text.startswith("description: ")
    if client.initialize_result and description.insert_text_format == types.InsertTextFormat.Snippet:
        assert "${1:" in description.text_edit.new_text
    else:
        assert "$" not in description.text_edit.new_text.split(": ", 1)[1]
    assert "version" not in found  # claude-code only field is not offered under wave


TYPED = "---\nname: typed\ndescription: Typed. Use when asked.\nallowed-tools: Ba\n---\nUse $AR\n"


async def test_a_complete_list_is_filtered_by_what_is_typed(client: LanguageClient,
                                                            workspace: Path) -> None:
    """The list is complete (`isIncomplete` false), so clients that trust it show it as is: it
    holds only items in which the typed text appears (not `NotebookRead` for `Ba`)."""
    uri = open_document(client, workspace / ".wave/skills/typed/SKILL.md", TYPED)
    tools = labels(await complete_at(client, uri, TYPED, "allowed-tools: Ba"))
    assert "Bash" in tools and not {"NotebookRead", "NotebookEdit", "Read"} & tools
    variables = labels(await complete_at(client, uri, TYPED, "Use $AR"))
    assert "$ARGUMENTS" in variables
    assert not {"${CLAUDE_SKILL_DIR}", "${WAVE_SKILL_DIR}"} & variables


VALUES = ("---\nname: values\ndescription: Values. Use when asked.\ncontext: \nmodel: \n"
          "disable-model-invocation: \nagent: \nallowed-tools: Read, \nallowed-tools:\n  - Gr\n"
          "allowed-tools: [Read, B]\n---\n")


async def test_completion_of_values_tools_agents_models(client: LanguageClient,
                                                        workspace: Path) -> None:
    uri = open_document(client, workspace / ".wave/skills/values/SKILL.md", VALUES)
    assert labels(await complete_at(client, uri, VALUES, "context: ")) == {"fork", "inline"}
    assert {"sonnet", "opus", "haiku", "inherit"} <= labels(
        await complete_at(client, uri, VALUES, "model: "))
    assert labels(await complete_at(client, uri, VALUES, "disable-model-invocation: ")) == {
        "true", "false"}
    agents = labels(await complete_at(client, uri, VALUES, "agent: "))
    assert {"general-purpose", "Explore", "Plan", "reviewer"} <= agents
    string_form = await complete_at(client, uri, VALUES, "allowed-tools: Read, ")
    assert {"Read", "Grep", "Bash"} <= labels(string_form)
    skeleton = next(i for i in string_form if i.label == "Bash(command *)")
    assert skeleton.text_edit.new_text.startswith("Bash(")
    block = await complete_at(client, uri, VALUES, "  - Gr")
    grep = next(i for i in block if i.label == "Grep")
    assert grep.text_edit.range.start == position_of(VALUES, "Gr\n", 0, encoding_of(client))
    flow = await complete_at(client, uri, VALUES, "[Read, B")
    assert "Bash" in labels(flow)


BODY = ("---\nname: body\ndescription: Body. Use when asked.\narguments: [issue]\n---\n"
        "Use $\nAlso ${\nRun /\nSee [x](\nRun ${WAVE_SKILL_DIR}/\n")


async def test_completion_in_the_body(client: LanguageClient, workspace: Path) -> None:
    path = workspace / ".wave/skills/body/SKILL.md"
    (path.parent / "scripts").mkdir(parents=True, exist_ok=True)
    (path.parent / "scripts/fetch.py").write_text("print(1)\n", "utf-8")
    uri = open_document(client, path, BODY)
    dollar = labels(await complete_at(client, uri, BODY, "Use $"))
    assert {"$ARGUMENTS", "$1", "${WAVE_SKILL_DIR}"} <= dollar
    # Wave substitutes no `$ARGUMENTS[N]` and no `arguments` names: not offered
    assert not {"$ARGUMENTS[N]", "$issue"} & dollar
    assert "${CLAUDE_PLUGIN_ROOT}" not in dollar  # not a plugin skill
    assert "${WAVE_SKILL_DIR}" in labels(await complete_at(client, uri, BODY, "Also ${"))
    skills = {i.label: i for i in await complete_at(client, uri, BODY, "Run /")}
    assert "/other" in skills and "release notes" in skills["/other"].documentation.value
    assert "scripts/fetch.py" in labels(await complete_at(client, uri, BODY, "See [x]("))
    assert "scripts/fetch.py" in labels(await complete_at(client, uri, BODY, "${WAVE_SKILL_DIR}/"))


# -- hover --------------------------------------------------------------------------------------
HOVER = ("---\nname: hover\ndescription: >-\n  Folded\n  text. Use when asked.\n"
         "allowed-tools:\n  - Bash(node ${WAVE_SKILL_DIR}/x.mjs *)\n"
         "  - Bash(${WAVE_PLUGIN_ROOT}/y)\ncontext: fork\n---\n"
         "Read ${WAVE_SKILL_DIR}/a and $1, then /other\n")


async def test_hover(client: LanguageClient, workspace: Path) -> None:
    path = workspace / ".wave/skills/hover/SKILL.md"
    uri = open_document(client, path, HOVER)
    key = await hover_at(client, uri, HOVER, "context")
    assert "fork" in key and "inline" in key
    resolved = await hover_at(client, uri, HOVER, "Folded")
    assert "Folded text. Use when asked." in resolved
    rule = await hover_at(client, uri, HOVER, "Bash(node", 2)
    assert f"Bash(node {path.parent.as_posix()}/x.mjs *)" in rule
    dropped = await hover_at(client, uri, HOVER, "Bash(${WAVE_PLUGIN_ROOT}", 2)
    assert "Dropped" in dropped and "plugin" in dropped
    variable = await hover_at(client, uri, HOVER, "Read ${WAVE_SKILL_DIR}", 7)
    assert path.parent.as_posix() in variable
    positional = await hover_at(client, uri, HOVER, "$1", 1)
    assert "argument 1" in positional
    skill = await hover_at(client, uri, HOVER, "/other", 2)
    assert "release notes" in skill


# -- code actions -------------------------------------------------------------------------------
ACTIONS = "---\nname: actions\ndescription: Acts. Use when asked.\nuser-invocable: yes\n---\nBody\n"


async def test_code_actions_offer_fixes_and_suppressions(client: LanguageClient,
                                                         workspace: Path) -> None:
    uri = open_document(client, workspace / ".wave/skills/actions/SKILL.md", ACTIONS)
    found = [d for d in await diagnostics(client, uri) if d.code == "SK090"]
    assert found
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc_id(uri), range=found[0].range,
        context=types.CodeActionContext(diagnostics=found)))
    titles = [a.title for a in actions]
    assert "Disable SK090 for this line" in titles and "Disable SK090 for this file" in titles
    quick = next(a for a in actions if a.is_preferred)
    edits = _edits(quick.edit, uri)
    assert [e.new_text for e in edits] == ["true"]
    line_off = next(a for a in actions if a.title == "Disable SK090 for this line")
    assert _edits(line_off.edit, uri)[0].new_text == "  # wave-lsp: ignore SK090"


def _edits(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    if edit.document_changes:
        return list(edit.document_changes[0].edits)
    return list(edit.changes[uri])


# -- symbols, links, definition, lens -----------------------------------------------------------
async def test_symbols_links_definition_and_lens(client: LanguageClient, workspace: Path) -> None:
    path = workspace / ".wave/skills/demo/SKILL.md"
    text = path.read_text("utf-8") + "\nThen call /other.\n\n## Details\n"
    uri = open_document(client, path, text)
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=doc_id(uri)))
    names = [s.name for s in found]
    assert names[:3] == ["name", "description", "argument-hint"] and "Demo" in names
    demo = next(s for s in found if s.name == "Demo")
    if isinstance(demo, types.DocumentSymbol):
        assert [c.name for c in demo.children] == ["Details"]
    links = await client.text_document_document_link_async(types.DocumentLinkParams(
        text_document=doc_id(uri)))
    targets = {Path(link.target).name if not link.target.startswith("file:") else
               link.target.rsplit("/", 1)[1] for link in links}
    assert targets == {"run.sh", "guide.md"}
    definition = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc_id(uri), position=position_of(text, "/other", 2, encoding_of(client))))
    assert [d.uri for d in definition] == [(workspace / ".wave/skills/other/SKILL.md").as_uri()]
    to_file = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc_id(uri), position=position_of(text, "references/guide", 3,
                                                         encoding_of(client))))
    assert to_file[0].uri.endswith("references/guide.md")
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=doc_id(uri)))
    assert "tokens" in lenses[0].command.title
    assert lenses[0].range.start.line == 0


# -- wording the editor shows (issue 29) ---------------------------------------------------------
async def test_a_skill_wave_does_not_load_gets_a_lens_that_says_so(client: LanguageClient,
                                                                   workspace: Path) -> None:
    """The cost lens of a skill Wave cannot load says so and names the fix; it does not call the
    skill resident in every conversation."""
    text = "---\nname: unloaded\ndescription: Use when: asked\n---\nRun it.\n"
    uri = open_document(client, workspace / ".wave/skills/unloaded/SKILL.md", text)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=doc_id(uri)))
    titles = [lens.command.title for lens in lenses if lens.command is not None]
    assert titles[0].startswith("Not loaded by Wave: fix SK021 on line 3 to list it;"), titles
    assert not any("resident in every conversation" in title for title in titles), titles


async def test_sk086_under_claude_code_does_not_suggest_the_variable_it_reports(
        client: LanguageClient, workspace: Path) -> None:
    """A skill under `.claude/skills` is checked for Claude Code (no target configured): there
    `${WAVE_SKILL_DIR}` is the unknown variable, and the message offers `${CLAUDE_SKILL_DIR}`."""
    text = ("---\nname: vars\ndescription: Runs it. Use when asked.\n"
            "allowed-tools: Bash(${WAVE_SKILL_DIR}/run.sh)\n---\nRun it.\n")
    uri = open_document(client, workspace / ".claude/skills/vars/SKILL.md", text)
    (finding,) = [d for d in await diagnostics(client, uri) if d.code == "SK086"]
    assert finding.message.startswith("`${WAVE_SKILL_DIR}` is not a variable this runtime knows")
    advice = finding.message.split(": use ", 1)[1]
    assert "${CLAUDE_SKILL_DIR}" in advice and "WAVE_SKILL_DIR" not in advice, finding.message
    assert finding.range.start == position_of(text, "${WAVE_SKILL_DIR}", 0, encoding_of(client))
