"""What OpenAI-compatible servers do to a Chat Completions stream, read from the fragments
themselves with no server named: arguments resent whole or sent as objects, two calls on
one index, names sent late, split or repeated, `finish_reason: ""` on every chunk, and
what the next turn needs back (`extra_content`, `reasoning_details`, content `""`).

Every stream is served as SSE to the real `openai` client; the events and the final
response are what a user's loop gets. `tests/compat` holds the servers' recorded shapes;
these tests pin each rule, its edges, and that normal streams are never misread."""

from __future__ import annotations

import json
from typing import Any

import httpx2
from hypothesis import given, settings
from hypothesis import strategies as st
from openai import OpenAI
from openai.types.chat import ChatCompletion

from tests.strength import scaled
from toolwire.core import (
    BaseFunctionToolModel,
    StreamEvent,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    TurnEnded,
    turn_status,
)

BASE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    city: str
    units: str = "C"

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.city} in {self.units}", None


GROUP = ToolGroup.from_list([get_weather])


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {**BASE, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def call(
    arguments: object = "", *, call_id: str | None = None, name: str | None = None, **extra: Any
) -> dict[str, Any]:
    """A chunk holding one fragment of the call on index 0."""
    function: dict[str, Any] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    fragment: dict[str, Any] = {"index": 0, "function": function, **extra}
    if call_id is not None:
        fragment.update(id=call_id, type="function")
    return chunk({"tool_calls": [fragment]})


def streamed(
    chunks: list[dict[str, Any]],
) -> tuple[list[StreamEvent], ToolCallStream[ChatCompletion]]:
    """`chunks` served as SSE to a real client, each item fed to a `ToolCallStream`."""
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    transport = httpx2.MockTransport(
        lambda _: httpx2.Response(200, text=body, headers={"content-type": "text/event-stream"})
    )
    client = OpenAI(api_key="k", http_client=httpx2.Client(transport=transport), max_retries=0)
    stream = ToolCallStream("chat.completions")
    events: list[StreamEvent] = []
    for item in client.chat.completions.create(model="m", messages=[], stream=True):
        events.extend(stream.feed(item))
    return events, stream


def ended(events: list[StreamEvent]) -> list[tuple[str, str, object]]:
    """(id, name, arguments) of each call reported complete or truncated, in order."""
    return [
        (e.call.id, e.call.name, e.call.input)
        for e in events
        if isinstance(e, ToolCallCompleted | ToolCallTruncated)
    ]


def fragments(events: list[StreamEvent]) -> str:
    return "".join(e.fragment for e in events if isinstance(e, ToolCallArgumentsDelta))


def outcomes(stream: ToolCallStream[ChatCompletion]) -> list[str]:
    return [r.result_content for r in GROUP.run_tool_calls(stream.final_response(), None)]


# -- arguments resent whole ---------------------------------------------------------------


def test_resent_arguments_are_read_as_the_latest_copy_and_previewed_as_they_grow() -> None:
    """DeepSeek's cumulative mode: each fragment is the arguments so far. The first
    fragment whose appending breaks the JSON (while the resend reads) settles it; the
    deltas then carry what each copy adds, so previews and fragments stay right."""
    copies = ['{"city": ', '{"city": "Pa', '{"city": "Paris"', '{"city": "Paris"}']
    events, stream = streamed(
        [call(call_id="call_1", name="get_weather"), *map(call, copies), chunk({}, "tool_calls")]
    )
    assert ended(events) == [("call_1", "get_weather", copies[-1])]
    assert fragments(events) == copies[-1]
    previews = [e.partial_arguments for e in events if isinstance(e, ToolCallArgumentsDelta)]
    assert previews[-1] == {"city": "Paris"}
    assert outcomes(stream) == ["Paris in C"]


def test_a_repeated_copy_adds_nothing() -> None:
    """A resend of the same text (no new characters) is not glued on."""
    copies = ['{"city": "Oslo"}', '{"city": "Oslo"}', '{"city": "Oslo"}']
    events, stream = streamed(
        [call(call_id="call_1", name="get_weather"), *map(call, copies), chunk({}, "tool_calls")]
    )
    assert ended(events) == [("call_1", "get_weather", copies[0])]
    assert outcomes(stream) == ["Oslo in C"]


def test_fragments_that_repeat_the_text_so_far_are_appended_when_that_reads() -> None:
    """A normal fragment may start with everything sent before it (`{"a": ` then
    `{"a": ...`): held back until the JSON shows which reading holds, then appended."""
    pieces = ['{"city": ', '{"city": ', '"x"}, "units": "F"}']
    events, _ = streamed(
        [call(call_id="call_1", name="get_weather"), *map(call, pieces), chunk({}, "tool_calls")]
    )
    assert ended(events) == [("call_1", "get_weather", "".join(pieces))]
    assert fragments(events) == "".join(pieces)


def test_a_cut_turn_never_takes_a_complete_copy_for_its_arguments() -> None:
    """Cut by the length limit while both readings held, the text is taken as sent (and
    answered as truncated), never the last fragment that happens to be complete JSON."""
    pieces = ['{"city": ', '{"city": "Oslo"}']
    events, _ = streamed(
        [call(call_id="call_1", name="get_weather"), *map(call, pieces), chunk({}, "length")]
    )
    assert ended(events) == [("call_1", "get_weather", "".join(pieces))]
    assert isinstance([e for e in events if isinstance(e, ToolCallTruncated)][0], ToolCallTruncated)


def test_a_resend_that_stops_resending_fails_the_call_with_the_text_as_sent() -> None:
    """Once read as resends, a fragment that does not extend the copy before it has no
    reading: nothing is guessed, the call's text is what was sent, and it fails
    validation (one result, never an exception)."""
    pieces = ['{"city": ', '{"city": "Pa', '{"city": "Pari', 'x"}']
    events, stream = streamed(
        [call(call_id="call_1", name="get_weather"), *map(call, pieces), chunk({}, "tool_calls")]
    )
    assert ended(events) == [("call_1", "get_weather", "".join(pieces))]
    results = GROUP.run_tool_calls(stream.final_response(), None)
    assert [r.fail_reason for r in results] == ["invalid_arguments"]


@settings(max_examples=scaled(300))
@given(
    arguments=st.dictionaries(
        st.sampled_from(["a", "city", '{"a": ', "x"]),
        st.recursive(
            st.none() | st.integers() | st.text(alphabet='{}":, ab\\n'),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=3)
            ),
            max_leaves=8,
        ),
        min_size=1,
        max_size=4,
    ),
    cuts=st.lists(st.integers(min_value=1, max_value=60), max_size=12),
)
def test_appended_fragments_are_never_read_as_resends(
    arguments: dict[str, Any], cuts: list[int]
) -> None:
    """Any arguments, cut anywhere (repeating their own beginning as often as the text
    allows): the call is exactly the text sent, and so are its deltas."""
    text = json.dumps(arguments)
    pieces: list[str] = []
    position = 0
    for size in cuts:
        if position >= len(text):
            break
        pieces.append(text[position : position + size])
        position += size
    pieces.append(text[position:])
    events, _ = streamed(
        [call(call_id="call_1", name="get_weather"), *map(call, pieces), chunk({}, "tool_calls")]
    )
    assert ended(events) == [("call_1", "get_weather", text)]
    assert fragments(events) == text


