"""A quick, conservative test that a field's value is valid under its JSON schema, so that the usual
skill (every value valid) is checked without importing jsonschema (docs/design/product.md *Command
line*, start-up; the schema stays the one list of fields: docs/design/rules.md).

`surely_valid` answers True only when jsonschema would report no error: it knows the keywords the
frontmatter schema uses (`type`, `enum`, `minLength`, `maxLength`, `pattern`, `minimum`,
`exclusiveMinimum`, `anyOf`, `items`, `properties`, `required`, `additionalProperties`,
`propertyNames`) with jsonschema's own semantics, and answers False — "ask jsonschema" — for any
other keyword, any value it is not sure about (a float where an integer is expected, a boolean
against an enum) and every invalid value. Annotations (`description`, `examples`, `x-…`) never
change validity. A False answer costs nothing but the import: the findings always come from
jsonschema.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Mapping
from typing import Any

#: keywords that only annotate (jsonschema ignores them when validating)
ANNOTATIONS = frozenset({"$comment", "$schema", "default", "deprecated", "description",
                         "examples", "markdownDescription", "readOnly", "title", "writeOnly"})


def surely_valid(schema: object, value: object) -> bool:
    """True only if `value` is valid under `schema` (False: not known, ask jsonschema)."""
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, Mapping):
        return False
    for keyword, expected in schema.items():
        if keyword in ANNOTATIONS or keyword.startswith("x-"):
            continue
        test = KEYWORDS.get(keyword)
        if test is None or not test(expected, value, schema):
            return False
    return True


def _is_type(name: object, value: object) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    if name in ("integer", "number"):  # an integral float is an integer for jsonschema: not here
        return isinstance(value, int) and not isinstance(value, bool)
    return False


def _type(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    names = expected if isinstance(expected, list) else [expected]
    return any(_is_type(name, value) for name in names)


def _enum(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    """Strings only: jsonschema's equality treats booleans, numbers and containers specially."""
    return isinstance(value, str) and isinstance(expected, list) and any(
        isinstance(item, str) and item == value for item in expected)


def _min_length(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    return not isinstance(value, str) or (isinstance(expected, int) and len(value) >= expected)


def _max_length(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    return not isinstance(value, str) or (isinstance(expected, int) and len(value) <= expected)


def _pattern(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    return not isinstance(value, str) or (isinstance(expected, str)
                                          and re.search(expected, value) is not None)


def _at_least(expected: object, value: object, strict: bool) -> bool:
    """`minimum` / `exclusiveMinimum`: the keyword does not apply to a value that is not a number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        return True
    if not isinstance(value, int | float) or isinstance(expected, bool) \
            or not isinstance(expected, int | float):
        return False  # Decimal, Fraction, a strange bound: ask jsonschema
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return value > expected if strict else value >= expected


def _minimum(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    return _at_least(expected, value, strict=False)


def _exclusive_minimum(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    return _at_least(expected, value, strict=True)


def _any_of(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    return isinstance(expected, list) and any(surely_valid(branch, value) for branch in expected)


def _items(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    if not isinstance(value, list):
        return True
    return isinstance(expected, bool | Mapping) and all(surely_valid(expected, item)
                                                         for item in value)


def _properties(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    if not isinstance(value, dict):
        return True
    return isinstance(expected, Mapping) and all(
        surely_valid(expected[key], item) for key, item in value.items() if key in expected)


def _required(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    if not isinstance(value, dict):
        return True
    return isinstance(expected, list) and all(key in value for key in expected)


def _additional_properties(expected: object, value: object, schema: Mapping[str, Any]) -> bool:
    if not isinstance(value, dict):
        return True
    if "patternProperties" in schema:
        return False
    known = schema.get("properties", {})
    return isinstance(known, Mapping) and all(
        surely_valid(expected, item) for key, item in value.items() if key not in known)


def _property_names(expected: object, value: object, _: Mapping[str, Any]) -> bool:
    if not isinstance(value, dict):
        return True
    return all(surely_valid(expected, key) for key in value)


KEYWORDS: dict[str, Callable[[object, object, Mapping[str, Any]], bool]] = {
    "type": _type, "enum": _enum, "minLength": _min_length, "maxLength": _max_length,
    "pattern": _pattern, "minimum": _minimum, "exclusiveMinimum": _exclusive_minimum,
    "anyOf": _any_of, "items": _items, "properties": _properties, "required": _required,
    "additionalProperties": _additional_properties, "propertyNames": _property_names,
}
