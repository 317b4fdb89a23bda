"""What toolwire costs on the path users run, against doing the same work by hand.

Every subject is the public API called as a user calls it, on the SDKs' own objects;
every baseline is the least a hand-written loop could do on the same objects: read
the name and arguments, look up the class, validate (`model_validate_json` for JSON
text, `model_validate` for dicts), call the handler, build a plain result.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import pydantic

from toolwire import aio, core
from toolwire.core import Api, TextDelta, ToolCallArgumentsDelta, ToolCallStream

from ._measure import Ratio, paired

__all__ = ["Row", "rows"]


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: what was measured, the ratio, and the goal (issue 10)."""

    what: str
    baseline: str
    ratio: Ratio
    goal: float | None
    unit: float = 1e-6
    """Seconds per unit shown for the absolute figures (default: microseconds)."""


class get_weather(core.BaseFunctionToolModel[None, None]):
    """Get the weather."""

    city: str
    days: int
    unit: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "ok", None


class aget_weather(aio.BaseFunctionToolModel[None, None]):
    """Get the weather."""

    model_tool_custom_name = "get_weather"
    city: str
    days: int
    unit: str

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "ok", None


TOOLS: dict[str, Any] = {"get_weather": get_weather}


def _arguments(count: int) -> list[dict[str, Any]]:
    return [{"city": "Paris", "days": i % 7, "unit": "c"} for i in range(count)]


def _chat(count: int) -> tuple[Any, Callable[[], list[dict[str, str]]]]:
    from openai.types.chat import ChatCompletion

    response = ChatCompletion.model_validate(
        {
            "id": "c1", "object": "chat.completion", "created": 1, "model": "m",
            "choices": [{
                "index": 0, "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": [
                    {"id": f"call_{i}", "type": "function",
                     "function": {"name": "get_weather", "arguments": json.dumps(a)}}
                    for i, a in enumerate(_arguments(count))
                ]},
            }],
        }
    )  # fmt: skip

    def by_hand() -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        for call in response.choices[0].message.tool_calls or []:
            function: Any = getattr(call, "function")  # noqa: B009 (chat calls have it)
            tool = TOOLS[function.name].model_validate_json(function.arguments)
            text, _ = tool.model_tool_handler(None)
            out.append({"call_id": call.id, "output": text})
        return out

    return response, by_hand


def _responses(count: int) -> tuple[Any, Callable[[], list[dict[str, str]]]]:
    from openai.types.responses import Response

    response = Response.model_validate(
        {
            "id": "r1", "object": "response", "created_at": 1, "model": "m",
            "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto",
            "tools": [],
            "output": [
                {"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}",
                 "name": "get_weather", "arguments": json.dumps(a), "status": "completed"}
                for i, a in enumerate(_arguments(count))
            ],
        }
    )  # fmt: skip

    def by_hand() -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        item: Any
        for item in response.output:
            if item.type == "function_call":
                tool = TOOLS[item.name].model_validate_json(item.arguments)
                text, _ = tool.model_tool_handler(None)
                out.append({"call_id": item.call_id, "output": text})
        return out

    return response, by_hand


def _anthropic(count: int) -> tuple[Any, Callable[[], list[dict[str, str]]]]:
    from anthropic.types import Message

    message = Message.model_validate(
        {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "m",
            "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [
                {"type": "tool_use", "id": f"toolu_{i}", "name": "get_weather", "input": a}
                for i, a in enumerate(_arguments(count))
            ],
        }
    )  # fmt: skip

    def by_hand() -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        block: Any
        for block in message.content:
            if block.type == "tool_use":
                tool = TOOLS[block.name].model_validate(block.input, strict=False)
                text, _ = tool.model_tool_handler(None)
                out.append({"call_id": block.id, "output": text})
        return out

    return message, by_hand


def _gemini(count: int) -> tuple[Any, Callable[[], list[dict[str, str]]]]:
    from google.genai import types as genai

    parts = [
        genai.Part(function_call=genai.FunctionCall(name="get_weather", args=a))
        for a in _arguments(count)
    ]
    candidate = genai.Candidate(
        content=genai.Content(role="model", parts=parts), finish_reason=genai.FinishReason.STOP
    )
    response = genai.GenerateContentResponse(response_id="r1", candidates=[candidate])

    def by_hand() -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        content: Any = response.candidates[0].content if response.candidates else None
        for index, part in enumerate(content.parts if content else []):
            call: Any = part.function_call
            if call is not None:
                tool = TOOLS[call.name].model_validate(call.args or {}, strict=False)
                text, _ = tool.model_tool_handler(None)
                out.append({"call_id": call.id or f"call_{index}", "output": text})
        return out

    return response, by_hand