def test_a_call_that_repeats_its_beginning_many_times_is_read_in_linear_time() -> None:
    """While both readings hold, fragments are held back only up to a bound: past it the
    text is taken as sent, so a hostile stream cannot make folding quadratic."""
    pieces = ['{"a": '] * 200 + ["1" + "}" * 200]
    events, _ = streamed(
        [call(call_id="call_1", name="get_weather"), *map(call, pieces), chunk({}, "tool_calls")]
    )
    assert ended(events) == [("call_1", "get_weather", "".join(pieces))]


# -- arguments as objects ------------------------------------------------------------------


def test_object_arguments_are_read_as_their_json_text() -> None:
    """Z.AI and llama.cpp's object mode: an object is the arguments; later objects add
    or replace keys. The call and the final response carry JSON text, as the API's
    types do."""
    events, stream = streamed(
        [
            call({"city": "Paris"}, call_id="call_1", name="get_weather"),
            call({"units": "F"}),
            chunk({}, "tool_calls"),
        ]
    )
    assert ended(events) == [("call_1", "get_weather", '{"city":"Paris","units":"F"}')]
    tool_calls = stream.final_response().choices[0].message.tool_calls or []
    assert [c.function.arguments for c in tool_calls if c.type == "function"] == [
        '{"city":"Paris","units":"F"}'
    ]
    assert outcomes(stream) == ["Paris in F"]


def test_text_and_objects_mixed_fail_the_call_as_sent() -> None:
    """Text then an object has no reading: the call fails validation, with one result."""
    events, stream = streamed(
        [
            call('{"city": ', call_id="call_1", name="get_weather"),
            call({"city": "Paris"}),
            chunk({}, "tool_calls"),
        ]
    )
    assert ended(events) == [("call_1", "get_weather", '{"city": {"city":"Paris"}')]
    results = GROUP.run_tool_calls(stream.final_response(), None)
    assert [r.fail_reason for r in results] == ["invalid_arguments"]


# -- two calls on one index ----------------------------------------------------------------


def test_whole_objects_back_to_back_on_one_index_are_separate_calls() -> None:
    """A gateway sent the second call's arguments on the first call's index, with no id:
    each whole object is a call (the first keeps the id; the next get synthesized ids
    and the same name), reported as they end."""
    events, stream = streamed(
        [
            call("", call_id="call_1", name="get_weather"),
            call('{"city":"Paris"}', name=""),
            call('{"city":"Lyon"}', name=""),
            chunk({}, "tool_calls"),
        ]
    )
    calls = ended(events)
    assert [(c[1], c[2]) for c in calls] == [
        ("get_weather", '{"city":"Paris"}'),
        ("get_weather", '{"city":"Lyon"}'),
    ]
    assert calls[0][0] == "call_1"
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    assert [(e.call_id, e.synthesized_id) for e in started] == [
        ("call_1", False),
        (calls[1][0], True),
    ]
    final = stream.final_response().choices[0].message.tool_calls or []
    assert [c.id for c in final] == [c[0] for c in calls]
    assert outcomes(stream) == ["Paris in C", "Lyon in C"]


