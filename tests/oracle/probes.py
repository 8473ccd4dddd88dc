"""The probes of the differential harness (tests/oracle/README.md): skill trees kept as files under
`tests/oracle/probes/<probe>/`, and a sample of real skills from `../shared/corpus/real`.

A probe folder holds `probe.toml` and the trees it copies: `project/` (the scratch project, made a
git repository), `home/` (the personal files: `.claude/skills`, `.claude/settings.json`). Plugins
live in the project (`project/plugins/<plugin>`), where wave-lsp finds them, and are given to
Claude Code with `--plugin-dir` (`plugin_dirs` in the manifest). The manifest:

    area = "frontmatter"           # what the probe is about (README: the areas)
    about = "one sentence"
    plugin_dirs = ["plugins/p"]    # relative to the project
    cwd = "apps/web"                # where both run, relative to the project (default: its root)
    [[invoke]]                      # one entry per invocation; none: each project skill, no args
    skill = "name"                  # the command, as typed after `/`
    args = "a b"                    # what follows it (absent: nothing)
    modes = ["slash", "tool"]       # user `/name args`, the model's Skill tool (default: both
                                    # in the areas of `BOTH_MODES`, else "slash")

Every invocation is one `claude -p` process (the results of two Skill-tool calls in one turn cannot
be told apart, and a second prompt in one session is rendered as a re-invocation), so the modes are
chosen where they tell something: the Skill tool renders a skill as `/name` does, and differs in who
may invoke it, which the invocation, discovery and injection probes cover.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

PROBES = Path(__file__).parent / "probes"
REPOSITORY = Path(__file__).resolve().parents[2]
#: the real skills: `../shared/corpus/real` beside the repository (absent in a plain clone)
CORPUS = REPOSITORY.parent / "shared" / "corpus" / "real"
REAL_SAMPLE = 30
MODES = ("slash", "tool")
#: the areas whose invocations run in both modes by default (the others: `/name` only)
BOTH_MODES = frozenset({"invocation", "discovery", "injection"})
#: every this-many-th real skill of the sample is also invoked through the Skill tool
REAL_TOOL_EVERY = 3
#: real skills are left out of the sample when they would run something (an injection, a hook)
#: or start a subagent: the harness only runs the harmless commands of its own probes
_UNSAFE_REAL = re.compile(r"!`|```!|^hooks\s*:|^context\s*:\s*fork", re.M)


@dataclass(frozen=True)
class Invoke:
    skill: str
    args: str | None
    modes: tuple[str, ...] = MODES


@dataclass
class Probe:
    name: str  #: the probe's id (`frontmatter-no-description`, `real/<repo>/<skill>`)
    area: str
    about: str
    invocations: list[Invoke]
    source: Path | None = None  #: the probe folder (None for a real skill)
    real_skill: Path | None = None  #: the corpus folder of a real skill
    plugin_dirs: list[str] = field(default_factory=list)
    cwd: str = ""  #: the working directory, relative to the project root

    def aspects(self) -> list[str]:
        """The comparisons of this probe: the listing (who is listed, and each line), then each
        invocation in each mode (`slash#0`, `tool#0`, …)."""
        found = ["listed", "listing-text"]
        for number, invoke in enumerate(self.invocations):
            found += [f"{mode}#{number}" for mode in invoke.modes]
        return found

    def build(self, into: Path) -> tuple[Path, Path]:
        """The working directory in the scratch project (a git repository) and the HOME
        template, under `into`."""
        project, home = into / "project", into / "home"
        home.mkdir(parents=True)
        if self.real_skill is not None:
            shutil.copytree(self.real_skill, project / ".claude" / "skills" / self.real_skill.name,
                            ignore=shutil.ignore_patterns(".corpus-files.tsv"))
        elif self.source is not None:
            if (self.source / "project").is_dir():
                shutil.copytree(self.source / "project", project, symlinks=True)
            if (self.source / "home").is_dir():
                shutil.copytree(self.source / "home", home, symlinks=True, dirs_exist_ok=True)
        project.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True)
        work = project / self.cwd
        work.mkdir(parents=True, exist_ok=True)
        return work, home


def load_probe(folder: Path) -> Probe:
    manifest = tomllib.loads((folder / "probe.toml").read_text(encoding="utf-8"))
    modes = MODES if manifest["area"] in BOTH_MODES else ("slash",)
    invocations = [Invoke(str(item["skill"]), item.get("args"),
                          tuple(item.get("modes", modes)))
                   for item in manifest.get("invoke", [])]
    if not invocations:
        skills = folder / "project" / ".claude" / "skills"
        invocations = [Invoke(path.name, None, modes) for path in sorted(skills.iterdir())
                       if (path / "SKILL.md").exists()] if skills.is_dir() else []
    return Probe(folder.name, str(manifest["area"]), str(manifest["about"]), invocations,
                 source=folder, plugin_dirs=list(manifest.get("plugin_dirs", [])),
                 cwd=str(manifest.get("cwd", "")))


def repository_probes() -> list[Probe]:
    return [load_probe(folder) for folder in sorted(PROBES.iterdir())
            if (folder / "probe.toml").is_file()]


def real_probes(corpus: Path = CORPUS, count: int = REAL_SAMPLE) -> list[Probe]:
    """A fixed sample of `count` real skills (the same every run for the same corpus): skills
    that run nothing and start no subagent, invoked with two arguments in both modes."""
    if not corpus.is_dir():
        return []
    candidates = []
    for path in sorted(corpus.glob("*/*/SKILL.md")):
        text = path.read_bytes().decode("utf-8", "replace")
        if not _UNSAFE_REAL.search(text):
            candidates.append(path.parent)
    chosen = sorted(random.Random(26).sample(candidates, min(count, len(candidates))))
    return [Probe(f"real/{folder.parent.name}/{folder.name}", "real", "a real skill",
                  [Invoke(folder.name, "alpha beta",
                          MODES if number % REAL_TOOL_EVERY == 0 else ("slash",))],
                  real_skill=folder)
            for number, folder in enumerate(chosen)]
