"""What the runtime adapters share (tests/oracle/README.md *Runtimes*): a fresh HOME per run, an
environment with nothing inherited but PATH, a bounded subprocess run, reading `<tag>…</tag>`
elements out of a prompt, `run_steps`: processes run one after the other beside one mock, inside
the harness's network namespace (tests/oracle/netns.py), and `PromptSession`: the headless and
typed runs of a runtime with a skill tool and an interactive UI (Gemini CLI, Copilot CLI).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tests.oracle.mocks.recording import RecordingServer, ToolCall
from tests.oracle.netns import Host, Namespace, isolation
from tests.oracle.runtimes.base import Invocation, Observation, Outcome
from tests.oracle.runtimes.pty_session import type_line

#: how long one headless run may take (a run takes a few seconds; this only stops a hang)
RUN_TIMEOUT = 120.0
#: the machine's load per core that counts as its usual (the harness runs two runtime processes
#: per core: `differential.parallel()`)
USUAL_LOAD = 2.0
#: how many runtime processes one observation runs at once: one, since the driver already runs
#: `differential.parallel()` observations at a time (one per core)
PARALLEL = 1

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class Ran:
    """One finished (or timed out) process."""

    returncode: int | None
    stdout: str
    stderr: str

    def note(self, what: str) -> str:
        tail = (self.stderr.strip() or self.stdout.strip())[-300:]
        return f"{what}: exit {self.returncode}: {tail}"


def fresh_home(template: Path | None) -> Path:
    """A new HOME: a copy of `template` (the probe's home)."""
    home = Path(tempfile.mkdtemp(prefix="wave-lsp-oracle-home-")).resolve()
    if template is not None and template.is_dir():
        shutil.copytree(template, home, dirs_exist_ok=True, symlinks=True)
    return home


def base_environment(home: Path, **extra: str) -> dict[str, str]:
    """Nothing inherited but PATH."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "LANG": "C.UTF-8", **extra}


def patience() -> float:
    """How many times longer than usual a wait may need to be now: the load average per core over
    `USUAL_LOAD`, between 1 and 8. Every wait of the harness for a runtime (a process's end, an
    interactive UI's prompt, a typed line's request, the grace before typing where no skill
    loads) is scaled by it, so that a machine shared with other jobs (load 16 on two cores was
    seen) gives a slow answer, not a missing or wrong one. Nothing asserts speed: a wait only
    bounds a hang."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    return min(8.0, max(1.0, load / ((os.cpu_count() or 1) * USUAL_LOAD)))


def run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = RUN_TIMEOUT,
        stdout_file: Path | None = None) -> Ran:
    """`argv` to its end (or `timeout`, times `patience()`); its standard output through
    `stdout_file` when given (a pipe can cut long output)."""
    timeout *= patience()
    try:
        with open(stdout_file or os.devnull, "w") as sink:
            done = subprocess.run(argv, cwd=cwd, env=env, timeout=timeout,
                                  stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  stdout=sink if stdout_file else subprocess.PIPE)
    except subprocess.TimeoutExpired as error:
        return Ran(None, _text(error.stdout), _text(error.stderr) + f"\n(timed out after "
                                                                   f"{timeout:.0f} s)")
    except OSError as error:
        return Ran(None, "", f"could not start: {error}")
    stdout = stdout_file.read_text(errors="replace") if stdout_file else _text(done.stdout)
    return Ran(done.returncode, stdout, _text(done.stderr))


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    return value if isinstance(value, str) else ""


