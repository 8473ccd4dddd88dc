"""Indexing at scale: N generated skills (default 5,000) in one project, spread over the three
project roots, a personal root and a plugin. Measures runtime discovery (`wave-lsp list`), the
server's workspace index and a full `check` of every file.

Run: `python benchmarks/index_scale.py [--skills N]`. Prints seconds and skills per second.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE
from wave_lsp.core.workspace.discovery import find_skill_files
from wave_lsp.core.workspace.index import SkillIndex
from wave_lsp.core.workspace.runtime_view import runtime_skills

ROOTS = (".wave/skills", ".claude/skills", ".agents/skills")


def generate(base: Path, count: int) -> tuple[Path, Path]:
    project, home = base / "project", base / "home"
    (project / ".git").mkdir(parents=True)
    plugin = project / "plugins/tools"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin/plugin.json").write_text(json.dumps({"name": "tools"}))
    for index in range(count):
        where = [project / ROOTS[index % 3], home / ".wave/skills", plugin / "skills"][index % 5 % 3]
        folder = where / f"skill-{index:05d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{index:05d}\ndescription: Handles task {index}. Use when the user "
            f"asks for task {index}.\nallowed-tools:\n  - Bash(git status)\n---\n# Task {index}\n\n"
            f"Run `scripts/run.sh` and read [the notes](references/notes.md).\n")
    return project, home


def timed(label: str, count: int, work) -> None:
    start = time.perf_counter()
    result = work()
    seconds = time.perf_counter() - start
    print(f"{label:<34} {seconds:7.2f} s   {count / seconds:9,.0f} skills/s   ({result})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, default=5000)
    parser.add_argument("--no-check", action="store_true",
                        help="leave out the `check` of every file (minutes at 5,000 skills)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        project, home = generate(Path(folder), args.skills)
        print(f"{args.skills:,} skills generated under {folder}")
        timed("discovery (wave-lsp list, wave)", args.skills,
              lambda: f"{len(runtime_skills(WAVE, project, home))} loaded")
        timed("discovery (claude-code)", args.skills,
              lambda: f"{len(runtime_skills(CLAUDE_CODE, project, home))} loaded")
        index = SkillIndex()
        timed("server index (SkillIndex.rebuild)", args.skills,
              lambda: index.rebuild([project], Settings(home=home)) or f"{len(index.skills())} indexed")
        if args.no_check:
            return
        settings = Settings(home=home, personal=False)
        timed("check every SKILL.md", args.skills,
              lambda: f"{sum(len(check_file(p, settings).findings) for p in find_skill_files([project]))}"
                      " findings")


if __name__ == "__main__":
    main()
