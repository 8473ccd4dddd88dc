"""Does the runtime have this skill under its name when the user types it? One answer for
`preview` (the command line, the editor's `wave.previewInvocation`, the MCP `preview` tool) built
from the facts `check` decides with (issue 39 item 4; docs/design/product.md *Preview*):

1. **not found**: the target does not find the file where it lies (`applies.reach`): the SK002
   finding `check` reports, naming the runtimes that do find it;
2. **not loaded**: a rule that stops loading finds an error (`loading.load_verdict`);
3. **shadowed**: another skill of the same name wins, so the name runs that one (SK130, as
   `check` words it); **ambiguous**: the runtime keeps both and a plain mention selects neither
   (Codex);
4. **no command**: the runtime offers no command for it (`listing.invocation_flags`: a
   `user-invocable` it honours says no). A runtime that answers the command with a refusal of
   its own (Claude Code's `not_user_invocable_message`) gives that refusal instead, through the
   preview itself, as it does today.

`preview` renders none of these: it says which, and why (`Invocation.unavailable`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.engine import run_rules, run_to_end
from wave_lsp.core.checking.loading import load_verdict
from wave_lsp.core.checking.not_found import not_found_steps
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.reads import read_as
from wave_lsp.core.invocation.listing import invocation_flags, typed_command
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.applies import reach
from wave_lsp.core.workspace.location import SkillLocation
from wave_lsp.core.workspace.session import WorkspaceSession

if TYPE_CHECKING:
    from wave_lsp.core.invocation.preview import Invocation

#: the rule that says another skill of the name wins (or, under Codex, that both load)
NAME_CLASH = "SK130"


@dataclass(frozen=True, slots=True)
class Unavailable:
    """Why the runtime does not run this skill when its name is typed."""

    #: "not-found", "not-loaded", "shadowed", "ambiguous" or "no-command"
    kind: str
    reason: str  #: one or more sentences for people


def unavailable(document: SkillDocument, location: SkillLocation, settings: Settings,
                session: WorkspaceSession | None = None) -> Unavailable | None:
    """Why the settings' target does not run the skill when its command is typed (None: it
    runs it). `settings` are the file's (`Settings.for_file`)."""
    session = session or WorkspaceSession()
    target = reach(settings.profile, location, settings.home, settings.personal)
    context = CheckContext(document=document, location=location, settings=settings,
                           session=session)
    if not target.found:
        found = run_to_end(not_found_steps(context, settings.profile.members))
        return Unavailable("not-found", f"{settings.profile.runtime} does not find this skill "
                                        f"where it lies ({found.code}): {found.message}")
    profile = target.profile
    verdict = load_verdict(document, location, profile, session)
    if not verdict.loads:
        return Unavailable("not-loaded", verdict.reason(profile) or "")
    if profile.kind != "runtime":
        return None
    as_read = CheckContext(document=document, location=location,
                           settings=replace(settings, profile=profile), session=session)
    return _name_clash(as_read, profile) or _no_command(document, location, profile)


def _name_clash(context: CheckContext, profile: RuntimeProfile) -> Unavailable | None:
    """SK130 as `check` reports it, when this skill loses its name or shares it with another
    that loads too (a runtime keeping both)."""
    for finding in run_rules(context, NAME_CLASH.__eq__):
        kind = "shadowed" if finding.data.get("shadowed") else (
            "ambiguous" if finding.data.get("ambiguous") else None)
        if kind is not None:
            command = _command(context.document, context.location, profile)
            return Unavailable(kind, f"{profile.runtime} does not run this skill as `{command}` "
                                     f"({NAME_CLASH}): {finding.message}")
    return None


def _no_command(document: SkillDocument, location: SkillLocation,
                profile: RuntimeProfile) -> Unavailable | None:
    """The runtime has no command for the skill (`invocation_flags`), and says nothing of its
    own when the user types one (a runtime that refuses in its own words does so in
    `preview.invoke`)."""
    if profile.not_user_invocable_message is not None:
        return None
    values = read_as(document, profile).values
    if invocation_flags(values, profile)[1]:
        return None
    command = _command(document, location, profile)
    written = values.value("user-invocable")
    return Unavailable("no-command", f"{profile.runtime} offers no `{command}` command for this "
                                     f"skill: `user-invocable: {_shown(written)}` leaves it to the "
                                     "model, so typing its name runs nothing. Remove the field "
                                     "(or set it to `true`) to run the skill by hand.")


def _command(document: SkillDocument, location: SkillLocation, profile: RuntimeProfile) -> str:
    typed = typed_command(read_as(document, profile).values, location, profile)
    return typed or f"{profile.command_sigil}{location.dir_name or ''}"


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def invoke_loaded(document: SkillDocument, location: SkillLocation, settings: Settings,
                  raw_arguments: str = "", mode: str = "dry-run",
                  session_id: str | None = None) -> Invocation:
    """The preview (`wave_lsp.core.invocation.preview.invoke`) of a skill the runtime runs under
    its name; for one it does not (`unavailable`), a failed invocation that says why, as the
    runtime renders nothing."""
    # imported here: `check` needs the verdicts, not the preview and its permission engine
    from wave_lsp.core.invocation.preview import MODES, Invocation, invoke

    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    missing = unavailable(document, location, settings)
    if missing is None:
        return invoke(document, location, settings, raw_arguments, mode, session_id)
    result = Invocation(document, location, settings.profile, mode, raw_arguments)
    result.ok, result.error, result.unavailable = False, missing.reason, missing.kind
    return result
