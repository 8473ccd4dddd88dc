"""Installing without a checkout: `python -m build` makes a wheel and an sdist with the schema and
the rule catalog inside; the wheel installs into a fresh virtual environment and checks the
bundled examples from another directory; `--version` shows the one version of the package. The
GitHub Action (`action.yml`) runs its steps' commands here as GitHub would run them, and the
example workflows under docs/ci are valid YAML that use the documented options. The README's
install lines (pipx, uv, pip) run as written in a copy of the checkout, and so does the command
`wave-lsp mcp` names when the `mcp` extra is missing (docs/agents.md *MCP server*)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest
from ruamel.yaml import YAML

import wave_lsp
from tests.helpers import git_checkout_or_skip
from wave_lsp.core.checking.catalog import rules

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)], check=True,
                   capture_output=True, timeout=540)
    return out


#: the tests of the built artefacts share one build: under `-n auto` on one worker (the
#: module-scoped fixture is made once per worker; two workers built the package twice)
ONE_BUILD = pytest.mark.xdist_group("dist-artefacts")


@pytest.mark.slow
@ONE_BUILD
@pytest.mark.timeout(600)  # builds in isolated environments and installs from the index
def test_wheel_and_sdist_hold_the_data(artefacts: Path) -> None:
    wheel = next(artefacts.glob("wave_lsp-*.whl"))
    sdist = next(artefacts.glob("wave_lsp-*.tar.gz"))
    assert wheel.name.startswith(f"wave_lsp-{wave_lsp.__version__}-")
    names = zipfile.ZipFile(wheel).namelist()
    assert "wave_lsp/_data/skill-frontmatter.schema.json" in names
    assert {"wave_lsp/data/rules.toml", "wave_lsp/data/readonly.toml",
            "wave_lsp/data/readonly_runtime.toml"} <= set(names)
    # the rule pages the editor links to when no public address is configured
    assert {f"wave_lsp/_data/rules/{code}.md" for code in rules()} <= set(names)
    assert not any(name.startswith(("tests/", "examples/")) for name in names)
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    root = sdist.name.removesuffix(".tar.gz")
    for needed in ("pyproject.toml", "README.md", "CHANGELOG.md", "LICENSE",
                   "schemas/skill-frontmatter.schema.json", "wave_lsp/data/rules.toml",
                   "wave_lsp/data/readonly.toml", "wave_lsp/data/readonly_runtime.toml"):
        assert f"{root}/{needed}" in members, needed


@pytest.mark.slow
@ONE_BUILD
@pytest.mark.timeout(600)
def test_the_wheel_works_in_a_fresh_environment(artefacts: Path, tmp_path: Path) -> None:
    environment = tmp_path / "env"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    wheel = next(artefacts.glob("wave_lsp-*.whl"))
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True,
                   capture_output=True, timeout=540)
    program = environment / "bin" / "wave-lsp"
    version = subprocess.run([str(program), "--version"], capture_output=True, text=True,
                             check=True, timeout=60)
    assert version.stdout.strip() == f"wave-lsp {wave_lsp.__version__}"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run([str(program), "check", str(REPO / "examples" / "skills"),
                             "--no-personal"], cwd=elsewhere, capture_output=True, text=True,
                            timeout=120, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1, result.stderr
    assert "SK021" in result.stdout
    # the rule pages the editor links to are the ones installed with the package
    described = subprocess.run([str(program), "rule", "SK021", "--format", "json"], cwd=elsewhere,
                               capture_output=True, text=True, check=True, timeout=60,
                               env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    page = Path(json.loads(described.stdout)["page"])
    assert page.is_relative_to(environment) and page.read_text("utf-8").startswith("# SK021 ")
    summary, not_loaded = result.stdout.rstrip().splitlines()[-2:]
    assert summary.startswith("Checked 5 files:")
    assert not_loaded.startswith("2 skills are not loaded by Wave: ")


def _action_steps(inputs: dict[str, str], context: dict[str, str],
                  ) -> list[tuple[str, dict[str, str]]]:
    """(script, environment) of each `run` step of action.yml with these inputs, as GitHub
    expands `${{ inputs.* }}` and the other `${{ … }}` expressions (`context`: expression ->
    value) into the step's `env`. The `uses` steps are GitHub's own actions; the one the action
    uses must set up a Python without touching the job's."""
    action = YAML(typ="safe").load((REPO / "action.yml").read_text("utf-8"))
    values = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    values.update(inputs)

    def expand(match: re.Match[str]) -> str:
        name = match.group(1)
        return values[name.removeprefix("inputs.")] if name.startswith("inputs.") else context[name]

    steps = []
    for step in action["runs"]["steps"]:
        if "uses" in step:
            assert step["uses"].startswith("actions/setup-python@"), step
            assert step["with"]["update-environment"] is False
            assert step["with"]["python-version"] == "${{ inputs.python-version }}"
            continue
        environment = {key: re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", expand, expression)
                       for key, expression in step.get("env", {}).items()}
        assert "${{" not in step["run"], "inputs must reach the script through env only"
        steps.append((step["run"], environment))
    return steps


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_action_installs_and_annotates(tmp_path: Path) -> None:
    """The action's steps, with a Python like setup-python's (the base interpreter, outside any
    virtual environment) and nothing on PATH but the system's: it makes its own virtual
    environment under the runner's temporary folder, installs there and checks."""
    python = Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    skills = tmp_path / "repo" / "skills"
    (skills / "notes").mkdir(parents=True)
    (skills / "notes" / "SKILL.md").write_text(
        "---\nname: notes\ndescription: Drafts notes. Use when: asked\nallowed_tools: Read\n---\n",
        "utf-8")
    context = {"github.action_path": str(REPO), "runner.temp": str(tmp_path / "runner-temp"),
               "steps.python.outputs.python-path": str(python)}
    install, check = _action_steps({"paths": "skills", "target": "claude-code"}, context)
    path = "/usr/bin:/bin"
    subprocess.run(["bash", "-c", install[0]], env={**install[1], "PATH": path, "HOME": str(tmp_path)},
                   check=True, capture_output=True, timeout=540)
    assert (tmp_path / "runner-temp" / "wave-lsp-venv" / "bin" / "wave-lsp").is_file()
    result = subprocess.run(["bash", "-c", check[0]], cwd=tmp_path / "repo", capture_output=True,
                            text=True, timeout=120,
                            env={**check[1], "PATH": path, "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr  # no error under claude-code
    # SK021 is information there (the quoting retry loads it), the misspelt key a warning
    assert "::notice file=skills/notes/SKILL.md,line=3," in result.stdout
    assert "title=SK021 " in result.stdout
    assert "::warning file=skills/notes/SKILL.md,line=4," in result.stdout
    assert "title=SK071 " in result.stdout


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_scripts_release_builds_the_artefacts_with_checksums(tmp_path: Path) -> None:
    """`scripts/release --no-vsix` (the .vsix needs Node; vscode-client/e2e builds and tests it):
    the sdist and the wheel of this version, and SHA256SUMS that `sha256sum -c` accepts."""
    out = tmp_path / "out"
    result = subprocess.run([str(REPO / "scripts" / "release"), "--out", str(out), "--no-vsix"],
                            capture_output=True, text=True, timeout=540,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                 "PYTHON": sys.executable})
    assert result.returncode == 0, result.stderr
    version = wave_lsp.__version__
    assert sorted(p.name for p in out.iterdir()) == [
        "SHA256SUMS", f"wave_lsp-{version}-py3-none-any.whl", f"wave_lsp-{version}.tar.gz"]
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=out, capture_output=True,
                           text=True, timeout=60)
    assert check.returncode == 0 and check.stdout.count(": OK") == 2, check.stdout


