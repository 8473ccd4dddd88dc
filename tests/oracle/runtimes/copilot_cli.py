"""GitHub Copilot CLI as an oracle of the `copilot-cli` target (tests/oracle/README.md; the recipe:
`../shared/reference/oracles.md`, Copilot CLI; the facts: docs/design/runtime-facts.md §9).

Copilot CLI runs offline against the OpenAI Chat Completions mock (`tests/oracle/mocks/
openai_chat.py`) in its BYOK mode (`COPILOT_OFFLINE=true`, `COPILOT_PROVIDER_*`), inside the
harness's network namespace with only loopback (tests/oracle/netns.py: the mock's socket is made
inside it and the runtime is started with `nsenter`). Every
run has a fresh HOME (a copy of the probe's) and the shared, pre-filled `COPILOT_CACHE_HOME` of the
install, so that no run unpacks the 235 MB package again.

What is read:

- the listing: `<available_skills>` in the system prompt, one `<skill>` element per skill (its
  `<location>` is `project`, `user` or `builtin`; the built-in skills are left out);
- `tool` mode: `copilot -p` with the mock answering the first request with a call of the tool
  whose parameters have a `skill` property; the skill arrives as a user message
  `<skill-context name="N">\\n…\\n</skill-context>` after the tool's result (the tool takes no
  arguments, so an invocation's arguments are not passed in this mode);
- `slash` mode: the interactive UI on a pseudo-terminal (`pty_session`), `/N args` typed; the
  first request's user message holds the same `<skill-context>`.

The rendered text is what is between `<skill-context name="N">\\n` and `\\n</skill-context>`.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from tests.oracle.mocks.openai_chat import ChatMock, content_text
from tests.oracle.mocks.recording import RecordingServer, ToolCall
from tests.oracle.netns import Host, Namespace
from tests.oracle.runtimes import common
from tests.oracle.runtimes._npm import NpmRuntime, Unavailable, install_dir, locked
from tests.oracle.runtimes.base import Invocation, Layout, Observation, Outcome

VERSION = "1.0.102"
NAME = "copilot-cli"
PACKAGE = "@github/copilot"
MODEL = "gpt-4.1"
#: the interactive UI is ready when its status line shows this
READY_TEXT = "? help"


def ui_ready(screen: str) -> bool:
    """The interactive UI takes a `/name` line: its prompt is shown and its skills are loaded."""
    return common.skills_shown(screen, READY_TEXT)
#: what a plain headless run asks (the mock answers `ok`)
PROMPT = "Use the skill."
_UNKNOWN = re.compile(r"unknown (?:command|skill)|not found", re.I)
_CONTEXT = re.compile(r'<skill-context name="([^"]*)">\n(.*?)\n</skill-context>', re.S)


def _binary_in(folder: Path) -> Path | None:
    candidate = folder / "node_modules" / "@github" / "copilot-linux-x64" / "copilot"
    if candidate.is_file() and os.access(candidate, os.X_OK):
        return candidate
    loader = folder / "node_modules" / ".bin" / "copilot"
    return loader if loader.exists() else None


class CopilotCli(NpmRuntime):
    """The adapter (`tests.oracle.runtimes.base.RuntimeAdapter`)."""

    name = NAME
    target = "copilot-cli"
    version = VERSION
    package = PACKAGE
    layout = Layout(project_skills=".github/skills", personal_skills=".copilot/skills")
    modes: tuple[str, ...] = ("slash", "tool")

    def find(self, folder: Path) -> Path | None:
        return _binary_in(folder)

    def package_cache(self) -> Path:
        """The shared `COPILOT_CACHE_HOME` the binary unpacks itself into once."""
        return install_dir(NAME, self.version) / "copilot-cache"

    def install(self) -> Path:
        binary = super().install()
        self._fill_cache(binary)
        return binary

    def _fill_cache(self, binary: Path) -> None:
        """Unpack the package into the shared cache once (`copilot --version`)."""
        cache = self.package_cache()
        with locked(f"{NAME}-{self.version}-cache"):
            if cache.is_dir() and any(cache.iterdir()):
                return
            home = common.fresh_home(None)
            try:
                ran = common.run([str(binary), "--version"], home,
                                 self._environment(home, "http://127.0.0.1:9/v1"), timeout=300)
            finally:
                shutil.rmtree(home, ignore_errors=True)
            if ran.returncode != 0 or self.version not in ran.stdout:
                raise Unavailable(ran.note(f"{binary} --version"))

    def _environment(self, home: Path, base_url: str) -> dict[str, str]:
        return common.base_environment(
            home, TERM="xterm-256color", COPILOT_CACHE_HOME=str(self.package_cache()),
            COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=base_url,
            COPILOT_PROVIDER_TYPE="openai", COPILOT_PROVIDER_API_KEY="dummy",
            COPILOT_MODEL=MODEL, COPILOT_AUTO_UPDATE="false", COPILOT_ALLOW_ALL="true")

    # -- observing ------------------------------------------------------------------------------

    def observe(self, project: Path, home: Path, cwd: Path,
                invocations: list[Invocation]) -> Observation:
        binary = self.executable()
        if binary is None:
            return Observation(None, {}, [f"Copilot CLI {self.version} is not installed"])
        try:
            self._fill_cache(binary)
        except Exception as error:
            return Observation(None, {}, [f"Copilot CLI could not be run: {error!r}"])
        return common.observe_beside(
            ChatMock, lambda network, api: _Session(self, binary, network, api, home, cwd),
            invocations, "Copilot CLI")


class _Session(common.PromptSession):
    """The runs of one observation."""

    command = "copilot"
    ready_text = READY_TEXT
    done_timeout = 30.0
    listing_holder = "a system prompt"

    def __init__(self, adapter: CopilotCli, binary: Path, namespace: Namespace | Host,
                 api: RecordingServer, home: Path, cwd: Path) -> None:
        super().__init__(namespace, api, home, cwd)
        self.adapter, self.binary = adapter, binary

    def headless_argv(self) -> list[str]:
        return [*self.interactive_argv(), "-p", PROMPT]

    def interactive_argv(self) -> list[str]:
        return [str(self.binary), "--disable-client-telemetry", "--allow-all-tools"]

    def environment(self, home: Path, base_url: str, terminal: str) -> dict[str, str]:
        return self.adapter._environment(home, base_url)  # TERM=xterm-256color in both modes

    def tool_calls(self, skill: str) -> list[ToolCall]:
        return [ToolCall(None, {"skill": skill}, property="skill")]

    def refused_on_screen(self, screen: str) -> bool:
        return bool(_UNKNOWN.search(screen))

    def tool_outcome(self, requests: list[dict[str, Any]], skill: str) -> Outcome:
        return tool_outcome(requests, skill)

    def slash_outcome(self, requests: list[dict[str, Any]], screen: str) -> Outcome:
        return slash_outcome(requests, screen)

    def listing(self, request: dict[str, Any]) -> dict[str, str] | None:
        return listing_entries(request)


# -- reading the requests ----------------------------------------------------------------------

def system_prompt(request: dict[str, Any]) -> str:
    return "".join(content_text(message.get("content"))
                   for message in request.get("messages") or [] if message.get("role") == "system")


def listing_entries(request: dict[str, Any]) -> dict[str, str] | None:
    """The project's and the user's skills in the listing: name -> its `<skill>` element exactly
    as sent (None: the request has no `<available_skills>`)."""
    return common.available_skills(system_prompt(request),
                                   lambda location: location != "builtin")


def rendered(text: str, skill: str | None = None) -> str | None:
    """The inside of the first `<skill-context>` of `text` (of the skill named `skill`)."""
    for found in _CONTEXT.finditer(text):
        if skill is None or found.group(1) == skill:
            return found.group(2)
    return None


def tool_outcome(requests: list[dict[str, Any]], skill: str) -> Outcome:
    """What the skill tool's call gave the model: the second request holds the tool's result and,
    when the skill loaded, a user message with its `<skill-context>`."""
    if len(requests) < 2:
        return Outcome("missing", f"{len(requests)} request(s): the tool call was not answered",
                       exact=False)
    messages = requests[1].get("messages") or []
    result = next((message for message in messages if message.get("role") == "tool"), None)
    after = messages[messages.index(result) + 1:] if result is not None else []
    for message in after:
        text = rendered(content_text(message.get("content")), skill)
        if message.get("role") == "user" and text is not None:
            return Outcome("rendered", text)
    reply = content_text(result.get("content")) if result is not None else ""
    kind = "not-found" if re.search(r"not found|unknown|no skill", reply, re.I) else "refused"
    return Outcome(kind, reply)


def slash_outcome(requests: list[dict[str, Any]], screen: str) -> Outcome:
    """What a typed `/name args` gave the model: the first request's `<skill-context>`; a request
    without one (the line went to the model as a prompt) is "not-found"; with no request at all,
    the screen says what happened (only the kind is compared)."""
    if not requests:
        kind = "not-found" if _UNKNOWN.search(screen) else "missing"
        return Outcome(kind, screen.strip()[-300:], exact=False)
    users = [m for m in requests[0].get("messages") or [] if m.get("role") == "user"]
    text = content_text(users[-1].get("content")) if users else ""
    body = rendered(text)
    if body is None:
        return Outcome("not-found", text)
    return Outcome("rendered", body)


ADAPTER = CopilotCli()
