"""What one pass over the disk has learnt about folders, so that locating thousands of skills does
not ask the disk the same questions thousands of times (docs/design/product.md *Indexing speed*).

Locating a SKILL.md (`location.locate`) looks, in the skill's folder and in every folder above it,
for a plugin manifest (`.wave-plugin/plugin.json`, `.claude-plugin/plugin.json`), a marketplace
(`.claude-plugin/marketplace.json`) and, for some skills, `.git`: three to four `stat`s per folder,
about twenty per skill. A `FolderFacts` belongs to one pass (one index build, one discovery of a
project) and remembers:

- the answers per folder (the plugin a folder's manifest declares, its marketplace entries, whether
  it holds `.git`), so that the folders above the skills are asked once per pass;
- which folders the discovery walk listed and found without any of those names: for them the
  answer is "nothing here" without a `stat`. A listed name that the file system may take for one of
  them (another case on a case-insensitive file system, a non-ASCII name starting with `.`) makes
  the folder be asked as before.

The answers are those of the disk at the time of the pass; a pass that overlaps a change may see
either state, as it did before (the language server re-reads on the file events that follow).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar, cast

#: the names whose presence in a folder `location` asks about (all start with a dot)
MARKERS = frozenset({".git", ".wave-plugin", ".claude-plugin"})

T = TypeVar("T")


class FolderFacts:
    """Answers about folders, remembered for one pass over the disk."""

    __slots__ = ("_answers", "_unmarked")

    def __init__(self) -> None:
        #: folders listed without any name in `MARKERS` (nor one the file system may take for one)
        self._unmarked: set[str] = set()
        #: (question, folder) -> answer
        self._answers: dict[tuple[str, str], object] = {}

    def listed(self, folder: str, names: Iterable[str]) -> None:
        """The walk listed `folder` (a normalised absolute path) and found `names`."""
        for name in names:
            if name[:1] == "." and (not name.isascii() or name.lower() in MARKERS):
                return
        self._unmarked.add(folder)

    def unmarked(self, folder: str) -> bool:
        """True when `folder` was listed and holds none of `MARKERS`: no manifest, marketplace or
        `.git` is there."""
        return folder in self._unmarked

    def answer_if_known(self, question: str, folder: str) -> tuple[object, ...] | None:
        """The answer remembered with `remember` (a tuple), or None."""
        found = self._answers.get((question, folder))
        return found if isinstance(found, tuple) else None

    def remember(self, question: str, folder: str, answer: tuple[object, ...]) -> None:
        self._answers[(question, folder)] = answer

    def answer(self, question: str, folder: str, compute: Callable[[str], T]) -> T:
        """The answer to `question` about `folder` (`compute(folder)`), computed once per pass."""
        key = (question, folder)
        if key in self._answers:
            return cast(T, self._answers[key])  # stored below by this method, for this question
        found = self._answers[key] = compute(folder)
        return found
