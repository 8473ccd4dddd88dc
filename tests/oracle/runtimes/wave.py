"""Wave (wave-code, built from source at commit 469391bb) as a runtime of the differential harness
(tests/oracle/README.md, ../shared/oracles/wave/README.md).

Install: Wave is on no registry. `install()` extracts `../shared/oracles/wave/wave-agent-<commit>-
src.tar.gz` (or `$WAVE_LSP_WAVE_SOURCE`) into a staging folder of the cache, installs Node 22 from
the npm registry's `node` package beside it (the machine's Node may be older than Wave's 22.13),
runs `pnpm install --frozen-lockfile` (pnpm `PNPM_VERSION`, the lockfile's own, run by `npx`) and
builds `wave-agent-sdk` and `wave-code`, then renames the folder into
`<cache>/wave-<commit>` (`tests.oracle.install.cache_root()`); a file lock keeps two processes
from building at once. Nothing of Wave's source enters the repository.

Runs: `node packages/code/bin/wave-code.js -p <prompt>` in the project, inside the harness's
network namespace (tests/oracle/netns.py) with the OpenAI Chat Completions mock
(tests/oracle/mocks/openai_chat.py) made inside it; a fresh HOME per run (a copy of the probe's
home, plus `~/.wave/plugins/known_marketplaces.json` so that no marketplace is cloned), nothing
of the environment inherited but PATH. What the requests show:
- the listing: the `Skill` function's description, `• **name** (type): description` lines after
  `Available skills:` (built-in skills left out here);
- `/name args` (mode "slash"): the user message `Base directory for this skill: DIR\n\n<body>`,
  else (a name Wave has no command for) the line sent as typed, read as "not-found";
- the `Skill` tool (mode "tool"): the mock calls `Skill` with `skill_name`/`args`; the `tool`
  message is the rendering, `Error: …` a refusal, `**Skill not found**` "not-found";
- each injected command's decision (aspect `decision#N`): Wave 469391bb runs injections without a
  permission check; the specification checks them, so the harness asks Wave's own permission
  manager: after `/name`, the mock calls `Bash` with each injected command in turn (the skill's
  `allowed-tools` are registered then), and a tool answer `Error: … denied …` is "refuse".
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from tests.oracle.mocks.openai_chat import (
    ChatMock,
    Run,
    ToolCall,
    content_text,
    tool_description,
)
from tests.oracle.netns import Host, Namespace, isolation
from tests.oracle.runtimes._npm import Unavailable, install_dir, staged
from tests.oracle.runtimes.base import Invocation, Layout, Observation, Outcome
from tests.oracle.runtimes.common import fresh_home, patience

#: the Wave commit the harness builds (the one docs/design/runtime-facts.md cites); Wave 1.1.3
VERSION = "469391bb"
COMMIT = "469391bbda8d656393c8fa9d74cd7057b231d1d1"
#: Node from the npm registry's `node` package (Wave needs >= 22.13)
NODE_VERSION = "22.23.3"
#: the lockfile's `packageManager` (a newer pnpm 11 tries to switch to it and, with no registry
#: signature for it on some mirrors, refuses)
PNPM_VERSION = "11.9.0"
REPOSITORY = Path(__file__).resolve().parents[3]
SOURCE = REPOSITORY.parent / "shared" / "oracles" / "wave" / f"wave-agent-{VERSION}-src.tar.gz"
#: how long one run may take (a run takes 1–6 s: Wave spaces its requests a second apart)
RUN_TIMEOUT = 120
#: what the tool-mode run asks (the mock answers it with the `Skill` call)
TOOL_PROMPT = "Use the skills."
#: an injected command as Wave's `parseBashCommands` finds it inline (`!` then a code span)
INJECTION = re.compile(r"!`([^`\n]+)`")
_ENTRY = re.compile(r"• \*\*(.+?)\*\* \((\w+)\): ", re.S)
LISTING_MARK = "\n\nAvailable skills:\n"


__all__ = ["ADAPTER", "Unavailable", "Wave", "cache_dir"]


def cache_dir(version: str = VERSION) -> Path:
    return install_dir("wave", version)


def default_source() -> Path:
    return Path(os.environ.get("WAVE_LSP_WAVE_SOURCE") or SOURCE)


class Wave:
    name = "wave"
    target = "wave"
    version = VERSION
    layout = Layout(project_skills=".wave/skills", personal_skills=".wave/skills")
    modes = ("slash", "tool")
    #: it asks Wave's permission manager about each injected command (aspect `decision#N`)
    decides_injections = True

    def __init__(self, version: str = VERSION, source: Path | None = None) -> None:
        """The pinned build, or (benchmarks/oracle.py) another commit's from its `source`
        tarball, cached beside it."""
        self.version = version
        self.source = source or default_source()
        # resolved once: the harness points HOME at a probe's home while wave-lsp predicts
        self.folder = cache_dir(version)

    # -- install ---------------------------------------------------------------------------------

    def executable(self) -> Path | None:
        """`wave-code.js` of the cached build (None: not built); run it with `node()`."""
        return _script_in(self.folder)

    def unavailable_here(self) -> str | None:
        """Why Wave cannot be had in this checkout at all (no build, no source: a plain clone
        has no ../shared): its tests skip with this even with `WAVE_LSP_REQUIRE_ORACLE=1`."""
        if self.executable() is None and not self.source.is_file():
            return (f"Wave is not built in {self.folder} and its source {self.source} is absent "
                    f"(a clone has no ../shared; set WAVE_LSP_WAVE_SOURCE)")
        return None

    def node(self) -> Path:
        return _node_in(self.folder)

    def install(self) -> Path:
        found = self.executable()
        if found is not None:
            return found
        if not self.source.is_file():
            raise Unavailable(f"Wave's source {self.source} is absent (a plain clone has no "
                              f"../shared; set WAVE_LSP_WAVE_SOURCE)")
        npm = shutil.which("npm")
        if npm is None:
            raise Unavailable("npm is not installed (Node 22 and pnpm come from the npm registry)")
        source = self.source

        def fill(staging: Path) -> None:
            _build(staging, npm, source)
            (staging / "BUILT").write_text(f"{source.name}\nnode {NODE_VERSION}\n")

        found = staged(self.folder, _script_in, fill)
        if found is None:
            raise Unavailable(f"the Wave build in {self.folder} is incomplete")
        return found

    # -- runs ------------------------------------------------------------------------------------

    def observe(self, project: Path, home: Path, cwd: Path,
                invocations: list[Invocation]) -> Observation:
        script = self.executable()
        if script is None:
            return Observation(None, {}, [f"Wave {self.version} is not built in {self.folder}"])
        runner = _Runner(script, self.node(), home, cwd)
        try:
            return runner.observe(project, invocations)
        finally:
            runner.close()


def _script_in(folder: Path) -> Path | None:
    """`wave-code.js` of a complete build in `folder` (its `BUILT` mark and its Node there)."""
    script = folder / "src" / "packages" / "code" / "bin" / "wave-code.js"
    built = (folder / "BUILT").is_file() and script.is_file() and _node_in(folder).is_file()
    return script if built else None


def _node_in(folder: Path) -> Path:
    return folder / "node" / "node_modules" / "node" / "bin" / "node"


def _run(argv: list[str], cwd: Path, env: dict[str, str], what: str, timeout: int = 900) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise Unavailable(f"{what} failed ({done.returncode}): "
                          f"{(done.stderr or done.stdout).strip()[-600:]}")


def _build(staging: Path, npm: str, source: Path) -> None:
    """Node, the extracted source, its packages and the two builds, in `staging`."""
    _run([npm, "install", "--prefix", str(staging / "node"), "--no-audit", "--no-fund",
          "--loglevel=error", f"node@{NODE_VERSION}"], staging, dict(os.environ),
         f"npm install node@{NODE_VERSION}")
    tree = staging / "src"
    tree.mkdir()
    with tarfile.open(source) as archive:
        archive.extractall(tree, filter="data")
    env = {**os.environ, "PATH": f"{_node_in(staging).parent}:{os.environ.get('PATH', '')}",
           "CI": "1", "HUSKY": "0"}
    pnpm = [str(_node_in(staging).parent / "npx"), "-y", f"pnpm@{PNPM_VERSION}"]
    if not Path(pnpm[0]).exists():
        pnpm[0] = shutil.which("npx") or "npx"
    _run([*pnpm, "install", "--frozen-lockfile", "--filter", "wave-code...", "--filter",
          "wave-workspace"], tree, env, "pnpm install")
    _run([*pnpm, "-F", "wave-agent-sdk", "build"], tree, env, "building wave-agent-sdk")
    _run([*pnpm, "-F", "wave-code", "build"], tree, env, "building wave-code")


class _Runner:
    """The runs of one observation: one namespace and one mock for all of them."""

    def __init__(self, script: Path, node: Path, home: Path, cwd: Path) -> None:
        self.script, self.node, self.home, self.cwd = script, node, home, cwd
        self.isolation: Namespace | Host = isolation()
        self.api: ChatMock = self.isolation.call(ChatMock)
        self.api.__enter__()
        self.notes: list[str] = []
        if not self.isolation.isolated:
            self.notes.append(self.isolation.reason)

    def close(self) -> None:
        self.api.__exit__()
        self.isolation.close()

    def run(self, prompt: str, calls: list[ToolCall]) -> tuple[Run, str]:
        """One `wave-code -p prompt` with a fresh HOME: the run's record and that HOME. The
        calls are answered one at a time (each by the next request offering its tool)."""
        run_id, run = self.api.new_run(steps=[[call] for call in calls])
        home = fresh_home(self.home)
        try:
            plugins = home / ".wave" / "plugins"
            plugins.mkdir(parents=True, exist_ok=True)
            marketplaces = plugins / "known_marketplaces.json"
            if not marketplaces.exists():
                marketplaces.write_text('{"builtinSeeded":true,"marketplaces":[]}')
            env = {"PATH": f"{self.node.parent}:{os.environ.get('PATH', '/usr/bin:/bin')}",
                   "HOME": str(home), "TMPDIR": tempfile.gettempdir(), "LANG": "C.UTF-8",
                   "WAVE_BASE_URL": self.api.base_url(run_id), "WAVE_API_KEY": "sk-dummy",
                   "WAVE_MODEL": "oracle-model", "WAVE_FAST_MODEL": "oracle-fast-model",
                   "WAVE_SERVER_URL": f"http://127.0.0.1:{self.api.port}",
                   "OTEL_ENABLED": "false", "WAVE_DISABLE_AUTO_MEMORY": "1"}
            argv = self.isolation.wrap([str(self.node), str(self.script), "-p", prompt])
            try:
                done = subprocess.run(argv, cwd=self.cwd, env=env, capture_output=True,
                                      text=True, timeout=RUN_TIMEOUT * patience(),
                                      stdin=subprocess.DEVNULL)
                if done.returncode != 0 or not run.requests:
                    self.notes.append(f"`wave-code -p {prompt}` exited {done.returncode}: "
                                      f"{(done.stderr or done.stdout).strip()[:300]}")
            except subprocess.TimeoutExpired:
                self.notes.append(f"`wave-code -p {prompt}` timed out after {RUN_TIMEOUT} s "
                                  f"(times the load's {patience():.1f})")
        finally:
            shutil.rmtree(home, ignore_errors=True)
        return run, str(home)

    def observe(self, project: Path, invocations: list[Invocation]) -> Observation:
        listing: dict[str, str] | None = None
        outcomes: dict[str, Outcome] = {}
        for number, invocation in enumerate(invocations):
            if invocation.mode == "tool":
                arguments: dict[str, Any] = {"skill_name": invocation.skill}
                if invocation.args is not None:
                    arguments["args"] = invocation.args
                run, home = self.run(TOOL_PROMPT, [ToolCall("Skill", arguments)])
                outcomes[f"tool#{number}"] = _homeless(tool_outcome(run), home)
            else:
                commands = injected_commands(project, invocation.skill)
                calls = [ToolCall("Bash", {"command": command, "description": "injected"})
                         for command in commands]
                prompt = f"/{invocation.skill} {invocation.args}" if invocation.args \
                    else f"/{invocation.skill}"
                run, home = self.run(prompt, calls)
                outcomes[f"slash#{number}"] = _homeless(slash_outcome(run), home)
                if commands and outcomes[f"slash#{number}"].kind == "rendered":
                    outcomes[f"decision#{number}"] = decisions(run, commands)
            if listing is None and run.requests:
                listing = {name: line.replace(home, "~")
                           for name, line in listing_entries(run.requests[0]).items()}
        if listing is None:
            run, home = self.run(TOOL_PROMPT, [])
            if run.requests:
                listing = {name: line.replace(home, "~")
                           for name, line in listing_entries(run.requests[0]).items()}
        return Observation(listing, outcomes, self.notes)


def _homeless(outcome: Outcome, home: str) -> Outcome:
    return Outcome(outcome.kind, outcome.text.replace(home, "~"), outcome.exact)


def injected_commands(project: Path, skill: str) -> list[str]:
    """The commands a project skill injects inline (`!` and a code span), in order: the ones the
    mock asks Wave's permission manager about."""
    path = project / Wave.layout.project_skills / skill / "SKILL.md"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [match.group(1) for match in INJECTION.finditer(text)]


