"""The README's editor snippets stay true. Neovim's and Emacs's run in the real editors
(test_neovim.py, test_emacs.py); Helix and Zed have no headless mode, so their snippets are parsed
here, checked against what the server expects (command, file names, language id, settings), and
the server they start — their `command`/`args` as written, from this environment — is driven
through one session with that editor's capability set (tests/lsp/capabilities/) and the language
id and settings the snippet gives."""

from __future__ import annotations

import contextlib
import fnmatch
import json
import sys
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.clients.readme_snippets import readme_snippet, readme_snippets
from tests.lsp.conftest import make_workspace, start
from tests.lsp.helpers import diagnostics, make_client, open_document

SCRIPTS = Path(sys.executable).parent
#: the languages, by fence, each editor's snippet is written in
SNIPPETS = {"neovim-0.11": "lua", "neovim-0.7": "lua", "emacs-eglot": "elisp",
            "emacs-lsp-mode": "elisp", "vim-ale": "vim", "helix": "toml", "zed": "json"}
BROKEN = "---\nname: demo\n\n---\n# Demo\n"


def test_the_readme_has_a_snippet_per_editor() -> None:
    found = {name: language for name, (language, _) in readme_snippets().items()}
    assert found == SNIPPETS


def test_every_snippet_starts_wave_lsp_serve_with_the_default_target() -> None:
    """The command (`wave-lsp serve`) is the same in every snippet, and none sets a target: the
    server then gives each skill the target that fits where it lives, as `check` and `list` do
    (issue 36: one default target, everywhere)."""
    for name in SNIPPETS:
        text = readme_snippet(name)
        assert "wave-lsp" in text and "serve" in text, name
        assert "target" not in text, name


@contextlib.asynccontextmanager
async def editor_session(command: list[str], profile: str, root: Path,
                         settings: dict) -> AsyncIterator[LanguageClient]:
    """The server started by `command` (its program taken from this environment), initialized as
    the editor `profile` would, answering `workspace/configuration` with `settings`."""
    program = SCRIPTS / command[0]
    assert program.is_file(), f"{command[0]} is not installed next to {sys.executable}"
    client = make_client()
    await client.start_io(str(program), *command[1:])
    try:
        await start(client, profile, root, settings=settings)
        yield client
        await client.shutdown_session()
    finally:
        await client.stop()


async def check_session(client: LanguageClient, root: Path, language_id: str) -> None:
    path = root / ".wave/skills/broken/SKILL.md"
    path.parent.mkdir(parents=True)
    uri = open_document(client, path, BROKEN.replace("demo", "broken"), language_id=language_id)
    found = [d for d in await diagnostics(client, uri) if d.code == "SK050"]
    assert found and found[0].range.start == types.Position(0, 0), found


# -- Helix ---------------------------------------------------------------------------------------
def helix_config() -> tuple[dict, dict]:
    config = tomllib.loads(readme_snippet("helix"))
    language = next(entry for entry in config["language"] if "wave-lsp" in entry["language-servers"])
    return config["language-server"]["wave-lsp"], language


def test_helix_snippet_matches_what_the_server_serves() -> None:
    server, language = helix_config()
    assert [server["command"], *server["args"]] == ["wave-lsp", "serve"]
    globs = [entry["glob"] for entry in language["file-types"]]
    assert all(any(fnmatch.fnmatchcase(name, glob) for glob in globs) for name in ("SKILL.md", "skill.md"))
    assert not any(fnmatch.fnmatchcase("README.md", glob) for glob in globs)
    assert language["grammar"] == "markdown" and language["language-id"] == "markdown"
    assert {".wave", ".claude", ".git"} <= set(language["roots"])
    assert "config" not in server  # no target: the one that fits where each skill lives


async def test_helix_snippet_starts_a_working_server(tmp_path: Path) -> None:
    server, language = helix_config()
    root = make_workspace(tmp_path)
    # Helix answers `workspace/configuration` for section `wave` from `config.wave`
    async with editor_session([server["command"], *server["args"]], "helix", root,
                              server.get("config", {}).get("wave", {})) as client:
        await check_session(client, root, language["language-id"])


# -- Zed -----------------------------------------------------------------------------------------
def zed_config() -> tuple[dict, list[str]]:
    settings = json.loads(readme_snippet("zed"))
    return settings["lsp"]["wave-lsp"], settings["languages"]["Markdown"]["language_servers"]


def test_zed_snippet_matches_what_the_server_serves() -> None:
    server, servers = zed_config()
    assert [server["binary"]["path"], *server["binary"]["arguments"]] == ["wave-lsp", "serve"]
    assert servers[0] == "wave-lsp" and "..." in servers  # wave-lsp first, Zed's own kept
    assert "settings" not in server  # no target: the one that fits where each skill lives


async def test_zed_snippet_starts_a_working_server(tmp_path: Path) -> None:
    server, _ = zed_config()
    root = make_workspace(tmp_path)
    # Zed answers `workspace/configuration` from `lsp.<server>.settings`; its Markdown language id
    async with editor_session([server["binary"]["path"], *server["binary"]["arguments"]], "zed", root,
                              server.get("settings", {}).get("wave", {})) as client:
        await check_session(client, root, "markdown")

