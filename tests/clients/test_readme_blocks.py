"""Every block of the README, and of the docs pages it sends the details to
(tests/clients/readme_snippets.py `DOCUMENTS`), is tested, not only the ones someone remembered
(issue 29): each fenced block carries a marker line (`<!-- KIND: NAME -->`) and each marker is named
here with the test that proves the block. The blocks without a test elsewhere are checked in this
module: the set-up commands are the ones `.ci/run` runs, the output the first command prints is what
it prints, each synopsis lists exactly the options the command accepts, the `[tool.wave-lsp]`
example has the effect it promises, the JSON example has the keys and values of the real output, the
`.mcp.json` example is the plugin's, the plugin's install line names the marketplace and plugin that
exist, and the oracle commands name modules and scripts that exist. Every command written inline in
the prose (`wave-lsp …`, `python -m …`, scripts) is a valid invocation; those that run offline on
the examples are run."""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.clients import test_readme
from tests.clients.readme_snippets import DOCUMENTS, documents_text
from wave_lsp.cli import build_parser
from wave_lsp.core.facts.profiles import TARGETS

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
_MARKED = re.compile(r"^(?P<indent> *)<!-- (?P<kind>readme-[\w]+|editor-snippet): (?P<name>[\w.-]+) -->\n"
                     r"(?P=indent)```(?P<lang>\w*)\n(?P<body>.*?)^(?P=indent)```$",
                     re.MULTILINE | re.DOTALL)
_OPENING_FENCE = re.compile(r"^ *```")

#: every marked block and the test that proves it (file of tests/clients::test); a block must be
#: here to exist
COVERED = {
    ("readme-shell", "install"):
        "test_readme.py::test_the_install_block_names_only_clone_installs",
    ("readme-shell", "offline"):
        "test_readme.py::test_the_offline_shell_block_runs",
    ("readme-shell", "set-up"):
        "test_readme_blocks.py::test_the_set_up_commands_are_what_ci_runs",
    ("readme-output", "check-examples"):
        "test_readme_blocks.py::test_the_shown_output_is_what_the_first_command_prints",
    ("readme-synopsis", "check"):
        "test_readme_blocks.py::test_each_synopsis_lists_the_options_there_are",
    ("readme-synopsis", "preview"):
        "test_readme_blocks.py::test_each_synopsis_lists_the_options_there_are",
    ("readme-synopsis", "rule"):
        "test_readme_blocks.py::test_each_synopsis_lists_the_options_there_are",
    ("readme-synopsis", "list"):
        "test_readme_blocks.py::test_each_synopsis_lists_the_options_there_are",
    ("readme-synopsis", "mcp"):
        "test_readme_blocks.py::test_each_synopsis_lists_the_options_there_are",
    ("readme-config", "pyproject"):
        "test_readme_blocks.py::test_the_pyproject_example_does_what_it_says",
    ("readme-json", "check-output"):
        "test_readme_blocks.py::test_the_json_example_is_the_real_output",
    ("readme-yaml", "action"):
        "test_readme.py::test_the_action_snippet_pins_this_versions_tag",
    ("readme-yaml", "pre-commit"):
        "test_readme.py::test_the_pre_commit_snippet_is_a_valid_pinned_config",
    ("editor-snippet", "neovim-0.11"):
        "test_neovim.py::test_neovim_0_11_with_the_readme_snippet",
    ("editor-snippet", "neovim-0.7"):
        "test_neovim.py::test_neovim_0_7_with_the_readme_snippet",
    ("editor-snippet", "emacs-eglot"):
        "test_emacs.py::test_emacs_eglot_with_the_readme_snippet",
    ("editor-snippet", "emacs-lsp-mode"):
        "test_other_editors.py::test_emacs_lsp_mode_with_the_readme_snippet",
    ("editor-snippet", "vim-ale"):
        "test_other_editors.py::test_vim_ale_with_the_readme_snippet",
    ("editor-snippet", "helix"):
        "test_readme_snippets.py::test_helix_snippet_starts_a_working_server",
    ("editor-snippet", "zed"):
        "test_readme_snippets.py::test_zed_snippet_starts_a_working_server",
    ("readme-claude", "plugin"):
        "test_readme_blocks.py::test_the_plugin_lines_name_the_marketplace_and_plugin",
    ("readme-json", "mcp-config"):
        "test_readme_blocks.py::test_the_mcp_json_example_is_the_plugins",
    ("readme-shell", "oracle"):
        "test_readme_blocks.py::test_the_oracle_commands_name_what_exists",
}