# -- reading the requests ---------------------------------------------------------------------

def listing_entries(request: dict[str, Any]) -> dict[str, str]:
    """The non-built-in entries of the `Skill` function's description, by name: each entry's
    whole text (`• **name** (type): description`, a description's further lines kept)."""
    description = tool_description(request, "Skill")
    if description is None or LISTING_MARK not in description:
        return {}
    block = description.split(LISTING_MARK, 1)[1]
    starts = list(_ENTRY.finditer(block))
    entries: dict[str, str] = {}
    for index, match in enumerate(starts):
        if match.start() != 0 and block[match.start() - 1] != "\n":
            continue
        end = starts[index + 1].start() - 1 if index + 1 < len(starts) else len(block)
        if match.group(2) != "builtin":
            entries[match.group(1)] = block[match.start():end]
    return entries


def _user_text(request: dict[str, Any]) -> str:
    """The last user message of a request (the first one is Wave's memory reminder)."""
    users = [m for m in request.get("messages") or [] if m.get("role") == "user"]
    return content_text(users[-1].get("content")) if users else ""


BASE_DIRECTORY = "Base directory for this skill: "


def slash_outcome(run: Run) -> Outcome:
    """What `/name args` sent: the rendered skill, or the line as typed ("not-found")."""
    if not run.requests:
        return Outcome("missing", "no request")
    text = _user_text(run.requests[0])
    if text.startswith(BASE_DIRECTORY):
        return Outcome("rendered", text)
    return Outcome("not-found", text)


