"""Output items as input item params: the shape the Responses API accepts back.

A response's output items go back into the next request's `input`. Sent as SDK
models they carry `"async_"` instead of `"async"` and nulls the param types do not
allow; their `to_dict()` carries keys no param type defines (`created_by`,
`parsed_arguments`, `parsed`, fields a newer server added). So each item is cleaned
against the SDK's own param `TypedDict`s (`ResponseInputItemParam` and everything
nested in it): keys they do not define are dropped, a None is kept only where the
annotation allows None, and `"async_"` becomes `"async"`. Everything else (reasoning
`encrypted_content`, message `phase`, ids) is kept byte for byte.

The shapes are read from the type annotations once, on first use, and cached. The
shape graph is built whole (under a lock) before it is published: a half-built shape
seen by another thread would drop keys it has not registered yet.
"""

from __future__ import annotations

import threading
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Union, cast, get_args, get_origin

import typing_extensions

__all__ = ["as_input_item"]


class _Keep:
    """A value kept as it is (strings, numbers, free-form objects such as schemas)."""

    __slots__ = ()


_KEEP = _Keep()


class _Object:
    """A TypedDict: its keys, each with its shape and whether None is allowed."""

    __slots__ = ("keys", "kinds")

    def __init__(self) -> None:
        self.keys: dict[str, tuple[_Shape, bool]] = {}
        self.kinds: frozenset[str] = frozenset()
        """The values its `type` key may take (empty when it has no literal `type`)."""


class _List:
    __slots__ = ("item",)

    def __init__(self, item: _Shape) -> None:
        self.item = item


class _Choice:
    """A union of several TypedDicts (and possibly other types)."""

    __slots__ = ("options",)

    def __init__(self, options: tuple[_Object, ...]) -> None:
        self.options = options


_Shape = _Keep | _Object | _List | _Choice

_WRAPPERS = {
    typing.Annotated,
    typing_extensions.Annotated,
    typing_extensions.Required,
    typing_extensions.NotRequired,
    typing_extensions.ReadOnly,
}
_SEQUENCES = {list, Iterable, Sequence, tuple}
_Registry = dict[type, _Object]
"""The TypedDicts of one shape graph being built (shared within it: types recurse)."""


def _unwrap(annotation: Any) -> Any:
    while get_origin(annotation) in _WRAPPERS:
        annotation = get_args(annotation)[0]
    return annotation


def _union_members(annotation: Any) -> tuple[Any, ...] | None:
    if get_origin(annotation) in (Union, types.UnionType):
        return tuple(_unwrap(a) for a in get_args(annotation))
    return None


def _nullable(annotation: Any) -> bool:
    annotation = _unwrap(annotation)
    if annotation is type(None) or annotation is None:
        return True
    members = _union_members(annotation)
    return members is not None and any(m is type(None) or _nullable(m) for m in members)


def _shape(annotation: Any, registry: _Registry) -> _Shape:
    annotation = _unwrap(annotation)
    if typing_extensions.is_typeddict(annotation):
        return _object(annotation, registry)
    members = _union_members(annotation)
    if members is not None:
        if any(_free_form(m) for m in members):
            return _KEEP  # a value that may be any object: nothing to clean against
        shapes = [_shape(m, registry) for m in members if m is not type(None)]
        objects = tuple(s for s in shapes if isinstance(s, _Object))
        lists = [s for s in shapes if isinstance(s, _List)]
        if objects:
            return objects[0] if len(objects) == 1 and not lists else _Choice(objects)
        if lists:
            return lists[0]
        return _KEEP
    if get_origin(annotation) in _SEQUENCES:
        arguments = get_args(annotation)
        return _List(_shape(arguments[0], registry)) if arguments else _KEEP
    return _KEEP


def _free_form(annotation: Any) -> bool:
    return annotation in (object, Any, dict) or get_origin(annotation) in (dict, Mapping)


def _object(typed_dict: type, registry: _Registry) -> _Object:
    known = registry.get(typed_dict)
    if known is not None:
        return known
    shape = registry[typed_dict] = _Object()  # registered first: types may recurse
    hints = typing_extensions.get_type_hints(typed_dict, include_extras=True)
    shape.keys = {key: (_shape(hint, registry), _nullable(hint)) for key, hint in hints.items()}
    kind = hints.get("type")
    if kind is not None:
        shape.kinds = frozenset(_literals(_unwrap(kind)))
    return shape


def _literals(annotation: Any) -> list[str]:
    if get_origin(annotation) is Literal:
        return [a for a in get_args(annotation) if isinstance(a, str)]
    members = _union_members(annotation) or ()
    return [value for member in members for value in _literals(member)]


_BUILD_LOCK = threading.Lock()
_INPUT_ITEM_SHAPE: list[_Shape] = []
"""The finished shape of `ResponseInputItemParam`, once built (empty until then)."""


def _input_item_shape() -> _Shape:
    if not _INPUT_ITEM_SHAPE:
        with _BUILD_LOCK:
            if not _INPUT_ITEM_SHAPE:
                from openai.types.responses import ResponseInputItemParam

                _INPUT_ITEM_SHAPE.append(_shape(ResponseInputItemParam, {}))
    return _INPUT_ITEM_SHAPE[0]


def as_input_item(data: Mapping[str, Any]) -> dict[str, Any]:
    """One output item (its `to_dict()` or `model_dump()` form) as an input item param.

    An item of a type the SDK has no param for is returned as it came (without None
    values): the API sent it, so it takes it back.
    """
    shape = _input_item_shape()
    cleaned = _clean(data, shape)
    if isinstance(cleaned, dict) and cleaned is not data:
        return cast(dict[str, Any], cleaned)
    return {k: v for k, v in data.items() if v is not None}


def _clean(value: Any, shape: _Shape) -> Any:
    if isinstance(shape, _Keep):
        return value
    if isinstance(shape, _List):
        if isinstance(value, list):
            return [_clean(v, shape.item) for v in cast(list[Any], value)]
        return value
    if not isinstance(value, Mapping):
        return value
    data = cast(Mapping[str, Any], value)
    target = shape if isinstance(shape, _Object) else _pick(data, shape)
    if target is None:
        return data
    cleaned: dict[str, Any] = {}
    keys = target.keys
    for key, item in data.items():
        spec = keys.get(key)
        if spec is None and key.endswith("_"):
            key = key[:-1]  # the SDK's alias for a Python keyword: "async_" -> "async"
            spec = keys.get(key)
        if spec is None or (item is None and not spec[1]):
            continue
        cleaned[key] = None if item is None else _clean(item, spec[0])
    return cleaned


def _pick(data: Mapping[str, Any], choice: _Choice) -> _Object | None:
    """The member of a union `data` is: matched on `type`, then on the keys it defines."""
    kind = data.get("type")
    options = [o for o in choice.options if kind in o.kinds] if isinstance(kind, str) else []
    if not options:
        if isinstance(kind, str) and any(o.kinds for o in choice.options):
            return None  # a type no member has: leave it alone
        options = list(choice.options)
    if len(options) == 1:
        return options[0]
    present = [k.removesuffix("_") for k, v in data.items() if v is not None]
    return max(options, key=lambda o: sum(k in o.keys for k in present))
