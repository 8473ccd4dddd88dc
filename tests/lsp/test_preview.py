"""`wave.previewInvocation` through a real client: the same answer as the CLI, execution only when
the user allowed it, the injection hover and the "Preview invocation" lens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics, encoding_of, open_document, position_of
from wave_lsp.cli import main

pytestmark = pytest.mark.asyncio(loop_scope="module")

SKILL = ("---\nname: previewed\ndescription: Previews. Use when asked.\nallowed-tools:\n"
         "  - Bash(echo *)\n---\nFix $1 in ${WAVE_SKILL_DIR}.\n\nSay: !`echo hello`\n"
         "Then: !`git push --force`\n")


def write(workspace: Path, name: str, text: str) -> Path:
    path = workspace / ".wave/skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


async def preview(client: LanguageClient, uri: str, arguments: str = "", mode: str = "dry-run"):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.previewInvocation",
        arguments=[{"uri": uri, "arguments": arguments, "mode": mode, "sessionId": "s-1"}]))


async def test_preview_equals_the_cli(client: LanguageClient, workspace: Path, capsys) -> None:
    path = write(workspace, "previewed", SKILL)
    uri = open_document(client, path, SKILL)
    from_server = await preview(client, uri, "42 'two words'")
    assert main(["preview", str(path), "42 'two words'", "--format", "json", "--no-personal",
                 "--session-id", "s-1"]) == 1
    from_cli = json.loads(capsys.readouterr().out)
    # the same object, and the read-only document the server showed it in (test_show_preview.py)
    assert from_server.pop("document").startswith("file://")
    assert from_server == from_cli
    assert from_server["ok"] is False
    assert from_server["error"].startswith(
        'Shell command permission check failed for pattern "!`git push --force`": ')
    assert [i["decision"] for i in from_server["injections"]] == ["allow", "ask"]
    # `echo hello` is one of Wave's read-only commands: no rule needed (runtime-facts §8.12)
    assert from_server["injections"][0]["ruleSource"] is None


async def test_unsaved_text_is_previewed(client: LanguageClient, workspace: Path) -> None:
    path = write(workspace, "unsaved", SKILL.replace("previewed", "unsaved"))
    text = SKILL.replace("previewed", "unsaved").replace("Then: !`git push --force`\n", "")
    uri = open_document(client, path, text)
    result = await preview(client, uri, "42")
    assert result["ok"] is True
    assert result["text"] == (f"Base directory for this skill: {path.parent.as_posix()}\n\n"
                              f"Fix 42 in {path.parent.as_posix()}.\n\nSay: !`echo hello`")


@pytest.mark.usefixtures("sandbox")
async def test_execution_needs_the_setting(client: LanguageClient, workspace: Path) -> None:
    text = SKILL.replace("previewed", "gated").replace("Then: !`git push --force`\n", "")
    path = write(workspace, "gated", text)
    uri = open_document(client, path, text)
    refused = await preview(client, uri, mode="execute")
    assert refused["ok"] is False and "allowExecution" in refused["error"]
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"wave": {"personalSkills": False, "preview": {"allowExecution": True}}}))
    ran = await preview(client, uri, mode="execute")
    assert ran["ok"] is True and ran["text"].endswith("Say: hello\n")
    assert ran["injections"][0]["executed"] is True
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"wave": {"personalSkills": False}}))


async def test_bad_command_arguments_get_a_refusal(client: LanguageClient) -> None:
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.previewInvocation", arguments=[{"uri": 3}]))
    assert result["ok"] is False and "expected one object" in result["error"]


async def test_an_over_long_uri_is_refused_before_any_path_is_looked_at(
        client: LanguageClient) -> None:
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="wave.previewInvocation",
        arguments=[{"uri": "file:///" + "a/" * 500_000 + "SKILL.md", "mode": "dry-run"}]))
    assert result["ok"] is False and "limited to 12,288 characters" in result["error"]


async def test_injection_hover_diagnostics_fix_and_lens(client: LanguageClient,
                                                        workspace: Path) -> None:
    text = SKILL.replace("previewed", "hovered")
    path = write(workspace, "hovered", text)
    uri = open_document(client, path, text)
    found = [d for d in await diagnostics(client, uri) if d.code == "SK123"]
    assert len(found) == 1
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(text, "!`git push", 3, encoding_of(client))))
    assert "denied" in hover.contents.value and "git push --force" in hover.contents.value
    allowed = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position_of(text, "!`echo", 3, encoding_of(client))))
    # Wave runs `echo` as one of its read-only commands before any rule (runtime-facts §8.12)
    assert "allowed" in allowed.contents.value and "read-only" in allowed.contents.value
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=found[0].range,
        context=types.CodeActionContext(diagnostics=found)))
    fix = next(a for a in actions if a.is_preferred)
    edits = fix.edit.document_changes[0].edits if fix.edit.document_changes else fix.edit.changes[uri]
    assert [e.new_text for e in edits] == ["\n  - Bash(git push --force)"]
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    preview_lens = next(lens for lens in lenses if lens.command.title == "Preview invocation")
    assert preview_lens.command.command == "wave.previewInvocation"
    assert preview_lens.command.arguments[0]["uri"] == uri


async def test_the_preview_is_a_code_action_on_the_skill(client: LanguageClient,
                                                         workspace: Path) -> None:
    """Every client shows code actions, not every client code lenses: the preview is offered
    anywhere in the skill as a source action whose command is the lens's, and running it answers
    the preview; a client asking only for quick fixes (or only for source actions) gets only
    those."""
    text = SKILL.replace("previewed", "by-action").replace("Then: !`git push --force`\n", "")
    path = write(workspace, "by-action", text)
    uri = open_document(client, path, text)
    anywhere = types.Range(types.Position(6, 0), types.Position(6, 3))

    async def actions(only: list[str] | None) -> list[types.CodeAction]:
        return await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=anywhere,
            context=types.CodeActionContext(diagnostics=[], only=only)))

    def previews(found: list) -> list[types.Command]:
        """The preview actions' commands. pygls' client reads a CodeAction that has a command and
        no edit as the union's first member that fits, a `Command` whose `command` is the text of
        the CodeAction's command object; it is read back from that text."""
        import ast

        commands = []
        for item in found:
            if isinstance(item, types.CodeAction):
                if item.command is not None:
                    commands.append(item.command)
                continue
            nested = ast.literal_eval(item.command)
            assert item.title.startswith("Preview skill invocation")
            commands.append(types.Command(**nested))
        return commands

    (command,) = previews(await actions(None))
    assert command.command == "wave.previewInvocation"
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command.command, arguments=command.arguments))
    assert result["ok"] is True and result["text"].startswith("Base directory for this skill: ")
    assert not previews(await actions([types.CodeActionKind.QuickFix]))
    assert len(previews(await actions([types.CodeActionKind.Source]))) == 1
    assert len(previews(await actions(["source.preview"]))) == 1
    registered = client.initialize_result.capabilities.code_action_provider
    assert "source.preview" in registered.code_action_kinds
