"""pytest-lsp fixtures: the real server in a subprocess, driven with real clients' capabilities.

`client` runs every test of a module once per client profile: VS Code (push diagnostics, UTF-16)
and Neovim 0.11 (pull diagnostics, UTF-8 preferred). One server per module and profile keeps the
suite fast; tests use their own document URIs. The workspace is a temporary folder with a few
skills, scripts and an agent file. A session starts when the server has indexed it (see
`helpers.wait_for_index`); the client records everything it receives (`helpers.make_client`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from lsprotocol.converters import get_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.helpers import make_client, wait_for_index

SERVER_COMMAND = [sys.executable, "-m", "wave_lsp", "serve", "--stdio"]
SERVER = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client)
#: VS Code's capabilities (push diagnostics) and Neovim 0.11's: pull diagnostics with refresh
#: support (pytest-lsp's "neovim" set declares pull without `workspace.diagnostics.refreshSupport`,
#: which the server answers with push, see test_diagnostics.py)
PROFILES = ["visual-studio-code", "neovim-0.11"]


#: more clients, for the client matrix (tests/lsp/test_client_matrix.py): pytest-lsp's captured sets
#: by exact version, and the ones it lacks as files in tests/lsp/capabilities/ (its README says
#: where each comes from)
MATRIX_PROFILES = ["neovim-0.7", "emacs-eglot", "helix", "zed", "push-only"]
PYTEST_LSP_SETS = {"neovim-0.7": "neovim@v0.7.0", "emacs-eglot": "emacs@v29.1"}
CAPABILITY_FILES = Path(__file__).with_name("capabilities")


def capabilities_of(profile: str) -> types.ClientCapabilities:
    """A client's capability set by name: pytest-lsp's, `neovim-0.11` and the matrix's."""
    if profile in PYTEST_LSP_SETS:
        return client_capabilities(PYTEST_LSP_SETS[profile])
    if (CAPABILITY_FILES / f"{profile}.json").is_file():
        params = json.loads((CAPABILITY_FILES / f"{profile}.json").read_text("utf-8"))
        return get_converter().structure(params, types.InitializeParams).capabilities
    if profile != "neovim-0.11":
        return client_capabilities(profile)
    capabilities = client_capabilities("neovim")
    workspace = capabilities.workspace or types.WorkspaceClientCapabilities()
    workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    capabilities.workspace = workspace
    return capabilities

DEMO = """---
name: demo
description: Runs the demo. Use when the user asks for a demo.
argument-hint: "[topic]"
---
# Demo

Run `scripts/run.sh` and read [the guide](references/guide.md).
"""

OTHER = """---
name: other
description: Formats release notes. Use when the user asks for release notes.
---
# Other
"""


def make_workspace(root: Path) -> Path:
    files = {
        ".wave/skills/demo/SKILL.md": DEMO,
        ".wave/skills/demo/scripts/run.sh": "#!/bin/sh\necho demo\n",
        ".wave/skills/demo/references/guide.md": "# Guide\n",
        ".wave/skills/other/SKILL.md": OTHER,
        ".wave/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews code.\n---\nReview.\n",
        "home/.keep": "",
    }
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    (root / ".git").mkdir()
    return root


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_workspace(tmp_path_factory.mktemp("ws"))


async def start(client: LanguageClient, profile: str | types.ClientCapabilities, root: Path,
                settings: dict | None = None, ready: bool = True,
                client_info: types.ClientInfo | None = None) -> None:
    """Initialize a session as the given client would (its capabilities and its answers); with
    `ready`, return once the server has indexed the workspace."""
    client.set_configuration({"personalSkills": False, **(settings or {})}, section="wave")
    capabilities = capabilities_of(profile) if isinstance(profile, str) else profile
    client.declared = capabilities
    client.initialize_result = await client.initialize_session(types.InitializeParams(
        capabilities=capabilities, root_uri=root.as_uri(), client_info=client_info,
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")]))
    if ready:
        await wait_for_index(client)


@pytest_lsp.fixture(scope="module", params=PROFILES, config=SERVER)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest, workspace: Path):
    await start(lsp_client, request.param, workspace)
    yield
    await lsp_client.shutdown_session()
