"""Realistic generated skills for the benchmarks: frontmatters in the shapes real skills use
(block scalars, lists, quoted strings, `allowed-tools`, metadata), bodies with headings, links,
code blocks and an occasional `!` injection."""

from __future__ import annotations

import random
from pathlib import Path

TOOLS = ["Read", "Grep", "Glob", "Bash(git status)", "Bash(npm run test:*)", "WebFetch", "Edit"]


def skill_text(index: int, rng: random.Random) -> str:
    name = f"skill-{index:05d}"
    lines = ["---", f"name: {name}"]
    if rng.random() < 0.4:
        lines += ["description: >-", f"  Handles task {index} for the team: reads the inputs, checks",
                  "  them and writes a report. Use when the user asks for this task or mentions",
                  f"  report {index}."]
    else:
        lines.append(f'description: "Handles task {index}. Use when the user asks for task {index}."')
    if rng.random() < 0.5:
        lines += ["allowed-tools:"] + [f"  - {tool}" for tool in rng.sample(TOOLS, 3)]
    if rng.random() < 0.3:
        lines += ["metadata:", '  version: "1.2"', "  author: someone"]
    if rng.random() < 0.2:
        lines += ["argument-hint: \"[issue]\"", "disable-model-invocation: true"]
    lines.append("---")
    body = [f"# Task {index}", "", "## When to use", "", f"Use this skill for task {index}.", "",
            "## Steps", "", "1. Read [the guide](references/guide.md).",
            "2. Run `python scripts/run.py --check`.", "", "```bash", "git status", "```", ""]
    if rng.random() < 0.1:
        body += ["Current branch: !`git branch --show-current`", ""]
    body += [f"Line {i} of the instructions, with some detail about step {i}." for i in range(40)]
    return "\n".join(lines + body) + "\n"


def make_tree(root: Path, count: int, seed: int = 7) -> list[Path]:
    """`count` skills under `root/.wave/skills`, each with its referenced files."""
    rng = random.Random(seed)
    paths = []
    for index in range(count):
        folder = root / ".wave" / "skills" / f"skill-{index:05d}"
        (folder / "references").mkdir(parents=True, exist_ok=True)
        (folder / "scripts").mkdir(exist_ok=True)
        (folder / "references/guide.md").write_text("# Guide\n", "utf-8")
        (folder / "scripts/run.py").write_text("print('ok')\n", "utf-8")
        path = folder / "SKILL.md"
        path.write_text(skill_text(index, rng), "utf-8")
        paths.append(path)
    (root / ".git").mkdir(exist_ok=True)
    return paths