def marked_blocks() -> dict[tuple[str, str], tuple[str, str]]:
    """(kind, name) -> (fence language, text, dedented) of every marked block of the documents."""
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for match in (m for document in DOCUMENTS for m in _MARKED.finditer(document.read_text("utf-8"))):
        key = (match["kind"], match["name"])
        assert key not in found, f"two blocks are marked {key}"
        found[key] = (match["lang"], textwrap.dedent(match["body"]))
    return found


def block(kind: str, name: str) -> str:
    return marked_blocks()[(kind, name)][1]


def test_every_block_is_marked_and_named_with_its_test() -> None:
    blocks = 0
    for document in DOCUMENTS:
        lines = document.read_text("utf-8").splitlines()
        opening = []
        inside = False
        for number, line in enumerate(lines):
            if _OPENING_FENCE.match(line):
                if not inside:
                    opening.append(number)
                inside = not inside
        assert not inside, f"{document.name} has an unclosed fence"
        unmarked = [f"{document.name} line {n + 1}: {lines[n + 1][:50]}" for n in opening
                    if not re.match(r" *<!-- (readme-[\w]+|editor-snippet): [\w.-]+ -->$", lines[n - 1])]
        assert not unmarked, f"fenced blocks without a marker naming their test: {unmarked}"
        blocks += len(opening)
    assert set(marked_blocks()) == set(COVERED)
    assert blocks == len(COVERED)


@pytest.mark.parametrize("where", sorted(set(COVERED.values())))
def test_each_named_test_exists(where: str) -> None:
    path, _, name = where.partition("::")
    source = (Path(__file__).parent / path).read_text("utf-8")
    assert re.search(rf"^(async )?def {re.escape(name)}\(", source, re.MULTILINE), where


# -- the blocks ----------------------------------------------------------------------------------
def commands_of(text: str) -> list[str]:
    """The commands of a shell block: comment lines and trailing `  # …` comments dropped."""
    found = []
    for line in text.splitlines():
        command = line.split("  #", 1)[0].strip()
        if command and not command.startswith("#"):
            found.append(command)
    return found


def test_the_set_up_commands_are_what_ci_runs() -> None:
    """The two commands make the same environment and run the same tests as `.ci/run` (which
    adds only `--quiet`), and the first checks the examples the output block shows."""
    first, second = commands_of(block("readme-shell", "set-up"))
    assert first == ("python3 -m venv .venv && .venv/bin/pip install -e . && "
                     ".venv/bin/wave-lsp check examples/skills")
    assert second == ("python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && "
                      ".venv/bin/python -m pytest -n auto")
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert "\npython3 -m venv .venv\n" in ci
    assert "\n.venv/bin/pip install --quiet -e '.[test]'\n" in ci
    assert "\n.venv/bin/python -m pytest -n auto\n" in ci


