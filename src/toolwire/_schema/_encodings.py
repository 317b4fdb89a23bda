"""Encodings for shapes strict APIs cannot take: dicts as key/value pairs, tuples as objects.

OpenAI and Anthropic strict need every object closed, so ``dict[str, X]`` is sent as a list of
``{"key", "value"}`` objects; and ``prefixItems`` is not in their subsets, so a fixed-length
tuple is sent as an object with ``item_<i>`` keys. `input_plan` turns both back, whatever API
the data came from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._events import NodeSite, record
from ._keywords import TYPED, is_number
from ._shapes import (
    PAIR_KEY,
    PAIR_VALUE,
    Json,
    JsonMap,
    as_list,
    dict_value_schema,
    is_map,
    join_path,
    tuple_key,
)
from ._words import constraint_phrase

if TYPE_CHECKING:
    from ._walk import Walker

__all__ = ["pairs", "tuple_object"]


def pairs(walker: Walker, schema: JsonMap, at: NodeSite) -> dict[str, Json]:
    """A dict schema as a list of ``{"key", "value"}`` objects (keys keep their schema)."""
    path, events, owner, notes, _ = at
    value_schema, key_schema = dict_value_schema(schema)
    value_out = walker.node(value_schema, join_path(path, "{}"), events, owner)
    key_in = {"type": "string"} if key_schema is None else key_schema
    if is_map(key_in) and not any(k in key_in for k in TYPED):
        key_in = {"type": "string", **key_in}
    key_out = walker.node(key_in, join_path(path, "{key}"), events, owner)
    entry = {
        "type": "object",
        "properties": {PAIR_KEY: key_out, PAIR_VALUE: value_out},
        "required": [PAIR_KEY, PAIR_VALUE],
        "additionalProperties": False,
    }
    out: dict[str, Json] = {"type": "array", "items": entry}
    record(
        events,
        path,
        "additionalProperties",
        "encoded_as_pairs",
        f'a dict is sent as a list of {{"{PAIR_KEY}", "{PAIR_VALUE}"}} objects, because '
        f"{walker.profile.api} strict mode needs closed objects; toolwire turns the list back "
        "into the dict (a repeated key keeps its last value)",
        lossy=False,
    )
    for size, items in (("minProperties", "minItems"), ("maxProperties", "maxItems")):
        if size in schema:
            _pair_count(walker, schema[size], size, items, at, out)
    consumed = {
        "type",
        "additionalProperties",
        "patternProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
    }
    rest = {key: value for key, value in schema.items() if key not in consumed}
    out.update(walker.keywords(rest, at))
    notes.notes.append("A mapping, sent as a list of key/value pairs.")
    return out


def _pair_count(
    walker: Walker,
    count: Json,
    size: str,
    items: str,
    at: NodeSite,
    out: dict[str, Json],
) -> None:
    """``minProperties``/``maxProperties`` of a dict become the pair list's item bounds."""
    path, events, _, notes, _ = at
    profile = walker.profile
    # Pairs repeating a key count once in the dict: only a lower bound above 1 can fail.
    lossy = size == "minProperties" and is_number(count) and count > 1
    allowed = profile.min_items_values
    if profile.takes(items) and (items != "minItems" or allowed is None or count in allowed):
        out[items] = count
        record(
            events,
            path,
            size,
            "rewritten",
            f"{constraint_phrase(size, count)} becomes {constraint_phrase(items, count)}"
            + ("; pairs that repeat a key count once in the dict" if lossy else ""),
            lossy=lossy,
        )
        return
    phrase = constraint_phrase(size, count)
    notes.constrain(size, phrase)
    record(
        events,
        path,
        size,
        "moved_to_description",
        f"{phrase}: {profile.api} cannot bound the pair list here, so it is stated in the "
        "description; toolwire's validation still checks it",
        lossy=size == "minProperties" and count != 0 or size == "maxProperties",
    )


def tuple_object(walker: Walker, schema: JsonMap, at: NodeSite) -> dict[str, Json]:
    """A fixed-length tuple as an object with ``item_<i>`` keys, all required."""
    path, events, owner, _, _ = at
    if schema.get("items", False) is not False:
        raise walker.fail(
            path,
            "is a tuple with a variable-length tail, which strict mode cannot express",
            "use a fixed-length tuple, a list, or a model",
        )
    items = as_list(schema["prefixItems"])
    properties = {
        tuple_key(index): walker.node(item, join_path(path, f"[{index}]"), events, owner)
        for index, item in enumerate(items)
    }
    out: dict[str, Json] = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    record(
        events,
        path,
        "prefixItems",
        "encoded_as_object",
        f"a {len(items)}-item tuple is sent as an object with keys "
        f"{', '.join(properties) or '(none)'}, because {walker.profile.api} strict mode "
        "does not take prefixItems; toolwire turns it back into the tuple",
        lossy=False,
    )
    consumed = {"type", "prefixItems", "items", "minItems", "maxItems"}
    rest = {key: value for key, value in schema.items() if key not in consumed}
    out.update(walker.keywords(rest, at))
    return out
