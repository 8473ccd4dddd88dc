"""The `wave-lsp` command line (docs/design/product.md *Command line*).

`check` runs the rules over SKILL.md files, and SK152 (an unknown `/name`) over the files that
mention skills (`CLAUDE.md`, `AGENTS.md`, agent and command files). Settings come from the defaults, then
`[tool.wave-lsp]` in the nearest `pyproject.toml`, then the flags. Exit codes: 0 no error
findings, 1 at least one error finding, 2 usage or configuration errors. Modules are imported inside
the functions that need them, so that `wave-lsp serve` starts quickly and so that a one-file
`check` imports them while the garbage collector is paused (`_pause_collector`).
"""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

from wave_lsp import __version__

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterable, Sequence
    from pathlib import Path
    from typing import TypeAlias

    from wave_lsp.core.checking.checker import FileReport
    from wave_lsp.core.checking.config import Settings
    from wave_lsp.core.invocation.preview import Invocation

    Subcommands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _add_common(command: argparse.ArgumentParser) -> None:
    """The options every subcommand that reads skills shares."""
    from wave_lsp.core.facts.profiles import TARGETS

    command.add_argument("--target", choices=TARGETS,
                         help="runtime to model (default: chosen per file from where it lives; "
                              "`copilot` is Copilot in VS Code, `copilot-cli` the GitHub "
                              "Copilot CLI)")
    command.add_argument("--no-personal", action="store_true",
                         help="do not consult personal roots and settings (~/.wave, ~/.claude, "
                              "~/.agents)")
    command.add_argument("--workspace-trust", choices=("auto", "trusted", "untrusted"),
                         help="whether runtimes that load workspace skills only in a trusted "
                              "folder (Gemini CLI) trust the project (default: auto, what "
                              "~/.gemini/trustedFolders.json says; a folder it has no rule for "
                              "counts as trusted)")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `command` (a subcommand's name), one that knows only that
    subcommand and parses its arguments alike: `main` builds only the subcommand it runs, since
    each one costs start-up time."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="wave-lsp", formatter_class=_help_formatter,
        description="Language server and checker for Agent Skills (SKILL.md files).")
    parser.add_argument("--version", action="version", version=f"wave-lsp {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, add in _COMMANDS.items():
        if command in (None, name):
            add(commands)
    return parser


def _help_formatter(*, prog: str) -> argparse.HelpFormatter:
    """argparse's help formatter, as wide as `shutil.get_terminal_size` says, measured the same
    way but without importing shutil: argparse makes a formatter for every `add_argument` (to
    check its metavar), and shutil loads the bz2 and lzma libraries, a few milliseconds of every
    command's start-up."""
    import argparse
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    stdout = sys.__stdout__
    if columns <= 0 and stdout is not None:
        try:
            columns = os.get_terminal_size(stdout.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return argparse.HelpFormatter(prog, width=(columns or 80) - 2)


def _add_check(commands: Subcommands) -> None:
    from pathlib import Path

    check = commands.add_parser("check", formatter_class=_help_formatter,
                                help="check SKILL.md files and report findings",
                                description="Find every SKILL.md under the paths (default: .) "
                                            "and report what the target runtime would do wrong.")
    check.add_argument("paths", nargs="*", type=Path, default=[], metavar="PATH")
    check.add_argument("--format", choices=("text", "full", "concise", "json", "sarif", "github"),
                       default="text",
                       help="text (or full, ruff's name; the default): each finding with its "
                            "source line and a caret under it; concise: one line per finding; "
                            "json, sarif (code scanning), github (workflow annotations)")
    check.add_argument("--select", action="append", default=[], metavar="CODES",
                       help="only these rule codes or prefixes (comma-separated, repeatable)")
    check.add_argument("--ignore", action="append", default=[], metavar="CODES",
                       help="skip these rule codes or prefixes")
    check.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL",
                       help="override a rule's severity (error|warning|information|hint|off)")
    check.add_argument("--fix", action="store_true",
                       help="apply the safe fixes to the files, then report what remains")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="with --fix or --diff: also the fixes that change behaviour")
    check.add_argument("--diff", action="store_true",
                       help="print the fixes as a unified diff instead of writing them "
                            "(exit 1 when there is something to fix)")
    check.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                       help="check with N processes (default 1: in this process). The output is "
                            "the same whatever N is")
    _add_common(check)


