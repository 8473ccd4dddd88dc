"""The skill's entry in the model's listing and what it costs (spec-facts.md §3.5).

Every model-invocable skill is resident in the context as one line
`- <name>: <description>[ - <when_to_use>]`, the description part cut at 1,536 characters. This is
what the code lens shows, what `list` reports as `listingChars`, and what SK055/SK131 measure.
"""

from __future__ import annotations

from dataclasses import dataclass

from wave_lsp.core.document import SkillDocument
from wave_lsp.core.location import SkillLocation

#: Claude Code cuts `description` + ` - when_to_use` at this many characters
LISTING_ENTRY_CAP = 1536
CHARS_PER_TOKEN = 4


@dataclass(frozen=True, slots=True)
class ListingEntry:
    name: str
    text: str  #: the line the model sees (empty when the skill is not listed)
    model_invocable: bool
    user_invocable: bool
    truncated: bool = False

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def tokens(self) -> int:
        return (self.chars + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def truthy(value: object) -> bool | None:
    """How Wave and Claude Code read a boolean field (`true` or `"true"`), None if not boolean."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _flag(value: object, default: bool) -> bool:
    found = truthy(value)
    return default if found is None else found


def skill_name(document: SkillDocument, location: SkillLocation) -> str:
    """The name the runtime lists: the frontmatter `name`, else the folder name."""
    name = document.value("name")
    base = name.strip() if isinstance(name, str) and name.strip() else location.dir_name or "skill"
    return f"{location.plugin.name}:{base}" if location.plugin else base


def listing_entry(document: SkillDocument, location: SkillLocation) -> ListingEntry:
    name = skill_name(document, location)
    model = not _flag(document.value("disable-model-invocation"), False)
    user = _flag(document.value("user-invocable"), True)
    if not model:
        return ListingEntry(name, "", False, user)
    description = document.value("description")
    description = description.strip() if isinstance(description, str) else ""
    when = document.value("when_to_use")
    combined = description
    if isinstance(when, str) and when.strip():
        combined = f"{description} - {when.strip()}" if description else when.strip()
    truncated = len(combined) > LISTING_ENTRY_CAP
    if truncated:
        combined = combined[: LISTING_ENTRY_CAP - 1] + "…"
    text = f"- {name}: {combined}" if combined else f"- {name}"
    return ListingEntry(name, text, True, user, truncated)
