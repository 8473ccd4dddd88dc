"""The README and the pages of docs/ it sends the details to (`DOCUMENTS`), and their editor
snippets by name: the fenced block right after a line `<!-- editor-snippet: NAME -->` (they are in
docs/editors.md). The editor tests load these blocks themselves, so the configurations the
documents show are the ones tested; every fenced block of `DOCUMENTS` is marked and named with its
test (test_readme_blocks.py)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
#: the README and the user documentation it links for details: their blocks, commands, links
#: and web addresses are tested as the README's are
DOCUMENTS = [README, *(REPO / "docs" / name for name in (
    "targets.md", "cli.md", "editors.md", "ci.md", "agents.md", "development.md"))]
_SNIPPET = re.compile(r"^<!-- editor-snippet: (?P<name>[\w.-]+) -->\n```(?P<lang>\w+)\n(?P<body>.*?)^```$",
                      re.MULTILINE | re.DOTALL)


def documents_text() -> str:
    """The text of every document of `DOCUMENTS`, one after the other."""
    return "\n".join(document.read_text("utf-8") for document in DOCUMENTS)


def readme_snippets() -> dict[str, tuple[str, str]]:
    """Every named snippet: name -> (fence language, text)."""
    return {match["name"]: (match["lang"], match["body"])
            for match in _SNIPPET.finditer(documents_text())}


def readme_snippet(name: str) -> str:
    """The text of one snippet (a KeyError names the snippets there are)."""
    snippets = readme_snippets()
    if name not in snippets:
        raise KeyError(f"the documents have no editor snippet {name!r}; they have {sorted(snippets)}")
    return snippets[name][1]
