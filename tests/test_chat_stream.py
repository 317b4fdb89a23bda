"""ToolCallStream on Chat Completions: events, previews, completion rules, final response."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionMessageFunctionToolCall,
)

from toolwire._read import read_calls
from toolwire.core import (
    BaseFunctionToolModel,
    StandardToolCall,
    StreamEvent,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    TurnEnded,
)
from toolwire.exceptions import StreamIncompleteError
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply


def chunk(
    delta: dict[str, Any] | None = None, finish: str | None = None, **top: Any
) -> ChatCompletionChunk:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    data = {
        "id": "chatcmpl-s",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": choices,
    }
    return ChatCompletionChunk.model_validate({**data, **top})


def call_start(
    index: int, call_id: str | None, name: str | None, arguments: str = ""
) -> dict[str, Any]:
    return {
        "tool_calls": [
            {
                "index": index,
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
        ]
    }


def args(index: int, text: str) -> dict[str, Any]:
    return {"tool_calls": [{"index": index, "function": {"arguments": text}}]}


def feed_all(
    chunks: list[ChatCompletionChunk],
) -> tuple[ToolCallStream[ChatCompletion], list[StreamEvent]]:
    stream = ToolCallStream("chat.completions")
    events: list[StreamEvent] = []
    for item in chunks:
        events.extend(stream.feed(item))
    return stream, events


def kinds(events: list[StreamEvent]) -> list[str]:
    return [type(e).__name__ for e in events]


def without_call_ids(completion: ChatCompletion) -> dict[str, Any]:
    message = completion.choices[0].message.model_dump()
    calls: list[dict[str, Any]] = message["tool_calls"] or []
    for call in calls:
        call["id"] = None
    return message


class write_file(BaseFunctionToolModel[None, None]):
    path: str
    content: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"wrote {self.path}", None


group = ToolGroup.from_list([write_file])


def test_events_and_final_response_from_the_fake_over_sse() -> None:
    """Text, start, argument deltas with previews, completion and turn end; the final
    ChatCompletion equals what the non-streamed call returns."""
    reply = FakeReply(
        text="Writing.",
        calls=(FakeCall("write_file", {"path": "a.md", "content": '# Hi\n"quoted" é🎉'}),),
    )
    fake = FakeOpenAI(script=[reply, reply])
    client = fake.client()
    stream = ToolCallStream("chat.completions")
    events: list[StreamEvent] = []
    for item in client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "go"}], stream=True
    ):
        events.extend(stream.feed(item))
    assert kinds(events)[:2] == ["TextDelta", "ToolCallStarted"]
    assert kinds(events)[-2:] == ["ToolCallCompleted", "TurnEnded"]
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    streamed_content = "".join(
        d.string_delta.text
        for d in deltas
        if d.string_delta is not None and d.string_delta.path == ("content",)
    )
    assert streamed_content == '# Hi\n"quoted" é🎉'
    assert deltas[-1].partial_arguments == {"path": "a.md", "content": '# Hi\n"quoted" é🎉'}
    final = stream.final_response()
    plain = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "go"}])
    # The fake numbers its ids per reply, so compare everything but the call ids.
    assert without_call_ids(final) == without_call_ids(plain)
    assert final.choices[0].finish_reason == "tool_calls"
    assert [r.result_content for r in group.run_tool_calls(final, None)] == ["wrote a.md"]


def test_a_call_completes_when_the_next_one_starts() -> None:
    """Parallel calls: the first is reported complete as soon as the second starts."""
    _, events = feed_all(
        [
            chunk(call_start(0, "call_a", "write_file")),
            chunk(args(0, '{"path": "a", "content": "x"}')),
            chunk(call_start(1, "call_b", "write_file")),
            chunk(args(1, '{"path": "b", "content": "y"}')),
            chunk({}, "tool_calls"),
        ]
    )
    assert kinds(events) == [
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "TurnEnded",
    ]
    completed = [e for e in events if isinstance(e, ToolCallCompleted)]
    assert [(e.index, e.provider_index, e.call.id) for e in completed] == [
        (0, 0, "call_a"),
        (1, 1, "call_b"),
    ]


def test_a_call_cut_by_the_length_limit_is_truncated_not_completed() -> None:
    """finish_reason=length: the cut call is ToolCallTruncated and answered as truncated."""
    stream, events = feed_all(
        [
            chunk(call_start(0, "call_a", "write_file", '{"path": "a", "content": "ok"}')),
            chunk(call_start(1, "call_b", "write_file", '{"path": "b", "content": "cut o')),
            chunk({}, "length"),
        ]
    )
    assert kinds(events) == [
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallTruncated",
        "TurnEnded",
    ]
    ended = events[-1]
    assert isinstance(ended, TurnEnded) and (ended.stop_reason, ended.status) == (
        "length",
        "truncated",
    )
    truncated = next(e for e in events if isinstance(e, ToolCallTruncated))
    assert group.run_tool_call(truncated.call, None).fail_reason == "truncated"
    results = group.run_tool_calls(stream.final_response(), None)
    assert [r.fail_reason for r in results] == [None, "truncated"]


def test_a_stream_that_just_stops_has_no_final_response() -> None:
    """Without a finish_reason there is no response, and the error says why."""
    stream, events = feed_all([chunk(call_start(0, "call_a", "write_file", '{"path": "a"'))])
    assert kinds(events) == ["ToolCallStarted", "ToolCallArgumentsDelta"]
    with pytest.raises(StreamIncompleteError, match="ended before the API sent a finish_reason"):
        stream.final_response()
    with pytest.raises(StreamIncompleteError, match="no chunks"):
        ToolCallStream("chat.completions").final_response()


def test_repeated_ids_and_names_are_not_glued() -> None:
    """Backends that repeat id and name on every fragment do not produce 'call_1call_1'."""
    stream, _ = feed_all(
        [
            chunk(call_start(0, "call_1", "write_file", '{"path": ')),
            chunk(call_start(0, "call_1", "write_file", '"a", "content": "b"}')),
            chunk({}, "tool_calls"),
        ]
    )
    (call,) = stream.final_response().choices[0].message.tool_calls or []
    assert isinstance(call, ChatCompletionMessageFunctionToolCall)
    assert (call.id, call.function.name, json.loads(call.function.arguments)) == (
        "call_1",
        "write_file",
        {"path": "a", "content": "b"},
    )


def test_missing_ids_are_synthesized_like_dispatch_does() -> None:
    """A call streamed without an id gets the same id the final response's dispatch uses."""
    stream, events = feed_all(
        [
            chunk(call_start(0, None, "write_file", '{"path": "a", "content": "b"}')),
            chunk({}, "tool_calls"),
        ]
    )
    started = next(e for e in events if isinstance(e, ToolCallStarted))
    assert started.call_id == "toolwire_chatcmpl-s_0" and started.synthesized_id
    (result,) = group.run_tool_calls(stream.final_response(), None)
    assert result.call_id == "toolwire_chatcmpl-s_0"


