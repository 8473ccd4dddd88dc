"""What the real-editor smoke tests share: finding an editor (skip when it is absent, fail under
`WAVE_LSP_REQUIRE_EDITORS=1`), a project with a skill to open, and an environment in which the
README's `wave-lsp serve` command runs this checkout's server and no user configuration is read.

The severity the editor shows says which target the server used: the skill's missing
`description` (SK050) is put in a skills folder where that target's severity differs from the
other candidate's. A snippet that sets a target must get it to the server (not the folder's
default); the snippets of docs/editors.md set none (issue 36: one default target), so the server must use the
target that fits where the skill lives, as `check` does (`.claude/skills`: Claude Code's warning,
not the error `wave`, the old fallback, would give)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: a skill without `description` (SK050 at 0:0) and an empty line to complete it on
SKILL_TEXT = "---\nname: demo\n\n---\n# Demo ✓\n\nRun it.\n"
#: LSP severities by the names `check --format json` gives them
SEVERITIES = {"error": 1, "warning": 2, "information": 3, "hint": 4}
SCRIPTS = Path(sys.executable).parent


#: batch Emacs started as an interactive Emacs starts before it reads the user's init file: with
#: the installed packages' autoloads (`package-activate-all`; Debian's elpa-* packages, MELPA's),
#: which batch mode skips. The README's snippet is then loaded as that init file, with nothing else.
EMACS_STARTUP = ("--batch", "-f", "package-activate-all")


def require(found: str | None, what: str) -> str:
    """The editor's path, or a skip (a failure under `WAVE_LSP_REQUIRE_EDITORS=1`, set by
    `.ci/run`, which installs the editors)."""
    if found is None:
        if os.environ.get("WAVE_LSP_REQUIRE_EDITORS") == "1":
            pytest.fail(f"{what} is required here (WAVE_LSP_REQUIRE_EDITORS=1) but not installed")
        pytest.skip(f"{what} is not installed")
    return found


def make_skill(root: Path, *markers: str, skills: str = ".wave/skills") -> Path:
    """`root/project` with the given root markers (folders) and a skill in its `skills` folder."""
    skill = root / "project" / skills / "demo/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL_TEXT, "utf-8")
    for marker in markers:
        (root / "project" / marker).mkdir(exist_ok=True)
    return skill


def snippet_target(snippet: str) -> str | None:
    """The `wave.target` a README snippet sets (written `target = "x"`, `:target "x"`,
    `"target": "x"` or `'target': 'x'`); None when it sets none, as those of docs/editors.md do."""
    found = set(re.findall(r"""\btarget\b["']?\s*[=:]?\s*["']([\w-]+)["']""", snippet))
    assert len(found) <= 1, f"the snippet sets several targets, {sorted(found)}:\n{snippet}"
    return found.pop() if found else None


def sk050_severity(skill: Path, target: str | None) -> int:
    """The LSP severity of the skill's SK050 under `target` (None: the default target of where
    the skill lives), as `wave-lsp check` reports it."""
    program = shutil.which("wave-lsp", path=str(SCRIPTS))  # `wave-lsp.exe` on Windows
    assert program, f"no wave-lsp next to {sys.executable}"
    command = [program, "check", str(skill), "--format", "json", "--no-personal"]
    completed = subprocess.run([*command, *(["--target", target] if target else [])],
                               capture_output=True, text=True, timeout=60)
    report = json.loads(completed.stdout)
    found = [f["severity"] for file in report["files"] for f in file["findings"] if f["code"] == "SK050"]
    assert found, completed.stdout
    return SEVERITIES[found[0]]


def make_settings_skill(root: Path, target: str | None, *markers: str) -> tuple[Path, int]:
    """A project (as `make_skill`) whose skill shows SK050 at another severity under `target` than
    under the default target of its skills folder (`target` None: under that default than under
    `wave`), and that severity: an editor showing it proves which target the server used."""
    for skills in (".claude/skills", ".wave/skills"):
        skill = make_skill(root, *markers, skills=skills)
        expected = sk050_severity(skill, target)
        if expected != sk050_severity(skill, None if target else "wave"):
            return skill, expected
        shutil.rmtree(root / "project")
    raise AssertionError(f"no skills folder tells the target {target!r} from the other by SK050")


def editor_env(tmp_path: Path) -> dict[str, str]:
    """This environment with its scripts folder (where `wave-lsp` is) first on PATH, a fresh (and
    existing) HOME and XDG folders and no variable that names a Vim or Neovim configuration: the
    editor reads no configuration but the one the test writes there."""
    (tmp_path / "home").mkdir(exist_ok=True)
    assert shutil.which("wave-lsp", path=str(SCRIPTS)), f"no wave-lsp next to {sys.executable}"
    environment = {key: value for key, value in os.environ.items()
                   if key not in {"VIMINIT", "EXINIT", "MYVIMRC", "NVIM_APPNAME"}}
    return {**environment, "PATH": f"{SCRIPTS}{os.pathsep}{os.environ.get('PATH', '')}",
            "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state"),
            "XDG_CACHE_HOME": str(tmp_path / "cache")}
