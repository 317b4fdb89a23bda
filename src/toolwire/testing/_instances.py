"""Small valid (and deliberately invalid) values derived from a JSON schema.

The fake servers call every offered tool once with `minimal_instance(schema)`
and answer structured-output requests with it, so an example runs offline
without scripting anything. The value is deterministic, small, valid, and
readable in printed output:

- strings are the property's name (`"city"` for `city`), padded with `x` or
  cut to honour `minLength`/`maxLength`; the formats in `SUPPORTED_FORMATS`
  get a fixed well-formed value (`"2025-01-01"`, `"user@example.com"`...);
  `contentMediaType: application/json` gets the JSON text of its
  `contentSchema`;
- integers and numbers are the allowed value closest to 1 under `minimum`,
  `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`
  (numbers come back as floats); booleans are `False`;
- arrays have `minItems` items (empty when allowed), built from
  `prefixItems` then `items`, distinct under `uniqueItems`;
- objects hold their required properties only, plus declared then extra
  properties when `minProperties` asks for more;
- `enum` and `const` give their first value that fits the other keywords;
- `anyOf`/`oneOf` take the first branch that can be built, trying non-null
  branches before a `null` one (a value shows the tool working better than
  `null`); a `oneOf` branch is skipped when its value also matches another
  branch; `type` lists are tried the same way;
- `allOf` and a `$ref` with sibling keywords are merged into one schema;
- local `$ref`s (`#`, `#/$defs/...`, any JSON pointer) are followed; a
  reference back into itself makes that branch fail, so recursion stops at
  an optional property, a nullable branch or an empty array;
- `default` is never used: the model must send every value it is asked for;
- type names are read case-insensitively (Gemini's `Schema` dialect writes
  `"STRING"`), and `nullable: true` adds `null` (OpenAPI).

Anything else (`pattern`, `not`, `if`/`then`/`else`, `patternProperties`,
`dependentRequired`, remote references, formats outside the list, two
`allOf` branches that cannot be merged, a recursion with no way out,
values nested more than 64 levels deep, a schema no value satisfies) raises `UnsupportedSchemaError` naming what the
schema belongs to, the JSON pointer and the keyword, and telling the user to
script that reply. Keywords are checked only where a value is built, so an
unsupported keyword on an optional property that is left out does no harm.

`invalid_instance(schema)` breaks a schema the way a model typically does, so
a fake can show the retry path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ._instances_build import (
    SUPPORTED_FORMATS,
    SUPPORTED_KEYWORDS,
    Builder,
    UnsupportedSchemaError,
    Want,
)
from ._instances_check import SchemaChecker

__all__ = [
    "SUPPORTED_FORMATS",
    "SUPPORTED_KEYWORDS",
    "UnsupportedSchemaError",
    "invalid_instance",
    "minimal_instance",
]


def minimal_instance(schema: Mapping[str, Any], *, where: str = "") -> Any:
    """A small, deterministic, readable value that is valid under `schema`.

    `where` names what the schema belongs to in error messages, as a noun
    phrase (e.g. "tool 'get_weather'"). Raises `UnsupportedSchemaError` when
    the schema leaves the documented subset (see the module docstring).
    """
    builder = Builder(schema, where)
    value = builder.build(schema, Want("#"))
    checker = SchemaChecker(schema)
    if checker.check(value, schema) is False:
        path, keyword = checker.failure or ("#", "schema")
        raise builder.error(path, keyword, "no value was found that satisfies every keyword")
    return value


def invalid_instance(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """An object that breaks `schema` the way models do, or None if every object fits.

    Tried in order, the first one the schema provably rejects wins: a wrong
    type for each required property in turn (`100` where a string is
    expected, `"many"` elsewhere, then `null`), each required property left
    out, a wrong type for each optional property, an unexpected extra
    property, and finally `{}`. The other properties keep their minimal
    values, so exactly one thing is wrong.
    """
    checker = SchemaChecker(schema)
    try:
        minimal = minimal_instance(schema)
    except UnsupportedSchemaError:
        minimal = {}
    base: dict[str, Any] = (
        dict(cast(Mapping[str, Any], minimal)) if isinstance(minimal, Mapping) else {}
    )
    props, required, closed = _object_view(schema)
    candidates: list[dict[str, Any]] = []
    for name in required:
        candidates += [{**base, name: wrong} for wrong in _wrong_values(schema, props.get(name))]
    for name in required:
        candidates.append({k: v for k, v in base.items() if k != name})
    for name, sub in props.items():
        if name not in required:
            candidates += [{**base, name: wrong} for wrong in _wrong_values(schema, sub)]
    if closed:
        candidates.append({**base, _unused_name(props, base): "unexpected"})
    candidates.append({})
    for candidate in candidates:
        if checker.check(candidate, schema) is False:
            return candidate
    return None


def _unused_name(props: Mapping[str, Any], base: Mapping[str, Any]) -> str:
    name = "unexpected_argument"
    while name in props or name in base:
        name += "_"
    return name


def _object_view(schema: Mapping[str, Any]) -> tuple[dict[str, Any], list[str], bool]:
    """The root's properties, required names and closedness, as far as they can be read."""
    builder = Builder(schema, "")
    try:
        node, path, refs = builder.flatten(schema, "#", ())
        for keyword in ("anyOf", "oneOf"):
            if keyword in node:
                rest = {k: v for k, v in node.items() if k != keyword}
                branches = cast(list[Any], node[keyword])
                order = builder.non_null_first(branches, f"{path}/{keyword}", refs)
                flat, _, _ = builder.flatten(
                    branches[order[0]], f"{path}/{keyword}/{order[0]}", refs
                )
                node = builder.merge(rest, flat, path)
                break
    except UnsupportedSchemaError:
        return {}, [], False
    props = dict(cast(Mapping[str, Any], node.get("properties", {})))
    required = list(dict.fromkeys(cast(list[str], node.get("required", []))))
    return props, required, node.get("additionalProperties") is False


def _wrong_values(root: Mapping[str, Any], sub: Any) -> list[Any]:
    """Wrong values to try for a property, the most typical model mistake first."""
    kind = None
    try:
        node, _, _ = Builder(root, "").flatten(sub if sub is not None else True, "#", ())
        declared = node.get("type")
        if isinstance(declared, str):
            kind = declared.lower()
        elif isinstance(declared, list) and declared:
            kind = next((t.lower() for t in cast(list[str], declared) if t.lower() != "null"), None)
        elif "enum" in node or "const" in node:
            first = node["const"] if "const" in node else (cast(list[Any], node["enum"]) or [0])[0]
            kind = "string" if isinstance(first, str) else None
    except UnsupportedSchemaError:
        pass
    return [100, "many", None] if kind == "string" else ["many", 100, None]
