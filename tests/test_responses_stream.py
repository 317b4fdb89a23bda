"""`ToolCallStream("responses")` on the SDK's own stream events: live events, the final
`Response`, truncated and cut streams."""

from __future__ import annotations

from typing import Any

import pytest
from inline_snapshot import snapshot
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter

from tests.helpers import get_weather
from tests.test_responses_support import (
    custom_call,
    function_call,
    message,
    reasoning,
    response_json,
    sdk_events,
    sse_text,
)
from toolwire._read import read_calls
from toolwire.core import (
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
)
from toolwire.exceptions import StreamIncompleteError
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply

GROUP = ToolGroup[None, None].from_list([get_weather])
TOOLS = GROUP.tool_definitions("responses")


def _feed(stream: ToolCallStream[Response], text: str) -> list[StreamEvent]:
    return [event for item in sdk_events(text) for event in stream.feed(item)]


def _summary(events: list[StreamEvent]) -> list[tuple[Any, ...]]:
    """Events without the delta noise: kind and the fields a loop reads."""
    shown: list[tuple[Any, ...]] = []
    for event in events:
        if isinstance(event, ToolCallStarted):
            shown.append(("started", event.index, event.provider_index, event.call_id, event.name))
        elif isinstance(event, ToolCallCompleted | ToolCallTruncated):
            kind = "completed" if isinstance(event, ToolCallCompleted) else "truncated"
            shown.append((kind, event.index, event.call.id, event.call.input))
        elif isinstance(event, TurnEnded):
            shown.append(("ended", event.stop_reason, event.status))
    return shown


def _fake_stream(*replies: FakeReply, tools: list[Any] | None = None) -> Any:
    client = FakeOpenAI(script=replies).client()
    return client.responses.create(model="m", input="Go.", tools=tools or TOOLS, stream=True)


def test_fake_stream_events_and_final_response() -> None:
    """A streamed turn gives start, argument deltas, completion and the turn end; its
    final response equals the non-streamed one."""
    reply = FakeReply(
        text="Checking.",
        thinking="The user wants weather.",
        calls=(FakeCall("get_weather", {"city": "Paris"}),),
    )
    stream = ToolCallStream("responses")
    events = [e for item in _fake_stream(reply) for e in stream.feed(item)]
    assert _summary(events) == snapshot(
        [
            ("started", 0, 2, "call_4", "get_weather"),
            ("completed", 0, "call_4", '{"city": "Paris"}'),
            ("ended", "completed", "tool_calls"),
        ]
    )
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Checking."
    thinking = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    assert thinking == "The user wants weather."
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    assert "".join(d.fragment for d in deltas) == '{"city": "Paris"}'
    assert deltas[-1].partial_arguments == {"city": "Paris"}

    final = stream.final_response()
    plain = (
        FakeOpenAI(script=[reply]).client().responses.create(model="m", input="Go.", tools=TOOLS)
    )
    assert final.model_dump(exclude={"usage"}) == plain.model_dump(exclude={"usage"})
    assert stream.completed_calls == [e.call for e in events if isinstance(e, ToolCallCompleted)]
    [result] = GROUP.run_tool_calls(final, None)
    assert result.result_content == "Sunny in Paris."


def test_preview_grows_while_arguments_stream() -> None:
    """Each arguments delta carries the decoded string text and a growing preview."""
    city = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch"
    stream = ToolCallStream("responses")
    events = [
        e
        for item in _fake_stream(FakeReply.tool_calls(("get_weather", {"city": city})))
        for e in stream.feed(item)
    ]
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    assert len(deltas) > 2
    streamed = "".join(d.string_delta.text for d in deltas if d.string_delta is not None)
    assert streamed == city
    assert deltas[-1].partial_arguments == {"city": city}


def test_custom_call_streams_and_completes_at_the_turn_end() -> None:
    """A custom call (no status on its item) completes when the turn ends normally."""

    tools: list[Any] = [{"type": "custom", "name": "run_sql", "description": "SQL"}]
    stream = ToolCallStream("responses")
    events = [
        e
        for item in _fake_stream(FakeReply.tool_calls(("run_sql", "SELECT 1")), tools=tools)
        for e in stream.feed(item)
    ]
    assert _summary(events) == [
        ("started", 0, 0, "call_2", "run_sql"),
        ("completed", 0, "call_2", "SELECT 1"),
        ("ended", "completed", "tool_calls"),
    ]
    assert [c.type for c in stream.completed_calls] == ["custom"]