def _add_rule(commands: Subcommands) -> None:
    rule_command = commands.add_parser(
        "rule", formatter_class=_help_formatter,
        help="explain a rule: severities per target, why, an example and the fix",
        description="Print what the catalog says about a rule code, or every rule with --all.")
    rule_command.add_argument("code", nargs="?", metavar="CODE", help="a rule code such as SK034")
    rule_command.add_argument("--all", action="store_true", help="every rule of the catalog")
    rule_command.add_argument("--format", choices=("text", "json"), default="text")


def _add_preview(commands: Subcommands) -> None:
    from pathlib import Path

    preview = commands.add_parser(
        "preview", formatter_class=_help_formatter,
        help="show what the model receives when the skill is invoked",
        description="Render the invocation as the runtime would: base directory line, arguments, "
                    "variables, and every injected command with its permission decision. Nothing "
                    "runs unless --execute is given, and then only what the permission engine "
                    "allows. Pass the arguments as one string to keep them exactly as typed.")
    preview.add_argument("path", type=Path, metavar="PATH", help="a SKILL.md or its folder")
    preview.add_argument("arguments", nargs="*", metavar="ARGS",
                         help="what the user types after /skill-name")
    preview.add_argument("--execute", action="store_true",
                         help="run the allowed commands (30 s timeout each, cwd = project root)")
    preview.add_argument("--session-id", default=None, metavar="ID")
    preview.add_argument("--format", choices=("text", "json"), default="text")
    _add_common(preview)


def _add_list(commands: Subcommands) -> None:
    from pathlib import Path

    listing = commands.add_parser(
        "list", formatter_class=_help_formatter,
        help="list the skills the target runtime would discover from here",
        description="Every skill the runtime loads from the project (the directory, default .) "
                    "and the personal roots: scope, file, who can invoke it, its listing size and "
                    "which skill shadows it.")
    listing.add_argument("directory", nargs="?", type=Path, default=Path("."), metavar="DIR")
    listing.add_argument("--format", choices=("table", "json"), default="table")
    listing.add_argument("--targets", metavar="LIST", default=None,
                         help="`all` or comma-separated targets: per skill, which of these "
                              "runtimes discover it, load it, and under which command")
    _add_common(listing)


def _add_mcp(commands: Subcommands) -> None:
    from pathlib import Path

    mcp = commands.add_parser(
        "mcp", formatter_class=_help_formatter,
        help="run the MCP server (stdio) with check, preview, list and rule tools",
        description="Serve the Model Context Protocol on stdin/stdout: tools to check skills, "
                    "preview an invocation (dry run only), list the skills a runtime sees and "
                    "explain a rule. Paths are limited to the project root. Needs the `mcp` extra: "
                    "pip install 'wave-lsp[mcp]'.")
    mcp.add_argument("--root", type=Path, default=None, metavar="DIR",
                     help="the project root the tools may read (default: the current directory)")


def _add_serve(commands: Subcommands) -> None:
    serve = commands.add_parser("serve", formatter_class=_help_formatter,
                                help="run the language server (stdio by default)",
                                description="Run the language server. Logs go to stderr.")
    serve.add_argument("--stdio", action="store_true", help="use stdin/stdout (the default)")
    serve.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP address instead")
    serve.add_argument("--log-level", default="warning",
                       choices=("debug", "info", "warning", "error"))


