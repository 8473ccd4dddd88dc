"""The README's editor snippets stay true. Neovim's, Emacs's and Vim's run in the real editors
(test_neovim.py, test_emacs.py, test_other_editors.py); Helix and Zed cannot run here (no headless
mode, and no package of either in Debian 12, PyPI or npm), so their snippets are parsed here,
checked against what the server expects (command, file names, language id, settings) and, for
Helix, against what Helix makes of them, and the server they start — their `command`/`args` as
written, from this environment — is driven through one session with that editor's capability set
(tests/lsp/capabilities/) and the language id and settings the snippet gives."""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.clients.readme_snippets import readme_snippet, readme_snippets
from tests.lsp.conftest import make_workspace, start
from tests.lsp.helpers import diagnostics, make_client, open_document
from wave_lsp.core.runtime.profiles import TARGETS

SCRIPTS = Path(sys.executable).parent
#: the languages, by fence, each editor's snippet is written in
SNIPPETS = {"neovim-0.11": "lua", "neovim-0.7": "lua", "emacs-eglot": "elisp",
            "emacs-lsp-mode": "elisp", "vim-ale": "vim", "helix": "toml", "zed": "json"}
BROKEN = "---\nname: demo\n\n---\n# Demo\n"


def test_the_readme_has_a_snippet_per_editor() -> None:
    found = {name: language for name, (language, _) in readme_snippets().items()}
    assert found == SNIPPETS


def test_every_snippet_starts_wave_lsp_serve_with_a_known_target() -> None:
    """The command (`wave-lsp serve`) and the `wave.target` setting are the same in every snippet,
    and the target is one the server knows."""
    for name in SNIPPETS:
        text = readme_snippet(name)
        assert "wave-lsp" in text and "serve" in text, name
        assert ('target = "wave"' in text or ':target "wave"' in text or '"target": "wave"' in text
                or "'target': 'wave'" in text), name
    assert "wave" in TARGETS


@contextlib.asynccontextmanager
async def editor_session(command: list[str], profile: str, root: Path,
                         settings: dict) -> AsyncIterator[LanguageClient]:
    """The server started by `command` (its program taken from this environment), initialized as
    the editor `profile` would, answering `workspace/configuration` with `settings`."""
    program = shutil.which(command[0], path=str(SCRIPTS))  # `wave-lsp.exe` on Windows
    assert program, f"{command[0]} is not installed next to {sys.executable}"
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
# Helix is not packaged by Debian 12, PyPI or npm, so it cannot run here: its snippet is merged
# into Helix's own Markdown language as Helix merges a user's languages.toml, and the result is
# checked. The facts below are Helix's, read in helix-editor/helix at 079a789e (2026-07-23):
# languages.toml's Markdown entry, and the rule that highlighting comes from
# `runtime/queries/<grammar>/highlights.scm`, the grammar defaulting to the language's name
# (helix-core/src/syntax/config.rs); Helix ships queries for `markdown` only among these.
HELIX_MARKDOWN = {"name": "markdown", "scope": "source.md", "roots": [".marksman.toml"],
                  "file-types": ["md", "livemd", "markdown", "mdx", "mkd", "mkdn", "mdwn", "mdown",
                                 "markdn", "mdtxt", "mdtext", "workbook", {"glob": "PULLREQ_EDITMSG"}],
                  "language-servers": ["marksman", "markdown-oxide", "rumdl"]}
HELIX_HIGHLIGHT_QUERIES = {"markdown", "markdown.inline", "yaml", "toml", "html"}
#: helix-loader's merge depth for languages.toml (`merge_toml_values(default, user, 3)`)
HELIX_MERGE_DEPTH = 3


