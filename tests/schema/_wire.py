"""What a model would send for an instance, under a compiled schema, and how to read it back.

`to_wire` re-encodes pydantic's JSON dump of an instance into the compiled schema's shapes
(dicts as ``{"key", "value"}`` pair lists, tuples as ``item_<i>`` objects), choosing union
branches by validity. `parse` validates a payload the way the API's arguments arrive: JSON text
for OpenAI, a dict for Anthropic and Gemini (toolwire validates those with ``strict=False``).
"""

from __future__ import annotations

import json
from typing import Any, cast

from ._gen import validator
from ._models import StrictBase

Schema = dict[str, Any]


def _resolve(schema: Schema, defs: dict[str, Any]) -> Schema:
    while "$ref" in schema:
        schema = defs[schema["$ref"].removeprefix("#/$defs/")]
    return schema


def _is_pairs(schema: Schema) -> bool:
    items = schema.get("items", {})
    return schema.get("type") == "array" and set(items.get("properties", {})) == {"key", "value"}


def _is_tuple_object(schema: Schema) -> bool:
    props = schema.get("properties", {})
    return bool(props) and list(props) == [f"item_{i}" for i in range(len(props))]


def to_wire(value: Any, schema: Schema, defs: dict[str, Any]) -> Any:
    """`value` (pydantic's JSON dump) in the shapes `schema` asks for."""
    schema = _resolve(schema, defs)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            for branch in schema[key]:
                wire = to_wire(value, branch, defs)
                if validator({**branch, "$defs": defs}).is_valid(wire):
                    return wire
            return value
    if isinstance(value, dict):
        data = cast("dict[str, Any]", value)
        if _is_pairs(schema):
            value_schema = schema["items"]["properties"]["value"]
            return [{"key": k, "value": to_wire(v, value_schema, defs)} for k, v in data.items()]
        props: dict[str, Any] = schema.get("properties", {})
        extra: Any = schema.get("additionalProperties")
        rest = cast(Schema, extra) if isinstance(extra, dict) else {}
        return {k: to_wire(v, props.get(k, rest), defs) for k, v in data.items()}
    if isinstance(value, list):
        items = cast("list[Any]", value)
        if _is_tuple_object(schema):
            props = schema["properties"]
            return {f"item_{i}": to_wire(v, props[f"item_{i}"], defs) for i, v in enumerate(items)}
        if "prefixItems" in schema:
            return [to_wire(v, s, defs) for v, s in zip(items, schema["prefixItems"], strict=True)]
        item_schema: Any = schema.get("items", {})
        each = cast(Schema, item_schema) if isinstance(item_schema, dict) else {}
        return [to_wire(v, each, defs) for v in items]
    return value


def wire_for(instance: StrictBase, compiled: Schema) -> Any:
    """What the model sends, under `compiled`, for `instance`."""
    dumped = instance.model_dump(mode="json", by_alias=True)
    return to_wire(dumped, compiled, compiled.get("$defs", {}))


def parse(model: type[StrictBase], api: str, payload: Any) -> StrictBase:
    """Validate `payload` as toolwire does for `api`: JSON text for OpenAI, dicts otherwise."""
    if api in ("chat.completions", "responses"):
        return model.model_validate_json(json.dumps(payload))
    return model.model_validate(payload, strict=False)
