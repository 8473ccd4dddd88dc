"""The MCP server: `handlers.ProjectTools` registered with the official `mcp` Python SDK
(`mcp.server.mcpserver.MCPServer`, mcp 2.x), served on stdio by `wave-lsp mcp`.

Tools (inputs validated by the SDK from the signatures below, then by the handlers):

- `check`: findings for the skill files under paths, the JSON of `check --format json`;
- `preview`: the invocation as the model receives it, a dry run (no injected command runs);
- `list_skills`: the skills a runtime loads, highest precedence first, with what shadows what;
- `explain_rule`: a rule's severities per target, why, an example and the fix.

A `RequestError` becomes a tool error (`isError`, the sentence as text); the SDK imports stay inside
`create_server`, so the package imports without the optional extra. (No `from __future__ import
annotations` here: the SDK reads the tools' parameter types from their annotations, which name
objects local to `create_server`.)
"""

import json
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp import __version__
from wave_lsp.core.facts.profiles import DEFAULT_PROFILE, TARGETS
from wave_lsp.mcp.handlers import ProjectTools, RequestError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

INSTRUCTIONS = f"""\
wave-lsp checks Agent Skills (SKILL.md files) for the runtime that will load them.
After writing or editing a SKILL.md, call `check` on it (or its folder) and fix every error;
`explain_rule` tells why a code matters and how to fix it. Call `preview` to see what the model
receives when the skill is invoked (arguments, variables, injected commands and their permission
decisions; nothing is executed), and `list_skills` to see which skills the runtime loads and which
one wins a name. Paths are relative to the project root and cannot leave it. Targets:
{", ".join(f"`{name}`" for name in TARGETS)} (default: the runtime that reads each file where it
lives; `{DEFAULT_PROFILE.name}` outside every skills root)."""


def create_server(root: Path) -> "MCPServer":
    """An MCP server whose tools read the project at `root` and nothing outside it."""
    from typing import Annotated, Any, cast

    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import CallToolResult, TextContent, ToolAnnotations
    from pydantic import Field

    tools = ProjectTools(root)
    server: MCPServer = MCPServer("wave-lsp", version=__version__, instructions=INSTRUCTIONS,
                                  log_level="WARNING")
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                open_world_hint=False)

    # A plain string, checked by the handlers: an enum would make the SDK answer a wrong value
    # with its raw validation report instead of the sentence naming the targets.
    Target = Annotated[
        str | None,
        Field(description=f"the runtime to model: one of {', '.join(TARGETS)}; default: "
                          "`[tool.wave-lsp] target`, else the runtime that reads each file where "
                          "it lives (`.claude/skills`: claude-code, `.agents/skills`: portable "
                          "across its runtimes)")]
    Personal = Annotated[
        bool, Field(description="consult the personal roots and settings (~/.wave, ~/.claude, "
                                "~/.agents), as the runtime does; false checks the project alone")]

    def personal_flag(personal: bool) -> bool | None:
        return None if personal else False

    def fail(error: RequestError) -> ToolError:
        return ToolError(str(error))

    def compact(result: dict[str, Any]) -> dict[str, Any]:
        """The result with its text as compact JSON (the SDK would indent it: about twice the
        tokens); the SDK passes a CallToolResult through, checking it against the output schema
        that the `dict` annotation gives."""
        text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        return cast(dict[str, Any], CallToolResult(content=[TextContent(type="text", text=text)],
                                                   structured_content=result))

    @server.tool(annotations=read_only, structured_output=True)
    def check(
        paths: Annotated[list[str], Field(
            description="files or folders relative to the project root; every SKILL.md under "
                        "a folder is checked")] = [".",],  # noqa: B006 (copied by pydantic)
        target: Target = None,
        select: Annotated[list[str], Field(
            description="only these rule codes or prefixes, e.g. [\"SK02\", \"SK110\"]")] = [],  # noqa: B006
        ignore: Annotated[list[str], Field(
            description="skip these rule codes or prefixes")] = [],  # noqa: B006
        personal: Personal = True,
    ) -> dict[str, Any]:
        """Check SKILL.md files and return every finding (code, severity, message, 0-based range,
        quick fixes) in the JSON of `wave-lsp check --format json` (schemas/check-output.schema.json):
        `files[].findings[]` and a `summary` with counts per severity. Fix errors first."""
        try:
            return compact(tools.check(paths, target, select, ignore, personal_flag(personal)))
        except RequestError as error:
            raise fail(error) from error

    @server.tool(annotations=read_only, structured_output=True)
    def preview(
        path: Annotated[str, Field(description="a SKILL.md or its folder, relative to the "
                                               "project root")],
        arguments: Annotated[str, Field(
            description="what the user types after /skill-name, as one string")] = "",
        target: Target = None,
        session_id: Annotated[str | None, Field(
            description="the session id substituted for ${CLAUDE_SESSION_ID}")] = None,
        personal: Personal = True,
    ) -> dict[str, Any]:
        """Render what the model receives when the skill is invoked: the prompt `text` with
        arguments and variables substituted, `allowedTools`, and every `!` injection with the
        command the shell would get and the permission decision (allow/ask/deny, and why).
        A dry run: injected commands are never executed, so their output is not in `text`.
        `ok` is false (with `error`) when the runtime would refuse the invocation."""
        try:
            return compact(tools.preview(path, arguments, target, session_id, personal_flag(personal)))
        except RequestError as error:
            raise fail(error) from error

    @server.tool(annotations=read_only, structured_output=True)
    def list_skills(
        directory: Annotated[str, Field(
            description="the folder the runtime starts in, relative to the project root")] = ".",
        target: Target = None,
        personal: Personal = True,
        every_runtime: Annotated[bool, Field(
            description="instead: per skill, which of the runtimes discover it, load it and "
                        "under which command (`list --targets all`)")] = False,
    ) -> dict[str, Any]:
        """List the skills the runtime loads from the project (and the personal roots), highest
        precedence first: name, scope, path, whether the model and the user can invoke it, its
        size in the model's skill listing, and `shadowedBy` when another skill wins the name.
        With `every_runtime`: where each skill loads, one entry per runtime."""
        try:
            return compact(tools.list_skills(directory, target, personal_flag(personal),
                                             every_runtime))
        except RequestError as error:
            raise fail(error) from error

    @server.tool(annotations=read_only, structured_output=True)
    def explain_rule(
        code: Annotated[str, Field(description="a rule code such as SK034")],
    ) -> dict[str, Any]:
        """Explain a rule code from a finding: its severity per target, why it matters, an
        example, the fix and whether a quick fix exists."""
        try:
            return compact(tools.explain_rule(code))
        except RequestError as error:
            raise fail(error) from error

    return server
