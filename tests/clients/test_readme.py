"""The README works as pasted, and so do the docs pages it sends the details to
(tests/clients/readme_snippets.py `DOCUMENTS`): the offline shell blocks run (each command a valid
invocation of the installed `wave-lsp`, on a copy of the examples), every Markdown link in them and
in the VS Code extension's README is relative and leads to a file or heading that exists, every web
address is under the one base the README names as where the project will be published (and only
in a snippet that says so), and the pre-commit and Action snippets are valid and pinned to this
version's tag (`pre-commit validate-config` checks the former)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import wave_lsp
from tests.clients.readme_snippets import DOCUMENTS, documents_text
from tests.core.test_citations import github_anchor

REPO = Path(__file__).resolve().parents[2]
READMES = [*DOCUMENTS, REPO / "vscode-client" / "README.md"]
#: the address the README gives for the repository once it is published; no other web address may
#: appear (a link that cannot be reached is worse than none: docs ship in the package)
PUBLISHED_AT = "https://github.com/wave-lsp/wave-lsp"
_BLOCK = re.compile(r"^<!-- readme-(?P<kind>shell|yaml): (?P<name>[\w-]+) -->\n```\w*\n(?P<body>.*?)^```$",
                    re.MULTILINE | re.DOTALL)
_FENCE = re.compile(r"^```.*?^```$", re.MULTILINE | re.DOTALL)
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def blocks(kind: str) -> dict[str, str]:
    text = documents_text()
    return {m["name"]: m["body"] for m in _BLOCK.finditer(text) if m["kind"] == kind}


def test_the_offline_shell_block_runs(tmp_path: Path) -> None:
    """Each command of the block runs with the `wave-lsp` of this environment, in a folder holding
    a copy of the examples: no usage error (exit 2), no traceback, and the findings it promises."""
    block = blocks("shell").get("offline")
    assert block, "no document has a <!-- readme-shell: offline --> block"
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    environment = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path),
                   "NO_COLOR": "1"}
    commands = [line.split("  #", 1)[0].strip() for line in block.splitlines()]
    commands = [c for c in commands if c]
    assert len(commands) == 4
    outputs = []
    for command in commands:
        assert command.startswith("wave-lsp "), command
        result = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=environment,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode in (0, 1), (command, result.stderr)
        assert "Traceback" not in result.stderr and "usage:" not in result.stderr, command
        outputs.append(result.stdout)
    check, diff, preview, rule = outputs
    assert "SK021" in check and "Checked 5 files" in check
    assert diff.startswith("--- a/")
    assert preview.startswith("Base directory for this skill: ") and "pull request 42 " in preview
    assert rule.startswith("SK021 ")
    # --diff wrote nothing
    assert not subprocess.run(["diff", "-r", str(REPO / "examples"), str(tmp_path / "examples")],
                              capture_output=True).returncode


def test_the_install_block_names_only_clone_installs() -> None:
    """Only what works before publication: installs from the clone, the wheel that
    scripts/release builds (named as it names it), and the index form marked as not working."""
    lines = [line.split("#", 1)[0].strip() for line in blocks("shell")["install"].splitlines()]
    assert [line for line in lines if line] == ["pipx install .", "uv tool install .", "pip install ."]
    text = (REPO / "README.md").read_text("utf-8")
    assert f"pipx install dist/wave_lsp-{wave_lsp.__version__}-py3-none-any.whl" in text
    assert "`pipx install wave-lsp`" in text and "**that form\ndoes not work yet.**" in text
    assert "git+https://" not in text


def headings(markdown: Path) -> set[str]:
    """The anchors GitHub makes of a Markdown file's headings (fenced blocks left out)."""
    prose = _FENCE.sub("", markdown.read_text("utf-8"))
    return {github_anchor(m[1]) for m in re.finditer(r"^#+ (.+)$", prose, re.MULTILINE)}


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_link_is_relative_and_leads_somewhere(readme: Path) -> None:
    """A link leads to a file that exists and, with `#anchor`, to a heading of it (in this
    README or in the Markdown file it names)."""
    links = _LINK.findall(_FENCE.sub("", readme.read_text("utf-8")))
    assert links
    for target in links:
        assert not re.match(r"\w+:", target), f"{readme.name}: {target} is not relative"
        path, _, anchor = target.partition("#")
        linked = readme.parent / path if path else readme
        assert linked.exists(), f"{readme.name}: {target} does not exist"
        if anchor:
            assert linked.suffix == ".md" and anchor in headings(linked), (
                f"{readme.name}: no heading for {target}")


def test_web_addresses_only_where_they_say_they_are_not_published_yet() -> None:
    text = documents_text()
    for match in re.finditer(r"https?://[^\s)`'\"]+", text):
        assert match[0].startswith(PUBLISHED_AT), match[0]
        around = text[max(0, match.start() - 600):match.start()]
        assert "published" in around, f"{match[0]} is not said to be the future address"


def test_the_pre_commit_snippet_is_a_valid_pinned_config(tmp_path: Path) -> None:
    snippet = blocks("yaml")["pre-commit"]
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(snippet, "utf-8")
    result = subprocess.run([sys.executable, "-m", "pre_commit", "validate-config", str(config)],
                            capture_output=True, text=True, timeout=120,
                            env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
                                 "PRE_COMMIT_HOME": str(tmp_path / "cache")})
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr
    assert f"rev: v{wave_lsp.__version__}\n" in snippet
    hook = (REPO / ".pre-commit-hooks.yaml").read_text("utf-8")
    assert "- id: wave-lsp" in snippet and "- id: wave-lsp" in hook


def test_the_action_snippet_pins_this_versions_tag() -> None:
    snippet = blocks("yaml")["action"]
    assert re.search(r"uses: wave-lsp/wave-lsp@v" + re.escape(wave_lsp.__version__) + r"\n", snippet)


def test_the_example_workflows_pin_this_versions_release() -> None:
    annotations = (REPO / "docs" / "ci" / "annotations.yml").read_text("utf-8")
    assert f"uses: wave-lsp/wave-lsp@v{wave_lsp.__version__}\n" in annotations
    assert "setup-python" not in annotations  # the action sets up its own Python
    scanning = (REPO / "docs" / "ci" / "code-scanning.yml").read_text("utf-8")
    assert f"pip install wave-lsp=={wave_lsp.__version__}\n" in scanning
    assert "not on the package index yet" in scanning
