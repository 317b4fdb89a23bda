"""Gemini stream folding: `GenerateContentResponse` chunks in, events and one
`GenerateContentResponse` out.

The SDK has no helper for this (its continuation merger sums usage and keeps
empty filler parts; its chat stores each chunk as a separate turn), so the fold
is our own, linear in the input:

- every part of candidate 0 of every chunk, in order; function calls arrive
  whole and are never merged; each part keeps its own `thought_signature`;
- consecutive plain text fragments of one run (same `thought` flag, no
  signature yet) are joined, and a signature closing the run stays on it;
- empty filler text parts (`{"text": ""}` with no signature) are dropped;
- the candidate's other fields are the latest non-None values, and the
  response's (usage, model version...) those of the last chunk: usage is a
  running total, never summed.

Events: a function call is complete on arrival, so `ToolCallStarted` and
`ToolCallCompleted` come together (no argument deltas; `provider_index` is the
part's position in the final content). A call Vertex AI streams in fragments
(`partial_args`, see `partial_args.py`) raises `ToolwireError` (`argument_streaming_error`)
unless the stream was made with `partial_args="fold"`; folded, it gives
`ToolCallStarted` on its first part,
a `ToolCallArgumentsDelta` per fragment (JSON text, with previews and string
deltas as on the other APIs; none while a rewrite of the text waits, see
`partial_args.py`), and `ToolCallCompleted` on its last part; in the
final content it is one part holding the merged call (`args`, the first part's
id and signature). A turn that ends while such a call is open (or a new call that
starts before it ended) cuts it: `ToolCallTruncated`, and the final part keeps
`will_continue=True` with the arguments received, so reading it again gives the
same cut call, answered "truncated" and never run. Text parts give `TextDelta`s, thought
parts `ReasoningDelta`s, and a chunk carrying a finish reason (or a blocked
prompt) gives `TurnEnded`. A chunk after the one with the finish reason may
repeat it and carry usage or an empty filler part; one with anything else raises
`StreamOrderError` (the turn was reported ended). Synthesized ids use the stream's `response_id` and
the call's position, so they equal those of dispatching `final_response()`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..._api import api_or_none, first_problem, mro_names, wrong_stream_item
from ..._json import copy_json
from ..._streaming._events import NewReasoningDelta, NewTextDelta, StreamEvent, TurnEnded
from ..._streaming._gate import TAKE, StreamGate
from ..._streaming._tracker import CallTracker, TrackedStream
from ...exceptions import (
    StreamIncompleteError,
    StreamOrderError,
    ToolwireError,
    UnexpectedObjectError,
)
from .partial_args import REWRITE, ArgumentsFold, UnreadablePath, unreadable_arguments
from .turn import enum_text, status_of

if TYPE_CHECKING:
    from google.genai.types import Candidate, GenerateContentResponse, Part


__all__ = ["GeminiStreamAccumulator", "argument_streaming_error"]

_PLAIN_TEXT_FIELDS = frozenset({"text", "thought", "thought_signature"})


@dataclass(slots=True)
class _TextRun:
    """Consecutive plain text parts of one kind, joined in the final content."""

    first: Part
    """The run's first part: the final part is a copy of it with the joined text."""
    thought: bool
    pieces: list[str] = field(default_factory=list[str])
    signature: bytes | None = None


@dataclass(slots=True)
class _StreamedCall:
    """A call Vertex AI sends in fragments, from its first part to its last."""

    key: int
    first: Part
    name: str
    fold: ArgumentsFold = field(default_factory=ArgumentsFold)
    signature: bytes | None = None
    unreadable: object = None
    """The first JSON path that could not be placed (the call is then refused)."""
    cut: bool = False


