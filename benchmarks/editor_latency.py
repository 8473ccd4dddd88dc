"""Editor latency: wave-lsp against yaml-language-server (and a bare pygls server for start-up),
through the same stdio client, in the same run.

Measures start-up (spawn → `initialize` answer), open → first diagnostics, edit → diagnostics with
full and incremental sync, completion and hover (p50 / p95 / max in ms), and each server's peak RSS.
yaml-language-server gets the frontmatters of the same skills as `.yaml` files with our JSON schema
associated, so both validate the same YAML.

Run: `python benchmarks/editor_latency.py [--skills N] [--edits N]` (installs yaml-language-server
and Node 24 into benchmarks/.peers on first use).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_client import LspClient, percentiles, publish_for
from peers import yaml_language_server
from skills_tree import make_tree

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "skill-frontmatter.schema.json"
WAVE = [sys.executable, "-m", "wave_lsp", "serve", "--stdio"]
BARE = [sys.executable, "-c", "from pygls.lsp.server import LanguageServer\n"
        "LanguageServer('bare', '0').start_io()"]


def startup(command: list[str], root: Path, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        client = LspClient(command)
        times.append(client.initialize(root))
        client.close()
    return times


def session(command: list[str], files: list[Path], edits: int, settings: dict, root: Path,
            line_of_key: int, publishes_versions: bool) -> dict[str, object]:
    client = LspClient(command, settings=settings)
    client.initialize(root)
    time.sleep(0.5)  # let start-up work (indexing) settle; it is measured elsewhere
    results: dict[str, list[float]] = {"open": [], "full": [], "incremental": [], "completion": [],
                                       "hover": []}
    for path in files:
        uri = path.as_uri()
        text = path.read_text("utf-8")
        expected = client.expect(publish_for(uri, 1 if publishes_versions else None))
        sent = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml" if path.suffix == ".yaml" else "markdown",
            "version": 1, "text": text}})
        results["open"].append(LspClient.wait(expected) - sent)
        version = 1
        for index in range(edits):
            version += 1
            text = text.replace("\n", f"\n# edit {index}\n", 1) if index % 2 else text + " "
            expected = client.expect(publish_for(uri, version if publishes_versions else None))
            sent = time.perf_counter()
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})
            results["full"].append(LspClient.wait(expected) - sent)
            version += 1
            lines = text.split("\n")
            position = {"line": line_of_key, "character": len(lines[line_of_key])}
            expected = client.expect(publish_for(uri, version if publishes_versions else None))
            sent = time.perf_counter()
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": position, "end": position}, "text": "x"}]})
            lines[line_of_key] += "x"
            text = "\n".join(lines)
            results["incremental"].append(LspClient.wait(expected) - sent)
            _, elapsed = client.request("textDocument/completion", {
                "textDocument": {"uri": uri}, "position": {"line": line_of_key + 1, "character": 0}})
            results["completion"].append(elapsed)
            _, elapsed = client.request("textDocument/hover", {
                "textDocument": {"uri": uri}, "position": {"line": line_of_key, "character": 1}})
            results["hover"].append(elapsed)
    rss = client.peak_rss_mib()
    client.close()
    return {**results, "rss": rss}


def frontmatter_files(files: list[Path], folder: Path) -> list[Path]:
    """The YAML between the delimiters of each skill, as a .yaml file."""
    out = []
    for index, path in enumerate(files):
        text = path.read_text("utf-8")
        yaml = text.split("---\n", 2)[1]
        target = folder / f"skill-{index:05d}.yaml"
        target.write_text(yaml, "utf-8")
        out.append(target)
    return out


def row(label: str, ours: list[float], theirs: list[float] | None) -> str:
    a = percentiles(ours)
    text = f"{label:<26} {a[0]:8.2f} {a[1]:8.2f} {a[2]:8.2f}"
    if theirs:
        b = percentiles(theirs)
        text += f"   {b[0]:8.2f} {b[1]:8.2f} {b[2]:8.2f}   ×{b[0] / a[0]:5.2f} ×{b[1] / a[1]:5.2f}"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, default=30)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--startups", type=int, default=15)
    args = parser.parse_args()
    yaml_ls = yaml_language_server()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        files = make_tree(root / "ws", args.skills)
        yaml_folder = root / "yaml"
        yaml_folder.mkdir()
        yaml_files = frontmatter_files(files, yaml_folder)

        bare: list[float] = []
        wave: list[float] = []
        yls: list[float] = []
        for _ in range(args.startups):  # interleaved, so that machine noise hits all three alike
            bare += startup(BARE, root / "ws", 1)
            wave += startup(WAVE, root / "ws", 1)
            yls += startup(yaml_ls, yaml_folder, 1)
        print(f"start-up, spawn → initialize answer (median of {args.startups}):")
        print(f"  bare pygls 2 server   {statistics.median(bare) * 1000:7.1f} ms")
        print(f"  wave-lsp              {statistics.median(wave) * 1000:7.1f} ms   "
              f"×{statistics.median(wave) / statistics.median(bare):.2f} of bare pygls")
        print(f"  yaml-language-server  {statistics.median(yls) * 1000:7.1f} ms")

        ours = session(WAVE, files, args.edits, {"wave": {"personalSkills": False}}, root / "ws",
                       line_of_key=1, publishes_versions=True)
        yaml_settings = {"yaml": {"schemas": {SCHEMA.as_uri(): "*.yaml"}, "validate": True,
                                  "completion": True, "hover": True, "format": {"enable": False}}}
        theirs = session(yaml_ls, yaml_files, args.edits, yaml_settings, yaml_folder,
                         line_of_key=0, publishes_versions=False)
        print(f"\n{args.skills} skills, {args.edits} edits each; ms; ratio = yaml-ls / wave-lsp")
        print(f"{'':<26} {'wave p50':>8} {'p95':>8} {'max':>8}   {'yaml p50':>8} {'p95':>8} "
              f"{'max':>8}   ratios")
        for key, label in (("open", "open → diagnostics"), ("full", "edit (full) → diagnostics"),
                           ("incremental", "edit (incr.) → diagnostics"),
                           ("completion", "completion"), ("hover", "hover")):
            print(row(label, ours[key], theirs[key]))
        print(f"peak RSS: wave-lsp {ours['rss']:.1f} MiB, yaml-language-server {theirs['rss']:.1f} MiB")


if __name__ == "__main__":
    main()
