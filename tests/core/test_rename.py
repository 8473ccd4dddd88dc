"""Renaming a skill in the pure core (`wave_lsp.core.features.rename`): where a rename can start,
the validation of the new name, and the edits of the plan over a small workspace on disk — in
document offsets, table-driven."""

from __future__ import annotations

from pathlib import Path

import pytest

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.findings import apply_edits
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.features.rename import (
    RenameError,
    RenamePlan,
    check_new_name,
    plan_rename,
    read_from_disk,
    rename_target,
)
from wave_lsp.core.workspace.index import SkillIndex

CURSOR = "‸"
SETTINGS = Settings(personal=False)

OLD = "---\nname: old-name\ndescription: The old one. Use when asked.\n---\n# Old\n"
USER = ("---\nname: user\ndescription: Uses the old one. Use when asked.\n---\n"
        "Run /old-name first, then /old-name-two; not /other.\n"
        "See [old](../old-name/SKILL.md) and [its guide](../old-name/references/guide.md).\n"
        "Also [dir](<../old-name/>) but not [x](../old-name-two/SKILL.md).\n")


def workspace(root: Path, files: dict[str, str]) -> tuple[Path, SkillIndex]:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    (root / ".git").mkdir(exist_ok=True)
    index = SkillIndex()
    index.rebuild([root], SETTINGS)
    return root, index


def at(text: str, path: Path, index: SkillIndex) -> tuple[FeatureContext, int]:
    offset = text.index(CURSOR)
    clean = text.replace(CURSOR, "")
    return FeatureContext.for_text(clean, path, SETTINGS, index), offset


def applied(plan: RenamePlan, path: Path) -> str:
    """The file's text after the plan's edits (the text the plan's offsets refer to)."""
    found = next(item for item in plan.files if item.path == path)
    return apply_edits(found.lines.text, list(found.edits))


# -- where a rename can start ---------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("---\nname: old‸-name\n---\n", ("old-name", "old-name")),
    ("---\nname: ‸old-name\n---\n", ("old-name", "old-name")),
    ("---\nname: old-name‸\n---\n", ("old-name", "old-name")),  # just after the last character
    ('---\nname: "old-‸name"\n---\n', ("old-name", "old-name")),  # inside the quotes
    ("---\nname: 'old-‸name'  # a comment\n---\n", ("old-name", "old-name")),
    ("---\r\nname: \"é‸-ü\"\r\n---\r\n", ("é-ü", "é-ü")),  # CRLF, non-ASCII
    ("\ufeff---\nname: o‸ld-name\n---\n", ("old-name", "old-name")),  # byte-order mark
    ("---\nna‸me: old-name\n---\n", None),  # the key, not the value
    ("---\nname: old-name\ndescription: o‸ld\n---\n", None),
    ("---\nname: |\n  old‸-name\n---\n", None),  # a block scalar
    ("---\nname: \"\"‸\n---\n", None),
    ("---\nname: old-name\n---\nPlain te‸xt.\n", None),
    ("---\nname: old-name\n---\nRun /unknown‸-skill.\n", None),  # not a known skill
])
def test_where_a_rename_starts(tmp_path: Path, text: str,
                               expected: tuple[str, str] | None) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD})
    path = root / ".wave/skills/old-name/SKILL.md"
    context, offset = at(text, path, index)
    target = rename_target(context, offset)
    if expected is None:
        assert target is None
        return
    assert target is not None
    written, placeholder = expected
    document = context.document.text
    assert document[target.span.start:target.span.end] == written
    assert target.name == placeholder and target.skill_file == path


@pytest.mark.parametrize("text", [
    "Run /old‸-name now.", "Run /old-name‸ now.", "/‸old-name at the start of a line.",
])
def test_a_mention_of_another_skill_is_a_rename_target(tmp_path: Path, text: str) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD})
    user = root / ".wave/skills/user/SKILL.md"
    context, offset = at(f"---\nname: user\n---\n{text}\n", user, index)
    target = rename_target(context, offset)
    assert target is not None
    assert context.document.text[target.span.start:target.span.end] == "old-name"
    assert target.skill_file == root / ".wave/skills/old-name/SKILL.md"


