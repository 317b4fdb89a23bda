"""ToolCallStream("gemini"): events from GenerateContentResponse chunks, and the folded
final response."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from google.genai import types

from toolwire._read import read_calls
from toolwire.core import (
    ReasoningDelta,
    StandardToolCall,
    TextDelta,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    TurnEnded,
    TurnStatus,
    assistant_messages,
    turn_status,
)
from toolwire.exceptions import StreamIncompleteError, StreamOrderError, UnexpectedObjectError


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def chunk(
    *parts: dict[str, Any],
    finish: str | None = None,
    usage: int | None = None,
    response_id: str | None = "r-1",
) -> types.GenerateContentResponse:
    """One streamed chunk, parsed by the SDK from the API's camelCase JSON."""
    candidate: dict[str, Any] = {"index": 0}
    if parts:
        candidate["content"] = {"role": "model", "parts": list(parts)}
    if finish is not None:
        candidate["finishReason"] = finish
    body: dict[str, Any] = {"candidates": [candidate], "modelVersion": "gemini-test"}
    if response_id is not None:
        body["responseId"] = response_id
    if usage is not None:
        body["usageMetadata"] = {"promptTokenCount": 7, "totalTokenCount": usage}
    return types.GenerateContentResponse.model_validate(body)


# The synthetic run of STREAMING.md 4.1: thought fragments, a signature-only empty thought
# part, text fragments, a signature-only empty text part, two calls in one chunk, and the
# closing empty text part with the finish reason.
RUN = [
    chunk({"text": "Plan: ", "thought": True}, usage=10),
    chunk({"text": "call x", "thought": True}, usage=12),
    chunk({"text": "", "thought": True, "thoughtSignature": b64(b"sig-thought")}, usage=14),
    chunk({"text": "Hel"}, usage=15),
    chunk({"text": "lo"}, usage=16),
    chunk({"text": "", "thoughtSignature": b64(b"sig-text")}, usage=16),
    chunk(
        {"functionCall": {"name": "f", "args": {"n": 3.0}}, "thoughtSignature": b64(b"sig-f")},
        {"functionCall": {"name": "g"}},
        usage=20,
    ),
    chunk({"text": ""}, finish="STOP", usage=21),
]


def feed_all(items: list[Any]) -> tuple[ToolCallStream[types.GenerateContentResponse], list[Any]]:
    stream = ToolCallStream("gemini")
    return stream, [event for item in items for event in stream.feed(item)]


def test_events_in_order() -> None:
    """Thoughts and text stream as deltas; each whole call starts and completes at once."""
    _, events = feed_all(RUN)
    f = StandardToolCall("function", "toolwire_r-1_0", "f", {"n": 3.0}, True)
    g = StandardToolCall("function", "toolwire_r-1_1", "g", {}, True)
    assert events == [
        ReasoningDelta("Plan: "),
        ReasoningDelta("call x"),
        TextDelta("Hel"),
        TextDelta("lo"),
        ToolCallStarted(0, 2, "toolwire_r-1_0", "f", True),
        ToolCallCompleted(0, 2, f),
        ToolCallStarted(1, 3, "toolwire_r-1_1", "g", True),
        ToolCallCompleted(1, 3, g),
        TurnEnded("STOP", "tool_calls"),
    ]


def test_final_response_is_the_non_streaming_shape() -> None:
    """Runs coalesce, each signature stays on its part, the filler goes, usage is the last one."""
    stream, _ = feed_all(RUN)
    final = stream.final_response()
    assert final.candidates and final.candidates[0].content
    assert final.candidates[0].content == types.Content(
        role="model",
        parts=[
            types.Part(text="Plan: call x", thought=True, thought_signature=b"sig-thought"),
            types.Part(text="Hello", thought_signature=b"sig-text"),
            types.Part(
                function_call=types.FunctionCall(name="f", args={"n": 3.0}),
                thought_signature=b"sig-f",
            ),
            types.Part(function_call=types.FunctionCall(name="g")),
        ],
    )
    assert final.candidates[0].finish_reason == types.FinishReason.STOP
    assert final.usage_metadata == types.GenerateContentResponseUsageMetadata(
        prompt_token_count=7, total_token_count=21
    )
    assert final.response_id == "r-1"
    assert final.model_version == "gemini-test"


