"""The long fuzz run: `python -m tests.fuzz.long_run [--cases 100000] [--seed N]`.

Runs the same properties as the test suite on many more generated texts (every target, in
memory) and, for one case in `--disk-every`, on disk through the preview and the CLI's JSON.
Prints the figures recorded in tests/FUZZING.md; exits 1 on the first failure, with the
shrunk counterexample.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings

from tests.fuzz.grammar import skill_texts
from tests.fuzz.properties import check_cli_json, check_preview, check_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--disk-every", type=int, default=50)
    args = parser.parse_args()
    counter = {"cases": 0, "disk": 0, "chars": 0}
    folder = Path(tempfile.mkdtemp(prefix="wave-lsp-fuzz-"))
    path = folder / ".wave" / "skills" / "fuzz" / "SKILL.md"
    path.parent.mkdir(parents=True)

    @seed(args.seed)
    @settings(max_examples=args.cases, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(skill_texts())
    def run(text: str) -> None:
        counter["cases"] += 1
        counter["chars"] += len(text)
        check_text(text)
        if counter["cases"] % args.disk_every == 0:
            counter["disk"] += 1
            path.write_text(text, "utf-8", errors="surrogatepass")
            check_text(text, path)
            check_preview(text, path)
            check_cli_json(path)
        if counter["cases"] % 10_000 == 0:
            print(f"  {counter['cases']:,} cases, {time.perf_counter() - start:,.0f} s", flush=True)

    start = time.perf_counter()
    run()
    elapsed = time.perf_counter() - start
    print(f"{counter['cases']:,} generated texts ({counter['chars'] / max(1, counter['cases']):.0f} "
          f"characters on average) checked under 4 targets; {counter['disk']:,} of them also on "
          f"disk through preview and `check --format json`; {elapsed:,.0f} s; no failure")


if __name__ == "__main__":
    main()
