"""What toolwire costs on the path users run, against doing the same work by hand.

Every subject is the public API called as a user calls it, on the SDKs' own objects;
every baseline is the least a hand-written loop could do on the same objects (see
`_responses`). A user's loop does two things per response: `run_tool_calls`, then
`tool_result_messages`; the "run and rendered" rows measure both against a hand loop
that also builds each API's result messages. The "run only" rows are the earlier
figures (`run_tool_calls` alone, against the hand loop's plain result dicts).
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
from toolwire.core import Api

from ._measure import Effort, Ratio
from ._responses import APIS, build, same_messages
from ._tools import FIXTURES, Fixture, get_weather
from ._wires import LARGE, REALISTIC, STREAMS, StreamCase, Streamed, read_stream

__all__ = ["Row", "rows"]


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: what was measured, the ratio, and the goal (issue 28)."""

    what: str
    baseline: str
    ratio: Ratio
    goal: float | None
    unit: float = 1e-6
    """Seconds per unit shown for the absolute figures (default: microseconds)."""
    key: tuple[str, ...] = ()
    """How the peers' table finds toolwire's figure beside theirs (empty: it does not)."""


ONE_CALL_GOAL = 2.0
"""Issue 28: one call, run and rendered, at most 2x the hand loop on every API."""


def _calls(count: int) -> str:
    return "1,000 calls" if count == 1000 else "one call"


def dispatch_rows(effort: Effort) -> list[Row]:
    """Per input, API and call count: `run_tool_calls` then `tool_result_messages`,
    against the hand loop building the same messages; then, for the short fixture,
    `run_tool_calls` alone (the earlier rows)."""
    out: list[Row] = []
    for fixture in FIXTURES:
        group = core.ToolGroup.from_list([fixture.tool])
        for count in (1, 1000):
            for api in APIS:
                hand = build(api, fixture, count)

                def ours(response: Any = hand.response, api: Api = api, group: Any = group) -> list[Any]:  # fmt: skip
                    return core.tool_result_messages(group.run_tool_calls(response, None), api)

                assert same_messages(api, ours(), hand.run_and_render())
                ratio = effort.compare(hand.run_and_render, ours)
                goal = ONE_CALL_GOAL if count == 1 else None
                what = f"dispatch, {api}, {fixture.name}, {_calls(count)}: run and rendered"
                key = ("dispatch", api, fixture.name) if count == 1 else ()
                out.append(Row(what, "hand loop, with messages", ratio, goal, key=key))
                typed = hand.run_and_render_typed
                if typed is not None and count == 1:
                    assert same_messages(api, typed(), hand.run_and_render())
                    what = f"dispatch, {api}, {fixture.name}, {_calls(count)}: the hand loop answering in the SDK's types (the floor of toolwire's)"  # fmt: skip
                    floor = effort.compare(hand.run_and_render, typed)
                    out.append(Row(what, "hand loop, with messages", floor, None))
    fixture = FIXTURES[0]
    group = core.ToolGroup.from_list([fixture.tool])
    for count in (1000, 1):
        for api in APIS:
            hand = build(api, fixture, count)
            ratio = effort.compare(hand.run, lambda r=hand.response: group.run_tool_calls(r, None))  # fmt: skip
            what = f"dispatch, {api}, {fixture.name}, {_calls(count)}: run only"
            out.append(Row(what, "hand loop", ratio, None))
    return out


def _async_hand_loop(fixture: Fixture, calls: list[Any]) -> Callable[[], Any]:
    """The least hand-written async loop over chat calls: a lone call is awaited, more
    are gathered; each answer is its tool message."""

    async def one(call: Any) -> dict[str, Any]:
        tool = fixture.atool.model_validate_json(call.function.arguments)
        text, _ = await tool.model_tool_handler(None)
        return {"role": "tool", "tool_call_id": call.id, "content": text}

    async def loop() -> list[dict[str, Any]]:
        if len(calls) == 1:
            return [await one(calls[0])]
        return list(await asyncio.gather(*(one(call) for call in calls)))

    return loop


def aio_rows(effort: Effort) -> list[Row]:
    """`toolwire.aio` on chat, run and rendered, against the hand-written async loop;
    both run on one event loop, as a user's `await` would."""
    out: list[Row] = []
    loop = asyncio.new_event_loop()
    try:
        for fixture in FIXTURES:
            group = aio.ToolGroup.from_list([fixture.atool])
            for count in (1, 1000):
                response = build("chat.completions", fixture, count).response
                by_hand = _async_hand_loop(fixture, response.choices[0].message.tool_calls)

                async def ours(response: Any = response, group: Any = group) -> list[Any]:
                    results = await group.run_tool_calls(response, None)
                    return core.tool_result_messages(results, "chat.completions")

                def hand(by_hand: Any = by_hand) -> object:
                    return loop.run_until_complete(by_hand())

                def subject(ours: Any = ours) -> object:
                    return loop.run_until_complete(ours())

                assert hand() == subject()
                ratio = effort.compare(hand, subject)
                what = f"aio dispatch, chat.completions, {fixture.name}, {_calls(count)}: run and rendered"  # fmt: skip
                key = ("aio", "chat.completions", fixture.name) if count == 1 else ()
                goal = ONE_CALL_GOAL if count == 1 else None
                out.append(Row(what, "hand async loop, with messages", ratio, goal, key=key))
    finally:
        loop.close()
    return out


