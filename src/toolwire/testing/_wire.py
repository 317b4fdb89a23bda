"""A history entry as the wire JSON its SDK would send, for the rules to read.

`check_history` takes param dicts, SDK objects or a mix; the rules read one form only:
the JSON the SDK puts in the request body (camelCase for google-genai objects).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

__all__ = ["wire_json"]


def wire_json(entry: object) -> Mapping[str, Any]:
    """`entry` as the JSON the SDK would send ({} when that is not an object)."""
    value = _to_json(entry)
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _to_json(value: object) -> object:
    """`value` as plain JSON-like data, every SDK model in it dumped to its wire form.

    A history holds the model's tool arguments, which may nest thousands of levels
    deep (or, built by hand, contain themselves). So the walk runs on an explicit
    stack, never recursing, and converts each container once (a cycle stays a cycle).
    """
    value = _dumped(value)
    root = _empty_like(value)
    if root is None:
        return value
    # id -> (container, its copy); the container is kept so that its id is not reused.
    converted: dict[int, tuple[object, Any]] = {id(value): (value, root)}
    stack: list[tuple[object, Any]] = [(value, root)]

    def plain(item: object) -> object:
        kind = type(item)
        if kind in _SCALARS:
            return item
        empty: Any = {} if kind is dict else [] if kind is list else None
        if empty is None:
            item = _dumped(item)
            empty = _empty_like(item)
            if empty is None:
                return item
        seen = converted.setdefault(id(item), (item, empty))
        if seen[1] is empty:
            stack.append((item, empty))
        return seen[1]

    while stack:
        source, target = stack.pop()
        if isinstance(target, dict):
            mapping = cast("Mapping[Any, Any]", source)
            cast("dict[Any, Any]", target).update((k, plain(v)) for k, v in mapping.items())
        else:
            target.extend(plain(item) for item in cast("Sequence[Any]", source))
    return root


_SCALARS = frozenset({str, int, float, bool, type(None), bytes})
"""Types `_to_json` passes through without a look (the bulk of a big history)."""


def _dumped(value: object) -> object:
    """An SDK model as its wire JSON; anything else as it is."""
    dump = getattr(value, "model_dump", None)
    if not callable(dump):
        return value
    try:
        return dump(mode="json", by_alias=True, exclude_none=True)
    except ValueError:
        # pydantic's JSON serializer stops at a depth a model's arguments can pass; the
        # Python dump does not (it keeps bytes as bytes, which the rules accept too).
        return dump(mode="python", by_alias=True, exclude_none=True)


def _empty_like(value: object) -> dict[Any, Any] | list[Any] | None:
    """A new, empty container of `value`'s kind, or None when it is not a container."""
    if isinstance(value, dict | Mapping):
        return {}
    if isinstance(value, list | tuple):
        return []
    return None
