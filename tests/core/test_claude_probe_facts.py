"""The Claude Code 2.1.332 facts the probes of tests/oracle measured (issue 39: fm-anchor-alias,
fm-c1-apc, fm-c1-strings, arg-effort, arg-named-dashes, disc-legacy-*, fm-glob-paths), as
table-driven unit tests of the code that models them, so that they hold in a clone with no
runtime installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wave_lsp.core.facts.profiles import CLAUDE_CODE, WAVE
from wave_lsp.core.invocation.listing import runtime_listing_entry
from wave_lsp.core.invocation.terminal import strip_control_sequences
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.workspace.location import locate


def _line(tmp_path: Path, frontmatter: str, profile: object = CLAUDE_CODE) -> str:
    path = tmp_path / ".claude/skills/s/SKILL.md"
    document = SkillDocument.from_text(f"---\n{frontmatter}---\nBody.\n")
    return runtime_listing_entry(document, locate(path, home=tmp_path / "h"), profile).text


# -- fm-c1-apc, fm-c1-strings: what Claude Code lists for each terminal sequence ----------------
@pytest.mark.parametrize(("skill", "text", "listed"), [
    ("c-dcs", "a\x90b", "a"), ("c-sos", "a\x98b", "a"), ("c-osc", "a\x9db", "a"),
    ("c-pm", "a\x9eb", "a"), ("fm-c1-apc", "a\x9fb", "a"),
    ("c-csi", "a\x9b1mb c", "ab c"), ("c-apc-st", "a\x9fb\x9cc", "ac"),
    ("c-apc-bel", "a\x9fb\x07c", "a"),  # BEL ends only OSC
    ("c-apc-esc-st", "a\x9fb\x1b\\\\c", "a\\c"),
    ("c-esc-osc", "a\x1b]b", "a"), ("c-esc-csi", "a\x1b[1mb", "ab"), ("c-esc-apc", "a\x1b_b", "a"),
    ("c-nel", "a\x85b", "a b"), ("c-pad", "a\x81b", "a b"), ("c-esc", "a\x1bb", "a"),
    ("d-osc-bel", "a\x9db\x07c", "ac"), ("d-esc-osc-bel", "a\x1b]b\x07c", "ac"),
    ("d-st", "a\x9cb", "a b"), ("d-csi-long", "a\x9b1;2Hb", "ab"), ("d-csi-open", "a\x9b12", "a"),
    ("d-esc-digit", "a\x1b7b", "ab"), ("d-esc-space", "a\x1b bc", "ac"), ("d-esc-end", "a\x1b", "a"),
    ("d-dcs-multi", "a\x90x\x9cb\x9fy\x9cc", "abc"), ("d-del", "a\x7fb", "a b"),
    ("d-esc-nl", "a\x1b\nb", "a b"), ("d-csi-space", "a\x9b1 qb", "ab"),
    ("d-csi-ctl", "a\x9b1\x07mb", "ab"), ("d-esc-csi-open", "a\x1b[b", "a"),
    ("e-apc-can", "a\x9fb\x18c", "ac"), ("e-osc-esc", "a\x9db\x1bcd", "ad"),
    ("e-csi-esc", "a\x9b1\x1b[2mb", "ab"), ("e-csi-high", "a\x9b1\xe9b", "a"),
    ("e-tab-csi", "a\tb\x9bmc", "a bc"),
])
def test_listing_drops_terminal_sequences(tmp_path: Path, skill: str, text: str,
                                          listed: str) -> None:
    escaped = text.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    escaped = escaped.replace("\\x", "\\u00")
    assert _line(tmp_path, f'description: "{escaped}"\n') == f"- s: {listed}", skill


def test_each_field_loses_its_own_sequences(tmp_path: Path) -> None:
    """f-apc-when: an unended APC in `description` does not take `when_to_use` with it."""
    line = _line(tmp_path, 'description: "a\\u009fb"\nwhen_to_use: "w\\u001b[1mx"\n')
    assert line == "- s: a - wx"


def test_other_targets_keep_the_text_after_the_apc(tmp_path: Path) -> None:
    assert "b" in _line(tmp_path, 'description: "a\\u009fb"\n', WAVE)


@given(st.text(alphabet=st.sampled_from("ab[]\\_P7 \x07\x18\x1b\x90\x9b\x9c\x9d\x9f\xe9")))
def test_stripping_never_fails_and_keeps_text_without_introducers(text: str) -> None:
    kept = strip_control_sequences(text)
    assert len(kept) <= len(text)
    assert not any(char in kept for char in "\x1b\x90\x9b\x9d\x9f")
    plain = text.translate({ord(c): None for c in "\x1b\x90\x9b\x9d\x9f"})
    assert strip_control_sequences(plain) == plain


# -- fm-anchor-alias: Claude Code's YAML resolves the alias ------------------------------------
def test_the_listing_resolves_a_scalar_alias(tmp_path: Path) -> None:
    assert _line(tmp_path, "when_to_use: &w reuse me\ndescription: *w\n") == \
        "- s: reuse me - reuse me"


def test_an_alias_of_a_collection_or_nothing_is_not_a_description(tmp_path: Path) -> None:
    # an alias of a mapping is no text: Claude Code describes the skill by its body
    assert _line(tmp_path, "metadata: &m {a: 1}\ndescription: *m\n") == "- s: Body."


# -- arg-effort, arg-effort-setting, arg-effort-values: `${CLAUDE_EFFORT}` ---------------------
@pytest.mark.parametrize(("field", "setting", "environment", "effort"), [
    (None, None, None, "medium"),  # arg-effort: the default
    (None, "low", None, "low"),  # arg-effort-setting: `effortLevel` in the project settings
    ("xhigh", "low", None, "xhigh"),  # arg-effort-values: the skill's `effort` first
    ("MAX", "low", None, "max"),  # in any case
    ("5", "low", None, "high"),  # an integer reads `high`
    ("bogus", "low", None, "low"),  # an unknown level is ignored
    ("high", "low", "medium", "medium"),  # the environment over everything (source reading)
    ("high", "low", "auto", "medium"),  # `auto`: the default, whatever else is set
    (None, "nonsense", None, "medium"),
])
def test_claude_effort(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: str | None,
                       setting: str | None, environment: str | None, effort: str) -> None:
    from tests.core.test_preview import run

    monkeypatch.delenv("CLAUDE_CODE_EFFORT_LEVEL", raising=False)
    if environment is not None:
        monkeypatch.setenv("CLAUDE_CODE_EFFORT_LEVEL", environment)
    path = tmp_path / "project/.claude/skills/e/SKILL.md"
    path.parent.mkdir(parents=True)
    fields = f"effort: {field}\n" if field is not None else ""
    path.write_text(f"---\ndescription: d\n{fields}---\nEffort ${{CLAUDE_EFFORT}}.\n", "utf-8")
    if setting is not None:
        (tmp_path / "project/.claude/settings.json").write_text(f'{{"effortLevel": "{setting}"}}')
    result = run(path, "", target="claude-code")
    assert (result.text or "").endswith(f"\n\nEffort {effort}.\n")
    # a target without the variable leaves it as written
    wave = tmp_path / "project/.wave/skills/e/SKILL.md"
    wave.parent.mkdir(parents=True)
    wave.write_text(path.read_text("utf-8"), "utf-8")
    assert (run(wave, "", target="wave").text or "").endswith("Effort ${CLAUDE_EFFORT}.")


# -- arg-named-dashes: names with `-` and `.` are matched as written ---------------------------
@pytest.mark.parametrize(("names", "body", "raw", "rendered"), [
    # the probe: a name with `-`, one with `.`, a prefix name, and names after them
    ("[my-arg, v1.2, my, dst]",
     "A=$my-arg B=$v1.2 C=$my D=$dst E=$my-args F=\\$my-arg G=$v1x2", "one two three four",
     "A=one B=two C=three D=four E=three-args F=$my-arg G=$v1x2"),
    ("a-b c", "$a-b/$c", "x y", "x/y"),  # a string of names
    ("[a(b, '1', c]", "$a(b $c", "x y", "x y"),  # regex characters are text; `1` is dropped
    ("[x]", "$x[0] $x", "v", "$x[0] v"),  # a name before `[` is no placeholder
])
def test_named_arguments_as_written(tmp_path: Path, names: str, body: str, raw: str,
                                    rendered: str) -> None:
    from tests.core.test_preview import run

    path = tmp_path / "project/.claude/skills/n/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\ndescription: d\narguments: {names}\n---\n{body}\n", "utf-8")
    result = run(path, raw, target="claude-code")
    assert (result.text or "").endswith(f"\n\n{rendered}\n")


def test_only_the_first_64_short_names_are_substituted() -> None:
    from wave_lsp.core.invocation.arguments import declared_names, substitute_arguments

    names = declared_names(["x" * 65, *(f"n{i}" for i in range(70))], CLAUDE_CODE)
    words = [f"w{i}" for i in range(71)]
    text = substitute_arguments(f"$n0 $n63 $n64 ${'x' * 65}", "", words, names, CLAUDE_CODE)
    assert text == f"w1 w64 $n64 ${'x' * 65}"


# -- fm-glob-paths: the quoting retry reads an unquoted `**/*.ts` ------------------------------
def test_an_unquoted_glob_is_the_retrys_pattern(tmp_path: Path) -> None:
    from tests.helpers import run

    text = "---\ndescription: Only for TypeScript\npaths: **/*.ts\n---\nBody.\n"
    path = tmp_path / ".claude/skills/g/SKILL.md"
    document = SkillDocument.from_text(text)
    entry = runtime_listing_entry(document, locate(path, home=tmp_path / "h"), CLAUDE_CODE)
    assert (entry.text, entry.activates_on) == ("", ("**/*.ts",))  # hidden until a .ts file
    report = run(tmp_path, text, target="claude-code", relpath=".claude/skills/g/SKILL.md")
    (finding,) = [f for f in report.findings if f.code == "SK023"]
    assert "quoting retry then reads the text `**/*.ts` as the pattern: Claude Code loads the skill " \
           "but neither lists it nor knows `/g` until a file it matches is read or edited" \
        in finding.message
    # a runtime without the retry: the alias fails, as before
    other = run(tmp_path, text, target="wave", relpath=".claude/skills/g/SKILL.md")
    assert any("most parsers fail" in f.message for f in other.findings if f.code == "SK023")


# -- disc-legacy-command, disc-legacy-variants: legacy commands ---------------------------------
def test_legacy_commands_are_rows_and_render_without_the_base_line(tmp_path: Path) -> None:
    from tests.core.test_preview import run
    from wave_lsp.core.checking.loading import skill_rows
    from wave_lsp.core.workspace.location import locate as find

    project, home = tmp_path / "project", tmp_path / "home"
    files = {
        project / ".claude/commands/legacy.md":
            "---\ndescription: A legacy command\n---\nLegacy $ARGUMENTS\n",
        project / ".claude/commands/sub/x.md": "---\ndescription: Nested\n---\nNested $1 and $0\n",
        project / ".claude/commands/both.md": "---\ndescription: The command\n---\nCommand\n",
        project / ".claude/skills/both/SKILL.md": "---\ndescription: The skill\n---\nSkill\n",
        home / ".claude/commands/mine.md": "# Mine\n\nin ${CLAUDE_SKILL_DIR}\n",
        project / "plugins/kit/.claude-plugin/plugin.json": '{"name": "kit"}',
        project / "plugins/kit/commands/cmd.md": "---\ndescription: P\n---\nAt ${CLAUDE_PLUGIN_ROOT}\n",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    (project / ".git").mkdir()
    rows = skill_rows(CLAUDE_CODE, project, home, True, project)
    assert [(row["name"], row["listingLine"], row.get("legacy"), row["unavailable"])
            for row in rows] == [
        ("both", "- both: The skill", None, None),
        ("both", None, True, "shadowed"),  # a skill beats the command of its name
        ("legacy", "- legacy: A legacy command", True, None),
        ("sub:x", "- sub:x: Nested", True, None),
        ("mine", "- mine: Mine", True, None),  # personal: the body's first line
        ("kit:cmd", "- kit:cmd: P", True, None),
    ]
    assert run(project / ".claude/commands/legacy.md", "x", target="claude-code").text == \
        "Legacy x\n"
    assert run(project / ".claude/commands/sub/x.md", "a b", target="claude-code",
               tmp_home=home).text == "Nested b and a\n"
    assert run(home / ".claude/commands/mine.md", "a", target="claude-code",
               tmp_home=home).text == "# Mine\n\nin ${CLAUDE_SKILL_DIR}\n\n\nARGUMENTS: a"
    plugin = project / "plugins/kit"
    assert run(plugin / "commands/cmd.md", "", target="claude-code", tmp_home=home).text == \
        f"At {plugin.as_posix()}\n"
    assert find(project / ".claude/commands/sub/x.md", home=home).legacy_command == "sub:x"