BUILDERS = {
    "chat.completions": _chat,
    "responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
}
GOALS_1000 = {"chat.completions": 1.15, "responses": 1.15, "anthropic": 1.3, "gemini": 1.3}


def dispatch_rows(repeat: int) -> list[Row]:
    group = core.ToolGroup.from_list([get_weather])
    out: list[Row] = []
    for count, goals in ((1000, GOALS_1000), (1, dict.fromkeys(GOALS_1000, 1.6))):
        for api, build in BUILDERS.items():
            response, by_hand = build(count)
            results = group.run_tool_calls(response, None)
            assert [r.result_content for r in results] == [r["output"] for r in by_hand()]
            ratio = paired(by_hand, lambda r=response: group.run_tool_calls(r, None), repeat=repeat)  # fmt: skip
            calls = "1,000 calls" if count == 1000 else "one call"
            out.append(Row(f"dispatch, {api}, {calls}", "hand loop", ratio, goals[api]))
    return out


def aio_row(repeat: int) -> Row:
    group = aio.ToolGroup.from_list([aget_weather])
    response, _ = _chat(1000)
    calls: list[Any] = response.choices[0].message.tool_calls or []
    loop = asyncio.new_event_loop()

    async def one(call: Any) -> dict[str, str]:
        tool = aget_weather.model_validate_json(call.function.arguments)
        text, _ = await tool.model_tool_handler(None)
        return {"call_id": call.id, "output": text}

    async def gathered() -> list[dict[str, str]]:
        return list(await asyncio.gather(*(one(call) for call in calls)))

    try:
        ratio = paired(
            lambda: loop.run_until_complete(gathered()),
            lambda: loop.run_until_complete(group.run_tool_calls(response, None)),
            repeat=repeat,
        )
    finally:
        loop.close()
    return Row("aio dispatch, chat.completions, 1,000 calls", "asyncio.gather", ratio, 1.15)


def class_row(repeat: int) -> Row:
    def plain() -> type[pydantic.BaseModel]:
        class Weather(pydantic.BaseModel):
            """Get the weather."""

            city: str
            days: int
            unit: str

        return Weather

    def tool() -> type[core.BaseFunctionToolModel[None, None]]:
        class Weather(core.BaseFunctionToolModel[None, None]):
            """Get the weather."""

            city: str
            days: int
            unit: str

            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "ok", None

        return Weather

    ratio = paired(plain, tool, repeat=repeat, budget=0.05)
    return Row("defining one tool class", "plain BaseModel", ratio, 2.0, unit=1e-3)


def definitions_row(repeat: int) -> Row:
    classes = [type(f"tool_{i}", (get_weather,), {"__doc__": f"Tool {i}."}) for i in range(20)]
    group = core.ToolGroup.from_list(classes)

    def rebuild() -> list[dict[str, Any]]:
        return [
            {
                "type": "function",
                "function": {
                    "name": tool.model_tool_name(),
                    "description": tool.__doc__ or "",
                    "parameters": tool.model_json_schema(),
                },
            }
            for tool in group.values()
        ]

    ratio = paired(rebuild, lambda: group.tool_definitions("chat.completions"), repeat=repeat)
    return Row("tool_definitions, 20 tools, cached", "rebuilding the schemas", ratio, None)


STREAMED_ARGUMENT = json.dumps({"path": "notes.md", "content": "lorem ipsum " * 8533})
"""A 100 KiB argument, streamed in 50-character deltas (2,048 events)."""


def _fragments() -> list[str]:
    return [STREAMED_ARGUMENT[i : i + 50] for i in range(0, len(STREAMED_ARGUMENT), 50)]