def _tool_message(request: dict[str, Any], call: str) -> str | None:
    for message in request.get("messages") or []:
        if message.get("role") == "tool" and message.get("tool_call_id") == call:
            return content_text(message.get("content"))
    return None


def tool_outcome(run: Run) -> Outcome:
    """What the `Skill` call returned to the model."""
    if not run.answered:
        return Outcome("missing", "the mock never called Skill" if run.requests else "no request")
    answer = None
    for request in run.requests[run.answered[0] + 1:]:
        answer = _tool_message(request, "call_mock0001")
        if answer is not None:
            break
    if answer is None:
        return Outcome("missing", "no tool result")
    if answer.startswith("**Skill not found**"):
        return Outcome("not-found", answer)
    if answer.startswith("Error: "):
        return Outcome("refused", answer[len("Error: "):])
    if answer.startswith(BASE_DIRECTORY):
        return Outcome("rendered", answer)
    return Outcome("refused", answer)


def decisions(run: Run, commands: list[str]) -> Outcome:
    """Wave's permission decision on each injected command: `allow <command>` or
    `refuse <command>`, one line each (the `Bash` call's answer: `Error: … denied …` refuses)."""
    lines = []
    last = run.requests[-1] if run.requests else {}
    for number, command in enumerate(commands, 1):
        answer = _tool_message(last, f"call_mock{number:04d}")
        if answer is None:
            lines.append(f"missing {command}")
        elif answer.startswith("Error: ") and "denied" in answer:
            lines.append(f"refuse {command}")
        else:
            lines.append(f"allow {command}")
    return Outcome("decided", "\n".join(lines))


ADAPTER = Wave()


def main() -> None:  # `python -m tests.oracle.runtimes.wave`: build it, print where
    print(json.dumps({"wave": str(ADAPTER.install())}))


if __name__ == "__main__":
    main()
