"""Small facts about JSON schemas that the compiler and the input plan both need.

Kept in one place so the schema the model is shown and the restoration of what it sends agree:
what a dict schema looks like, how pairs and tuple objects are keyed, which schemas accept
``null``, and which definitions reach which (for recursion rules).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard, cast

__all__ = [
    "DEFS_PREFIX",
    "PAIR_KEY",
    "PAIR_VALUE",
    "Json",
    "JsonMap",
    "accepts_null",
    "all_refs",
    "as_list",
    "as_map",
    "def_name",
    "dict_value_schema",
    "discriminator_tags",
    "is_dict_schema",
    "is_map",
    "join_path",
    "json_type_of",
    "reachable_defs",
    "refs_in",
    "tuple_key",
]

Json = Any
"""A JSON value as Python holds it (dict, list, str, int, float, bool, None)."""
JsonMap = Mapping[str, Any]

DEFS_PREFIX = "#/$defs/"
PAIR_KEY = "key"
PAIR_VALUE = "value"


def tuple_key(index: int) -> str:
    """The property name of tuple position `index` when a tuple is sent as an object."""
    return f"item_{index}"


_EMPTY: JsonMap = {}


def is_map(value: object) -> TypeGuard[JsonMap]:
    """Whether `value` is a JSON object (a mapping with string keys, as JSON gives)."""
    return type(value) is dict or isinstance(value, Mapping)


def as_map(value: object) -> JsonMap:
    """`value` if it is a mapping, else an empty one."""
    if type(value) is dict or isinstance(value, Mapping):
        return cast(JsonMap, value)
    return _EMPTY


def as_list(value: object) -> list[Any]:
    """`value` if it is a list, else an empty list."""
    return cast("list[Any]", value) if type(value) is list else []


def def_name(ref: object) -> str | None:
    """The definition name of a local ``#/$defs/<name>`` reference, else None."""
    if isinstance(ref, str) and ref.startswith(DEFS_PREFIX) and "/" not in ref[len(DEFS_PREFIX) :]:
        return ref[len(DEFS_PREFIX) :].replace("~1", "/").replace("~0", "~")
    return None


def join_path(parent: str, child: str) -> str:
    """``inner`` + ``weight`` -> ``inner.weight``; ``items`` + ``[]`` -> ``items[]``."""
    if not parent:
        return child
    if not child:
        return parent
    if child[0] in "[{":
        return parent + child
    return f"{parent}.{child}"


def is_dict_schema(schema: JsonMap) -> bool:
    """Whether `schema` describes a mapping with free keys (``dict[K, V]``), not a model.

    Pydantic writes models with ``properties`` (even when empty) and dicts without them.
    """
    if "properties" in schema or "$ref" in schema:
        return False
    if schema.get("type") == "object":
        return True
    return "type" not in schema and (
        "additionalProperties" in schema or "patternProperties" in schema
    )


def dict_value_schema(schema: JsonMap) -> tuple[Json, Json | None]:
    """The value schema of a dict schema and its key schema (None when keys are any string).

    ``patternProperties`` with one pattern (``dict[constr(pattern=...), X]``) gives a key
    schema with that pattern; ``propertyNames`` gives the key schema directly.
    """
    key: Json | None = schema.get("propertyNames")
    value: Json = schema.get("additionalProperties", {})
    patterns = as_map(schema.get("patternProperties"))
    if len(patterns) == 1 and "additionalProperties" not in schema:
        ((pattern, value),) = patterns.items()
        key = {"type": "string", "pattern": pattern}
    if value is True:
        value = {}
    return value, key


_SINGLE_CHILDREN = ("items", "additionalProperties", "propertyNames", "not", "contains")
_LIST_CHILDREN = ("prefixItems", "anyOf", "oneOf", "allOf")
_MAP_CHILDREN = ("properties", "patternProperties")