class GeminiStreamAccumulator(TrackedStream):
    """Folds one streamed Gemini turn (candidate 0; ask for one candidate when streaming).
    Vertex AI's argument fragments are folded when `fold_partial_args`, else refused."""

    def __init__(self, *, fold_partial_args: bool = False) -> None:
        self._fold_partial_args = fold_partial_args
        self._tracker = CallTracker()
        self._entries: list[_TextRun | Part | _StreamedCall] = []
        self._streamed: _StreamedCall | None = None
        self._first_candidate: Candidate | None = None
        self._candidate_updates: dict[str, Any] = {}
        self._role: str | None = None
        self._last_chunk: GenerateContentResponse | None = None
        self._response_id: str | None = None
        self._usage: Any = None
        self._ids_fixed = False
        self._has_calls = False
        self._finish_reason: str | None = None
        self._block_reason: str | None = None
        self._reported_end: tuple[str | None, str | None] | None = None

    def feed(self, item: object) -> list[StreamEvent]:
        chunk: Any = item if type(item) in _GATE.actions else _as_chunk(item)
        self._last_chunk = chunk
        if chunk.response_id and not self._ids_fixed:
            self._response_id = self._tracker.response_id = chunk.response_id
        if chunk.usage_metadata is not None:
            self._usage = chunk.usage_metadata
        feedback = chunk.prompt_feedback
        if feedback is not None and feedback.block_reason is not None:
            self._block_reason = enum_text(feedback.block_reason)
        events: list[StreamEvent] = []
        candidates = chunk.candidates
        if candidates and len(candidates) == 1 and not candidates[0].index:
            candidate = candidates[0]  # most chunks: `_first_candidate` without the call
        else:
            candidate = _first_candidate(chunk)
        if candidate is not None:
            if self._finish_reason is not None:
                _require_nothing_after(candidate, self._finish_reason)
            self._fold_candidate(candidate, events)
        if self._streamed is not None and self._finish_reason is not None:
            self._end_streamed(self._streamed, events, cut=True)
        if self._finish_reason is not None or self._block_reason is not None:
            self._report_end(events)
        return events

    def _report_end(self, events: list[StreamEvent]) -> None:
        """A `TurnEnded` when the finish or block reason is new."""
        end = (self._finish_reason, self._block_reason)
        if end == self._reported_end:
            return
        self._reported_end = end
        has_candidate = self._first_candidate is not None
        status = status_of(self._finish_reason, self._has_calls, self._block_reason, has_candidate)
        stop_reason = self._finish_reason if has_candidate else self._block_reason
        events.append(TurnEnded(stop_reason, status))

    def _fold_candidate(self, candidate: Candidate, events: list[StreamEvent]) -> None:
        if self._first_candidate is None:
            self._first_candidate = candidate
        else:
            # The fields the chunk sent (the others keep their None default): a text
            # chunk sets two or three of the candidate's fifteen.
            for name in candidate.__pydantic_fields_set__:  # `model_fields_set`, one call less
                if name != "content":
                    value = getattr(candidate, name)
                    if value is not None:
                        self._candidate_updates[name] = value
        if candidate.finish_reason is not None:
            self._finish_reason = enum_text(candidate.finish_reason)
        content = candidate.content
        if content is None:
            return
        if content.role is not None:
            self._role = content.role
        for part in content.parts or ():
            call = part.function_call
            if call is not None:
                self._add_call(part, call, events)
            # Plain text: it set only text fields (`model_fields_set`, read without the
            # property), or set the others to None.
            elif part.text is not None and (
                part.__pydantic_fields_set__ <= _PLAIN_TEXT_FIELDS or _others_unset(part)
            ):
                self._add_text(part, part.text, events)
            else:
                self._entries.append(part)

    def _add_call(self, part: Part, call: Any, events: list[StreamEvent]) -> None:
        streamed = self._streamed
        if streamed is not None:
            if not call.name or call.name == streamed.name:
                self._continue_streamed(streamed, part, call, events)
                return
            self._end_streamed(streamed, events, cut=True)  # a new call began: cut it
        if call.partial_args or call.will_continue:
            if not self._fold_partial_args:
                raise argument_streaming_error(call.name)
            self._start_streamed(part, call, events)
            return
        self._ids_fixed = True  # ids made so far used this response id: keep it
        key = len(self._entries)
        started = self._tracker.start(
            key, provider_index=key, call_id=call.id or None, name=call.name or ""
        )
        args: Mapping[str, Any] = call.args if call.args is not None else {}
        completed = self._tracker.finish(key, arguments=args)
        self._entries.append(part)
        self._has_calls = True
        events.append(started)
        events.append(completed)

    def _start_streamed(self, part: Part, call: Any, events: list[StreamEvent]) -> None:
        self._ids_fixed = True
        key = len(self._entries)
        name = call.name or ""
        events.append(
            self._tracker.start(key, provider_index=key, call_id=call.id or None, name=name)
        )
        streamed = self._streamed = _StreamedCall(key, part, name)
        self._entries.append(streamed)
        self._has_calls = True
        self._continue_streamed(streamed, part, call, events)

    def _continue_streamed(
        self, streamed: _StreamedCall, part: Part, call: Any, events: list[StreamEvent]
    ) -> None:
        if streamed.signature is None:
            streamed.signature = part.thought_signature
        fold = streamed.fold
        if call.args and streamed.unreadable is None:
            self._add_text_of(streamed, fold.add_arguments(call.args), events)
        for partial in call.partial_args or ():
            if streamed.unreadable is not None:
                break
            try:
                piece = fold.add(partial)
            except UnreadablePath as error:
                streamed.unreadable = error.args[0]
                break
            self._add_text_of(streamed, piece, events)
        if not call.will_continue:
            self._end_streamed(streamed, events, cut=False)

    def _add_text_of(self, streamed: _StreamedCall, piece: str, events: list[StreamEvent]) -> None:
        if piece is REWRITE:
            self._tracker.restart(streamed.key)
            piece = streamed.fold.text()
        delta = self._tracker.add(streamed.key, piece)
        if delta is not None:
            events.append(delta)

    def _end_streamed(
        self, streamed: _StreamedCall, events: list[StreamEvent], *, cut: bool
    ) -> None:
        self._streamed = None
        fold = streamed.fold
        if streamed.unreadable is not None:
            arguments: Any = unreadable_arguments(fold.arguments, streamed.unreadable)
        else:
            self._add_text_of(streamed, fold.close(), events)
            arguments = fold.arguments
        streamed.cut = cut
        events.append(self._tracker.finish(streamed.key, truncated=cut, arguments=arguments))

    def _add_text(self, part: Part, text: str, events: list[StreamEvent]) -> None:
        thought = bool(part.thought)
        if text:
            events.append(NewReasoningDelta(text) if thought else NewTextDelta(text))
        previous = self._entries[-1] if self._entries else None
        if (
            isinstance(previous, _TextRun)
            and previous.thought == thought
            and previous.signature is None
        ):
            previous.pieces.append(text)
            previous.signature = part.thought_signature
            return
        if _is_filler(part):
            return
        self._entries.append(_TextRun(part, thought, [text], part.thought_signature))

    def final_response(self) -> GenerateContentResponse:
        from google.genai import types

        last = self._last_chunk
        if last is None:
            raise StreamIncompleteError(
                "The stream yielded no chunks, so there is no response. Check the request."
            )
        if self._first_candidate is None:
            if self._block_reason is None:
                raise StreamIncompleteError(
                    "The stream ended before the API sent a candidate or a block reason, so "
                    "the turn was cut off (a dropped connection, a timeout, or the loop "
                    "stopped reading). Send the request again."
                )
            return last.model_copy(update={"candidates": [], **self._response_fields()})
        if self._finish_reason is None:
            raise StreamIncompleteError(
                "The stream ended before the API sent a finish_reason, so the turn was cut off "
                "(a dropped connection, a timeout, or the loop stopped reading). Its partial "
                "content is not a response; send the request again."
            )
        parts = [_final_part(entry) for entry in self._entries]
        content = types.Content(role=self._role or "model", parts=parts)
        candidate = self._first_candidate.model_copy(
            update={**self._candidate_updates, "content": content}
        )
        return last.model_copy(update={"candidates": [candidate], **self._response_fields()})

    def _response_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"response_id": self._response_id}
        if self._usage is not None:
            fields["usage_metadata"] = self._usage
        return fields


