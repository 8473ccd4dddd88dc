"""Issue 37's mechanisms of noise, each with the finding it must keep and the one it must drop
(docs/design/rules.md *Said once per collection*, *Templates*; rules/unknown.py, rules/yaml.py
SK028, rules/workspace.py SK130/SK131, rules/name.py SK039, rules/file.py SK002).

Every case writes a small project (a `.git` folder at its root, skills in their roots), checks
one file as `check` does (`target=None`: the target chosen from where the file lives) and looks
for a finding of one code whose message holds every expected phrase, at the expected severity,
or for its absence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.findings import Finding


def skill(name: str, *lines: str, body: str = "# Body\n") -> str:
    return (f"---\nname: {name}\ndescription: Does {name}. Use when asked about {name}.\n"
            + "".join(line + "\n" for line in lines) + "---\n" + body)


def long_skill(name: str) -> str:
    """A skill whose description alone is 900 characters: ten overflow the listing budget."""
    return skill(name).replace(f"Does {name}.", f"Does {name}. " + "Many words here. " * 55)


@dataclass
class Case:
    id: str
    files: dict[str, str]  #: relative path -> text; every project gets `.git/`
    check: str  #: the file checked
    code: str
    #: the finding expected: its severity and phrases of its message; None: no finding of `code`
    severity: Severity | None
    phrases: tuple[str, ...] = ()
    target: str | None = None  #: None: the target chosen from where the file lives
    related: int | None = None  #: how many related locations the finding has
    fixes: tuple[str, ...] = ()  #: titles of its quick fixes
    git: bool = True
    extra: dict[str, object] = field(default_factory=dict)


UPDATED = ("id: x", "updated: 2026-01-01")
DOTBABEL = "tools: Read, Grep, Glob, Bash"

CASES = [
    # -- SK070: said once per key per collection ---------------------------------------------
    Case("sk070-first-of-root-says-it",
         {f".claude/skills/{n}/SKILL.md": skill(n, *UPDATED) for n in ("alpha", "beta", "gamma")},
         ".claude/skills/alpha/SKILL.md", "SK070", Severity.INFORMATION,
         ("`id` is not a skill field", "Said once for project `.claude/skills`",
          "2 other skills have `id` too"), related=2),
    Case("sk070-later-skill-of-root-is-silent",
         {f".claude/skills/{n}/SKILL.md": skill(n, *UPDATED) for n in ("alpha", "beta", "gamma")},
         ".claude/skills/beta/SKILL.md", "SK070", None),
    Case("sk070-rejected-by-the-target-is-said-on-every-skill",
         {f".claude/skills/{n}/SKILL.md": skill(n, *UPDATED) for n in ("alpha", "beta", "gamma")},
         ".claude/skills/beta/SKILL.md", "SK070", Severity.ERROR, ("`id`", "reject"),
         target="agentskills"),
    # (a skill to be installed, in no skills root: there `portable` counts skills-ref, which
    # rejects the key; in a root it is the runtimes that find the file, docs/design/rules.md *A
    # target speaks of what it loads*)
    Case("sk071-idle-key-rejected-by-the-target-stays-an-error",
         {"alpha/SKILL.md": skill("alpha", "user-invokable: true")},
         "alpha/SKILL.md", "SK071", Severity.ERROR, ("did you mean",), target="portable"),
    Case("sk070-a-key-only-a-later-skill-has-is-said-there",
         {".claude/skills/alpha/SKILL.md": skill("alpha"),
          ".claude/skills/beta/SKILL.md": skill("beta", "owner: me")},
         ".claude/skills/beta/SKILL.md", "SK070", Severity.INFORMATION, ("`owner`",), related=0),
    Case("sk070-each-plugin-is-its-own-collection",
         {".claude/skills/alpha/SKILL.md": skill("alpha", "id: a"),
          "plugins/p/.claude-plugin/plugin.json": '{"name": "p"}',
          "plugins/p/skills/beta/SKILL.md": skill("beta", "id: b")},
         "plugins/p/skills/beta/SKILL.md", "SK070", Severity.INFORMATION, ("`id`",), related=0),
    Case("sk070-outside-every-root-still-said",
         {"docs/alpha/SKILL.md": skill("alpha", "id: a")},
         "docs/alpha/SKILL.md", "SK070", Severity.INFORMATION, ("`id` is not a skill field",)),
    Case("sk070-spec-field-ignored-by-some-is-kept",
         {".agents/skills/alpha/SKILL.md": skill("alpha", "license: MIT")},
         ".agents/skills/alpha/SKILL.md", "SK070", Severity.INFORMATION,
         ("`license` is a field of the Agent Skills specification: keep it",
          "Codex and Gemini CLI ignore it")),
    Case("sk070-field-some-members-read-is-kept-for-them",
         {".agents/skills/alpha/SKILL.md": skill("alpha", "user-invocable: false")},
         ".agents/skills/alpha/SKILL.md", "SK070", Severity.INFORMATION,
         ("keep it if", "Wave")),
    Case("sk070-runtime-field-under-another-runtime-still-removed",
         {".codex/skills/alpha/SKILL.md": skill("alpha", "model: opus")},
         ".codex/skills/alpha/SKILL.md", "SK070", Severity.INFORMATION,
         ("remove it for this target", "Codex ignores it")),
    # -- SK071: intent is a warning, an idle key information ------------------------------------
    Case("sk071-tools-without-allowed-tools-warns",
         {".claude/skills/alpha/SKILL.md": skill("alpha", DOTBABEL)},
         ".claude/skills/alpha/SKILL.md", "SK071", Severity.WARNING,
         ("did you mean `allowed-tools`?)", "what it seems to set does not happen"),
         fixes=("Rename to `allowed-tools`",)),
    Case("sk071-tools-granted-by-allowed-tools-is-information",
         {".claude/skills/alpha/SKILL.md": skill("alpha", DOTBABEL,
                                                  "allowed-tools: Read Grep Glob Bash")},
         ".claude/skills/alpha/SKILL.md", "SK071", Severity.INFORMATION,
         ("remove it", "already grants every tool it lists")),
    Case("sk071-tools-wider-than-allowed-tools-warns",
         {".claude/skills/alpha/SKILL.md": skill("alpha", "tools: Bash, Write",
                                                  "allowed-tools: Bash(git status)")},
         ".claude/skills/alpha/SKILL.md", "SK071", Severity.WARNING, ("did you mean",)),
    Case("sk071-idle-tools-said-once",
         {f".claude/skills/{n}/SKILL.md": skill(n, DOTBABEL, "allowed-tools: Read Grep Glob Bash")
          for n in ("alpha", "beta")},
         ".claude/skills/beta/SKILL.md", "SK071", None),
    Case("sk071-default-value-is-information",
         {".claude/skills/alpha/SKILL.md": skill("alpha", "user-invokable: true")},
         ".claude/skills/alpha/SKILL.md", "SK071", Severity.INFORMATION,
         ("`user-invocable` is `true` by default", "behaves as written")),
    Case("sk071-non-default-value-warns",
         {".claude/skills/alpha/SKILL.md": skill("alpha", "user-invokable: false")},
         ".claude/skills/alpha/SKILL.md", "SK071", Severity.WARNING,
         ("did you mean `user-invocable`?)",), fixes=("Rename to `user-invocable`",)),
    Case("sk071-denied-tools-means-disallowed-tools",
         {".claude/skills/alpha/SKILL.md": skill("alpha", "denied-tools: Bash")},
         ".claude/skills/alpha/SKILL.md", "SK071", Severity.WARNING,
         ("`denied-tools` is not a field (did you mean `disallowed-tools`?): rename it",),
         fixes=("Rename to `disallowed-tools`",)),
    Case("sk071-meant-field-another-runtime-reads",
         {"skills/alpha/SKILL.md": skill("alpha", "denied-tools: Bash")},
         "skills/alpha/SKILL.md", "SK071", Severity.WARNING,
         ("does not read `disallowed-tools` either: Claude Code reads it)",)),
    Case("sk071-allowed-underscore",
         {".claude/skills/alpha/SKILL.md": skill("alpha", "allowed_tools: Read")},
         ".claude/skills/alpha/SKILL.md", "SK071", Severity.WARNING,
         ("did you mean `allowed-tools`?)",)),
    # -- SK028: a warning only where a reader takes the indicator literally ---------------------
    Case("sk028-agents-root-parses-yaml",
         {".agents/skills/alpha/SKILL.md": "---\nname: alpha\ndescription: >-\n  Does alpha.\n"
                                           "  Use when asked.\n---\n# Body\n"},
         ".agents/skills/alpha/SKILL.md", "SK028", Severity.HINT, ("check the text YAML reads",)),
    Case("sk028-agents-root-yaml-fails-gemini-falls-back",
         {".agents/skills/alpha/SKILL.md": "---\nname: alpha\ndescription: >-\n  Does alpha.\n"
                                           "  Use when asked.\nname: alpha\n---\n# Body\n"},
         ".agents/skills/alpha/SKILL.md", "SK028", Severity.WARNING,
         ("Gemini CLI, whose YAML fails on this frontmatter", "read the indicator literally")),
    # (in no skills root: in `.agents/skills`, `portable` is the runtimes that scan it, as the
    # folder's default target is)
    Case("sk028-portable-keeps-its-warning",
         {"alpha/SKILL.md": "---\nname: alpha\ndescription: >-\n  Does alpha.\n"
                            "  Use when asked.\n---\n# Body\n"},
         "alpha/SKILL.md", "SK028", Severity.WARNING,
         ("naive line-based loaders read the indicator literally",), target="portable"),
    # -- templates ------------------------------------------------------------------------------
    Case("template-placeholder-folder-one-information",
         {"templates/claude-skill/{{skill_name}}/SKILL.md":
          "---\nname: {{ skill_name }}\ndescription: {{ skill_description }}. Use when "
          "{{ trigger }}.\nallowed-tools: {{ allowed_tools }}\n---\n# {{ skill_title }}\n"},
         "templates/claude-skill/{{skill_name}}/SKILL.md", "SK002", Severity.INFORMATION,
         ("treated as a template", "`{{skill_name}}` is a placeholder")),
    Case("template-no-rule-judges-the-placeholders",
         {"templates/claude-skill/{{skill_name}}/SKILL.md":
          "---\nname: {{ skill_name }}\ndescription: {{ skill_description }}. Use when "
          "{{ trigger }}.\nallowed-tools: {{ allowed_tools }}\n---\n# {{ skill_title }}\n"},
         "templates/claude-skill/{{skill_name}}/SKILL.md", "SK037", None),
    Case("template-dunder-folder",
         {"scaffold/__name__/SKILL.md": skill("__name__")},
         "scaffold/__name__/SKILL.md", "SK039", None),
    Case("template-placeholder-name-in-template-folder",
         {"templates/skill/SKILL.md": skill("{{ name }}").replace("name: {{ name }}",
                                                                  "name: \"{{ name }}\"")},
         "templates/skill/SKILL.md", "SK002", Severity.INFORMATION,
         ("holds the placeholder `{{ name }}`",)),
    Case("template-lower-case-file-in-template-folder",
         {"templates/skill.md": skill("thing")},
         "templates/skill.md", "SK001", None),
    Case("template-folder-without-placeholders-is-checked",  # a copy under templates/: TP kept
         {"plugins/p/.claude-plugin/plugin.json": '{"name": "p"}',
          "plugins/p/templates/claude/skills/alpha/SKILL.md": skill("alpha", DOTBABEL)},
         "plugins/p/templates/claude/skills/alpha/SKILL.md", "SK071", Severity.WARNING,
         ("did you mean `allowed-tools`?)",)),
    Case("template-file-misnamed-outside-templates-still-sk001",
         {"docs/alpha/skill.md": skill("alpha")},
         "docs/alpha/skill.md", "SK001", Severity.WARNING, ("rename it to `SKILL.md`",)),
    # -- SK002: a nested SKILL.md says who looks how deep ---------------------------------------
    Case("sk002-nested-under-wave-names-wave",
         {".wave/skills/alpha/SKILL.md": skill("alpha"),
          ".wave/skills/alpha/references/vendor/skill/SKILL.md": skill("vendor")},
         ".wave/skills/alpha/references/vendor/skill/SKILL.md", "SK002", Severity.INFORMATION,
         ("it is not loaded by Wave", "Wave looks only one level down")),
    Case("sk002-nested-in-agents-root-names-who-loads-it",
         {".agents/skills/alpha/SKILL.md": skill("alpha"),
          ".agents/skills/alpha/references/vendor/skill/SKILL.md": skill("vendor")},
         ".agents/skills/alpha/references/vendor/skill/SKILL.md", "SK002", Severity.INFORMATION,
         ("Wave", "look only one level down", "Codex", "look deeper, load it as a skill of "
          "its own")),
    Case("sk002-within-codex-depth-no-nested-finding",
         {".codex/skills/alpha/SKILL.md": skill("alpha"),
          ".codex/skills/alpha/references/vendor/SKILL.md": skill("vendor")},
         ".codex/skills/alpha/references/vendor/SKILL.md", "SK002", None),
    # -- SK130 ----------------------------------------------------------------------------------
    Case("sk130-generated-copies-information",
         {".claude/skills/op/SKILL.md": skill("op", "metadata:", '  generatedBy: "1.3.0"',
                                               body="Run /opsx:explore.\n"),
          ".cursor/skills/op/SKILL.md": skill("op", "metadata:", '  generatedBy: "1.3.1"',
                                               body="Run /opsx-explore.\n")},
         ".cursor/skills/op/SKILL.md", "SK130", Severity.INFORMATION,
         ("this one wins", "copies a generator wrote"), target="cursor"),
    Case("sk130-copies-that-differ-warn",
         {".claude/skills/op/SKILL.md": skill("op", "metadata:", '  generatedBy: "1.3.0"',
                                               body="Read the files.\n"),
          ".cursor/skills/op/SKILL.md": skill("op", "metadata:", '  generatedBy: "1.3.1"',
                                               body="Read every file.\n")},
         ".cursor/skills/op/SKILL.md", "SK130", Severity.WARNING, ("this one wins",),
         target="cursor"),
    Case("sk130-nested-root-does-not-replace",
         {".claude/skills/deploy/SKILL.md": skill("deploy"),
          "packages/app/.claude/skills/deploy/SKILL.md": skill("deploy")},
         "packages/app/.claude/skills/deploy/SKILL.md", "SK130", Severity.INFORMATION,
         ("Started in `app`", "only when its name is still free", "not used"),
         target="claude-code"),
    Case("sk130-same-root-folder-still-warns",
         {".claude/skills/deploy/SKILL.md": skill("deploy"),
          ".claude/skills/deploy-two/SKILL.md": skill("deploy")},
         ".claude/skills/deploy-two/SKILL.md", "SK130", Severity.WARNING, ("wins",),
         target="wave"),
    # -- SK131: once per load group -------------------------------------------------------------
    Case("sk131-first-listed-skill-says-it",
         {f".claude/skills/s{i:02}/SKILL.md": long_skill(f"s{i:02}") for i in range(12)},
         ".claude/skills/s00/SKILL.md", "SK131", Severity.INFORMATION,
         ("The listing of the 12 model-visible skills of the project's skills",
          "Said once for the project's skills"), target="claude-code", related=11),
    Case("sk131-other-skills-silent",
         {f".claude/skills/s{i:02}/SKILL.md": long_skill(f"s{i:02}") for i in range(12)},
         ".claude/skills/s05/SKILL.md", "SK131", None, target="claude-code"),
    # -- SK039 at a repository's root ------------------------------------------------------------
    Case("sk039-repository-root-says-how-to-install",
         {"SKILL.md": skill("council")},
         "SKILL.md", "SK039", Severity.INFORMATION,
         ("install the skill as a folder named `council`", "the clone's folder")),
    Case("sk039-vendored-copy-inside-another-skill-is-information",
         {".agents/skills/alpha/SKILL.md": skill("alpha"),
          ".agents/skills/alpha/references/vendor/skill/SKILL.md": skill("vendor")},
         ".agents/skills/alpha/references/vendor/skill/SKILL.md", "SK039", Severity.INFORMATION,
         # four folders down: only the runtimes that look that deep find it (Wave, Copilot and
         # Gemini CLI look one level down), so only they are asked
         ("Codex, OpenCode and Copilot CLI do not check the name against the folder",)),
    Case("sk039-own-skill-in-agents-root-keeps-its-level",
         {".agents/skills/alpha/SKILL.md": skill("beta")},
         ".agents/skills/alpha/SKILL.md", "SK039", Severity.ERROR,
         ("Copilot requires the name to equal the folder `alpha` and does not load the skill "
          "otherwise; Wave, Codex, OpenCode, Gemini CLI and Copilot CLI do not check it",)),
    Case("sk039-folder-that-is-not-a-repository-root-keeps-its-level",
         {"council-repo/SKILL.md": skill("council")},
         # the target named: with none, the file lies where no runtime reads it and SK039 (a
         # warning under wave only) is information for that reason, not this case's
         "council-repo/SKILL.md", "SK039", Severity.WARNING, ("but the folder is",),
         target="wave"),
]


def _check(tmp_path: Path, case: Case) -> list[Finding]:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for relative, text in case.files.items():
        path = project / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    home = tmp_path / "home"
    home.mkdir()
    settings = (Settings(auto_target=True, home=home, personal=False) if case.target is None
                else Settings.for_target(case.target, home=home, personal=False))
    report = check_file(project / case.check, settings, strict=True)
    return [f for f in report.findings if f.code == case.code]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_noise_mechanism(tmp_path: Path, case: Case) -> None:
    found = _check(tmp_path, case)
    if case.severity is None:
        assert not found, [f.message for f in found]
        return
    matching = [f for f in found if all(phrase in f.message for phrase in case.phrases)]
    assert matching, [f.message for f in found]
    finding = matching[0]
    assert finding.severity == case.severity, finding.message
    if case.related is not None:
        assert len(finding.related) == case.related
        assert all(item.path for item in finding.related)
    assert [fix.title for fix in finding.fixes] == list(case.fixes) or not case.fixes
    assert "remove it for this target" not in finding.message or "spec" not in case.id


@pytest.mark.parametrize(("count", "sentence"), [
    (1, "1 other skill has `x` too (it is listed"),
    (2, "2 other skills have `x` too (they are listed"),
])
def test_said_once_agrees_with_the_count(tmp_path: Path, count: int, sentence: str) -> None:
    from wave_lsp.core.rules.workspace import also_in

    others = [SimpleNamespace(path=tmp_path / f"s{i}" / "SKILL.md") for i in range(count)]
    said, related = also_in(others, "have `x`", "the collection")  # type: ignore[arg-type]
    assert sentence in said and len(related) == count
