"""A one-file `check` starts quickly (docs/design/product.md *Command line*): it imports only what
checking needs, builds only its own subcommand's parser, and starts up with the garbage collector
paused. None of this may change what the command prints."""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wave_lsp.cli import _help_formatter, build_parser, main

ROOT = Path(__file__).resolve().parents[2]
SKILL = ROOT / "examples" / "skills" / "pdf-extract"

#: runs the command line as the console script does (`main()` reading sys.argv), then reports
#: the modules it imported and the state it left the garbage collector in
AS_THE_COMMAND = """
import gc, json, sys
from wave_lsp.cli import main
sys.argv = ["wave-lsp", *sys.argv[1:]]
code = main()
print(json.dumps({"code": code, "modules": sorted(sys.modules), "gc_enabled": gc.isenabled(),
                  "frozen": gc.get_freeze_count()}), file=sys.stderr)
"""

#: what a one-file check of a valid skill never needs: the protocol and server libraries, the
#: JSON schema validator (`quick_schema` vouches for valid values), tree-sitter and the permission
#: engine (no injection to decide), tomllib (no pyproject.toml; the catalog has its own reader),
#: fixing, the documentation, the preview, the workers' machinery, shutil (with bz2 and lzma),
#: which argparse would import to measure the terminal, and discovery's model of the runtimes
#: (roots, config files, reach, project snapshots): the skill lies in no skills root
NOT_IMPORTED = ("pygls", "lsprotocol", "jsonschema", "tree_sitter", "tree_sitter_bash", "mcp",
                "tomllib", "importlib.metadata", "multiprocessing", "logging", "difflib",
                "shutil", "bz2", "lzma",
                "wave_lsp.lsp", "wave_lsp.mcp", "wave_lsp.docs", "wave_lsp.core.features",
                "wave_lsp.core.permissions.shell", "wave_lsp.core.invocation.preview",
                "wave_lsp.core.checking.fixing", "wave_lsp.core.workspace.forked", "pickle", "signal",
                "wave_lsp.core.workspace.runtime_view", "wave_lsp.core.workspace.runtime_config",
                "wave_lsp.core.workspace.reach", "wave_lsp.core.workspace.snapshot")


