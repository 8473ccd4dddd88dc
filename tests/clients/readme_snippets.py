"""The README's editor snippets, by name: the fenced block right after a line
`<!-- editor-snippet: NAME -->` in README.md's "The language server in your editor" section. The
editor tests load these blocks themselves, so the configurations the README shows are the ones
tested."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
_SNIPPET = re.compile(r"^<!-- editor-snippet: (?P<name>[\w.-]+) -->\n```(?P<lang>\w+)\n(?P<body>.*?)^```$",
                      re.MULTILINE | re.DOTALL)


def readme_snippets() -> dict[str, tuple[str, str]]:
    """Every named snippet: name -> (fence language, text)."""
    text = README.read_text("utf-8")
    return {match["name"]: (match["lang"], match["body"]) for match in _SNIPPET.finditer(text)}


def readme_snippet(name: str) -> str:
    """The text of one snippet (a KeyError names the snippets there are)."""
    snippets = readme_snippets()
    if name not in snippets:
        raise KeyError(f"README.md has no editor snippet {name!r}; it has {sorted(snippets)}")
    return snippets[name][1]
