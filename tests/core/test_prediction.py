"""The prediction of what the runtime does (wave_lsp/core/permissions/prediction.py,
docs/design/product.md *Two decisions*): table-driven cases for Claude Code, one per rule and
settings input, and the property that a prediction never carries a wave-lsp-only refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wave_lsp.core.facts.profiles import CLAUDE_CODE
from wave_lsp.core.permissions.prediction import FACTS, Predictor, RuntimeInputs
from wave_lsp.core.permissions.rules import make_rule
from wave_lsp.core.permissions.settings import (
    load_settings,
    managed_settings_files,
    settings_files,
    start_folder,
)

#: (command, rules as (rule, behavior), outcome, a piece of the reason)
CASES = [
    # the six injections of issue 35: Claude Code 2.1.332 runs every one
    ("node {root}/.claude/skills/s/../../../lib/x.js", [("Bash(node *)", "allow")], "run",
     "Bash(node *)"),
    ("grep -R hi .", [], "run", "read-only"),
    ("ls -L", [], "run", "read-only"),
    ("sleep 1", [], "run", "read-only"),
    ("git diff --no-index a b", [], "run", "read-only"),
    ("cat notes.txt", [], "run", "read-only"),
    # the runtime's own texts (tests/oracle probes)
    ("git rev-parse --verify --quiet nosuchref", [], "refused-ask",
     "This command requires approval"),
    ("echo x", [("Bash(echo:*)", "ask")], "refused-ask",
     "Claude requested permissions to use Bash, but you haven't granted it yet."),
    ("rm -rf build", [("Bash(rm:*)", "deny")], "refused-deny",
     "Permission to use Bash with command rm -rf build has been denied."),
    ("echo x > out.txt", [], "refused-ask", "Output redirection to '{root}/out.txt' needs approval"),
    ("echo $HOME", [], "run", "read-only"),
    ("ls && rm -rf x", [], "refused-ask",
     "contains multiple operations. The following part requires approval: rm -rf x"),
    # the runtime's order: deny beats allow; a tool-wide allow lets an approval through
    ("rm -rf x", [("Bash", "allow"), ("Bash(rm *)", "deny")], "refused-deny", "denied"),
    ("make build", [("Bash", "allow")], "run", "allowed by `Bash`"),
    ("echo x > out.txt", [("Bash", "allow")], "run", "allowed by `Bash`"),
    # wave-lsp's reading cannot model it, or the runtime's list is not transcribed
    ("f() {{ ls; }}; f", [], "cannot-tell", "defines a function"),
    ("sed -n 1p notes.txt", [], "cannot-tell", "sed"),
    # a deny rule that matches only a form wave-lsp adds to be safe
    ("echo 'rm -rf /'", [("Bash(rm *)", "deny")], "cannot-tell", "may not check"),
    # wave-lsp-only caution is not in the prediction: a `..` under a wildcard rule, a FIFO
    ("cat {root}/skill/../../etc/x", [("Bash(cat {root}/*)", "allow")], "run", "Bash(cat"),
    ("touch made.txt", [("Bash(touch *)", "allow")], "run", "Bash(touch *)"),
    ("cp a /etc/x", [("Bash(cp a /etc/x)", "allow")], "refused-ask", "outside the working"),
]


def _root(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text("hi\n")
    return tmp_path


@pytest.mark.parametrize(("command", "rules", "outcome", "reason"), CASES)
def test_claude_code_prediction(tmp_path: Path, command: str, rules: list[tuple[str, str]],
                                outcome: str, reason: str) -> None:
    root = _root(tmp_path)
    made = [make_rule(raw.format(root=root), behavior, "project settings")
            for raw, behavior in rules]
    predictor = Predictor([r for r in made if r is not None], profile=CLAUDE_CODE,
                          inputs=RuntimeInputs((root,)))
    decision = predictor.check(command.format(root=root))
    assert decision.outcome == outcome, decision
    assert reason.format(root=root) in decision.reason
    if outcome != "run":
        assert decision.fact in FACTS


@pytest.mark.parametrize(("inputs", "command", "outcome", "reason"), [
    # acceptEdits lets a write inside the working directories through; `echo` is read-only
    (RuntimeInputs(mode="acceptEdits"), "echo x > out.txt", "run", "read-only"),
    # a settings file's bypassPermissions does not let an injected command through (probe
    # inj-mode-bypass); dontAsk denies in its own words (probe inj-mode-dont-ask)
    (RuntimeInputs(mode="bypassPermissions", mode_file=Path("s.json")), "make", "refused-ask",
     "This command requires approval"),
    (RuntimeInputs(mode="dontAsk"), "make", "refused-deny", "running in don't ask mode"),
    # a write inside the working directories under an allow rule runs (probe inj-touch-allowed)
    (RuntimeInputs(), "touch made.txt", "refused-ask", "This command requires approval"),
    (RuntimeInputs(hooks=(Path("h.json"),)), "ls", "cannot-tell", "PreSkillShellCommand"),
    (RuntimeInputs(problems=("x.json: cannot be read as JSON",)), "ls", "cannot-tell",
     "cannot be used"),
])
def test_settings_inputs(tmp_path: Path, inputs: RuntimeInputs, command: str, outcome: str,
                         reason: str) -> None:
    folders = RuntimeInputs((tmp_path,), inputs.mode, inputs.mode_file, inputs.hooks,
                            inputs.problems)
    decision = Predictor([], profile=CLAUDE_CODE, inputs=folders).check(command)
    assert decision.outcome == outcome, decision
    assert reason in decision.reason
    assert decision.fact in FACTS or decision.allowed


def test_additional_directories_widen_the_path_constraint(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "f").write_text("x")
    project = tmp_path / "p"
    project.mkdir()
    alone = Predictor([], profile=CLAUDE_CODE, inputs=RuntimeInputs((project,)))
    assert alone.check("cat ../other/f").outcome == "refused-ask"
    both = Predictor([], profile=CLAUDE_CODE, inputs=RuntimeInputs((project, other)))
    assert both.check("cat ../other/f").outcome == "run"


def _write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def test_settings_keys_are_read(tmp_path: Path) -> None:
    path = _write(tmp_path / ".claude" / "settings.json", {
        "permissions": {"defaultMode": "manual", "additionalDirectories": ["../shared"]},
        "skillOverrides": {"s": "off"},
        "hooks": {"PreSkillShellCommand": [{"hooks": [{"type": "command", "command": "x"}]}]}})
    loaded = load_settings("project settings", path, False)
    assert loaded.mode == ("default", path)
    assert loaded.directories == [tmp_path.parent / "shared"]
    assert loaded.overrides == {"s": ("off", path)}
    assert loaded.hooks == [path]


def test_claude_config_dir_and_managed_settings(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "config"))
    managed = tmp_path / "managed"
    _write(managed / "managed-settings.d" / "10-x.json", {})
    monkeypatch.setattr("wave_lsp.core.permissions.settings.MANAGED_FOLDERS",
                        {"linux": managed, "darwin": managed, "win32": managed})
    files = settings_files(CLAUDE_CODE, tmp_path / "p", tmp_path / "home")
    paths = [path for _, path, _ in files]
    assert paths[0] == tmp_path / "config" / "settings.json"
    assert paths[-2:] == [managed / "managed-settings.json",
                          managed / "managed-settings.d" / "10-x.json"]
    assert managed_settings_files(CLAUDE_CODE)[0] == managed / "managed-settings.json"


def test_the_start_folder_of_a_monorepo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    web = tmp_path / "apps" / "web"
    web.mkdir(parents=True)
    monkeypatch.chdir(web)
    assert start_folder(tmp_path) == web
    files = [path for label, path, _ in settings_files(CLAUDE_CODE, tmp_path, None)
             if label == "project settings"]
    assert files == [tmp_path / ".claude" / "settings.json", web / ".claude" / "settings.json"]
    monkeypatch.chdir(tmp_path.parent)
    assert start_folder(tmp_path) == tmp_path


_WORDS = st.sampled_from(["ls", "cat", "grep", "-R", "-L", "sleep", "1", "x", "..", "/etc/x",
                          "$HOME", "$(id)", "|", "&&", ";", ">", "out", "'a b'", "sed", "rm",
                          "f()", "{", "}", "<(ls)", "git", "diff", "--no-index", "\\", "*"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=8),
       st.lists(st.sampled_from(["Bash(ls *)", "Bash(cat:*)", "Bash(rm *)", "Bash"]),
                max_size=2),
       st.sampled_from(["allow", "deny", "ask"]))
def test_every_refusal_and_cannot_tell_cites_a_runtime_fact(words: list[str], rules: list[str],
                                                            behavior: str) -> None:
    """No wave-lsp-only refusal: every refusal and cannot-tell names a runtime fact, and none
    speaks of wave-lsp's own caution."""
    made = [make_rule(rule, behavior, "project settings") for rule in rules]
    decision = Predictor([r for r in made if r is not None], profile=CLAUDE_CODE,
                         inputs=RuntimeInputs((Path("/tmp/project"),))).check(" ".join(words))
    if not decision.allowed:
        assert decision.fact in FACTS, decision
    assert "stricter" not in decision.reason
    assert "wave-lsp is" not in decision.reason