def _chat_wire() -> tuple[bytes, Callable[[Any], str | None]]:
    """The SSE body of a chat stream carrying one call with the 100 KiB argument."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip

    first = {"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
             "function": {"name": "write_file", "arguments": ""}}]}  # fmt: skip
    chunks = [chunk(first)] + [
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]})
        for part in _fragments()
    ]
    chunks.append(chunk({}, "tool_calls"))
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"

    def fragment(item: Any) -> str | None:
        calls = item.choices[0].delta.tool_calls if item.choices else None
        return calls[0].function.arguments if calls else None

    return body.encode(), fragment


def _chat_stream(body: bytes) -> Callable[[], Iterable[Any]]:
    """Opens the OpenAI SDK's own stream over `body` (the wire, in memory)."""
    import httpx2
    from openai import OpenAI

    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})

    client = OpenAI(api_key="k", http_client=httpx2.Client(transport=httpx2.MockTransport(answer)))
    messages: Any = [{"role": "user", "content": "Write the notes."}]
    return lambda: client.chat.completions.create(model="m", messages=messages, stream=True)


def _responses_wire() -> tuple[bytes, Callable[[Any], str | None]]:
    """The SSE body of a Responses stream carrying one function call with the argument."""
    response: dict[str, Any] = {"id": "r1", "object": "response", "created_at": 1, "model": "m",
                "status": "in_progress", "parallel_tool_calls": True, "tool_choice": "auto",
                "tools": [], "output": []}  # fmt: skip
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "write_file",
            "arguments": STREAMED_ARGUMENT, "status": "completed"}  # fmt: skip
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {**call, "arguments": "", "status": "in_progress"}},
        *({"type": "response.function_call_arguments.delta", "output_index": 0,
           "item_id": "fc_1", "delta": part} for part in _fragments()),
        {"type": "response.function_call_arguments.done", "output_index": 0,
         "item_id": "fc_1", "arguments": STREAMED_ARGUMENT},
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
    import httpx2
    from openai import OpenAI

    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})

    client = OpenAI(api_key="k", http_client=httpx2.Client(transport=httpx2.MockTransport(answer)))
    return lambda: client.responses.create(model="m", input="Write the notes.", stream=True)


def _anthropic_wire() -> tuple[bytes, Callable[[Any], str | None]]:
    """The SSE body of an Anthropic stream carrying one tool_use with the 100 KiB argument."""
    message: dict[str, Any] = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {
            "type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}},
        *({"type": "content_block_delta", "index": 0,
           "delta": {"type": "input_json_delta", "partial_json": part}} for part in _fragments()),
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
    """Opens the Anthropic SDK's own stream over `body` (the wire, in memory)."""
    import httpx2
    from anthropic import Anthropic

    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})

    client = Anthropic(api_key="k", http_client=httpx2.Client(transport=httpx2.MockTransport(answer)))  # fmt: skip
    messages: Any = [{"role": "user", "content": "Write the notes."}]
    return lambda: client.messages.create(model="m", max_tokens=1, messages=messages, stream=True)


def _gemini_wire() -> tuple[bytes, Callable[[Any], str | None]]:
    """The SSE body of a Gemini stream: 100 KiB of answer text in 50-character parts,
    then a call. The Gemini API sends every call whole (no argument fragments), so its
    long streams are text."""
    text_chunks = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": part}]}, "index": 0}],
         "responseId": "r1", "modelVersion": "m"}
        for part in _fragments()
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
    """Opens the google-genai SDK's own stream over `body` (the wire, in memory)."""
    import httpx2
    from google import genai
    from google.genai import types as genai_types

    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})

    client = httpx2.Client(transport=httpx2.MockTransport(answer))
    options = genai_types.HttpOptions(httpx_client=client)
    models = genai.Client(api_key="k", vertexai=False, http_options=options).models
    return lambda: models.generate_content_stream(model="m", contents="Write the notes.")


@dataclass(frozen=True)
class StreamCase:
    """One API's streaming benchmark."""

    wire: Callable[[], tuple[bytes, Callable[[Any], str | None]]]
    """Its SSE body, and how the floor reads one item's fragment."""
    sdk_stream: Callable[[bytes], Callable[[], Iterable[Any]]]
    sdk_goal: float
    """What feeding may add to the SDK's own stream (issue 10)."""
    arguments: bool = True
    """Whether the fragments are tool-call arguments (read as `partial_arguments` on
    every event, against one parse) or answer text (read as `TextDelta.text`, against
    one join)."""


