"""Building one attack on disk and looking for its canary."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from tests.security.cases import EVIL, Attack

#: the text of the secret planted beside every attack's project
SECRET = "TOP-SECRET-7c1e"

FOLDERS = {"wave": ".wave", "claude-code": ".claude"}


def build(root: Path, attack: Attack, home: Path | None = None) -> Path:
    """The attack's project under `root` (settings, planted files, pyproject); returns SKILL.md.
    The user's settings go to `home` (default `root/home`)."""
    project = root / "project"
    folder = FOLDERS.get(attack.target, ".wave")
    path = project / folder / "skills" / attack.name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    allowed = "".join(f"  - {json.dumps(rule)}\n" for rule in attack.allowed)
    header = ("name: attack\ndescription: Attack. Use when asked.\n"
              + "".join(line + "\n" for line in attack.frontmatter)
              + (f"allowed-tools:\n{allowed}" if allowed else ""))
    body = attack.body.replace("{root}", str(root))
    path.write_text(f"---\n{header}---\n{body}", "utf-8")
    if attack.settings is not None:
        (project / folder / "settings.json").write_text(json.dumps(attack.settings), "utf-8")
    home = home or root / "home"
    (home / folder).mkdir(parents=True, exist_ok=True)
    user = home / folder / "settings.json"
    if attack.home_settings is None:
        user.unlink(missing_ok=True)
    elif "__raw__" in attack.home_settings:
        user.write_text(attack.home_settings["__raw__"], "utf-8")
    else:
        user.write_text(json.dumps(attack.home_settings), "utf-8")
    for relative, text in attack.home_files.items():
        planted = home / relative
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.write_text(text, "utf-8")
    for relative, text in attack.files.items():
        planted = project / relative
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.write_text(text, "utf-8")
        planted.chmod(0o755)
    for relative, target in attack.links.items():
        link = project / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)
    for relative in attack.fifos:
        os.mkfifo(project / relative)
    # a secret beside the project: no command the engine allows may read it
    (root / "SECRET").write_text(SECRET + "\n", "utf-8")
    if any("git" in attack.body for _ in [0]) and shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(project)], check=False,
                       env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1"})
    if attack.pyproject is not None:
        (project / "pyproject.toml").write_text(attack.pyproject, "utf-8")
    return path


#: programs that change the machine when an attack gets through (the clock, the host name, a
#: long wait): the attack tests put these stand-ins first on PATH, so that a regression leaves a
#: canary instead
STAND_INS = ("date", "hostname", "sleep")


def stand_ins(folder: Path) -> str:
    """A folder of stand-ins for `STAND_INS` (each creates the canary), and the PATH that puts
    it first."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in STAND_INS:
        program = folder / name
        program.write_text(EVIL, "utf-8")
        program.chmod(0o755)
    return f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"


def canaries(root: Path) -> list[Path]:
    """Every canary file under `root` (the project, the home and their parent)."""
    return [p for p in root.rglob("CANARY*") if p.is_file()]
