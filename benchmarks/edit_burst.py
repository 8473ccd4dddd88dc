"""Edit bursts on a large SKILL.md: ten back-to-back `didChange` edits through a real pygls client,
the time from the last edit to the publish of that last version's diagnostics, and how many stale
versions (older than the last edit of the burst) were published on the way.

The document is generated: a frontmatter and sections, 2,000 lines in all, dense with what the
rules look at (links to resources, argument placeholders, `${…}` variables, shell injections, code
fences). Each repetition types ten characters into one line as fast as the client can send them,
waits for the diagnostics of the last version, then pauses (every burst starts after a quiet
period, as typing does).

Run: `python benchmarks/edit_burst.py [--lines 2000] [--edits 10] [--repeat 20]`.
The server coalesces edits (docs/design/lsp.md *Edits coalesce*): an analysis of an older version
is abandoned when a newer one arrives; the figures show what that buys.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_client import percentiles

SERVER = [sys.executable, "-m", "wave_lsp", "serve", "--stdio"]
#: the quiet period before each burst (it was longer than the 0.25 s burst window the server had
#: before issue 17; kept so that figures compare)
PAUSE = 0.6


def dense_skill(lines: int) -> str:
    """A SKILL.md of about `lines` lines, every section using links, placeholders and injections."""
    head = ["---", "name: burst", "description: Exercises every rule on a long document. Use when "
            "benchmarking the language server.", 'argument-hint: "[issue] [branch]"',
            "arguments: [issue, branch]", "allowed-tools:", "  - Bash(git status *)",
            "  - Bash(echo *)", "  - Read", "---", "# Burst", ""]
    body: list[str] = []
    section = 0
    while len(head) + len(body) < lines:
        section += 1
        body += [f"## Step {section}", "",
                 f"Read [the guide {section}](references/guide-{section % 7}.md) and "
                 f"[notes](references/missing-{section}.md) before changing $issue on $branch.",
                 f"Run !`echo step {section} $ARGUMENTS` then !`git status --short` in "
                 "${WAVE_SKILL_DIR}.",
                 f"Use `scripts/run-{section % 5}.sh` with $1 and $2; session ${{WAVE_SESSION_ID}}.",
                 "```bash", f"scripts/run-{section % 5}.sh --step {section} \"$ARGUMENTS\"",
                 "echo done", "```", ""]
    return "\n".join([*head, *body][:lines]) + "\n"


def make_workspace(root: Path, text: str) -> Path:
    skill = root / ".wave/skills/burst"
    for index in range(7):
        (skill / "references").mkdir(parents=True, exist_ok=True)
        (skill / f"references/guide-{index}.md").write_text("# Guide\n", "utf-8")
    (skill / "scripts").mkdir(exist_ok=True)
    for index in range(5):
        (skill / f"scripts/run-{index}.sh").write_text("#!/bin/sh\necho run\n", "utf-8")
    (root / ".git").mkdir()
    path = skill / "SKILL.md"
    path.write_text(text, "utf-8")
    return path


class Recorder:
    """The publishes received for one URI: (arrival time, version)."""

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.publishes: list[tuple[float, int | None]] = []
        self.changed = asyncio.Event()

    def add(self, params: types.PublishDiagnosticsParams) -> None:
        if params.uri == self.uri:
            self.publishes.append((time.perf_counter(), params.version))
            self.changed.set()

    async def until_version(self, version: int, deadline: float = 60.0) -> float:
        """The arrival time of the first publish of `version`."""
        end = time.perf_counter() + deadline
        while True:
            for at, published in self.publishes:
                if published == version:
                    return at
            remaining = end - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"no publish of version {version}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)


def capabilities() -> types.ClientCapabilities:
    """What VS Code declares for this: push diagnostics with versions, UTF-16."""
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True, code_description_support=True,
                data_support=True)),
        workspace=types.WorkspaceClientCapabilities(configuration=True, workspace_folders=True))


async def run(lines: int, edits: int, repeat: int) -> None:
    text = dense_skill(lines)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        path = make_workspace(root, text)
        uri = path.as_uri()
        recorder = Recorder(uri)
        client = LanguageClient("edit-burst", "1")

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_publish(params: types.PublishDiagnosticsParams) -> None:
            recorder.add(params)

        @client.feature(types.WORKSPACE_CONFIGURATION)
        def on_configuration(params: types.ConfigurationParams) -> list[object]:
            return [{"personalSkills": False} for _ in params.items]

        await client.start_io(*SERVER)
        await client.initialize_async(types.InitializeParams(
            capabilities=capabilities(), root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="burst")]))
        client.initialized(types.InitializedParams())
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="wave.indexStatus", arguments=[{"wait": True}]))
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            uri=uri, language_id="markdown", version=1, text=text)))
        await recorder.until_version(1)
        typed_line = text.splitlines().index("## Step 100") + 2  # the paragraph under it
        column = len(text.splitlines()[typed_line])
        version = 1
        latencies: list[float] = []
        stale = 0
        findings = 0
        for _ in range(repeat):
            await asyncio.sleep(PAUSE)  # a quiet period between bursts (not a readiness wait)
            first = version + 1
            for _ in range(edits):
                version += 1
                position = types.Position(typed_line, column)
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangePartial(
                        range=types.Range(position, position), text="x")]))
                column += 1
            sent = time.perf_counter()
            arrived = await recorder.until_version(version)
            latencies.append(arrived - sent)
            stale += sum(1 for _, published in recorder.publishes
                         if published is not None and first <= published < version)
        findings = len(recorder.publishes)
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    p50, p95, worst = percentiles(latencies)
    bursts = repeat * edits
    print(f"document: {lines} lines, {len(text):,} characters; {repeat} bursts of {edits} edits")
    print(f"last edit -> its diagnostics: p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {worst:.0f} ms")
    print(f"stale versions published: {stale} of {bursts - repeat} intermediate versions "
          f"({findings} publishes in all, the open included)")


def analysis_time(lines: int, rounds: int = 9) -> float:
    """The median time, in ms, of one analysis of the document in this process (the server's
    own code path, `ServerState`, one character typed per round): the machine's speed at the
    time of the run, to read the latency against."""
    from wave_lsp.lsp.state import ServerState

    text = dense_skill(lines)
    with tempfile.TemporaryDirectory() as folder:
        path = make_workspace(Path(folder), text)
        state = ServerState()
        state.set_client_settings({"personalSkills": False})
        uri = path.as_uri()
        rows = text.split("\n")
        typed = rows.index("## Step 100") + 2 if "## Step 100" in rows else len(rows) // 2
        state.start(uri, path, text, 1, "utf-16").finish()  # imports and caches
        times = []
        for version in range(2, 2 + rounds):
            rows[typed] += "x"
            run = state.start(uri, path, "\n".join(rows), version, "utf-16")
            start = time.perf_counter()
            run.finish()
            times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    before = analysis_time(args.lines)
    asyncio.run(run(args.lines, args.edits, args.repeat))
    after = analysis_time(args.lines)
    print(f"one analysis in process (the machine's speed), median: {before:.0f} ms before the "
          f"bursts, {after:.0f} ms after")


if __name__ == "__main__":
    main()
