"""`ToolCallStream("anthropic")` on the SDK's raw stream events: live events, the final
Message, truncation and cut streams."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pydantic
import pytest
from anthropic.types import Message, RawMessageStreamEvent
from anthropic.types.beta import BetaMessage, BetaRawMessageStreamEvent
from inline_snapshot import snapshot

from toolwire._read import read_calls
from toolwire.core import (
    BaseFunctionToolModel,
    ReasoningDelta,
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
    assistant_messages,
    turn_status,
)
from toolwire.exceptions import StreamIncompleteError

EVENTS: pydantic.TypeAdapter[RawMessageStreamEvent] = pydantic.TypeAdapter(RawMessageStreamEvent)
BETA_EVENTS: pydantic.TypeAdapter[BetaRawMessageStreamEvent] = pydantic.TypeAdapter(
    BetaRawMessageStreamEvent
)


class write_file(BaseFunctionToolModel[None, None]):
    """Write a file."""

    path: str
    content: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"wrote {len(self.content)} characters to {self.path}", None


class ping_host(BaseFunctionToolModel[None, None]):
    """Ping the host."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "pong", None


group = ToolGroup[None, None].from_list([write_file, ping_host])


def start(message_id: str = "msg_1", **usage: int) -> dict[str, Any]:
    message: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1, **usage},
    }
    return {"type": "message_start", "message": message}


def block(index: int, content_block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": content_block}


def delta(index: int, **fields: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": fields}


def stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def end(stop_reason: str, output_tokens: int = 30, **usage: Any) -> list[dict[str, Any]]:
    return [
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": output_tokens, **usage},
        },
        {"type": "message_stop"},
    ]


def tool_block(index: int, call_id: str, name: str, *fragments: str) -> list[dict[str, Any]]:
    opening = block(index, {"type": "tool_use", "id": call_id, "name": name, "input": {}})
    pieces = [delta(index, type="input_json_delta", partial_json=f) for f in ("", *fragments)]
    return [opening, *pieces, stop(index)]


def fold(raw: list[dict[str, Any]]) -> tuple[ToolCallStream[Message], list[StreamEvent]]:
    """Feed SDK events built from `raw` one by one: (stream, every event returned)."""
    stream = ToolCallStream("anthropic")
    out: list[StreamEvent] = []
    for item in raw:
        out += stream.feed(EVENTS.validate_python(item))
    return stream, out


THINKING_TURN = [
    start(),
    block(0, {"type": "thinking", "thinking": "", "signature": ""}),
    delta(0, type="thinking_delta", thinking="The user wants "),
    delta(0, type="thinking_delta", thinking="a file."),
    delta(0, type="signature_delta", signature="RXVnZW5pYQ==+/"),
    stop(0),
    block(1, {"type": "redacted_thinking", "data": "cmVkYWN0ZWQ="}),
    stop(1),
    block(2, {"type": "text", "text": ""}),
    delta(2, type="text_delta", text="Writing "),
    delta(2, type="text_delta", text="it now."),
    stop(2),
    *tool_block(3, "toolu_1", "write_file", '{"path": "a.md", ', '"content": "# Ti', 'tle"}'),
    *tool_block(4, "toolu_2", "ping_host"),
    *end("tool_use", input_tokens=12),
]


def test_events_of_a_thinking_turn() -> None:
    """Thinking, text and two calls give these events, in this order (previews read as
    each delta arrives); the first call is complete as soon as the next block starts, the
    last when the turn ends."""
    stream = ToolCallStream("anthropic")
    shown: list[Any] = []
    for item in THINKING_TURN:
        for event in stream.feed(EVENTS.validate_python(item)):
            if isinstance(event, ToolCallArgumentsDelta):
                shown.append((event.fragment, event.partial_arguments))
            else:
                shown.append(event)
    assert shown == snapshot(
        [
            ReasoningDelta(text="The user wants "),
            ReasoningDelta(text="a file."),
            TextDelta(text="Writing "),
            TextDelta(text="it now."),
            ToolCallStarted(
                index=0,
                provider_index=3,
                call_id="toolu_1",
                name="write_file",
                synthesized_id=False,
            ),
            ('{"path": "a.md", ', {"path": "a.md"}),
            ('"content": "# Ti', {"path": "a.md", "content": "# Ti"}),
            ('tle"}', {"path": "a.md", "content": "# Title"}),
            ToolCallCompleted(
                index=0,
                provider_index=3,
                call=StandardToolCall(
                    type="function",
                    id="toolu_1",
                    name="write_file",
                    input={"path": "a.md", "content": "# Title"},
                ),
            ),
            ToolCallStarted(
                index=1, provider_index=4, call_id="toolu_2", name="ping_host", synthesized_id=False
            ),
            ToolCallCompleted(
                index=1,
                provider_index=4,
                call=StandardToolCall(type="function", id="toolu_2", name="ping_host", input={}),
            ),
            TurnEnded(stop_reason="tool_use", status="tool_calls"),
        ]
    )


def test_final_response_is_the_message_with_thinking_kept() -> None:
    """final_response() is the Message the API would have returned: thinking with its
    signature, redacted thinking, text, calls with parsed inputs, usage from message_delta."""
    stream, _ = fold(THINKING_TURN)
    final = stream.final_response()
    assert isinstance(final, Message)
    assert final.model_dump(exclude_none=True) == snapshot(
        {
            "id": "msg_1",
            "content": [
                {
                    "signature": "RXVnZW5pYQ==+/",
                    "thinking": "The user wants a file.",
                    "type": "thinking",
                },
                {"data": "cmVkYWN0ZWQ=", "type": "redacted_thinking"},
                {"text": "Writing it now.", "type": "text"},
                {
                    "id": "toolu_1",
                    "input": {"path": "a.md", "content": "# Title"},
                    "name": "write_file",
                    "type": "tool_use",
                },
                {"id": "toolu_2", "input": {}, "name": "ping_host", "type": "tool_use"},
            ],
            "model": "claude-sonnet-4-6",
            "role": "assistant",
            "stop_reason": "tool_use",
            "type": "message",
            "usage": {"input_tokens": 12, "output_tokens": 30},
        }
    )
    replayed: Any = assistant_messages(final, "anthropic")[0]["content"]
    assert replayed[0] == {
        "type": "thinking",
        "thinking": "The user wants a file.",
        "signature": "RXVnZW5pYQ==+/",
    }
    assert replayed[1] == {"type": "redacted_thinking", "data": "cmVkYWN0ZWQ="}
    results = group.run_tool_calls(final, None)
    assert [r.result_content for r in results] == ["wrote 7 characters to a.md", "pong"]
    assert stream.completed_calls == read_calls(final)


def test_pings_are_ignored() -> None:
    """A ping (which the SDK's iterator normally drops) produces nothing and changes nothing."""
    stream = ToolCallStream("anthropic")
    assert stream.feed(EVENTS.validate_python(start())) == []
    assert stream.feed(SimpleNamespace(type="ping")) == []
    for item in end("end_turn"):
        stream.feed(EVENTS.validate_python(item))
    assert stream.final_response().content == []


def test_usage_is_overwritten_never_added() -> None:
    """message_delta usage totals replace the start values; absent ones leave them."""
    raw = [start(cache_read_input_tokens=4), *end("end_turn", output_tokens=25, input_tokens=11)]
    stream, _ = fold(raw)
    usage = stream.final_response().usage
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_input_tokens) == (11, 25, 4)


