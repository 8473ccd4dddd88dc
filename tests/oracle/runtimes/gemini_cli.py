"""Gemini CLI as an oracle of the `gemini-cli` target (tests/oracle/README.md; the recipe:
`../shared/reference/oracles.md`, Gemini CLI; the facts: docs/design/runtime-facts.md §9).

Gemini CLI runs offline against the Gemini API mock (`tests/oracle/mocks/gemini.py`,
`GOOGLE_GEMINI_BASE_URL`), inside the harness's network namespace with only loopback
(tests/oracle/netns.py: the mock's socket is made inside it and the runtime is started with
`nsenter`), with a fixed model (`-m gemini-2.5-flash`: no
router request). Every run has a fresh HOME (a copy of the probe's) with `~/.gemini/settings.json`
(API-key auth, no update check, no usage statistics, no telemetry) and `~/.gemini/trustedFolders.json`
trusting the project (0.61.0 refuses to start headless in an untrusted folder, exit 55).

What is read:

- the listing: `<available_skills>` in the system instruction, one `<skill>` element per skill
  (the built-in ones, whose `<location>` is inside the install, are left out);
- `tool` mode: `gemini -p` with `--approval-mode yolo`, the mock answering the first request with
  an `activate_skill` call; its `functionResponse` holds `<activated_skill name="N">` with the body
  in `<instructions>` (the tool takes no arguments, so an invocation's arguments are not passed);
- `slash` mode: the interactive UI on a pseudo-terminal (`pty_session`), `/N args` typed; the
  first request holds a synthetic `activate_skill` call and its response, and the arguments follow
  as a separate user message.

The rendered text is the body as the model receives it: what is between `<instructions>\\n    `
and `\\n  </instructions>`.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from tests.oracle.mocks.gemini import GeminiMock
from tests.oracle.mocks.recording import RecordingServer, ToolCall
from tests.oracle.netns import Host, Namespace
from tests.oracle.runtimes import common
from tests.oracle.runtimes._npm import NpmRuntime
from tests.oracle.runtimes.base import Invocation, Layout, Observation, Outcome

VERSION = "0.61.0"
NAME = "gemini-cli"
PACKAGE = "@google/gemini-cli"
MODEL = "gemini-2.5-flash"
TOOL = "activate_skill"
#: the interactive UI is ready when its input box shows this
READY_TEXT = "Type your message"


def ui_ready(screen: str) -> bool:
    """The interactive UI takes a `/name` line: its prompt is shown and its skills are loaded."""
    return common.skills_shown(screen, READY_TEXT)
PROMPT = "Use the skill."
SETTINGS = {"security": {"auth": {"selectedType": "gemini-api-key"}},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
            "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False}}
_UNKNOWN = re.compile(r"not found|unknown|no skill|must be equal to one of the allowed values",
                      re.I)
_ACTIVATED = re.compile(r'<activated_skill name="([^"]*)">\n  <instructions>\n    (.*?)\n  '
                        r'</instructions>', re.S)


def _script_in(folder: Path) -> Path | None:
    candidate = folder / "node_modules" / "@google" / "gemini-cli" / "bundle" / "gemini.js"
    return candidate if candidate.is_file() else None


class GeminiCli(NpmRuntime):
    """The adapter (`tests.oracle.runtimes.base.RuntimeAdapter`)."""

    name = NAME
    target = "gemini-cli"
    version = VERSION
    package = PACKAGE
    layout = Layout(project_skills=".gemini/skills", personal_skills=".gemini/skills")
    modes: tuple[str, ...] = ("slash", "tool")

    def find(self, folder: Path) -> Path | None:
        return _script_in(folder)

    def executable(self) -> Path | None:
        if shutil.which("node") is None:
            return None
        return super().executable()

    def observe(self, project: Path, home: Path, cwd: Path,
                invocations: list[Invocation]) -> Observation:
        script = self.executable()
        if script is None:
            return Observation(None, {}, [f"Gemini CLI {self.version} (or node) is not installed"])
        return common.observe_beside(
            GeminiMock, lambda network, api: _Session(script, network, api, project, home, cwd),
            invocations, "Gemini CLI")


def gemini_home(template: Path | None, project: Path) -> Path:
    """A fresh HOME: the probe's, with Gemini CLI's settings and the project trusted."""
    home = common.fresh_home(template)
    folder = home / ".gemini"
    folder.mkdir(exist_ok=True)
    settings = folder / "settings.json"
    if not settings.exists():
        settings.write_text(json.dumps(SETTINGS))
    trusted = folder / "trustedFolders.json"
    if not trusted.exists():
        trusted.write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    return home


class _Session(common.PromptSession):
    """The runs of one observation."""

    command = "gemini"
    ready_text = READY_TEXT
    done_timeout = 20.0
    listing_holder = "a system instruction"

    def __init__(self, script: Path, namespace: Namespace | Host, api: RecordingServer,
                 project: Path, home: Path, cwd: Path) -> None:
        super().__init__(namespace, api, home, cwd)
        self.script, self.project = script, project

    def home(self) -> Path:
        return gemini_home(self.home_template, self.project)

    def headless_argv(self) -> list[str]:
        return ["node", str(self.script), "-m", MODEL, "--approval-mode", "yolo", "-p", PROMPT]

    def interactive_argv(self) -> list[str]:
        return ["node", str(self.script), "-m", MODEL]

    def environment(self, home: Path, base_url: str, terminal: str) -> dict[str, str]:
        return common.base_environment(home, TERM=terminal, GEMINI_API_KEY="dummy",
                                       GOOGLE_GEMINI_BASE_URL=base_url)

    def tool_calls(self, skill: str) -> list[ToolCall]:
        return [ToolCall(TOOL, {"name": skill})]

    def refused_on_screen(self, screen: str) -> bool:
        return _refused_on_screen(screen)

    def replaced_on_screen(self, screen: str, line: str) -> str | None:
        return replaced_on_screen(screen, line)

    def tool_outcome(self, requests: list[dict[str, Any]], skill: str) -> Outcome:
        return tool_outcome(requests)

    def slash_outcome(self, requests: list[dict[str, Any]], screen: str) -> Outcome:
        return slash_outcome(requests, screen)

    def listing(self, request: dict[str, Any]) -> dict[str, str] | None:
        return listing_entries(request, self.project, self.cwd)


def _refused_on_screen(screen: str) -> bool:
    """The typed line was refused on screen (an unknown command): no request will follow."""
    return re.search(r"unknown command|not found", screen, re.I) is not None


#: a line of the input box or of the history: ` > /command …`
_ECHOED = re.compile(r"^ *> (/\S+)", re.M)


def replaced_on_screen(screen: str, line: str) -> str | None:
    """The command Gemini CLI 0.61.0 ran instead of the typed `/name` (None: it did not): with no
    command of that name, its completion may select another one (`/clear`) and Enter runs it,
    so the screen shows ` > /clear` and no request follows. A command that is a prefix of the
    typed one is the typing itself."""
    typed = line.split(" ", 1)[0]
    for found in _ECHOED.finditer(screen):
        if not typed.startswith(found.group(1)):
            return found.group(1)
    return None


# -- reading the requests ----------------------------------------------------------------------

def system_instruction(request: dict[str, Any]) -> str:
    instruction = request.get("systemInstruction") or {}
    parts = instruction.get("parts") if isinstance(instruction, dict) else None
    return "".join(part.get("text", "") for part in parts or [] if isinstance(part, dict))


def listing_entries(request: dict[str, Any], project: Path, cwd: Path) -> dict[str, str] | None:
    """The skills of the project and of HOME in the listing: name -> its `<skill>` element
    exactly as sent (None: no `<available_skills>`)."""
    return common.available_skills(
        system_instruction(request),
        lambda location: (location or "").startswith(("~/", str(project), str(cwd))))


def function_responses(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Every `functionResponse` part of a request's contents, in order."""
    return [part["functionResponse"] for content in request.get("contents") or []
            for part in content.get("parts") or []
            if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict)]


