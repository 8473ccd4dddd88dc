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

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from tests.oracle.install import Unavailable
from tests.oracle.mocks.openai_chat import ChatMock
from tests.oracle.mocks.recording import RecordingServer, Run, ToolCall
from tests.oracle.netns import Host, Namespace, isolation
from tests.oracle.runtimes import common
from tests.oracle.runtimes._npm import install_dir, locked, npm_install
from tests.oracle.runtimes.base import Invocation, Layout, Observation, Outcome
from tests.oracle.runtimes.pty_session import type_line

VERSION = "1.0.102"
NAME = "copilot-cli"
PACKAGE = "@github/copilot"
MODEL = "gpt-4.1"
#: the interactive UI is ready when its status line shows this
READY_TEXT = "? help"
#: the skills are loaded (a `/name` typed before that goes to the model as a prompt) when the
#: screen shows their count
_SKILLS_LOADED = re.compile(r"\b\d+ skills?\b")


def ui_ready(screen: str) -> bool:
    """The interactive UI takes a `/name` line: its prompt is shown and its skills are loaded."""
    return READY_TEXT in screen and _SKILLS_LOADED.search(screen) is not None
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


class CopilotCli:
    """The adapter (`tests.oracle.runtimes.base.RuntimeAdapter`)."""

    name = NAME
    target = "copilot-cli"
    version = VERSION
    layout = Layout(project_skills=".github/skills", personal_skills=".copilot/skills")
    modes = ("slash", "tool")

    def executable(self) -> Path | None:
        return _binary_in(install_dir(NAME, VERSION))

    def package_cache(self) -> Path:
        """The shared `COPILOT_CACHE_HOME` the binary unpacks itself into once."""
        return install_dir(NAME, VERSION) / "copilot-cache"

    def install(self) -> Path:
        binary = npm_install(PACKAGE, VERSION, install_dir(NAME, VERSION), _binary_in)
        self._fill_cache(binary)
        return binary

    def _fill_cache(self, binary: Path) -> None:
        """Unpack the package into the shared cache once (`copilot --version`)."""
        cache = self.package_cache()
        with locked(f"{NAME}-cache"):
            if cache.is_dir() and any(cache.iterdir()):
                return
            home = common.fresh_home(None)
            try:
                ran = common.run([str(binary), "--version"], home,
                                 self._environment(home, "http://127.0.0.1:9/v1"), timeout=300)
            finally:
                shutil.rmtree(home, ignore_errors=True)
            if ran.returncode != 0 or VERSION not in ran.stdout:
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
            return Observation(None, {}, [f"Copilot CLI {VERSION} is not installed"])
        try:
            self._fill_cache(binary)
            network = isolation()
        except Exception as error:
            return Observation(None, {}, [f"Copilot CLI could not be run: {error!r}"])
        try:
            with network.call(ChatMock) as api:
                session = _Session(self, binary, network, api, home, cwd)
                if not network.isolated:
                    session.notes.append(network.reason)
                return session.observe(invocations)
        except Exception as error:
            return Observation(None, {}, [f"Copilot CLI could not be run: {error!r}"])
        finally:
            network.close()


