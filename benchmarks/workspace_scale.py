"""Workspace scale in the server: time to index N skills (until the end of the work-done
progress), peak RSS, re-indexing after a file changes on disk, and `/skill-name` completion latency
over the whole index.

Two kinds of re-index are timed, each after the server has gone quiet (the findings of unopened
files re-published): another skill's `when_to_use` edited, which changes the listing the open skill
shares (didChangeWatchedFiles → the open document re-published); and another skill's body
edited, on which nothing else depends (didChangeWatchedFiles → the answer to a hover on the open
skill sent right after it, beside the same hover alone).

Run: `python benchmarks/workspace_scale.py [--skills 5000 1000]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_client import LspClient, percentiles, publish_for
from skills_tree import make_tree

WAVE = [sys.executable, "-m", "wave_lsp", "serve", "--stdio"]


def progress_end(message: dict) -> bool:
    return (message.get("method") == "$/progress"
            and message["params"].get("token") == "wave-lsp-index"
            and message["params"]["value"].get("kind") == "end")


def measure(count: int, index_only: bool = False) -> dict[str, float]:
    """Index `count` generated skills in a fresh server, then open one, complete and re-index:
    the figures (seconds, MiB, milliseconds) that `main` prints and `speed.py` compares
    (`index_only`: the indexing figures alone)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        paths = make_tree(root, count)
        client = LspClient(WAVE, settings={"wave": {"personalSkills": False}})
        ended = client.expect(progress_end)
        client.initialize(root)
        start, cpu_start = time.perf_counter(), client.cpu_seconds()
        indexed = LspClient.wait(ended, timeout=600) - start
        indexed_cpu = client.cpu_seconds() - cpu_start
        rss_indexed = client.peak_rss_mib()
        if index_only:
            client.close()
            return {"skills": count, "indexed_s": indexed, "indexed_cpu_s": indexed_cpu,
                    "indexed_rss_mib": rss_indexed}
        path = paths[0]
        uri = path.as_uri()
        text = path.read_text("utf-8") + "\nThen run /skill-0\n"
        opened = client.expect(publish_for(uri, 1))
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "markdown", "version": 1, "text": text}})
        LspClient.wait(opened)
        rss_opened = client.peak_rss_mib()
        line = text.count("\n") - 1
        completions = []
        for _ in range(20):
            result, elapsed = client.request("textDocument/completion", {
                "textDocument": {"uri": uri},
                "position": {"line": line, "character": len("Then run /skill-0")}})
            completions.append(elapsed)
        items = len(result["items"]) if isinstance(result, dict) else len(result)
        listing_edits = []
        listed = [p for p in paths[1:] if "disable-model-invocation" not in p.read_text("utf-8")]
        for index in range(20):
            settle(client)
            other = listed[index]
            text = other.read_text("utf-8")
            name_line = text.split("\n", 2)[1]
            other.write_text(text.replace(name_line, f"{name_line}\nwhen_to_use: Edited {index}.",
                                          1), "utf-8")
            republished = client.expect(publish_for(uri, 1))
            sent = time.perf_counter()
            client.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": other.as_uri(), "type": 2}]})
            listing_edits.append(LspClient.wait(republished) - sent)
        body_edits, alone = [], []
        hover = {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}
        for index in range(20):
            settle(client)
            alone.append(client.request("textDocument/hover", hover)[1])
            other = listed[30 + index]
            other.write_text(other.read_text("utf-8") + f"\nEdited {index}.\n", "utf-8")
            sent = time.perf_counter()
            client.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": other.as_uri(), "type": 2}]})
            client.request("textDocument/hover", hover)
            body_edits.append(time.perf_counter() - sent)
        rss = client.peak_rss_mib()
        client.close()
        c50, c95, _ = percentiles(completions)
        r50, r95, _ = percentiles(listing_edits)
        b50, b95, _ = percentiles(body_edits)
        a50, a95, _ = percentiles(alone)
        return {"skills": count, "indexed_s": indexed, "indexed_cpu_s": indexed_cpu,
                "peak_rss_mib": rss,
                "indexed_rss_mib": rss_indexed, "opened_rss_mib": rss_opened,
                "reindex_p50_ms": r50, "reindex_p95_ms": r95,
                "body_edit_p50_ms": b50, "body_edit_p95_ms": b95,
                "request_alone_p50_ms": a50, "request_alone_p95_ms": a95,
                "completion_items": items, "completion_p50_ms": c50, "completion_p95_ms": c95}


def report(figures: dict[str, float]) -> str:
    count = figures["skills"]
    indexed = (f"{count:>6} skills: indexed in {figures['indexed_s']:6.2f} s "
               f"({count / figures['indexed_s']:,.0f}/s, server CPU {figures['indexed_cpu_s']:.2f} s)")
    if "peak_rss_mib" not in figures:
        return f"{indexed}; RSS {figures['indexed_rss_mib']:5.1f} MiB"
    return (f"{indexed}; peak RSS {figures['peak_rss_mib']:5.1f} MiB "
            f"(indexed {figures['indexed_rss_mib']:5.1f}, one skill open "
            f"{figures['opened_rss_mib']:5.1f});\n"
            f"        listing edit → open skill re-published p50 "
            f"{figures['reindex_p50_ms']:6.1f} ms p95 {figures['reindex_p95_ms']:6.1f} ms;\n"
            f"        body edit → next request answered p50 {figures['body_edit_p50_ms']:6.1f} ms "
            f"p95 {figures['body_edit_p95_ms']:6.1f} ms (the request alone p50 "
            f"{figures['request_alone_p50_ms']:5.1f} ms p95 "
            f"{figures['request_alone_p95_ms']:5.1f} ms);\n"
            f"        `/skill` completion ({figures['completion_items']:.0f} items) p50 "
            f"{figures['completion_p50_ms']:5.1f} ms p95 {figures['completion_p95_ms']:5.1f} ms")


def settle(client: LspClient, quiet: float = 0.3, limit: float = 300) -> None:
    """Wait until the server has sent nothing for `quiet` seconds (the unopened files' findings
    of the previous change published), at most `limit` seconds."""
    end = time.perf_counter() + limit
    while time.perf_counter() < end:
        last = client.notifications[-1][0] if client.notifications else 0.0
        if time.perf_counter() - last >= quiet:
            return
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--index-only", action="store_true",
                        help="only index (time, server CPU time, RSS), then stop the server")
    args = parser.parse_args()
    for count in args.skills:
        print(report(measure(count, args.index_only)))


if __name__ == "__main__":
    main()