def test_the_example_workflows_use_real_options() -> None:
    for workflow in sorted((REPO / "docs" / "ci").glob("*.yml")):
        document = YAML(typ="safe").load(workflow.read_text("utf-8"))
        steps = [step for job in document["jobs"].values() for step in job["steps"]]
        runs = " ".join(step.get("run", "") for step in steps)
        if "wave-lsp check" in runs:
            assert "--format sarif" in runs and "--no-personal" in runs
        uses = [step["uses"] for step in steps if "uses" in step]
        assert uses, workflow


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_pre_commit_hook_runs_from_the_repository(tmp_path: Path) -> None:
    """`pre-commit try-repo` builds the hook's environment from this repository, as a user's
    `.pre-commit-config.yaml` that points at it would: the hook fails on an error, checks a stray
    skill in a skills root at the repository root, reads no personal folder (`--no-personal`) and
    shows its findings and summary when it passes (`verbose: true`)."""
    git_checkout_or_skip(REPO)  # pre-commit takes a repository
    project = tmp_path / "project"
    # in a Wave root: with no target configured the file is checked for Wave, where SK021 is an
    # error (under `.claude/skills` it would be Claude Code's, whose quoting retry loads it)
    skill = project / ".wave" / "skills" / "notes" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: notes\ndescription: Drafts notes. Use when: asked\n---\n", "utf-8")
    stray = project / ".claude" / "skills" / "stray.md"  # SK002, a warning
    stray.parent.mkdir(parents=True)
    stray.write_text("---\nname: stray\ndescription: Strays. Use when asked.\n---\nBody\n", "utf-8")
    # a personal skill of the same name would shadow the project's (SK130) if it were read
    personal = tmp_path / ".claude" / "skills" / "stray" / "SKILL.md"
    personal.parent.mkdir(parents=True)
    personal.write_text(stray.read_text("utf-8"), "utf-8")
    environment = {"HOME": str(tmp_path), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
                   "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
                   "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
                   "GIT_COMMITTER_EMAIL": "t@example.invalid"}

    def try_repo() -> subprocess.CompletedProcess[str]:
        subprocess.run(["git", "add", "-A", "."], cwd=project, check=True, env=environment)
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "wave-lsp",
                               "--all-files"], cwd=project, capture_output=True, text=True,
                              timeout=270, env=environment)

    subprocess.run(["git", "init", "-q"], cwd=project, check=True, env=environment)
    result = try_repo()
    assert result.returncode == 1, result.stdout + result.stderr  # SK021 is an error under wave
    assert "SK021" in result.stdout
    assert ".claude/skills/stray.md:1:1: SK002" in result.stdout, result.stdout
    assert "SK130" not in result.stdout, result.stdout
    skill.unlink()
    passed = try_repo()  # warnings only: the hook passes, and says what it found
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "SK002" in passed.stdout and "Checked 1 file: 0 errors, 1 warning" in passed.stdout, passed.stdout


