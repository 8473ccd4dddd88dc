"""What `check` says of a file its target does not find where it lies (docs/design/rules.md *A
target speaks of what it loads*; `wave_lsp.core.workspace.applies`), and what an aggregate says of
the runtimes among its members that do not find it.

A runtime that does not find a file never reads it, so none of its rules applies: the file gets
one SK002 finding, the one the rule `file.skill_location` words for the runtime (nested too deep,
in a root it does not scan, in a plugin it does not load, in a folder it does not trust), which
names the runtimes that do find the file. An aggregate (`portable`, the runtimes that scan
`.agents/skills`) says in one SK002 finding which of its runtimes do not find the file and why
(`discovery_finding`): with some of them finding it, beside the findings of those; with none, as
the one finding.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.engine import Steps, run_rules_steps
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.checking.messages import capitalized, runtime_names
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.applies import kept_out_on_purpose
from wave_lsp.core.workspace.location import SkillLocation, root_name

if TYPE_CHECKING:
    from wave_lsp.core.workspace.reach import DiscoveryMiss

CODE = "SK002"


def not_found_steps(context: CheckContext, members: Sequence[RuntimeProfile],
                    strict: bool = False) -> Steps[Finding]:
    """The one finding of a file the target does not find (`members`: an aggregate's runtimes,
    before `applies.narrowed`; empty for a runtime). Resumable steps (`engine.run_rules_steps`)."""
    found: Finding | None
    if members:
        found = discovery_finding(context.document, context.location, context.settings, members,
                                  context.disk.exists)
    else:
        raw = yield from run_rules_steps(context, CODE.__eq__, strict=strict)
        found = raw[0] if raw else None
    return found or _fallback(context)


def _fallback(context: CheckContext) -> Finding:
    """Should the rule have nothing to say (it words every case `reach` knows), the plain fact."""
    from wave_lsp.core.workspace.reach import discovery_miss

    profile, settings = context.profile, context.settings
    miss = discovery_miss(profile, context.location, settings.home, settings.personal)
    why = f" {miss.why_sentence}" if miss is not None else ""
    return Finding(CODE, f"Not discovered by {profile.runtime}: move the file into a skills root "
                         f"it reads if it should load there.{why}", context.document.opener_span)


def stopping(finding: Finding, document: SkillDocument) -> Finding:
    """The copy of `finding` that the load verdict names (the report's own copy takes the
    user's severity and suppressions)."""
    kept = copy.copy(finding)
    kept.resolve(document.lines)
    return kept


def discovery_finding(document: SkillDocument, location: SkillLocation, settings: Settings,
                      members: Sequence[RuntimeProfile],
                      exists: Callable[[str], bool] | None = None) -> Finding | None:
    """SK002 under an aggregate: the runtimes among `members` that do not find the skill where it
    lies (`reach.discovery_miss`: a root they never scan, such as `.claude/skills` for Codex and
    Gemini CLI; too deep; a folder they do not trust; past a folder cap), grouped by why. Each
    "Not discovered by" says what to do first, then why (docs/design/rules.md *How a message
    reads*). Information for a skill nested in a folder that keeps it out of loading on purpose
    (`applies.kept_out_on_purpose`; `exists` asks the disk), as under a runtime. None when every
    one of them finds it, or the file lies in no skills root."""
    from wave_lsp.core.workspace.reach import discovery_miss

    if location.skills_root is None or location.scope == "plugin":
        return None
    runtimes = [m for m in members if m.kind == "runtime"]
    root = root_name(location)
    elsewhere = f"it does not look for it in `{root}`"
    missing: list[str] = []
    finding: list[str] = []
    groups: dict[str, tuple[DiscoveryMiss, list[str]]] = {}
    for member in runtimes:
        miss = discovery_miss(member, location, settings.home, settings.personal)
        if miss is None:
            finding.append(member.runtime)
            continue
        if miss.why == elsewhere:
            missing.append(member.runtime)
        else:
            groups.setdefault(miss.why, (miss, []))[1].append(member.runtime)
    others = " ".join(_group_sentence(miss, names) for miss, names in groups.values())
    if not missing and not others:
        return None
    message = others
    if missing:
        shared = [m.runtime for m in runtimes if m.scans_root(".agents/skills")]
        one = len(missing) == 1
        advice = (f"use `.agents/skills/<name>/SKILL.md`, which {runtime_names(shared)} read "
                  "alike" if root != ".agents/skills" else
                  f"give {'it' if one else 'them'} a copy (or a link) in a root of "
                  f"{'its' if one else 'their'} own, as no skills root is read by every runtime")
        they = "it does" if one else "they do"
        message = (f"Not discovered by {runtime_names(missing)}: {they} not look for it in "
                   f"`{root}`; {advice}." + (f" {others}" if others else ""))
    depth = location.depth_in_root or 0
    on_purpose = depth >= 2 and exists is not None and kept_out_on_purpose(location, exists)
    if finding and any(miss.too_deep for miss, _ in groups.values()):
        one = len(finding) == 1
        loads = (f"{runtime_names(finding)}, which look{'s' if one else ''} deeper, "
                 f"load{'s' if one else ''} it as a skill of its own")
        message = (_kept_inside(loads, groups, missing, root) if on_purpose
                   else f"{message} {loads}.")
    by_path = depth >= 2 and not on_purpose and _read_by_path(location)
    if by_path:
        message += (" The project's instructions to agents (`AGENTS.md`, `CLAUDE.md`) name it by "
                    "path, so an agent that follows them reads it there as a file.")
    return Finding(code=CODE, span=document.opener_span, message=message,
                   level=Severity.INFORMATION if on_purpose or by_path else None)


def _read_by_path(location: SkillLocation) -> bool:
    """A nested skill the project's instructions to agents name by its path ("Read
    `.agents/skills/tools/jira/SKILL.md`"): used as a file where it lies, not missed (sample 4)."""
    from wave_lsp.core.workspace.disk_view import DiskView
    from wave_lsp.core.workspace.neighbours import named_by_instructions

    if location.skill_dir is None:
        return False
    return named_by_instructions(DiskView(), location.skill_dir, location.project_root)


def _kept_inside(loads: str, groups: dict[str, tuple[DiscoveryMiss, list[str]]],
                 missing: list[str], root: str) -> str:
    """SK002 on a SKILL.md kept inside another skill's folder (a vendored copy under
    `references/`) that the runtimes looking deeper do load (issue 37): the advice is to rename
    it if it is reference material, not to move it where the others would load it too."""
    said = [f"{capitalized(loads)}: rename the file (`SKILL.reference.md`, say) if it is "
            "reference material of the skill whose folder holds it."]
    for miss, names in groups.values():
        said.append(f"{runtime_names(names)} do{'es' if len(names) == 1 else ''} not: "
                    f"{miss.they or miss.why}.")
    if missing:
        said.append(f"{runtime_names(missing)} do{'es' if len(missing) == 1 else ''} not look "
                    f"in `{root}`.")
    return " ".join(said)


def _group_sentence(miss: DiscoveryMiss, names: list[str]) -> str:
    """`Not discovered by Wave and Copilot: <fix>. They look only one level down …`."""
    if len(names) > 1 and miss.they:
        return f"Not discovered by {runtime_names(names)}: {miss.fix}. {capitalized(miss.they)}."
    return " ".join(f"Not discovered by {name}: {miss.fix}. {miss.why_sentence}" for name in names)


def once_per_root(found: Finding, context: CheckContext,
                  members: Sequence[RuntimeProfile]) -> Finding | None:
    """The finding of a file the target does not find, said once per skills root when the
    reason is the root itself (the target's runtimes do not look in `.agents/skills` at all:
    the same sentence on each of a collection's 324 skills is noise, sample 4): the first skill
    folder of the root, by name, carries it with the count of the others; the others get none
    (their load verdict still says not found). Any other reason is the file's own."""
    from wave_lsp.core.workspace.reach import discovery_miss

    location, settings = context.location, context.settings
    root, skill_dir = location.skills_root, location.skill_dir
    if root is None or skill_dir is None or location.depth_in_root != 1 \
            or location.scope == "plugin":
        return found
    elsewhere = f"it does not look for it in `{root_name(location)}`"
    runtimes = [m for m in members if m.kind == "runtime"] or [context.profile]
    misses = [discovery_miss(m, location, settings.home, settings.personal) for m in runtimes]
    if any(miss is not None and miss.why != elsewhere for miss in misses) \
            or all(miss is None for miss in misses):
        return found
    skills = sorted(name for name, kind in context.disk.entries(root).items()
                    if kind != "file" and context.disk.is_file(root / name / "SKILL.md"))
    if not skills or skill_dir.name not in skills:
        return found
    if skills[0] != skill_dir.name:
        return None
    others = len(skills) - 1
    if others:
        found = copy.copy(found)
        found.message += (f" Said once for `{root_name(location)}`: its {others} other "
                          f"skill{'s are' if others > 1 else ' is'} not discovered either.")
    return found