def run_in_examples(tmp_path: Path, command: str) -> subprocess.CompletedProcess[str]:
    """`command` (a shell line of the README) run in a folder holding copies of the examples
    and the plugins, with this environment's `wave-lsp` and an empty HOME."""
    if not (tmp_path / "examples").exists():
        shutil.copytree(REPO / "examples", tmp_path / "examples")
        shutil.copytree(REPO / "plugins", tmp_path / "plugins")
    environment = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path),
                   "NO_COLOR": "1"}
    return subprocess.run(["bash", "-c", command], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_the_shown_output_is_what_the_first_command_prints(tmp_path: Path) -> None:
    result = run_in_examples(tmp_path, "wave-lsp check examples/skills")
    assert result.returncode == 1, result.stderr  # "and exits 1 because some findings are errors"
    printed = result.stdout.splitlines()
    for line in block("readme-output", "check-examples").splitlines():
        if line.endswith(" …"):
            assert any(p.startswith(line.removesuffix(" …")) for p in printed), line
        else:
            assert line in printed, line
    summary, not_loaded = block("readme-output", "check-examples").splitlines()[-2:]
    assert printed[-2:] == [summary, not_loaded]


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    (action,) = actions
    return dict(action.choices)


def test_each_synopsis_lists_the_options_there_are() -> None:
    """Each option of the command, and its choices, are in the synopsis, and nothing else is
    (`-h`/`--help` and the one-letter aliases aside)."""
    commands = subcommands()
    for (kind, name), (_, text) in marked_blocks().items():
        if kind != "readme-synopsis":
            continue
        synopsis = "\n".join(line for line in text.splitlines() if line.startswith(("wave-lsp", " ")))
        assert synopsis.startswith(f"wave-lsp {name}"), (name, synopsis)
        command = commands[name]
        accepted = {option: action for action in command._actions for option in action.option_strings
                    if option.startswith("--") and option != "--help"}
        written = set(re.findall(r"--[a-z][\w-]*", synopsis))
        assert written == set(accepted), (name, written ^ set(accepted))
        for option, action in accepted.items():
            shown = re.search(rf"{option} ([\w|-]+)", synopsis)
            if action.choices and shown and "|" in shown[1]:  # else a metavar (`--target T`)
                assert set(shown[1].split("|")) == set(action.choices), (name, option)
    targets = re.search(r"# T: (.*?)\n *\[", block("readme-synopsis", "check"), re.DOTALL)
    assert targets and targets[1].replace("#", " ").split() == list(TARGETS)
    installs = [c for c in commands_of(block("readme-synopsis", "mcp")) if not c.startswith("wave-lsp")]
    assert installs == ["pipx install '.[mcp]'"]


SKILL = "---\nname: demo\ndescription: Formats <b> tags.\n---\n# Demo\n"


def check_json(project: Path) -> dict:
    result = subprocess.run([sys.executable, "-m", "wave_lsp", "check", ".", "--format", "json",
                             "--no-personal"], cwd=project, capture_output=True, text=True,
                            timeout=120, env={"HOME": str(project), "PATH": "/usr/bin:/bin"})
    assert result.returncode in (0, 1), result.stderr
    loaded: dict = json.loads(result.stdout)
    return loaded


def test_the_pyproject_example_does_what_it_says(tmp_path: Path) -> None:
    """`target`, `ignore` and `severity` of the example each change the result of the same skill."""
    project = tmp_path / "project"
    (project / "skills" / "demo").mkdir(parents=True)
    (project / "skills" / "demo" / "SKILL.md").write_text(SKILL, "utf-8")
    before = check_json(project)
    (project / "pyproject.toml").write_text(block("readme-config", "pyproject"), "utf-8")
    after = check_json(project)

    def severities(output: dict) -> dict[str, str]:
        return {f["code"]: f["severity"] for f in output["files"][0]["findings"]}

    assert before["target"] == "wave" and after["target"] == "claude-code"
    assert "SK056" in severities(before) and "SK056" not in severities(after)
    assert severities(before)["SK054"] == "information" and severities(after)["SK054"] == "warning"


def test_the_json_example_is_the_real_output(tmp_path: Path) -> None:
    """Its keys are the real ones at every level it shows, and every value it shows (`…` stands
    for what it leaves out) is the real value, the summary included."""
    example = json.loads(block("readme-json", "check-output").replace("{…}", "{}"))
    result = run_in_examples(tmp_path, "wave-lsp check examples/skills --format json")
    real = json.loads(result.stdout)

    def same(shown: object, actual: object, where: str) -> None:
        if isinstance(shown, str) and shown.endswith("…"):
            assert isinstance(actual, str) and actual.startswith(shown.removesuffix("…")), where
        elif isinstance(shown, dict):
            assert isinstance(actual, dict), where
            if shown:  # `{…}`: left out
                assert set(shown) == set(actual), (where, set(shown) ^ set(actual))
                for key, value in shown.items():
                    same(value, actual[key], f"{where}.{key}")
        elif isinstance(shown, list):
            assert isinstance(actual, list) and len(shown) <= len(actual), where
            for index, value in enumerate(shown):
                same(value, actual[index], f"{where}[{index}]")
        else:
            assert shown == actual, (where, shown, actual)

    (shown_file,) = example["files"]
    real_file = next(f for f in real["files"] if f["path"] == shown_file["path"])
    shown_finding = shown_file["findings"][0]
    real_finding = next(f for f in real_file["findings"] if f["code"] == shown_finding["code"])
    same({**shown_file, "findings": [shown_finding]}, {**real_file, "findings": [real_finding]},
         "files[]")
    same({k: v for k, v in example.items() if k != "files"},
         {k: v for k, v in real.items() if k != "files"}, "$")


def test_the_plugin_lines_name_the_marketplace_and_plugin() -> None:
    marketplace = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text("utf-8"))
    lines = block("readme-claude", "plugin").splitlines()
    assert lines[0] == "/plugin marketplace add /path/to/your/clone/of/wave-lsp"
    (plugin,) = marketplace["plugins"]
    assert lines[1] == f"/plugin install {plugin['name']}@{marketplace['name']}"
    assert (REPO / plugin["source"]).is_dir()