def _outcome(response: dict[str, Any]) -> Outcome:
    body = response.get("response") or {}
    output = body.get("output") if isinstance(body, dict) else None
    if isinstance(output, str):
        found = _ACTIVATED.search(output)
        if found:
            return Outcome("rendered", found.group(2))
    error = body.get("error") if isinstance(body, dict) else None
    text = str(error if error is not None else output)
    # an unknown name fails the tool's schema (its `name` is an enum of the loaded skills):
    # `params/name must be equal to one of the allowed values`
    kind = "not-found" if _UNKNOWN.search(text) else "refused"
    return Outcome(kind, text)


def tool_outcome(requests: list[dict[str, Any]]) -> Outcome:
    """What the model's `activate_skill` call gave it (from the second request)."""
    responses = [r for request in requests[1:2] for r in function_responses(request)
                 if r.get("name") == TOOL]
    if not responses:
        return Outcome("missing", f"{len(requests)} request(s): the tool call was not answered",
                       exact=False)
    return _outcome(responses[0])


def slash_outcome(requests: list[dict[str, Any]], screen: str) -> Outcome:
    """What a typed `/name args` gave the model: the synthetic `activate_skill` response of the
    first request; a request without one (the line went to the model as a prompt) is
    "not-found"; with no request at all, the screen says what happened (only the kind is
    compared)."""
    if not requests:
        kind = "not-found" if re.search(r"unknown command|not found", screen, re.I) else "missing"
        return Outcome(kind, screen.strip()[-300:], exact=False)
    responses = [r for r in function_responses(requests[0]) if r.get("name") == TOOL]
    if not responses:
        return Outcome("not-found", json.dumps(requests[0].get("contents"))[-300:])
    return _outcome(responses[0])


def follow_up(requests: list[dict[str, Any]]) -> str | None:
    """The user message after the activation (the typed arguments, sent on their own)."""
    contents = requests[0].get("contents") or [] if requests else []
    texts = [part.get("text") for content in contents[-1:] if content.get("role") == "user"
             for part in content.get("parts") or [] if isinstance(part, dict)]
    return next((text for text in texts if isinstance(text, str)), None)


ADAPTER = GeminiCli()
