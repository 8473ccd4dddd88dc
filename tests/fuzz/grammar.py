"""Hypothesis strategies for SKILL.md texts: realistic pieces (keys of the schema and typos of them,
plain, quoted and block scalars, lists, maps, comments, anchors, tags, injections, placeholders,
links, CJK and emoji), assembled with CRLF/CR line ends, BOMs and tabs, then optionally mutated."""

from __future__ import annotations

from hypothesis import strategies as st

from wave_lsp.core.checking.schema import fields

KEYS = [*sorted(fields()), "allowed_tools", "Name", "descripton", "x-custom", "when-to-use", ""]
WORDS = ["deploy", "技能", "😀", "a: b", "#REF!", "$1", "$ARGUMENTS", "${WAVE_SKILL_DIR}/x.mjs",
         "${CLAUDE_PLUGIN_ROOT}", "Bash(git status)", "Bash(npm run *)", "yes", "null", "1.0",
         "[x]", "{a: 1}", "*alias", "&anchor", "!!str", "'", '"', "\\", "`", "!`ls`", "\t", "→",
         "Use when the user asks", "<tag>", "..", "/etc/hosts", "scripts/run.sh"]
BODY_PIECES = ["# Title", "## Section", "```", "```bash", "```!", "~~~", "!`git status`",
               "Run `python scripts/run.py`", "[guide](references/guide.md)", "[up](../x.md)",
               "$ARGUMENTS", "$1 and $0", "$issue", "${WAVE_SKILL_DIR}", "${UNKNOWN}", "\\$1",
               "/other-skill", "<!-- wave-lsp: ignore SK120 -->", "技能说明😀", "KEY=!`x`",
               "format!`x`", "| a | b |", "> quote", "- item", ""]

word = st.sampled_from(WORDS)
scalar = st.one_of(
    st.lists(word, min_size=1, max_size=3).map(" ".join),
    st.lists(word, max_size=3).map(lambda ws: "'" + " ".join(ws).replace("'", "''") + "'"),
    st.lists(word, max_size=3).map(lambda ws: '"' + " ".join(ws).replace('"', '\\"') + '"'),
    st.text(max_size=20),
)
block_scalar = st.tuples(st.sampled_from(["|", ">", "|-", ">-", "|+", ">2", "|1-"]),
                         st.lists(word, min_size=0, max_size=4)).map(
    lambda pair: pair[0] + "".join(f"\n  {w}" for w in pair[1]))
sequence = st.one_of(
    st.lists(scalar, max_size=4).map(lambda items: "".join(f"\n  - {i}" for i in items)),
    st.lists(word, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
)
mapping = st.lists(st.tuples(st.sampled_from([*KEYS, "version", "PreToolUse", "author"]), scalar),
                   max_size=3).map(lambda pairs: "".join(f"\n  {k}: {v}" for k, v in pairs))
value = st.one_of(scalar, block_scalar, sequence, mapping, st.just(""))
entry = st.one_of(
    st.tuples(st.sampled_from(KEYS), value).map(lambda kv: f"{kv[0]}: {kv[1]}"),
    st.sampled_from(["# comment", "# wave-lsp: ignore SK070", "---", "  stray indent", "\t: tab",
                     "key: &a [1, *a]", "t: !tag x", "- top level item", "? complex", "...", ""]),
)
frontmatter = st.lists(entry, max_size=10).map("\n".join)
body = st.lists(st.sampled_from(BODY_PIECES), max_size=12).map("\n".join)


@st.composite
def skill_texts(draw: st.DrawFn) -> str:
    opener = draw(st.sampled_from(["---", "---", "--- ", "----", " ---", "", "\n---"]))
    closer = draw(st.sampled_from(["---", "---", "", "--- x", "..."]))
    text = f"{opener}\n{draw(frontmatter)}\n{closer}\n{draw(body)}\n"
    newline = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = text.replace("\n", newline)
    if draw(st.booleans()) and draw(st.booleans()):
        text = "\ufeff" + text
    return draw(mutated(text))


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """Random raw edits: insert, delete or replace a few characters anywhere."""
    for _ in range(draw(st.integers(0, 3))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(["\x00", "\t", ":", "-", "`", "!", "\r", "\ud800"[:0] + "é",
                                      "\n", "#", "'", '"', "[", "{", "&", "*", "|", ">", "\ufeff"]))
        if action == "insert":
            text = text[:position] + piece + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + 1:]
        else:
            text = text[:position] + piece + text[position + 1:]
    return text
