"""Anthropic streams as compatible servers send them, through the real SDK client over
SSE, folded by `ToolCallStream` and, for comparison, by the SDK's own `MessageStream`.

Ollama's Anthropic-compatible API (and some proxies) put the whole tool input in
`content_block_start` and send no `input_json_delta`; the SDK keeps that input, so must
we (it used to become `{}`, and the handler ran with defaults)."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from anthropic import Anthropic

from toolwire.core import BaseFunctionToolModel, ToolCallCompleted, ToolCallStream, ToolGroup


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    city: str = "nowhere"

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


group = ToolGroup.from_list([get_weather])


def events(start_input: dict[str, Any], deltas: list[str]) -> list[dict[str, Any]]:
    message: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 1},
    }
    block = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": start_input}
    return [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": block},
        *(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": d},
            }  # fmt: skip
            for d in deltas
        ),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]


def client_for(items: list[dict[str, Any]]) -> Anthropic:
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in items)
    transport = httpx2.MockTransport(
        lambda _: httpx2.Response(200, text=body, headers={"content-type": "text/event-stream"})
    )
    return Anthropic(api_key="k", http_client=httpx2.Client(transport=transport))


REQUEST: dict[str, Any] = {
    "model": "claude",
    "max_tokens": 100,
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
}


@pytest.mark.parametrize(
    ("start_input", "deltas", "expected"),
    [
        ({"city": "Paris"}, [], {"city": "Paris"}),  # Ollama: the input comes whole
        ({}, ['{"city": ', '"Oslo"}'], {"city": "Oslo"}),  # the API: deltas
        ({"city": "Paris"}, ['{"city": "Rome"}'], {"city": "Rome"}),  # deltas replace it
    ],
    ids=["input-in-start", "deltas", "deltas-replace-start"],
)
def test_final_input_matches_the_sdks_own_accumulator(
    start_input: dict[str, Any], deltas: list[str], expected: dict[str, Any]
) -> None:
    items = events(start_input, deltas)
    stream = ToolCallStream("anthropic")
    completed: list[ToolCallCompleted] = []
    for event in client_for(items).messages.create(**REQUEST, stream=True):
        completed += [e for e in stream.feed(event) if isinstance(e, ToolCallCompleted)]
    final = stream.final_response()
    with client_for(items).messages.stream(**REQUEST) as sdk_stream:
        sdk_final = sdk_stream.get_final_message()
    assert final.content[0].model_dump() == sdk_final.content[0].model_dump()
    assert getattr(final.content[0], "input") == expected  # noqa: B009
    assert [e.call.input for e in completed] == [expected]
    result = group.run_tool_calls(final, None)[0]
    assert result.result_content == f"Sunny in {expected['city']}."
    assert group.run_tool_call(completed[0].call, None).result_content == result.result_content
