"""Any order of a real stream's items, on every API: items dropped, repeated, swapped or
shuffled. `ToolCallStream` either folds them or raises one of toolwire's documented
errors (`StreamOrderError`, `StreamIncompleteError`...), never a bare `KeyError`,
`AttributeError` or `AssertionError`; and every call it reports complete is dispatchable."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import get_time, get_weather
from tests.strength import scaled
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    ToolCallCompleted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
)
from toolwire.exceptions import StreamOrderError, ToolwireError
from toolwire.testing import FakeAnthropic, FakeCall, FakeGemini, FakeOpenAI, FakeReply

group = ToolGroup.from_list([get_weather, get_time])
REPLY = FakeReply(
    text="Let me check both.",
    calls=(
        FakeCall("get_weather", {"city": "Paris, the capital of France"}),
        FakeCall("get_time", {"tz": "Europe/Paris"}),
    ),
    thinking="Two lookups.",
)


@cache
def recorded(api: Api) -> tuple[Any, ...]:
    """The items the real SDK client yields for one streamed turn of the fake."""
    if api == "chat.completions":
        client = FakeOpenAI(script=[REPLY]).client()
        stream: Any = client.chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": "Go"}],
            tools=group.tool_definitions(api),
            stream=True,
        )
    elif api == "responses":
        client = FakeOpenAI(script=[REPLY]).client()
        stream = client.responses.create(
            model="m", input="Go", tools=group.tool_definitions(api), stream=True
        )
    elif api == "anthropic":
        stream = (
            FakeAnthropic(script=[REPLY])
            .client()
            .messages.create(
                model="m",
                max_tokens=100,
                messages=[{"role": "user", "content": "Go"}],
                tools=group.tool_definitions(api),
                stream=True,
            )
        )
    else:
        from google.genai import types

        config = types.GenerateContentConfig(tools=group.tool_definitions(api))
        stream = (
            FakeGemini(script=[REPLY])
            .client()
            .models.generate_content_stream(model="m", contents="Go", config=config)
        )
    return tuple(stream)


@st.composite
def reorderings(draw: st.DrawFn, items: tuple[Any, ...]) -> list[Any]:
    order = list(range(len(items)))
    edit = draw(st.sampled_from(["shuffle", "drop", "repeat", "swap", "move"]))
    if edit == "shuffle":
        order = draw(st.permutations(order))
    elif edit == "drop":
        dropped = draw(st.sets(st.sampled_from(order), min_size=1, max_size=3))
        order = [i for i in order if i not in dropped]
    elif edit == "repeat":
        again = draw(st.sampled_from(order))
        at = draw(st.integers(0, len(order)))
        order.insert(at, again)
    elif edit == "swap":
        a, b = draw(st.sampled_from(order)), draw(st.sampled_from(order))
        order[a], order[b] = order[b], order[a]
    else:
        item = order.pop(draw(st.integers(0, len(order) - 1)))
        order.insert(draw(st.integers(0, len(order))), item)
    return [items[i] for i in order]


@pytest.mark.parametrize("api", API_NAMES)
@settings(max_examples=scaled(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_order_folds_or_raises_a_documented_error(api: Api, data: st.DataObject) -> None:
    items = data.draw(reorderings(recorded(api)))
    stream = ToolCallStream(api)
    try:
        ended = [
            event
            for item in items
            for event in stream.feed(item)
            if isinstance(event, ToolCallCompleted | ToolCallTruncated)
        ]
        final = stream.final_response()
    except ToolwireError:
        return
    for event in ended:  # what the stream said is complete runs (or fails) cleanly
        group.run_tool_call(event.call, None)
    assert len(group.run_tool_calls(final, None)) == len(ended)


@pytest.mark.parametrize("api", API_NAMES)
def test_the_recorded_order_folds(api: Api) -> None:
    """The unedited stream: both calls, run from the final response."""
    stream = ToolCallStream(api)
    for item in recorded(api):
        stream.feed(item)
    results = group.run_tool_calls(stream.final_response(), None)
    assert [r.result_content for r in results] == [
        "Sunny in Paris, the capital of France.",
        "Noon in Europe/Paris.",
    ]


@pytest.mark.parametrize("started", [False, True], ids=["no block yet", "a block open"])
def test_an_anthropic_delta_with_a_negative_index_names_no_block(started: bool) -> None:
    """Not a bare IndexError before any block, nor the last block taken for index -1
    once one is open: a `StreamOrderError` saying blocks are numbered from 0."""
    items = recorded("anthropic")
    starts = [i for i, item in enumerate(items) if item.type == "content_block_start"]
    stream = ToolCallStream("anthropic")
    for item in items[: starts[0] + 1 if started else 1]:
        stream.feed(item)
    delta = next(item for item in items if item.type == "content_block_delta")
    with pytest.raises(StreamOrderError) as error:
        stream.feed(delta.model_copy(update={"index": -1}))
    assert str(error.value) == (
        "content_block_delta for index -1 names no content block (they are numbered from "
        "0); feed the events of the stream as the SDK yields them."
    )