def argument_streaming_error(name: object) -> ToolwireError:
    """The error for a Vertex AI argument-streaming fragment (`partial_args`) met by a
    stream that does not fold them."""
    return ToolwireError(
        f"The function call {name!r} arrived as argument fragments (FunctionCall.partial_args "
        "or will_continue), which only Vertex AI sends when "
        "FunctionCallingConfig(stream_function_call_arguments=True). ToolCallStream('gemini') "
        "refuses them unless asked: either set stream_function_call_arguments=False (or leave "
        "it unset), so each call arrives complete in one chunk, or make the stream with "
        "ToolCallStream('gemini', partial_args='fold') to get the fragments as argument "
        "deltas and one merged call in final_response()."
    )


def _final_part(entry: _TextRun | Part | _StreamedCall) -> Part:
    if isinstance(entry, _StreamedCall):
        return _merged_part(entry)
    if not isinstance(entry, _TextRun):
        call = entry.function_call
        if call is not None and call.args:
            # The model's arguments may nest past `copy.deepcopy`'s recursion: copy them
            # without recursing, and let deepcopy take that copy for them.
            return copy.deepcopy(entry, {id(call.args): copy_json(call.args)})
        return entry.model_copy(deep=True)
    first = entry.first
    if len(entry.pieces) == 1 and entry.signature is first.thought_signature:
        return first.model_copy(deep=True)
    return first.model_copy(
        update={"text": "".join(entry.pieces), "thought_signature": entry.signature}, deep=True
    )