def test_citations_arrive_as_deltas() -> None:
    """citations_delta events become the text block's citations list."""
    citation = {
        "type": "char_location",
        "cited_text": "It is cold.",
        "document_index": 0,
        "document_title": "Notes",
        "start_char_index": 0,
        "end_char_index": 11,
    }
    raw = [
        start(),
        block(0, {"type": "text", "text": "", "citations": []}),
        delta(0, type="citations_delta", citation=citation),
        delta(0, type="text_delta", text="Cold."),
        stop(0),
        *end("end_turn"),
    ]
    stream, _ = fold(raw)
    content = stream.final_response().content[0]
    assert content.model_dump(exclude_none=True) == {
        "text": "Cold.",
        "type": "text",
        "citations": [citation],
    }


@pytest.mark.parametrize("stop_reason", ["max_tokens", "model_context_window_exceeded"])
def test_the_call_open_when_the_limit_hits_is_truncated(stop_reason: str) -> None:
    """A cut buffer never raises while fed; the last call is ToolCallTruncated and answered
    with a "truncated" failure, the complete one before it runs."""
    raw = [
        start(),
        *tool_block(0, "toolu_1", "ping_host", "{}"),
        *tool_block(1, "toolu_2", "write_file", '{"path": "b.md", "content": "Lorem ip'),
        *end(stop_reason),
    ]
    stream, events = fold(raw)
    ended = [e for e in events if isinstance(e, ToolCallCompleted | ToolCallTruncated)]
    assert [(type(e).__name__, e.call.id, e.call.truncated) for e in ended] == [
        ("ToolCallCompleted", "toolu_1", False),
        ("ToolCallTruncated", "toolu_2", True),
    ]
    assert ended[1].call.input == '{"path": "b.md", "content": "Lorem ip'
    assert events[-1] == TurnEnded(stop_reason, "truncated")
    final = stream.final_response()
    assert final.content[1].model_dump()["input"] == {"path": "b.md"}
    assert turn_status(final, "anthropic") == "truncated"
    results = group.run_tool_calls(final, None)
    assert [(r.call_id, r.fail_reason) for r in results] == [
        ("toolu_1", None),
        ("toolu_2", "truncated"),
    ]
    assert [group.run_tool_call(e.call, None).fail_reason for e in ended] == [None, "truncated"]


