"""`wave-lsp mcp` driven through the official MCP SDK's own stdio client (`mcp.client.stdio`,
`ClientSession`): initialize, list the tools, check a broken skill (the same JSON as
`check --format json`), preview without executing (a canary file an allowed `touch` would create
stays absent), paths outside the project root refused, inputs validated with tool errors."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.helpers import sandbox_or_skip
from wave_lsp.cli import main
from wave_lsp.core.facts.profiles import TARGETS

REPO = Path(__file__).resolve().parents[2]
TOOLS = {"check", "preview", "list_skills", "explain_rule"}
#: each test starts the server once or twice: importing the SDK alone takes 1-4 s, more on a loaded
#: two-core machine, and the client gives a closing server 2 s to exit
pytestmark = pytest.mark.timeout(180)

#: a quoted value that never ends: no loader (not even Claude Code's quoting retry) reads it
BROKEN = "---\nname: broken\ndescription: \"unterminated\n---\nBody\n"
GOOD = "---\nname: good\ndescription: Formats notes. Use when the user asks for notes.\n---\nBody\n"


def canary_skill(canary: Path) -> str:
    return ("---\nname: canary\ndescription: Touches a canary file. Use when testing previews.\n"
            f"allowed-tools: Bash(touch:*)\n---\nCanary: !`touch {canary}`\n")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git project with a broken, a good and a canary skill; a personal root that shadows
    `good`; a folder outside the project and a link into it from the project."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    write(root / ".claude/skills/broken/SKILL.md", BROKEN)
    write(root / ".claude/skills/good/SKILL.md", GOOD)
    write(root / ".claude/skills/canary/SKILL.md", canary_skill(root / "canary-file"))
    write(tmp_path / "home/.claude/skills/good/SKILL.md", GOOD)
    write(tmp_path / "outside/secret/SKILL.md", BROKEN)
    (root / "link").symlink_to(tmp_path / "outside", target_is_directory=True)
    return root


@asynccontextmanager
async def connect(root: Path, *args: str) -> AsyncIterator[ClientSession]:
    """An initialized SDK client session with `wave-lsp mcp` started in `root`."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "wave_lsp", "mcp", *args], cwd=str(root),
        env={"HOME": str(root.parent / "home"), "NO_COLOR": "1"})
    async with stdio_client(params) as (read, write_stream), \
            ClientSession(read, write_stream) as session:
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    # the text content carries the same JSON for clients that do not read structured output,
    # compact (indented JSON costs the model about twice the tokens)
    assert json.loads(result.content[0].text) == result.structured_content
    assert result.content[0].text == json.dumps(result.structured_content, ensure_ascii=False,
                                                separators=(",", ":"))
    return result.structured_content