def helix_merge(left: object, right: object, depth: int) -> object:
    """helix-loader's `merge_toml_values`: tables merge key by key and arrays of named tables entry
    by entry, down to `depth` levels; anything deeper (or not both tables or arrays) is replaced."""
    if isinstance(left, list) and isinstance(right, list) and depth > 0:
        merged = list(left)
        for item in right:
            name = item.get("name") if isinstance(item, dict) else None
            position = next((i for i, old in enumerate(merged)
                             if name is not None and isinstance(old, dict) and old.get("name") == name), None)
            merged.append(item if position is None else helix_merge(merged.pop(position), item, depth - 1))
        return merged
    if isinstance(left, dict) and isinstance(right, dict) and depth > 0:
        return {**left, **{key: helix_merge(left[key], value, depth - 1) if key in left else value
                           for key, value in right.items()}}
    return right


def test_helix_merge_follows_helix() -> None:
    """Helix's own examples of the merge: a user's language entry changes the keys it names and
    keeps the others; its arrays of values replace the default's."""
    default = {"language": [{"name": "rust", "roots": ["Cargo.toml"], "indent": {"unit": "    "}}]}
    user = {"language": [{"name": "rust", "roots": ["x"]}, {"name": "new"}]}
    assert helix_merge(default, user, HELIX_MERGE_DEPTH) == {"language": [
        {"name": "rust", "roots": ["x"], "indent": {"unit": "    "}}, {"name": "new"}]}


def helix_config() -> tuple[dict, dict]:
    """The wave-lsp server entry and the language that starts it, once merged into Helix's own."""
    config = tomllib.loads(readme_snippet("helix"))
    merged = helix_merge({"language": [HELIX_MARKDOWN]}, config, HELIX_MERGE_DEPTH)
    assert isinstance(merged, dict)
    language = next(entry for entry in merged["language"] if "wave-lsp" in entry["language-servers"])
    return config["language-server"]["wave-lsp"], language


def test_helix_snippet_matches_what_the_server_serves() -> None:
    server, language = helix_config()
    assert [server["command"], *server["args"]] == ["wave-lsp", "serve"]
    # SKILL.md is highlighted: its language's grammar has highlight queries in Helix (a language
    # of its own, such as "skill", would have none and show plain text)
    assert language.get("grammar", language["name"]) in HELIX_HIGHLIGHT_QUERIES, language
    # every SKILL.md and stray skills-root *.md is one of the language's files
    assert "md" in language["file-types"], language
    # the language id the server is sent (Helix sends the language's name unless `language-id`)
    assert language.get("language-id", language["name"]) == "markdown"
    # Helix's own Markdown servers and root marker are kept, not silently replaced
    assert language["language-servers"][0] == HELIX_MARKDOWN["language-servers"][0], language
    assert ".marksman.toml" in language["roots"]
    assert {".wave", ".claude", ".git"} <= set(language["roots"])
    assert server["config"]["wave"]["target"] in TARGETS


async def test_helix_snippet_starts_a_working_server(tmp_path: Path) -> None:
    server, language = helix_config()
    root = make_workspace(tmp_path)
    # Helix answers `workspace/configuration` for section `wave` from `config.wave`
    async with editor_session([server["command"], *server["args"]], "helix", root,
                              server["config"]["wave"]) as client:
        await check_session(client, root, language.get("language-id", language["name"]))


# -- Zed -----------------------------------------------------------------------------------------
def zed_config() -> tuple[dict, list[str]]:
    settings = json.loads(readme_snippet("zed"))
    return settings["lsp"]["wave-lsp"], settings["languages"]["Markdown"]["language_servers"]


def test_zed_snippet_matches_what_the_server_serves() -> None:
    server, servers = zed_config()
    assert [server["binary"]["path"], *server["binary"]["arguments"]] == ["wave-lsp", "serve"]
    assert servers[0] == "wave-lsp" and "..." in servers  # wave-lsp first, Zed's own kept
    assert server["settings"]["wave"]["target"] in TARGETS


async def test_zed_snippet_starts_a_working_server(tmp_path: Path) -> None:
    server, _ = zed_config()
    root = make_workspace(tmp_path)
    # Zed answers `workspace/configuration` from `lsp.<server>.settings`; its Markdown language id
    async with editor_session([server["binary"]["path"], *server["binary"]["arguments"]], "zed", root,
                              server["settings"]["wave"]) as client:
        await check_session(client, root, "markdown")

