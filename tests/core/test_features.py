"""The pure editor features (no server): completion contexts, hovers, symbols, suppression edits,
the listing-cost lens — table-driven, in document offsets."""

from __future__ import annotations

from pathlib import Path

import pytest

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.findings import Finding, apply_edits
from wave_lsp.core.checking.suppression import collect
from wave_lsp.core.features import FeatureContext
from wave_lsp.core.features.actions import suppression_fixes
from wave_lsp.core.features.completion import complete
from wave_lsp.core.features.hover import hover
from wave_lsp.core.features.lens import listing_cost
from wave_lsp.core.features.symbols import document_symbols
from wave_lsp.core.parsing.text import Span

CURSOR = "‸"


def at(text: str, path: Path | None = None, target: str = "wave"):
    offset = text.index(CURSOR)
    clean = text.replace(CURSOR, "")
    return FeatureContext.for_text(clean, path, Settings.for_target(target)), offset


@pytest.mark.parametrize(("text", "expected", "absent"), [
    ("---\nname: x\n‸\n---\n", {"description", "allowed-tools", "when_to_use"}, {"name", "version"}),
    ("---\nname: x\nal‸\n---\n", {"allowed-tools"}, set()),
    ("---\ncontext: ‸\n---\n", {"fork", "inline"}, set()),
    # the list is filtered by what is typed: `h` keeps `high` and `xhigh`, drops `low`
    ("---\neffort: h‸\n---\n", {"high", "xhigh"}, {"low"}),
    ("---\nuser-invocable: ‸\n---\n", {"true", "false"}, set()),
    ("---\nallowed-tools: Read, ‸\n---\n", {"Grep", "Bash", "Bash(command *)"}, set()),
    ("---\nallowed-tools:\n  - ‸\n---\n", {"Read", "Bash(prefix:*)"}, set()),
    ("---\nallowed-tools: Bash(gi‸\n---\n", set(), {"Read"}),
    ("---\nhooks:\n  ‸\n---\n", {"PreToolUse", "Stop"}, set()),
    ("---\nname: x\n---\nUse $‸", {"$ARGUMENTS", "$1", "${WAVE_SKILL_DIR}"}, {"$0"}),
    # what is typed must appear as typed, not as scattered letters (issue 29)
    ("---\nallowed-tools: Ba‸\n---\n", {"Bash"}, {"NotebookRead", "NotebookEdit"}),
    ("---\nname: x\n---\nUse $AR‸", {"$ARGUMENTS"}, {"${CLAUDE_SKILL_DIR}", "${WAVE_SKILL_DIR}"}),
    ("---\nallowed-tools: Read, book‸\n---\n", {"NotebookEdit"}, {"Bash"}),
    ("---\nname: x\n---\n# Title ‸", set(), {"$ARGUMENTS"}),
])
def test_completion(text: str, expected: set[str], absent: set[str]) -> None:
    context, offset = at(text)
    labels = {c.label for c in complete(context, offset)}
    assert expected <= labels, labels
    assert not absent & labels


@pytest.mark.parametrize("target", ["wave", "opencode"])
def test_completion_offers_no_indexed_or_named_arguments_under_plain_placeholders(
        target: str) -> None:
    """Wave and OpenCode substitute neither `$ARGUMENTS[N]` nor a declared `$name`."""
    context, offset = at("---\nname: x\narguments: [issue]\n---\nUse $‸", target=target)
    candidates = {c.label: c for c in complete(context, offset)}
    assert {"$ARGUMENTS", "$1"} <= candidates.keys()
    assert not {"$ARGUMENTS[N]", "$issue", "$0"} & candidates.keys()
    rest = "As the highest `$N` written, it is argument 2 and every argument after it"
    assert (rest in (candidates["$2"].documentation or "")) is (target == "opencode")


def test_completion_under_claude_code_counts_from_zero() -> None:
    context, offset = at("---\nname: x\n---\nUse $‸", target="claude-code")
    labels = {c.label for c in complete(context, offset)}
    assert {"$0", "${CLAUDE_SKILL_DIR}"} <= labels and "${WAVE_SKILL_DIR}" not in labels


@pytest.mark.parametrize(("text", "fragment"), [
    ("---\nna‸me: x\n---\n", "Read by:"),
    ("---\nversion: 1‸\n---\n", None),
    ("---\nvers‸ion: 1\n---\n", "Not read by `wave`"),
    ("---\ndescription: |\n  line one\n  line‸ two\n---\n", "line one\nline two\n"),
    ("---\nname: x\n---\nFix $‸1 and $0", "argument 1"),
    ("---\nname: x\n---\nFix $1 and $‸0", "always empty"),
    ("---\nname: x\n---\nRun ${WAVE_PLUGIN_R‸OOT}/x", "only in plugin skills"),
    ("---\nallowed-tools: Bash(no‸de ${WAVE_SKILL_DIR}/x.mjs)\n---\n", "Registered as"),
    ("---\nallowed-tools: Bash(node ${WAVE_S‸KILL_DIR}/x.mjs)\n---\n", "Resolves to"),
])
def test_hover(text: str, fragment: str | None, tmp_path: Path) -> None:
    context, offset = at(text, tmp_path / ".wave/skills/x/SKILL.md")
    found = hover(context, offset)
    if fragment is None:
        assert found is None or "Read by" not in found.markdown
    else:
        assert found is not None and fragment in found.markdown, found