def test_length_cut_stream_truncates_the_cut_call() -> None:
    """With max_output_tokens, the cut call is reported truncated, the whole one
    completed, and the final response answers the cut one with a truncated failure."""
    reply = FakeReply(
        calls=(FakeCall("get_weather", {"city": "Oslo"}), FakeCall("get_weather", '{"city": "Be')),
        stop="length",
    )
    stream = ToolCallStream("responses")
    events = [e for item in _fake_stream(reply) for e in stream.feed(item)]
    assert _summary(events) == snapshot(
        [
            ("started", 0, 0, "call_2", "get_weather"),
            ("completed", 0, "call_2", '{"city": "Oslo"}'),
            ("started", 1, 1, "call_3", "get_weather"),
            ("truncated", 1, "call_3", '{"city": "Be'),
            ("ended", "incomplete", "truncated"),
        ]
    )
    results = GROUP.run_tool_calls(stream.final_response(), None)
    assert [r.fail_reason for r in results] == [None, "truncated"]


def test_custom_call_last_in_a_cut_stream_is_truncated() -> None:
    """A status-less custom call that is the last item of an incomplete turn was cut."""
    body = response_json(custom_call(), status="incomplete", reason="max_output_tokens")
    text = sse_text(
        [
            {"type": "response.created", "response": {**body, "status": "in_progress", "output": []}},
            {"type": "response.output_item.added", "output_index": 0, "item": {**custom_call(), "input": ""}},
            {"type": "response.custom_tool_call_input.delta", "output_index": 0, "item_id": "ctc_1", "delta": "SELECT 1"},
            {"type": "response.output_item.done", "output_index": 0, "item": custom_call()},
            {"type": "response.incomplete", "response": body},
        ]
    )  # fmt: skip
    stream = ToolCallStream("responses")
    assert _summary(_feed(stream, text)) == [
        ("started", 0, 0, "call_c", "run_sql"),
        ("truncated", 0, "call_c", "SELECT 1"),
        ("ended", "incomplete", "truncated"),
    ]


def test_status_less_call_completes_when_the_next_item_starts() -> None:
    """A custom call followed by another item was whole: it completes right then."""
    body = response_json(custom_call(), message())
    text = sse_text(
        [
            {"type": "response.created", "response": {**body, "status": "in_progress", "output": []}},
            {"type": "response.output_item.added", "output_index": 0, "item": {**custom_call(), "input": ""}},
            {"type": "response.output_item.done", "output_index": 0, "item": custom_call()},
            {"type": "response.output_item.added", "output_index": 1, "item": {**message(), "content": [], "status": "in_progress"}},
        ]
    )  # fmt: skip
    stream = ToolCallStream("responses")
    assert _summary(_feed(stream, text)) == [
        ("started", 0, 0, "call_c", "run_sql"),
        ("completed", 0, "call_c", "SELECT 1"),
    ]


def test_cut_stream_has_no_final_response() -> None:
    """A stream without a terminal event was cut: no completion for the open call, and
    final_response() says so."""
    text = sse_text(
        [
            {"type": "response.created", "response": {**response_json(), "status": "in_progress"}},
            {"type": "response.output_item.added", "output_index": 0, "item": {**function_call(), "arguments": "", "status": "in_progress"}},
            {"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": '{"city": "Pa'},
        ]
    )  # fmt: skip
    stream = ToolCallStream("responses")
    events = _feed(stream, text)
    assert [type(e).__name__ for e in events] == ["ToolCallStarted", "ToolCallArgumentsDelta"]
    assert stream.completed_calls == []
    with pytest.raises(StreamIncompleteError, match="cut off"):
        stream.final_response()


def test_error_event_is_named_when_the_stream_ends() -> None:
    """An `error` event is yielded, not raised; final_response() reports it."""
    text = sse_text(
        [
            {"type": "response.created", "response": {**response_json(), "status": "in_progress"}},
            {"type": "error", "code": "server_error", "message": "Something broke.", "param": None},
        ]
    )
    stream = ToolCallStream("responses")
    assert _feed(stream, text) == []
    with pytest.raises(StreamIncompleteError, match=r"server_error: Something broke\."):
        stream.final_response()


def _done_events(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"type": "response.output_item.done", "output_index": i, "item": item}
        for i, item in enumerate(items)
    ]


@pytest.mark.parametrize("empty", [None, []])
def test_empty_terminal_output_is_backfilled(empty: list[Any] | None) -> None:
    """Backends that send `output: null` or `[]` at the end still give the calls."""
    items = (reasoning(), function_call())
    text = sse_text(
        [*_done_events(*items), {"type": "response.completed", "response": {**response_json(), "output": empty}}]
    )  # fmt: skip
    stream = ToolCallStream("responses")
    assert _summary(_feed(stream, text)) == [
        ("started", 0, 1, "call_1", "get_weather"),
        ("completed", 0, "call_1", '{"city": "Paris"}'),
        ("ended", "completed", "tool_calls"),
    ]
    final = stream.final_response()
    assert [item.type for item in final.output] == ["reasoning", "function_call"]
    assert GROUP.run_tool_calls(final, None)[0].call_id == "call_1"


