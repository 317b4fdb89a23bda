"""Responses stream folding: `ResponseStreamEvent`s in, events and a `Response` out.

What each event becomes:

- `response.output_item.added` with a `function_call` / `custom_tool_call` item, or a
  `tool_search_call` the client runs: `ToolCallStarted` (id: the item's `call_id`;
  `provider_index`: its `output_index`, which counts every output item, reasoning and
  messages included; name: its flat name in a namespace, "tool_search" for a search).
  The item's `caller` (a call the model's program made; or, when only the item's
  final copy names it, that one's) becomes the call's `caller` when it ends.
- `response.function_call_arguments.delta` / `response.custom_tool_call_input.delta`:
  `ToolCallArgumentsDelta`, matched to its call by `output_index` (or `item_id`).
- `response.output_item.done` for a call: `ToolCallCompleted` with the item's final
  arguments (a search's arguments object, whole), and its `call_id` and name where the
  item that started the call had none (a synthesized id, or an empty name, only in
  `ToolCallStarted`), or `ToolCallTruncated` when its status is `incomplete`. An item
  whose status does not settle it (none, as custom tool calls have; or `in_progress`) is
  decided as the adapter's truncation rule decides it in the final response: when the
  next output item starts (no status: complete) or at the terminal event (cut if the
  response stopped early).
- `response.output_text.delta`: `TextDelta`; reasoning summary and reasoning text
  deltas: `ReasoningDelta`.
- `response.completed` / `.incomplete` / `.failed`: `TurnEnded(stop_reason=<the
  response's status>, status=<turn_status>)`, after the end of any call that never got
  its `output_item.done` (settled by the terminal response's copy of the item, or
  `ToolCallTruncated` when it holds none), and a start and an end for any call only the
  terminal event carried. So every call of the final response is reported once, the
  way `run_tool_calls` will treat it.

The final response is the terminal event's `Response`, with its output taken from the
`output_item.done` items when the terminal event carries none (some backends send
`output: null` or `[]`), and with the `output_item.done` copy of each reasoning item:
its `encrypted_content` is the one the API accepted back in recorded traffic (the
copies differ). There is no `[DONE]` sentinel in Responses: a stream without a
terminal event was cut, and `final_response()` says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..._api import is_sdk_type, mro_names
from ..._definition import TOOL_SEARCH_NAME
from ..._streaming._events import NewReasoningDelta, NewTextDelta, StreamEvent, TurnEnded
from ..._streaming._gate import TAKE, StreamGate
from ..._streaming._tracker import CallTracker, TrackedStream
from ...exceptions import StreamIncompleteError, StreamOrderError
from .items import CALL_KINDS, flat_name, is_search_call
from .programs import caller_of
from .turn import STOPPED_EARLY, is_cut, status_of

if TYPE_CHECKING:
    from openai.types.responses import Response

    from ..._call import CallType
    from ..._callers import ProgrammaticCaller
    from ..._streaming._events import ToolCallCompleted, ToolCallTruncated

__all__ = ["ResponsesStreamAccumulator"]

_TERMINAL = frozenset({"response.completed", "response.incomplete", "response.failed"})
_ARGUMENT_DELTAS = frozenset(
    {"response.function_call_arguments.delta", "response.custom_tool_call_input.delta"}
)
_REASONING_DELTAS = frozenset(
    {"response.reasoning_summary_text.delta", "response.reasoning_text.delta"}
)
_STARTED = frozenset({"response.created", "response.in_progress", "response.queued"})


def _classify(item: object) -> int | None:
    """Events of the SDK's Responses stream (raw, or the `client.responses.stream()`
    helper's, which subclass them)."""
    kind = type(item)
    if is_sdk_type(kind):
        events = mro_names(kind, "openai.types.responses")
        return TAKE if any(name.endswith("Event") for name in events) else None
    return TAKE if hasattr(item, "type") else None  # a compatible library's event


_GATE = StreamGate("responses", _classify)


def _kind_of(item: Any) -> CallType | None:
    """The kind of call an output item is ("tool_search" for a tool search the client
    runs), or None when it is no call toolwire runs."""
    kind = item.type
    call_kind = CALL_KINDS.get(kind)
    if call_kind is not None:
        return "custom" if call_kind == "custom" else "function"
    return "tool_search" if is_search_call(kind, item) else None


def _name_of(item: Any, kind: CallType | None) -> str:
    """The name a call item is run under: its flat name in a namespace, "tool_search"
    for a tool search."""
    if kind == "tool_search":  # its arguments are an object, whole at the end
        return TOOL_SEARCH_NAME
    return flat_name(item.name, getattr(item, "namespace", None))


