"""`ToolCallStream("chat.completions")` against the non-streamed response of the same
turn, both read by the real OpenAI client over SSE and JSON: `final_response()` equals
what the SDK returns without `stream=True` (values outside the SDK's types, reasoning
fields, a legacy `function_call`, every chunk's logprobs, `n > 1`), and the events say
what the README promises (choice 0 only, custom input as argument deltas, one
`TurnEnded`)."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from openai import OpenAI
from openai.types.chat import ChatCompletion

from tests.helpers import get_weather
from toolwire.core import (
    ReasoningDelta,
    StandardToolCall,
    StreamEvent,
    StringDelta,
    TextDelta,
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    ToolGroup,
    TurnEnded,
    assistant_messages,
    turn_status,
)

HEADER = {"id": "chatcmpl-1", "created": 1, "model": "m"}


def client(body: str, content_type: str) -> OpenAI:
    transport = httpx2.MockTransport(
        lambda _: httpx2.Response(200, text=body, headers={"content-type": content_type})
    )
    return OpenAI(api_key="k", http_client=httpx2.Client(transport=transport), max_retries=0)


def streamed(
    chunks: list[dict[str, Any]], header: dict[str, Any] = HEADER
) -> tuple[ToolCallStream[ChatCompletion], list[StreamEvent]]:
    """Serve the chunks (each with `header`) as SSE and feed what the SDK yields."""
    body = "".join(
        f"data: {json.dumps({**header, 'object': 'chat.completion.chunk', **c})}\n\n"
        for c in chunks
    )
    sse = client(body + "data: [DONE]\n\n", "text/event-stream")
    stream = ToolCallStream("chat.completions")
    events: list[StreamEvent] = []
    for item in sse.chat.completions.create(model="m", messages=[], stream=True):
        events.extend(stream.feed(item))
    return stream, events


def non_streamed(
    choices: list[dict[str, Any]], header: dict[str, Any] = HEADER, **top: Any
) -> ChatCompletion:
    """The same turn as the SDK returns it without `stream=True`."""
    body = {**header, "object": "chat.completion", **top, "choices": choices}
    return client(json.dumps(body), "application/json").chat.completions.create(
        model="m", messages=[]
    )


def delta(content: dict[str, Any], finish: str | None = None, index: int = 0) -> dict[str, Any]:
    return {"index": index, "delta": content, "finish_reason": finish}


def choice(message: dict[str, Any], finish: str, index: int = 0, **more: Any) -> dict[str, Any]:
    return {
        "index": index,
        "message": {"role": "assistant", **message},
        "finish_reason": finish,
        "logprobs": None,
        **more,
    }


def call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def fragment(index: int, arguments: str, call_id: str | None = None) -> dict[str, Any]:
    """A tool-call fragment; the first one of a call (with its id) names get_weather."""
    if call_id is None:
        return {"index": index, "function": {"arguments": arguments}}
    return {"index": index, **call(call_id, "get_weather", arguments)}


def shown(events: list[StreamEvent]) -> list[object]:
    """The events, an argument delta as its fields (its preview object compares as any)."""
    return [
        (e.index, e.provider_index, e.call_id, e.name, e.fragment, e.string_delta)
        if isinstance(e, ToolCallArgumentsDelta)
        else e
        for e in events
    ]


group = ToolGroup.from_list([get_weather])

ARGUMENTS = '{"city": "Oslo"}'
CALL_TURN = [
    {"choices": [delta({"role": "assistant", "content": "Checking."})]},
    {"choices": [delta({"tool_calls": [fragment(0, "", "call_a")]})]},
    {"choices": [delta({"tool_calls": [fragment(0, ARGUMENTS)]})]},
]


@pytest.mark.parametrize(
    ("finish", "header", "usage"),
    [
        ("tool_calls", {**HEADER, "service_tier": "on_demand"}, None),  # Groq
        ("eos", HEADER, None),
        ("model_length", HEADER, None),  # Mistral
        ("tool_calls", {"id": "chatcmpl-1", "model": "m"}, None),  # no `created`
        ("tool_calls", HEADER, {"prompt_tokens": None, "completion_tokens": 2, "total_tokens": 2}),
    ],
    ids=["service_tier", "finish-eos", "finish-model_length", "no-created", "null-usage"],
)
def test_values_outside_the_sdk_types_are_kept_as_the_sdk_keeps_them(
    finish: str, header: dict[str, Any], usage: dict[str, Any] | None
) -> None:
    """The SDK parses these leniently, streamed or not: final_response() equals the
    non-streamed response instead of raising a pydantic ValidationError."""
    chunks: list[dict[str, Any]] = [*CALL_TURN, {"choices": [delta({}, finish)]}]
    usage_part = {} if usage is None else {"usage": usage}
    if usage is not None:
        chunks.append({"choices": [], **usage_part})  # the include_usage chunk
    stream, events = streamed(chunks, header)
    message = {"content": "Checking.", "tool_calls": [call("call_a", "get_weather", ARGUMENTS)]}
    plain = non_streamed([choice(message, finish)], header, **usage_part)
    final = stream.final_response()
    assert final == plain
    assert events[-1] == TurnEnded(finish, "tool_calls")
    assert [r.result_content for r in group.run_tool_calls(final, None)] == ["Sunny in Oslo."]


def test_with_n_2_choice_0_drives_the_events_and_completed_calls() -> None:
    """A call of choice 1 arriving between two calls of choice 0 neither shifts their
    `index` (the position run_tool_calls answers them at) nor shows in completed_calls;
    the final response still holds both choices whole."""
    start_a = {"role": "assistant", "tool_calls": [fragment(0, '{"city": "A"}', "A")]}
    start_z = {"role": "assistant", "tool_calls": [fragment(0, '{"city": "Z"}', "Z")]}
    stream, events = streamed(
        [
            {"choices": [delta(start_a), delta(start_z, index=1)]},
            {"choices": [delta({"tool_calls": [fragment(1, '{"city": "B"}', "B")]})]},
            {"choices": [delta({}, "tool_calls"), delta({}, "tool_calls", index=1)]},
        ]
    )
    call_a = StandardToolCall("function", "A", "get_weather", '{"city": "A"}')
    call_b = StandardToolCall("function", "B", "get_weather", '{"city": "B"}')
    assert shown(events) == [
        ToolCallStarted(0, 0, "A", "get_weather", False),
        (0, 0, "A", "get_weather", '{"city": "A"}', StringDelta(("city",), "A")),
        ToolCallCompleted(0, 0, call_a),
        ToolCallStarted(1, 1, "B", "get_weather", False),
        (1, 1, "B", "get_weather", '{"city": "B"}', StringDelta(("city",), "B")),
        ToolCallCompleted(1, 1, call_b),
        TurnEnded("tool_calls", "tool_calls"),
    ]
    assert stream.completed_calls == [call_a, call_b]
    final = stream.final_response()
    assert final == non_streamed(
        [
            choice(
                {
                    "content": None,
                    "tool_calls": [
                        call("A", "get_weather", '{"city": "A"}'),
                        call("B", "get_weather", '{"city": "B"}'),
                    ],
                },
                "tool_calls",
            ),
            choice(
                {"content": None, "tool_calls": [call("Z", "get_weather", '{"city": "Z"}')]},
                "tool_calls",
                index=1,
            ),
        ]
    )
    results = group.run_tool_calls(final, None)
    assert [(i, r.call_id) for i, r in enumerate(results)] == [(0, "A"), (1, "B")]


@pytest.mark.parametrize(
    "names",
    [("reasoning_content",), ("reasoning",), ("reasoning_content", "reasoning")],
    ids=["reasoning_content", "reasoning", "both"],
)
def test_reasoning_is_kept_under_the_servers_field_name(names: tuple[str, ...]) -> None:
    """DeepSeek and vLLM send `reasoning_content`, OpenRouter and newer vLLM `reasoning`
    (some both): the final message keeps it where the non-streamed one has it, an extra
    field, and the events report it once."""
    stream, events = streamed(
        [
            {"choices": [delta({"role": "assistant", **dict.fromkeys(names, "Let me ")})]},
            {"choices": [delta(dict.fromkeys(names, "think."))]},
            {"choices": [delta({"content": "Answer"})]},
            {"choices": [delta({}, "stop")]},
        ]
    )
    assert events == [
        ReasoningDelta("Let me "),
        ReasoningDelta("think."),
        TextDelta("Answer"),
        TurnEnded("stop", "done"),
    ]
    final = stream.final_response()
    reasoning = dict.fromkeys(names, "Let me think.")
    plain = non_streamed([choice({"content": "Answer", **reasoning}, "stop")])
    assert final == plain
    assert final.choices[0].message.model_extra == reasoning
    api = "chat.completions"
    assert turn_status(final, api) == turn_status(plain, api)
    assert assistant_messages(final, api) == assistant_messages(plain, api)


def test_a_legacy_function_call_is_kept_and_not_dispatched() -> None:
    """`delta.function_call` fragments (the deprecated functions API) fold into the
    message's `function_call`, so turn_status says "tool_calls" and assistant_messages
    replays it, as for the non-streamed response; like that one, it is not dispatched,
    so it has no call events."""
    stream, events = streamed(
        [
            {
                "choices": [
                    delta(
                        {
                            "role": "assistant",
                            "content": None,
                            "function_call": {"name": "get_weather", "arguments": ""},
                        }
                    )
                ]
            },
            {"choices": [delta({"function_call": {"arguments": '{"city": '}})]},
            {"choices": [delta({"function_call": {"arguments": '"Oslo"}'}})]},
            {"choices": [delta({}, "function_call")]},
        ]
    )
    assert events == [TurnEnded("function_call", "tool_calls")]
    assert stream.completed_calls == []
    final = stream.final_response()
    function_call = {"name": "get_weather", "arguments": ARGUMENTS}
    message = {"content": None, "function_call": function_call}
    plain = non_streamed([choice(message, "function_call")])
    assert final == plain
    api = "chat.completions"
    assert turn_status(final, api) == turn_status(plain, api) == "tool_calls"
    assert assistant_messages(final, api) == assistant_messages(plain, api)
    assert group.run_tool_calls(final, None) == group.run_tool_calls(plain, None) == []


def test_custom_call_input_streams_as_argument_deltas() -> None:
    """A custom tool call's input fragments are ToolCallArgumentsDelta events, the free
    text as is (no string_delta: it is not JSON), as on Responses."""
    custom = {"index": 0, "id": "c1", "type": "custom", "custom": {"name": "sql", "input": ""}}
    stream, events = streamed(
        [
            {"choices": [delta({"role": "assistant", "tool_calls": [custom]})]},
            {"choices": [delta({"tool_calls": [{"index": 0, "custom": {"input": "SELECT "}}]})]},
            {"choices": [delta({"tool_calls": [{"index": 0, "custom": {"input": "1"}}]})]},
            {"choices": [delta({}, "tool_calls")]},
        ]
    )
    assert shown(events) == [
        ToolCallStarted(0, 0, "c1", "sql", False),
        (0, 0, "c1", "sql", "SELECT ", None),
        (0, 0, "c1", "sql", "1", None),
        ToolCallCompleted(0, 0, StandardToolCall("custom", "c1", "sql", "SELECT 1")),
        TurnEnded("tool_calls", "tool_calls"),
    ]
    tool_call = {"id": "c1", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}}
    plain = non_streamed([choice({"content": None, "tool_calls": [tool_call]}, "tool_calls")])
    assert stream.final_response() == plain


def test_a_repeated_finish_reason_ends_the_turn_once() -> None:
    """A server that repeats finish_reason on the trailing usage chunk: one TurnEnded,
    the last event of the turn."""
    usage = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
    stream, events = streamed(
        [
            *CALL_TURN,
            {"choices": [delta({}, "tool_calls")]},
            {"choices": [delta({"content": ""}, "tool_calls")], "usage": usage},
        ]
    )
    call_a = StandardToolCall("function", "call_a", "get_weather", ARGUMENTS)
    assert shown(events) == [
        TextDelta("Checking."),
        ToolCallStarted(0, 0, "call_a", "get_weather", False),
        (0, 0, "call_a", "get_weather", ARGUMENTS, StringDelta(("city",), "Oslo")),
        ToolCallCompleted(0, 0, call_a),
        TurnEnded("tool_calls", "tool_calls"),
    ]
    message = {"content": "Checking.", "tool_calls": [call("call_a", "get_weather", ARGUMENTS)]}
    assert stream.final_response() == non_streamed([choice(message, "tool_calls")], usage=usage)


def with_logprobs(choice_delta: dict[str, Any], *tokens: str) -> dict[str, Any]:
    """A choice delta carrying the logprobs of its tokens, as `logprobs=True` streams it."""
    content = [
        {"token": t, "logprob": -0.5, "bytes": list(t.encode()), "top_logprobs": []} for t in tokens
    ]
    return {**choice_delta, "logprobs": {"content": content, "refusal": None}}


def test_the_logprobs_of_every_chunk_are_kept() -> None:
    """Each chunk carries the logprobs of its own tokens: the final response has all of
    them, in order, as the non-streamed one does (not only the last chunk's)."""
    stream, _ = streamed(
        [
            {"choices": [with_logprobs(delta({"role": "assistant", "content": "Hel"}), "Hel")]},
            {"choices": [with_logprobs(delta({"content": "lo"}), "lo")]},
            {"choices": [delta({}, "stop")]},
        ]
    )
    logprobs = with_logprobs({}, "Hel", "lo")["logprobs"]
    plain = non_streamed([choice({"content": "Hello"}, "stop", logprobs=logprobs)])
    assert stream.final_response() == plain
