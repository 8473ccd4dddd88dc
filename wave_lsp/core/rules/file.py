"""docs/design/rules.md *File and delimiters*: SK001-SK010.

Decisions: SK001 on a `skill.md` in a plugin's `commands/` folder says what Claude Code does there
(it takes the folder for a skill and drops the folder's other commands; renaming to `SKILL.md`
does not help). SK002 keeps its severity for a SKILL.md or a stray `*.md` directly in a skills root
(almost surely a mistake), and so does a SKILL.md nested two or more folders deep in a category
folder (`skills/expertise/iphone-apps/SKILL.md`: Claude Code never loads it, issue 27). A nested
SKILL.md that is kept out of loading on purpose is information: one inside another skill's folder
(`video-sdk/macos/SKILL.md` beside `video-sdk/SKILL.md`, a sample in `skill-tester/assets/`) or
under a folder named for translations, archives, drafts, examples or tests (`skills/i18n/x-de/`,
`skills/deprecated/x/`, `skills/in-progress/x/`), or one a plugin manifest that lists its skills
leaves out (the message says so).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.checking.context import CheckContext
from wave_lsp.core.checking.findings import Finding, Fix, TextEdit
from wave_lsp.core.checking.loading import runtime_names
from wave_lsp.core.checking.messages import capitalized, consequence, elsewhere
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.facts.reads import read_as
from wave_lsp.core.invocation.listing import unlisted_without_description
from wave_lsp.core.parsing.source import cut_as
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.rules.helpers import shown
from wave_lsp.core.rules.registry import check
from wave_lsp.core.workspace.applies import kept_out_on_purpose
from wave_lsp.core.workspace.location import SKILL_FILE, in_target_skills_root


def first_line_span(ctx: CheckContext) -> Span:
    """The first line, for findings about the file as a whole."""
    return ctx.document.lines.span_of_line(0)


@check("SK001")
def file_name(ctx: CheckContext) -> Iterator[Finding]:
    name = ctx.location.file_name
    if name is None or name == SKILL_FILE or name.lower() != SKILL_FILE.lower():
        return
    profile, path = ctx.profile, ctx.location.path
    if profile.plugin_commands_match_skill_file and path is not None \
            and ctx.location.plugin is not None and path.parent.name == "commands" \
            and path.parent.parent == ctx.location.plugin.root:
        yield ctx.finding("SK001", first_line_span(ctx),
                          f"`{name}` in a plugin's `commands/` folder: give the command another "
                          f"name (renaming it to `SKILL.md` keeps the problem). {profile.runtime} "
                          "matches `skill.md` in any case there and takes the folder for a skill, "
                          "so it loads this file only and drops every other command of "
                          "`commands/`.")
        return
    why = consequence("SK001", profile)
    if profile.kind == "validator":
        why = f"{why}, but {elsewhere('SK001', profile, ('not-found',))}"
    yield ctx.finding("SK001", first_line_span(ctx),
                      f"The file is named `{name}`: rename it to `SKILL.md`. {capitalized(why)}.")


@check("SK002")
def skill_location(ctx: CheckContext) -> Iterator[Finding]:
    location = ctx.location
    if location.depth_in_root is None:
        return
    if not in_target_skills_root(location, ctx.profile):
        yield from _not_read_there(ctx)
        return
    root = location.skills_root
    assert root is not None and location.path is not None
    shown_root = f"{root.parent.name}/{root.name}" if location.scope != "plugin" else "skills"
    is_skill_file = location.path.name.lower() == SKILL_FILE.lower()
    if is_skill_file and location.scope != "plugin" and ctx.profile.members:
        return  # an aggregate: its runtimes' own reach is told (`checker._not_discovered`)
    if is_skill_file and location.scope != "plugin" and \
            ctx.profile.finds_at_depth(location.depth_in_root):
        # this runtime scans that deep (Gemini CLI reads `<root>/SKILL.md`, Codex deeper); it
        # may still not reach it: an untrusted folder, a folder cap (`reach.discovery_miss`)
        from wave_lsp.core.workspace.reach import discovery_miss  # only in a skills root

        miss = discovery_miss(ctx.profile, location, ctx.settings.home, ctx.settings.personal)
        if miss is not None:
            yield ctx.finding("SK002", first_line_span(ctx),
                              f"Not discovered by {ctx.profile.runtime}: {miss.fix}. "
                              f"{miss.why_sentence} {_found_elsewhere(ctx)}")
        return
    if location.depth_in_root == 0 and is_skill_file:
        message = (f"This SKILL.md lies directly in `{shown_root}/`: move it into a folder named "
                   f"after the skill. Runtimes load only `{shown_root}/<skill-name>/SKILL.md`.")
    elif location.depth_in_root == 0:
        message = (f"`{location.path.name}` is a single markdown file in `{shown_root}/`: move it "
                   f"to `{shown_root}/{location.path.stem}/SKILL.md`. Only folders holding "
                   "SKILL.md are skills.")
    elif location.depth_in_root >= 2 and is_skill_file:
        level = Severity.INFORMATION if _kept_out_on_purpose(ctx) else None
        yield ctx.finding("SK002", first_line_span(ctx),
                          f"{_nested_message(ctx, shown_root)} {_found_elsewhere(ctx)}",
                          level=level)
        return
    else:
        return
    if is_skill_file and not ctx.profile.members:
        message = f"{message} {_found_elsewhere(ctx)}"
    yield ctx.finding("SK002", first_line_span(ctx), message)


def _not_read_there(ctx: CheckContext) -> Iterator[Finding]:
    """A file in a skills root the runtime does not scan, or in a plugin it does not load: the
    runtime never reads it, so this is the one finding the file gets (`checker`), information
    (the file is another runtime's, nothing in it is wrong), naming who does find it."""
    profile, location = ctx.profile, ctx.location
    if profile.members or not profile.scans_roots or location.path is None:
        return  # an aggregate's runtimes are told apart by `checker._not_discovered`
    from wave_lsp.core.workspace.reach import discovery_miss  # only in a skills root

    miss = discovery_miss(profile, location, ctx.settings.home, ctx.settings.personal)
    if miss is None:  # a root its configuration adds
        return
    roots = (f" {profile.runtime} reads {profile.project_roots_rule}."
             if profile.project_roots_rule else "")
    yield ctx.finding("SK002", first_line_span(ctx),
                      f"Not discovered by {profile.runtime}: {miss.fix}. {miss.why_sentence}"
                      f"{roots} {_found_elsewhere(ctx)}", level=Severity.INFORMATION)


def _found_elsewhere(ctx: CheckContext) -> str:
    """Who does find the file where it lies, and that the target's rules are not applied to it
    (docs/design/rules.md *A target speaks of what it loads*)."""
    from wave_lsp.core.workspace.applies import finders, finders_clause

    settings = ctx.settings
    found = finders(ctx.location, settings.home, settings.personal, settings.workspace_trust,
                    besides=ctx.profile)
    return f"{finders_clause(found)}; {ctx.profile.runtime}'s rules are not applied to it."


def _kept_out_on_purpose(ctx: CheckContext) -> bool:
    return kept_out_on_purpose(ctx.location, ctx.disk.exists)


def _nested_message(ctx: CheckContext, shown_root: str) -> str:
    location = ctx.location
    assert location.skill_dir is not None
    plugin = location.plugin
    if plugin is not None and plugin.skill_paths and location.scope == "plugin":
        listed = location.skill_dir.relative_to(plugin.root).as_posix()
        return (f"This SKILL.md is not loaded: add `./{listed}` to the `skills` of the manifest "
                f"of plugin `{plugin.name}` if it should load. The manifest lists its skills and "
                "not this folder.")
    depth = location.depth_in_root or 0
    runtimes = [m for m in ctx.profile.members  # those of an aggregate that scan this root
                if m.kind == "runtime" and in_target_skills_root(location, m)] or [ctx.profile]
    deeper = [m.runtime for m in runtimes if m.finds_at_depth(depth)]
    shallow = [m for m in runtimes if not m.finds_at_depth(depth)]
    by_depth: dict[int | None, list[str]] = {}
    for member in shallow:
        by_depth.setdefault(member.max_scan_depth, []).append(member.runtime)
    reach = "; ".join(
        f"{runtime_names(names)} look{'s' if len(names) == 1 else ''} "
        + ("only one level down" if most == 1 else f"at most {most} levels down")
        for most, names in by_depth.items())
    loaded_by = (f" {runtime_names(deeper)}, which look{'s' if len(deeper) == 1 else ''} deeper, "
                 f"load{'s' if len(deeper) == 1 else ''} it as a skill of its own."
                 if deeper else "")
    return (f"This SKILL.md is nested {depth} folders deep in `{shown_root}/`, so it is not "
            f"loaded by {runtime_names([m.runtime for m in shallow])}: move it up if it should "
            f"load. {capitalized(reach)} "
            f"(`{shown_root}/<skill-name>/SKILL.md`).{loaded_by}")


@check("SK003")
def not_utf8(ctx: CheckContext) -> Iterator[Finding]:
    document = ctx.document
    if document.invalid_byte_offset is None or document.invalid_text_offset is None:
        return
    start = document.invalid_text_offset
    consequence = (f"{ctx.profile.runtime} loads it but shows each bad byte as U+FFFD (`\ufffd`), "
                   "and other runtimes fail to read the skill" if ctx.profile.replaces_invalid_utf8
                   else "runtimes fail to read the skill")
    yield ctx.finding(
        "SK003", Span(start, min(start + 1, len(document.text))),
        f"The file is not valid UTF-8: save it again as UTF-8. Byte {document.invalid_byte_offset} "
        f"(0-based) cannot be decoded, and {consequence}.")


@check("SK004")
def bom(ctx: CheckContext) -> Iterator[Finding]:
    if not ctx.document.bom:
        return
    head = "The file starts with a byte-order mark (U+FEFF): save the file as UTF-8 without BOM."
    if ctx.profile.strips_bom:
        others = elsewhere("SK004", ctx.profile)
        yield ctx.finding(
            "SK004", first_line_span(ctx),
            f"{head} {ctx.profile.runtime} removes it and reads the frontmatter"
            + (f", but others look for `---` at offset 0 and find no frontmatter: {others}."
               if others else "."))
        return
    yield ctx.finding(
        "SK004", first_line_span(ctx),
        f"{head} {capitalized(consequence('SK004', ctx.profile))}: a loader that looks for "
        "`---` at offset 0 does not recognise the frontmatter, so the skill has no name or "
        "description.")


@check("SK005")
def no_frontmatter(ctx: CheckContext) -> Iterator[Finding]:
    source = ctx.document.source
    said = (_without_frontmatter(ctx) if ctx.profile.lenient_frontmatter
            else capitalized(consequence("SK005", ctx.profile))
            + ("" if ctx.profile.members else ": it finds no name and no description"))
    if source.opener is None:
        yield ctx.finding("SK005", first_line_span(ctx),
                          "The file does not start with a `---` frontmatter: start it with `---`, "
                          f"the fields (`name`, `description`) and `---`. {said}.")
        return
    if (source.leading_blank_lines == 0 and source.opener.span.start == 0) or ctx.document.bom:
        return
    if source.leading_blank_lines:
        what = (f"{source.leading_blank_lines} blank line(s) come before the opening `---`: "
                "remove them")
    else:
        what = "The opening `---` is indented: remove the indentation"
    opener_text_start = ctx.text.index("---", source.opener.span.start)
    fix = Fix("Remove what precedes the opening `---`", [TextEdit(Span(0, opener_text_start), "")],
              preferred=True)
    yield ctx.finding("SK005", Span(0, opener_text_start + 3),
                      f"{what}; the frontmatter must start at the very first character. "
                      f"{said}.", fixes=[fix])


def _without_frontmatter(ctx: CheckContext) -> str:
    """What a lenient runtime does with a skill whose frontmatter it does not find (a plugin's
    skill without a description may be left out of its listing: `unlisted_without_description`)."""
    profile = ctx.profile
    others = elsewhere("SK005", profile)
    others = f"; {others}" if others else ""
    if unlisted_without_description(ctx.document, ctx.location, profile):
        return (f"{capitalized(consequence('SK005', profile, kind='unlisted'))}: a plugin's "
                f"skill without a description is not listed{others}")
    if profile.body_description_default is None:
        return (f"{profile.runtime} loads the skill with empty metadata, so the model has no "
                f"description to match{others}")
    line = shown(read_as(ctx.document, profile).description or "", 80)
    return (f"{profile.runtime} loads it with no fields (no name, no settings) and lists it with "
            f"the body's first line as its description (`{line}`){others}")


@check("SK006")
def frontmatter_unclosed(ctx: CheckContext) -> Iterator[Finding]:
    source = ctx.document.source
    if source.opener is None or source.closer is not None:
        return
    lines = ctx.document.lines
    hint = ""
    for line in range(source.opener.line + 1, lines.line_count):
        if re.fullmatch(r"[ \t]+---[ \t]*", lines.line_text(line)):
            hint = (f" The `---` on line {line + 1} is indented, so it is part of a YAML value, "
                    "not a delimiter.")
            break
    level = None
    if ctx.profile.reads_unclosed_frontmatter_to_end \
            and not read_as(ctx.document, ctx.profile).loaded_fields:
        level = Severity.ERROR  # the rest of the file is no YAML: dropped
    yield ctx.finding("SK006", source.opener.span,
                      "The frontmatter is never closed: add a line `---` after the last field. "
                      f"{_unclosed_consequence(ctx)}.{hint}", level=level)


def _unclosed_consequence(ctx: CheckContext) -> str:
    """What the target does with a frontmatter that has no closing line (an aggregate: each of
    its runtimes)."""
    return _each_runtime(ctx, _unclosed_reading)[0]


def _unclosed_reading(ctx: CheckContext, profile: RuntimeProfile) -> tuple[str, bool]:
    """What `profile`'s runtime does with a frontmatter that has no closing line, as a clause
    (`_closing_reading`): most do not load the skill; OpenCode's gray-matter
    (`reads_unclosed_frontmatter_to_end`) reads the rest of the file as the frontmatter; Claude
    Code's regex (`frontmatter_closing`) ends it at the next `---` anywhere, or, without one,
    reads the whole file as the body."""
    if profile.kind == "validator":
        return "reject{s} it", True
    if profile.reads_unclosed_frontmatter_to_end:
        if not read_as(ctx.document, profile).loaded_fields:
            return ("read{s} the rest of the file as the frontmatter, where the text after the "
                    "fields is no YAML, so {it} drop{s} the skill"), True
        return "read{s} the rest of the file as the frontmatter, so the skill loads with no body", \
            False
    if not profile.frontmatter_ends_at_first_dashes:
        if profile.catalog_column in rule("SK006").stops_loading:
            return "do{es} not load the skill", True
        return "do{es} not find where the frontmatter ends", False
    reading = read_as(ctx.document, profile)
    if reading.loaded_fields:
        line = ctx.document.lines.position(reading.body_offset).line + 1
        return (f"end{{s}} it at the first `---` {{it}} find{{s}} (the body starts on line {line}), "
                "so the text before it is read as YAML"), False
    described = shown(reading.description or "", 80)
    return ("read{s} the whole file as the body: none of the fields apply (no name, description "
            f"or allowed-tools) and the skill is listed as `{described}`"), False


@check("SK007")
def delimiter_form(ctx: CheckContext) -> Iterator[Finding]:
    source = ctx.document.source
    for role, delimiter in (("opening", source.opener), ("closing", source.closer)):
        if delimiter is None or delimiter.exact:
            continue
        text = ctx.text[delimiter.span.start : delimiter.span.end]
        if role == "opening" and text[:1] in (" ", "\t"):
            continue  # an indented opener is SK005
        fix = Fix("Write the delimiter as `---`", [TextEdit(delimiter.span, "---")],
                  preferred=True)
        written = text.strip() or text
        if role == "opening":
            yield ctx.finding(
                "SK007", delimiter.span,
                f"The opening delimiter is `{written}`, not exactly `---`: write exactly `---`. "
                "Runtimes disagree on such lines (some split the file at the first `---`, "
                "others need `---` followed only by white space).", fixes=[fix])
            continue
        consequence, drops = _closing_consequence(ctx, written)
        yield ctx.finding(
            "SK007", delimiter.span,
            f"The closing delimiter is `{written}`, not exactly `---`: write exactly `---`. "
            f"{consequence}.", fixes=[fix], level=Severity.ERROR if drops else None)


def _closing_consequence(ctx: CheckContext, written: str) -> tuple[str, bool]:
    """What the target does with a closing line that is not exactly `---` (each runtime's
    `frontmatter_closing`, runtime-facts.md §12), and whether that stops it loading the skill."""
    return _each_runtime(ctx, lambda c, p: _closing_reading(c, p, written))


def _each_runtime(ctx: CheckContext, clause: Callable[[CheckContext, RuntimeProfile],
                                                      tuple[str, bool]]) -> tuple[str, bool]:
    """A sentence from `clause` for the target's runtime, or for an aggregate each of its
    runtimes, those that do the same named together ("Codex and Copilot CLI do not …"), and
    whether one of them does not load the skill."""
    profile = ctx.profile
    if not profile.members:
        text, drops = clause(ctx, profile)
        return f"{profile.runtime} {_agreeing(text, _ONE)}", drops
    groups: dict[str, list[str]] = {}
    drops = False
    for member in profile.members:
        if member.kind != "runtime":
            continue
        text, dropped = clause(ctx, member)
        groups.setdefault(text, []).append(member.runtime)
        drops = drops or dropped
    parts = [f"{runtime_names(names)} {_agreeing(text, _ONE if len(names) == 1 else _MANY)}"
             for text, names in groups.items()]
    return "Runtimes disagree: " + "; ".join(parts), drops


#: the words of a `_closing_reading` clause for one runtime and for several
_ONE = {"s": "s", "es": "es", "it": "it", "them": "it", "its": "its"}
_MANY = {"s": "", "es": "", "it": "they", "them": "them", "its": "their"}


def _agreeing(clause: str, words: dict[str, str]) -> str:
    """`clause` with its `{s}`, `{it}`, … replaced by `words`. Not `str.format`: the clause
    quotes what the skill wrote (a closing line such as `--- ${X}`), whose braces are text."""
    for key, word in words.items():
        clause = clause.replace("{" + key + "}", word)
    return clause


def _closing_reading(ctx: CheckContext, profile: RuntimeProfile,
                     written: str) -> tuple[str, bool]:
    """What `profile`'s runtime makes of the closing line, as a clause that follows its name
    (`{s}`, `{es}`, `{it}`, `{them}`, `{its}`: the words that agree with one runtime or
    several), and whether it then does not load the skill."""
    document = ctx.document
    body = document.body_offset
    if profile.kind == "validator":  # skills-ref: `content.split("---", 2)` (runtime-facts §2.3)
        return "split{s} the file at the first `---` anywhere, so this line closes it", False
    if document.bom and not profile.strips_bom and profile.frontmatter_ends_at_first_dashes:
        return "find{s} no frontmatter at all (the file starts with a byte-order mark)", False
    cut = cut_as(document.source, profile.frontmatter_closing)
    if cut is None:
        stops = profile.catalog_column in rule("SK007").stops_loading
        what = ("so {it} do{es} not load the skill" if stops else
                "so for {them} the frontmatter is never closed")
        return f"do{{es}} not take `{written}` as the closing line, {what}", stops
    if cut.body_offset == 0:
        return ("read{s} the fields, but send{s} the whole file, frontmatter included, as the "
                "body ({its} body starts only after a line of `---` alone)"), False
    if cut.body_offset >= len(document.text) > body:
        return "end{s} the frontmatter there but send{s} no body at all", False
    if cut.body_offset < body:
        first = document.text[cut.body_offset:body].rstrip("\r\n")
        if first.strip():
            return ("end{s} the frontmatter after the line's first three dashes, so the body "
                    f"starts with `{shown(first, 40)}`"), False
    return "read{s} it as the closing line", False


@check("SK008")
def dashes_inside_frontmatter(ctx: CheckContext) -> Iterator[Finding]:
    source = ctx.document.source
    if not source.inner_dashes:
        return
    span = source.inner_dashes[0]
    lost = "the rest of this value and every later field"
    said = consequence("SK008", ctx.profile, what=lost)
    effect = rule("SK008").effect(ctx.profile)
    if effect is not None and effect.loads and effect.kind != "misreads":
        others = elsewhere("SK008", ctx.profile, ("misreads",), lost)
        said = f"{said} and reads the value whole" + (f"; {others}" if others else "")
    yield ctx.finding("SK008", span, "`---` inside the frontmatter: write an em dash (—) or a "
                                     f"single `-` instead. {capitalized(said)}: a reader that "
                                     "ends the frontmatter at the first `---` anywhere loses "
                                     "what follows.")


@check("SK009")
def frontmatter_not_mapping(ctx: CheckContext) -> Iterator[Finding]:
    yaml = ctx.document.yaml
    if yaml is None or yaml.problem is not None or yaml.mapping is not None:
        return
    if yaml.root is None or (yaml.root.kind == "scalar" and yaml.root.is_plain
                             and not yaml.root.text):
        what, span = "empty", ctx.document.opener_span
    else:
        kinds = {"sequence": "a list", "scalar": "a single value", "alias": "an alias"}
        what, span = kinds.get(yaml.root.kind, yaml.root.kind), yaml.root.content_span
    consequence = (f"{ctx.profile.runtime} ignores it and loads the skill without metadata"
                   if ctx.profile.lenient_frontmatter else "The skill has no name and no description")
    yield ctx.finding("SK009", span,
                      f"The frontmatter is {what}, not a mapping of `key: value` fields: write each "
                      f"field as a `key: value` line (`name: …`, `description: …`). {consequence}.")


@check("SK010")
def crlf(ctx: CheckContext) -> Iterator[Finding]:
    text = ctx.text
    first = text.find("\r\n")
    if first < 0:
        return
    edits = [TextEdit(Span(m.start(), m.start() + 1), "") for m in re.finditer(r"\r\n", text)]
    line = ctx.document.lines.line_of(first)
    yield ctx.finding(
        "SK010", ctx.document.lines.span_of_line(line),
        f"The file uses CRLF line endings ({len(edits)} lines): save it with LF endings. Several "
        "third-party loaders match `---\\n` literally and miss the frontmatter.",
        fixes=[Fix("Convert line endings to LF", edits)])