def _children(schema: JsonMap) -> list[Json]:
    found: list[Json] = []
    for keyword in _SINGLE_CHILDREN:
        if keyword in schema:
            found.append(schema[keyword])
    for keyword in _LIST_CHILDREN:
        if keyword in schema:
            found.extend(as_list(schema[keyword]))
    for keyword in _MAP_CHILDREN:
        if keyword in schema:
            found.extend(as_map(schema[keyword]).values())
    return found


def refs_in(schema: Json) -> set[str]:
    """The definitions a schema refers to directly (without following the references)."""
    found: set[str] = set()
    stack: list[Json] = [schema]
    while stack:
        node = stack.pop()
        if not is_map(node):
            continue
        name = def_name(node.get("$ref"))
        if name is not None:
            found.add(name)
        stack.extend(_children(node))
    return found


def all_refs(value: Json) -> set[str]:
    """The definitions referred to anywhere inside `value`, whatever the keywords around them.

    For schemas kept as written (``propertyNames``, ``contentSchema``, ``not``, ...), whose
    references must still find their definitions in the output.
    """
    found: set[str] = set()
    stack: list[Json] = [value]
    while stack:
        node = stack.pop()
        if is_map(node):
            name = def_name(node.get("$ref"))
            if name is not None:
                found.add(name)
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(cast("list[Any]", node))
    return found


def reachable_defs(defs: JsonMap) -> dict[str, frozenset[str]]:
    """For each definition, the definitions reachable from it through one or more references."""
    direct = {name: refs_in(body) for name, body in defs.items()}
    reach: dict[str, frozenset[str]] = {}
    for start in direct:
        seen: set[str] = set()
        stack = list(direct[start])
        while stack:
            name = stack.pop()
            if name in seen:
                continue
            seen.add(name)
            stack.extend(direct.get(name, ()))
        reach[start] = frozenset(seen)
    return reach


_NARROWING = ("type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "not")


def accepts_null(schema: Json, defs: JsonMap, _seen: frozenset[str] = frozenset()) -> bool:
    """Whether `schema` accepts the JSON value ``null`` (following references)."""
    if schema is True:
        return True
    if not is_map(schema):
        return False
    name = def_name(schema.get("$ref"))
    if name is not None:
        if name in _seen or name not in defs:
            return False
        return accepts_null(defs[name], defs, _seen | {name})
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if "enum" in schema:
        return None in as_list(schema["enum"])
    if "const" in schema:
        return schema["const"] is None
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            return any(accepts_null(branch, defs, _seen) for branch in as_list(schema[keyword]))
    if "allOf" in schema:
        return all(accepts_null(branch, defs, _seen) for branch in as_list(schema["allOf"]))
    return not any(keyword in schema for keyword in _NARROWING)


def discriminator_tags(schema: JsonMap) -> dict[str, frozenset[str]]:
    """For each definition used as a discriminated-union branch, its tag property names."""
    if '"discriminator"' not in json.dumps(schema, default=str):
        return {}  # the common case, found at C speed
    tags: dict[str, set[str]] = {}
    stack: list[Json] = [schema, *as_map(schema.get("$defs")).values()]
    while stack:
        node = stack.pop()
        if not is_map(node):
            continue
        stack.extend(_children(node))
        tag = as_map(node.get("discriminator")).get("propertyName")
        if not isinstance(tag, str):
            continue
        branches = [*as_list(node.get("oneOf")), *as_list(node.get("anyOf"))]
        refs = [as_map(branch).get("$ref") for branch in branches]
        refs += list(as_map(as_map(node.get("discriminator")).get("mapping")).values())
        for ref in refs:
            name = def_name(ref)
            if name is not None:
                tags.setdefault(name, set()).add(tag)
    return {name: frozenset(names) for name, names in tags.items()}


def json_type_of(value: Any) -> str:
    """The JSON type name of a Python value decoded from JSON ("integer" for 3 and 3.0)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Sequence):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return "unknown"