def test_stream_ids_equal_the_final_responses_dispatch() -> None:
    """Completed calls equal reading the final response: same synthesized ids, same args."""
    stream, _ = feed_all(RUN)
    assert stream.completed_calls == read_calls(stream.final_response())
    assert turn_status(stream.final_response(), "gemini") == "tool_calls"
    [content] = assistant_messages(stream.final_response(), "gemini")
    assert [p.thought_signature for p in content.parts or []] == [
        b"sig-thought",
        b"sig-text",
        b"sig-f",
        None,
    ]


def test_provider_ids_and_provider_index() -> None:
    """A call with an id keeps it; `provider_index` is the part's position in the final content."""
    _, events = feed_all(
        [
            chunk({"text": "a"}, {"functionCall": {"name": "f", "args": {}, "id": "c1"}}),
            chunk({"text": "b"}),
            chunk({"functionCall": {"name": "f", "args": {}}}, finish="STOP"),
        ]
    )
    starts = [e for e in events if isinstance(e, ToolCallStarted)]
    assert starts == [
        ToolCallStarted(0, 1, "c1", "f", False),
        ToolCallStarted(1, 3, "toolwire_r-1_1", "f", True),
    ]
    assert [e for e in events if isinstance(e, TurnEnded)] == [TurnEnded("STOP", "tool_calls")]


def test_ids_are_position_only_without_a_response_id() -> None:
    """No response id in the stream: ids come from position, and the final response agrees."""
    stream, events = feed_all(
        [chunk({"functionCall": {"name": "f", "args": {}}}, finish="STOP", response_id=None)]
    )
    assert [e.call.id for e in events if isinstance(e, ToolCallCompleted)] == ["toolwire_0"]
    assert read_calls(stream.final_response()) == stream.completed_calls


@pytest.mark.parametrize(
    ("finish", "status"),
    [("MAX_TOKENS", "truncated"), ("SAFETY", "refused"), ("MALFORMED_FUNCTION_CALL", "malformed")],
)
def test_turn_ended_reports_the_finish_reason(finish: str, status: TurnStatus) -> None:
    """The chunk carrying a finish reason ends the turn with the neutral status."""
    stream, events = feed_all([chunk({"text": "Once upon"}), chunk(finish=finish)])
    assert events[-1] == TurnEnded(finish, status)
    assert turn_status(stream.final_response(), "gemini") == status


def test_blocked_prompt_ends_the_turn_without_a_candidate() -> None:
    """A prompt blocked before any candidate ends the turn ("refused") and has a response."""
    blocked = types.GenerateContentResponse.model_validate(
        {"promptFeedback": {"blockReason": "SAFETY"}, "responseId": "r-2"}
    )
    stream, events = feed_all([blocked])
    assert events == [TurnEnded("SAFETY", "refused")]
    final = stream.final_response()
    assert not final.candidates
    assert turn_status(final, "gemini") == "refused"
    assert assistant_messages(final, "gemini") == []


def test_a_cut_stream_has_no_final_response() -> None:
    """No chunks, or no finish reason at the end: StreamIncompleteError saying to resend."""
    with pytest.raises(StreamIncompleteError, match="no chunks"):
        ToolCallStream("gemini").final_response()
    stream, events = feed_all(RUN[:-1])
    assert not any(isinstance(e, TurnEnded) for e in events)
    with pytest.raises(StreamIncompleteError, match="finish_reason"):
        stream.final_response()


def test_dict_chunks_are_accepted() -> None:
    """Chunks given as wire JSON dicts fold the same as SDK objects."""
    dicts = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in RUN]
    stream, events = feed_all(dicts)
    reference, reference_events = feed_all(RUN)
    assert events == reference_events
    assert stream.final_response() == reference.final_response()


