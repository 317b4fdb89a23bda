"""Same-meaning rewrites done before the keyword walk: type lists, allOf, literals.

Each rewrite turns a node into keywords the API takes without changing what it accepts, or,
where that is impossible (a boolean ``const`` on Gemini), states the rest in words and records
the change as lossy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._events import Event, Notes, record
from ._keywords import ANNOTATIONS, BY_TYPE, NULL, is_number
from ._shapes import Json, JsonMap, as_list, as_map, is_map
from ._words import constraint_phrase, json_text

if TYPE_CHECKING:
    from ._walk import Walker

__all__ = ["rewrite"]


def rewrite(
    walker: Walker, schema: JsonMap, path: str, events: list[Event], notes: Notes
) -> JsonMap:
    """Same-meaning rewrites done before the keyword walk (type lists, allOf, literals)."""
    profile = walker.profile
    kinds = as_list(schema.get("type"))
    if kinds and profile.type_list_as_any_of:
        schema = _split_type_list(walker, schema, kinds, path, events)
    if "allOf" in schema and not profile.takes("allOf"):
        schema = _merge_all_of(walker, schema, as_list(schema["allOf"]), path, events)
    patterns = as_map(schema.get("patternProperties"))
    if (
        patterns
        and not profile.takes("patternProperties")
        and not profile.dicts_as_pairs
        and len(patterns) == 1
        and "additionalProperties" not in schema
        and "properties" not in schema
    ):
        ((pattern, value),) = patterns.items()
        schema = {key: item for key, item in schema.items() if key != "patternProperties"} | {
            "additionalProperties": value
        }
        phrase = f"keys match the regular expression {pattern}"
        notes.constrain("patternProperties", phrase)
        record(
            events,
            path,
            "patternProperties",
            "moved_to_description",
            f"{phrase}: the values keep their schema under additionalProperties, the "
            "key pattern is only stated in the description",
            lossy=True,
        )
    if profile.const_as_enum and "const" in schema:
        schema = _const_as_enum(walker, schema, path, events, notes)
    if profile.enum_strings_and_numbers and "enum" in schema:
        schema = _split_enum(walker, schema, path, events, notes)
    return schema


def _split_type_list(
    walker: Walker, schema: JsonMap, kinds: list[Any], path: str, events: list[Event]
) -> JsonMap:
    """``type: [a, b]`` as ``anyOf`` of single types, each with its own type's keywords."""
    if len(kinds) == 1:
        return {**schema, "type": kinds[0]}
    branches: list[dict[str, Json]] = []
    for kind in kinds:
        branch: dict[str, Json] = {"type": kind}
        for keyword in BY_TYPE.get(str(kind), frozenset()):
            if keyword in schema:
                branch[keyword] = schema[keyword]
        branches.append(branch)
    moved = {keyword for kind in kinds for keyword in BY_TYPE.get(str(kind), frozenset())}
    rest = {k: v for k, v in schema.items() if k != "type" and k not in moved}
    record(
        events,
        path,
        "type",
        "rewritten",
        f"the type list {json_text(kinds)} is written as anyOf of single types",
        lossy=False,
    )
    return {"anyOf": branches, **rest}


def _merge_all_of(
    walker: Walker, schema: JsonMap, parts: list[Any], path: str, events: list[Event]
) -> JsonMap:
    """A one-schema ``allOf`` merged into the node; anything else is refused."""
    rest = {key: value for key, value in schema.items() if key != "allOf"}
    if len(parts) == 1 and is_map(parts[0]):
        part = parts[0]
        clash = [k for k in part if k in rest and k not in ANNOTATIONS and rest[k] != part[k]]
        if not clash:
            merged = {**part, **rest}
            record(
                events,
                path,
                "allOf",
                "rewritten",
                "a one-schema allOf is merged into the field's schema",
                lossy=False,
            )
            return merged
    raise walker.fail(
        path,
        f"uses allOf, which {walker.profile.api} does not take here",
        "write the schema without allOf (one object with all the properties), "
        "or set model_tool_strict = False",
    )


def _const_as_enum(
    walker: Walker, schema: JsonMap, path: str, events: list[Event], notes: Notes
) -> JsonMap:
    """Gemini: ``const`` as a one-value ``enum`` (null as a type, booleans in words)."""
    value = schema["const"]
    rest = {key: item for key, item in schema.items() if key != "const"}
    if isinstance(value, str) or is_number(value):
        record(
            events,
            path,
            "const",
            "rewritten",
            f"const {json_text(value)} is written as a one-value enum",
            lossy=False,
        )
        return {**rest, "enum": [value]}
    if value is None:
        record(
            events,
            path,
            "const",
            "rewritten",
            "const null is written as type null",
            lossy=False,
        )
        return {**{k: v for k, v in rest.items() if k != "type"}, "type": "null"}
    phrase = constraint_phrase("const", value)
    notes.constrain("const", phrase)
    record(
        events,
        path,
        "const",
        "moved_to_description",
        f"{phrase}: {walker.profile.api} takes enum values of strings and numbers only, so "
        "the API accepts any value of the type here; toolwire's validation still checks it",
        lossy=True,
    )
    if isinstance(value, bool):
        rest["type"] = "boolean"
    return rest


def _split_enum(
    walker: Walker, schema: JsonMap, path: str, events: list[Event], notes: Notes
) -> JsonMap:
    """Gemini: booleans and null out of ``enum`` into ``anyOf`` branches of their types."""
    values = as_list(schema["enum"])
    plain = [v for v in values if isinstance(v, str) or is_number(v)]
    if len(plain) == len(values):
        return schema
    bools = [v for v in values if isinstance(v, bool)]
    others = [v for v in values if v is not None and not isinstance(v, bool | str | int | float)]
    branches: list[dict[str, Json]] = []
    if plain:
        branch: dict[str, Json] = {"enum": plain}
        if all(isinstance(v, str) for v in plain):
            branch = {"type": "string", "enum": plain}
        elif all(is_number(v) for v in plain):
            integral = all(isinstance(v, int) for v in plain)
            branch = {"type": "integer" if integral else "number", "enum": plain}
        branches.append(branch)
    lossy = bool(others) or len(set(bools)) == 1
    if bools:
        branch = {"type": "boolean"}
        if len(set(bools)) == 1:
            branch["description"] = "Must be " + json_text(bools[0]) + "."
        branches.append(branch)
    if None in values:
        branches.append(dict(NULL))
    if others:
        phrase = "one of " + ", ".join(json_text(v) for v in others)
        notes.constrain("enum", phrase)
        branches.append({"type": "object"} if is_map(others[0]) else {"type": "array"})
    rest = {k: v for k, v in schema.items() if k not in ("enum", "type")}
    record(
        events,
        path,
        "enum",
        "rewritten",
        f"enum {json_text(values)} holds values other than strings and numbers, which "
        f"{walker.profile.api} takes in enum: written as anyOf of an enum and types"
        + (
            "; a single boolean or an object/array value is only stated in words "
            "(toolwire's validation still checks it)"
            if lossy
            else ""
        ),
        lossy=lossy,
    )
    if len(branches) == 1:
        return {**rest, **branches[0]}
    return {"anyOf": branches, **rest}