def test_an_id_sent_late_replaces_the_synthesized_one() -> None:
    """Some backends send a call's id in a later fragment: its start is reported with a
    synthesized id (none came yet), its later events, its completed call and the final
    response carry the server's id, in choice 0 as in choice 1."""
    fragments = [
        {"index": 0, "type": "function", "function": {"name": "f", "arguments": '{"a":'}},
        {"index": 0, "id": "call_srv", "function": {"arguments": " 1}"}},
    ]
    chunks = [
        chunk(choices=[{"index": choice, "delta": {"tool_calls": [fragment]}}])
        for choice in (0, 1)
        for fragment in fragments
    ]
    chunks += [
        chunk(choices=[{"index": i, "delta": {}, "finish_reason": "tool_calls"}]) for i in (0, 1)
    ]
    stream, events = feed_all(chunks)

    called = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_srv",
                "type": "function",
                "function": {"name": "f", "arguments": '{"a": 1}'},
            }
        ],
    }
    final = stream.final_response()
    assert final == ChatCompletion.model_validate(
        {
            "id": "chatcmpl-s",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [
                {"index": i, "message": called, "finish_reason": "tool_calls", "logprobs": None}
                for i in (0, 1)
            ],
        }
    )
    completed = StandardToolCall("function", "call_srv", "f", '{"a": 1}')
    assert stream.completed_calls == read_calls(final) == [completed]
    assert [e for e in events if not isinstance(e, ToolCallArgumentsDelta)] == [
        ToolCallStarted(0, 0, "toolwire_chatcmpl-s_0", "f", synthesized_id=True),
        ToolCallCompleted(0, 0, completed),
        TurnEnded("tool_calls", "tool_calls"),
    ]
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    assert [(e.call_id, e.fragment) for e in deltas] == [
        ("toolwire_chatcmpl-s_0", '{"a":'),
        ("call_srv", " 1}"),
    ]


def test_text_usage_and_foreign_chunks() -> None:
    """Text is streamed, the usage chunk is kept, and non-chunk objects are ignored."""
    stream, events = feed_all(
        [
            # An Azure-style leading content-filter chunk, as the SDK's lenient parsing builds it.
            ChatCompletionChunk.model_construct(id="", object="", created=0, model="", choices=[]),
            chunk({"role": "assistant", "content": "Hel"}),
            chunk({"content": "lo"}),
            chunk({}, "stop"),
            chunk(None, usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}),
        ]
    )
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hel", "lo"]
    final = stream.final_response()
    assert final.id == "chatcmpl-s"
    assert final.choices[0].message.content == "Hello"
    assert final.usage is not None and final.usage.total_tokens == 5


def test_preview_read_late_shows_the_current_state() -> None:
    """partial_arguments is computed when read: an old event shows newer fragments."""
    stream = ToolCallStream("chat.completions")
    stream.feed(chunk(call_start(0, "c", "write_file")))
    (first,) = stream.feed(chunk(args(0, '{"path": "a", "content": "ab')))
    stream.feed(chunk(args(0, 'cd"}')))
    assert isinstance(first, ToolCallArgumentsDelta)
    assert first.partial_arguments == {"path": "a", "content": "abcd"}
