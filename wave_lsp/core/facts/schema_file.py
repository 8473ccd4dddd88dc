"""The frontmatter JSON schema file (`schemas/skill-frontmatter.schema.json`), read once: the data
that `wave_lsp.core.checking.schema` turns into field specifications and validation, and that the
runtime facts read directly (the tool names of `allowed-tools`, its `x-tools`:
`wave_lsp.core.facts.toolrules`). It sits in the facts layer so that they need not import the
checking layer (docs/design/README.md *Layering*).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_FILE = "skill-frontmatter.schema.json"


@cache
def raw_schema() -> dict[str, Any]:
    """The schema from the wheel (`wave_lsp/_data`), else from the checkout (`schemas/`), else
    through importlib.resources (only a package that is not a folder on disk needs it, and its
    import costs a check's start-up a few modules)."""
    for candidate in (Path(__file__).parents[2] / "_data" / SCHEMA_FILE,
                      Path(__file__).resolve().parents[3] / "schemas" / SCHEMA_FILE):
        if candidate.is_file():
            return _json_object(candidate.read_text("utf-8"))
    from importlib import resources

    return _json_object(resources.files("wave_lsp").joinpath("_data", SCHEMA_FILE)
                        .read_text("utf-8"))


def _json_object(text: str) -> dict[str, Any]:
    loaded = json.loads(text)
    if not isinstance(loaded, dict):
        raise ValueError(f"{SCHEMA_FILE} must hold a JSON object, not {type(loaded).__name__}")
    return loaded


def tool_names() -> dict[str, str]:
    """The tool names `allowed-tools` knows, each with what it is (the schema's `x-tools`)."""
    return dict(raw_schema()["properties"]["allowed-tools"].get("x-tools", {}))