#: the subcommands, in the order `wave-lsp --help` lists them
_COMMANDS: dict[str, Callable[[Subcommands], None]] = {
    "check": _add_check, "rule": _add_rule, "preview": _add_preview, "list": _add_list,
    "mcp": _add_mcp, "serve": _add_serve,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (None: this process's arguments, the process being the
    command: the console script and `python -m wave_lsp`). Returns the exit code."""
    end_start_up = _pause_collector() if argv is None else _nothing
    try:
        arguments = sys.argv[1:] if argv is None else list(argv)
        command = arguments[0] if arguments and arguments[0] in _COMMANDS else None
        parser = build_parser(command)
        args = parser.parse_args(arguments)
        try:
            return _dispatch(args, parser, end_start_up)
        except BrokenPipeError:
            # the reader went away (`wave-lsp rule --all | head`): stop quietly, as `cat` does
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return EXIT_FINDINGS
    finally:
        end_start_up()


def _pause_collector() -> Callable[[], None]:
    """Pause the garbage collector while the command starts up; the function returned ends
    start-up (calling it again does nothing).

    Start-up (the imports, the argument parser, the rule catalog) creates tens of thousands of
    objects that live as long as the process, and the collector would walk them again and again
    for nothing: a tenth of a one-file `check` (docs/design/product.md *Command line*). When
    start-up ends they are frozen (`gc.freeze`: a generation the collector never walks) and the
    collector resumes for the work itself. Only when the process is the command (`main`'s `argv`
    is None): a program that calls `main` keeps its collector as it was."""
    if not gc.isenabled():
        return _nothing
    gc.disable()
    ended = False

    def end_start_up() -> None:
        nonlocal ended
        if not ended:
            ended = True
            gc.freeze()
            gc.enable()

    return end_start_up


def _nothing() -> None:
    """`end_start_up` when the collector was not paused."""


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser,
              end_start_up: Callable[[], None]) -> int:
    if args.command == "check":
        return run_check(args, parser, end_start_up)
    end_start_up()
    if args.command == "preview":
        return run_preview(args, parser)
    if args.command == "list":
        return run_list(args, parser)
    if args.command == "rule":
        return run_rule(args, parser)
    if args.command == "serve":
        return run_serve(args, parser)
    if args.command == "mcp":
        return run_mcp(args, parser)
    parser.print_help()
    return EXIT_USAGE


def run_check(args: argparse.Namespace, parser: argparse.ArgumentParser,
              end_start_up: Callable[[], None] = _nothing) -> int:
    import itertools
    from pathlib import Path

    from wave_lsp.api import find_files, iter_reports, with_codes
    from wave_lsp.core.checking.checker import split_by_file, split_report
    from wave_lsp.core.checking.config import SettingsError
    from wave_lsp.output import write

    if args.format == "full":  # ruff's name for the default text output
        args.format = "text"
    settings = _settings(args, parser, Path.cwd())
    try:
        settings = with_codes(settings, select=args.select, ignore=args.ignore,
                              severity=args.severity)
    except SettingsError as error:
        parser.exit(EXIT_USAGE, f"wave-lsp: {error}\n")
    paths = args.paths or [Path(".")]
    missing = [p for p in paths if not p.exists() and not p.is_symlink()]
    if missing:
        parser.exit(EXIT_USAGE, f"wave-lsp: no such file or directory: {missing[0]}\n")
    named = _skills_named(paths)
    files, mentions = find_files(named)
    files = [path for path in files if _is_markdown(path)]
    if not files and not mentions and named:
        shown = ", ".join(str(p) for p in named)
        print(f"wave-lsp: warning: No SKILL.md files found under {shown}", file=sys.stderr)
    else:
        _load_checking()
    end_start_up()
    if args.fix or args.diff:
        reports = [*check_files(files, settings, args.jobs),
                   *_mention_reports(mentions, settings, named)]
        changed = fix_files(reports, unsafe=args.unsafe_fixes, write_files=not args.diff)
        if args.diff:
            return EXIT_FINDINGS if changed else EXIT_OK
        if not changed:  # report what was found: nothing changed
            totals = write(split_by_file(reports), args.format, settings.target,
                           per_file=settings.auto_target)
            return EXIT_FINDINGS if totals.errors else EXIT_OK
        del reports  # report what remains, as the files now are
    # each report written as its file is done and then let go: memory stays flat
    totals = write(itertools.chain((part for report in iter_reports(files, settings, args.jobs)
                                    for part in split_report(report)),
                                   _mention_reports(mentions, settings, named)),
                   args.format, settings.target, per_file=settings.auto_target)
    return EXIT_FINDINGS if totals.errors else EXIT_OK


def _mention_reports(files: list[Path], settings: Settings, named: list[Path],
                     ) -> Iterable[FileReport]:
    """SK152 in the files that mention skills (`cli_hints.mention_reports`); nothing is imported
    for a check that found none (a one-file check stays light)."""
    if not files:
        return ()
    from wave_lsp.cli_hints import mention_reports

    return mention_reports(files, settings, named)


def _skills_named(paths: list[Path]) -> list[Path]:
    """`paths` with each markdown file that is not a skill (a README) replaced by the skill it
    belongs to, or left out with a warning when it belongs to none: never checked as a skill
    whose folder is wherever it lies. A file that mentions skills (`CLAUDE.md`) is kept: SK152."""
    kept = []
    for path in paths:
        # (a SKILL.md or a folder, the common case, costs no import)
        if path.name.lower() == "skill.md" or path.suffix.lower() != ".md":
            kept.append(path)
            continue
        from wave_lsp.cli_hints import is_named_non_skill, not_a_skill
        from wave_lsp.core.workspace.discovery import is_diagnosed

        if not is_named_non_skill(path) or is_diagnosed(path):
            kept.append(path)
            continue
        skill, warning = not_a_skill(path, str(path))
        print(f"wave-lsp: warning: {warning}", file=sys.stderr)
        if skill is not None:
            kept.append(skill)
    return kept


def _load_checking() -> None:
    """What checking any file needs, loaded during start-up (`_pause_collector`): the rule
    modules and the catalog."""
    from wave_lsp.core.checking.catalog import rules
    from wave_lsp.core.rules import all_checks

    all_checks()
    rules()


def _is_markdown(path: Path) -> bool:
    """Only markdown files are skills: a file named on the command line that is not one (say
    `pyproject.toml`) is skipped with a warning instead of being reported as a broken skill."""
    if path.suffix.lower() == ".md" or path.is_dir():
        return True
    print(f"wave-lsp: warning: {path} is not a markdown file; skipped", file=sys.stderr)
    return False


def fix_files(reports: list[FileReport], *, unsafe: bool, write_files: bool) -> list[Path]:
    """Apply (or, without `write_files`, print as a diff) the fixes of every report; the files
    that change. A file without an applicable fix is not touched."""
    import difflib

    from wave_lsp.core.checking.fixing import encoded, plan_fixes
    from wave_lsp.core.parsing.reading import load_document
    from wave_lsp.output import display_path

    changed: list[Path] = []
    fixed = skipped = 0
    for report in reports:
        fixable = [f for f in report.findings if f.fixes and f.path is None]
        document = (report.document or load_document(report.path)) if fixable else None
        if document is None:
            continue
        plan = plan_fixes(document, fixable, unsafe=unsafe)
        skipped += plan.skipped_unsafe
        if not plan.changed:
            continue
        if write_files:
            refused = _write_inside_project(report, encoded(document, plan.fixed))
            if refused:
                print(f"wave-lsp: warning: {refused}", file=sys.stderr)
                continue
        changed.append(report.path)
        fixed += len(plan.applied)
        if not write_files:
            shown = display_path(report.path)
            sys.stdout.writelines(difflib.unified_diff(
                plan.original.splitlines(keepends=True), plan.fixed.splitlines(keepends=True),
                f"a/{shown}", f"b/{shown}"))
    verb = "Fixed" if write_files else "Would fix"
    note = (f" ({skipped} more with --unsafe-fixes)" if skipped and not unsafe else "")
    print(f"{verb} {fixed} finding{'s' if fixed != 1 else ''} in {len(changed)} "
          f"file{'s' if len(changed) != 1 else ''}{note}.", file=sys.stderr)
    return changed


def _write_inside_project(report: FileReport, data: bytes) -> str | None:
    """Write a fixed file unless its real path (`os.path.realpath`: every symbolic link resolved)
    lies outside the real path of its project (the git project, else its skills root, else its
    folder): then nothing is written and the reason is returned (issue 35: a cloned repository's
    SKILL.md linked to `~/.bashrc` is not rewritten).

    What that covers: the file, or a folder between the project and the file, being a link out
    of the project. A link that stays inside the project is followed, and a project reached
    through a link is fine (the boundary is resolved too). A hard link is not seen: it has no
    other path to compare. The check and the write are two steps: the file is opened at the real
    path checked, with `O_NOFOLLOW` where the system has it, so a link put in the file's own
    place since is refused, but a folder on that path swapped for a link in between is followed.
    A file removed since is not created again (no `O_CREAT`)."""
    import os

    from wave_lsp.core.workspace.location import locate
    from wave_lsp.output import display_path

    location = report.location or locate(report.path)
    boundary = location.project_root or location.skills_root or report.path.parent
    real, base = os.path.realpath(report.path), os.path.realpath(boundary)
    if real != base and not real.startswith(base.rstrip(os.sep) + os.sep):
        return (f"{display_path(report.path)} not fixed: it is a link to {real}, outside the "
                f"project {boundary}")
    try:
        handle = os.open(real, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        return f"{display_path(report.path)} not fixed: {error.strerror or error}"
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    return None


def run_rule(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import json

    from wave_lsp.core.checking.catalog import rules
    from wave_lsp.docs import describe_rule, rule_json

    catalog = rules()
    if args.all:
        chosen = list(catalog.values())
    elif args.code and args.code.strip().upper() in catalog:
        chosen = [catalog[args.code.strip().upper()]]
    else:
        what = f"unknown rule code {args.code!r}" if args.code else "give a rule code or --all"
        parser.exit(EXIT_USAGE, f"wave-lsp rule: {what} (codes look like SK034; "
                                f"`wave-lsp rule --all` lists the {len(catalog)} rules)\n")
    if args.format == "json":
        payload = ({"version": 1, "rules": [rule_json(item) for item in chosen]} if args.all
                   else {"version": 1, **rule_json(chosen[0])})
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(("\n" if args.all else "\n\n").join(describe_rule(item, brief=args.all)
                                                  for item in chosen))
    return EXIT_OK


def check_files(files: list[Path], settings: Settings, jobs: int | None = None,
                ) -> list[FileReport]:
    """Check `files` with `jobs` processes (None: the default, one; `api.check_files`)."""
    from wave_lsp.api import check_files as check_all

    return check_all(files, settings, jobs=jobs)


def _jobs(text: str) -> int:
    """`--jobs N`: a whole number of processes, at least 1."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes, got {text!r}") \
            from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (1 checks in one process), got {value}")
    return value