def test_usage_is_never_summed() -> None:
    """Each chunk's usage is a running total: the final one is the last chunk's."""
    stream, _ = feed_all([chunk({"text": "a"}, usage=30), chunk({"text": "b"}, finish="STOP")])
    final = stream.final_response()
    assert final.usage_metadata is not None
    assert final.usage_metadata.total_token_count == 30
    content = (final.candidates or [])[0].content
    assert content == types.Content(role="model", parts=[types.Part(text="ab")])


def test_only_candidate_zero_is_folded() -> None:
    """With several candidates, chunks for other candidates do not mix into the turn."""
    other = types.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {"index": 1, "content": {"role": "model", "parts": [{"text": "other"}]}}
            ],
            "responseId": "r-1",
        }
    )
    stream, events = feed_all([chunk({"text": "mine"}), other, chunk(finish="STOP")])
    assert events == [TextDelta("mine"), TurnEnded("STOP", "done")]
    content = (stream.final_response().candidates or [])[0].content
    assert content == types.Content(role="model", parts=[types.Part(text="mine")])


def test_content_after_the_finish_reason_is_refused() -> None:
    """After the chunk with the finish reason, a chunk may repeat it with usage or an empty
    filler part, or carry usage alone (the turn stays as it was, usage from the last
    chunk); a chunk with a part raises `StreamOrderError` saying what to feed, before any
    event of it."""
    done = chunk({"text": "Done."}, finish="STOP", usage=10)
    usage_only = types.GenerateContentResponse.model_validate(
        {"usageMetadata": {"promptTokenCount": 7, "totalTokenCount": 12}, "responseId": "r-1"}
    )
    stream, events = feed_all([done, chunk({"text": ""}, finish="STOP", usage=11), usage_only])
    assert events == [TextDelta("Done."), TurnEnded("STOP", "done")]
    final = stream.final_response()
    assert final == usage_only.model_copy(
        update={
            "candidates": [
                types.Candidate(
                    index=0,
                    finish_reason=types.FinishReason.STOP,
                    content=types.Content(role="model", parts=[types.Part(text="Done.")]),
                )
            ]
        }
    )

    call: dict[str, Any] = {"functionCall": {"name": "delete_all", "args": {}}}
    late: dict[str, Any]
    for late in (call, {"text": "more"}):
        stream, _ = feed_all([done])
        with pytest.raises(StreamOrderError) as refused:
            stream.feed(chunk(late))
        name = "the function call 'delete_all'" if late is call else "a part"
        assert str(refused.value) == (
            f"A chunk holding {name} arrived after the chunk with finish_reason 'STOP', "
            "which ended the turn. Feed one stream, in order, to one "
            "ToolCallStream('gemini'), and start a new one for the next request."
        )
        assert stream.completed_calls == []
        assert turn_status(stream.final_response(), "gemini") == "done"


def test_a_dict_the_sdk_refuses_raises_unexpected_object_error() -> None:
    """A dict chunk that is not a GenerateContentResponse raises toolwire's
    `UnexpectedObjectError` saying where it is wrong (or which API's it is), not
    pydantic's error."""
    expected = {
        "candidates": (
            "ToolCallStream('gemini').feed() cannot read this dict as a GenerateContentResponse "
            "(candidates: Input should be a valid list): feed the chunks "
            "generate_content_stream yields, or their dict form (the API's JSON, or "
            "chunk.model_dump())."
        ),
        "choices": (
            "ToolCallStream('gemini').feed() cannot take a dict with keys ['choices', 'id', "
            "'object']: it belongs to the Chat Completions API: use "
            "ToolCallStream('chat.completions')."
        ),
    }
    items: list[dict[str, Any]] = [
        {"candidates": "x"},
        {"choices": [], "id": "c", "object": "chat.completion.chunk"},
    ]
    for item in items:
        with pytest.raises(UnexpectedObjectError) as refused:
            ToolCallStream("gemini").feed(item)
        assert str(refused.value) == expected[next(iter(item))]