@pytest.mark.parametrize(("words", "bare", "verdict"), [
    (["hostname", "foo"], False, "no"),  # Claude Code's hostname takes no operands
    (["uniq", "a", "b"], False, "no"),  # uniq with operands writes the second one
    (["pwd"], False, "yes"),
    (["git", "log"], False, "yes"),
    (["git", "log"], True, "no"),  # a folder that looks like a bare repository
])
def test_the_runtime_read_only_list_keeps_its_operand_and_bare_repository_facts(
        tmp_path: Path, words: list[str], bare: bool, verdict: str) -> None:
    from wave_lsp.core.permissions.readonly_runtime import runtime_read_only

    if bare:
        (tmp_path / "HEAD").write_text("ref: refs/heads/main\n", "utf-8")
        (tmp_path / "objects").mkdir()
        (tmp_path / "refs").mkdir()
    assert runtime_read_only(words, CLAUDE_CODE, (tmp_path,)).verdict == verdict


@pytest.mark.parametrize(("command", "reason"), [
    # Claude Code 2.1.332 refuses an unruled `mkdir` in its working directory with its path
    # constraint's text (case inject-unruled): the same words as for an output redirection
    ("mkdir -p made-by-injection", "mkdir in '{root}/made-by-injection' needs approval. The path "
     "is inside the working directories for this session ('{root}')"),
    # the other writers keep the generic refusal until a probe shows their words
    ("touch made.txt", "This command requires approval"),
    # a writer with no operand, and one in a compound command, keep the runtime's other texts
    ("mkdir", "This command requires approval"),
    ("mkdir a && make", "The following parts require approval"),
])
def test_an_unruled_writer_inside_the_working_directory(tmp_path: Path, command: str,
                                                         reason: str) -> None:
    decision = Predictor([], profile=CLAUDE_CODE,
                         inputs=RuntimeInputs((tmp_path,))).check(command)
    assert decision.outcome == "refused-ask"
    assert reason.format(root=tmp_path) in decision.reason, decision.reason


def test_an_unruled_mkdir_under_accept_edits_is_not_the_path_message(tmp_path: Path) -> None:
    decision = Predictor([], profile=CLAUDE_CODE,
                         inputs=RuntimeInputs((tmp_path,), "acceptEdits")).check("mkdir x")
    assert "needs approval. The path is inside" not in decision.reason