STREAMS: dict[Api, StreamCase] = {
    "chat.completions": StreamCase(_chat_wire, _chat_stream, 0.05),
    "responses": StreamCase(_responses_wire, _responses_stream, 0.05),
    "anthropic": StreamCase(_anthropic_wire, _anthropic_stream, 0.15),
    "gemini": StreamCase(_gemini_wire, _gemini_stream, 0.05, arguments=False),
}


def _read_stream(api: Api, items: Iterable[Any], arguments: bool) -> object:
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


def streaming_rows(repeat: int) -> list[Row]:
    """Per stream, toolwire's `feed` (reading `partial_arguments` on every event):
    against collecting the fragments and parsing once, and, read in the same loop as the
    SDK's own stream, against that stream alone (issue 10: it may add at most 5%, 15% on
    Anthropic, to what the SDK spends making the objects from the wire)."""
    out: list[Row] = []
    for api, case in STREAMS.items():
        body, fragment = case.wire()
        open_stream = case.sdk_stream(body)
        items = list(open_stream())  # the objects users feed: the SDK's own

        def collect(items: list[Any] = items, case: StreamCase = case, fragment: Any = fragment) -> object:  # fmt: skip
            text = "".join([part for item in items if (part := fragment(item))])
            return json.loads(text) if case.arguments else text

        def preview(items: Iterable[Any] = items, api: Api = api, case: StreamCase = case) -> object:  # fmt: skip
            return _read_stream(api, items, case.arguments)

        def sdk_alone(open_stream: Any = open_stream) -> object:
            return deque(open_stream(), maxlen=0)

        def sdk_with_feed(open_stream: Any = open_stream, preview: Any = preview) -> object:
            return preview(open_stream())

        assert preview() == collect() == sdk_with_feed()
        what = "feed + partial_arguments per event" if case.arguments else "feed per text event"
        label = f"stream, {api}: {what}, 100 KiB"
        floor = "collect, parse once" if case.arguments else "collect, join once"
        ratio = paired(collect, preview, repeat=max(3, repeat // 3), budget=0.1)
        out.append(Row(label, floor, ratio, 6.0, unit=1e-3))
        ratio = paired(sdk_alone, sdk_with_feed, repeat=max(5, repeat // 2), budget=0.2)
        label = f"stream, {api}: the SDK's stream from bytes, with that feed"
        out.append(Row(label, "the SDK's stream alone", ratio, 1 + case.sdk_goal, unit=1e-3))
    return out


IMPORT_FLOOR = (
    "import time; t = time.perf_counter(); from pydantic import BaseModel\n"
    "class M(BaseModel):\n    a: int\n"
    "print(time.perf_counter() - t)"
)
IMPORT_SUBJECT = (
    "import time; t = time.perf_counter(); import toolwire.core\nprint(time.perf_counter() - t)"
)


def import_row(repeat: int) -> Row:
    """Fresh interpreters, alternating, so both sides see the same disk cache.

    Both import compiled bytecode, as an installed package does (pip compiles it): with
    PYTHONDONTWRITEBYTECODE set, an edited checkout would otherwise compile every
    changed module again on every run and measure the compiler."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def once(code: str) -> float:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=environment
        )
        return float(done.stdout)

    once(IMPORT_SUBJECT)  # writes the bytecode of whatever changed since the last run
    floors: list[float] = []
    subjects: list[float] = []
    for index in range(repeat):
        pair = (once(IMPORT_FLOOR), once(IMPORT_SUBJECT))
        if index % 2:
            pair = (once(IMPORT_FLOOR), pair[1])
        floors.append(pair[0])
        subjects.append(pair[1])
    ratios = [s / f for s, f in zip(subjects, floors, strict=True)]
    ratio = Ratio(
        statistics.median(floors),
        statistics.median(subjects),
        statistics.median(ratios),
        min(ratios),
        max(ratios),
    )
    return Row("import toolwire.core", "import pydantic, define one model", ratio, 1.25, unit=1e-3)


def rows(*, quick: bool) -> list[Row]:
    """Every measurement; `quick` runs each a few times only (CI keeps them working)."""
    repeat = 3 if quick else 15
    return [
        *dispatch_rows(repeat),
        aio_row(repeat),
        *streaming_rows(repeat),
        import_row(3 if quick else 11),
        class_row(repeat),
        definitions_row(repeat),
    ]
