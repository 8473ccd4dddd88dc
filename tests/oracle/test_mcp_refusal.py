"""Claude Code shows why `wave-lsp mcp` cannot start (issue 38 item 3): run the pinned Claude
Code's `claude mcp add` and `claude mcp get` against `wave-lsp mcp` started without the MCP SDK,
and read the reason where the user looks. Inside a network namespace with only loopback where
one can be made (netns.py); no model API is needed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.oracle.claude import NO_API, environment, fresh_home, installed_or_skip
from tests.oracle.netns import isolation

#: `wave-lsp mcp` with the SDK's module hidden, as when the `mcp` extra is not installed
WITHOUT_SDK = ("import sys; sys.modules['mcp.server.mcpserver'] = None\n"
               "from wave_lsp.cli import main\nsys.exit(main(['mcp']))\n")


@pytest.mark.slow  # it runs the real Claude Code: `--slow`, the second step of .ci/run
def test_claude_code_shows_what_to_install(tmp_path: Path) -> None:
    binary = installed_or_skip()
    home = fresh_home(None)
    network = isolation()
    try:
        starter = tmp_path / "start_without_sdk.py"
        starter.write_text(WITHOUT_SDK, "utf-8")
        env = environment(home, NO_API)
        env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])

        def claude(*words: str) -> str:
            done = subprocess.run(network.wrap([str(binary), "mcp", *words]), cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=120)
            return done.stdout + done.stderr

        added = claude("add", "-s", "user", "wave-lsp", "--", sys.executable, str(starter))
        assert "Added stdio MCP server wave-lsp" in added, added
        assert json.loads((home / ".claude.json").read_text())["mcpServers"]["wave-lsp"]
        shown = claude("get", "wave-lsp")
        assert "Failed to connect" in shown, shown
        # the sentence that says what to install, not "CONNECTION_CLOSED" or a time-out
        assert "the `mcp` extra, is not installed; install it with" in shown, shown
        assert "pip install 'wave-lsp[mcp]'" in shown, shown
    finally:
        network.close()
        shutil.rmtree(home, ignore_errors=True)
