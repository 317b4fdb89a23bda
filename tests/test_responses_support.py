"""Builders for the Responses tests: output item JSON as the live API sends it, parsed
by the real `OpenAI` client (JSON or SSE over `httpx2.MockTransport`), and tests that
the builders give the SDK's own types."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
from openai import OpenAI
from openai.types.responses import (
    Response,
    ResponseFunctionToolCall,
    ResponseReasoningItem,
    ResponseStreamEvent,
)

Item = dict[str, Any]


def function_call(
    call_id: str = "call_1",
    name: str = "get_weather",
    arguments: str = '{"city": "Paris"}',
    *,
    item_id: str = "fc_1",
    status: str | None = "completed",
) -> Item:
    """A `function_call` output item as the API sends it (status omitted when None)."""
    item: Item = {
        "type": "function_call",
        "id": item_id,
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
    }
    if status is not None:
        item["status"] = status
    return item


def custom_call(
    call_id: str = "call_c",
    name: str = "run_sql",
    text: str = "SELECT 1",
    *,
    item_id: str = "ctc_1",
) -> Item:
    """A `custom_tool_call` output item (these have no status)."""
    return {
        "type": "custom_tool_call",
        "id": item_id,
        "call_id": call_id,
        "name": name,
        "input": text,
    }


def reasoning(item_id: str = "rs_1", encrypted: str = "enc-1", summary: str = "Thinking.") -> Item:
    """A reasoning item with a summary and `encrypted_content`."""
    return {
        "type": "reasoning",
        "id": item_id,
        "summary": [{"type": "summary_text", "text": summary}],
        "encrypted_content": encrypted,
    }


def message(text: str = "Hello.", *, item_id: str = "msg_1", phase: str | None = None) -> Item:
    """An assistant message with one output_text part."""
    item: Item = {
        "type": "message",
        "id": item_id,
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}],
    }
    if phase is not None:
        item["phase"] = phase
    return item


def refusal(text: str = "I can't help with that.", *, item_id: str = "msg_r") -> Item:
    """An assistant message whose content is a refusal part."""
    return {
        "type": "message",
        "id": item_id,
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "refusal", "refusal": text}],
    }


def response_json(
    *output: Item,
    response_id: str = "resp_1",
    status: str = "completed",
    reason: str | None = None,
) -> dict[str, Any]:
    """A whole `Response` body as the API sends it."""
    return {
        "id": response_id,
        "object": "response",
        "created_at": 1_700_000_000,
        "status": status,
        "error": None,
        "incomplete_details": {"reason": reason} if reason else None,
        "model": "gpt-test",
        "output": list(output),
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": None,
    }


def _client(body: bytes, content_type: str) -> OpenAI:
    def handle(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": content_type})

    return OpenAI(api_key="x", http_client=httpx2.Client(transport=httpx2.MockTransport(handle)))


def sdk_response(data: dict[str, Any]) -> Response:
    """`data` parsed by the real client, exactly as `client.responses.create()` returns it."""
    client = _client(json.dumps(data).encode(), "application/json")
    return client.responses.create(model="gpt-test", input="hi")


def sse_text(events: list[dict[str, Any]]) -> str:
    """Server-sent events as the API writes them (sequence numbers added)."""
    blocks = [
        f"event: {event['type']}\ndata: {json.dumps({**event, 'sequence_number': n})}\n\n"
        for n, event in enumerate(events)
    ]
    return "".join(blocks)


def sdk_events(text: str) -> Iterator[ResponseStreamEvent]:
    """The events the real client yields for an SSE body."""
    client = _client(text.encode(), "text/event-stream")
    yield from client.responses.create(model="gpt-test", input="hi", stream=True)


def test_sdk_response_gives_sdk_types() -> None:
    """The builder's output is parsed into the SDK's own item types."""
    response = sdk_response(response_json(reasoning(), function_call()))
    assert isinstance(response, Response)
    assert [type(item) for item in response.output] == [
        ResponseReasoningItem,
        ResponseFunctionToolCall,
    ]


def test_sdk_events_give_sdk_event_types() -> None:
    """SSE text comes back as the SDK's typed stream events, in order."""
    body = response_json()
    events = list(
        sdk_events(
            sse_text(
                [
                    {"type": "response.created", "response": {**body, "status": "in_progress"}},
                    {"type": "response.completed", "response": body},
                ]
            )
        )
    )
    assert [(type(e).__name__, e.type, e.sequence_number) for e in events] == [
        ("ResponseCreatedEvent", "response.created", 0),
        ("ResponseCompletedEvent", "response.completed", 1),
    ]
