"""A checker for Responses input items against the SDK's param TypedDicts (read with
`typing.get_type_hints(..., include_extras=True)`), and tests that it catches what it
should. The history and conformance tests use `undefined_keys`."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Union, cast, get_args, get_origin

import typing_extensions
from openai.types.responses import ResponseInputItemParam

_WRAPPERS = (
    typing.Annotated,
    typing_extensions.Annotated,
    typing_extensions.Required,
    typing_extensions.NotRequired,
    typing_extensions.ReadOnly,
)


def _bare(annotation: Any) -> Any:
    while get_origin(annotation) in _WRAPPERS:
        annotation = get_args(annotation)[0]
    return annotation


def _members(annotation: Any) -> list[Any]:
    annotation = _bare(annotation)
    if get_origin(annotation) in (Union, types.UnionType):
        return [m for a in get_args(annotation) for m in _members(a)]
    return [annotation]


def _type_values(typed_dict: Any) -> set[str]:
    hint = typing_extensions.get_type_hints(typed_dict, include_extras=True).get("type")
    values: set[str] = set()
    for member in _members(hint) if hint is not None else []:
        if get_origin(member) is Literal:
            values.update(a for a in get_args(member) if isinstance(a, str))
    return values


def undefined_keys(
    value: Any, annotation: Any = ResponseInputItemParam, path: str = ""
) -> list[str]:
    """Paths of keys in `value` that its param type does not define, and of None values
    where the annotation does not allow None."""
    members = _members(annotation)
    if value is None:
        return [] if type(None) in members or not members else [f"{path} is None"]
    if isinstance(value, list):
        item_types = [
            get_args(m)[0]
            for m in members
            if get_origin(m) in (list, Iterable, Sequence) and get_args(m)
        ]
        if not item_types:
            return []
        return [
            problem
            for index, item in enumerate(cast(list[Any], value))
            for problem in undefined_keys(item, Union[tuple(item_types)], f"{path}[{index}]")  # noqa: UP007
        ]
    if not isinstance(value, Mapping):
        return []
    data = cast(Mapping[str, Any], value)
    typed_dicts = [m for m in members if typing_extensions.is_typeddict(m)]
    if not typed_dicts:
        return []
    kind = data.get("type")
    matching = [t for t in typed_dicts if kind in _type_values(t)] or typed_dicts
    best: list[str] | None = None
    for typed_dict in matching:
        hints = typing_extensions.get_type_hints(typed_dict, include_extras=True)
        problems = [f"{path}.{key}" for key in data if key not in hints]
        for key, item in data.items():
            if key in hints:
                problems += undefined_keys(item, hints[key], f"{path}.{key}")
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def test_defined_keys_pass() -> None:
    """A function call item with only its param type's keys has no problems."""
    item = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "id": "fc_1"}
    assert undefined_keys(item) == []


def test_unknown_and_aliased_keys_are_reported() -> None:
    """`async_`, `parsed_arguments` and `created_by` are not param keys."""
    item = {
        "type": "function_call",
        "call_id": "c",
        "name": "f",
        "arguments": "{}",
        "async_": False,
        "parsed_arguments": None,
    }
    assert undefined_keys(item) == [".async_", ".parsed_arguments"]


def test_disallowed_none_is_reported() -> None:
    """`id: None` is not allowed on a function call param (optional, not nullable)."""
    item = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "id": None}
    assert undefined_keys(item) == [".id is None"]


def test_nested_parts_are_checked() -> None:
    """Keys inside a message's content parts are checked too (`parsed` is not defined)."""
    item: dict[str, Any] = {
        "type": "message",
        "role": "assistant",
        "id": "msg_1",
        "status": "completed",
        "content": [{"type": "output_text", "text": "hi", "annotations": [], "parsed": None}],
    }
    assert undefined_keys(item) == [".content[0].parsed"]
