"""Which files a target speaks of: a target's rules apply only to the files its runtime finds
where they lie (docs/design/rules.md *A target speaks of what it loads*; issue 36).

- A SKILL.md in no skills root and in no plugin (a repository that distributes skills,
  `examples/`) is a skill to be installed: every target's rules apply to it, as to the copy the
  user will install.
- A file in a skills root or a plugin is read by the runtimes that find it there
  (`reach.discovery_gap`: the roots each profile scans, at the depths it scans, the folders its
  config adds, workspace trust, folder caps). A runtime that does not find it never reads it, so
  its rules say nothing about the file: `check` reports one SK002 finding (which says so, and who
  finds the file there) and that the target does not load it.
- An aggregate (`portable`, the runtimes that scan `.agents/skills`) applies each of its runtimes
  only to the files that runtime finds: in a skills root its members are narrowed to those
  (`narrowed`), so its severities and load verdict are theirs, as for the runtimes that scan
  `.agents/skills` (`profiles.shared_root_profile`). The validator skills-ref, which reads any
  file it is given and loads none, is left out there: it speaks of the skill to be installed.

`target_for` is the target of a file when none is configured (docs/design/rules.md *The default
target*): no `--target`, no `wave.target` setting and no `[tool.wave-lsp] target`, each skill is
checked for the runtime that will read it, chosen from where it lives. A skills root named after a
runtime (`.wave/skills`, `.claude/skills`, `.codex/skills`, `.github/skills`, …;
`RuntimeProfile.own_roots`) picks that runtime; a Claude Code plugin picks `claude-code` and a Wave
plugin `wave`; a root no runtime owns (`.agents/skills`) is read as `portable` across the runtimes
that scan it (`shared_root_profile`); anything else (a repository that distributes skills,
`examples/`) keeps the `wave` default. An explicit target always wins.

`reach` answers for `check` (the command line, the language server, the MCP server: one path,
`checker.check_file_steps`) and for `preview` (`loading.invoke_loaded`); `finders` names the
runtimes that do find a file, for the messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from wave_lsp.core.checking.messages import runtime_names
from wave_lsp.core.facts.profiles import (
    CLAUDE_CODE,
    DEFAULT_PROFILE,
    PROFILES,
    WAVE,
    RuntimeProfile,
    shared_root_profile,
    with_workspace_trust,
)
from wave_lsp.core.workspace.location import SKILL_FILE, SkillLocation, root_name

#: the runtimes a file can be found by, in catalog column order (no validator, no aggregate)
RUNTIME_PROFILES: tuple[RuntimeProfile, ...] = tuple(p for p in PROFILES.values()
                                                     if p.kind == "runtime")


@dataclass(frozen=True, slots=True)
class Reach:
    """Whether a target finds a file where it lies, and the profile whose rules apply to it."""

    #: the target finds the file (an aggregate: at least one of its runtimes does), or the file
    #: lies in no skills root (a skill to be installed)
    found: bool
    #: the profile to check the file with: the target, or an aggregate narrowed to the members
    #: that find the file (`narrowed`)
    profile: RuntimeProfile


def installable(location: SkillLocation) -> bool:
    """The file lies in no skills root and in no plugin: it is checked as the skill it will be
    once installed, by every target."""
    return location.skills_root is None and location.scope != "plugin"


def reach(profile: RuntimeProfile, location: SkillLocation, home: Path | None = None,
          personal: bool = True) -> Reach:
    """Does `profile` find the file, and with which profile is it checked (see the module)."""
    if location.legacy_command is not None and profile.lists_legacy_commands:
        return Reach(True, profile)  # `runtime_view.legacy_commands` finds it
    if not profile.scans_roots or installable(location):
        return Reach(True, profile)
    if profile.members:
        return _members_reach(profile, location, home, personal)
    return Reach(_finds(profile, location, home, personal), profile)


def _members_reach(profile: RuntimeProfile, location: SkillLocation, home: Path | None,
                   personal: bool) -> Reach:
    runtimes = [m for m in profile.members if m.kind == "runtime"]
    finding = [m for m in runtimes if _finds(m, location, home, personal)]
    if len(finding) == len(runtimes):
        return Reach(True, profile)
    if not finding:
        return Reach(False, profile)
    return Reach(True, narrowed(profile, tuple(finding)))


def _finds(profile: RuntimeProfile, location: SkillLocation, home: Path | None,
           personal: bool) -> bool:
    # imported only for a file in a skills root: a one-file check elsewhere does not need the
    # model of the runtimes' discovery (tests/cli/test_start_up.py)
    from wave_lsp.core.workspace.reach import discovery_gap

    return discovery_gap(profile, location, home, personal) is None


@cache
def narrowed(profile: RuntimeProfile, members: tuple[RuntimeProfile, ...]) -> RuntimeProfile:
    """`profile` (an aggregate) reading only as `members` do: its severities are their
    strictest (no catalog column of its own, as `shared_root_profile`), and it names them. One
    object per choice, so that the caches keyed by profile (sessions, stopping codes) hold."""
    # a singular subject, as `every runtime` is: messages say "each of Codex and Cursor counts"
    label = f"each of {runtime_names([m.runtime for m in members])}" if len(members) > 1 \
        else members[0].runtime
    return replace(profile, catalog_column="", members=members, runtime=label, reader_name=label,
                   trust_base=None)


def finders(location: SkillLocation, home: Path | None = None, personal: bool = True,
            trust: str = "auto", besides: RuntimeProfile | None = None
            ) -> tuple[RuntimeProfile, ...]:
    """The runtimes that find the file where it lies, other than `besides` (the target), read
    with the `workspace-trust` choice `trust`."""

    left_out = (besides.trust_base or besides) if besides is not None else None
    owner = target_for(location)
    found = []
    for runtime in sorted(RUNTIME_PROFILES, key=lambda p: p is not owner):
        if runtime is left_out:
            continue
        profile = with_workspace_trust(runtime, trust)
        if _finds(profile, location, home, personal):
            found.append(profile)
    return tuple(found)


def finders_clause(found: tuple[RuntimeProfile, ...]) -> str:
    """`Codex and Cursor find it here (target `codex`)`, or that no runtime does."""
    if not found:
        return "No other runtime finds it here either"
    verb = "finds" if len(found) == 1 else "find"
    return f"{runtime_names([p.runtime for p in found])} {verb} it here (target `{found[0].name}`)"


#: folders whose skills are not meant to load: translations, archives, drafts, examples, tests
_ON_PURPOSE = re.compile(
    r"^(?:i18n|l10n|locales?|translations?|lang|deprecated|archived?|old|legacy|obsolete|"
    r"unused|disabled|wip|in[-_]progress|drafts?|experimental|personal|private|scratch|"
    r"examples?|samples?|demos?|templates?|fixtures?|"
    r"tests?|testdata|assets)$", re.I)


def kept_out_on_purpose(location: SkillLocation, exists: Callable[[str], bool]) -> bool:
    """Whether a nested skill folder is out of loading on purpose: a folder between the skills
    root and it is a skill itself (holds SKILL.md: this is a part of that skill; `exists` asks
    the disk) or is named for translations, archives, drafts, examples or tests, or a plugin
    manifest lists the plugin's skills and leaves this one out (SK002 is then information)."""
    root, skill_dir = location.skills_root, location.skill_dir
    if root is None or skill_dir is None:
        return True
    if location.plugin is not None and location.plugin.skill_paths and location.scope == "plugin":
        return True
    folder = skill_dir.parent
    while folder != root and root in folder.parents:
        if _ON_PURPOSE.match(folder.name) or exists(str(folder / SKILL_FILE)):
            return True
        folder = folder.parent
    return False


