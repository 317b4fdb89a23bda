"""Lockstep: a stream accumulator with a fast path must fold every stream exactly as its
general path does. Each stream is fed, item by item, to an accumulator that may take the
fast path (`feed`) and to one held to the general path (`_feed`); both must give the same
events (an argument delta with its preview), the same `completed_calls` after every item,
and the same `final_response()`, or raise the same error. Shared by each API's fast-path
tests, which also check how many items the fast path took (observed: the items `feed`
folded without reaching `_feed`), so that the comparisons are not vacuous.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any, NamedTuple, Protocol

from toolwire.core import StandardToolCall, ToolCallArgumentsDelta

__all__ = ["Folded", "WithoutDict", "compatible_items", "fold_alike"]


class WithoutDict:
    """An item of a compatible library that keeps its fields elsewhere than in a
    `__dict__` (read by attribute): a fast path that reads `__dict__` must leave it
    to the general path."""

    __slots__ = ("_fields",)

    def __init__(self, fields: dict[str, Any]) -> None:
        self._fields = fields

    def __getattr__(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(name) from None


def compatible_items(raw: list[dict[str, Any]], kind: str) -> list[Any]:
    """`raw` items as a compatible library's objects, read by attribute: "namespace"
    (`SimpleNamespace`, fields in `__dict__`) or "slots" (`WithoutDict`)."""
    make: Callable[[dict[str, Any]], object] = (
        WithoutDict if kind == "slots" else lambda fields: SimpleNamespace(**fields)
    )
    return [json.loads(json.dumps(item), object_hook=make) for item in raw]


class Accumulator(Protocol):
    """A stream accumulator with a fast path in `feed` and the general path in `_feed`."""

    def feed(self, item: object) -> list[Any]: ...
    def _feed(self, item: object) -> list[Any]: ...
    def completed_calls(self) -> list[StandardToolCall]: ...
    def final_response(self) -> object: ...


class Folded(NamedTuple):
    final: object
    """The final response, or the error `final_response()` raised (type and text)."""
    took: tuple[bool, ...]
    """Whether the fast path took each item."""

    @property
    def taken(self) -> int:
        """How many items the fast path took."""
        return sum(self.took)


def _outcome(feed: Callable[[object], list[Any]], item: object) -> object:
    """What feeding `item` did: the events (an argument delta with its preview), or the
    error raised."""
    try:
        events = feed(item)
    except Exception as error:  # compared, not hidden: both paths must raise the same
        return (type(error), str(error))
    return [
        (event, event.partial_arguments) if isinstance(event, ToolCallArgumentsDelta) else event
        for event in events
    ]


def _final(accumulator: Accumulator) -> object:
    try:
        return accumulator.final_response()
    except Exception as error:
        return (type(error), str(error))


def fold_alike(make: Callable[[], Accumulator], items: Iterable[object]) -> Folded:
    """Feed `items` to two accumulators `make` builds, one by the fast path's door
    (`feed`) and one by the general path's (`_feed`), asserting they agree after each
    item and at the end. An item the fast path took is one `feed` folded without
    reaching `_feed`: observed, not predicted."""
    fast, general = make(), make()
    reached: list[object] = []
    general_feed = fast._feed

    def observed(item: object) -> list[Any]:
        reached.append(item)
        return general_feed(item)

    vars(fast)["_feed"] = observed  # `feed` falls back on it for what it does not take
    took: list[bool] = []
    for position, item in enumerate(items):
        before = len(reached)
        fed = _outcome(fast.feed, item)
        took.append(len(reached) == before)
        assert fed == _outcome(general._feed, item), f"item {position}: {item!r}"
        assert fast.completed_calls() == general.completed_calls(), f"item {position}"
    result = _final(fast)
    assert result == _final(general)
    return Folded(result, tuple(took))