def _settings(args: argparse.Namespace, parser: argparse.ArgumentParser, start: Path) -> Settings:
    """`[tool.wave-lsp]` of the nearest pyproject.toml, then `--target` and `--no-personal`."""
    from wave_lsp.core.checking.config import (
        Settings,
        SettingsError,
        load_pyproject,
        settings_from_mapping,
        unknown_keys,
    )

    try:
        section, where = load_pyproject(start)
        # with no target in the file or on the command line, each file gets its own
        settings = settings_from_mapping(section, Settings(auto_target=True))
    except SettingsError as error:
        parser.exit(EXIT_USAGE, f"wave-lsp: {error}\n")
    for problem in unknown_keys(section):
        print(f"wave-lsp: warning: {where}: {problem}", file=sys.stderr)
    return settings.merged(target=args.target, personal=False if args.no_personal else None,
                           workspace_trust=getattr(args, "workspace_trust", None))


def run_preview(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import json
    import shlex
    from pathlib import Path

    from wave_lsp.api import render_invocation, skill_file

    path = skill_file(args.path)
    raw = args.arguments[0] if len(args.arguments) == 1 else shlex.join(args.arguments)
    settings = _settings(args, parser, Path.cwd())
    result = render_invocation(path, raw, settings, execute=args.execute,
                               session_id=args.session_id)
    if isinstance(result, str):
        message = result
        if args.format == "json":
            print(json.dumps({"version": 1, "ok": False, "text": None, "error": message}))
        else:
            print(f"wave-lsp: {message}", file=sys.stderr)
        return EXIT_USAGE
    if args.format == "json":
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        _print_preview(result)
    return EXIT_OK if result.ok else EXIT_FINDINGS


def _print_preview(result: Invocation) -> None:
    """The prompt on stdout (exactly what the model receives); decisions and notes on stderr."""
    if result.text is not None:
        sys.stdout.write(result.text if result.text.endswith("\n") else result.text + "\n")
    from wave_lsp.core.invocation.preview import injection_lines

    for line in injection_lines(result):
        print(line, file=sys.stderr)
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if result.error:
        print(f"error: {result.error}", file=sys.stderr)


def run_list(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import json
    from pathlib import Path

    from wave_lsp.core.checking.loading import default_skill_rows, skill_rows

    if not args.directory.is_dir():
        parser.exit(EXIT_USAGE, f"wave-lsp: not a directory: {args.directory}\n")
    settings = _settings(args, parser, args.directory)
    project = args.directory.resolve()
    if args.targets is not None:
        return _list_targets(args, parser, settings, project)
    home = settings.home or Path.home()
    if settings.auto_target:  # each skill as the target `check` gives it (where it lives)
        target, rows = default_skill_rows(project, home, settings.personal, Path.cwd(),
                                          trust=settings.workspace_trust)
    else:
        target, rows = settings.target, skill_rows(settings.profile, project, home,
                                                   settings.personal, Path.cwd())
    if args.format == "json":
        print(json.dumps({"version": 1, "target": target, "skills": rows}, indent=2,
                         ensure_ascii=False))
    else:
        _print_table(rows, target)
    if not rows:
        from wave_lsp.cli_hints import no_skills_hint

        print(f"wave-lsp: {no_skills_hint(settings.profile, args.directory, str(args.directory))}",
              file=sys.stderr)
    return EXIT_OK



def _list_targets(args: argparse.Namespace, parser: argparse.ArgumentParser,
                  settings: Settings, project: Path) -> int:
    """`list --targets`: per skill, where it loads (`wave_lsp.core.workspace.where`)."""
    import json
    from pathlib import Path

    from wave_lsp.core.facts.profiles import PROFILES, TARGETS, with_workspace_trust
    from wave_lsp.core.workspace.where import RUNTIMES, where_rows

    if args.targets.strip() == "all":
        chosen = RUNTIMES
    else:
        names = [name.strip() for name in args.targets.split(",") if name.strip()]
        unknown = [name for name in names if name not in PROFILES]
        if unknown or not names:
            parser.exit(EXIT_USAGE, f"wave-lsp: unknown target {unknown[0] if unknown else ''!r}; "
                                    f"choose `all` or from {', '.join(TARGETS)}\n")
        chosen = tuple(m for name in names for m in (PROFILES[name].members or (PROFILES[name],)))
        chosen = tuple(dict.fromkeys(chosen))
    chosen = tuple(with_workspace_trust(p, settings.workspace_trust) for p in chosen)
    rows = where_rows(chosen, project, settings.home or Path.home(), settings.personal, Path.cwd())
    if args.format == "json":
        print(json.dumps({"version": 1, "targets": [p.name for p in chosen], "skills": rows},
                         indent=2, ensure_ascii=False))
        return EXIT_OK
    headers = ("NAME", "PATH", *(p.name.upper() for p in chosen))
    table = [(str(row["name"]), str(row["path"]),
              *(_where_cell(answer) for answer in row["runtimes"]))  # type: ignore[attr-defined]
             for row in rows]
    widths = [max(len(cell) for cell in column) for column in zip(headers, *table, strict=False)]
    for line in [headers, *table]:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())
    print(f"{len(rows)} skills; per runtime: the command it loads under, `–` not discovered, "
          "`no (SKnnn)` discovered but dropped")
    return EXIT_OK


def _where_cell(answer: dict[str, object]) -> str:
    if not answer["discovers"]:
        return "–"
    if not answer["loads"]:
        return f"no ({answer['stoppedBy'] or 'unreadable'})"
    return str(answer["command"] or "loads (no command)")


def _print_table(rows: list[dict[str, object]], target: str) -> None:
    per_file = any("target" in row for row in rows)
    headers = ("NAME", *(("TARGET",) if per_file else ()), "SCOPE", "LOADS", "MODEL", "COMMAND",
               "LISTING", "PATH", "SHADOWED BY")
    table = [(row["name"], *((row["target"],) if per_file else ()), row["scope"],
              "yes" if row["loads"] else f"no ({row['stoppedBy'] or 'unreadable'})",
              "yes" if row["modelInvocable"] else "no",
              row["command"] or f"none ({row['unavailable']})", f"{row['listingChars']:,}",
              row["path"], row["shadowedBy"] or "") for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *table, strict=False)]
    for line in [headers, *table]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=True))
              .rstrip())
    visible = sum(1 for row in rows
                  if row["loads"] and row["modelInvocable"] and not row["shadowedBy"])
    skipped = sum(1 for row in rows if not row["loads"])
    label = ("each for the runtime that reads it where it lives" if target == "per-file"
             else target)
    print(f"{len(rows)} skills ({label}); {visible} in the model's listing"
          + (f"; {skipped} not loaded (see `wave-lsp check`)" if skipped else ""))