async def tool_error(session: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    return " ".join(getattr(block, "text", "") for block in result.content)


async def test_initialize_list_tools_and_validate_inputs(project: Path) -> None:
    async with connect(project) as session:
        assert session.server_info is not None and session.server_info.name == "wave-lsp"
        assert "check" in (session.instructions or "")
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        # a wrong target or code is answered with one sentence, not the SDK's validation report
        wrong = await tool_error(session, "check", {"target": "nope"})
        assert wrong == f"Error executing tool check: unknown target 'nope'; use one of {', '.join(TARGETS)}"
        assert "Input should be" in await tool_error(session, "check", {"paths": "."})
        assert "unknown rule code" in await tool_error(session, "explain_rule", {"code": "SK999"})
        assert (await tool_error(session, "explain_rule", {"code": "rm -rf"})).startswith(
            "Error executing tool explain_rule: unknown rule code 'rm -rf' (codes look like SK034")
        assert "Field required" in await tool_error(session, "preview", {})
        assert "select" in await tool_error(session, "check", {"select": ["no such code"]})
        rule = await call(session, "explain_rule", {"code": " sk020 "})
    assert set(listed) == TOOLS
    for tool in listed.values():
        assert tool.description and tool.output_schema is not None
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
    check = listed["check"].input_schema["properties"]
    assert set(check) == {"paths", "target", "select", "ignore", "personal"}
    assert all(name in check["target"]["description"] for name in TARGETS)
    assert listed["preview"].input_schema["required"] == ["path"]
    assert listed["explain_rule"].input_schema["required"] == ["code"]
    assert rule["code"] == "SK020" and set(rule["severity"]) >= set(TARGETS)
    assert rule["text"].startswith("SK020 ")


async def test_check_and_list_answer_the_json_of_the_command_line(project: Path, capsys,
                                                                  monkeypatch) -> None:
    async with connect(project) as session:
        listed = await call(session, "list_skills", {"target": "claude-code"})
        alone = await call(session, "list_skills", {"target": "claude-code", "personal": False})
        found = await call(session, "check", {"paths": [".claude/skills"], "target": "claude-code",
                                              "personal": False})
        everything = await call(session, "check", {"target": "claude-code", "personal": False})
        only = await call(session, "check", {"paths": [".claude/skills/broken"],
                                             "target": "claude-code", "select": ["SK02"],
                                             "personal": False})
    monkeypatch.chdir(project)
    assert main(["check", ".claude/skills", "--format", "json", "--target", "claude-code",
                 "--no-personal"]) == 1
    assert found == json.loads(capsys.readouterr().out)
    schema = json.loads((REPO / "schemas/check-output.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(found)
    broken = next(f for f in found["files"] if f["path"] == ".claude/skills/broken/SKILL.md")
    assert any(f["code"] == "SK020" and f["severity"] == "error" for f in broken["findings"])
    assert found["summary"]["error"] >= 1
    # discovery does not follow the link out of the project
    assert not any("secret" in f["path"] for f in everything["files"])
    assert {f["path"] for f in everything["files"]} == {f["path"] for f in found["files"]}
    assert {f["code"] for f in only["files"][0]["findings"]} == {"SK020"}
    # list_skills: highest precedence first; in Claude Code personal overrides project
    by_scope = {(s["name"], s["scope"]): s for s in listed["skills"]}
    assert by_scope[("good", "personal")]["shadowedBy"] is None
    assert by_scope[("good", "project")]["shadowedBy"] == by_scope[("good", "personal")]["path"]
    assert {s["name"] for s in alone["skills"]} == {"broken", "good", "canary"}
    assert main(["list", "--format", "json", "--target", "claude-code", "--no-personal"]) == 0
    assert alone == json.loads(capsys.readouterr().out)


async def test_preview_is_a_dry_run(project: Path, capsys, monkeypatch) -> None:
    canary = project / "canary-file"  # inside the project: writing it needs no approval
    async with connect(project) as session:
        shown = await call(session, "preview", {"path": ".claude/skills/canary",
                                                "target": "claude-code", "arguments": "x y"})
        again = await call(session, "preview", {"path": ".claude/skills/canary/SKILL.md",
                                                "target": "claude-code"})
    assert shown["mode"] == "dry-run" and shown["ok"] is True and shown["arguments"] == "x y"
    (injection,) = shown["injections"]
    assert injection["command"] == f"touch {canary}"
    assert injection["decision"] == "allow"  # the engine would run it …
    assert injection["executed"] is False and injection["exitCode"] is None
    assert again["injections"][0]["executed"] is False
    assert not canary.exists()  # … and the MCP call did not
    # the command is real: the command line's explicit --execute does run it, in the sandbox,
    # where the project is read-only (docs/security.md *The sandbox*)
    sandbox_or_skip()
    monkeypatch.chdir(project)
    main(["preview", ".claude/skills/canary", "--execute", "--target", "claude-code",
          "--no-personal", "--format", "json"])
    executed = json.loads(capsys.readouterr().out)
    assert executed["injections"][0]["executed"] is True, executed
    assert "Read-only file system" in executed["error"], executed
    assert not canary.exists()


async def test_paths_outside_the_root_are_refused(project: Path) -> None:
    outside = project.parent / "outside"
    async with connect(project) as session:
        for tool, arguments in [
            ("check", {"paths": ["../outside"]}),
            ("check", {"paths": [str(outside / "secret/SKILL.md")]}),
            ("check", {"paths": ["link"]}),  # a link inside the root that leads out of it
            ("check", {"paths": [".", "link/secret"]}),
            ("preview", {"path": "link/secret"}),
            ("preview", {"path": "../outside/secret/SKILL.md"}),
            ("list_skills", {"directory": ".."}),
            ("list_skills", {"directory": "/"}),
        ]:
            message = await tool_error(session, tool, arguments)
            assert "outside the project root" in message, (tool, arguments, message)
        missing = await tool_error(session, "check", {"paths": ["no/such/skill"]})
        assert "no such file or directory" in missing
        empty = await tool_error(session, "preview", {"path": ""})
        assert "non-empty path" in empty
        # a path check costs at most a bounded look: a megabyte of path is refused by its length
        long = await tool_error(session, "check", {"paths": ["a/" * 500_000]})
        assert "limited to 4,096 characters" in long
    # --root names the project when the server starts elsewhere
    async with connect(project.parent, "--root", str(project)) as session:
        found = await call(session, "check", {"paths": [".claude/skills/good"],
                                              "personal": False})
        assert [f["path"] for f in found["files"]] == [".claude/skills/good/SKILL.md"]
        assert "outside the project root" in await tool_error(
            session, "check", {"paths": [str(project.parent / "outside")]})


def test_without_the_sdk_the_command_exits_2_with_a_hint(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)  # what `import` sees when absent
    with pytest.raises(SystemExit) as exit_info:
        main(["mcp"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pip install 'wave-lsp[mcp]'" in error
    assert "pipx inject wave-lsp" in error and "uv tool install --force" in error


#: what Claude Code 2.1.332 sends first (the 2026-07-28 protocol's probe), then `initialize`
DISCOVER = {"jsonrpc": "2.0", "id": "server-discover-probe-1", "method": "server/discover",
            "params": {}}
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "claude-code", "version": "2.1.332"}}}
WITHOUT_SDK = ("import sys; sys.modules['mcp.server.mcpserver'] = None\n"
               "from wave_lsp.cli import main\nsys.exit(main(['mcp']))\n")


@pytest.mark.parametrize("sent", [
    [INITIALIZE],
    # Claude Code's order; a notification in between is not answered
    [DISCOVER, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}}, INITIALIZE],
    ["not json", {"jsonrpc": "2.0", "result": {}, "id": 7}, INITIALIZE],
], ids=["initialize", "claude-code-2.1.332", "garbage-first"])
def test_without_the_sdk_a_client_is_told_what_to_install(tmp_path: Path,
                                                          sent: list[object]) -> None:
    """An MCP client starts `wave-lsp mcp` and sends its requests at once: without the SDK, each
    request up to `initialize` gets a JSON-RPC error whose message says what to install (Claude
    Code shows it in `claude mcp list`; tests/oracle/test_mcp_refusal.py runs the real one), then
    the command exits 2."""
    lines = "".join((item if isinstance(item, str) else json.dumps(item)) + "\n" for item in sent)
    result = subprocess.run([sys.executable, "-c", WITHOUT_SDK], input=lines,
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 2
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    requests = [item for item in sent if isinstance(item, dict) and "method" in item
                and "id" in item]
    assert [answer["id"] for answer in answers] == [request["id"] for request in requests]
    for answer in answers:
        assert answer["error"]["code"] == -32603
        assert "install it with" in answer["error"]["message"]
        assert "pip install 'wave-lsp[mcp]'" in answer["error"]["message"]
    assert "pip install 'wave-lsp[mcp]'" in result.stderr


def test_without_the_sdk_a_silent_client_is_not_waited_for_forever(tmp_path: Path) -> None:
    """A client that never sends `initialize`: the command still exits, after
    MCP_REFUSAL_SECONDS at most (stdin left open)."""
    process = subprocess.Popen([sys.executable, "-c", WITHOUT_SDK], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        assert process.stdin is not None
        process.stdin.write((json.dumps(DISCOVER) + "\n").encode())
        process.stdin.flush()
        assert process.wait(timeout=45) == 2
    finally:
        process.kill()
        process.communicate()


@pytest.mark.parametrize(("prefix", "first"), [
    ("/home/u/.local/share/pipx/venvs/wave-lsp", "pipx inject wave-lsp 'mcp>=2.3,<3'"),
    # no receipt to read: the clone form first, the index form is named as not working yet
    ("/home/u/.local/share/uv/tools/wave-lsp", "uv tool install --force '.[mcp]' from a clone"),
    ("/home/u/project/.venv", "pip install 'wave-lsp[mcp]'"),
])
def test_the_hint_names_the_tool_that_installed_wave_lsp(prefix: str, first: str) -> None:
    from wave_lsp.mcp import install_hint

    assert install_hint(prefix).startswith(first)


@pytest.mark.parametrize(("requirement", "source"), [
    ('{ name = "wave-lsp", directory = "/home/u/src/wave-lsp" }', "/home/u/src/wave-lsp"),
    ('{ name = "wave-lsp", path = "/home/u/dist/wave_lsp-0.1.0-py3-none-any.whl" }',
     "/home/u/dist/wave_lsp-0.1.0-py3-none-any.whl"),
    ('{ name = "wave-lsp", git = "https://example.invalid/wave-lsp" }',
     "git+https://example.invalid/wave-lsp"),
])
def test_a_uv_tool_is_reinstalled_from_the_source_its_receipt_names(
        tmp_path: Path, requirement: str, source: str) -> None:
    """uv records where it installed a tool from (`uv-receipt.toml`, whatever UV_TOOL_DIR is);
    before publication `wave-lsp[mcp]` alone is on no index, so the hint names that source
    (`uv tool install --force 'wave-lsp[mcp] @ SOURCE'`, which uv accepts)."""
    from wave_lsp.mcp import install_hint

    prefix = tmp_path / "my-tools" / "wave-lsp"
    prefix.mkdir(parents=True)
    (prefix / "uv-receipt.toml").write_text(
        f"[tool]\nrequirements = [{requirement}]\n", "utf-8")
    assert install_hint(str(prefix)) == f"uv tool install --force 'wave-lsp[mcp] @ {source}'"


def test_a_uv_tool_from_the_index_or_an_unreadable_receipt_gets_both_forms(tmp_path: Path) -> None:
    from wave_lsp.mcp import install_hint

    prefix = tmp_path / "wave-lsp"
    prefix.mkdir()
    (prefix / "uv-receipt.toml").write_text('[tool]\nrequirements = [{ name = "wave-lsp" }]\n',
                                            "utf-8")
    from_index = install_hint(str(prefix))
    assert from_index.startswith("uv tool install --force '.[mcp]' from a clone")
    assert "uv tool install --force 'wave-lsp[mcp]'" in from_index
    (prefix / "uv-receipt.toml").write_text("not = [toml", "utf-8")
    assert install_hint(str(prefix)) == from_index


def test_a_pipx_environment_is_known_by_its_metadata_wherever_pipx_keeps_it(tmp_path: Path) -> None:
    from wave_lsp.mcp import install_hint

    prefix = tmp_path / "opt" / "wave-lsp"  # PIPX_HOME elsewhere: no `pipx/venvs` in the path
    prefix.mkdir(parents=True)
    assert install_hint(str(prefix)).startswith("pip install 'wave-lsp[mcp]'")
    (prefix / "pipx_metadata.json").write_text("{}", "utf-8")
    assert install_hint(str(prefix)).startswith("pipx inject wave-lsp 'mcp>=2.3,<3'")