#: the runtime each owned root belongs to
_OWNERS = {root: profile for profile in PROFILES.values() for root in profile.own_roots}


def target_for(location: SkillLocation) -> RuntimeProfile:
    """The profile a file is checked for when no target is configured."""
    if location.scope == "plugin" and location.plugin is not None:
        manifests = [m for m in (".wave-plugin/plugin.json",)
                     if (location.plugin.root / m).is_file()]
        return WAVE if manifests else CLAUDE_CODE
    if location.skills_root is None:
        return outside_every_root(location)
    relative = root_name(location)
    owner = _OWNERS.get(relative)
    if owner is not None:
        return owner
    shared = shared_root_profile(relative, location.scope == "personal")
    return shared if shared.members else DEFAULT_PROFILE


#: folders whose skills are kept, not used: archives, old versions, drafts, inboxes
_KEPT = re.compile(r"^(?:deprecated|archived?|archives|old|legacy|obsolete|unused|disabled|"
                   r"drafts?|inbox|attic|graveyard|backups?|bak)$", re.I)
#: a skill folder named for a version of the skill: `git-260611-0`, `rich-15-0-0`,
#: `skman-0-5-0-old` (two number groups at least: `gpt-4` is a name)
_VERSIONED = re.compile(r"^[a-z][\w.-]*?-\d+[-_.]\d+(?:[-_.]\d+)*(?:[-_.][a-z]+)?$", re.I)
MAX_PLUGIN_LEVELS = 3


