"""wave-lsp's answer for a probe's tree (tests/oracle/README.md): `wave-lsp list --format json
--target claude-code` and `wave-lsp preview --target claude-code --format json --execute`, run in
this process through `wave_lsp.cli.main` with HOME pointed at the probe's home and the working
directory at its project, as a user would run them there.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.oracle.claude import Outcome

_LOCK = threading.Lock()  # the working directory and HOME belong to the whole process


@contextlib.contextmanager
def _at(cwd: Path, home: Path) -> Iterator[None]:
    with _LOCK:
        old_cwd, old_home = os.getcwd(), os.environ.get("HOME")
        os.chdir(cwd)
        os.environ["HOME"] = str(home)
        try:
            yield
        finally:
            os.chdir(old_cwd)
            if old_home is None:
                os.environ.pop("HOME", None)
            else:
                os.environ["HOME"] = old_home


def wave_json(argv: list[str], cwd: Path, home: Path) -> Any:
    """The JSON `wave-lsp <argv>` prints, run in `cwd` with HOME=`home` (a clear error saying
    what it printed instead)."""
    from wave_lsp.cli import main

    out, err = io.StringIO(), io.StringIO()
    with _at(cwd, home), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    try:
        return json.loads(out.getvalue())
    except ValueError:
        raise RuntimeError(f"`wave-lsp {' '.join(argv)}` exited {code} with no JSON: "
                           f"{out.getvalue()[:300]!r} {err.getvalue()[-600:]!r}") from None


def wave_rows(project: Path, home: Path) -> list[dict[str, Any]]:
    """`wave-lsp list --format json --target claude-code` of the project."""
    rows: list[dict[str, Any]] = wave_json(
        ["list", "--format", "json", "--target", "claude-code", str(project)], project,
        home)["skills"]
    return rows


def row_for(rows: list[dict[str, Any]], command: str) -> dict[str, Any] | None:
    """The row `/command` reaches: the winner of that name (or of that alias, where `list` gives
    aliases)."""
    for row in rows:
        names = [row["name"], *(row.get("aliases") or [])]
        if command in names and not row.get("shadowedBy"):
            return row
    return None


def listed(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The rows wave-lsp puts in the model's listing, by name."""
    return {row["name"]: row for row in rows
            if row["loads"] and row["listingLine"] and not row.get("shadowedBy")}


def wave_outcome(rows: list[dict[str, Any]], command: str, args: str | None, mode: str,
                 project: Path, home: Path) -> Outcome:
    """What wave-lsp predicts `/command args` (mode "slash") or the Skill tool (mode "tool")
    gives the model."""
    if mode == "slash" and len(command.split(None, 1)) > 1:
        # a typed `/name rest` line: the command name ends at the first blank, as in any shell
        command, rest = command.split(None, 1)
        args = f"{rest} {args}" if args else rest
    row = row_for(rows, command)
    if row is None or row.get("activatesOn"):
        # a conditional skill is unknown until a file its `paths` match is touched: no probe
        # touches one before the first turn
        return Outcome("unknown", command)
    if mode == "tool" and not row["modelInvocable"]:
        # wave-lsp words no Skill-tool refusal: the decision is compared
        return Outcome("refused", "", exact=False)
    path = Path(row["path"])
    if not path.is_absolute():
        path = project / path
    result = preview(path, args, project, home, execute=True)
    if (not result.get("ok") and any(mark in (result.get("error") or "") for mark in STRICTER)) \
            or sandboxed(result):
        # wave-lsp will not execute it, deliberately, or its sandbox changed what the command
        # did (a write in the read-only project): its prediction is the dry run's decision
        result = preview(path, args, project, home, execute=False)
        if result.get("ok"):
            return Outcome("rendered", result.get("text") or "", exact=False)
    if result.get("ok"):
        return Outcome("rendered", result.get("text") or "")
    if mode == "tool" and not row["userInvocable"] and row["modelInvocable"]:
        # `preview` renders `/name`, which such a skill refuses; the model may invoke it
        return Outcome("rendered", "", exact=False)
    return Outcome("refused", result.get("error") or "")


#: how `preview --execute` says it did not run what Claude Code runs (its execution guard, or a
#: prediction that cannot tell; docs/design/product.md *Two decisions*)
STRICTER = ("wave-lsp did not", "wave-lsp runs a command only when")
#: the preview's warning when a command could not write in the sandbox's read-only project
#: (docs/security.md *The sandbox*): protect, not predict — the runtime would have written
SANDBOXED = "wave-lsp shows the project read-only"


def sandboxed(result: dict[str, Any]) -> bool:
    """The sandbox changed what an executed command did, so the text is not the runtime's."""
    return any(SANDBOXED in warning for warning in result.get("warnings") or [])


def preview(path: Path, args: str | None, project: Path, home: Path, *, execute: bool,
            target: str = "claude-code") -> dict[str, Any]:
    """`wave-lsp preview --target <target> --format json [--execute] <path> [-- args]`."""
    argv = ["preview", "--target", target, "--format", "json", str(path)]
    if execute:
        argv.insert(1, "--execute")
    if args:
        argv += ["--", args]
    result: dict[str, Any] = wave_json(argv, project, home)
    return result
