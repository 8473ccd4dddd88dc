"""The workspace in the server: indexing with progress, listing commands, and files renamed or
deleted on disk re-validating the skills that depend on them (`workspace/didChangeWatchedFiles`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.helpers import diagnostics_until, index_reports, open_document, pulls

pytestmark = pytest.mark.asyncio(loop_scope="module")

LINKED = ("---\nname: linked\ndescription: Links files. Use when asked.\n---\n"
          "Read [the notes](references/notes.md).\n")


async def command(client: LanguageClient, name: str, *arguments):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=name, arguments=list(arguments) or None))


async def test_list_skills_and_render_listing(client: LanguageClient, workspace: Path) -> None:
    listed = await command(client, "wave.listSkills")
    names = {(s["name"], s["scope"]) for s in listed["skills"]}
    assert {("demo", "project"), ("other", "project")} <= names
    assert listed["target"] == "wave"
    demo = next(s for s in listed["skills"] if s["name"] == "demo")
    assert demo["path"] == ".wave/skills/demo/SKILL.md" and demo["listingChars"] > 0
    rendered = await command(client, "wave.renderListing", {"uri": workspace.as_uri()})
    assert rendered["text"].startswith("The following skills are available")
    # Wave's entry (469391bb, tests/oracle cases fm-basic)
    assert "• **other** (project): Formats release notes." in rendered["text"]
    assert rendered["budget"] == 8000 and rendered["cut"] == {}


async def test_indexing_reports_progress(client: LanguageClient) -> None:
    # the session started after the end of the indexing progress (conftest.start)
    window = client.declared.window
    assert window and window.work_done_progress  # both profiles show progress
    reports = index_reports(client)
    assert isinstance(reports[0], types.WorkDoneProgressBegin)
    assert isinstance(reports[-1], types.WorkDoneProgressEnd)
    count, _, rest = reports[-1].message.partition(" ")
    assert int(count) >= 2 and rest == "skills indexed"  # demo, other (and what tests added)
    status = await command(client, "wave.indexStatus")
    assert status["ready"] is True and status["skills"] >= 2  # and whatever tests opened


async def test_renamed_and_deleted_files_update_the_dependent_skill(client: LanguageClient,
                                                                   workspace: Path) -> None:
    folder = workspace / ".wave/skills/linked"
    (folder / "references").mkdir(parents=True, exist_ok=True)
    notes = folder / "references/notes.md"
    notes.write_text("# Notes\n", "utf-8")
    (folder / "SKILL.md").write_text(LINKED, "utf-8")
    uri = open_document(client, folder / "SKILL.md", LINKED)
    await diagnostics_until(client, uri, lambda found: not _broken(found))
    if not pulls(client):  # push clients register watchers dynamically
        methods = {r.method for r in getattr(client, "registrations", [])}
        assert "workspace/didChangeWatchedFiles" in methods

    renamed = notes.with_name("renamed.md")
    notes.rename(renamed)
    _notify(client, (notes, types.FileChangeType.Deleted), (renamed, types.FileChangeType.Created))
    found = await diagnostics_until(client, uri, _broken)
    assert "references/notes.md" in next(d for d in found if d.code == "SK112").message

    renamed.rename(notes)
    _notify(client, (renamed, types.FileChangeType.Deleted), (notes, types.FileChangeType.Created))
    await diagnostics_until(client, uri, lambda found: not _broken(found))

    notes.unlink()
    _notify(client, (notes, types.FileChangeType.Deleted))
    await diagnostics_until(client, uri, _broken)


def _broken(found: list[types.Diagnostic]) -> bool:
    return any(d.code == "SK112" for d in found)


def _notify(client: LanguageClient, *changes: tuple[Path, types.FileChangeType]) -> None:
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=path.as_uri(), type=kind) for path, kind in changes]))


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n# {name}\n"


def _collides(found: list[types.Diagnostic]) -> bool:
    return any(d.code == "SK130" for d in found)


async def test_a_file_event_updates_the_collision_of_an_open_skill(client: LanguageClient,
                                                                   workspace: Path) -> None:
    """Only the changed skill is re-read (docs/design/product.md *Incremental re-indexing*), and
    the open skill that shares its name is checked again: the collision appears when a skill of
    the same name is created on disk, and goes when it is deleted."""
    mine = workspace / ".wave/skills/solo/SKILL.md"
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text(_skill("solo"), "utf-8")
    _notify(client, (mine.parent, types.FileChangeType.Created),
            (mine, types.FileChangeType.Created))
    uri = open_document(client, mine, _skill("solo"))
    await diagnostics_until(client, uri, lambda found: not _collides(found))

    rival = workspace / ".wave/skills/rival/SKILL.md"
    rival.parent.mkdir(parents=True, exist_ok=True)
    rival.write_text(_skill("solo"), "utf-8")
    _notify(client, (rival.parent, types.FileChangeType.Created),
            (rival, types.FileChangeType.Created))
    found = await diagnostics_until(client, uri, _collides)
    assert "rival" in next(d for d in found if d.code == "SK130").message or any(
        "rival" in (info.location.uri or "") for d in found if d.code == "SK130"
        for info in d.related_information or [])

    rival.write_text(_skill("renamed"), "utf-8")
    _notify(client, (rival, types.FileChangeType.Changed))
    await diagnostics_until(client, uri, lambda found: not _collides(found))

    rival.write_text(_skill("solo"), "utf-8")
    _notify(client, (rival, types.FileChangeType.Changed))
    await diagnostics_until(client, uri, _collides)

    rival.unlink()
    rival.parent.rmdir()
    _notify(client, (rival.parent, types.FileChangeType.Deleted))
    await diagnostics_until(client, uri, lambda found: not _collides(found))