def test_a_mention_of_two_skills_of_one_name_is_refused(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD,
                                       "elsewhere/old-name/SKILL.md": OLD})
    context, offset = at("---\nname: user\n---\nRun /old‸-name.\n",
                         root / ".wave/skills/user/SKILL.md", index)
    with pytest.raises(RenameError, match="Several skills are named `old-name`"):
        rename_target(context, offset)


# -- the new name ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("new", "fragments"), [
    ("New-Name", ["upper-case", "(SK034)"]),
    ("new name", ["space", "(SK037)"]),
    ("new_name", ["`_`", "(SK037)"]),
    ("-new", ["starts or ends with `-`", "(SK035)"]),
    ("new--name", ["`--`", "(SK036)"]),
    ("nouveau-nom-é", ["non-ASCII", "(SK038)"]),
    ("x" * 65, ["65 characters", "(SK033)"]),
    ("", ["empty", "(SK032)"]),
    (" new", ["white space", "(SK041)"]),
])
def test_an_invalid_new_name_is_refused_with_the_checkers_reason(new: str,
                                                                 fragments: list[str]) -> None:
    with pytest.raises(RenameError) as raised:
        check_new_name(new, SETTINGS)
    assert raised.value.invalid_name
    assert raised.value.message.startswith(f"`{new}` is not a valid skill name: ")
    for fragment in fragments:
        assert fragment in raised.value.message


@pytest.mark.parametrize("new", ["new-name", "a", "x" * 64, "v2", "pdf-2-text"])
def test_a_valid_new_name_is_accepted(new: str) -> None:
    check_new_name(new, SETTINGS)


# -- the plan -------------------------------------------------------------------------------------
def _plan(root: Path, index: SkillIndex, relative: str, new: str, old: str = "old-name",
          **options: object) -> RenamePlan:
    """The plan of a rename started on the `name:` value of the file at `relative`."""
    path = root / relative
    source = path.read_bytes().decode("utf-8-sig")
    offset = source.index(old, source.index("name:")) + 1
    context = FeatureContext.for_text(source, path, SETTINGS, index)
    target = rename_target(context, offset)
    assert target is not None
    return plan_rename(target, new, index, settings=SETTINGS, **options)  # type: ignore[arg-type]


def test_the_plan_renames_the_name_the_mentions_the_links_and_the_folder(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {
        ".wave/skills/old-name/SKILL.md": OLD,
        ".wave/skills/old-name/references/guide.md": "# Guide\n",
        ".wave/skills/old-name-two/SKILL.md": OLD.replace("old-name", "old-name-two"),
        ".wave/skills/user/SKILL.md": USER,
    })
    plan = _plan(root, index, ".wave/skills/old-name/SKILL.md", "new-name")
    own, user = root / ".wave/skills/old-name/SKILL.md", root / ".wave/skills/user/SKILL.md"
    assert [item.path for item in plan.files] == [own, user]
    assert applied(plan, own) == OLD.replace("name: old-name", "name: new-name")
    assert applied(plan, user) == (
        "---\nname: user\ndescription: Uses the old one. Use when asked.\n---\n"
        "Run /new-name first, then /old-name-two; not /other.\n"
        "See [old](../new-name/SKILL.md) and [its guide](../new-name/references/guide.md).\n"
        "Also [dir](<../new-name/>) but not [x](../old-name-two/SKILL.md).\n")
    assert plan.folder is not None
    assert (plan.folder.old, plan.folder.new) == (own.parent, root / ".wave/skills/new-name")
    assert (plan.old_name, plan.new_name, plan.notes) == ("old-name", "new-name", ())