def run_serve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import logging

    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    address = None
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit():
            parser.exit(EXIT_USAGE, f"wave-lsp: --tcp wants HOST:PORT, got {args.tcp!r}\n")
        address = (host, int(port))
    if address is not None:
        problem = _tcp_problem(*address)
        if problem:
            parser.exit(EXIT_USAGE, f"wave-lsp: cannot listen on {args.tcp}: {problem}\n")
    from wave_lsp.lsp.app import create_server

    server = create_server()
    if address:
        server.start_tcp(*address)
    else:
        server.start_io()
    return EXIT_OK


def _tcp_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (None when it can): checked before the server
    starts, so a busy or invalid address is one line, not a traceback."""
    import socket

    if not 0 <= port <= 65535:
        return "the port must be between 0 and 65535"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        return f"unknown host ({error.strerror or error})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            return error.strerror or str(error)
    return None


#: how long `_refuse_mcp_client` waits for the client's `initialize`, in all
MCP_REFUSAL_SECONDS = 10.0


def _refuse_mcp_client(message: str) -> None:
    """Answer an MCP client's requests (JSON-RPC lines on stdin, sent at once by clients such as
    Claude Code) with an error carrying `message`, up to and including its `initialize`, so that
    the client shows what to install instead of only "Failed to connect". Claude Code 2.1.332
    first sends a `server/discover` probe and, when that fails, `initialize`: only an error
    answer to `initialize` reaches `claude mcp list` and `claude mcp get` (the process ending
    before it shows as "CONNECTION_CLOSED"). Nothing is read from a terminal, nor waited for
    longer than `MCP_REFUSAL_SECONDS` in all."""
    import os
    import select
    import time

    if sys.stdin is None or sys.stdin.isatty():
        return
    try:
        descriptor = sys.stdin.fileno()
    except (OSError, ValueError):
        return
    deadline = time.monotonic() + MCP_REFUSAL_SECONDS
    pending = b""
    while True:
        line, newline, rest = pending.partition(b"\n")
        if not newline:  # no whole line yet: read more (bytes, never past what select saw)
            left = deadline - time.monotonic()
            try:
                ready = left > 0 and select.select([descriptor], [], [], left)[0]
                chunk = os.read(descriptor, 65536) if ready else b""
            except OSError:
                return
            if not chunk or len(pending) > 1 << 20:  # closed, timed out, or not JSON-RPC
                return
            pending += chunk
            continue
        pending = rest
        if _answer_with_error(line, message) == "initialize":
            return


def _answer_with_error(line: bytes, message: str) -> str | None:
    """Answer one JSON-RPC request line with an error carrying `message`; its method, or None
    (a notification or not a request: nothing answered)."""
    import json

    try:
        request = json.loads(line) if line.strip() else None
    except (ValueError, RecursionError):  # RecursionError: deeply nested JSON
        return None
    if not isinstance(request, dict) or "id" not in request or "method" not in request:
        return None
    answer = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": message}}
    try:
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    except OSError:
        return None
    return str(request["method"])


def run_mcp(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from pathlib import Path

    from wave_lsp.mcp import sdk_missing

    missing = sdk_missing()
    if missing:
        _refuse_mcp_client(f"wave-lsp mcp: {missing}")
        parser.exit(EXIT_USAGE, f"wave-lsp mcp: {missing}\n")
    root = (args.root or Path.cwd()).resolve()
    if not root.is_dir():
        parser.exit(EXIT_USAGE, f"wave-lsp: not a directory: {args.root}\n")
    from wave_lsp.mcp.mcp_server import create_server

    create_server(root).run("stdio")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
