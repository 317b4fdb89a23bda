"""Small JSON helpers shared by the adapters."""

from __future__ import annotations

from typing import Any, cast

__all__ = ["copy_json"]


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-like tree (dicts, lists, scalars), faster than `copy.deepcopy`.

    Used to hand out definitions a caller may mutate, and to replay a model's tool
    input. That input is untrusted: it may nest thousands of levels deep, or (built by
    hand) contain itself. So the copy runs on an explicit stack, never recursing, and
    copies each container once (shared or cyclic parts stay shared or cyclic, as
    `copy.deepcopy` keeps them).
    """
    if isinstance(value, dict):
        root: Any = {}
    elif isinstance(value, list):
        root = []
    else:
        return value
    copies: dict[int, Any] = {id(cast(Any, value)): root}
    stack: list[tuple[Any, Any]] = [(value, root)]
    entries: Any
    copy: Any
    while stack:
        source, target = stack.pop()
        # Scalars come over in one C-level call; containers are then replaced by copies.
        if isinstance(target, dict):
            cast("dict[Any, Any]", target).update(source)
            entries = cast("dict[Any, Any]", source).items()
        else:
            cast("list[Any]", target).extend(source)
            entries = enumerate(cast("list[Any]", source))
        for key, item in entries:
            if isinstance(item, (dict, list)):  # a tuple: faster than `dict | list`
                copy = copies.get(id(item))  # pyright: ignore[reportUnknownArgumentType]
                if copy is None:
                    copy = {} if isinstance(item, dict) else []
                    copies[id(item)] = copy  # pyright: ignore[reportUnknownArgumentType]
                    stack.append((item, copy))  # pyright: ignore[reportUnknownArgumentType]
                target[key] = copy
    return root
