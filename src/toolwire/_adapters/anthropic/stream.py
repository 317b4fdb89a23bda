"""Anthropic stream folding: raw `RawMessageStreamEvent`s in, events and a `Message` out.

A linear fold over the SDK's public event types (GA and beta alike): text,
thinking and tool input are collected as lists of pieces and joined once, and tool
input is parsed once when its call completes. It does not use the SDK's private
`accumulate_event`, which re-parses the whole tool input on every delta (quadratic)
and hides a cut input behind a plausible partial dict.

When a tool call is complete: a `tool_use` block is final once a later block starts,
or when `message_delta` ends the turn with a stop reason that did not cut it. The
`tool_use` still open when `max_tokens`, `model_context_window_exceeded` or `refusal`
ends the turn was cut: it is reported as `ToolCallTruncated` and never runs, even when
its JSON text happens to parse, because the non-streamed message (whose parsed input
cannot show where the JSON stopped) is read the same way (see the adapter's module
docstring). Its input in the final Message is what the non-streamed API shows: the
complete members only.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pydantic_core import from_json

from ..._api import is_sdk_type, mro_names
from ..._streaming._events import (
    NewReasoningDelta,
    NewTextDelta,
    StreamEvent,
    ToolCallCompleted,
    ToolCallTruncated,
    TurnEnded,
)
from ..._streaming._gate import TAKE, NoItem, StreamGate
from ..._streaming._tracker import CallTracker, OpenCall, TrackedStream
from ...exceptions import StreamIncompleteError, StreamOrderError
from .callers import caller_of
from .turn import CUT_STOP_REASONS, INVALID_JSON_KEY, status_of

if TYPE_CHECKING:
    from anthropic.types import Message


__all__ = ["AnthropicStreamAccumulator"]

_USAGE_FIELDS = (
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "server_tool_use",
    "output_tokens_details",
)
"""Optional `message_delta` usage fields: running totals that replace the start value
when sent (never added), and leave it alone when absent."""

_EVENT_FIELDS = ("context_management", "input_transformations")
"""Beta `message_delta` fields copied onto the message when sent."""


def _classify(item: object) -> int | None:
    """Raw stream events (GA and beta), and the `client.messages.stream()` helper's
    events (raw ones, plus text/input_json/... events it adds, which are ignored); not
    the helper's stream or manager themselves (`wrong_stream_item` says what to feed)."""
    kind = type(item)
    if is_sdk_type(kind):
        module = kind.__module__
        if (module.startswith("anthropic.lib.streaming") and "Event" in kind.__name__) or any(
            name.endswith("Event") for name in mro_names(kind, "anthropic.types")
        ):
            return TAKE
        return None
    return TAKE if hasattr(item, "type") else None  # a compatible library's event


_GATE = StreamGate("anthropic", _classify)


class _Block:
    """One content block being streamed: the start block and the pieces added to it."""

    __slots__ = ("citations", "extra", "json", "kind", "start", "text")

    def __init__(self, start: Any) -> None:
        self.start = start
        self.kind: str = start.type
        self.text: list[str] = []
        """text_delta / thinking_delta pieces."""
        self.json: list[str] = []
        """input_json_delta pieces of a block that is not a tracked tool call."""
        self.citations: list[Any] = []
        self.extra: dict[str, Any] = {}
        """Fields replaced whole by a delta (signature, compaction content)."""