@pytest.mark.parametrize(("written", "expected"), [
    ('name: "old-name"', 'name: "new-name"'),
    ("name: 'old-name'", "name: 'new-name'"),
    ("name: old-name   # keep me", "name: new-name   # keep me"),
    ("name: !!str old-name", "name: !!str new-name"),
])
def test_the_name_value_keeps_its_quotes_and_comment(tmp_path: Path, written: str,
                                                     expected: str) -> None:
    root, index = workspace(tmp_path, {
        ".wave/skills/old-name/SKILL.md": OLD.replace("name: old-name", written)})
    plan = _plan(root, index, ".wave/skills/old-name/SKILL.md", "new-name")
    assert applied(plan, root / ".wave/skills/old-name/SKILL.md") == OLD.replace(
        "name: old-name", expected)


def test_crlf_non_ascii_and_a_byte_order_mark_keep_exact_offsets(tmp_path: Path) -> None:
    own = "\ufeff---\r\nname: \"skill-é\"\r\ndescription: Äh 😀. Use when asked.\r\n---\r\n" \
          "😀 /skill-é and /skill-é\r\n"
    user = "---\r\nname: user\r\ndescription: Ü. Use when asked.\r\n---\r\n" \
           "😀😀 Call /skill-é — [é](../skill-é/SKILL.md) [enc](../skill-%C3%A9/SKILL.md)\r\n"
    root, index = workspace(tmp_path, {".wave/skills/skill-é/SKILL.md": own,
                                       ".wave/skills/user/SKILL.md": user})
    relative = ".wave/skills/skill-é/SKILL.md"
    assert not _plan(root, index, relative, "skill-e", "skill-é").files[0].bom  # a closed file

    def read_as_shown(path: Path) -> str | None:  # an editor that shows the mark as a character
        return path.read_bytes().decode("utf-8")

    plan = _plan(root, index, relative, "skill-e", "skill-é", read=read_as_shown)
    own_edits = plan.files[0]
    assert own_edits.bom  # the offsets do not count the mark; the language server adds it
    assert applied(plan, root / ".wave/skills/skill-é/SKILL.md") == own[1:].replace(
        "skill-é", "skill-e")
    assert applied(plan, root / ".wave/skills/user/SKILL.md") == user.replace(
        "/skill-é", "/skill-e").replace("../skill-é", "../skill-e").replace(
        "../skill-%C3%A9", "../skill-e")
    first = own_edits.edits[0]
    position = own_edits.lines.position(first.span.start)
    assert (position.line, position.character) == (1, 7)  # after `name: "`, CRLF not counted


def test_a_folder_named_otherwise_is_not_renamed_and_links_stay(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {
        ".wave/skills/the-folder/SKILL.md": OLD,
        ".wave/skills/user/SKILL.md": "---\nname: user\n---\n/old-name "
                                      "[x](../the-folder/SKILL.md)\n",
    })
    plan = _plan(root, index, ".wave/skills/the-folder/SKILL.md", "new-name")
    assert plan.folder is None
    assert applied(plan, root / ".wave/skills/user/SKILL.md") == (
        "---\nname: user\n---\n/new-name [x](../the-folder/SKILL.md)\n")


def test_the_editors_text_is_used_for_open_files(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD,
                                       ".wave/skills/user/SKILL.md": USER})
    user = root / ".wave/skills/user/SKILL.md"
    unsaved = "---\nname: user\n---\nUnsaved: /old-name.\n"

    def read(path: Path) -> str | None:
        return unsaved if path == user else read_from_disk(path)

    plan = _plan(root, index, ".wave/skills/old-name/SKILL.md", "new-name", read=read)
    assert applied(plan, user) == "---\nname: user\n---\nUnsaved: /new-name.\n"


def test_a_name_taken_by_another_skill_is_refused(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD,
                                       ".wave/skills/taken/SKILL.md": "---\nname: taken\n---\n"})
    with pytest.raises(RenameError, match="A skill named `taken` already exists"):
        _plan(root, index, ".wave/skills/old-name/SKILL.md", "taken")


def test_an_existing_folder_of_the_new_name_is_refused(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD,
                                       ".wave/skills/new-name/notes.txt": "not a skill\n"})
    with pytest.raises(RenameError, match="already exists"):
        _plan(root, index, ".wave/skills/old-name/SKILL.md", "new-name")