def class_row(effort: Effort) -> Row:
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

    ratio = effort.compare(plain, tool, budget=0.05)
    return Row("defining one tool class", "plain BaseModel", ratio, None, unit=1e-3)


def definitions_row(effort: Effort) -> Row:
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

    ratio = effort.compare(rebuild, lambda: group.tool_definitions("chat.completions"))
    return Row("tool_definitions, 20 tools, cached", "rebuilding the schemas", ratio, None)


@dataclass(frozen=True)
class OpenedStream:
    """One API's stream of one payload: the SDK's items and how to read them again."""

    api: Api
    case: StreamCase
    streamed: Streamed
    body: bytes
    open: Callable[[], Iterable[Any]]
    """Opens the SDK's own stream over the body (raw events, no accumulation)."""
    items: list[Any]
    """The objects users feed: the SDK's own, made once."""
    fragment: Callable[[Any], str | None]

    def collect(self) -> object:
        """The floor: collect the fragments and parse (or join) once."""
        text = "".join([part for item in self.items if (part := self.fragment(item))])
        return json.loads(text) if self.case.arguments else text

    def preview(self, items: Iterable[Any] | None = None) -> object:
        """toolwire's feed, reading the live preview on every event."""
        return read_stream(self.api, self.items if items is None else items, self.case.arguments)

    def sdk_alone(self) -> object:
        return deque(self.open(), maxlen=0)

    def sdk_with_feed(self) -> object:
        return self.preview(self.open())


def open_stream(api: Api, streamed: Streamed) -> OpenedStream:
    case = STREAMS[api]
    body, fragment = case.wire(streamed)
    opener = case.sdk_stream(body)
    return OpenedStream(api, case, streamed, body, opener, list(opener()), fragment)


def streaming_rows(effort: Effort) -> list[Row]:
    """Per API and payload, toolwire's `feed` (reading `partial_arguments` on every
    event): against collecting the fragments and parsing once, and, read in the same
    loop as the SDK's own stream, against that stream alone (issue 28: it may add at most
    10% to what the SDK spends making the objects from the wire)."""
    out: list[Row] = []
    for streamed in (LARGE, REALISTIC):
        for api in APIS:
            stream = open_stream(api, streamed)
            assert stream.preview() == stream.collect() == stream.sdk_with_feed()
            arguments = stream.case.arguments
            what = "feed + partial_arguments per event" if arguments else "feed per text event"
            label = f"stream, {api}, {streamed.label}: {what}"
            floor = "collect, parse once" if arguments else "collect, join once"
            ratio = effort.compare(stream.collect, stream.preview, least=3, share=3, budget=0.1)
            out.append(Row(label, floor, ratio, None, unit=1e-3))
            ratio = effort.compare(stream.sdk_alone, stream.sdk_with_feed, least=5, share=2, budget=0.2)  # fmt: skip
            label = f"stream, {api}, {streamed.label}: the SDK's stream from bytes, with that feed"
            key = ("stream", api, streamed.label)
            goal = 1 + stream.case.sdk_goal
            out.append(Row(label, "the SDK's stream alone", ratio, goal, unit=1e-3, key=key))
    return out


IMPORT_FLOOR = (
    "import time; t = time.perf_counter(); from pydantic import BaseModel\n"
    "class M(BaseModel):\n    a: int\n"
    "print(time.perf_counter() - t)"
)
IMPORT_SUBJECT = (
    "import time; t = time.perf_counter(); import toolwire.core\nprint(time.perf_counter() - t)"
)


def import_row(effort: Effort) -> Row:
    """Fresh interpreters, alternating, so both sides see the same disk cache.

    Both import compiled bytecode, as an installed package does (pip compiles it): with
    PYTHONDONTWRITEBYTECODE set, an edited checkout would otherwise compile every
    changed module again on every run and measure the compiler. Each repetition starts
    two or three interpreters, so a full run stops at 11."""
    repeat = effort.repetitions(most=11)
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
    return Row("import toolwire.core", "import pydantic, define one model", ratio, None, unit=1e-3)


def rows(effort: Effort) -> list[Row]:
    """Every measurement, as hard as `effort` says."""
    return [
        *dispatch_rows(effort),
        *aio_rows(effort),
        *streaming_rows(effort),
        import_row(effort),
        class_row(effort),
        definitions_row(effort),
    ]