def outside_every_root(location: SkillLocation) -> RuntimeProfile:
    """The target of a SKILL.md in no skills root and no Claude Code or Wave plugin, with none
    configured (docs/design/rules.md *The default target*):

    - in a plugin of a runtime's own format (`<plugin>/skills/x/SKILL.md` beside
      `.codex-plugin/plugin.json`; `RuntimeProfile.plugin_manifests`): that runtime;
    - copied into a skills root by a README's command (`cp -r …/skills/* .agents/skills/`,
      `neighbours.readme_install`): the target of that root;
    - preloaded by an agent definition beside its collection (`agents/*.md` with `skills:`
      naming it, `preloaded_by_agent`): `claude-code`;
    - anything else (kept rather than used included: `kept_not_used`, which `check` reports
      instead of the rules when no target is configured; a repository that distributes skills,
      `examples/`): the `wave` default."""
    skill_dir = location.skill_dir
    if skill_dir is None:
        return DEFAULT_PROFILE
    plugin_owner = _runtime_plugin(skill_dir, location.project_root)
    if plugin_owner is not None:
        return plugin_owner
    installed = _installed_by_readme(skill_dir, location.project_root)
    if installed is not None:
        return installed
    if preloaded_by_agent(_read_file, skill_dir):
        return CLAUDE_CODE
    return DEFAULT_PROFILE


def runtime_unknown(location: SkillLocation) -> bool:
    """Whether the file's runtime is unknown: it lies in no skills root and no plugin, nothing
    beside it names a runtime (no plugin manifest, no README copy command, no agent that preloads
    it) and it is not kept rather than used. With no target configured it is checked for the
    `wave` default, but only what holds under every runtime is an error or warning there
    (docs/design/rules.md *The default target*, issue 37: sample 6)."""
    if not installable(location) or kept_not_used(location) is not None:
        return False
    skill_dir = location.skill_dir
    if skill_dir is None:
        return True
    return (_runtime_plugin(skill_dir, location.project_root) is None
            and _installed_by_readme(skill_dir, location.project_root) is None
            and not preloaded_by_agent(_read_file, skill_dir))


#: the `skills:` list of an agent definition's frontmatter (block or flow style)
_AGENT_SKILLS = re.compile(r"^skills:[ \t]*(?P<flow>\[[^\]\n]*\])?[ \t]*\n?(?P<block>(?:[ \t]*-[^\n]*\n)*)",
                           re.M)
MAX_AGENT_FILES = 64


def preloaded_by_agent(read: Callable[[Path], bytes | OSError], skill_dir: Path) -> bool:
    """Whether an agent definition beside the skill's collection (`<folder>/agents/*.md` for
    `<folder>/skills/<skill>/`) preloads the skill by name in its frontmatter's `skills:` list:
    Claude Code's sub-agent format, so the collection is Claude Code's (sample 6: a CI plugin's
    reviewers preload its skills)."""
    collection = skill_dir.parent
    agents = collection.parent / "agents"
    if collection.name != "skills" or not agents.is_dir():
        return False
    try:
        files = sorted(agents.glob("*.md"))[:MAX_AGENT_FILES]
    except OSError:
        return False
    for path in files:
        data = read(path)
        if isinstance(data, OSError) or not data.startswith(b"---"):
            continue
        head = data[:MAX_README_BYTES].decode("utf-8", "replace").split("\n---", 1)[0] + "\n"
        for match in _AGENT_SKILLS.finditer(head):
            listed = (match.group("flow") or "").strip("[]").split(",") + [
                line.strip().removeprefix("-") for line in match.group("block").splitlines()]
            if skill_dir.name in {item.strip().strip("\"'") for item in listed}:
                return True
    return False