def _merged_part(streamed: _StreamedCall) -> Part:
    """The one part a streamed call is in the final content: the merged call, as the
    API's own non-streamed response has it (a cut call keeps `will_continue=True`; an
    unreadable one keeps the fragment it could not place)."""
    from google.genai import types

    first = streamed.first.function_call
    call = types.FunctionCall(
        id=first.id if first is not None else None,
        name=streamed.name or None,
        args=copy_json(streamed.fold.arguments),
        will_continue=True if streamed.cut else None,
    )
    if streamed.unreadable is not None:
        call.partial_args = [types.PartialArg(json_path=str(streamed.unreadable))]
    return streamed.first.model_copy(
        update={"function_call": call, "thought_signature": streamed.signature}, deep=True
    )


def _as_chunk(item: object) -> GenerateContentResponse:
    if isinstance(item, dict):
        import pydantic
        from google.genai import types

        try:
            return types.GenerateContentResponse.model_validate(item)
        except pydantic.ValidationError as error:
            data = cast("dict[str, Any]", item)
            if api_or_none(data) not in (None, "gemini"):
                raise wrong_stream_item(data, "gemini") from error  # names its API
            raise UnexpectedObjectError(
                "ToolCallStream('gemini').feed() cannot read this dict as a "
                f"GenerateContentResponse ({first_problem(error)}): feed the chunks "
                "generate_content_stream yields, or their dict form (the API's JSON, or "
                "chunk.model_dump())."
            ) from error
    if type(item) not in _GATE.actions:
        _GATE.admit(item)
    chunk: Any = item
    return chunk


def _classify(item: object) -> int | None:
    """Chunks of `generate_content_stream` (each a `GenerateContentResponse`)."""
    if "GenerateContentResponse" in mro_names(type(item), "google.genai."):
        return TAKE
    return None


_GATE = StreamGate("gemini", _classify)


def _first_candidate(chunk: GenerateContentResponse) -> Candidate | None:
    """Candidate 0 of a chunk (with several candidates, a chunk may carry another one)."""
    for candidate in chunk.candidates or ():
        if not candidate.index:
            return candidate
    return None


def _is_filler(part: Part) -> bool:
    """An empty text part without a signature: it holds nothing (streams send one with
    the finish reason)."""
    return (
        part.text == ""
        and not part.thought
        and part.thought_signature is None
        and (part.__pydantic_fields_set__ <= _PLAIN_TEXT_FIELDS or _others_unset(part))
    )


def _require_nothing_after(candidate: Candidate, finish_reason: str) -> None:
    """Raise if a chunk after the finish reason carries parts (not empty fillers)."""
    content = candidate.content
    for part in (content.parts if content is not None else None) or ():
        if not _is_filler(part):
            call = part.function_call
            what = f"the function call {call.name!r}" if call is not None else "a part"
            raise StreamOrderError(
                f"A chunk holding {what} arrived after the chunk with finish_reason "
                f"{finish_reason!r}, which ended the turn. Feed one stream, in order, to one "
                "ToolCallStream('gemini'), and start a new one for the next request."
            )


def _others_unset(part: Part) -> bool:
    """Whether the fields a part set besides text, `thought` and `thought_signature` are
    all None: a plain text part sent with explicit nulls."""
    return all(getattr(part, name) is None for name in part.model_fields_set - _PLAIN_TEXT_FIELDS)