class ResponsesStreamAccumulator(TrackedStream):
    """Folds one streamed Responses turn."""

    def __init__(self) -> None:
        self._tracker = CallTracker()
        self._index_of_item: dict[str, int] = {}
        self._done: dict[int, Any] = {}
        self._started: set[int] = set()
        self._started_ids: set[str] = set()
        """Item ids and call ids of the calls started: the terminal event's output is
        matched on them, since its positions need not match the events' output_index
        (a proxy that drops an item renumbers the output)."""
        self._ids_of: dict[int, tuple[str, ...]] = {}
        """The item id and call id of each call started, by output index."""
        self._finished: set[int] = set()
        self._pending: dict[int, Any] = {}
        """Calls whose output_item.done did not settle them, by output index."""
        self._callers: dict[int, ProgrammaticCaller] = {}
        """The program that made each call it made, by output index."""
        self._final: Response | None = None
        self._error: str | None = None

    def feed(self, item: object) -> list[StreamEvent]:
        event: Any = item
        if type(item) not in _GATE.actions:
            _GATE.admit(item)
        kind = event.type
        if self._final is not None:
            raise StreamOrderError(
                f"A {kind!r} event arrived after the stream's terminal event "
                f"({self._final.status!r}). Feed one stream, in order, to one ToolCallStream, "
                "and start a new one for the next request."
            )
        if kind in _ARGUMENT_DELTAS:
            index = getattr(event, "output_index", None)
            key = index if index is not None else self._key_of_item(event)
            delta = self._tracker.add(key, event.delta)
            return [] if delta is None else [delta]
        if kind == "response.output_text.delta":
            return [NewTextDelta(event.delta)] if event.delta else []
        if kind in _REASONING_DELTAS:
            return [NewReasoningDelta(event.delta)] if event.delta else []
        if kind == "response.output_item.added":
            return self._added(event.output_index, event.item)
        if kind == "response.output_item.done":
            return self._item_done(event.output_index, event.item)
        if kind in _TERMINAL:
            return self._ended(event.response)
        if kind in _STARTED:
            self._tracker.response_id = event.response.id
        elif kind == "error":
            self._error = f"{getattr(event, 'code', None) or 'error'}: {event.message}"
        return []

    def _key_of_item(self, event: Any) -> int | None:
        """The output index of a delta that names its item only by id."""
        return self._index_of_item.get(getattr(event, "item_id", None) or "")

    def _start(self, index: int, item: Any) -> list[StreamEvent]:
        self._started.add(index)
        self._note_ids(index, item)
        call_kind = _kind_of(item)
        if item.id:
            self._index_of_item[item.id] = index
        self._note_caller(index, item)
        started = self._tracker.start(
            index,
            provider_index=index,
            call_id=item.call_id,
            name=_name_of(item, call_kind),
            kind=call_kind or "function",
        )
        events: list[StreamEvent] = [started]
        first = item.input if call_kind == "custom" else item.arguments
        if first and call_kind != "tool_search":  # a backend that sends the whole call at once
            delta = self._tracker.add(index, first)
            if delta is not None:
                events.append(delta)
        return events

    def _added(self, index: int, item: Any) -> list[StreamEvent]:
        events = self._settle_before(index)
        if _kind_of(item) is not None and index not in self._started:
            events += self._start(index, item)
        return events

    def _settle_before(self, index: int) -> list[StreamEvent]:
        """Complete the status-less calls before `index`: a later item exists, so they
        were not the last item of the turn, and they are whole."""
        events: list[StreamEvent] = []
        for key, pending in list(self._pending.items()):
            if key < index and getattr(pending, "status", None) is None:
                del self._pending[key]
                events.append(self._finish(key, pending, truncated=False))
        return events

    def _note_ids(self, index: int, item: Any) -> None:
        """Keep the item id and call id of the call at `index` (its final copy may add
        one its start lacked)."""
        kept = self._ids_of.get(index, ())
        ids = self._ids_of[index] = kept + tuple(
            i for i in (item.id, item.call_id) if i and i not in kept
        )
        self._started_ids.update(ids)

    def _note_caller(self, index: int, item: Any) -> None:
        """Keep the program that made the call at `index`, if `item` names one."""
        caller = getattr(item, "caller", None)
        if caller is not None and (program := caller_of(caller)) is not None:
            self._callers[index] = program

    def _finish(self, index: int, item: Any, *, truncated: bool) -> StreamEvent:
        """End the call at `index` as `item`, its final copy, holds it."""
        final = item.input if item.type == "custom_tool_call" else item.arguments
        if index not in self._callers:  # a caller only the final copy of the item names
            self._note_caller(index, item)
        self._complete_identity(index, item)
        return self._close(index, truncated, final or "")

    def _complete_identity(self, index: int, item: Any) -> None:
        """Take the call id or name the start of the call at `index` lacked from `item`,
        its final copy (some backends fill them in only there): the call then runs
        under the id and name the final response holds."""
        call = self._tracker.get(index)
        if call.synthesized_id and item.call_id:
            self._tracker.identify(index, item.call_id)
            self._note_ids(index, item)
        if not call.name:
            self._tracker.rename(index, _name_of(item, _kind_of(item)))

    def _close(
        self, index: int, truncated: bool, arguments: str | None = None
    ) -> ToolCallCompleted | ToolCallTruncated:
        """End the call at `index`, with the caller its start item named."""
        event = self._tracker.finish(index, truncated=truncated, arguments=arguments)
        caller = self._callers.get(index)
        if caller is not None:
            event.call.caller = caller
        return event

    def _item_done(self, index: int, item: Any) -> list[StreamEvent]:
        self._done[index] = item
        events = self._settle_before(index)
        if _kind_of(item) is None or index in self._finished:
            return events
        self._finished.add(index)
        if index not in self._started:
            events += self._start(index, item)
        status = getattr(item, "status", None)
        if status in ("completed", "incomplete"):
            events.append(self._finish(index, item, truncated=status == "incomplete"))
        else:
            self._pending[index] = item
        return events

    def _ended(self, response: Any) -> list[StreamEvent]:
        self._tracker.response_id = response.id
        events: list[StreamEvent] = []
        stopped_early = response.status in STOPPED_EARLY
        for key, pending in self._pending.items():
            events.append(self._finish(key, pending, truncated=stopped_early))
        self._pending.clear()
        final = self._final = self._with_done_items(response)
        last = len(final.output) - 1
        for open_key in self._tracker.open_keys():
            key = cast("int", open_key)  # this accumulator opens calls by output index
            # No output_item.done came for this call: the terminal response's copy of the
            # item settles it, as `run_tool_calls(final_response())` will (some backends
            # skip output_item.done). A call the response does not hold was cut off.
            found = self._terminal_copy(key, final.output)
            if found is None:
                events.append(self._close(key, True))
            else:
                position, item = found
                cut = is_cut(getattr(item, "status", None), stopped_early, position == last)
                events.append(self._finish(key, item, truncated=cut))
        for position, item in enumerate(final.output):
            if _kind_of(item) is not None and not self._was_started(position, item):
                # Only the terminal event carried this call: report it all at once.
                events += self._start(position, item)
                cut = is_cut(getattr(item, "status", None), stopped_early, position == last)
                events.append(self._finish(position, item, truncated=cut))
        details = getattr(final, "incomplete_details", None)
        events.append(TurnEnded(final.status, status_of(final.output, final.status, details)))
        return events

    def _terminal_copy(self, key: int, output: list[Any]) -> tuple[int, Any] | None:
        """The terminal response's item (and its position) for the call started at output
        index `key`: matched on its ids, or on its position when the call had none."""
        ids = self._ids_of.get(key, ())
        for position, item in enumerate(output):
            if _kind_of(item) is None:
                continue
            if ids:
                if item.id in ids or item.call_id in ids:
                    return position, item
            elif position == key and not (item.id or item.call_id):
                return position, item
        return None

    def _was_started(self, position: int, item: Any) -> bool:
        ids = [i for i in (item.id, item.call_id) if i]
        if ids:
            return any(i in self._started_ids for i in ids)
        return position in self._started  # an item with no id at all: by position alone

    def _with_done_items(self, response: Response) -> Response:
        """The terminal response, its output filled from (or its reasoning items
        replaced by) the `output_item.done` items."""
        done = self._done
        if not done:
            return response
        if not response.output:
            return response.model_copy(update={"output": [done[i] for i in sorted(done)]})
        by_id = {item.id: item for item in done.values() if item.type == "reasoning"}
        output = list(response.output)
        changed = False
        for position, item in enumerate(output):
            if item.type != "reasoning":
                continue
            replacement = by_id.get(item.id) or done.get(position)
            if replacement is not None and replacement.type == "reasoning":
                output[position] = replacement
                changed = True
        return response.model_copy(update={"output": output}) if changed else response

    def final_response(self) -> Response:
        if self._final is None:
            reported = f" The stream reported an error ({self._error})." if self._error else ""
            raise StreamIncompleteError(
                "The stream ended without response.completed, response.incomplete or "
                "response.failed, so the turn was cut off (a dropped connection, a timeout, "
                f"or the loop stopped reading).{reported} Its partial content is not a "
                "response; send the request again."
            )
        return self._final