def test_reasoning_items_come_from_output_item_done() -> None:
    """The final response carries the `output_item.done` copy of each reasoning item
    (its encrypted_content is the one the API accepts back)."""
    done_copy = reasoning(encrypted="enc-from-done")
    text = sse_text(
        [
            *_done_events(done_copy, function_call()),
            {"type": "response.completed", "response": response_json(reasoning(encrypted="enc-other"), function_call())},
        ]
    )  # fmt: skip
    stream = ToolCallStream("responses")
    _feed(stream, text)
    replayed = assistant_messages(stream.final_response(), "responses")
    assert dict(replayed[0])["encrypted_content"] == "enc-from-done"


def test_whole_call_in_output_item_done_only() -> None:
    """A call seen only at output_item.done still starts, shows its arguments as one
    delta, and completes."""
    text = sse_text(
        [*_done_events(function_call()), {"type": "response.completed", "response": response_json(function_call())}]
    )  # fmt: skip
    stream = ToolCallStream("responses")
    events = _feed(stream, text)
    assert _summary(events) == [
        ("started", 0, 0, "call_1", "get_weather"),
        ("completed", 0, "call_1", '{"city": "Paris"}'),
        ("ended", "completed", "tool_calls"),
    ]
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    assert [(d.fragment, d.partial_arguments) for d in deltas] == [
        ('{"city": "Paris"}', {"city": "Paris"})
    ]


def test_failed_stream_truncates_unfinished_calls() -> None:
    """response.failed ends the turn; a call that never got output_item.done is truncated."""
    failed = {**response_json(status="failed"), "error": {"code": "server_error", "message": "x"}}
    text = sse_text(
        [
            {"type": "response.output_item.added", "output_index": 0, "item": {**function_call(), "arguments": "", "status": "in_progress"}},
            {"type": "response.failed", "response": failed},
        ]
    )  # fmt: skip
    stream = ToolCallStream("responses")
    assert _summary(_feed(stream, text)) == [
        ("started", 0, 0, "call_1", "get_weather"),
        ("truncated", 0, "call_1", ""),
        ("ended", "failed", "truncated"),
    ]
    assert stream.final_response().status == "failed"


def test_calls_only_in_the_terminal_event_are_reported() -> None:
    """A call the stream never announced is started and ended before TurnEnded, as the
    final response's rule treats it (the cut last custom call is truncated)."""
    body = response_json(
        function_call(), custom_call(), status="incomplete", reason="max_output_tokens"
    )
    stream = ToolCallStream("responses")
    assert _summary(
        _feed(stream, sse_text([{"type": "response.incomplete", "response": body}]))
    ) == [
        ("started", 0, 0, "call_1", "get_weather"),
        ("completed", 0, "call_1", '{"city": "Paris"}'),
        ("started", 1, 1, "call_c", "run_sql"),
        ("truncated", 1, "call_c", "SELECT 1"),
        ("ended", "incomplete", "truncated"),
    ]
    assert stream.completed_calls == read_calls(stream.final_response())


def test_status_less_call_settles_at_a_later_item_done() -> None:
    """A later item's output_item.done (without its added event) also settles it."""
    text = sse_text(_done_events(custom_call(), message()))
    stream = ToolCallStream("responses")
    assert _summary(_feed(stream, text)) == [
        ("started", 0, 0, "call_c", "run_sql"),
        ("completed", 0, "call_c", "SELECT 1"),
    ]


def test_a_renumbered_final_output_reports_each_call_once() -> None:
    """A proxy dropped the reasoning item from the terminal response, so the call's
    output_index (1) is not its position there (0): it is still one call, reported
    once (calls are matched by item id and call id, not by position)."""
    call = function_call()
    added = {**call, "arguments": "", "status": "in_progress"}
    text = sse_text(
        [
            {"type": "response.created", "response": response_json(status="in_progress")},
            {"type": "response.output_item.added", "output_index": 0, "item": reasoning()},
            {"type": "response.output_item.done", "output_index": 0, "item": reasoning()},
            {"type": "response.output_item.added", "output_index": 1, "item": added},
            {
                "type": "response.function_call_arguments.delta",
                "output_index": 1,
                "item_id": "fc_1",
                "delta": call["arguments"],
            },  # fmt: skip
            {"type": "response.output_item.done", "output_index": 1, "item": call},
            {"type": "response.completed", "response": response_json(call)},
        ]
    )
    stream = ToolCallStream("responses")
    events = _feed(stream, text)
    assert _summary(events) == [
        ("started", 0, 1, "call_1", "get_weather"),
        ("completed", 0, "call_1", '{"city": "Paris"}'),
        ("ended", "completed", "tool_calls"),
    ]
    results = GROUP.run_tool_calls(stream.final_response(), None)
    assert [r.call_id for r in results] == ["call_1"]


