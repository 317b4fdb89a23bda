"""`ToolCallStream("responses").feed` takes a fast path for argument deltas that name
their call's output index. It must fold every stream exactly as the general path does:
each stream is fed in lockstep to both paths (`tests.stream_lockstep`), and a count of
the items the fast path took shows the comparisons are not vacuous."""

from __future__ import annotations

from typing import Any

import pytest

from tests.shared_data import require_shared, round_trip_cases
from tests.stream_lockstep import compatible_items, fold_alike
from tests.test_responses_support import (
    custom_call,
    function_call,
    response_json,
    sdk_events,
    sse_text,
)
from toolwire._adapters.openai_responses.stream import ResponsesStreamAccumulator

ARGUMENTS = "response.function_call_arguments.delta"


def lockstep(items: list[Any]) -> int:
    """Both paths fold `items` alike (see `tests.stream_lockstep`); how many items the
    fast path took."""
    return fold_alike(ResponsesStreamAccumulator, items).taken


@pytest.mark.parametrize("case", round_trip_cases("openai-responses", stream=True))
def test_recorded_streams_fold_alike(case: dict[str, Any]) -> None:
    require_shared()
    items = list(sdk_events(case["response"]))
    deltas = sum(item.type == ARGUMENTS for item in items)
    assert (lockstep(items) > 0) == (deltas > 1)


def added(index: int, item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response.output_item.added", "output_index": index, "item": item}


def done(index: int, item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response.output_item.done", "output_index": index, "item": item}


def delta(
    index: int | None, text: str, kind: str = ARGUMENTS, item_id: str = "fc_1"
) -> dict[str, Any]:
    return {"type": kind, "output_index": index, "item_id": item_id, "delta": text}


def call_stream(
    index: int, call: dict[str, Any], *parts: str, kind: str = ARGUMENTS
) -> list[dict[str, Any]]:
    """A call announced, streamed in `parts` and done."""
    opened = (
        {**call, "arguments": "", "status": "in_progress"}
        if "arguments" in call
        else {**call, "input": ""}
    )
    return [
        added(index, opened),
        *(delta(index, p, kind, call["id"]) for p in parts),
        done(index, call),
    ]


FIRST = function_call("call_1", "get_weather", '{"city": "Paris"}', item_id="fc_1")
SECOND = function_call("call_2", "get_weather", '{"city": "Rome"}', item_id="fc_2")
SQL = custom_call("call_3", "run_sql", "SELECT 1", item_id="ctc_3")
CREATED = {"type": "response.created", "response": response_json(status="in_progress")}
COMPLETED = {"type": "response.completed", "response": response_json(FIRST, SECOND)}

STREAMS: dict[str, tuple[int, list[dict[str, Any]]]] = {
    # name: (items the fast path takes, the raw events). The first delta of the stream
    # goes the general way, which admits its type.
    "two calls": (
        4,
        [CREATED, *call_stream(0, FIRST, '{"city"', ': "Par', 'is"}'),
         *call_stream(1, SECOND, '{"city": ', '"Rome"}'), COMPLETED],
    ),
    "a delta naming its call by item id only": (
        1,
        [CREATED, added(0, {**FIRST, "arguments": "", "status": "in_progress"}),
         delta(0, '{"city"'), delta(None, ': "Par'), delta(0, 'is"}'), done(0, FIRST),
         COMPLETED],
    ),
    "a delta for no open call, and one after the turn ended": (
        3,
        [CREATED, *call_stream(0, FIRST, '{"city"', ': "Paris"}'), delta(0, " "),
         delta(5, " "), COMPLETED, delta(0, " ")],
    ),
    "a custom call's input": (
        2,
        [CREATED, *call_stream(0, SQL, "SELECT", " ", "1", kind="response.custom_tool_call_input.delta"),
         {"type": "response.completed", "response": response_json(SQL)}],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(STREAMS))
@pytest.mark.parametrize("kind", ["sdk", "namespace", "slots"])
def test_edge_streams_fold_alike(name: str, kind: str) -> None:
    """The fast path takes only argument deltas naming their call's output index;
    everything else, including what must fail, is folded by the general path, for SDK
    events and compatible libraries' alike. Events it cannot read (no `__dict__`) all
    take the general path."""
    expected, raw = STREAMS[name]
    if kind == "sdk":
        items: list[Any] = list(sdk_events(sse_text(raw)))
    else:
        items = compatible_items(raw, kind)
        expected = 0 if kind == "slots" else expected
    assert lockstep(items) == expected
