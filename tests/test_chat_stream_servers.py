"""Chat Completions streams as OpenAI-compatible servers send them, through the real SDK
client over SSE: parallel calls that all say `index` 0 (Gemini's OpenAI endpoint, SGLang)
or no `index` (Ollama behind proxies) are never glued into one call; chunks in an order
no server should send raise `StreamOrderError` saying what arrived, never a bare
`KeyError` or `AssertionError`."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from openai import OpenAI

from tests.helpers import get_time, get_weather
from toolwire.core import (
    StreamEvent,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    ToolGroup,
)
from toolwire.exceptions import StreamOrderError

BASE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {**BASE, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def fragment(index: int | None, call_id: str | None, name: str | None, arguments: str) -> dict[str, Any]:  # fmt: skip
    tool_call: dict[str, Any] = {"function": {"arguments": arguments}}
    if index is not None:
        tool_call["index"] = index
    if call_id is not None:
        tool_call |= {"id": call_id, "type": "function"}
        tool_call["function"]["name"] = name
    return chunk({"tool_calls": [tool_call]})


def stream_through_sdk(chunks: list[dict[str, Any]]) -> tuple[ToolCallStream[Any], list[StreamEvent]]:  # fmt: skip
    """Serve `chunks` as SSE to a real OpenAI client and feed what it yields."""
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    transport = httpx2.MockTransport(
        lambda _: httpx2.Response(200, text=body, headers={"content-type": "text/event-stream"})
    )
    client = OpenAI(api_key="k", http_client=httpx2.Client(transport=transport))
    stream = ToolCallStream("chat.completions")
    events: list[StreamEvent] = []
    for item in client.chat.completions.create(model="m", messages=[], stream=True):
        events.extend(stream.feed(item))
    return stream, events


group = ToolGroup.from_list([get_weather, get_time])


@pytest.mark.parametrize("index", [0, None], ids=["all-index-0", "no-index"])
def test_parallel_calls_sharing_one_index_stay_apart(index: int | None) -> None:
    """A new id (with a name) starts a new call: never '{"city": "Paris"}{"tz": "JST"}'."""
    stream, events = stream_through_sdk(
        [
            fragment(index, "call_a", "get_weather", ""),
            fragment(index, None, None, '{"city": '),
            fragment(index, None, None, '"Paris"}'),
            fragment(index, "call_b", "get_time", '{"tz": "JST"}'),
            chunk({}, finish="tool_calls"),
        ]
    )
    started = [(e.index, e.call_id, e.name) for e in events if isinstance(e, ToolCallStarted)]
    assert started == [(0, "call_a", "get_weather"), (1, "call_b", "get_time")]
    completed = [e.call.input for e in events if isinstance(e, ToolCallCompleted)]
    assert completed == ['{"city": "Paris"}', '{"tz": "JST"}']
    results = group.run_tool_calls(stream.final_response(), None)
    assert [(r.call_id, r.result_content) for r in results] == [
        ("call_a", "Sunny in Paris."),
        ("call_b", "Noon in JST."),
    ]


def test_a_repeated_id_continues_its_call() -> None:
    """Servers that repeat the id (and name) on every fragment still make one call."""
    stream, _ = stream_through_sdk(
        [
            fragment(0, "call_a", "get_weather", '{"city": '),
            fragment(0, "call_a", "get_weather", '"Oslo"}'),
            chunk({}, finish="tool_calls"),
        ]
    )
    assert [r.result_content for r in group.run_tool_calls(stream.final_response(), None)] == [
        "Sunny in Oslo."
    ]


def test_interleaved_fragments_raise_what_arrived() -> None:
    with pytest.raises(StreamOrderError) as raised:
        stream_through_sdk(
            [
                fragment(0, "call_a", "get_weather", '{"city": '),
                fragment(1, "call_b", "get_time", '{"tz": "JST"}'),
                fragment(0, None, None, '"Paris"}'),
            ]
        )
    assert str(raised.value).startswith(
        "A fragment for tool call 0 ('get_weather', id 'call_a') of choice 0 arrived after "
        "the next call started"
    )


def test_a_call_after_the_choice_finished_raises() -> None:
    with pytest.raises(StreamOrderError, match=r"arrived in choice 0 after it finished"):
        stream_through_sdk(
            [
                fragment(0, "call_a", "get_weather", '{"city": "Oslo"}'),
                chunk({}, finish="tool_calls"),
                fragment(1, "call_b", "get_time", '{"tz": "JST"}'),
            ]
        )
    with pytest.raises(StreamOrderError, match=r"arrived after the choice finished"):
        stream_through_sdk(
            [
                fragment(0, "call_a", "get_weather", '{"city": '),
                chunk({}, finish="tool_calls"),
                fragment(0, None, None, '"Oslo"}'),
            ]
        )
