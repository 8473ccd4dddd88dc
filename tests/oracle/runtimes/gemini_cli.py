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
from tests.oracle.netns import Host, Namespace, isolation
from tests.oracle.runtimes import common
from tests.oracle.runtimes._npm import install_dir, npm_install
from tests.oracle.runtimes.base import Invocation, Layout, Observation, Outcome
from tests.oracle.runtimes.pty_session import type_line

VERSION = "0.61.0"
NAME = "gemini-cli"
PACKAGE = "@google/gemini-cli"
MODEL = "gemini-2.5-flash"
TOOL = "activate_skill"
#: the interactive UI is ready when its input box shows this
READY_TEXT = "Type your message"
#: the skills are loaded (a `/name` typed before that goes to the model as a prompt) when the
#: screen shows their count
_SKILLS_LOADED = re.compile(r"\b\d+ skills?\b")


def ui_ready(screen: str) -> bool:
    """The interactive UI takes a `/name` line: its prompt is shown and its skills are loaded."""
    return READY_TEXT in screen and _SKILLS_LOADED.search(screen) is not None
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


class GeminiCli:
    """The adapter (`tests.oracle.runtimes.base.RuntimeAdapter`)."""

    name = NAME
    target = "gemini-cli"
    version = VERSION
    layout = Layout(project_skills=".gemini/skills", personal_skills=".gemini/skills")
    modes = ("slash", "tool")

    def executable(self) -> Path | None:
        if shutil.which("node") is None:
            return None
        return _script_in(install_dir(NAME, VERSION))

    def install(self) -> Path:
        return npm_install(PACKAGE, VERSION, install_dir(NAME, VERSION), _script_in)

    def observe(self, project: Path, home: Path, cwd: Path,
                invocations: list[Invocation]) -> Observation:
        script = self.executable()
        if script is None:
            return Observation(None, {}, [f"Gemini CLI {VERSION} (or node) is not installed"])
        try:
            network = isolation()
        except Exception as error:  # `WAVE_LSP_REQUIRE_NETNS=1` and no namespace
            return Observation(None, {}, [f"no network namespace: {error}"])
        try:
            with network.call(GeminiMock) as api:
                session = _Session(script, network, api, project, home, cwd)
                if not network.isolated:
                    session.notes.append(network.reason)
                return session.observe(invocations)
        except Exception as error:
            return Observation(None, {}, [f"Gemini CLI could not be run: {error!r}"])
        finally:
            network.close()


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


class _Session:
    """The runs of one observation."""

    def __init__(self, script: Path, namespace: Namespace | Host, api: RecordingServer,
                 project: Path, home: Path, cwd: Path) -> None:
        self.script, self.namespace, self.api = script, namespace, api
        self.project, self.home_template, self.cwd = project, home, cwd
        self.notes: list[str] = []

    def observe(self, invocations: list[Invocation]) -> Observation:
        jobs = list(enumerate(invocations))
        results = common.in_parallel(lambda job: self._invoke(*job), jobs)
        outcomes = {f"{invocation.mode}#{index}": outcome
                    for (index, invocation), (outcome, _) in zip(jobs, results, strict=True)}
        first = next((requests[0] for _, requests in results if requests), None)
        if first is None:
            requests = self._headless(None)
            first = requests[0] if requests else None
        listing = listing_entries(first, self.project, self.cwd) if first is not None else None
        if listing is None:
            self.notes.append("no request with a system instruction was received")
        return Observation(listing, outcomes, self.notes)

    def _invoke(self, index: int, invocation: Invocation,
                ) -> tuple[Outcome, list[dict[str, Any]]]:
        if invocation.mode == "tool":
            requests = self._headless(invocation.skill)
            outcome = tool_outcome(requests)
            if invocation.args:
                outcome.exact = False  # activate_skill takes no arguments
            return outcome, requests
        if invocation.mode == "slash":
            line = f"/{invocation.skill}" + (f" {invocation.args}" if invocation.args else "")
            requests, screen = self._typed(line)
            return slash_outcome(requests, screen), requests
        return Outcome("unsupported", f"no mode {invocation.mode!r}"), []

    def _environment(self, home: Path, run_id: str, terminal: str) -> dict[str, str]:
        return common.base_environment(home, TERM=terminal, GEMINI_API_KEY="dummy",
                                       GOOGLE_GEMINI_BASE_URL=self.api.base_url(run_id))

    def _headless(self, skill: str | None) -> list[dict[str, Any]]:
        calls = [ToolCall(TOOL, {"name": skill})] if skill else []
        run_id, run = self.api.new_run(calls)
        home = gemini_home(self.home_template, self.project)
        try:
            argv = ["node", str(self.script), "-m", MODEL, "--approval-mode", "yolo", "-p",
                    PROMPT]
            ran = common.run(self.namespace.wrap(argv), self.cwd,
                             self._environment(home, run_id, "dumb"))
        finally:
            shutil.rmtree(home, ignore_errors=True)
        if ran.returncode != 0:
            self.notes.append(ran.note("gemini -p"))
        return _tilde(list(run.requests), home)

    def _typed(self, line: str) -> tuple[list[dict[str, Any]], str]:
        run_id, run = self.api.new_run()
        home = gemini_home(self.home_template, self.project)
        try:
            argv = ["node", str(self.script), "-m", MODEL]
            typed = type_line(self.namespace.wrap(argv),
                              self._environment(home, run_id, "xterm-256color"), str(self.cwd),
                              common.ready_or_settled(ui_ready, READY_TEXT), line,
                              lambda: bool(run.requests), settle=3.0,
                              done_timeout=20.0, answered_on_screen=_refused_on_screen)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        if not typed.ready:
            self.notes.append(f"the interactive UI never showed {READY_TEXT!r}: "
                              f"{typed.screen[-300:]!r}")
        return _tilde(list(run.requests), home), typed.screen


def _refused_on_screen(screen: str) -> bool:
    """The typed line was refused on screen (an unknown command): no request will follow."""
    return re.search(r"unknown command|not found", screen, re.I) is not None


def _tilde(requests: list[dict[str, Any]], home: Path) -> list[dict[str, Any]]:
    """The requests with paths under the run's HOME written `~`."""
    loaded: list[dict[str, Any]] = json.loads(
        common.with_home_as_tilde(json.dumps(requests), home))
    return loaded


# -- reading the requests ----------------------------------------------------------------------

def system_instruction(request: dict[str, Any]) -> str:
    instruction = request.get("systemInstruction") or {}
    parts = instruction.get("parts") if isinstance(instruction, dict) else None
    return "".join(part.get("text", "") for part in parts or [] if isinstance(part, dict))


def listing_entries(request: dict[str, Any], project: Path, cwd: Path) -> dict[str, str] | None:
    """The skills of the project and of HOME in the listing: name -> its `<skill>` element
    exactly as sent (None: no `<available_skills>`)."""
    prompt = system_instruction(request)
    start, end = prompt.find("<available_skills>"), prompt.find("</available_skills>")
    if start < 0 or end < 0:
        return None
    found: dict[str, str] = {}
    for element in common.elements(prompt[start:end], "skill"):
        name, location = common.inner(element, "name"), common.inner(element, "location") or ""
        if name is not None and (location.startswith(("~/", str(project), str(cwd)))):
            found[name] = element
    return found


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
