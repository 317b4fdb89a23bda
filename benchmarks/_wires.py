"""Each API's stream of one call, as the SSE bytes its server sends, and the SDK's own
stream over those bytes (in memory, no network).

Two payloads are streamed: 100 KiB of arguments in 50-character deltas (where a cost
per event that grows with the buffer shows), and the realistic ticket's 701 characters
in 4-character deltas (about one token each, as models stream). Gemini sends every call
whole, so its streams carry the same text as answer text, then the call.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from toolwire.core import Api, TextDelta, ToolCallArgumentsDelta, ToolCallStream

from ._tools import FIXTURES

__all__ = [
    "LARGE",
    "REALISTIC",
    "STREAMS",
    "StreamCase",
    "Streamed",
    "anthropic_client",
    "openai_client",
    "read_stream",
]


@dataclass(frozen=True)
class Streamed:
    """What one stream carries: a call's name and its arguments, in equal fragments."""

    label: str
    tool_name: str
    arguments: str
    width: int
    """Characters per fragment."""

    def fragments(self) -> list[str]:
        text, width = self.arguments, self.width
        return [text[i : i + width] for i in range(0, len(text), width)]


LARGE = Streamed(
    "100 KiB", "write_file", json.dumps({"path": "notes.md", "content": "lorem ipsum " * 8533}), 50
)
"""100 KiB of arguments in 50-character deltas (2,048 events)."""

REALISTIC = Streamed("realistic", FIXTURES[1].tool_name, json.dumps(FIXTURES[1].arguments(1)[0]), 4)
"""The realistic ticket's 701 characters in 4-character deltas (176 events)."""


def _serving(body: bytes) -> Any:
    """An httpx2 client whose every request is answered with the SSE `body`."""
    import httpx2

    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})

    return httpx2.Client(transport=httpx2.MockTransport(answer))


def openai_client(body: bytes) -> Any:
    """The OpenAI SDK's client, served `body` in memory."""
    from openai import OpenAI

    return OpenAI(api_key="k", http_client=_serving(body))


def anthropic_client(body: bytes) -> Any:
    """The Anthropic SDK's client, served `body` in memory."""
    from anthropic import Anthropic

    return Anthropic(api_key="k", http_client=_serving(body))


def _chat_wire(streamed: Streamed) -> tuple[bytes, Callable[[Any], str | None]]:
    """The SSE body of a chat stream carrying the call."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip

    first = {"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
             "function": {"name": streamed.tool_name, "arguments": ""}}]}  # fmt: skip
    chunks = [chunk(first)] + [
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]})
        for part in streamed.fragments()
    ]
    chunks.append(chunk({}, "tool_calls"))
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"

    def fragment(item: Any) -> str | None:
        calls = item.choices[0].delta.tool_calls if item.choices else None
        return calls[0].function.arguments if calls else None

    return body.encode(), fragment


def _chat_stream(body: bytes) -> Callable[[], Iterable[Any]]:
    """Opens the OpenAI SDK's own chat stream over `body`."""
    client = openai_client(body)
    messages: Any = [{"role": "user", "content": "Go."}]
    return lambda: client.chat.completions.create(model="m", messages=messages, stream=True)


def _responses_wire(streamed: Streamed) -> tuple[bytes, Callable[[Any], str | None]]:
    """The SSE body of a Responses stream carrying the call."""
    response: dict[str, Any] = {"id": "r1", "object": "response", "created_at": 1, "model": "m",
                "status": "in_progress", "parallel_tool_calls": True, "tool_choice": "auto",
                "tools": [], "output": []}  # fmt: skip
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": streamed.tool_name,
            "arguments": streamed.arguments, "status": "completed"}  # fmt: skip
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {**call, "arguments": "", "status": "in_progress"}},
        *({"type": "response.function_call_arguments.delta", "output_index": 0,
           "item_id": "fc_1", "delta": part} for part in streamed.fragments()),
        {"type": "response.function_call_arguments.done", "output_index": 0,
         "item_id": "fc_1", "arguments": streamed.arguments},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed",
         "response": {**response, "status": "completed", "output": [call]}},
    ]  # fmt: skip
    body = "".join(
        f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': n})}\n\n"
        for n, e in enumerate(events)
    )

    def fragment(item: Any) -> str | None:
        return item.delta if item.type == "response.function_call_arguments.delta" else None

    return body.encode(), fragment


