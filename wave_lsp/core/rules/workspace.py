"""docs/design/rules.md *Workspace*: SK130 name-collision, SK131 listing-budget, SK132 command-shadowed,
SK133 ignored-skill-dir.

These rules look at the project snapshot of the check (`ctx.project`: the skills the target loads
from the document's project, `wave_lsp.core.workspace.session`), with the document's current text
standing in for its file on disk.

Decisions: SK130 is reported on the skill that loses (the winner is named, with the reason and a
related location; the runtime does not load it under that name, so `check`, `list` and `preview`
say it does not load: the finding's `shadowed` data); under a runtime that keeps both
(`profile.collision == "both"`, Codex, docs/design/runtime-facts.md §9.2) on every skill of the
name, saying that a plain mention selects none (`ambiguous` data: `preview` renders neither); a
skill outside every skills root is not loaded by any runtime and gets no SK130. Two collisions
are information (issue 37): copies a generator wrote for each runtime that differ only in its
version mark (`metadata.generatedBy`) and a command's spelling give the same instructions
whichever is loaded; and a skill of a nested Claude Code skills root (a package's or a project
template's own `.claude/skills`) wins only in a session started in its folder, since Claude Code
adds a nested skill while it works only when the name is still free (runtime-facts.md §3.4).
SK070 and SK131 are said once per collection (`said_here`): a plugin's skills or a skills root's
(for SK131 the load group's, whose listing is shared), on the first skill in load order the fact
concerns, the others as related locations, so every output names the same file.
SK131 uses Claude Code's budget of a 200K-context model (8,000 characters) for every target that
lists skills, and is reported once per load group (a plugin, or the project's skills), on the
first model-visible skill of a listing over it (`said_here`), as information:
its catalog confidence is heuristic (issue 27), because Claude Code 2.1.332's budget is 1 % of the
session model's context window (30,000 characters for the default 1M-context models), and past it
the skills invoked least lose their description, so which ones do depends on usage and on what
else the user has installed (docs/design/runtime-facts.md §3.5).
Both look only at skills that load together
(`RuntimeSkill.lists_beside`): a plugin whose source lies in the project is not installed by being
there, so its skills collide and share a listing only with each other (and the personal skills),
not with the project's own skills or another plugin's. SK133 covers a SKILL.md under `node_modules`, and a
nested project skills root (`<folder>/.claude/skills` below the git root) whose folder git ignores:
Claude Code asks `git check-ignore` about that folder before it loads the root (so a `.claude/`
pattern alone, a folder that holds a tracked file, or the git root's own skills root never hide a
skill; probe `disc-gitignored-root`). What it says comes from the profiles: under a runtime that
skips such a root (`skips_git_ignored_roots`) the finding carries `skipped_by` and stops loading at
any level (`checker.STOPS_AT_ANY_LEVEL`); under the others, none known to ask git, it is advice
(git does not track the skill) and claims nothing a runtime does. A target that finds a skill under
`node_modules` loads it (Codex and OpenCode enter it below a root, `scan_skipped_folders`; the
others' scans skip it, which is SK002's finding), so the message never says the target skips it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Related
from wave_lsp.core.checking.messages import (
    agree,
    capitalized,
    runtime_names,
    runtimes_that,
)
from wave_lsp.core.invocation.listing import listing_entry
from wave_lsp.core.parsing.reading import read_skill_file
from wave_lsp.core.parsing.source import decode
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.registry import check

if TYPE_CHECKING:  # a skill outside every project has no snapshot: runtime_view not imported
    from wave_lsp.core.facts.profiles import RuntimeProfile
    from wave_lsp.core.workspace.runtime_view import RuntimeSkill


def _me(ctx: CheckContext) -> RuntimeSkill | None:
    """The skill of the snapshot that is this document (None when the target does not load it)."""
    project = ctx.project
    folder = ctx.real_skill_dir
    if project is None or folder is None or ctx.location.path is None:
        return None
    return project.by_real_dir.get(folder)


def _name_span(ctx: CheckContext) -> Span:
    entry = ctx.field("name")
    return ctx.entry_span(entry) if entry is not None else ctx.document.opener_span


@check("SK130")
def name_collision(ctx: CheckContext) -> Iterator[Finding]:
    me, project = _me(ctx), ctx.project
    if me is None or project is None:
        return
    name = me.name if ctx.profile.keys_skills_by_folder or me.root.plugin else \
        listing_entry(ctx.document, ctx.location).name
    rivals = [s for s in project.by_name.get(name, ()) if s is not me and s.group == me.group]
    if not rivals:
        return
    profile = ctx.profile
    if profile.collision == "both":  # Codex: both load, a plain mention selects neither
        others = ", ".join(f"`{s.path}`" for s in rivals)
        yield ctx.finding("SK130", _name_span(ctx),
                          f"{len(rivals)} other skill{'s are' if len(rivals) > 1 else ' is'} also "
                          f"named `{name}`: rename one of them. {capitalized(profile.runtime)} "
                          f"loads them all, and a plain `{profile.command_sigil}{name}` selects "
                          "none of them (only a linked mention with the path does). "
                          f"{_others(rivals)}: {others}.",
                          related=[Related(f"the other `{name}`", path=str(s.path))
                                   for s in rivals], ambiguous=True)
        return
    from wave_lsp.core.workspace.runtime_view import why_wins, winner_of

    members = sorted([me, *rivals], key=lambda s: (s.rank, str(s.path)))
    winner = winner_of(members)
    if winner is not me:
        yield ctx.finding("SK130", _name_span(ctx),
                          f"Another skill is also named `{name}` and wins, so this one is never "
                          "loaded: rename one of them. "
                          f"{capitalized(why_wins(ctx.profile, winner, me))}.",
                          related=[Related(f"the `{name}` that is loaded", path=str(winner.path))],
                          shadowed=True)
        return
    losers = ", ".join(f"`{s.path}`" for s in rivals)
    count = f"{len(rivals)} other skill{'s are' if len(rivals) > 1 else ' is'} also named `{name}`"
    related = [Related(f"shadowed `{name}`", path=str(s.path)) for s in rivals]
    if profile.nested_project_roots and nested_over(me, rivals):
        folder = me.root.path.parent.parent.name
        yield ctx.finding("SK130", _name_span(ctx),
                          f"{count}: rename one of them if both should be loaded. Started in "
                          f"`{folder}`, {profile.runtime} finds this one first; started above "
                          f"it, {profile.runtime} keeps {_others(rivals).lower()} and adds a "
                          "skill of this nested folder (when it reads a file there) only when its "
                          "name is still free, so there this one is not used. "
                          f"{_others(rivals)}: {losers}.",
                          level=Severity.INFORMATION, related=related)
        return
    copies = generated_copies(ctx.text, rivals)
    same = not copies and all(r.root.scope == me.root.scope and r.root.path != me.root.path
                              for r in rivals) and same_instructions(ctx.text, rivals)
    yield ctx.finding("SK130", _name_span(ctx),
                      f"{count}, and this one wins: rename one of them if both should be loaded. "
                      f"{capitalized(why_wins(ctx.profile, me, rivals[0]))}. "
                      f"{_others(rivals)}: {losers}." + (
                          " They are copies a generator wrote that differ only in its version "
                          "mark and a command's spelling, so whichever is loaded gives the same "
                          "instructions." if copies else
                          " They are copies of one skill kept for several runtimes (the same "
                          "lines, but for a few), so whichever is loaded gives the same "
                          "instructions." if same else ""),
                      level=Severity.INFORMATION if copies or same else None, related=related)


def _others(rivals: list[RuntimeSkill]) -> str:
    return "The others" if len(rivals) > 1 else "The other"


def _past_budget(profile: RuntimeProfile) -> str:
    """What the target's runtime does past its listing budget, from its profile (runtime-facts
    §3.5, §9.9): lists the skills invoked least by name only (`lists_least_used_by_name`),
    shortens descriptions then leaves skills out (`omits_skills_past_budget`), or, with no
    budget of its own (`listing_budget_percent` None), lists every skill whole while the
    runtimes that have one cut. An aggregate says what its members with a budget do."""
    if profile.members:
        said = [_past_budget(m) for m in profile.members
                if m.kind == "runtime" and m.listing_budget_percent is not None]
        return " ".join(said)
    percent = profile.listing_budget_percent
    if percent is None:
        cutters = runtimes_that(lambda p: p.listing_budget_percent is not None)
        return (f"{profile.runtime} lists every skill with its whole description (it has no "
                f"budget), but {agree(cutters, 'cuts', 'cut')} descriptions past a budget like "
                "this one.")
    share = f"{percent} % of the model's context window"
    if profile.lists_least_used_by_name:
        return (f"Past the budget {profile.runtime} lists the skills invoked least by name only, "
                "without a description, so which ones keep their description depends on usage, "
                f"on the model (the budget is {share}: 30,000 characters for the default "
                "1M-context models) and on the other skills installed.")
    cut = "shortens the descriptions, then leaves skills out of the listing" \
        if profile.omits_skills_past_budget else "shortens the descriptions"
    return f"Past the budget {profile.runtime} {cut} (its budget is {share} when it knows it)."


def _budget_label(profile: RuntimeProfile) -> str:
    """Whose budget `listing_budget_chars` is: Claude Code's for a 200K-context model (also the
    measure for a runtime with no budget of its own, and for an aggregate), or the one a runtime
    with a share of the window uses when it does not know the window (Codex, §9.9)."""
    if profile.members or profile.lists_least_used_by_name or \
            profile.listing_budget_percent is None:
        return "of a 200K-context model"
    return f"{profile.runtime} uses when it does not know the model's context window"


@check("SK131")
def listing_budget(ctx: CheckContext) -> Iterator[Finding]:
    me, project = _me(ctx), ctx.project
    if me is None or project is None or me.shadowed_by is not None \
            or ctx.profile.listing_budget_chars is None:  # no budget known for this runtime
        return
    mine = listing_entry(ctx.document, ctx.location)
    listing = project.listings[me.group]  # the sums of its group, kept up to date on file events
    if mine != me.listing:  # the editor's text: its entry instead of the one on disk
        listing = listing.plus(me.listing, -1).plus(mine)
    if not listing.over_budget or not mine.model_invocable:
        return
    others = said_here(ctx, _in_listing, by_group=True)
    if others is None:
        return  # said once, on the first listed skill of the load group
    where = f"plugin `{me.root.plugin}`" if me.root.plugin else "the project's skills"
    longest = sorted(others, key=lambda skill: -skill.listing.chars)[:MAX_RELATED]
    description = ctx.field("description")
    yield ctx.finding("SK131", ctx.entry_span(description)
                      if description is not None else _name_span(ctx),
                      f"The listing of the {listing.count} model-visible skills of {where} needs "
                      f"{listing.full_chars:,} characters, over the {listing.budget:,}-character "
                      f"budget {_budget_label(ctx.profile)}: shorten descriptions or set "
                      f"{ctx.profile.manual_only_switch} on skills that are only run by hand. "
                      f"{_past_budget(ctx.profile)} Said once for {where}, on the first skill "
                      "it lists; the longest entries are the related locations.",
                      related=[Related(f"`{skill.name}`: {skill.listing.chars:,} characters",
                                       path=str(skill.path)) for skill in longest])


def _in_listing(skill: RuntimeSkill) -> bool:
    """A skill of the project's listing that SK131 could be said on (the personal and managed
    ones are listed too, but no project check reports on them)."""
    return skill.listing.model_invocable and skill.shadowed_by is None and \
        skill.scope not in ("personal", "managed")


@check("SK132")
def command_shadowed(ctx: CheckContext) -> Iterator[Finding]:
    me = _me(ctx)
    if me is None or me.root.plugin:
        return
    from wave_lsp.core.workspace.runtime_view import legacy_commands

    home = ctx.settings.home or Path.home()
    project = ctx.location.project_root or home
    command = legacy_commands(ctx.profile, project, home).get(me.name)
    if command is not None:
        yield ctx.finding("SK132", _name_span(ctx),
                          f"The legacy command `/{me.name}` has this skill's name, and the skill "
                          f"wins: remove the command file `{command}`. It is never used.",
                          related=[Related("the shadowed command", path=str(command))])


@check("SK133")
def ignored_skill_dir(ctx: CheckContext) -> Iterator[Finding]:
    """What each runtime does with a skill below a git-ignored folder or `node_modules`, from
    its profile (`skips_git_ignored_roots`, `scan_skipped_folders`): where a runtime skips it,
    the finding says so and stops loading at any level (`skipped_by`, `checker`); elsewhere it
    is advice, and says no runtime skips what it loads."""
    path = ctx.location.path
    if path is None:
        return
    ignored = _ignored(ctx)
    skippers = _runtimes(ctx, lambda p: p.skips_git_ignored_roots)
    if ignored and skippers:
        yield _skipped(ctx, *ignored, skippers)
    elif "node_modules" in path.parts:
        yield ctx.finding("SK133", ctx.document.opener_span, _node_modules(ctx))
    elif ignored:
        folder, ignore_file = ignored
        yield ctx.finding("SK133", ctx.document.opener_span,
                          f"`{folder}/`, which holds this skill's skills folder, is ignored by "
                          f"`{ignore_file}`, so git does not track the skill and a clone of the "
                          "repository lacks it: move it out, or stop ignoring the folder.")


def _runtimes(ctx: CheckContext, test: Callable[[RuntimeProfile], bool]) -> list[str]:
    """The names of the target's runtimes (itself, or an aggregate's members) that pass `test`."""
    profiles = ctx.profile.members or (ctx.profile,)
    return [p.runtime for p in profiles if p.kind == "runtime" and test(p)]


def _skipped(ctx: CheckContext, folder: str, ignore_file: str, skippers: list[str]) -> Finding:
    """The finding of a nested skills root that `skippers` skip since git ignores its folder
    (docs/design/runtime-facts.md §3.4): the skill does not load under them."""
    who = "this skill is never loaded" if not ctx.profile.members else \
        f"{runtime_names(skippers)} never {'loads' if len(skippers) == 1 else 'load'} this skill"
    return ctx.finding("SK133", ctx.document.opener_span,
                       f"`{folder}/`, which holds this skill's skills folder, is ignored by "
                       f"`{ignore_file}`, so {who}: move it out, or stop ignoring the folder. "
                       f"{agree(skippers, 'skips', 'skip')} a nested skills folder that git "
                       "ignores.", skipped_by=tuple(skippers))


def _node_modules(ctx: CheckContext) -> str:
    """A skill under `node_modules`: a target that finds it there loads it (a runtime whose scan
    skips `node_modules` below a skills root does not find it: SK002), so the message says
    which runtimes enter the folder, never that the target skips it."""
    advice = ("This skill lies under `node_modules`, a folder package managers write and "
              "replace: move it out.")
    location = ctx.location
    root = location.skills_root
    below_root = root is not None and location.path is not None and \
        "node_modules" in location.path.relative_to(root).parts
    entering = _runtimes(ctx, lambda p: "node_modules" not in p.scan_skipped_folders)
    if not below_root or not entering:
        return advice
    return (f"{advice} {agree(entering, 'enters', 'enter')} `node_modules` below a skills root "
            f"and {'loads' if len(entering) == 1 else 'load'} the skill there.")


def _ignored(ctx: CheckContext) -> tuple[str, str] | None:
    """(the ignored folder, the `.gitignore` that ignores it), both relative to the git root."""
    base = _nested_project_folder(ctx)
    if base is None:
        return None
    git_root = ctx.session.git_root(base)
    if git_root is None or git_root not in base.parents:
        return None  # the git root's own skills root is loaded at start-up, ignored or not
    relative = base.relative_to(git_root).parts
    for depth in range(len(relative)):
        ignore_file = git_root.joinpath(*relative[:depth], ".gitignore")
        spec = ctx.session.ignore_spec(ignore_file)
        if spec is None:
            continue
        for end in range(depth + 1, len(relative) + 1):
            if spec.match_file("/".join(relative[depth:end]) + "/") and \
                    not _holds_tracked_file(git_root, relative):
                return ("/".join(relative[:end]),
                        ignore_file.relative_to(git_root).as_posix())
    return None


def _nested_project_folder(ctx: CheckContext) -> Path | None:
    """The folder holding this skill's skills root (`<folder>/.claude/skills`) when it is a
    project folder, the one whose `.gitignore` status decides (docs/design/rules.md *Workspace*,
    SK133: Claude Code runs `git check-ignore` on that folder before it loads a nested skills
    root, and never on the git root's own)."""
    location = ctx.location
    if location.scope != "project" or location.skills_root is None:
        return None
    return location.project_root


def _holds_tracked_file(git_root: Path, relative: tuple[str, ...]) -> bool:
    """Whether git tracks a file below `git_root/relative`: git never ignores a folder that holds
    one (`git check-ignore` says so)."""
    from wave_lsp.core.workspace.discovery import read_git_index  # only once a pattern matched

    prefix = "/".join(relative) + "/"
    return any(name.startswith(prefix) for name in read_git_index(git_root))


# -- said once per collection (docs/design/rules.md *Said once per collection*) ------------------
#: at most this many related locations name the other skills (the message gives the count)
MAX_RELATED = 20


@dataclass(frozen=True, slots=True)
class Collection:
    """The skills of this document's collection in load order, and which of them it is."""

    me: RuntimeSkill
    skills: tuple[RuntimeSkill, ...]
    label: str  #: how messages name it: "project `.claude/skills`", "plugin `tools`"


def collection(ctx: CheckContext, by_group: bool = False) -> Collection | None:
    """This document's collection (None when the snapshot does not hold the document): a
    plugin's skills, or a skills root's (`by_group`: the load group's, listed together)."""
    me, project = _me(ctx), ctx.project
    if me is None or project is None:
        return None
    skills = project.collections.of(me, by_group)
    if me.root.plugin:
        label = f"plugin `{me.root.plugin}`"
    else:
        label = "the project's skills" if by_group else me.root.label
    return Collection(me, skills, label)


def said_here(ctx: CheckContext, concerns: Callable[[RuntimeSkill], bool],
              by_group: bool = False) -> list[RuntimeSkill] | None:
    """The other skills of the collection a fact `concerns` when this document is the first one
    it concerns in load order (this document always counts as concerned: its text may be newer
    than the snapshot's), or None when the finding belongs to an earlier skill. Outside every
    collection: no others."""
    found = collection(ctx, by_group)
    if found is None:
        return []
    others: list[RuntimeSkill] = []
    before = True
    for skill in found.skills:
        if skill is found.me:
            before = False
        elif concerns(skill):
            if before:
                return None
            others.append(skill)
    return others


def also_in(others: list[RuntimeSkill], what: str, where: str) -> tuple[str, list[Related]]:
    """The sentence and the related locations that name the other skills a finding said once
    covers ("" and none when there are none); `what` completes "N other skills …" (its `have`
    agrees with one other skill: "1 other skill has …")."""
    if not others:
        return "", []
    count = len(others)
    shown = f"the first {MAX_RELATED} are" if count > MAX_RELATED else \
        ("it is" if count == 1 else "they are")
    if count == 1:  # the callers' `what` agrees with "skills": "have `x`", "have no …"
        what = re.sub(r"^have\b", "has", what)
    sentence = (f" Said once for {where}: {count} other skill{'s' if count > 1 else ''} "
                f"{what} too ({shown} listed as related locations).")
    related = [Related(f"also here: `{skill.path.parent.name}`", path=str(skill.path))
               for skill in others[:MAX_RELATED]]
    return sentence, related


# -- SK130: generated copies and nested skills roots ---------------------------------------------
#: a frontmatter line a generator writes about itself
_GENERATOR_LINE = re.compile(
    r"^[ \t]*(?:generated[-_]?by|generated[-_]?at|generated|generator(?:[-_]?version)?)[ \t]*:.*$",
    re.I | re.M)
#: a slash command spelt with `:` (Claude Code's plugin form) or `-` (another runtime's)
_COMMAND = re.compile(r"(?<![\w/])/([a-z][\w-]*):([a-z][\w-]*)")


def _normalized(text: str) -> str:
    """The text as far as the model's instructions go: without the generator's own lines, and
    with every `/group:command` spelt `/group-command`."""
    text = text.replace("\r\n", "\n")
    end = text.find("\n---", 3) if text.startswith("---") else -1
    if end > 0:
        text = _GENERATOR_LINE.sub("", text[:end]) + text[end:]
    return _COMMAND.sub(r"/\1-\2", text)


def generated_copies(text: str, rivals: list[RuntimeSkill]) -> bool:
    """Whether every rival is a copy of `text` that differs only in what a generator writes per
    copy (its version mark, a command's spelling), and one of them carries such a mark."""
    if not _GENERATOR_LINE.search(text.split("\n---", 1)[0]):
        return False
    mine = _normalized(text)
    for rival in rivals:
        other = _read(rival.path)
        if other is None or _normalized(other) != mine:
            return False
    return True


#: the share of lines two copies of a skill have in common to give the same instructions
SAME_LINES = 0.95


def same_instructions(text: str, rivals: list[RuntimeSkill]) -> bool:
    """Whether every rival holds the same lines as `text`, in any order, but for at most one in
    twenty (a per-runtime copy of one skill: `.github/skills/x` beside `.claude/skills/x`, a
    section moved, an option added; sample 4). The caller asks it only of rivals in another
    root of the same scope (a project's copy per runtime, not a personal one it hides)."""
    mine = _lines(text)
    for rival in rivals:
        other = _read(rival.path)
        if other is None:
            return False
        theirs = _lines(other)
        common = sum((mine & theirs).values())
        if common < SAME_LINES * max(sum(mine.values()), sum(theirs.values()), 1):
            return False
    return True


def _lines(text: str) -> Counter[str]:
    return Counter(line.strip() for line in text.splitlines() if line.strip())


def _read(path: Path) -> str | None:
    data, _problem = read_skill_file(path)
    return None if data is None else decode(data).text


def nested_over(me: RuntimeSkill, rivals: list[RuntimeSkill]) -> bool:
    """Whether `me` lies in a project skills root below the folders of the rivals' roots (a
    package's or a template's own `.claude/skills`), so it wins only in a session started in its
    folder."""
    if me.root.scope != "project":
        return False
    mine = me.root.path.parent.parent  # the folder holding `.claude/skills`
    return all(rival.root.scope == "project" and rival.root.path.parent.parent in mine.parents
               for rival in rivals)
