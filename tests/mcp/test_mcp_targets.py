"""`wave-lsp mcp` under each target of issue 28, through the MCP SDK's stdio client: `check` gives
the finding only that target gives for one skill (tests/target_cases.py), `list_skills` and
`preview` follow the target's profile, and an unknown target is one sentence naming the valid ones
for every tool that takes a target (docs/design/targets-facts.md *Every surface*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.test_mcp_server import call, connect, tool_error, write
from tests.target_cases import (
    COLON_CHARACTER,
    COLON_FINDING,
    COLON_LINE,
    EXPECTED,
    NEW_TARGETS,
    relpath_for,
    write_colon_project,
)
from wave_lsp.core.facts.profiles import TARGETS

pytestmark = pytest.mark.timeout(180)

FIX = "---\nname: fix\ndescription: Fixes things. Use when asked.\n---\nFix $1 now.\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write_colon_project(root)
    write(root / ".agents/skills/fix/SKILL.md", FIX)
    write(root / ".cursor/skills/fix/SKILL.md", FIX)  # where Cursor finds it
    (tmp_path / "home").mkdir()
    return root


async def test_each_tool_follows_the_target(project: Path) -> None:
    checked, listed, shown = {}, {}, {}
    async with connect(project) as session:
        for target in NEW_TARGETS:
            checked[target] = await call(session, "check", {
                "paths": [relpath_for(target)], "target": target, "personal": False})
            listed[target] = await call(session, "list_skills", {
                "target": target, "personal": False})
            shown[target] = await call(session, "preview", {
                "path": f"{relpath_for(target).split('/')[0]}/skills/fix", "arguments": "bug",
                "target": target, "personal": False})
        # Cursor does not find `.agents/skills`: the preview says so instead of rendering it
        unfound = await call(session, "preview", {
            "path": ".agents/skills/fix", "target": "cursor", "personal": False})
    for target in NEW_TARGETS:
        expected = EXPECTED[target]
        report = checked[target]
        assert report["target"] == target
        [file] = report["files"]
        assert file["loads"] is expected.loads
        found = [f for f in file["findings"] if f["code"] == COLON_FINDING]
        assert [(f["severity"], f["range"]["start"]) for f in found] == [
            (expected.severity, {"line": COLON_LINE, "character": COLON_CHARACTER})], target
        assert expected.says in found[0]["message"]
        assert not [t for t, other in EXPECTED.items() if t != target and other.says in
                    found[0]["message"]]
        assert listed[target]["target"] == shown[target]["target"] == target
    # runtime-facts.md §9.1: Cursor does not scan `.agents/skills`, the four others do (and
    # none of them `.cursor/skills`): each lists the copies in its own roots
    assert {t: sorted(s["path"] for s in listed[t]["skills"]) for t in NEW_TARGETS} == {
        t: sorted(f"{relpath_for(t).split('/')[0]}/skills/{name}/SKILL.md"
                  for name in ("fix", "my-skill")) for t in NEW_TARGETS}
    assert (unfound["ok"], unfound["text"], unfound["unavailable"]) == (False, None, "not-found")
    assert unfound["error"].startswith("Cursor does not find this skill where it lies (SK002): "
                                       "Not discovered by Cursor: ")
    # §9.7: Codex injects the whole file; OpenCode counts `$1` from the first argument and names
    # the base directory; the others substitute nothing
    assert shown["codex"]["text"].startswith("<skill>\n<name>fix</name>\n<path>")
    assert shown["codex"]["text"].endswith(f"</path>\n{FIX}\n</skill>")  # Codex 0.171.0
    # OpenCode 1.18.33 keeps the body's trailing newline (tests/oracle/cases/oc-body-newline)
    assert shown["opencode"]["text"].startswith("Fix bug now.\n\n\nBase directory for this skill: ")
    for target in ("copilot", "cursor", "gemini-cli"):
        assert shown[target]["text"] == "Fix $1 now.", target


async def test_an_unknown_target_is_one_sentence_for_every_tool(project: Path) -> None:
    async with connect(project) as session:
        errors = {tool: await tool_error(session, tool, {**arguments, "target": "nope"})
                  for tool, arguments in (("check", {}), ("list_skills", {}),
                                          ("preview", {"path": ".agents/skills/fix"}))}
    for tool, message in errors.items():
        assert message == (f"Error executing tool {tool}: unknown target 'nope'; use one of "
                           f"{', '.join(TARGETS)}")