def test_the_mcp_json_example_is_the_plugins() -> None:
    shown = json.loads(block("readme-json", "mcp-config"))
    plugin = json.loads((REPO / "plugins" / "wave-lsp" / ".mcp.json").read_text("utf-8"))
    assert shown == plugin
    (server,) = shown["mcpServers"].values()
    build_parser().parse_args(server["args"])  # a command the program has


def module_or_script(words: list[str]) -> None:
    """`python -m MODULE …` names an importable module, `python FILE …` a file of the checkout;
    `-m pytest` options are pytest's or this project's (`--slow`)."""
    if words[1] == "-m":
        assert importlib.util.find_spec(words[2]) is not None, words
        if words[2] == "pytest":
            for option in (w for w in words[3:] if w.startswith("--")):
                assert option in {"--slow", "--update-golden"}, words
            for path in (w for w in words[3:] if not w.startswith("-") and "/" in w):
                assert (REPO / path).exists(), words
    else:
        assert (REPO / words[1]).is_file(), words


def test_the_oracle_commands_name_what_exists() -> None:
    """They need the network (npm) and the real Claude Code, so they are not run here
    (tests/oracle runs them under `--slow`); what they name exists."""
    commands = commands_of(block("readme-shell", "oracle"))
    assert len(commands) == 4
    for command in commands:
        words = shlex.split(command)
        assert words[0] == ".venv/bin/python", command
        module_or_script(words)


# -- commands in the prose -----------------------------------------------------------------------
#: the placeholder words of the prose, as a user would fill them in
PLACEHOLDERS = {"CODE": "SK021", "PATH": "examples/skills/pr-review", "DIR": "examples",
                "PROBE": "basic"}
#: commands that wait for a client on stdin: parsed, not run
SERVERS = {"serve", "mcp"}


def prose() -> str:
    return re.sub(r"^ *```.*?^ *```$", "", documents_text(), flags=re.MULTILINE | re.DOTALL)


def inline_commands(program: str) -> list[str]:
    # each span that starts with the program (not every pair of backticks: the prose also has
    # double-backtick spans that hold a backtick)
    spans = re.findall(rf"(?<!`)`({re.escape(program)} [^`]+|{re.escape(program)})`(?!`)", prose())
    return sorted({" ".join(span.split()) for span in spans})


def test_every_wave_lsp_command_in_the_prose_is_valid_and_the_offline_ones_run(tmp_path: Path) -> None:
    commands = inline_commands("wave-lsp")
    assert len(commands) >= 8, commands
    parser = build_parser()
    ran = 0
    for command in commands:
        words = [PLACEHOLDERS.get(word, word) for word in shlex.split(command.split(" > ", 1)[0])]
        if len(words) <= 2 and not words[-1].startswith("-"):
            # the program or a command named (`wave-lsp preview`), not an invocation
            assert len(words) == 1 or words[1] in subcommands(), command
            continue
        try:
            parser.parse_args(words[1:])
        except SystemExit as exit_:
            assert exit_.code == 0 and words[1:] in (["--version"], ["--help"]), command
        if len(words) > 2 and words[1] not in SERVERS:
            line = " ".join(shlex.quote(w) for w in words)
            if " > " in command:
                line += " > " + shlex.quote(command.split(" > ", 1)[1])
            result = run_in_examples(tmp_path, line)
            assert result.returncode in (0, 1), (command, result.stderr)
            assert "Traceback" not in result.stderr, command
            ran += 1
    assert ran >= 4
    sarif = json.loads((tmp_path / "wave-lsp.sarif").read_text("utf-8"))
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]


def test_every_python_command_in_the_prose_names_what_exists() -> None:
    commands = inline_commands("python")
    assert {"python -m wave_lsp.docs", "python benchmarks/speed.py"} <= set(commands), commands
    for command in commands:
        words = shlex.split(command)
        if len(words) >= 3 or (len(words) == 2 and words[1] != "-m"):
            module_or_script(words)


def test_the_other_tools_the_prose_names_are_there() -> None:
    assert (REPO / "vscode-client" / "e2e" / "run.sh").is_file()
    manifest = json.loads((REPO / "vscode-client" / "package.json").read_text("utf-8"))
    assert "package" in manifest["scripts"]
    release = (REPO / "scripts" / "release").read_text("utf-8")
    assert "SHA256SUMS" in release and "--no-vsix" in release
    assert "`wave-lsp rule CODE` is the way to read a rule's page" in README.read_text("utf-8")
    # the links of this README are checked by test_readme
    assert test_readme.READMES[0] == README