def run_as_the_command(cwd: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    result = subprocess.run([sys.executable, "-c", AS_THE_COMMAND, *args], cwd=cwd,
                            capture_output=True, text=True, timeout=120, check=False)
    report = json.loads(result.stderr.strip().splitlines()[-1])
    return result, report


def test_a_one_file_check_imports_only_what_checking_needs(tmp_path: Path) -> None:
    shutil.copytree(SKILL, tmp_path / SKILL.name)  # no pyproject.toml around it
    result, report = run_as_the_command(tmp_path, "check", f"{SKILL.name}/SKILL.md",
                                        "--no-personal")
    assert report["code"] == 0
    assert result.stdout.endswith("Checked 1 file: 0 errors, 0 warnings, 0 information, 1 hint.\n")
    assert "SK028" in result.stdout
    modules = set(report["modules"])
    assert "wave_lsp.core.rules.placeholders" in modules  # the premise: the rules did run
    imported = sorted(name for name in modules
                      if any(name == heavy or name.startswith(heavy + ".")
                             for heavy in NOT_IMPORTED))
    assert imported == []


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: every module of ours a one-file check of a valid skill imports (what checking it needs: the
#: parser, the rule families, the workspace model the workspace rules read, the output); a new one
#: here costs every `check` its import time, so this list changes only on purpose
ONE_FILE_MODULES = _words("""
wave_lsp wave_lsp.api wave_lsp.cli wave_lsp.excerpt wave_lsp.output wave_lsp.core
wave_lsp.core.checking wave_lsp.core.checking.catalog wave_lsp.core.checking.checker
wave_lsp.core.checking.config wave_lsp.core.checking.context wave_lsp.core.checking.engine
wave_lsp.core.checking.findings wave_lsp.core.checking.loading wave_lsp.core.checking.messages
wave_lsp.core.checking.not_found wave_lsp.core.checking.quick_schema
wave_lsp.core.checking.schema wave_lsp.core.checking.suppression
wave_lsp.core.parsing wave_lsp.core.parsing.document wave_lsp.core.parsing.example_words
wave_lsp.core.parsing.file_references
wave_lsp.core.parsing.injections wave_lsp.core.parsing.markdown wave_lsp.core.parsing.reading
wave_lsp.core.parsing.source wave_lsp.core.parsing.text wave_lsp.core.parsing.yamltree
wave_lsp.core.rules wave_lsp.core.rules.allowed_tools wave_lsp.core.rules.body
wave_lsp.core.rules.description wave_lsp.core.rules.file wave_lsp.core.rules.helpers
wave_lsp.core.rules.invocation wave_lsp.core.rules.name wave_lsp.core.rules.placeholders
wave_lsp.core.rules.references wave_lsp.core.rules.registry wave_lsp.core.rules.resources
wave_lsp.core.rules.shell_injections wave_lsp.core.rules.unknown wave_lsp.core.rules.workspace
wave_lsp.core.rules.yaml
wave_lsp.core.facts wave_lsp.core.facts.loaders wave_lsp.core.facts.profile_types
wave_lsp.core.facts.schema_file
wave_lsp.core.facts.profiles wave_lsp.core.facts.reads wave_lsp.core.facts.runtime_profile
wave_lsp.core.facts.toolrules wave_lsp.core.facts.variables
wave_lsp.core.invocation wave_lsp.core.invocation.arguments wave_lsp.core.invocation.listing
wave_lsp.core.invocation.skill_location
wave_lsp.core.workspace wave_lsp.core.workspace.applies
wave_lsp.core.workspace.discovery
wave_lsp.core.workspace.disk_view wave_lsp.core.workspace.folder_facts
wave_lsp.core.workspace.location wave_lsp.core.workspace.session
""")
#: the installed packages it imports: ruamel.yaml and its C parser, nothing else
ONE_FILE_PACKAGES = frozenset({"ruamel", "_ruamel_yaml"})
#: the standard library's top-level modules it imports on the Python this list was taken on
#: (another version's own modules import others; there only our modules are compared)
ONE_FILE_STDLIB = (3, 11), _words("""
__future__ _abc _ast _bisect _codecs _collections _collections_abc _datetime _frozen_importlib
_frozen_importlib_external _functools _imp _io _json _locale _opcode _operator _signal
_sitebuiltins _sre _stat _struct _thread _typing _warnings _weakref _weakrefset abc argparse ast
base64 binascii bisect builtins codecs collections contextlib copy copyreg dataclasses datetime
dis encodings enum errno fnmatch functools gc genericpath gettext glob importlib inspect io
ipaddress itertools json keyword linecache locale marshal math ntpath numbers opcode operator os
pathlib posix posixpath re reprlib site stat struct sys time token tokenize types typing
unicodedata urllib warnings weakref zipimport
""")
#: what an interpreter or a build of a package brings along, not a module anyone imports
_NOT_IMPORTS = ("__main__", "_distutils_hack", "cython_runtime", "_cython_")


def test_a_one_file_check_imports_no_module_beyond_its_list(tmp_path: Path) -> None:
    """The whole list of modules a one-file check imports: a new import fails here, so that
    start-up only grows on purpose (docs/design/product.md *Command line*, start-up)."""
    shutil.copytree(SKILL, tmp_path / SKILL.name)
    _, report = run_as_the_command(tmp_path, "check", f"{SKILL.name}/SKILL.md", "--no-personal")
    assert report["code"] == 0
    modules = set(report["modules"])
    ours = {name for name in modules if name.split(".")[0] == "wave_lsp"}
    assert sorted(ours - ONE_FILE_MODULES) == []
    assert sorted(ONE_FILE_MODULES - ours) == []  # a module no longer needed: take it off the list
    tops = {name.split(".")[0] for name in modules} - {"wave_lsp"}
    tops = {top for top in tops if not top.startswith(_NOT_IMPORTS)}
    assert sorted(tops - set(sys.stdlib_module_names)) == sorted(ONE_FILE_PACKAGES)
    version, stdlib = ONE_FILE_STDLIB
    if sys.version_info[:2] == version:
        assert sorted((tops & set(sys.stdlib_module_names)) - stdlib) == []


def test_the_command_resumes_the_collector_after_start_up(tmp_path: Path) -> None:
    shutil.copytree(SKILL, tmp_path / SKILL.name)
    _, report = run_as_the_command(tmp_path, "check", SKILL.name, "--no-personal")
    assert report["gc_enabled"] is True
    assert report["frozen"] > 10_000  # what start-up made is out of the collector's way
    _, report = run_as_the_command(tmp_path, "rule", "SK001")
    assert report["gc_enabled"] is True


def test_a_program_calling_main_keeps_its_collector(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SKILL, tmp_path / SKILL.name)
    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    assert main(["check", SKILL.name, "--no-personal"]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    assert "SK028" in capsys.readouterr().out


ARGUMENT_LISTS = [
    ["check"],
    ["check", "a", "b/SKILL.md", "--format", "json", "--select", "SK0,SK1", "--ignore", "SK028",
     "--severity", "SK001=off", "--fix", "--unsafe-fixes", "-j", "2", "--target", "claude-code",
     "--no-personal"],
    ["check", "--diff", "--jobs=1", "."],
    ["rule", "SK034", "--format", "json"],
    ["rule", "--all"],
    ["preview", "x/SKILL.md", "a b", "--execute", "--session-id", "s", "--format", "json"],
    ["list", "dir", "--format", "json", "--target", "agentskills"],
    ["mcp", "--root", "somewhere"],
    ["serve", "--tcp", "127.0.0.1:0", "--log-level", "debug"],
]


@pytest.mark.parametrize("arguments", ARGUMENT_LISTS, ids=lambda a: " ".join(a))
def test_the_parser_of_one_subcommand_parses_as_the_whole_parser(arguments: list[str]) -> None:
    alone = build_parser(arguments[0]).parse_args(arguments)
    assert vars(alone) == vars(build_parser().parse_args(arguments))


@pytest.mark.parametrize("arguments", [["check", "--format", "xml"], ["check", "--bogus"],
                                       ["rule", "--all", "--format", "yaml"], ["list", "-j", "2"]])
def test_the_parser_of_one_subcommand_rejects_as_the_whole_parser(
        arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    messages = []
    for parser in (build_parser(arguments[0]), build_parser()):
        with pytest.raises(SystemExit) as exit_:
            parser.parse_args(arguments)
        assert exit_.value.code == 2
        messages.append(capsys.readouterr().err)
    assert messages[0] == messages[1] and "error:" in messages[0]


@pytest.mark.parametrize("columns", [None, "60", "200", "0", "-3", "wide"])
def test_help_is_as_wide_as_shutil_measures_the_terminal(columns: str | None, monkeypatch) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    expected = argparse.HelpFormatter("wave-lsp")  # measures with shutil.get_terminal_size
    assert _help_formatter(prog="wave-lsp")._width == expected._width
