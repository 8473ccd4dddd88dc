"""The frontmatter JSON schema (`schemas/skill-frontmatter.schema.json`) and validation against it.

The schema is the single list of fields: their types, allowed values, limits, the targets that read
them (`x-targets`), the rule that reports a rejected value (`x-rule`) and the documentation shown in
hover and completion. Rules ask this module; no other module keeps a list of fields. jsonschema
finds the issues, but it is imported only for a value that `quick_schema.surely_valid` cannot
vouch for, so checking a skill whose values are all valid does not pay for its import. The file
is read by `wave_lsp.core.facts.schema_file`, a layer below, which the runtime facts read too (the
tool names of `allowed-tools`, `x-tools`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from wave_lsp.core.checking.quick_schema import surely_valid
from wave_lsp.core.facts.schema_file import raw_schema

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

    from wave_lsp.core.facts.profiles import RuntimeProfile

@dataclass(frozen=True, slots=True)
class FieldSpec:
    """What the schema says about one frontmatter field."""

    name: str
    targets: tuple[str, ...]
    description: str
    schema: dict[str, Any]
    rule: str | dict[str, str] | None = None
    values: tuple[Any, ...] = ()  #: enum values or suggested values (`x-values`)
    value_docs: tuple[str, ...] = ()
    snippet: str | None = None
    case_insensitive: bool = False

    def read_by(self, profile: RuntimeProfile) -> bool:
        if not profile.catalog_column and profile.members:  # read by every runtime it stands for
            return all(member.catalog_column in self.targets for member in profile.members)
        return profile.catalog_column in self.targets

    @property
    def types(self) -> tuple[str, ...]:
        """JSON types the field accepts (`anyOf` branches included)."""
        found: list[str] = []
        for branch in [self.schema, *self.schema.get("anyOf", [])]:
            kind = branch.get("type")
            if isinstance(kind, str):
                found.append(kind)
            elif isinstance(kind, list):
                found.extend(kind)
            elif "enum" in branch:
                found.append("string")
        return tuple(dict.fromkeys(found))

    @property
    def is_text(self) -> bool:
        return self.types == ("string",)

    @property
    def is_boolean(self) -> bool:
        return self.types == ("boolean",)

    def rule_for(self, keyword: str) -> str | None:
        if isinstance(self.rule, str):
            return self.rule
        if isinstance(self.rule, dict):
            return self.rule.get(keyword, self.rule.get("*"))
        return None


@dataclass(slots=True)
class SchemaIssue:
    """One value the schema rejects, mapped to the rule that reports it."""

    code: str
    field: str
    path: tuple[str | int, ...]  #: path inside the field's value
    keyword: str
    message: str
    value: Any
    # `dataclasses.field`, spelled out: the `field` attribute above shadows the bare name here
    schema: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: the issue is about a mapping key (`propertyNames`), named by `value`, under `path`
    on_key: bool = False


@cache
def fields() -> dict[str, FieldSpec]:
    specs: dict[str, FieldSpec] = {}
    for name, prop in raw_schema()["properties"].items():
        values = tuple(prop.get("enum") or prop.get("x-values") or ())
        if not values:
            for branch in prop.get("anyOf", []):
                values += tuple(branch.get("enum", ()))
        specs[name] = FieldSpec(
            name=name,
            targets=tuple(prop.get("x-targets", ())),
            description=prop.get("description", ""),
            schema=prop,
            rule=prop.get("x-rule"),
            values=values,
            value_docs=tuple(prop.get("x-enumDescriptions", ())),
            snippet=prop.get("x-snippet"),
            case_insensitive=bool(prop.get("x-caseInsensitive")),
        )
    return specs


def field_spec(name: str) -> FieldSpec | None:
    return fields().get(name)


def fields_for(profile: RuntimeProfile) -> list[FieldSpec]:
    return [spec for spec in fields().values() if spec.read_by(profile)]


@cache
def _validator(name: str) -> Draft202012Validator:
    # imported here: the usual skill has only valid values (`surely_valid`) and never needs it
    from jsonschema import Draft202012Validator

    return Draft202012Validator(fields()[name].schema)


def validate_field(name: str, value: Any) -> list[SchemaIssue]:
    """Schema issues of one field's value, each mapped to its rule (unmapped keywords dropped)."""
    spec = fields().get(name)
    if spec is None:
        return []
    if spec.case_insensitive and isinstance(value, str):
        value = value.strip().lower()
    if surely_valid(spec.schema, value):
        return []
    issues: list[SchemaIssue] = []
    for error in _validator(name).iter_errors(value):
        keyword = str(error.validator)
        code = spec.rule_for(keyword)
        if code is None:
            continue
        issues.append(SchemaIssue(code=code, field=name, path=tuple(error.absolute_path),
                                  keyword=keyword, message=error.message,
                                  value=error.instance, schema=error.schema,
                                  on_key="propertyNames" in error.absolute_schema_path))
    return issues


def max_length(name: str) -> int | None:
    return fields()[name].schema.get("maxLength")



@cache
def pattern(name: str) -> re.Pattern[str] | None:
    """The field's `pattern` (a text field's allowed form), compiled; None when it has none."""
    text = fields()[name].schema.get("pattern")
    return re.compile(text) if isinstance(text, str) else None