def _streamed_without_item_done(call: dict[str, Any], terminal: dict[str, Any]) -> str:
    """A call announced and streamed, then the terminal event, with no output_item.done
    in between (some backends skip it)."""
    added = {**call, "arguments": "", "status": "in_progress"}
    return sse_text(
        [
            {"type": "response.output_item.added", "output_index": 0, "item": added},
            {"type": "response.function_call_arguments.delta", "output_index": 0,
             "item_id": call["id"], "delta": call["arguments"][:7]},
            {"type": "response.function_call_arguments.done", "output_index": 0,
             "item_id": call["id"], "arguments": call["arguments"]},
            terminal,
        ]
    )  # fmt: skip


def test_terminal_copy_settles_a_call_without_item_done() -> None:
    """The terminal response's copy of the call settles it: complete, with its final
    arguments, exactly as dispatching the final response runs it."""
    call = function_call()
    text = _streamed_without_item_done(
        call, {"type": "response.completed", "response": response_json(call)}
    )
    stream = ToolCallStream("responses")
    assert _summary(_feed(stream, text)) == [
        ("started", 0, 0, "call_1", "get_weather"),
        ("completed", 0, "call_1", '{"city": "Paris"}'),
        ("ended", "completed", "tool_calls"),
    ]
    final = stream.final_response()
    assert stream.completed_calls == read_calls(final)
    assert [r.result_content for r in GROUP.run_tool_calls(final, None)] == ["Sunny in Paris."]


def test_terminal_copy_of_an_incomplete_call_truncates_it() -> None:
    """The same rule when the terminal copy says the call was cut."""
    call = function_call(arguments='{"city": "Pa', status="incomplete")
    body = response_json(call, status="incomplete", reason="max_output_tokens")
    text = _streamed_without_item_done(call, {"type": "response.incomplete", "response": body})
    stream = ToolCallStream("responses")
    assert _summary(_feed(stream, text)) == [
        ("started", 0, 0, "call_1", "get_weather"),
        ("truncated", 0, "call_1", '{"city": "Pa'),
        ("ended", "incomplete", "truncated"),
    ]
    assert stream.completed_calls == read_calls(stream.final_response())


EVENTS: TypeAdapter[ResponseStreamEvent] = TypeAdapter(ResponseStreamEvent)

LATE = [
    pytest.param({"call_id": ""}, True, id="a call_id, in output_item.done"),
    pytest.param({"call_id": ""}, False, id="a call_id, in the terminal response"),
    pytest.param({"name": ""}, True, id="a name, in output_item.done"),
    pytest.param({"name": ""}, False, id="a name, in the terminal response"),
    pytest.param({"call_id": "", "id": None}, True, id="a call_id, the item without an id"),
]


@pytest.mark.parametrize(("blank", "item_done"), LATE)
def test_a_call_id_or_name_only_the_final_copy_carries_is_taken_from_it(
    blank: dict[str, Any], item_done: bool
) -> None:
    """A backend sent the call's item without its `call_id` or name at the start, and
    whole in `output_item.done` (or only in the terminal response): the start is
    reported with a synthesized id (or no name), the completed call with the id and name
    the final response holds, which is what `read_calls` reads from it."""
    call = function_call()
    if blank.get("id", "fc_1") is None:
        call["id"] = None
    added = {**call, **blank, "arguments": "", "status": "in_progress"}
    raw = [
        {"type": "response.created", "response": response_json(status="in_progress")},
        {"type": "response.output_item.added", "output_index": 0, "item": added},
        {"type": "response.function_call_arguments.delta", "output_index": 0,
         "item_id": call["id"] or "", "delta": call["arguments"]},
        *([{"type": "response.output_item.done", "output_index": 0, "item": call}] * item_done),
        {"type": "response.completed", "response": response_json(call)},
    ]  # fmt: skip
    stream = ToolCallStream("responses")
    events = [
        event
        for n, data in enumerate(raw)
        for event in stream.feed(EVENTS.validate_python({**data, "sequence_number": n}))
    ]

    final = stream.final_response()
    assert final == Response.model_validate(response_json(call))
    completed = StandardToolCall("function", "call_1", "get_weather", '{"city": "Paris"}')
    assert stream.completed_calls == read_calls(final) == [completed]
    synthesized = "call_id" in blank
    started_id = "toolwire_resp_1_0" if synthesized else "call_1"
    started_name = "" if "name" in blank else "get_weather"
    assert [e for e in events if not isinstance(e, ToolCallArgumentsDelta)] == [
        ToolCallStarted(0, 0, started_id, started_name, synthesized),
        ToolCallCompleted(0, 0, completed),
        TurnEnded("completed", "tool_calls"),
    ]
