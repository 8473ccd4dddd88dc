"""Mentions of skills outside and inside SKILL.md (docs/features/references.md): the finder's
precision, table by table; the parser never crashes and its spans are sound (hypothesis); the
workspace layer's references, the unknown `/name` finding (SK152) with its "did you mean" fix, and
a rename that reaches CLAUDE.md, AGENTS.md, agent and command files and plugin manifests."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.findings import apply_edits
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.features.mentions import CODE, LINK, PROSE, SLASH, find_mentions, mention_at
from wave_lsp.core.features.rename import plan_rename, rename_target
from wave_lsp.core.features.skill_references import (
    builtin_commands,
    command_names,
    declaration,
    mention_files,
    mention_findings,
    read_mentions,
    references,
    skill_at,
)
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.workspace.discovery import file_kind
from wave_lsp.core.workspace.index import SkillIndex

KNOWN = {"deploy", "pdf-tools", "review", "acme:lint", "lint"}


def found(text: str, known: set[str] | None = None) -> list[tuple[str, str, str]]:
    """(kind, what is written, the name part) of each mention."""
    return [(m.kind, text[m.span.start:m.span.end], text[m.name_span.start:m.name_span.end])
            for m in find_mentions(text, KNOWN if known is None else known)]


@pytest.mark.parametrize(("text", "expected"), [
    # slash mentions: after a line start, white space or an opener
    ("Run /deploy now.", [(SLASH, "/deploy", "deploy")]),
    ("/deploy", [(SLASH, "/deploy", "deploy")]),
    ("(see /deploy)", [(SLASH, "/deploy", "deploy")]),
    ('say "/deploy"', [(SLASH, "/deploy", "deploy")]),
    ("**/deploy**", [(SLASH, "/deploy", "deploy")]),
    ("then /deploy.", [(SLASH, "/deploy", "deploy")]),
    ("then /deploy, /review!", [(SLASH, "/deploy", "deploy"), (SLASH, "/review", "review")]),
    ("run /acme:lint on it", [(SLASH, "/acme:lint", "lint")]),
    ("an unknown /frobnicate too", [(SLASH, "/frobnicate", "frobnicate")]),
    ("Unicode /skill-é works", [(SLASH, "/skill-é", "skill-é")]),
    # not mentions: paths, URLs, words, files, link targets, folders, numbers
    ("/usr/bin/env", []),
    ("see https://example.com/deploy", []),
    ("and/or", []),
    ("open /notes.txt", []),
    ("[docs](/deploy)", []),
    ("write to /tmp and /etc", []),
    ("rate it 4 /5", []),
    ("a/b/deploy", []),
    ("\\/deploy", []),
    ("~/deploy", []),
    ("/deploy/sub", []),
    ("/Deploy-X(", []),
    # code: only a `/name` that starts the code or a line of it
    ("`/deploy prod`", [(SLASH, "/deploy", "deploy")]),
    ("`cd /deploy`", []),
    ("```\n/deploy prod\n$ /review\ncd /deploy\n```\n",
     [(SLASH, "/deploy", "deploy"), (SLASH, "/review", "review")]),
    # backticks: exactly a known name
    ("Use `deploy` or `acme:lint`.", [(CODE, "deploy", "deploy"), (CODE, "acme:lint", "lint")]),
    ("Use `deploy it` or `unknown`.", []),
    # prose: only distinctive names, as whole words
    ("Use pdf-tools here.", [(PROSE, "pdf-tools", "pdf-tools")]),
    ("Use pdf-tools.", [(PROSE, "pdf-tools", "pdf-tools")]),
    ("not pdf-tools-extra nor my-pdf-tools nor pdf-tools/x", []),
    ("Please review and deploy.", []),
    ("```\npdf-tools\n```\n", []),
    # links: a path segment named like a skill (the caller resolves it)
    ("[d](../deploy/SKILL.md)", [(LINK, "deploy", "deploy")]),
    ("[d](https://x.io/deploy/)", []),
    ("`[d](../deploy/SKILL.md)`", []),
])
def test_what_is_and_is_not_a_mention(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ('{"skills": ["./skills/deploy"]}', [(LINK, "deploy", "deploy")]),
    ('{"description": "Adds /deploy"}', [(SLASH, "/deploy", "deploy")]),
    ('{"commands": ["deploy"]}', [(CODE, "deploy", "deploy")]),
    ('{"name": "deploy"}', []),  # a plugin's own name, not a mention
    ('{"homepage": "https://x.io/deploy"}', []),
])
def test_mentions_in_a_manifest(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert [(m.kind, text[m.span.start:m.span.end], text[m.name_span.start:m.name_span.end])
            for m in find_mentions(text, KNOWN, markdown=False)] == expected


def test_mention_at_includes_the_end() -> None:
    text = "Run /deploy now"
    mentions = find_mentions(text)
    assert mention_at(mentions, 4) == mention_at(mentions, 11) == mentions[0]
    assert mention_at(mentions, 12) is None


@pytest.mark.parametrize(("relative", "kind"), [
    ("CLAUDE.md", "memory"), ("sub/AGENTS.md", "memory"), ("claude.local.md", "memory"),
    (".claude/agents/reviewer.md", "agent"), (".claude/commands/ship.md", "command"),
    (".claude/commands/group/ship.md", "command"), (".claude-plugin/plugin.json", "manifest"),
    ("plug/.claude-plugin/marketplace.json", "manifest"), ("x/SKILL.md", "skill"),
    ("README.md", None), (".claude/settings.json", None), ("plugin.json", None),
    (".claude/skills/x/notes.md", None),
])
def test_which_files_mention_skills(relative: str, kind: str | None) -> None:
    assert file_kind(Path("/w") / relative) == kind


#: pieces that make mentions, near-mentions and Markdown structure likely
_PIECES = [*"/`[]()-:._ \n\r\tdeployé😀$>~\\\"'#*", "```\n", "/deploy", "pdf-tools", "](",
           "\r\n", "`deploy`", "---\n", "/acme:lint", "https://"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=80).map("".join))
def test_the_finder_never_crashes_and_its_spans_are_sound(text: str) -> None:
    for markdown in (True, False):
        mentions = find_mentions(text, KNOWN, markdown=markdown)
        starts = [m.span.start for m in mentions]
        assert starts == sorted(starts)
        for mention in mentions:
            assert 0 <= mention.span.start <= mention.name_span.start
            assert mention.name_span.end == mention.span.end <= len(text)
            assert text[mention.name_span.start:mention.name_span.end] == mention.name
            if mention.kind == SLASH:
                assert text[mention.span.start] == "/"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([*_PIECES, "\ufeff", "name: deploy\n", "---\r\n"]),
                max_size=60).map("".join))
def test_reading_any_file_never_crashes(text: str) -> None:
    for path in (Path("/w/CLAUDE.md"), Path("/w/.claude/agents/a.md"),
                 Path("/w/.claude-plugin/plugin.json")):
        found = read_mentions(path, text, KNOWN)
        body = found.lines.text
        assert body == (text[1:] if text.startswith("\ufeff") else text)
        assert all(0 <= m.span.start <= m.span.end <= len(body) for m in found.mentions)


# -- the workspace -------------------------------------------------------------------------------
SKILL = "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\n# {name}\n"


def workspace(root: Path, files: dict[str, str]) -> SkillIndex:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    (root / ".git").mkdir(exist_ok=True)
    index = SkillIndex()
    index.rebuild([root], Settings(home=root / "home", personal=False))
    return index


def read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except OSError:
        return None


CLAUDE = "\ufeff# Project\r\n😀 Run /deploy, then `deploy` and [it](.claude/skills/deploy/SKILL.md).\r\n" \
         "Not /deplyo nor /compact nor /ship nor /usr/bin nor /mcp__srv__go.\r\n"


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, SkillIndex]:
    index = workspace(tmp_path, {
        ".claude/skills/deploy/SKILL.md": SKILL.format(name="deploy"),
        ".claude/skills/other/SKILL.md": SKILL.format(name="other") + "Then /deploy.\n",
        "CLAUDE.md": CLAUDE,
        "AGENTS.md": "Use /deploy.\n",
        ".claude/agents/shipper.md": "---\nname: deploy\ndescription: x\n---\nCall `deploy`.\n",
        ".claude/commands/ship.md": "Ship it with /deploy.\n",
        "plug/.claude-plugin/plugin.json": '{"name": "plug", "skills": ["./skills/deploy"]}',
        "README.md": "/deploy here is not scanned\n",
    })
    return tmp_path, index


def test_the_workspace_files_that_may_mention_skills(project: tuple[Path, SkillIndex]) -> None:
    root, _index = project
    assert [p.relative_to(root).as_posix() for p in mention_files([root])] == [
        "AGENTS.md", "CLAUDE.md", ".claude/agents/shipper.md", ".claude/commands/ship.md",
        "plug/.claude-plugin/plugin.json"]


def test_references_find_every_mention_with_exact_offsets(project: tuple[Path, SkillIndex]) -> None:
    root, index = project
    skill = index.named("deploy")[0]
    places = references(skill, index, read)
    shown = [(p.path.relative_to(root).as_posix(), p.lines.text[p.span.start:p.span.end])
             for p in places]
    assert shown == [
        (".claude/skills/other/SKILL.md", "/deploy"),
        ("AGENTS.md", "/deploy"),
        ("CLAUDE.md", "/deploy"), ("CLAUDE.md", "deploy"), ("CLAUDE.md", "deploy"),
        (".claude/agents/shipper.md", "deploy"),  # `deploy` in the body, not its own name:
        (".claude/commands/ship.md", "/deploy"),
    ]
    claude = [p for p in places if p.path.name == "CLAUDE.md"]
    assert claude[0].bom and claude[0].lines.position(claude[0].span.start).character == 6
    assert claude[0].lines.position(claude[0].span.start).line == 1  # CRLF counted as one break
    declared = declaration(skill, read)
    assert declared is not None and declared.lines.text[declared.span.start:declared.span.end] \
        == "deploy" and declared.span == Span(10, 16)


def test_the_skill_at_a_name_a_heading_or_a_mention(project: tuple[Path, SkillIndex]) -> None:
    root, index = project
    own = root / ".claude/skills/deploy/SKILL.md"
    text = SKILL.format(name="deploy")
    assert [e.name for e in skill_at(own, text, text.index("deploy"), index)] == ["deploy"]
    assert [e.name for e in skill_at(own, text, text.index("# deploy") + 3, index)] == ["deploy"]
    assert skill_at(own, text, text.index("description") + 2, index) == []
    claude = (root / "CLAUDE.md").read_bytes().decode("utf-8-sig")
    assert [e.name for e in skill_at(root / "CLAUDE.md", claude, claude.index("/deploy") + 1,
                                     index)] == ["deploy"]
    assert skill_at(root / "CLAUDE.md", claude, claude.index("/deplyo") + 1, index) == []


def test_unknown_slash_mentions_are_reported_with_did_you_mean(
        project: tuple[Path, SkillIndex]) -> None:
    root, index = project
    text = read(root / "CLAUDE.md")
    assert text is not None
    mentions = read_mentions(root / "CLAUDE.md", text, {"deploy", "other"})
    commands = command_names([root], None)
    assert commands == {"ship"}
    findings = mention_findings(mentions, index, Settings.for_target("claude-code"), commands)
    assert [(f.code, mentions.lines.text[f.span.start:f.span.end]) for f in findings] == [
        ("SK152", "/deplyo")]  # /compact is built in, /ship a command file, MCP left alone
    finding = findings[0]
    assert "Did you mean `/deploy`?" in finding.message
    assert finding.range is not None and (finding.range.start.line,
                                          finding.range.start.character) == (2, 4)
    fixed = apply_edits(mentions.lines.text, finding.fixes[0].edits)
    assert "Not /deploy nor" in fixed
    assert mention_findings(mentions, index, Settings.for_target("codex"), commands) == []
    assert mention_findings(mentions, index, Settings.for_target("claude-code",
                                                                  ignore=("SK152",)), commands) == []


def test_an_unknown_name_far_from_every_skill_has_no_suggestion(tmp_path: Path) -> None:
    index = workspace(tmp_path, {".claude/skills/deploy/SKILL.md": SKILL.format(name="deploy")})
    mentions = read_mentions(tmp_path / "AGENTS.md", "Run /zzzzqqq first, /deplyo next.\n",
                             {"deploy"})
    findings = mention_findings(mentions, index, Settings.for_target("wave"), set())
    assert [len(f.fixes) for f in findings] == [0, 1]
    assert "Did you mean" not in findings[0].message and "Did you mean" in findings[1].message
    # the first sentence says what to do (docs/design/rules.md *How a message reads*)
    from tests.core.test_message_style import says_what_to_do

    assert all(says_what_to_do(f.message) for f in findings), [f.message for f in findings]


@pytest.mark.parametrize("name", ["compact", "init", "clear", "help", "context", "model",
                                  "code-review", "security-review", "cost", "settings"])
def test_claude_codes_built_in_commands_are_known(name: str) -> None:
    assert name in builtin_commands()


def test_a_rename_from_claude_md_reaches_every_kind_of_file(
        project: tuple[Path, SkillIndex]) -> None:
    root, index = project
    text = (root / "CLAUDE.md").read_bytes().decode("utf-8-sig")
    context = FeatureContext.for_text(SKILL.format(name="deploy"),
                                      root / ".claude/skills/deploy/SKILL.md", index=index)
    target = rename_target(context, SKILL.format(name="deploy").index("deploy"))
    assert target is not None
    plan = plan_rename(target, "ship-it", index, settings=Settings(home=root / "home"),
                       read=read)
    edited = {item.path.relative_to(root).as_posix(): apply_edits(item.lines.text,
                                                                   list(item.edits))
              for item in plan.files}
    assert edited["CLAUDE.md"] == text.replace(
        "Run /deploy, then `deploy` and [it](.claude/skills/deploy/SKILL.md)",
        "Run /ship-it, then `ship-it` and [it](.claude/skills/ship-it/SKILL.md)")
    assert [item.bom for item in plan.files if item.path.name == "CLAUDE.md"] == [True]
    assert edited["AGENTS.md"] == "Use /ship-it.\n"
    assert edited[".claude/agents/shipper.md"] == \
        "---\nname: deploy\ndescription: x\n---\nCall `ship-it`.\n"  # its own name kept
    assert edited[".claude/commands/ship.md"] == "Ship it with /ship-it.\n"
    assert "README.md" not in edited
    assert plan.folder is not None and plan.folder.new.name == "ship-it"


def test_a_manifest_path_follows_a_renamed_folder(tmp_path: Path) -> None:
    index = workspace(tmp_path, {
        "plug/skills/old-one/SKILL.md": SKILL.format(name="old-one"),
        "plug/.claude-plugin/plugin.json": '{"name": "plug", "skills": ["./skills/old-one"]}',
    })
    skill = tmp_path / "plug/skills/old-one/SKILL.md"
    text = SKILL.format(name="old-one")
    context = FeatureContext.for_text(text, skill, index=index)
    target = rename_target(context, text.index("old-one"))
    assert target is not None
    plan = plan_rename(target, "new-one", index, settings=Settings(home=tmp_path / "home"),
                       read=read)
    edited = {item.path.name: apply_edits(item.lines.text, list(item.edits)) for item in plan.files}
    assert edited["plugin.json"] == '{"name": "plug", "skills": ["./skills/new-one"]}'


@pytest.mark.parametrize(("text", "reported"), [
    ("Run /zzdeploy now.\n", True),
    ("Run /zzdeploy now. <!-- wave-lsp: ignore SK152 -->\n", False),
    ("<!-- wave-lsp: ignore-file SK152 -->\nRun /zzdeploy now.\n", False),
    ("Run /zzdeploy now. <!-- wave-lsp: ignore SK001 -->\n", True),
])
def test_a_suppression_comment_silences_sk152(tmp_path: Path, text: str, reported: bool) -> None:
    index = workspace(tmp_path, {".claude/skills/deploy/SKILL.md": SKILL.format(name="deploy")})
    mentions = read_mentions(tmp_path / "CLAUDE.md", text, {"deploy"})
    findings = mention_findings(mentions, index, Settings.for_target("wave"), set())
    assert [f.code for f in findings] == (["SK152"] if reported else [])