def test_one_object_and_broken_text_stays_one_failing_call() -> None:
    """Only whole objects are split: anything else is one call, answered as invalid."""
    events, stream = streamed(
        [
            call('{"city":"Paris"}{"ci', call_id="call_1", name="get_weather"),
            chunk({}, "tool_calls"),
        ]
    )
    assert ended(events) == [("call_1", "get_weather", '{"city":"Paris"}{"ci')]
    results = GROUP.run_tool_calls(stream.final_response(), None)
    assert [r.fail_reason for r in results] == ["invalid_arguments"]


# -- names ---------------------------------------------------------------------------------


def test_names_sent_late_split_repeated_or_resent_whole() -> None:
    """A name after the id, in pieces, the name again on every fragment, or the name
    so far resent: each call ends with its whole name."""
    cases = {
        "late": [call(call_id="c", name=None), call("", name="get_weather")],
        "split": [call(call_id="c", name="get_wea"), call("", name="ther")],
        "repeated": [call(call_id="c", name="get_weather"), call("", name="get_weather")],
        "resent": [call(call_id="c", name="get_wea"), call("", name="get_weather")],
    }
    for label, start in cases.items():
        events, _ = streamed([*start, call('{"city": "Rome"}'), chunk({}, "tool_calls")])
        assert ended(events) == [("c", "get_weather", '{"city": "Rome"}')], label


# -- finish_reason "" ----------------------------------------------------------------------


def test_an_empty_finish_reason_is_no_finish() -> None:
    """Older Ollama and SGLang send `finish_reason: ""` on every chunk: the turn ends
    once, at the real finish reason, with the call whole (issue 24, item 6)."""
    events, stream = streamed(
        [
            call(call_id="c", name="get_weather"),
            *[
                {**call(piece), "choices": [{**call(piece)["choices"][0], "finish_reason": ""}]}
                for piece in ('{"city": ', '"Oslo"}')
            ],
            chunk({"content": ""}, "tool_calls"),
        ]
    )
    assert ended(events) == [("c", "get_weather", '{"city": "Oslo"}')]
    assert [e for e in events if isinstance(e, TurnEnded)] == [events[-1]]
    assert outcomes(stream) == ["Oslo in C"]
    text_events, _ = streamed(
        [chunk({"content": "Hi"}, ""), chunk({"content": " there"}, ""), chunk({}, "stop")]
    )
    assert [type(e) for e in text_events] == [TextDelta, TextDelta, TurnEnded]


# -- what the next turn needs back ---------------------------------------------------------


def test_the_final_response_keeps_what_the_next_turn_needs() -> None:
    """Content `""` (Ollama refuses null back), each call's `extra_content` (Gemini's
    thought signature), and `reasoning_details` merged by index with the signature
    sent last (OpenRouter)."""
    signature = {"google": {"thought_signature": "c2ln"}}
    _, stream = streamed(
        [
            chunk({"role": "assistant", "content": "", "reasoning_details": []}),
            chunk(
                {
                    "reasoning_details": [
                        {"type": "reasoning.text", "text": "Think", "format": "f", "index": 0}
                    ]
                }
            ),
            chunk({"reasoning_details": [{"type": "reasoning.text", "text": "ing.", "index": 0}]}),
            chunk(
                {"reasoning_details": [{"type": "reasoning.text", "signature": "s", "index": 0}]}
            ),
            call('{"city": "Oslo"}', call_id="c", name="get_weather", extra_content=signature),
            chunk({}, "tool_calls"),
        ]
    )
    message = stream.final_response().choices[0].message
    assert message.content == ""
    assert message.model_dump(exclude_unset=True)["reasoning_details"] == [
        {"type": "reasoning.text", "text": "Thinking.", "format": "f", "index": 0, "signature": "s"}
    ]
    calls = message.model_dump(exclude_unset=True)["tool_calls"]
    assert calls[0]["extra_content"] == signature


def test_a_streamed_answer_holding_a_call_in_its_text_is_not_done() -> None:
    """A call written in the text (Hermes format, tool parser off) ends the stream with
    status "calls_in_text", as `turn_status` says of the final response."""
    text = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>'
    events, stream = streamed(
        [chunk({"role": "assistant", "content": text[:30]}), chunk({"content": text[30:]}, "stop")]
    )
    assert [e.status for e in events if isinstance(e, TurnEnded)] == ["calls_in_text"]
    assert turn_status(stream.final_response(), "chat.completions") == "calls_in_text"