@pytest.mark.parametrize(("text", "fragment"), [
    # OpenCode: the highest `$N` of the body takes the rest, a `$0` below it is `undefined`
    ("---\nname: x\n---\nFix $1 and $‸0", "`$0` becomes `undefined` in `opencode`"),
    ("---\nname: x\n---\nFix $‸1 and $0", "`$1` — argument 1 and every argument after it"),
    ("---\nname: x\n---\nFix $‸0 now", "`$0` becomes the last argument"),
    # the highest of the whole body, not of the hovered line
    ("---\nname: x\n---\n```\n$2\n```\n\nFix $‸1", "`$1` — argument 1: `opencode` counts from 1."),
])
def test_hover_under_opencode(text: str, fragment: str, tmp_path: Path) -> None:
    context, offset = at(text, tmp_path / ".opencode/skills/x/SKILL.md", "opencode")
    found = hover(context, offset)
    assert found is not None and fragment in found.markdown, found


def test_paths_hover_counts_matching_files(tmp_path: Path) -> None:
    for name in ("src/a.ts", "src/b.ts", "src/c.py", ".venv/x.ts", "node_modules/y.ts"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", "utf-8")
    context, offset = at('---\npaths:\n  - "src/**/*.ts‸"\n---\n', tmp_path / ".wave/skills/x/SKILL.md")
    found = hover(context, offset)
    assert found is not None and found.markdown.startswith("**paths** — 2 of 3 files")


def test_symbols_nest_keys_and_headings() -> None:
    text = ("---\nname: x\nmetadata:\n  version: '1'\n---\n# A\n## B\n```\n# not a heading\n```\n"
            "## C\n# D\n")
    symbols = document_symbols(FeatureContext.for_text(text, None).document)
    assert [(s.name, [c.name for c in s.children]) for s in symbols] == [
        ("name", []), ("metadata", ["version"]), ("A", ["B", "C"]), ("D", [])]


@pytest.mark.parametrize(("text", "line", "titles", "expected_line_text"), [
    ("---\nname: x\nuser-invocable: yes\n---\n", 2, 2, "user-invocable: yes  # wave-lsp: ignore SK090"),
    ("---\nname: x  # wave-lsp: ignore SK034\n---\n", 1, 2, "name: x  # wave-lsp: ignore SK034, SK090"),
    ("---\ndescription: |\n  two\n  lines\n---\n", 2, 1, None),
    ("---\nname: x\n---\nBody line\n", 3, 2, "<!-- wave-lsp: ignore SK090 -->"),
])
def test_suppression_fixes(text: str, line: int, titles: int, expected_line_text: str | None) -> None:
    document = FeatureContext.for_text(text, None).document
    start = document.lines.line_start(line)
    finding = Finding("SK090", "m", Span(start, start + 1))
    fixes = suppression_fixes(document, finding)
    assert len(fixes) == titles
    if expected_line_text is not None:
        fixed = apply_edits(text, fixes[0].edits)
        assert expected_line_text in fixed.splitlines()
        suppressions = collect(FeatureContext.for_text(fixed, None).document)
        assert suppressions.silences("SK090", line + (1 if fixed.count("\n") > text.count("\n") else 0))
    whole = apply_edits(text, fixes[-1].edits)
    assert collect(FeatureContext.for_text(whole, None).document).silences("SK090", 99)


def test_listing_cost_lens() -> None:
    text = "---\nname: cost\ndescription: Costs tokens. Use when asked.\n---\n"
    lens = listing_cost(FeatureContext.for_text(text, None))
    # Wave's entry, `• **cost** (project): Costs tokens. Use when asked.` (the default target)
    assert lens.title.startswith("Listing entry: ~13 tokens (51 characters)")
    hidden = text.replace("---\n", "---\ndisable-model-invocation: true\n", 1)
    assert "costs no resident tokens" in listing_cost(FeatureContext.for_text(hidden, None)).title


def test_the_lens_of_a_skill_the_target_does_not_load_says_so() -> None:
    """A skill Wave does not load (an unquoted `: ` in its description, SK021) is in no listing:
    the lens says which finding stops it instead of a resident cost."""
    text = "---\nname: cost\ndescription: Use when: asked\n---\n"
    title = listing_cost(FeatureContext.for_text(text, None)).title
    assert title.startswith("Not loaded by Wave: fix SK021 on line 3 to list it;"), title
    assert "resident in every conversation" not in title
    under_claude = FeatureContext.for_text(text, None, Settings.for_target("claude-code"))
    assert listing_cost(under_claude).title.startswith("Listing entry: ")  # its quoting retry
