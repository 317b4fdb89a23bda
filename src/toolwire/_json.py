"""Small JSON helpers shared by the adapters."""

from __future__ import annotations

from typing import Any, cast

__all__ = ["copy_json"]


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-like tree (dicts, lists, scalars), several times faster
    than `copy.deepcopy`. Used to hand out definitions a caller may mutate."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in cast(dict[str, Any], value).items()}
    if isinstance(value, list):
        return [copy_json(v) for v in cast(list[Any], value)]
    return value
