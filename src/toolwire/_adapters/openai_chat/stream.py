"""Chat Completions stream folding: `ChatCompletionChunk`s in, events and a
`ChatCompletion` out.

Linear in the input: fragments are appended per tool-call index and parsed once.
It does not use the SDK's `ChatCompletionStreamState`, which costs ~60x a bare
accumulation, glues repeated ids and names, and raises on truncation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..._call import StandardToolCall
from ..._streaming._events import (
    NewReasoningDelta,
    NewTextDelta,
    StreamEvent,
    ToolCallCompleted,
    ToolCallTruncated,
    TurnEnded,
)
from ..._streaming._tracker import CallTracker
from ...exceptions import StreamIncompleteError, StreamOrderError
from .._mismatch import SKIP, TAKE, UNWRAP, StreamGate, is_sdk_type, mro_names
from .adapter import ADAPTER, is_complete_json

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletion

__all__ = ["ChatStreamAccumulator"]

_CUT = ("length", "content_filter")


@dataclass(slots=True)
class _ToolCall:
    key: tuple[int, int]
    """(choice index, the call's position among the choice's calls)."""
    provider_index: int
    id: str | None = None
    name: str = ""
    kind: str = "function"
    custom_input: list[str] = field(default_factory=list[str])
    ended: StandardToolCall | None = None


@dataclass(slots=True)
class _Choice:
    content: list[str] = field(default_factory=list[str])
    refusal: list[str] = field(default_factory=list[str])
    reasoning: list[str] = field(default_factory=list[str])
    finish_reason: str | None = None
    logprobs: Any = None
    calls: list[_ToolCall] = field(default_factory=list[_ToolCall])
    by_index: dict[int, _ToolCall] = field(default_factory=dict[int, _ToolCall])
    """The latest call of each provider `index` (servers may reuse one index)."""
    open_call: _ToolCall | None = None


class ChatStreamAccumulator:
    """Folds one streamed Chat Completions turn (choice 0 drives the events)."""

    def __init__(self) -> None:
        self._tracker = CallTracker()
        self._choices: dict[int, _Choice] = {}
        self._header: dict[str, Any] | None = None
        self._usage: Any = None

    def completed_calls(self) -> list[StandardToolCall]:
        return list(self._tracker.completed)

    def feed(self, item: object) -> list[StreamEvent]:
        chunk: Any = item
        action = _GATE.actions.get(type(item))
        if action is None:
            action = _GATE.admit(item)
        if action:  # the openai SDK's `client.chat.completions.stream()` helper events
            if action == SKIP:
                return []  # they restate what the chunk already said
            chunk = chunk.chunk
        if getattr(chunk, "object", "chat.completion.chunk") != "chat.completion.chunk":
            return []  # e.g. Azure's leading content-filter chunk
        if self._header is None:
            self._header = {
                "id": chunk.id,
                "created": chunk.created,
                "model": chunk.model,
                "system_fingerprint": getattr(chunk, "system_fingerprint", None),
                "service_tier": getattr(chunk, "service_tier", None),
            }
            self._tracker.response_id = chunk.id
        if getattr(chunk, "usage", None) is not None:
            self._usage = chunk.usage
        events: list[StreamEvent] = []
        for choice in chunk.choices or ():
            self._feed_choice(choice, events)
        return events

    def _feed_choice(self, choice: Any, events: list[StreamEvent]) -> None:
        choice_index: int = choice.index
        state = self._choices.get(choice_index)
        if state is None:  # not setdefault: that builds a _Choice on every chunk
            state = self._choices[choice_index] = _Choice()
        drives_events = choice_index == 0
        delta = choice.delta
        if delta is not None:
            if delta.content:
                state.content.append(delta.content)
                if drives_events:
                    events.append(NewTextDelta(delta.content))
            if delta.refusal:
                state.refusal.append(delta.refusal)
            if type(delta) not in _NO_REASONING_FIELD or getattr(delta, "__pydantic_extra__", None):  # fmt: skip
                reasoning = _reasoning(delta)
                if isinstance(reasoning, str) and reasoning:
                    state.reasoning.append(reasoning)
                    if drives_events:
                        events.append(NewReasoningDelta(reasoning))
            for fragment in delta.tool_calls or ():
                self._feed_tool_call(choice_index, state, fragment, events, drives_events)
        if getattr(choice, "logprobs", None) is not None:
            state.logprobs = choice.logprobs
        if choice.finish_reason is not None:
            state.finish_reason = choice.finish_reason
            cut = choice.finish_reason in _CUT
            if state.open_call is not None:
                ended = self._finish(state.open_call, cut)
                if drives_events:
                    events.append(ended)
            state.open_call = None
            if drives_events:
                events.append(
                    TurnEnded(choice.finish_reason, ADAPTER.turn_status(self._status_view(state)))
                )

    def _feed_tool_call(
        self,
        choice_index: int,
        state: _Choice,
        fragment: Any,
        events: list[StreamEvent],
        emit: bool,
    ) -> None:
        """Fold one tool-call fragment.

        A fragment continues the call of its `index`, unless it carries an `id` other
        than that call's: some OpenAI-compatible servers (Gemini's OpenAI endpoint,
        Ollama behind proxies, SGLang) send every parallel call with index 0, or with
        no index at all (then a fragment without an id continues the open call). A
        call is reported complete when the next one starts, so fragments of parallel
        calls must not interleave; one that arrives for a call already reported, or
        after the choice finished, raises `StreamOrderError`.
        """
        index: int | None = fragment.index
        fragment_id: str | None = fragment.id or None
        function = fragment.function
        call = state.open_call if index is None else state.by_index.get(index)
        if call is None or (fragment_id and call.id and fragment_id != call.id):
            call = self._start_call(choice_index, state, fragment, index, events, emit)
        else:
            if call.ended is not None:
                raise _late_fragment(choice_index, call, state)
            if fragment_id and not call.id:
                call.id = fragment_id  # some backends send the id late; never glue repeats
        if function is not None:
            delta = self._tracker.add(call.key, function.arguments)  # None if empty
            if delta is not None and emit:
                events.append(delta)
            return  # a fragment is of one kind: a function call's has no custom part
        custom = _custom_part(fragment)
        if custom is not None and isinstance(custom.get("input"), str):
            call.custom_input.append(custom["input"])

    def _start_call(
        self,
        choice_index: int,
        state: _Choice,
        fragment: Any,
        index: int | None,
        events: list[StreamEvent],
        emit: bool,
    ) -> _ToolCall:
        if state.finish_reason is not None:
            raise StreamOrderError(
                f"A tool call (id {fragment.id!r}) arrived in choice {choice_index} after it "
                f"finished ({state.finish_reason!r}). Feed the chunks of one stream, in "
                "order, to one ToolCallStream."
            )
        if state.open_call is not None:  # a new call starts: the previous one is whole
            ended = self._finish(state.open_call, cut=False)
            if emit:
                events.append(ended)
        position = len(state.calls)
        call = _ToolCall(
            key=(choice_index, position),
            provider_index=position if index is None else index,
            id=fragment.id or None,
        )
        function = fragment.function
        call.name = (function.name if function is not None else None) or ""
        custom = _custom_part(fragment)
        if custom is not None:
            call.kind = "custom"
            call.name = call.name or custom.get("name") or ""
        state.calls.append(call)
        if index is not None:
            state.by_index[index] = call
        state.open_call = call
        started = self._tracker.start(
            call.key,
            provider_index=call.provider_index,
            call_id=call.id,
            name=call.name,
            kind="custom" if call.kind == "custom" else "function",
        )
        if emit:
            events.append(started)
        return call

    def _finish(self, call: _ToolCall, cut: bool) -> ToolCallCompleted | ToolCallTruncated:
        if call.kind == "custom":
            ended = self._tracker.finish(
                call.key, truncated=cut, arguments="".join(call.custom_input)
            )
        else:
            arguments = self._tracker.get(call.key).arguments
            ended = self._tracker.finish(
                call.key, truncated=cut and not is_complete_json(arguments)
            )
        call.ended = ended.call
        return ended

    def _status_view(self, state: _Choice) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if state.refusal:
            message["refusal"] = "".join(state.refusal)
        if state.calls:
            message["tool_calls"] = [{}]
        return {"choices": [{"message": message, "finish_reason": state.finish_reason}]}

    def final_response(self) -> ChatCompletion:
        from openai.types.chat import ChatCompletion

        if self._header is None:
            raise StreamIncompleteError(
                "The stream yielded no chunks, so there is no response. Check the request."
            )
        unfinished = [i for i, c in sorted(self._choices.items()) if c.finish_reason is None]
        if unfinished or not self._choices:
            raise StreamIncompleteError(
                "The stream ended before the API sent a finish_reason, so the turn was cut off "
                "(a dropped connection, a timeout, or the loop stopped reading). Its partial "
                "content is not a response; send the request again."
            )
        choices = [self._choice_dict(i, c) for i, c in sorted(self._choices.items())]
        data: dict[str, Any] = {**self._header, "object": "chat.completion", "choices": choices}
        if self._usage is not None:
            data["usage"] = (
                self._usage.model_dump() if hasattr(self._usage, "model_dump") else self._usage
            )
        return ChatCompletion.model_validate(_without_none(data, keep={"content", "logprobs"}))

    def _choice_dict(self, index: int, state: _Choice) -> dict[str, Any]:
        tool_calls: list[dict[str, Any]] = []
        for call in state.calls:
            ended = call.ended
            assert ended is not None, "every call ends when it or its choice finishes"
            if call.kind == "custom":
                custom = {"name": ended.name, "input": ended.input}
                tool_calls.append({"id": ended.id, "type": "custom", "custom": custom})
            else:
                function = {"name": ended.name, "arguments": ended.input}
                tool_calls.append({"id": ended.id, "type": "function", "function": function})
        message: dict[str, Any] = {
            "role": "assistant",
            "content": "".join(state.content) if state.content else None,
        }
        if state.refusal:
            message["refusal"] = "".join(state.refusal)
        if tool_calls:
            message["tool_calls"] = tool_calls
        logprobs = state.logprobs
        return {
            "index": index,
            "message": message,
            "finish_reason": state.finish_reason,
            "logprobs": logprobs.model_dump() if hasattr(logprobs, "model_dump") else logprobs,
        }


def _late_fragment(choice_index: int, call: _ToolCall, state: _Choice) -> StreamOrderError:
    later = "the choice finished" if state.finish_reason is not None else "the next call started"
    return StreamOrderError(
        f"A fragment for tool call {call.provider_index} ({call.name or 'unnamed'!r}, id "
        f"{call.id!r}) of choice {choice_index} arrived after {later}, when the call was "
        "already reported complete: the server interleaved the fragments of parallel calls, "
        "which toolwire cannot fold without guessing. Feed the chunks of one stream, in "
        "order, to one ToolCallStream."
    )


def _classify(item: object) -> int | None:
    kind = type(item)
    if is_sdk_type(kind):
        if "ChatCompletionChunk" in mro_names(kind, "openai.types.chat"):
            return TAKE
        if kind.__module__.startswith("openai.lib.streaming.chat"):
            return UNWRAP if kind.__name__ == "ChunkEvent" else SKIP
        return None
    # a chunk of an OpenAI-compatible library, read by attribute like the SDK's
    return TAKE if hasattr(item, "choices") else None


_GATE = StreamGate("chat.completions", _classify)


_REASONING_NAMES = ("reasoning_content", "reasoning")
"""Where OpenAI-compatible servers (DeepSeek, vLLM, OpenRouter...) put reasoning text."""
_DECLARED_REASONING: dict[type, tuple[str, ...]] = {}
_NO_REASONING_FIELD: set[type] = set()
"""pydantic delta classes that declare none of `_REASONING_NAMES` (the SDK's own): their
reasoning can only be an extra field, so a delta without extras (most chunks) has none
and is not looked at further."""


def _reasoning(delta: object) -> object:
    """The reasoning text of a delta, if the server sent any.

    The SDK's delta declares no such field, so it arrives as an extra field. Reading a
    missing attribute of a pydantic model raises inside pydantic (microseconds, on
    every chunk), so names the class does not declare are read from its extras.
    """
    kind = type(delta)
    declared = _DECLARED_REASONING.get(kind)
    if declared is None:
        fields = getattr(kind, "model_fields", None)  # None: not pydantic, read attributes
        declared = _DECLARED_REASONING[kind] = tuple(
            name for name in _REASONING_NAMES if fields is None or name in fields
        )
        if not declared:
            _NO_REASONING_FIELD.add(kind)
    extra: Any = getattr(delta, "__pydantic_extra__", None)
    if not extra and not declared:
        return None  # the SDK's own delta, without extras: most chunks
    extra = extra or {}
    for name in _REASONING_NAMES:
        value = getattr(delta, name, None) if name in declared else extra.get(name)
        if value:
            return value
    return None


def _custom_part(fragment: Any) -> dict[str, Any] | None:
    # `__pydantic_extra__`, not the `model_extra` property: one call less per fragment.
    extra: Any = getattr(fragment, "__pydantic_extra__", None)
    if not extra:
        return None
    custom: Any = extra.get("custom")
    return cast("dict[str, Any]", custom) if isinstance(custom, dict) else None


def _without_none(data: dict[str, Any], keep: set[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v is not None or k in keep}
