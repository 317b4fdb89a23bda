"""`StreamGate`: which items one API's stream accumulator takes, decided once per type.

A `ToolCallStream` fed something other than its API's chunks or events (another API's
chunk, the whole stream, a coroutine) must say so rather than fold it into nonsense;
the gate checks each item type once, so the accumulators pay one dict lookup per chunk.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .._api import Api, wrong_stream_item

__all__ = ["SKIP", "TAKE", "UNWRAP", "NoItem", "StreamGate"]

TAKE, UNWRAP, SKIP = 0, 1, 2
"""What a stream accumulator does with an item: fold it; fold the chunk it wraps (the
openai chat helper's `ChunkEvent`); or ignore it (helper events that restate a chunk)."""


class NoItem:
    """A type no stream item has. A fast path that checks an item's type against the
    type it reads takes this one once it found it cannot read items of that type (a
    compatible library's objects), so that they all take the general path."""


class StreamGate:
    """Which items one API's stream accumulator takes, decided once per item type.

    Accumulators look an item's type up in `actions` (one dict lookup per chunk) and
    call `admit` only for a type not seen yet, which classifies it or raises
    `UnexpectedObjectError` saying what was fed instead.
    """

    __slots__ = ("_api", "_classify", "actions")

    def __init__(self, api: Api, classify: Callable[[object], int | None]) -> None:
        self._api: Api = api
        self._classify = classify
        self.actions: dict[type, int] = {}

    def admit(self, item: object) -> int:
        """Classify an item of a type not seen yet (SDK types by their class, objects of
        compatible libraries by their attributes), remember it, or raise."""
        kind = type(item)
        action = None if issubclass(kind, Mapping) else self._classify(item)
        if action is None:
            raise wrong_stream_item(item, self._api)
        self.actions[kind] = action
        return action