def test_a_call_followed_by_text_in_a_cut_turn_is_complete() -> None:
    """A later block proves the call was whole, even if the turn is then cut."""
    raw = [
        start(),
        *tool_block(0, "toolu_1", "ping_host"),
        block(1, {"type": "text", "text": ""}),
        delta(1, type="text_delta", text="Now I"),
        stop(1),
        *end("max_tokens"),
    ]
    _, events = fold(raw)
    assert [type(e).__name__ for e in events if not isinstance(e, TextDelta)] == [
        "ToolCallStarted",
        "ToolCallCompleted",
        "TurnEnded",
    ]


def test_invalid_json_fails_and_replays_in_anthropics_wrapper() -> None:
    """Complete but invalid tool JSON (fine-grained streaming) stays raw text on the call, so
    it fails as invalid JSON; the Message carries it as {"INVALID_JSON": text}."""
    raw = [
        start(),
        *tool_block(0, "toolu_1", "write_file", '{"path": "c.md", "content": }'),
        *end("tool_use"),
    ]
    stream, events = fold(raw)
    completed = [e for e in events if isinstance(e, ToolCallCompleted)]
    assert completed[0].call.input == '{"path": "c.md", "content": }'
    final = stream.final_response()
    assert final.content[0].model_dump()["input"] == {
        "INVALID_JSON": '{"path": "c.md", "content": }'
    }
    (result,) = group.run_tool_calls(final, None)
    assert result.fail_reason == "invalid_arguments"
    replayed: Any = assistant_messages(final, "anthropic")[0]["content"]
    assert replayed[0]["input"] == {"INVALID_JSON": '{"path": "c.md", "content": }'}


def test_a_missing_id_is_synthesized_like_the_adapter_does() -> None:
    """A tool_use without an id gets the id read_response and assistant_messages give."""
    stream, events = fold([start("msg_9"), *tool_block(0, "", "ping_host"), *end("tool_use")])
    started = next(e for e in events if isinstance(e, ToolCallStarted))
    assert (started.call_id, started.synthesized_id) == ("toolwire_msg_9_0", True)
    final = stream.final_response()
    assert [r.call_id for r in group.run_tool_calls(final, None)] == ["toolwire_msg_9_0"]
    replayed: Any = assistant_messages(final, "anthropic")[0]["content"]
    assert replayed[0]["id"] == "toolwire_msg_9_0"


@pytest.mark.parametrize(
    "raw",
    [
        [],
        [start(), *tool_block(0, "toolu_1", "write_file", '{"path": "d.md"')],
        [start(), *tool_block(0, "toolu_1", "ping_host", "{}")],
    ],
    ids=["nothing", "cut-mid-call", "no-message-delta"],
)
def test_a_stream_that_just_stops_has_no_final_response(raw: list[dict[str, Any]]) -> None:
    """Without message_start or message_delta, final_response() says the turn was cut."""
    stream, events = fold(raw)
    assert not any(isinstance(e, ToolCallCompleted | ToolCallTruncated) for e in events)
    with pytest.raises(StreamIncompleteError, match="send the request again|no message_start"):
        stream.final_response()


def test_out_of_order_events_say_what_to_do() -> None:
    """A delta before its block start, or a second message_start, raise clearly."""
    with pytest.raises(Exception, match="before its content_block_start"):
        fold([start(), delta(0, type="text_delta", text="x")])
    with pytest.raises(Exception, match="one ToolCallStream per streamed turn"):
        fold([start(), start()])


def test_beta_streams_fold_to_a_beta_message() -> None:
    """Events from client.beta.messages give a BetaMessage with the same content."""
    stream = ToolCallStream("anthropic")
    for item in THINKING_TURN:
        stream.feed(BETA_EVENTS.validate_python(item))
    final: Any = stream.final_response()
    assert isinstance(final, BetaMessage)
    expected = fold(THINKING_TURN)[0].final_response().model_dump(exclude_none=True)
    assert final.model_dump(exclude_none=True) == expected


def test_previews_follow_a_long_string_argument() -> None:
    """String deltas add up to the file content while it streams in."""
    content = "".join(f"line {i}\n" for i in range(200))
    text = json.dumps({"path": "e.txt", "content": content})
    fragments = [text[i : i + 13] for i in range(0, len(text), 13)]
    _, events = fold(
        [start(), *tool_block(0, "toolu_1", "write_file", *fragments), *end("tool_use")]
    )
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    streamed = "".join(
        d.string_delta.text
        for d in deltas
        if d.string_delta and d.string_delta.path == ("content",)
    )
    assert streamed == content
    assert deltas[-1].partial_arguments == {"path": "e.txt", "content": content}
