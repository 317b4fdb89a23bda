"""Per-turn tool-call bookkeeping shared by every API's stream accumulator.

Each accumulator knows its API's events; this knows what a call is: its ordinal
index, its id (synthesized when the API sent none), its argument buffer with a
live preview, and the events that start, grow and end it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._call import CallType, StandardToolCall, synthesized_id
from ._events import (
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallTruncated,
    arguments_delta,
)
from ._preview import ArgumentsPreview

__all__ = ["CallTracker", "OpenCall", "TrackedStream"]


@dataclass(slots=True)
class OpenCall:
    """A call whose arguments are still arriving."""

    index: int
    provider_index: int
    call_id: str
    synthesized_id: bool
    name: str
    kind: CallType
    preview: ArgumentsPreview = field(default_factory=ArgumentsPreview)

    @property
    def arguments(self) -> str:
        """The raw argument text received so far."""
        return self.preview.raw

    add = arguments_delta
    """`add(fragment)`: append a non-empty argument fragment and return its event.
    Accumulators that keep the open call call this directly for each fragment (one
    call layer, no lookup); `CallTracker.add` finds the call by key first."""


class CallTracker:
    """The calls of one streamed turn, keyed by whatever the API identifies them with."""

    def __init__(self) -> None:
        self.response_id: str | None = None
        """Set by the accumulator when the API sends it; used for synthesized ids."""
        self._open: dict[Hashable, OpenCall] = {}
        self._count = 0
        self.completed: list[StandardToolCall] = []
        """Every call reported complete or truncated so far, in order."""

    def open_keys(self) -> list[Hashable]:
        """Keys of the calls still open, oldest first."""
        return list(self._open)

    def get(self, key: Hashable) -> OpenCall:
        return self._open[key]

    def start(
        self,
        key: Hashable,
        *,
        provider_index: int,
        call_id: str | None,
        name: str,
        kind: CallType = "function",
    ) -> ToolCallStarted:
        """Open a call; its id is synthesized (stably, from the response id and the
        call's position) when the API sent none."""
        index = self._count
        self._count += 1
        synthesized = not call_id
        final_id = call_id or synthesized_id(self.response_id, index)
        self._open[key] = OpenCall(index, provider_index, final_id, synthesized, name, kind)
        return ToolCallStarted(index, provider_index, final_id, name, synthesized)

    def rename(self, key: Hashable, name: str) -> None:
        """Give an open call the name its API sent late (after its start was reported)."""
        self._open[key].name = name

    def identify(self, key: Hashable, call_id: str) -> None:
        """Give an open call the id its API sent late, in place of the one synthesized
        for its start: its later events, its completed call and the final response
        carry the API's id, the one a reply must answer."""
        call = self._open[key]
        call.call_id = call_id
        call.synthesized_id = False

    def restart(self, key: Hashable) -> None:
        """Empty an open call's arguments: the API sent a whole new copy of them. Events
        of the fragments before keep their string deltas, and preview the new copy."""
        call = self._open[key]
        call.preview = call.preview.replaced()

    def add(self, key: Hashable, fragment: str) -> ToolCallArgumentsDelta | None:
        """Append an argument fragment; None for an empty one, or when no call is open
        under `key` (a fragment for a call that ended, or never started)."""
        call = self._open.get(key)
        if call is None or not fragment:
            return None
        return call.add(fragment)

    def finish(
        self,
        key: Hashable,
        *,
        truncated: bool = False,
        arguments: str | Mapping[str, Any] | None = None,
    ) -> ToolCallCompleted | ToolCallTruncated:
        """Close a call. `arguments` overrides the buffer (whole-call APIs, or the
        API's own final copy); a truncated call is reported as such, never complete."""
        call = self._open.pop(key)
        raw: str | Mapping[str, Any] | None = call.arguments if arguments is None else arguments
        std = StandardToolCall(
            call.kind, call.call_id, call.name, raw, call.synthesized_id, truncated
        )
        self.completed.append(std)
        if truncated:
            return ToolCallTruncated(call.index, call.provider_index, std)
        return ToolCallCompleted(call.index, call.provider_index, std)


class TrackedStream:
    """Base of every API's stream accumulator: each keeps its calls in a `CallTracker`,
    which answers `completed_calls`."""

    _tracker: CallTracker

    def completed_calls(self) -> list[StandardToolCall]:
        return list(self._tracker.completed)
