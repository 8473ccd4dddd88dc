"""Terminal control sequences as Claude Code removes them from a listing's description and
`when_to_use` (docs/design/runtime-facts.md §3.3; the profile fact
`listing_strips_control_sequences`, measured on Claude Code 2.1.332 by the probes fm-c1-apc and
fm-c1-strings).

Each field is read like a terminal (ECMA-48) would read it, and every sequence is dropped:

- `ESC` + intermediates (U+0020–U+002F) + a final character (U+0030–U+007E); `ESC` before any
  other character (a newline, a letter outside ASCII) or at the end is dropped alone;
- a control sequence, `CSI` (U+009B or `ESC [`): every character up to a final (U+0040–U+007E),
  controls inside it included;
- a control string, `DCS` (U+0090, `ESC P`), `SOS` (U+0098, `ESC X`), `OSC` (U+009D, `ESC ]`),
  `PM` (U+009E, `ESC ^`), `APC` (U+009F, `ESC _`): everything up to `ST` (U+009C or `ESC \\`),
  `CAN` or `SUB` (both dropped too), or `BEL` for `OSC` only; another `ESC` ends it and starts a
  sequence. A sequence without its end takes the rest of the field: `a\\u009fb` is listed `a`.

What is left keeps its other control characters; the listing then shows each run of them as one
space (`listing_controls_as_spaces`).
"""

from __future__ import annotations

ESC = "\x1b"
CSI = "\x9b"
ST = "\x9c"
#: the C1 introducers of control strings, and the `ESC` finals that stand for them
STRING_STARTS = frozenset("\x90\x98\x9d\x9e\x9f")
ESC_STRINGS = {"P": "\x90", "X": "\x98", "]": "\x9d", "^": "\x9e", "_": "\x9f"}
OSC = "\x9d"
CANCELS = frozenset("\x18\x1a")
#: anything that may start a sequence: a text without one is returned as it is
_STARTS = frozenset({ESC, CSI}) | STRING_STARTS


def strip_control_sequences(text: str) -> str:
    """`text` without its terminal control sequences (this module's docstring)."""
    if not any(char in _STARTS for char in text):
        return text
    kept: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == ESC:
            at = _escape(text, at + 1)
        elif char == CSI:
            at = _control_sequence(text, at + 1)
        elif char in STRING_STARTS:
            at = _control_string(text, at + 1, char)
        else:
            kept.append(char)
            at += 1
    return "".join(kept)


def _escape(text: str, at: int) -> int:
    """Past an `ESC` sequence whose `ESC` is just before `at`."""
    if at >= len(text):
        return at
    char = text[at]
    if char == "[":
        return _control_sequence(text, at + 1)
    if char in ESC_STRINGS:
        return _control_string(text, at + 1, ESC_STRINGS[char])
    while at < len(text) and "\x20" <= text[at] <= "\x2f":
        at += 1
    if at < len(text) and "\x30" <= text[at] <= "\x7e":
        return at + 1
    return at  # an `ESC` before anything else is dropped alone


def _control_sequence(text: str, at: int) -> int:
    """Past a `CSI` sequence whose introducer is just before `at`: up to its final character;
    another `ESC`, `CAN` or `SUB` ends it early."""
    while at < len(text):
        char = text[at]
        if char == ESC:
            return at
        if char in CANCELS or "\x40" <= char <= "\x7e":
            return at + 1
        at += 1
    return at


def _control_string(text: str, at: int, kind: str) -> int:
    """Past a control string whose introducer (`kind`) is just before `at`."""
    while at < len(text):
        char = text[at]
        if char == ESC:
            return at + 2 if text[at + 1 : at + 2] == "\\" else at
        if char == ST or char in CANCELS or (char == "\x07" and kind == OSC):
            return at + 1
        at += 1
    return at