def kept_not_used(location: SkillLocation) -> str | None:
    """Why the file is kept rather than used, in words, or None: it lies outside every skills
    root and plugin, and a folder on its path below the project root is named for archives, old
    versions, drafts or an inbox (`specs/archive/…/inbox/skills/x`), or its own folder is named
    for a version of the skill (`misc/git-260611-0`). No runtime loads it where it lies and none
    is meant to: with no target configured, `check` gives it one information finding (SK002)
    instead of any runtime's findings (docs/design/rules.md *The default target*). A test
    suite's data is kept too, in or out of a plugin (`test_data`)."""
    skill_dir = location.skill_dir
    if skill_dir is None:
        return None
    fixture = test_data(location)
    if fixture is not None or not installable(location):
        return fixture
    project = location.project_root
    parts = (skill_dir.relative_to(project).parts
             if project is not None and project in skill_dir.parents else skill_dir.parts[-4:])
    if not parts:
        return None
    if _VERSIONED.match(parts[-1]):
        return f"its folder `{parts[-1]}` is named for a version of the skill"
    kept = next((part for part in parts[:-1] if _KEPT.match(part)), None)
    return None if kept is None else f"it lies in the folder `{kept}/`, kept rather than used"


def test_data(location: SkillLocation) -> str | None:
    """Why the file is a test suite's data, in words, or None: a folder on its path below the
    project root (not the skill's own folder) is a test or fixture folder (`tests/bridges/
    _fixtures/x`, `tests/fixtures/…/plugins/p/skills/x`, `testdata/`) or an evaluation's output
    (`evals/…/outputs/x`), and no runtime's skills root of the project holds it. No runtime loads
    it from there and no plugin of the project installs it; a checker's or a runtime's own tests
    keep skills malformed on purpose (sample 5: `skill-no-description`, `Scratch_Test_Skill`), so
    `check` gives it one information finding in every run instead of the rules' (issue 37)."""
    folder = test_data_folder(location)
    if folder is None:
        return None
    return f"it lies in `{folder.name}/`, a test suite's data (often malformed on purpose)"


def test_data_folder(location: SkillLocation) -> Path | None:
    """The test or fixture folder the file lies in (`test_data`), or None."""
    skill_dir, project = location.skill_dir, location.project_root
    if skill_dir is None or project is None or project not in skill_dir.parents:
        return None
    if location.skills_root is not None and location.scope != "plugin":
        return None  # a skills root a runtime reads (`tests/.claude/skills/` is the project's)
    parts = skill_dir.relative_to(project).parts[:-1]
    index = next((i for i, part in enumerate(parts) if _TEST_FOLDER.match(part)), None)
    if index is None and any(_EVALS.match(p) for p in parts):
        index = next((i for i, part in enumerate(parts) if part.lower() == "outputs"), None)
    return None if index is None else project.joinpath(*parts[:index + 1])


#: folders of a test suite: what lies below is test data
_TEST_FOLDER = re.compile(r"^(?:tests?|__tests__|testdata|test[-_]data|fixtures?|_fixtures|"
                          r"__fixtures__|testcases|test[-_]cases)$", re.I)
_EVALS = re.compile(r"^evals?$", re.I)


def kept_beside(location: SkillLocation, names: list[str]) -> list[str]:
    """Which of the skill folders `names` beside this kept one are kept too: all of them when a
    folder above is an archive, else those named for a version (`kept_not_used`)."""
    reason = kept_not_used(location)
    if reason is None or location.skill_dir is None:
        return []
    if not reason.startswith(f"its folder `{location.skill_dir.name}`"):
        return names
    return [name for name in names if _VERSIONED.match(name)]


