"""`ToolCallStream("anthropic").feed` takes a fast path for an input_json_delta of the
open tool call. It must fold every stream exactly as the general path does: each stream
is fed in lockstep to both paths (`tests.stream_lockstep`). A count of the items the
fast path took shows the comparisons are not vacuous."""

from __future__ import annotations

from typing import Any

import httpx2
import pydantic
import pytest
from anthropic import Anthropic
from anthropic.types import RawMessageStreamEvent
from anthropic.types.beta import BetaRawMessageStreamEvent

from tests.conformance.test_anthropic_round_trips import all_anthropic_cases, synthesized_sse
from tests.shared_data import require_shared
from tests.stream_lockstep import compatible_items, fold_alike
from tests.test_anthropic_stream import end, start, stop, tool_block
from toolwire._adapters.anthropic.stream import AnthropicStreamAccumulator

EVENTS: pydantic.TypeAdapter[RawMessageStreamEvent] = pydantic.TypeAdapter(RawMessageStreamEvent)
BETA: pydantic.TypeAdapter[BetaRawMessageStreamEvent] = pydantic.TypeAdapter(
    BetaRawMessageStreamEvent
)


def lockstep(items: list[Any]) -> int:
    """Both paths fold `items` alike (see `tests.stream_lockstep`); how many items the
    fast path took."""
    return fold_alike(AnthropicStreamAccumulator, items).taken


def sdk_items(body: bytes) -> list[Any]:
    """The events the Anthropic SDK's own stream yields for the SSE `body`."""
    answer = httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})
    transport = httpx2.MockTransport(lambda request: answer)
    client = Anthropic(api_key="x", http_client=httpx2.Client(transport=transport))
    messages: Any = [{"role": "user", "content": "Go."}]
    return list(client.messages.create(model="m", max_tokens=9, messages=messages, stream=True))


@pytest.mark.parametrize("case", all_anthropic_cases())
def test_recorded_messages_streamed_fold_alike(case: dict[str, Any]) -> None:
    require_shared()
    items = sdk_items(synthesized_sse(case["response"], piece=16))
    calls = sum(block["type"] == "tool_use" for block in case["response"]["content"])
    taken = lockstep(items)
    assert (taken > 0) == (calls > 0)


def delta(index: int, **fields: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": fields}


SERVER_TOOL: dict[str, Any] = {
    "type": "server_tool_use",
    "id": "srvtoolu_1",
    "name": "web_search",
    "input": {},
}
STREAMS: dict[str, tuple[int, list[dict[str, Any]]]] = {
    # name: (items the fast path takes, the raw events). A call's first fragment ("")
    # goes the general way until one has admitted the event type.
    "two calls": (
        6,
        [
            start(),
            *tool_block(0, "toolu_1", "write_file", '{"path": "a", ', '"content": "x', 'y"}'),
            *tool_block(1, "toolu_2", "ping_host", "{", "}"),
            *end("tool_use"),
        ],
    ),
    "a cut call": (
        2,
        [start(), *tool_block(0, "toolu_1", "write_file", '{"path": "a', "bc"), *end("max_tokens")],
    ),
    "a server tool's input, then a call": (
        2,
        [
            start(),
            {"type": "content_block_start", "index": 0, "content_block": SERVER_TOOL},
            delta(0, type="input_json_delta", partial_json='{"query": "x"}'),
            stop(0),
            *tool_block(1, "toolu_1", "ping_host", "{", "}"),
            *end("tool_use"),
        ],
    ),
    "a delta for another block while a call is open": (
        2,
        [
            start(),
            *tool_block(0, "toolu_1", "ping_host", "{")[:-1],
            delta(1, type="input_json_delta", partial_json="}"),
            delta(0, type="input_json_delta", partial_json="}"),
            *end("tool_use"),
        ],
    ),
    "a fragment after the turn ended": (
        2,
        [
            start(),
            *tool_block(0, "toolu_1", "ping_host", "{", "}")[:-1],
            *end("tool_use"),
            delta(0, type="input_json_delta", partial_json=" "),
        ],
    ),
}


@pytest.mark.parametrize("name", list(STREAMS))
@pytest.mark.parametrize("kind", ["sdk", "beta", "namespace", "slots"])
def test_edge_streams_fold_alike(name: str, kind: str) -> None:
    """The fast path takes only the open call's fragments (the first fragment of a call
    is the general path's, which admits its type); everything else, including what
    must fail, is folded by the general path, for SDK, beta and compatible libraries'
    events alike. Events it cannot read (no `__dict__`) all take the general path."""
    expected, raw = STREAMS[name]
    if kind == "sdk":
        items: list[Any] = [EVENTS.validate_python(item) for item in raw]
    elif kind == "beta":
        items = [BETA.validate_python(item) for item in raw]
    else:
        items = compatible_items(raw, kind)
        expected = 0 if kind == "slots" else expected
    assert lockstep(items) == expected