class _Session:
    """The runs of one observation."""

    def __init__(self, adapter: CopilotCli, binary: Path, namespace: Namespace | Host,
                 api: RecordingServer, home: Path, cwd: Path) -> None:
        self.adapter, self.binary, self.namespace, self.api = adapter, binary, namespace, api
        self.home_template, self.cwd = home, cwd
        self.notes: list[str] = []

    def observe(self, invocations: list[Invocation]) -> Observation:
        jobs = list(enumerate(invocations))
        results = common.in_parallel(lambda job: self._invoke(*job), jobs)
        outcomes = {f"{invocation.mode}#{index}": outcome
                    for (index, invocation), (outcome, _) in zip(jobs, results, strict=True)}
        first = next((requests[0] for _, requests in results if requests), None)
        if first is None:
            requests = self._headless(None)[1]
            first = requests[0] if requests else None
        listing = listing_entries(first) if first is not None else None
        if listing is None:
            self.notes.append("no request with a system prompt was received")
        return Observation(listing, outcomes, self.notes)

    def _invoke(self, index: int, invocation: Invocation,
                ) -> tuple[Outcome, list[dict[str, Any]]]:
        if invocation.mode == "tool":
            _, requests = self._headless(invocation.skill)
            outcome = tool_outcome(requests, invocation.skill)
            if invocation.args:
                outcome.exact = False  # the skill tool takes no arguments
            return outcome, requests
        if invocation.mode == "slash":
            line = f"/{invocation.skill}" + (f" {invocation.args}" if invocation.args else "")
            requests, screen = self._typed(line)
            return slash_outcome(requests, screen), requests
        return Outcome("unsupported", f"no mode {invocation.mode!r}"), []

    def _headless(self, skill: str | None) -> tuple[Run, list[dict[str, Any]]]:
        calls = [ToolCall(None, {"skill": skill}, property="skill")] if skill else []
        run_id, run = self.api.new_run(calls)
        home = common.fresh_home(self.home_template)
        try:
            env = self.adapter._environment(home, self.api.base_url(run_id))
            argv = [str(self.binary), "--disable-client-telemetry", "--allow-all-tools",
                    "-p", PROMPT]
            ran = common.run(self.namespace.wrap(argv), self.cwd, env)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        if ran.returncode != 0:
            self.notes.append(ran.note("copilot -p"))
        return run, _tilde(list(run.requests), home)

    def _typed(self, line: str) -> tuple[list[dict[str, Any]], str]:
        run_id, run = self.api.new_run()
        home = common.fresh_home(self.home_template)
        try:
            env = self.adapter._environment(home, self.api.base_url(run_id))
            argv = [str(self.binary), "--disable-client-telemetry", "--allow-all-tools"]
            typed = type_line(self.namespace.wrap(argv), env, str(self.cwd),
                              common.ready_or_settled(ui_ready, READY_TEXT), line,
                              lambda: bool(run.requests), settle=3.0, done_timeout=30.0,
                              answered_on_screen=lambda screen: bool(_UNKNOWN.search(screen)))
        finally:
            shutil.rmtree(home, ignore_errors=True)
        if not typed.ready:
            self.notes.append(f"the interactive UI never showed {READY_TEXT!r}: "
                              f"{typed.screen[-300:]!r}")
        return _tilde(list(run.requests), home), typed.screen


def _tilde(requests: list[dict[str, Any]], home: Path) -> list[dict[str, Any]]:
    """The requests with paths under the run's HOME written `~`."""
    loaded: list[dict[str, Any]] = json.loads(
        common.with_home_as_tilde(json.dumps(requests), home))
    return loaded


# -- reading the requests ----------------------------------------------------------------------

def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def system_prompt(request: dict[str, Any]) -> str:
    return "".join(_text(message.get("content")) for message in request.get("messages") or []
                   if message.get("role") == "system")


def listing_entries(request: dict[str, Any]) -> dict[str, str] | None:
    """The project's and the user's skills in the listing: name -> its `<skill>` element exactly
    as sent (None: the request has no `<available_skills>`)."""
    prompt = system_prompt(request)
    start, end = prompt.find("<available_skills>"), prompt.find("</available_skills>")
    if start < 0 or end < 0:
        return None
    found: dict[str, str] = {}
    for element in common.elements(prompt[start:end], "skill"):
        name = common.inner(element, "name")
        if name is not None and common.inner(element, "location") != "builtin":
            found[name] = element
    return found


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
        text = rendered(_text(message.get("content")), skill)
        if message.get("role") == "user" and text is not None:
            return Outcome("rendered", text)
    reply = _text(result.get("content")) if result is not None else ""
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
    text = _text(users[-1].get("content")) if users else ""
    body = rendered(text)
    if body is None:
        return Outcome("not-found", text)
    return Outcome("rendered", body)


ADAPTER = CopilotCli()
