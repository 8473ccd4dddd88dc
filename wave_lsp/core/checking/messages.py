"""How a finding's message is built: its first sentence says what is wrong and what to do, the
details follow (docs/design/rules.md *How a message reads*).

Editors show a message on one line and cut it where the panel ends, so anything a surface adds
(which runtimes drop the skill, whose level an aggregate reports) goes after the first sentence,
never before it. `first_sentence` is the one splitter: the surfaces that add text and the style
test (tests/core/test_message_style.py) agree on where the first sentence ends.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_ABBREVIATION = re.compile(r"(?:\be\.g|\bi\.e|\betc|\bvs)\.$", re.IGNORECASE)


def first_sentence_end(message: str) -> int:
    """The index just past the first sentence's final `.`, `?` or `!` (the whole length when the
    message is one sentence). A stop inside inline code (`` `a.b` ``) or a double-quoted quotation
    does not end it, nor does one of `e.g.`, `i.e.`, `etc.`, `vs.`, nor one not followed by white
    space (`1.5`, `SKILL.md`)."""
    in_code = in_quote = False
    for index, char in enumerate(message):
        if char == "`":
            in_code = not in_code
        elif in_code:
            continue
        elif char == '"':
            in_quote = not in_quote
        elif not in_quote and char in ".?!" and _ends_sentence(message, index):
            return index + 1
    return len(message)


def _ends_sentence(message: str, index: int) -> bool:
    """The stop at `index` is followed by white space (or the end) and ends no abbreviation."""
    followed = index + 1 == len(message) or message[index + 1].isspace()
    return followed and not _ABBREVIATION.search(message[max(0, index - 4):index + 1])


def first_sentence(message: str) -> str:
    """The first sentence of `message` (see `first_sentence_end`)."""
    return message[:first_sentence_end(message)]


def capitalized(text: str) -> str:
    """`text` with its first letter in upper case, to start a sentence ("every runtime …")."""
    return text[:1].upper() + text[1:]


def after_first_sentence(message: str, addition: str) -> str:
    """`addition` (a sentence) placed right after the first sentence of `message`, so that what
    is wrong and what to do stay at the front."""
    end = first_sentence_end(message)
    head, rest = message[:end], message[end:].lstrip()
    if not head.endswith((".", "?", "!")):
        head += "."
    return f"{head} {addition}" + (f" {rest}" if rest else "")


def runtime_names(names: Iterable[str]) -> str:
    """`Copilot`, `Copilot and Gemini CLI`, `Codex, Copilot and Gemini CLI`."""
    items = list(names)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