def _responses_stream(body: bytes) -> Callable[[], Iterable[Any]]:
    """Opens the OpenAI SDK's own Responses stream over `body`."""
    client = openai_client(body)
    return lambda: client.responses.create(model="m", input="Go.", stream=True)


def _anthropic_wire(streamed: Streamed) -> tuple[bytes, Callable[[Any], str | None]]:
    """The SSE body of an Anthropic stream carrying the call as one tool_use."""
    message: dict[str, Any] = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {
            "type": "tool_use", "id": "toolu_1", "name": streamed.tool_name, "input": {}}},
        *({"type": "content_block_delta", "index": 0,
           "delta": {"type": "input_json_delta", "partial_json": part}}
          for part in streamed.fragments()),
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
         "usage": {"output_tokens": 1}},
        {"type": "message_stop"},
    ]  # fmt: skip
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)

    def fragment(item: Any) -> str | None:
        return item.delta.partial_json if item.type == "content_block_delta" else None

    return body.encode(), fragment


def _anthropic_stream(body: bytes) -> Callable[[], Iterable[Any]]:
    """Opens the Anthropic SDK's own stream over `body`."""
    client = anthropic_client(body)
    messages: Any = [{"role": "user", "content": "Go."}]
    return lambda: client.messages.create(model="m", max_tokens=1, messages=messages, stream=True)


def _gemini_wire(streamed: Streamed) -> tuple[bytes, Callable[[Any], str | None]]:
    """The SSE body of a Gemini stream: the text in parts, then a whole call."""
    text_chunks = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": part}]}, "index": 0}],
         "responseId": "r1", "modelVersion": "m"}
        for part in streamed.fragments()
    ]  # fmt: skip
    call = {"functionCall": {"name": "write_file", "args": {"path": "notes.md", "content": "x"}}}
    last = {"candidates": [{"content": {"role": "model", "parts": [call]}, "index": 0,
            "finishReason": "STOP"}], "responseId": "r1", "modelVersion": "m",
            "usageMetadata": {"promptTokenCount": 1, "totalTokenCount": 2}}  # fmt: skip
    body = "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in [*text_chunks, last])

    def fragment(item: Any) -> str | None:
        parts = item.candidates[0].content.parts
        return parts[0].text

    return body.encode(), fragment


def _gemini_stream(body: bytes) -> Callable[[], Iterable[Any]]:
    """Opens the google-genai SDK's own stream over `body`."""
    from google import genai
    from google.genai import types as genai_types

    options = genai_types.HttpOptions(httpx_client=_serving(body))
    models = genai.Client(api_key="k", vertexai=False, http_options=options).models
    return lambda: models.generate_content_stream(model="m", contents="Go.")


@dataclass(frozen=True)
class StreamCase:
    """One API's streaming benchmark."""

    wire: Callable[[Streamed], tuple[bytes, Callable[[Any], str | None]]]
    """Its SSE body for a payload, and how the floor reads one item's fragment."""
    sdk_stream: Callable[[bytes], Callable[[], Iterable[Any]]]
    sdk_goal: float
    """What feeding may add to the SDK's own stream (issue 28: at most 10%)."""
    arguments: bool = True
    """Whether the fragments are tool-call arguments (read as `partial_arguments` on
    every event, against one parse) or answer text (read as `TextDelta.text`, against
    one join)."""


STREAMS: dict[Api, StreamCase] = {
    "chat.completions": StreamCase(_chat_wire, _chat_stream, 0.1),
    "responses": StreamCase(_responses_wire, _responses_stream, 0.1),
    "anthropic": StreamCase(_anthropic_wire, _anthropic_stream, 0.1),
    "gemini": StreamCase(_gemini_wire, _gemini_stream, 0.1, arguments=False),
}


def read_stream(api: Api, items: Iterable[Any], arguments: bool) -> object:
    """What a live display reads from `ToolCallStream`: the arguments so far on every
    argument fragment, or the text of every text delta."""
    stream: Any = ToolCallStream(api)
    latest: object = None
    texts: list[str] = []
    for item in items:
        for event in stream.feed(item):
            if isinstance(event, ToolCallArgumentsDelta):
                latest = event.partial_arguments
            elif isinstance(event, TextDelta):
                texts.append(event.text)
    return latest if arguments else "".join(texts)
