"""Issue 37, the sixth unseen sample (benchmarks/RESULTS.md *Sample 6*): each mechanism that made a
conditional, false or noisy finding there, with the counterpart that stays reported (recall)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.checker import FileReport, check_file
from wave_lsp.core.checking.config import Settings

HEAD = "---\nname: {name}\ndescription: Reviews term sheets. Use when asked to review one.\n---\n"


def found(report, code: str) -> list:
    return [f for f in report.findings if f.code == code]


def write(root: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content, "utf-8")


def check(root: Path, text: str, relpath: str, target: str | None = None,
          severity: dict[str, Severity] | None = None) -> FileReport:
    """`check` as a user runs it: no target configured unless `target` names one."""
    write(root, {relpath: text})
    settings = Settings(auto_target=True, home=root / "home", severity=severity or {})
    if target is not None:
        settings = settings.merged(target=target)
    return check_file(root / relpath, settings, strict=True)


# -- no runtime known: only what holds under every runtime is an error or warning ------------------
MONEY = "For larger checks ($100K+), ask for observer rights.\n"
GONE = "Read [the guide](references/guide.md) first.\n"
AGENT = "---\nname: reviewer\ndescription: Reviews.\nskills:\n  - term-sheets\n---\nReview.\n"


@pytest.mark.parametrize(("files", "settings", "money", "checked_for"), [
    # a root `skills/` collection nothing assigns to a runtime: Wave's `$100` is information
    ({}, {}, Severity.INFORMATION, "wave"),
    # an explicit target keeps the runtime's level
    ({}, {"target": "wave"}, Severity.WARNING, "wave"),
    # an agent beside the collection preloads the skill: Claude Code's sub-agent format
    ({"agents/reviewer.md": AGENT}, {}, None, "claude-code"),
    # a README copies the collection into `.wave/skills`: Wave reads it, at Wave's level
    ({"README.md": "cp -r skills/* .wave/skills/\n"}, {}, Severity.WARNING, "wave"),
])
def test_a_collection_no_runtime_is_known_to_read(tmp_path: Path, files: dict[str, str],
                                                  settings: dict[str, str],
                                                  money: Severity | None, checked_for: str
                                                  ) -> None:
    write(tmp_path, {".git/HEAD": "", **files})
    report = check(tmp_path, HEAD.format(name="term-sheets") + MONEY + GONE,
                   "skills/term-sheets/SKILL.md", **settings)
    assert report.target == checked_for
    levels = [f.severity for f in found(report, "SK115")]
    assert levels == ([] if money is None else [money]), [f.message for f in report.findings]
    if money is Severity.INFORMATION and not settings:
        message = found(report, "SK115")[0].message
        assert "no runtime is known to read this file" in message and "--target" in message
    # a broken link is a warning under every runtime: it stays one
    assert [f.severity for f in found(report, "SK112")] == [Severity.WARNING]


def test_a_users_severity_override_wins_over_the_cap(tmp_path: Path) -> None:
    write(tmp_path, {".git/HEAD": ""})
    report = check(tmp_path, HEAD.format(name="term-sheets") + MONEY,
                   "skills/term-sheets/SKILL.md", severity={"SK115": Severity.WARNING})
    assert [f.severity for f in found(report, "SK115")] == [Severity.WARNING]


# -- SK113: a sibling skill of a collection, and a path that is dead ------------------------------
SIBLING = "See [the spec](../spec/SKILL.md) and [gone](../nowhere/SKILL.md).\n"


@pytest.mark.parametrize(("readme", "sibling"), [
    # nothing says how the collection is installed: a warning that says both ways
    (None, Severity.WARNING),
    # a README installs one skill at a time: a warning that says so
    ("npx skills add me/repo --skill review\n", Severity.WARNING),
    # a README installs several skills side by side: nothing beyond information
    ("npx skills add https://github.com/me/repo \\\n  --skill review --skill spec\n", None),
    ("npx skills add me/repo\n", None),
])
def test_a_sibling_skill_of_a_collection(tmp_path: Path, readme: str | None,
                                         sibling: Severity | None) -> None:
    write(tmp_path, {".git/HEAD": "", "skills/spec/SKILL.md": HEAD.format(name="spec"),
                     **({"README.md": readme} if readme is not None else {})})
    report = run(tmp_path, HEAD.format(name="review") + SIBLING, target="claude-code",
                 relpath="skills/review/SKILL.md")
    by_target = {f.message.split("`")[1]: f for f in found(report, "SK113")}
    dead = by_target["../nowhere/SKILL.md"]
    assert dead.severity == Severity.WARNING and "points nowhere" in dead.message
    spec = by_target.get("../spec/SKILL.md")
    if sibling is None:
        assert spec is None or spec.severity == Severity.INFORMATION
        return
    assert spec is not None and spec.severity == sibling
    assert "sibling skill `spec`" in spec.message
    assert "installed side by side" in spec.message and "installed alone" in spec.message
    assert ("installs it alone" in spec.message) is (readme is not None)


def test_a_dead_sibling_the_author_marks_optional(tmp_path: Path) -> None:
    write(tmp_path, {".git/HEAD": ""})
    body = ("- [FastAPI](../fastapi-api-layer/SKILL.md) — for API layer (if exists)\n"
            "- [SQL](../sql-expert/SKILL.md) — for queries\n")
    report = run(tmp_path, HEAD.format(name="telegram") + body, target="claude-code",
                 relpath="skills/telegram/SKILL.md")
    levels = {f.message.split("`")[1]: f.severity for f in found(report, "SK113")}
    assert levels == {"../fastapi-api-layer/SKILL.md": Severity.INFORMATION,
                      "../sql-expert/SKILL.md": Severity.WARNING}


# -- SK112: a delimited path with spaces is one path -----------------------------------------------
@pytest.mark.parametrize(("line", "files", "reported"), [
    ("Consult `references/YC SAFE User Guide.pdf` for guidance.",
     {"references/YC SAFE User Guide.pdf": "x"}, []),
    ('Open "references/My Notes.md" now.', {"references/My Notes.md": "x"}, []),
    # the whole path is what is missing
    ("Consult `references/YC SAFE User Guide.pdf` for guidance.", {},
     ["references/YC SAFE User Guide.pdf"]),
    # a command and its argument stay apart
    ("Run `scripts/deploy prod.yml` now.", {"scripts/deploy": "x"}, []),
    ("Read `references/api.md and more` here.", {"references/api.md": "x"}, []),
])
def test_a_path_with_spaces(tmp_path: Path, line: str, files: dict[str, str],
                            reported: list[str]) -> None:
    write(tmp_path, {".git/HEAD": "", **{f"skills/safe/{k}": v for k, v in files.items()}})
    report = run(tmp_path, HEAD.format(name="safe") + line + "\n", target="claude-code",
                 relpath="skills/safe/SKILL.md")
    assert [f.data.get("target", f.message.split("`")[1]) for f in found(report, "SK112")] \
        == reported, [f.message for f in found(report, "SK112")]


# -- SK140: media are never read as text; the rest said once per folder ----------------------------
def test_unreadable_resources_once_per_folder(tmp_path: Path) -> None:
    binary = "PK\x00\x00"
    files = {f"my-skill/assets/brand/{n}.png": binary for n in range(5)}
    files |= {"my-skill/assets/fonts/a.woff2": binary, "my-skill/references/a.xlsx": binary,
              "my-skill/references/b.xlsx": binary, "my-skill/references/c.bin": binary}
    report = run(tmp_path, HEAD.format(name="my-skill"), target="portable", files=files)
    resources = sorted((Path(f.path).name, f.message) for f in found(report, "SK140"))
    assert [name for name, _ in resources] == ["a.xlsx"]
    assert "2 other files there" in resources[0][1]


# -- SK114: two files that cross-refer are no chain ------------------------------------------------
@pytest.mark.parametrize(("files", "reported"), [
    ({"my-skill/references/a.md": "See also [b](b.md).\n",
      "my-skill/references/b.md": "Go back to [a](a.md).\n"}, False),
    ({"my-skill/references/a.md": "See [b](b.md).\n", "my-skill/references/b.md": "[c](c.md)\n",
      "my-skill/references/c.md": "[a](a.md)\n"}, True),
])
def test_a_reference_cycle(tmp_path: Path, files: dict[str, str], reported: bool) -> None:
    report = run(tmp_path, HEAD.format(name="my-skill") + "Start with [a](references/a.md).\n",
                 files=files)
    assert bool(found(report, "SK114")) is reported


# -- SK120 beside SK123, SK110 near the soft limit ---------------------------------------------------
def test_an_injection_the_runtime_refuses_gets_one_finding(tmp_path: Path) -> None:
    report = run(tmp_path, HEAD.format(name="my-skill") + "Diff: !`gh pr diff`\n",
                 target="claude-code")
    assert found(report, "SK123") and not found(report, "SK120")


@pytest.mark.parametrize(("lines", "reported"), [(565, False), (600, False), (601, True)])
def test_a_long_body(tmp_path: Path, lines: int, reported: bool) -> None:
    report = run(tmp_path, HEAD.format(name="my-skill") + "x\n" * lines)
    assert bool(found(report, "SK110")) is reported


def test_the_cap_holds_when_the_caller_chose_the_target(tmp_path: Path) -> None:
    """The language server resolves a file's settings (`Settings.for_file`) before checking it:
    the file is still one whose target nobody configured."""
    from wave_lsp.core.workspace.location import locate

    write(tmp_path, {".git/HEAD": "", "skills/term-sheets/SKILL.md":
                     HEAD.format(name="term-sheets") + MONEY})
    path = tmp_path / "skills/term-sheets/SKILL.md"
    settings = Settings(auto_target=True, home=tmp_path / "home").for_file(
        locate(path, home=tmp_path / "home"))
    assert not settings.auto_target and settings.chosen_for_file
    levels = [f.severity for f in found(check_file(path, settings, strict=True), "SK115")]
    assert levels == [Severity.INFORMATION]
    explicit = settings.merged(target="wave")
    assert [f.severity for f in found(check_file(path, explicit, strict=True), "SK115")] \
        == [Severity.WARNING]