def test_an_invalid_new_name_is_refused_before_any_edit(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD})
    with pytest.raises(RenameError) as raised:
        _plan(root, index, ".wave/skills/old-name/SKILL.md", "New Name")
    assert raised.value.invalid_name and "(SK034)" in raised.value.message


def test_mentions_of_a_shared_name_are_left_with_a_note(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD,
                                       "other/old-name/SKILL.md": OLD,
                                       ".wave/skills/user/SKILL.md": USER})
    plan = _plan(root, index, ".wave/skills/old-name/SKILL.md", "new-name")
    user = applied(plan, root / ".wave/skills/user/SKILL.md")
    assert "Run /old-name first" in user and "[old](../new-name/SKILL.md)" in user
    assert plan.notes and "other skill(s)" in plan.notes[0]


def test_a_mention_starts_the_same_plan(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {".wave/skills/old-name/SKILL.md": OLD,
                                       ".wave/skills/user/SKILL.md": USER})
    user = root / ".wave/skills/user/SKILL.md"
    context, offset = at(USER.replace("Run /old-name", "Run /old‸-name"), user, index)
    target = rename_target(context, offset)
    assert target is not None
    plan = plan_rename(target, "new-name", index, settings=SETTINGS)
    assert plan.files[0].path == root / ".wave/skills/old-name/SKILL.md"
    assert "Run /new-name first" in applied(plan, user)


def test_a_plugin_skill_is_renamed_in_its_qualified_mentions(tmp_path: Path) -> None:
    root, index = workspace(tmp_path, {
        "plug/.claude-plugin/plugin.json": '{"name": "plug"}',
        "plug/skills/old-name/SKILL.md": OLD,
        ".wave/skills/user/SKILL.md": "---\nname: user\n---\n"
                                      "Run /plug:old-name, not /old-name.\n"
                                      "[ref]: ../../../plug/skills/old-name/SKILL.md\n",
    })
    user = root / ".wave/skills/user/SKILL.md"
    context, offset = at("---\nname: user\n---\nRun /plug:old‸-name, not /old-name.\n", user, index)
    target = rename_target(context, offset)
    assert target is not None and target.name == "old-name"
    assert context.document.text[target.span.start:target.span.end] == "old-name"
    plan = plan_rename(target, "new-name", index, settings=SETTINGS)
    assert applied(plan, user) == ("---\nname: user\n---\nRun /plug:new-name, not /old-name.\n"
                                   "[ref]: ../../../plug/skills/new-name/SKILL.md\n")
    assert plan.folder is not None and plan.folder.new == root / "plug/skills/new-name"


def test_the_opened_folder_itself_is_not_renamed(tmp_path: Path) -> None:
    """A skill repository opened as the workspace folder (`old-name/SKILL.md` at its root, the
    layout of a repository that distributes one skill): renaming the skill must not rename the
    folder the editor has open (the editor would lose its workspace), and says so instead."""
    root, index = workspace(tmp_path / "old-name", {"SKILL.md": OLD})
    plan = _plan(root, index, "SKILL.md", "new-name")
    assert applied(plan, root / "SKILL.md") == OLD.replace("name: old-name", "name: new-name")
    assert plan.folder is None
    assert any(str(root) in note and "rename" in note for note in plan.notes)


def test_a_workspace_opened_through_a_symbolic_link(tmp_path: Path) -> None:
    """The editor's paths go through the link (`/tmp` on macOS is one); the index resolves its
    folders. The renamed skill must not count as another skill of the same name (its mentions
    would be left alone with a wrong note) nor be edited twice under two paths."""
    real, _ = workspace(tmp_path / "real", {".wave/skills/old-name/SKILL.md": OLD + "See /old-name.\n",
                                            ".wave/skills/user/SKILL.md": USER})
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    index = SkillIndex()
    index.rebuild([link], SETTINGS)
    plan = _plan(link, index, ".wave/skills/old-name/SKILL.md", "new-name")
    assert plan.notes == ()
    assert len({path.resolve() for path in (item.path for item in plan.files)}) == len(plan.files)
    assert "Run /new-name first" in applied(plan, plan.files[-1].path)