def in_parallel(function: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """`function` of each item, `PARALLEL` at a time, in the items' order."""
    if len(items) <= 1 or PARALLEL <= 1:
        return [function(item) for item in items]
    with ThreadPoolExecutor(PARALLEL) as pool:
        return list(pool.map(function, items))


def ready_or_settled(ready: Callable[[str], bool], shown: str,
                     grace: float = 15.0) -> Callable[[str], bool]:
    """`ready(screen)`, or `shown` on the screen for `grace` seconds (times `patience()` when it
    first shows: on a loaded machine the skills count comes later, and a line typed before it
    goes to the model as a prompt): an interactive UI that waits for its skills count
    (`ui_ready`) would otherwise wait its whole timeout in a case where no skill loads."""
    first: list[float] = []

    def check(screen: str) -> bool:
        if ready(screen):
            return True
        if shown not in screen:
            return False
        first[:] = first or [time.monotonic(), grace * patience()]
        return time.monotonic() - first[0] >= first[1]

    return check


def elements(text: str, tag: str) -> list[str]:
    """Every `<tag>…</tag>` element of `text`, whole (the tags included), in order."""
    return re.findall(rf"<{tag}>.*?</{tag}>", text, re.S)


def inner(element: str, tag: str) -> str | None:
    """The text of the first `<tag>…</tag>` inside `element`."""
    found = re.search(rf"<{tag}>(.*?)</{tag}>", element, re.S)
    return found.group(1) if found else None


def available_skills(prompt: str, keep: Callable[[str | None], bool]) -> dict[str, str] | None:
    """The `<skill>` elements of the prompt's `<available_skills>` whose `<location>` `keep`
    accepts: name -> the element exactly as sent (None: the prompt has no `<available_skills>`)."""
    start, end = prompt.find("<available_skills>"), prompt.find("</available_skills>")
    if start < 0 or end < 0:
        return None
    found: dict[str, str] = {}
    for element in elements(prompt[start:end], "skill"):
        name = inner(element, "name")
        if name is not None and keep(inner(element, "location")):
            found[name] = element
    return found


def homeless(text: str, home: Path) -> str:
    """Paths under the run's HOME written `~` (the harness's rule for outcome texts)."""
    return text.replace(str(home), "~")


def homeless_requests(requests: list[dict[str, Any]], home: Path) -> list[dict[str, Any]]:
    """The requests with paths under the run's HOME written `~`."""
    loaded: list[dict[str, Any]] = json.loads(homeless(json.dumps(requests), home))
    return loaded


#: an interactive UI's skills count (`3 skills`): shown once its skills are loaded
_SKILLS_LOADED = re.compile(r"\b\d+ skills?\b")


def skills_shown(screen: str, ready_text: str) -> bool:
    """The interactive UI takes a `/name` line: it shows `ready_text` (its prompt) and its skills
    count (a `/name` typed before the skills are loaded goes to the model as a prompt)."""
    return ready_text in screen and _SKILLS_LOADED.search(screen) is not None


# -- processes beside one mock ----------------------------------------------------------------------

@dataclass
class Step:
    """One process to run beside the mock."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    timeout: float = RUN_TIMEOUT
    #: read the standard output through a file (a pipe can cut long output)
    through_file: bool = False


@dataclass
class StepResult:
    returncode: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    paths: list[str]


def run_steps(mock: Callable[[], RecordingServer],
              steps: Callable[[str], list[Step]]) -> tuple[list[StepResult], str | None]:
    """Make the mock inside a network namespace with only loopback (`netns.isolation()`), give
    `steps` its base URL (the default run, e.g. `http://127.0.0.1:<port>/v1`), and run each step
    there, one after the other, the default run started afresh with the step's tool calls. Each
    step's result, and a note (the isolation's fallback, or why nothing ran)."""
    try:
        network = isolation()
    except Exception as error:  # `WAVE_LSP_REQUIRE_NETNS=1` and no namespace: a note
        return [], f"no network namespace: {error}"
    note = None if network.isolated else network.reason
    results: list[StepResult] = []
    folder = Path(tempfile.mkdtemp(prefix="wave-lsp-steps-"))
    try:
        with network.call(mock) as server:
            for number, step in enumerate(steps(server.base_url())):
                record = server.reset(step.tool_calls)
                sink = folder / f"out{number}" if step.through_file else None
                done = run(network.wrap(step.argv), Path(step.cwd), step.env, step.timeout, sink)
                results.append(StepResult(-9 if done.returncode is None else done.returncode,
                                          done.stdout, done.stderr, list(record.requests),
                                          list(record.paths)))
    except Exception as error:  # reported to the adapter as a note, never raised there
        return results, f"running beside the mock: {error!r}"
    finally:
        network.close()
        shutil.rmtree(folder, ignore_errors=True)
    return results, note


# -- a runtime with a skill tool and an interactive UI ----------------------------------------------

class PromptSession:
    """The runs of one observation of a runtime run headless with a prompt (`tool` mode: the mock
    answers it with a call of the skill tool, which takes no arguments) and on a pseudo-terminal
    (`slash` mode: `/name args` typed into its interactive UI), each run with a fresh HOME and a
    run of its own on the one mock. A runtime defines the hooks below."""

    #: the command as the notes name it (`gemini`)
    command = ""
    #: the text the interactive UI shows when its prompt is ready
    ready_text = ""
    #: how long a typed line may take to reach the mock
    done_timeout = 30.0
    #: what holds the listing, for the note when no request had one
    listing_holder = "a system prompt"

    def __init__(self, namespace: Namespace | Host, api: RecordingServer, home: Path,
                 cwd: Path) -> None:
        self.namespace, self.api, self.home_template, self.cwd = namespace, api, home, cwd
        self.notes: list[str] = []

    # -- what each runtime defines ---------------------------------------------------------------

    def headless_argv(self) -> list[str]:
        raise NotImplementedError

    def interactive_argv(self) -> list[str]:
        raise NotImplementedError

    def environment(self, home: Path, base_url: str, terminal: str) -> dict[str, str]:
        raise NotImplementedError

    def tool_calls(self, skill: str) -> list[ToolCall]:
        raise NotImplementedError

    def refused_on_screen(self, screen: str) -> bool:
        """The typed line was refused on screen: no request will follow."""
        raise NotImplementedError

    def replaced_on_screen(self, screen: str, line: str) -> str | None:
        """The command the UI ran instead of the typed `line` (its completion replaced an
        unknown name on Enter), None when it did not."""
        return None

    def tool_outcome(self, requests: list[dict[str, Any]], skill: str) -> Outcome:
        raise NotImplementedError

    def slash_outcome(self, requests: list[dict[str, Any]], screen: str) -> Outcome:
        raise NotImplementedError

    def listing(self, request: dict[str, Any]) -> dict[str, str] | None:
        raise NotImplementedError

    def home(self) -> Path:
        """A fresh HOME for one run."""
        return fresh_home(self.home_template)

    # -- the runs --------------------------------------------------------------------------------

    def observe(self, invocations: list[Invocation]) -> Observation:
        jobs = list(enumerate(invocations))
        results = in_parallel(lambda job: self._invoke(*job), jobs)
        outcomes = {f"{invocation.mode}#{index}": outcome
                    for (index, invocation), (outcome, _) in zip(jobs, results, strict=True)}
        first = next((requests[0] for _, requests in results if requests), None)
        if first is None:
            requests = self.headless(None)
            first = requests[0] if requests else None
        listing = self.listing(first) if first is not None else None
        if listing is None:
            self.notes.append(f"no request with {self.listing_holder} was received")
        return Observation(listing, outcomes, self.notes)

    def _invoke(self, index: int, invocation: Invocation,
                ) -> tuple[Outcome, list[dict[str, Any]]]:
        if invocation.mode == "tool":
            requests = self.headless(invocation.skill)
            outcome = self.tool_outcome(requests, invocation.skill)
            if invocation.args:
                outcome.exact = False  # the skill tool takes no arguments
            return outcome, requests
        if invocation.mode == "slash":
            line = f"/{invocation.skill}" + (f" {invocation.args}" if invocation.args else "")
            requests, screen = self.typed(line)
            other = None if requests else self.replaced_on_screen(screen, line)
            if other is not None:  # no such command: Enter ran the UI's suggestion instead
                return Outcome("not-found", f"{line}: the UI ran {other} instead",
                               exact=False), requests
            return self.slash_outcome(requests, screen), requests
        return Outcome("unsupported", f"no mode {invocation.mode!r}"), []

    def headless(self, skill: str | None) -> list[dict[str, Any]]:
        """The requests of one headless run, the mock calling the skill tool with `skill`."""
        run_id, record = self.api.new_run(self.tool_calls(skill) if skill else [])
        home = self.home()
        try:
            env = self.environment(home, self.api.base_url(run_id), "dumb")
            ran = run(self.namespace.wrap(self.headless_argv()), self.cwd, env)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        if ran.returncode != 0:
            self.notes.append(ran.note(f"{self.command} -p"))
        return homeless_requests(list(record.requests), home)

    def typed(self, line: str) -> tuple[list[dict[str, Any]], str]:
        """The requests of `line` typed into the interactive UI, and the screen."""
        run_id, record = self.api.new_run()
        home = self.home()
        try:
            env = self.environment(home, self.api.base_url(run_id), "xterm-256color")
            typed = type_line(self.namespace.wrap(self.interactive_argv()), env, str(self.cwd),
                              ready_or_settled(self.ui_ready, self.ready_text), line,
                              lambda: bool(record.requests), settle=3.0,
                              ready_timeout=60.0 * patience(),
                              done_timeout=self.done_timeout * patience(),
                              answered_on_screen=lambda screen: self.refused_on_screen(screen)
                              or self.replaced_on_screen(screen, line) is not None)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        if not typed.ready:
            self.notes.append(f"the interactive UI never showed {self.ready_text!r}: "
                              f"{typed.screen[-300:]!r}")
        return homeless_requests(list(record.requests), home), typed.screen

    def ui_ready(self, screen: str) -> bool:
        return skills_shown(screen, self.ready_text)


def observe_beside(mock: Callable[[], RecordingServer],
                   session: Callable[[Namespace | Host, RecordingServer], PromptSession],
                   invocations: list[Invocation], what: str) -> Observation:
    """`session(namespace, mock)`'s observation, the mock made inside the harness's network
    namespace (`netns.isolation()`); what went wrong as a note, never raised."""
    try:
        network = isolation()
    except Exception as error:  # `WAVE_LSP_REQUIRE_NETNS=1` and no namespace
        return Observation(None, {}, [f"no network namespace: {error}"])
    try:
        with network.call(mock) as api:
            made = session(network, api)
            if not network.isolated:
                made.notes.append(network.reason)
            return made.observe(invocations)
    except Exception as error:
        return Observation(None, {}, [f"{what} could not be run: {error!r}"])
    finally:
        network.close()
