"""Workspace scale in the server: time to index N skills (until the end of the work-done
progress), peak RSS, one re-index after a file changes on disk (didChangeWatchedFiles → the open
document re-published), and `/skill-name` completion latency over the whole index.

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


def measure(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        paths = make_tree(root, count)
        client = LspClient(WAVE, settings={"wave": {"personalSkills": False}})
        ended = client.expect(progress_end)
        client.initialize(root)
        start = time.perf_counter()
        indexed = LspClient.wait(ended, timeout=600) - start
        rss_indexed = client.peak_rss_mib()
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
        reindex = []
        for index in range(10):
            other = paths[1 + index]
            other.write_text(other.read_text("utf-8") + f"\nEdited {index}.\n", "utf-8")
            republished = client.expect(publish_for(uri, 1))
            sent = time.perf_counter()
            client.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": other.as_uri(), "type": 2}]})
            reindex.append(LspClient.wait(republished) - sent)
        rss = client.peak_rss_mib()
        client.close()
        c50, c95, _ = percentiles(completions)
        r50, r95, _ = percentiles(reindex)
        print(f"{count:>6} skills: indexed in {indexed:6.2f} s ({count / indexed:,.0f}/s); peak RSS "
              f"{rss:5.1f} MiB (indexed {rss_indexed:5.1f}, one skill open {rss_opened:5.1f}); re-index + re-publish after a change p50 {r50:6.1f} ms p95 "
              f"{r95:6.1f} ms; `/skill` completion ({items} items) p50 {c50:5.1f} ms p95 {c95:5.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, nargs="+", default=[1000, 5000])
    args = parser.parse_args()
    for count in args.skills:
        measure(count)


if __name__ == "__main__":
    main()
