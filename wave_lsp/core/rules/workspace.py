"""docs/design/rules.md *Workspace*: SK130 name-collision, SK131 listing-budget, SK132 command-shadowed,
SK133 ignored-skill-dir.

These rules look at the project snapshot of the check (`ctx.project`: the skills the target loads
from the document's project, `wave_lsp.core.workspace.session`), with the document's current text
standing in for its file on disk.

Decisions: SK130 is reported on the skill that loses (the winner is named, with the reason and a
related location); under a runtime that keeps both (`profile.collision == "both"`, Codex,
docs/design/runtime-facts.md §9.2) on every skill of the name, saying that a plain mention selects
none; a skill outside every skills root is not loaded by any runtime and gets no SK130.
SK131 uses Claude Code's budget of a 200K-context model (8,000 characters) for every target that
lists skills, and is reported on the model-visible skills of a listing over it, as information:
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
skill; probe `disc-gitignored-root`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Related
from wave_lsp.core.checking.messages import capitalized
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.registry import check
from wave_lsp.core.runtime.listing import listing_entry

if TYPE_CHECKING:  # a skill outside every project has no snapshot: runtime_view not imported
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
                                   for s in rivals])
        return
    from wave_lsp.core.workspace.runtime_view import why_wins, winner_of

    members = sorted([me, *rivals], key=lambda s: (s.rank, str(s.path)))
    winner = winner_of(members)
    if winner is not me:
        yield ctx.finding("SK130", _name_span(ctx),
                          f"Another skill is also named `{name}` and wins, so this one is never "
                          "loaded: rename one of them. "
                          f"{capitalized(why_wins(ctx.profile, winner, me))}.",
                          related=[Related(f"the `{name}` that is loaded", path=str(winner.path))])
        return
    losers = ", ".join(f"`{s.path}`" for s in rivals)
    yield ctx.finding("SK130", _name_span(ctx),
                      f"{len(rivals)} other skill{'s are' if len(rivals) > 1 else ' is'} also named "
                      f"`{name}`, and this one wins: rename one of them if both should be loaded. "
                      f"{capitalized(why_wins(ctx.profile, me, rivals[0]))}. "
                      f"{_others(rivals)}: {losers}.",
                      related=[Related(f"shadowed `{name}`", path=str(s.path)) for s in rivals])


def _others(rivals: list[RuntimeSkill]) -> str:
    return "The others" if len(rivals) > 1 else "The other"


@check("SK131")
def listing_budget(ctx: CheckContext) -> Iterator[Finding]:
    me, project = _me(ctx), ctx.project
    if me is None or project is None or me.shadowed_by is not None:
        return
    mine = listing_entry(ctx.document, ctx.location)
    listing = project.listings[me.group]  # the sums of its group, kept up to date on file events
    if mine != me.listing:  # the editor's text: its entry instead of the one on disk
        listing = listing.plus(me.listing, -1).plus(mine)
    if listing.kept(mine) is None:
        return
    description = ctx.field("description")
    yield ctx.finding("SK131", ctx.entry_span(description)
                      if description is not None else _name_span(ctx),
                      f"The listing of the {listing.count} model-visible skills needs "
                      f"{listing.full_chars:,} characters, over the {listing.budget:,}-character "
                      "budget of a 200K-context model: shorten descriptions or set "
                      "`disable-model-invocation` on skills that are only run by hand. Past the "
                      "budget Claude Code 2.1.332 lists the skills invoked least by name only, "
                      "without a description, so whether this one keeps its description depends "
                      "on usage, on the model (the budget is 1 % of its context window: 30,000 "
                      "characters for the default 1M-context models) and on the other skills "
                      "installed.")


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
    path = ctx.location.path
    if path is None:
        return
    if "node_modules" in path.parts:
        yield ctx.finding("SK133", ctx.document.opener_span,
                          "This skill lies under `node_modules`, so it is never loaded: move it "
                          "out. Runtimes skip such folders.")
        return
    ignored = _ignored(ctx)
    if ignored:
        folder, ignore_file = ignored
        yield ctx.finding("SK133", ctx.document.opener_span,
                          f"`{folder}/`, which holds this skill's skills folder, is ignored by "
                          f"`{ignore_file}`, so this skill is never loaded: move it out, or stop "
                          "ignoring the folder. Claude Code skips a nested skills folder that git "
                          "ignores.")


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
