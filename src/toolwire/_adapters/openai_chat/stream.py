"""Chat Completions stream folding: `ChatCompletionChunk`s in, events and a
`ChatCompletion` out.

Linear in the input: fragments are appended per tool-call index and parsed once.
It does not use the SDK's `ChatCompletionStreamState`, which costs ~60x a bare
accumulation, glues repeated ids and names, and raises on truncation.

Choice 0 drives the events, as it drives `run_tool_calls`: with `n > 1` the other
choices are folded silently, into `final_response()` only. The final response keeps
what the non-streamed response would hold, built the way the SDK builds that one:
reasoning text under the field name the server used, a legacy `function_call`, the
logprobs of every chunk, and values outside the SDK's types as the server sent them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..._api import is_sdk_type, mro_names
from ..._call import StandardToolCall, synthesized_id
from ..._streaming._events import (
    NewReasoningDelta,
    NewTextDelta,
    StreamEvent,
    TurnEnded,
)
from ..._streaming._gate import SKIP, TAKE, UNWRAP, StreamGate
from ..._streaming._tracker import CallTracker, OpenCall, TrackedStream
from ...exceptions import StreamIncompleteError, StreamOrderError
from .fragments import FragmentJoin, split_glued
from .turn import CUT_FINISH_REASONS, is_complete_json, status_of

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletion

__all__ = ["ChatStreamAccumulator"]


@dataclass(slots=True)
class _ToolCall:
    position: int
    """The call's position among its choice's calls; in choice 0, its tracker key."""
    provider_index: int
    index: int | None
    """The `index` its first fragment carried: the one that continues it while it is open."""
    id: str | None = None
    name: str = ""
    kind: str = "function"
    fragments: list[str] = field(default_factory=list[str])
    """The text of a call of another choice than 0 (choice 0's is in the tracker)."""
    join: FragmentJoin = field(default_factory=FragmentJoin)
    """How its argument fragments join (appended, resent whole, objects)."""
    extra_content: object = None
    """What a server sent beside the call for its next turn (Gemini's thought signature)."""
    ended: StandardToolCall | None = None
    opened: OpenCall | None = None
    """Choice 0's call in the tracker, which its argument text is added to (None in
    other choices)."""


@dataclass(slots=True)
class _FunctionCall:
    """A legacy `delta.function_call` (the deprecated functions API)."""

    name: str = ""
    arguments: list[str] = field(default_factory=list[str])


@dataclass(slots=True)
class _Choice:
    content: list[str] = field(default_factory=list[str])
    refusal: list[str] = field(default_factory=list[str])
    reasoning: dict[str, list[str]] = field(default_factory=dict[str, list[str]])
    """Reasoning fragments under each field name the server used."""
    reasoning_details: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    """OpenRouter's and MiniMax's structured reasoning, its fragments merged by index."""
    function_call: _FunctionCall | None = None
    finish_reason: str | None = None
    logprobs: dict[str, Any] | None = None
    calls: list[_ToolCall] = field(default_factory=list[_ToolCall])
    by_index: dict[int, _ToolCall] = field(default_factory=dict[int, _ToolCall])
    """The latest call of each provider `index` (servers may reuse one index)."""
    open_call: _ToolCall | None = None


class ChatStreamAccumulator(TrackedStream):
    """Folds one streamed Chat Completions turn (choice 0 drives the events)."""

    def __init__(self) -> None:
        self._tracker = CallTracker()
        """Choice 0's calls only: its events, indices and `completed_calls`."""
        self._choices: dict[int, _Choice] = {}
        self._header: dict[str, Any] | None = None
        self._usage: Any = None
        self._reported_end: str | None = None
        """The finish_reason of the last `TurnEnded`: a repeat reports nothing."""
        self._chunk_type: type | None = None
        """The type of the chunks fed as they are (not wrapped), set once the header is
        read: the fast path takes only these."""
        self._lead_call: _ToolCall | None = None
        """Choice 0's `open_call`, which the fast path continues."""

    def feed(self, item: object) -> list[StreamEvent]:
        # Fast path. Almost every chunk of a long call is one argument fragment for
        # choice 0's open call, fed inside the SDK's own stream loop, where what feed
        # costs counts about twice (the SDK's work slows too). Recognising such a chunk
        # reads 7 attributes, against 15 (and more calls) on the general path; a chunk
        # with anything more is declined (see `_continued_arguments`) and folded there.
        call = self._lead_call
        if call is not None and type(item) is self._chunk_type:
            arguments = _continued_arguments(item, call)
            opened = call.opened
            if arguments is not None and opened is not None:
                return [opened.add(arguments)] if arguments else []
        return self._feed(item)

    def _feed(self, item: object) -> list[StreamEvent]:
        """The general path: any item."""
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
        if action == TAKE:
            self._chunk_type = type(item)
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
            content = delta.content
            if content:
                state.content.append(content)
                if drives_events:
                    events.append(NewTextDelta(content))
            elif content is not None and not state.content:
                state.content.append(content)  # "", kept: some servers refuse null back
            if delta.refusal:
                state.refusal.append(delta.refusal)
            if type(delta) not in _NO_REASONING_FIELD or getattr(delta, "__pydantic_extra__", None):  # fmt: skip
                _feed_reasoning(state, delta, events, drives_events)
            tool_calls = delta.tool_calls
            if tool_calls:
                for fragment in tool_calls:
                    self._feed_tool_call(choice_index, state, fragment, events, drives_events)
            else:  # a fragment of a call is not also a legacy function_call
                try:  # not getattr(..., None): twice the cost, on every text chunk
                    function_call = delta.function_call
                except AttributeError:  # a compatible library's delta without the field
                    function_call = None
                if function_call is not None:
                    _feed_function_call(state, function_call)
        logprobs = getattr(choice, "logprobs", None)
        if logprobs is not None:
            state.logprobs = _joined_logprobs(state.logprobs, logprobs)
        if choice.finish_reason:  # "" (older Ollama, SGLang, on every chunk) is no finish
            self._end_choice(state, choice.finish_reason, events, drives_events)

    def _end_choice(
        self, state: _Choice, finish_reason: str, events: list[StreamEvent], emit: bool
    ) -> None:
        """Close the open call and end the turn. Some compatible servers repeat the
        finish_reason on a trailing chunk (with the usage): `TurnEnded` is the last event
        of a turn, so a repeat reports nothing; a different reason is reported, so the
        last `TurnEnded` always agrees with `final_response()`."""
        state.finish_reason = finish_reason
        if state.open_call is not None:
            self._finish(state, state.open_call, finish_reason in CUT_FINISH_REASONS, emit, events)
            state.open_call = None
            if emit:
                self._lead_call = None
        if emit and finish_reason != self._reported_end:
            self._reported_end = finish_reason
            called = bool(state.calls) or state.function_call is not None
            text = "".join(state.content) if not called and state.content else None
            events.append(
                TurnEnded(
                    finish_reason, status_of(finish_reason, bool(state.refusal), called, text)
                )
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

        What else servers do is read from the fragments (`fragments.py`): a name sent
        after the id, split across fragments or repeated in each; arguments resent whole
        or sent as objects; `extra_content` beside the call.
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
                if emit:
                    self._tracker.identify(call.position, fragment_id)
            if function is not None and function.name:
                self._rename(call, function.name, emit)
        extra: Any = getattr(fragment, "__pydantic_extra__", None)
        if extra:
            self._keep_extras(call, extra, events, emit)
        if function is not None:
            reset, text = call.join.take(function.arguments)
            if reset:
                if emit:
                    self._tracker.restart(call.position)
                else:
                    call.fragments.clear()
            self._add_text(call, text, events, emit)
            if emit and call.join.settled and call.name and call is state.open_call:
                self._lead_call = call  # the rest of the call is plain text: the fast path
            return  # a fragment is of one kind: a function call's has no custom part

    def _keep_extras(
        self, call: _ToolCall, extra: dict[str, Any], events: list[StreamEvent], emit: bool
    ) -> None:
        """A fragment's fields outside the SDK's types: a custom call's input, and what
        the next turn needs back beside the call (`extra_content`)."""
        content = extra.get("extra_content")
        if content is not None:
            call.extra_content = content
        custom: Any = extra.get("custom")
        if isinstance(custom, dict) and call.kind == "custom":
            text = cast("dict[str, Any]", custom).get("input")
            if isinstance(text, str):
                self._add_text(call, text, events, emit)

    def _rename(self, call: _ToolCall, name: str, emit: bool) -> None:
        """A name in a later fragment: the name sent after the id, the rest of a name
        split across fragments, or the name again (kept once)."""
        merged = _merged_name(call.name, name)
        if merged != call.name:
            call.name = merged
            if emit:
                self._tracker.rename(call.position, merged)

    def _add_text(self, call: _ToolCall, text: str, events: list[StreamEvent], emit: bool) -> None:
        """Append argument text (a custom call's input is reported as Responses reports
        it: argument deltas whose `fragment` is the free text as is)."""
        if not text:
            return
        if emit:
            opened = call.opened
            if opened is not None:  # always, for a call of choice 0 (emit)
                events.append(opened.add(text))
        else:
            call.fragments.append(text)

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
            self._finish(state, state.open_call, cut=False, emit=emit, events=events)
        function = fragment.function
        name: str = (function.name if function is not None else None) or ""
        kind = "function"
        custom = _custom_part(fragment)
        if custom is not None:
            kind = "custom"
            name = name or custom.get("name") or ""
        return self._open(state, index, fragment.id or None, name, kind, events, emit)

    def _open(
        self,
        state: _Choice,
        index: int | None,
        call_id: str | None,
        name: str,
        kind: str,
        events: list[StreamEvent],
        emit: bool,
    ) -> _ToolCall:
        position = len(state.calls)
        call = _ToolCall(
            position=position,
            provider_index=position if index is None else index,
            index=index,
            id=call_id,
            name=name,
            kind=kind,
        )
        state.calls.append(call)
        if index is not None:
            state.by_index[index] = call
        state.open_call = call
        if emit:
            self._lead_call = None  # until its fragments show how they join
            events.append(
                self._tracker.start(
                    position,
                    provider_index=call.provider_index,
                    call_id=call.id,
                    name=call.name,
                    kind="custom" if call.kind == "custom" else "function",
                )
            )
            call.opened = self._tracker.get(position)
        return call

    def _finish(
        self, state: _Choice, call: _ToolCall, cut: bool, emit: bool, events: list[StreamEvent]
    ) -> None:
        """End a call: choice 0's through the tracker, which reports it; another
        choice's silently, with the id choice 0's would get.

        Arguments that hold two or more whole JSON objects back to back were calls a
        server put on one index without a new id: each becomes a call of its own, with
        the same name and a synthesized id (the first keeps the call's id)."""
        self._add_text(call, call.join.finish(cut), events, emit)
        if emit:
            opened = self._tracker.get(call.position)
            text, complete = opened.arguments, opened.preview.complete()
        else:
            text = "".join(call.fragments)
            complete = None
        if call.kind == "custom":
            # A custom call's free text cannot show where it stopped: the call being
            # written when the limit hit is cut (the adapter's rule for the response).
            self._end(call, text, cut, emit, events)
            return
        if cut:  # the adapter's rule for a cut response's calls
            self._end(call, text, not is_complete_json(text), emit, events)
            return
        if complete is None:
            complete = is_complete_json(text)
        glued = None if complete or call.join.mixed else split_glued(text)
        if glued is None:
            self._end(call, text, False, emit, events)
            return
        self._end(call, glued[0], False, emit, events)
        for part in glued[1:]:
            extra = self._open(state, None, None, call.name, "function", events, emit)
            state.open_call = None
            self._end(extra, part, False, emit, events)

    def _end(
        self, call: _ToolCall, text: str, truncated: bool, emit: bool, events: list[StreamEvent]
    ) -> None:
        if emit:
            ended = self._tracker.finish(call.position, truncated=truncated, arguments=text)
            call.ended = ended.call
            events.append(ended)
            return
        call.ended = StandardToolCall(
            "custom" if call.kind == "custom" else "function",
            call.id or synthesized_id(self._tracker.response_id, call.position),
            call.name,
            text,
            not call.id,
            truncated,
        )

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
        choices = [_choice_dict(i, c) for i, c in sorted(self._choices.items())]
        data: dict[str, Any] = {**self._header, "object": "chat.completion", "choices": choices}
        if self._usage is not None:
            data["usage"] = _plain(self._usage)
        # Built as the SDK builds the non-streamed response (openai's `construct`,
        # recursive and lenient, not pydantic's): the values OpenAI-compatible servers
        # send outside the SDK's types (a `finish_reason` "eos", a `service_tier`
        # "on_demand", no `created`) are kept as sent, where validating would raise.
        return ChatCompletion.construct(**_without_none(data, keep={"content", "logprobs"}))


def _choice_dict(index: int, state: _Choice) -> dict[str, Any]:
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
        if call.extra_content is not None:
            tool_calls[-1]["extra_content"] = call.extra_content
    message: dict[str, Any] = {
        "role": "assistant",
        "content": "".join(state.content) if state.content else None,
    }
    if state.refusal:
        message["refusal"] = "".join(state.refusal)
    if state.function_call is not None:
        arguments = "".join(state.function_call.arguments)
        message["function_call"] = {"name": state.function_call.name, "arguments": arguments}
    if tool_calls:
        message["tool_calls"] = tool_calls
    for name, fragments in state.reasoning.items():  # extra fields, as the server named them
        message[name] = "".join(fragments)
    if state.reasoning_details:
        message["reasoning_details"] = state.reasoning_details
    return {
        "index": index,
        "message": message,
        "finish_reason": state.finish_reason,
        "logprobs": state.logprobs,
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


def _continued_arguments(chunk: Any, call: _ToolCall) -> str | None:
    """The argument fragment of `chunk` if all it does is continue `call`, choice 0's
    open call, else None, and the general path folds it.

    Declined: a call id (a new call, or an id sent late), another index than the call's,
    several fragments or none, a fragment without a function part, an extra field of the
    fragment (`extra_content`, a custom part), a name other than the call's (the rest
    of a split name), arguments that are not text, text, a refusal, reasoning or any
    other extra field of the delta, logprobs, a finish_reason, usage, another choice or
    several, and a chunk that is not a `chat.completion.chunk`. The call's own name
    again is taken: the general path keeps it once, changing nothing.

    Each object's fields are read from its `__dict__` (where pydantic keeps them), one
    attribute read per object: a subscript of that dict costs less than an attribute
    read, which searches the class first. It only reads, so what it cannot read (a
    missing field, a chunk built by hand) is declined, and the general path reads it
    again and says what is wrong.
    """
    try:
        fields: dict[str, Any] = chunk.__dict__
        if fields["object"] != "chat.completion.chunk" or fields["usage"] is not None:
            return None
        choices: list[Any] = fields["choices"]
        if type(choices) is not list or len(choices) != 1:
            return None
        fields = choices[0].__dict__
        if fields["index"] != 0 or fields["finish_reason"]:
            return None
        delta = fields["delta"]
        if fields["logprobs"] is not None or type(delta) not in _NO_REASONING_FIELD:
            return None  # the type check also says a pydantic model, without reasoning fields
        if delta.__pydantic_extra__:
            return None
        fields = delta.__dict__
        tool_calls: list[Any] = fields["tool_calls"]
        if fields["content"] or fields["refusal"] or type(tool_calls) is not list:
            return None
        if len(tool_calls) != 1:
            return None
        tool_call = tool_calls[0]
        if tool_call.__pydantic_extra__:
            return None
        fields = tool_call.__dict__
        function = fields["function"]
        if fields["index"] != call.index or fields["id"] or function is None:
            return None
        fields = function.__dict__
        name = fields["name"]
        if name and name != call.name:
            return None
        arguments = fields["arguments"]
        return arguments if type(arguments) is str else None  # an object: general path
    except (AttributeError, KeyError):
        return None


def _classify(item: object) -> int | None:
    kind = type(item)
    if is_sdk_type(kind):
        if "ChatCompletionChunk" in mro_names(kind, "openai.types.chat"):
            return TAKE
        if kind.__module__.startswith("openai.lib.streaming.chat") and "Event" in kind.__name__:
            return UNWRAP if kind.__name__ == "ChunkEvent" else SKIP
        return None  # e.g. the helper's stream or manager itself: `wrong_stream_item` says so
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
_NO_REASONING: tuple[tuple[str, str], ...] = ()


def _feed_reasoning(state: _Choice, delta: object, events: list[StreamEvent], emit: bool) -> None:
    """Keep the reasoning under each name the server sent it (the final message has it
    there, as the non-streamed one does); the event reports the text once, even from a
    server that sends it under both names. Structured `reasoning_details` (OpenRouter,
    MiniMax) are kept too, their fragments merged by index."""
    extra: Any = getattr(delta, "__pydantic_extra__", None)
    details = extra.get("reasoning_details") if extra else None
    if details:
        _merge_details(state.reasoning_details, details)
    parts = _reasoning(delta)
    if not parts:
        return
    for name, text in parts:
        fragments = state.reasoning.get(name)
        if fragments is None:
            state.reasoning[name] = [text]  # "" too: the field was sent, and goes back
        elif text:
            fragments.append(text)
    text = next((text for _, text in parts if text), None)
    if emit and text:
        events.append(NewReasoningDelta(text))


def _reasoning(delta: object) -> tuple[tuple[str, str], ...]:
    """(field name, text) for each reasoning field of a delta holding a string (`""`
    included: DeepSeek opens a turn with `reasoning_content: ""`).

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
        return _NO_REASONING  # the SDK's own delta, without extras: most chunks
    extra = extra or {}
    parts: list[tuple[str, str]] = []
    for name in _REASONING_NAMES:
        value = getattr(delta, name, None) if name in declared else extra.get(name)
        if isinstance(value, str):
            parts.append((name, value))
    return tuple(parts)


_JOINED_DETAIL_KEYS = ("text", "summary", "data")
"""The `reasoning_details` keys whose fragments are pieces of one text."""


def _merge_details(kept: list[dict[str, Any]], fragments: object) -> None:
    """Fold one delta's `reasoning_details` into those kept: a fragment with the `index`
    and `type` of a kept entry continues it (its text pieces appended, a value it lacked
    added, such as the signature sent last); any other starts an entry."""
    if not isinstance(fragments, list):
        return
    for fragment in cast("list[object]", fragments):
        if not isinstance(fragment, dict):
            continue
        detail = cast("dict[str, Any]", fragment)
        index = detail.get("index")
        entry = next(
            (
                e
                for e in kept
                if index is not None
                and e.get("index") == index
                and e.get("type") == detail.get("type")
            ),
            None,
        )
        if entry is None:
            kept.append(dict(detail))
            continue
        for key, value in detail.items():
            have = entry.get(key)
            if key in _JOINED_DETAIL_KEYS and isinstance(value, str) and isinstance(have, str):
                entry[key] = have + value
            elif have is None:
                entry[key] = value


def _feed_function_call(state: _Choice, function_call: Any) -> None:
    """A fragment of a legacy `function_call`: kept for the final message, where
    `turn_status` and `assistant_messages` read it. It gets no call events: toolwire
    does not dispatch it from a non-streamed response either."""
    name = getattr(function_call, "name", None)
    arguments = getattr(function_call, "arguments", None)
    if not name and not arguments:
        return  # an empty fragment starts nothing
    call = state.function_call
    if call is None:
        call = state.function_call = _FunctionCall()
    if name and not call.name:  # the first name: a repeat is not glued on
        call.name = name
    if arguments:
        call.arguments.append(arguments)


def _joined_logprobs(so_far: dict[str, Any] | None, logprobs: object) -> dict[str, Any] | None:
    """Each chunk's logprobs hold the tokens of that chunk; the response's hold all of
    them, in order (as the SDK's `ChatCompletionStreamState` joins them)."""
    fields: Any = _plain(logprobs)
    if not isinstance(fields, Mapping):
        return so_far  # not the SDK's shape: nothing to join
    joined: dict[str, Any] = {} if so_far is None else so_far
    for key, value in cast("Mapping[str, Any]", fields).items():
        have = joined.get(key)
        if isinstance(value, list) and isinstance(have, list):
            cast("list[Any]", have).extend(cast("list[Any]", value))
        elif isinstance(value, list):  # a copy: the next chunks' tokens are appended to it
            joined[key] = list(cast("list[Any]", value))
        elif key not in joined:
            joined[key] = value
    return joined


def _plain(value: object) -> object:
    """An SDK model as the fields it was given (what the server sent), for `construct`."""
    dump = getattr(value, "model_dump", None)
    return value if dump is None else dump(exclude_unset=True)


def _merged_name(name: str, fragment: str) -> str:
    """The name of a call after a later fragment's name: the name itself when none came
    yet or the fragment resends it whole, unchanged for a repeat, else the name
    continued (split across fragments as arguments are)."""
    if fragment == name or name.startswith(fragment):
        return name
    if not name or fragment.startswith(name):
        return fragment
    return name + fragment


def _custom_part(fragment: Any) -> dict[str, Any] | None:
    # `__pydantic_extra__`, not the `model_extra` property: one call less per fragment.
    extra: Any = getattr(fragment, "__pydantic_extra__", None)
    if not extra:
        return None
    custom: Any = extra.get("custom")
    return cast("dict[str, Any]", custom) if isinstance(custom, dict) else None


def _without_none(data: dict[str, Any], keep: set[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v is not None or k in keep}