def _runtime_plugin(skill_dir: Path, project: Path | None) -> RuntimeProfile | None:
    folder = skill_dir.parent
    for _ in range(MAX_PLUGIN_LEVELS):
        if folder.name == "skills":
            for profile in RUNTIME_PROFILES:
                if any((folder.parent / m).is_file() for m in profile.plugin_manifests):
                    return profile
        if folder == project or folder.parent == folder:
            return None
        folder = folder.parent
    return None


def _installed_by_readme(skill_dir: Path, project: Path | None) -> RuntimeProfile | None:
    found = readme_install(_read_file, skill_dir, project)
    if found is None:
        return None
    root, personal, _whole = found
    owner = _OWNERS.get(root)
    if owner is not None:
        return owner
    shared = shared_root_profile(root, personal)
    return shared if shared.members else None


def _read_file(path: Path) -> bytes | OSError:
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_README_BYTES)
    except OSError as error:
        return error


# -- installed by a README (sample 4) ------------------------------------------------------------
#: a copy command in a README: `cp -r /path/to/arckit-codex/skills/* .agents/skills/`,
#: `rsync -a skills/ ~/.claude/skills/`, `ln -s "$PWD/skills/x" ~/.claude/skills/x`
_COPY = re.compile(r"\b(?:cp|rsync|ln)\b(?:\s+-[\w-]+)*\s+(?P<src>[^\s;&|]+)\s+(?P<dst>[^\s;&|#]+)")
MAX_README_BYTES = 256 * 1024
READMES = ("README.md", "readme.md", "README.MD", "Readme.md", "INSTALL.md")
MAX_README_LEVELS = 4


def readme_install(read: Callable[[Path], bytes | OSError], skill_dir: Path,
                   project: Path | None) -> tuple[str, bool, bool] | None:
    """Where a README beside the skill's collection, or in a folder above it up to the project
    root, copies it: the skills root its copy command writes to (`.agents/skills`, as written
    without `./`, `~/` or a trailing `/`), whether that root is under the home folder, and
    whether the command copies the whole collection (`…/skills/*`, `skills/`: the siblings come
    along) rather than this skill's folder alone. None when no README says so."""
    collection = skill_dir.parent
    folder = collection
    for _ in range(MAX_README_LEVELS):
        for name in READMES:
            data = read(folder / name)
            if isinstance(data, OSError):
                continue
            found = _copy_into_root(data[:MAX_README_BYTES].decode("utf-8", "replace"),
                                    collection, folder, skill_dir.name)
            if found is not None:
                return found
        if project is None or folder == project or project not in folder.parents:
            return None
        folder = folder.parent
    return None


def _copy_into_root(text: str, collection: Path, folder: Path,
                    skill: str) -> tuple[str, bool, bool] | None:
    relative = collection.relative_to(folder).as_posix() if folder != collection else ""
    wanted = [part for part in (folder.name + "/" + relative if relative else folder.name,
                                relative) if part]
    for match in _COPY.finditer(text):
        source = match.group("src").strip("\"'").rstrip("*").rstrip("/")
        whole = not source.endswith("/" + skill)
        if not whole:
            source = source[:-len(skill) - 1]
        source = source.removeprefix("./")
        if source not in wanted and not source.endswith("/" + wanted[0]):
            continue
        root = _skills_root_written(match.group("dst"))
        if root is not None:
            return root[0], root[1], whole
    return None


def _skills_root_written(destination: str) -> tuple[str, bool] | None:
    """The skills root a destination names (`~/.claude/skills/`, `.agents/skills`,
    `$HOME/.codex/skills/x`) and whether it is under the home folder."""
    path = destination.strip("\"'").rstrip("*").rstrip("/")
    personal = path.startswith(("~/", "$HOME/", "${HOME}/"))
    path = re.sub(r"^(?:~|\$HOME|\$\{HOME\}|\.)/", "", path)
    for root in sorted(_KNOWN_ROOTS, key=len, reverse=True):
        if path == root or path.startswith(root + "/") or path.endswith("/" + root):
            return root, personal
    return None


_KNOWN_ROOTS = frozenset(root for profile in PROFILES.values()
                         for root in (*profile.skills_roots, *profile.personal_skills_roots()))