def _clone_without_environments(destination: Path) -> Path:
    """This checkout's files as a user's clone has them (no virtual environment, no build
    output, no node_modules)."""
    import shutil

    shutil.copytree(REPO, destination, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "dist", "build", "__pycache__", ".pytest_cache",
        ".mypy_cache", ".ruff_cache", "*.vsix"))
    return destination


def _install_block() -> list[str]:
    from tests.clients.test_readme import blocks

    return [line.split("#", 1)[0].strip() for line in blocks("shell")["install"].splitlines()
            if line.split("#", 1)[0].strip()]


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("tool", ["pipx", "uv", "pip"])
def test_each_install_command_works_and_so_does_its_mcp_hint(tool: str, tmp_path: Path) -> None:
    """The README's install line for `tool`, run as written in a clone, gives a `wave-lsp`; that
    `wave-lsp mcp` (no `mcp` extra) names a command which, run as written, adds the SDK to the
    same environment. pipx and uv are used when they are installed (no test dependency; .ci/run
    installs them);
    pip runs in a fresh virtual environment, the "active" one."""
    import shutil

    (command,) = [line for line in _install_block() if line.split()[0] == tool]
    clone = _clone_without_environments(tmp_path / "wave-lsp")
    # the user's environment (index and certificate settings) with the tools' homes in tmp_path
    environment = {**os.environ, "HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin",
                   "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "bin"),
                   "UV_TOOL_DIR": str(tmp_path / "uv-tools"), "UV_TOOL_BIN_DIR": str(tmp_path / "bin"),
                   "UV_CACHE_DIR": str(tmp_path / "uv-cache")}
    if tool == "pip":
        venv.create(tmp_path / "active", with_pip=True)
        bin_dir = tmp_path / "active" / "bin"
        environment.update(VIRTUAL_ENV=str(tmp_path / "active"))
    else:
        # next to this interpreter (.ci/run installs both there), else on PATH
        found = shutil.which(tool, path=f"{Path(sys.executable).parent}{os.pathsep}"
                                        f"{os.environ.get('PATH', '')}")
        if found is None:
            pytest.skip(f"{tool} is not installed")
        bin_dir = tmp_path / "bin"
        environment["PATH"] = f"{Path(found).parent}:/usr/bin:/bin"
    environment["PATH"] = f"{bin_dir}:{environment['PATH']}"
    installed = subprocess.run(["bash", "-c", command], cwd=clone, env=environment,
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    program = bin_dir / "wave-lsp"
    version = subprocess.run([str(program), "--version"], capture_output=True, text=True,
                             timeout=60, env=environment)
    assert version.stdout.strip() == f"wave-lsp {wave_lsp.__version__}", version.stderr
    missing = subprocess.run([str(program), "mcp"], capture_output=True, text=True, timeout=60,
                             env=environment, stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert missing.returncode == 2, missing.stderr
    hint = missing.stderr.split("install it with ", 1)[1].strip().split(" (", 1)[0]
    assert hint.startswith({"pipx": "pipx inject", "uv": "uv tool install", "pip": "pip install"}[tool])
    added = subprocess.run(["bash", "-c", hint], cwd=tmp_path, env=environment,
                           capture_output=True, text=True, timeout=600)
    assert added.returncode == 0, hint + "\n" + added.stdout + added.stderr
    # the environment's interpreter, from the script's `#!` line (pipx adds ` -E`)
    python = program.resolve().read_text("utf-8").splitlines()[0].removeprefix("#!").split()[0]
    subprocess.run([python, "-c", "import mcp.server.mcpserver"], check=True, timeout=60)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_readmes_pre_commit_config_runs_against_a_clone(tmp_path: Path) -> None:
    """The README's `.pre-commit-config.yaml` as a user pastes it, with `repo:` pointing at their
    clone (as the README says until the repository is published) where its `rev:` tag exists:
    `pre-commit run --all-files` installs the hook and reports the error."""
    from tests.clients.test_readme import blocks

    git_checkout_or_skip(REPO)  # the user's clone is cloned from this one
    snippet = blocks("yaml")["pre-commit"]
    rev = re.search(r"rev: (\S+)\n", snippet)
    assert rev
    environment = {"HOME": str(tmp_path), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
                   "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
                   "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
                   "GIT_COMMITTER_EMAIL": "t@example.invalid", **{
                       key: value for key, value in os.environ.items()
                       if key.startswith(("PIP_", "SSL_", "REQUESTS_"))}}
    clone = tmp_path / "wave-lsp"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, env=environment,
                   timeout=120)
    tags = subprocess.run(["git", "tag", "--list", rev[1]], cwd=clone, capture_output=True,
                          text=True, check=True, env=environment).stdout
    if not tags.strip():  # not released yet: the user (here the test) tags their clone
        subprocess.run(["git", "tag", rev[1]], cwd=clone, check=True, env=environment)
    project = tmp_path / "project"
    skill = project / ".wave" / "skills" / "notes" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: notes\ndescription: Drafts notes. Use when: asked\n---\n", "utf-8")
    config = re.sub(r"repo: \S+", f"repo: {clone}", snippet)
    assert config != snippet
    (project / ".pre-commit-config.yaml").write_text(config, "utf-8")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, env=environment)
    subprocess.run(["git", "add", "."], cwd=project, check=True, env=environment)
    result = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                            cwd=project, capture_output=True, text=True, timeout=540,
                            env=environment)
    assert result.returncode == 1, result.stdout + result.stderr  # SK021 is an error under wave
    assert "SK021" in result.stdout and "wave-lsp" in result.stdout
