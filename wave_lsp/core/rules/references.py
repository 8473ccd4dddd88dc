"""RULES.md *Body*: file references — SK112 broken-reference, SK113 reference-escapes.

Decisions: a reference is checked only when the skill has a folder on disk (an unsaved document has
none). Paths are resolved against the skill folder, which is also where SKILL.md lives. A reference
that escapes the folder is reported as SK113 only (not also as SK112), because "it is outside" is the
actionable part. A broken reference offers "did you mean" when a file of the folder is within two
edits of the written path (or has the same file name).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePosixPath

from wave_lsp.core.context import CheckContext
from wave_lsp.core.findings import Finding
from wave_lsp.core.references import Reference, escapes, find_references, skill_files
from wave_lsp.core.rules import check
from wave_lsp.core.rules.helpers import capped, closest, shown

MAX_REFERENCE_FINDINGS = 200


@check("SK112", "SK113")
def broken_references(ctx: CheckContext) -> Iterator[Finding]:
    skill_dir = ctx.location.skill_dir
    if skill_dir is None or not skill_dir.is_dir():
        return
    files: list[str] | None = None
    for reference in capped(find_references(ctx.document), MAX_REFERENCE_FINDINGS):
        reason = escapes(reference, skill_dir)
        if reason is not None:
            yield ctx.finding("SK113", reference.span,
                              f"`{shown(reference.target)}` {reason}: a skill is installed as its "
                              "folder, so the file will not be there on other machines.")
            continue
        if reference.resolve(skill_dir).exists():
            continue
        if files is None:
            files = skill_files(skill_dir)
        yield _broken(ctx, reference, files)


def _broken(ctx: CheckContext, reference: Reference, files: list[str]) -> Finding:
    written = reference.target.removeprefix("./")
    suggestion = closest(written, files) or _same_file_name(written, files)
    message = f"`{shown(reference.target)}` does not exist in the skill folder."
    fixes = []
    if suggestion is not None:
        prefix = "./" if reference.target.startswith("./") else ""
        message += f" Did you mean `{suggestion}`?"
        fixes.append(ctx.replace_fix(f"Change to `{suggestion}`", reference.span, prefix + suggestion))
    return ctx.finding("SK112", reference.span, message, fixes=fixes, target=reference.target)


def _same_file_name(written: str, files: list[str]) -> str | None:
    name = PurePosixPath(written).name
    matches = [path for path in files if PurePosixPath(path).name == name]
    return matches[0] if len(matches) == 1 else None
