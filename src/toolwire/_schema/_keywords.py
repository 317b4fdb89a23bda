"""Keyword knowledge shared by the walker: what annotates, what constrains, what types a node."""

from __future__ import annotations

from typing import Any

from ._shapes import Json, JsonMap, as_list

__all__ = [
    "ANNOTATIONS",
    "BY_TYPE",
    "CONSTRAINTS",
    "CONSTRAINT_RANK",
    "MISSING",
    "NULL",
    "TYPED",
    "constraint_is_lossy",
    "is_number",
    "single_value",
]

NULL: dict[str, Json] = {"type": "null"}
"""The branch that makes a schema nullable."""
MISSING: Any = object()
"""Marks an absent ``default`` (a default factory, or no default)."""

ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "$schema",
        "$id",
        "$anchor",
        "contentEncoding",
        "contentMediaType",
    }
)
"""Keywords that describe a value without restricting it."""


TYPED = ("type", "anyOf", "oneOf", "allOf", "enum", "const", "$ref")

BY_TYPE: dict[str, frozenset[str]] = {
    "object": frozenset(
        {
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
        }
    ),
    "array": frozenset({"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"}),
    "string": frozenset({"minLength", "maxLength", "pattern", "format"}),
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
}
BY_TYPE["integer"] = BY_TYPE["number"]


_ORDER = (
    "const",
    "enum",
    "format",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "patternProperties",
)

CONSTRAINTS = frozenset(_ORDER) - {"const", "enum"}
"""Keywords that restrict a value and can be spelled out in words."""

CONSTRAINT_RANK = {  # the order constraints are read in a description
    keyword: index for index, keyword in enumerate(_ORDER)
}


def is_number(value: object) -> bool:
    """Whether `value` is a JSON number (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def single_value(schema: JsonMap) -> Any:
    """The only value a schema allows (``const`` or a one-value ``enum``), else MISSING."""
    if "const" in schema:
        return schema["const"]
    values = as_list(schema.get("enum"))
    return values[0] if len(values) == 1 else MISSING


def constraint_is_lossy(schema: JsonMap, key: str, value: Json) -> bool:
    """Whether dropping `key` lets the API accept values the model class rejects."""
    if key in ("minLength", "minItems", "minProperties") and value == 0:
        return False
    if key == "uniqueItems":
        minimum = schema.get("minItems", 0)
        return value is not False and is_number(minimum) and minimum > 1
    return True