class AnthropicStreamAccumulator(TrackedStream):
    """Folds one streamed Messages turn (`client.messages.create(..., stream=True)`).

    Each `tool_use` block is a call; its `provider_index` is the content block's
    `index`. Text deltas become `TextDelta`, thinking deltas `ReasoningDelta`.
    `final_response()` has the class of the `message_start` message: a `Message`, or a
    `BetaMessage` for events from `client.beta.messages.create(..., stream=True)`.
    """

    def __init__(self) -> None:
        self._tracker = CallTracker()
        self._start: Any = None
        self._blocks: list[_Block] = []
        self._open_call: OpenCall | None = None
        """The tool_use block not yet reported complete (at most one); its
        `provider_index` is the block's index."""
        self._inputs: dict[int, Any] = {}
        """Final input of each tool_use block, by index."""
        self._delta: Any = None
        self._usage: dict[str, Any] = {}
        self._event_fields: dict[str, Any] = {}
        self._fragment_type: type | None = None
        """The type of the input_json_delta events the fast path reads, set when the
        general path folds the first one (`NoItem` once the fast path found it
        cannot read that type)."""

    def feed(self, item: object) -> list[StreamEvent]:
        # Fast path. Almost every event of a long tool call is one input_json_delta for
        # the open call, fed inside the SDK's own stream loop, where an attribute read
        # of the SDK's models costs ten times a plain one and each call layer counts
        # (toolwire's code runs cold between the SDK's): recognising such an event reads
        # 2 attributes and 4 dict entries, against 9 attributes and two more calls on
        # the general path, and its fragment goes straight to the open call.
        #
        # Each object's fields are read from its `__dict__` (where pydantic keeps them):
        # a subscript of that dict costs less than an attribute read of a model. It only
        # reads, so an event it does not take goes to the general path, which reads it
        # again. The general path's other checks hold for the open call: its block has
        # started, and the turn has not ended (that closes the call).
        if type(item) is self._fragment_type:
            call = self._open_call
            try:
                fields: dict[str, Any] = item.__dict__
                if (
                    fields["type"] == "content_block_delta"
                    and call is not None
                    and fields["index"] == call.provider_index
                ):
                    fields = fields["delta"].__dict__
                    if fields["type"] == "input_json_delta":
                        fragment = fields["partial_json"]
                        if type(fragment) is str:
                            return [call.add(fragment)] if fragment else []
            except (AttributeError, KeyError):  # not readable so (a compatible library's
                # event, built by hand): the general path takes events of its type
                self._fragment_type = NoItem
        return self._feed(item)

    def _feed(self, item: object) -> list[StreamEvent]:
        """The general path: any item."""
        event: Any = item
        if type(item) not in _GATE.actions:
            _GATE.admit(item)
        kind = event.type
        if kind == "content_block_delta":
            return self._on_delta(event)
        if kind == "content_block_start":
            return self._on_block_start(event)
        if kind == "message_start":
            if self._start is not None:
                raise StreamOrderError(
                    "A second message_start arrived: feed one ToolCallStream per streamed "
                    "turn, and start a new one for the next request."
                )
            self._start = event.message
            self._tracker.response_id = event.message.id
            return []
        if kind == "message_delta":
            return self._on_message_delta(event)
        return []  # content_block_stop (the end is decided above), message_stop, ping

    def _on_block_start(self, event: Any) -> list[StreamEvent]:
        self._require_start(event)
        self._require_open_turn(event)
        index: int = event.index
        if index != len(self._blocks):
            raise StreamOrderError(
                f"content_block_start for index {index} arrived after {len(self._blocks)} "
                "blocks; feed every event of the stream, in order."
            )
        events: list[StreamEvent] = []
        if self._open_call is not None:  # a later block starts: the open call is whole
            events.append(self._finish_call(self._open_call.provider_index, cut=False))
        block = event.content_block
        self._blocks.append(_Block(block))
        if block.type == "tool_use":
            events.append(
                self._tracker.start(
                    index, provider_index=index, call_id=block.id or None, name=block.name
                )
            )
            self._open_call = self._tracker.get(index)
        return events

    def _on_delta(self, event: Any) -> list[StreamEvent]:
        index: int = event.index
        if index >= len(self._blocks):
            raise StreamOrderError(
                f"content_block_delta for index {index} arrived before its "
                "content_block_start; feed every event of the stream, in order."
            )
        if index < 0:  # the API counts blocks from 0: a negative index is no block's
            raise StreamOrderError(
                f"content_block_delta for index {index} names no content block (they are "
                "numbered from 0); feed the events of the stream as the SDK yields them."
            )
        if self._delta is not None:  # `_require_open_turn`, inline: once per delta
            self._require_open_turn(event)
        block = self._blocks[index]
        delta = event.delta
        kind = delta.type
        if kind == "input_json_delta":
            call = self._open_call
            if call is not None and index == call.provider_index:
                if self._fragment_type is None:
                    self._fragment_type = type(event)  # its like may take the fast path
                fragment: str = delta.partial_json
                return [call.add(fragment)] if fragment else []
            if delta.partial_json:
                block.json.append(delta.partial_json)
        elif kind == "text_delta":
            block.text.append(delta.text)
            return [NewTextDelta(delta.text)] if delta.text else []
        elif kind == "thinking_delta":
            block.text.append(delta.thinking)
            return [NewReasoningDelta(delta.thinking)] if delta.thinking else []
        elif kind == "signature_delta":
            block.extra["signature"] = delta.signature
        elif kind == "citations_delta":
            block.citations.append(delta.citation)
        elif kind == "compaction_delta":
            block.extra["content"] = delta.content
            block.extra["encrypted_content"] = delta.encrypted_content
        return []

    def _on_message_delta(self, event: Any) -> list[StreamEvent]:
        self._require_start(event)
        self._require_open_turn(event)
        self._delta = event.delta
        stop_reason: str | None = event.delta.stop_reason
        usage = event.usage
        if usage is not None:
            self._usage["output_tokens"] = usage.output_tokens
            for name in _USAGE_FIELDS:
                value = getattr(usage, name, None)
                if value is not None:
                    self._usage[name] = value
        for name in _EVENT_FIELDS:
            value = getattr(event, name, None)
            if value is not None:
                self._event_fields[name] = value
        events: list[StreamEvent] = []
        if self._open_call is not None:
            cut = stop_reason in CUT_STOP_REASONS
            events.append(self._finish_call(self._open_call.provider_index, cut=cut))
        has_calls = any(b.kind == "tool_use" for b in self._blocks)
        events.append(TurnEnded(stop_reason, status_of(stop_reason, has_calls)))
        return events

    def _finish_call(self, index: int, *, cut: bool) -> ToolCallCompleted | ToolCallTruncated:
        event = self._finish_input(index, cut=cut)
        caller = getattr(self._blocks[index].start, "caller", None)
        if caller is not None:  # from content_block_start: the model's code made the call
            event.call.caller = caller_of(caller)
        return event

    def _finish_input(self, index: int, *, cut: bool) -> ToolCallCompleted | ToolCallTruncated:
        self._open_call = None
        raw = self._tracker.get(index).arguments
        given = getattr(self._blocks[index].start, "input", None)
        if not raw and isinstance(given, dict) and given:
            # The input came whole in content_block_start (Ollama's Anthropic-compatible
            # API, some proxies) and no input_json_delta replaced it: keep it, as the
            # SDK's own accumulator does (deltas, when they come, replace it).
            self._inputs[index] = given
            return self._tracker.finish(index, truncated=cut, arguments=given)  # pyright: ignore[reportUnknownArgumentType]
        if cut:
            self._inputs[index] = _partial_input(raw)
            return self._tracker.finish(index, truncated=True)
        parsed = _parse_input(raw)
        if parsed is None:  # not JSON: keep the text, so it fails as invalid JSON
            self._inputs[index] = {INVALID_JSON_KEY: raw}
            return self._tracker.finish(index, arguments=raw)
        self._inputs[index] = parsed
        return self._tracker.finish(index, arguments=parsed)

    def _require_open_turn(self, event: Any) -> None:
        """message_delta ends the turn (its stop reason decides the last call); content
        after it would change a turn already reported ended."""
        if self._delta is not None:
            raise StreamOrderError(
                f"{event.type} arrived after message_delta ended the turn "
                f"({self._delta.stop_reason!r}); feed the events of one stream, in order."
            )

    def _require_start(self, event: Any) -> None:
        if self._start is None:
            raise StreamOrderError(
                f"{event.type} arrived before message_start; feed every event of the stream "
                "from its first one."
            )

    def final_response(self) -> Message:
        start = self._start
        if start is None:
            raise StreamIncompleteError(
                "The stream yielded no message_start, so there is no message. Feed every "
                "event of the stream, or check the request."
            )
        delta = self._delta
        if delta is None:
            raise StreamIncompleteError(
                "The stream ended before message_delta said why the turn ended, so the turn "
                "was cut off (a dropped connection, a timeout, or the loop stopped reading). "
                "Its partial content is not a message; send the request again."
            )
        content = [self._final_block(i, b) for i, b in enumerate(self._blocks)]
        update: dict[str, Any] = {
            "content": content,
            "stop_reason": delta.stop_reason,
            "stop_sequence": delta.stop_sequence,
            "usage": start.usage.model_copy(update=self._usage),
            **self._event_fields,
        }
        if "stop_details" in getattr(delta, "model_fields_set", ()):
            update["stop_details"] = delta.stop_details
        container = getattr(delta, "container", None)
        if container is not None:
            update["container"] = container
        message: Message = start.model_copy(update=update)
        return message

    def _final_block(self, index: int, block: _Block) -> Any:
        start = block.start
        kind = block.kind
        update: dict[str, Any] = dict(block.extra)
        if kind == "tool_use":
            update["input"] = self._inputs.get(index, {})
        elif kind == "text":
            update["text"] = start.text + "".join(block.text)
            if block.citations:
                update["citations"] = [*(start.citations or ()), *block.citations]
        elif kind == "thinking":
            update["thinking"] = start.thinking + "".join(block.text)
        elif block.json:
            raw = "".join(block.json)
            parsed = _parse_input(raw)
            update["input"] = _partial_input(raw) if parsed is None else parsed
        if not update:
            return start
        return start.model_copy(update=update)


def _parse_input(raw: str) -> dict[str, Any] | None:
    """The complete input as a dict (`{}` for no text), or None when it is not a JSON
    object (nor when it nests too deep for `json.loads`: kept as text, it fails the
    depth limit)."""
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None  # pyright: ignore[reportUnknownVariableType]


def _partial_input(raw: str) -> dict[str, Any]:
    """What a cut input parses to, the way the non-streamed API and the SDK's own
    accumulator show it: complete members only, `{}` when nothing is usable."""
    if not raw:
        return {}
    try:
        value = from_json(raw, allow_partial=True)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}  # pyright: ignore[reportUnknownVariableType]
