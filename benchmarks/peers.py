"""toolwire beside the libraries a user would pick instead, on the same inputs, each a
ratio to the same hand loop in the same run (issue 28, goal 6).

Dispatch: one call per response, run and answered as each peer's own public path does
it, against the hand loop that also builds the API's result messages (`_responses`);
toolwire's figure is the suite's "run and rendered" row. The peers, each called where
its API allows:

- the anthropic SDK's `beta_tool` (Anthropic): what its tool runner does per call,
  `tool.call(block.input)` into a `tool_result` block (`tool_result_content`, as the
  runner does), the blocks in one user message;
- google-genai's automatic function calling (Gemini): what `generate_content` does per
  turn when given Python functions as tools, `get_function_response_parts(response,
  functions)` (each call's arguments converted by the function's signature, the function
  called, its return value under "result") in one user `Content`. Its conversion refuses
  an enum parameter ("argument value normal is not compatible with parameter annotation
  <enum 'Priority'>") and answers the call that error instead, so on the realistic input
  its cell says it fails;
- openai-agents' `@function_tool` (Responses): the call's `ToolContext`,
  `await tool.on_invoke_tool(context, arguments)` and
  `ItemHelpers.tool_call_output_item`, for an `async def` tool and a plain `def` one
  (which it runs in a thread), each on an event loop the caller keeps;
- pydantic-ai's `ToolManager` (every API), made once per step by `for_run_step`
  without a model request, then `await manager.handle_call(ToolCallPart(...))` into a
  `ToolReturnPart`;
- LangChain's `StructuredTool` (every API): `.invoke` with the call as a `ToolCall`
  (arguments parsed from JSON, as its chat models do), which returns the `ToolMessage`.

The async peers are awaited on one event loop, run per response with
`run_until_complete`; `toolwire.aio` is measured the same way for comparison. A
response's lone call is awaited directly, not gathered (the least any loop would do).

Streams: both SDKs' own accumulating streams from the same SSE bytes, reading their
parsed arguments on every event (`client.chat.completions.stream()` with a strict tool,
whose `tool_calls.function.arguments.delta` events carry `parsed_arguments`;
`client.messages.stream()`, whose `input_json` events carry the input so far), against
the SDK's raw stream alone; toolwire's figure is the suite's "SDK's stream with that
feed" row.

openai-agents, pydantic-ai and LangChain are benchmark-only dependencies
(`benchmarks/requirements-peers.txt`); without them their columns are skipped. The
SDKs' own helpers come with the SDKs.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from importlib import import_module, metadata
from importlib.util import find_spec
from typing import Any

from toolwire import aio, core
from toolwire.core import Api

from ._measure import FULL, Effort, Ratio
from ._responses import APIS, HandLoop, build, calls_of
from ._tools import FIXTURES, Fixture
from ._wires import LARGE, REALISTIC, Streamed, anthropic_client, openai_client
from .suite import OpenedStream, Row, open_stream

__all__ = ["INSTALL", "PeerTables", "measure"]

INSTALL = (
    "pip install -r benchmarks/requirements-peers.txt into a venv of their own (see that file)"
)

Turn = Callable[[], Sequence[Any]]
"""One peer's whole work on one response: every call run and answered."""


def _texts_by_hand(fixture: Fixture) -> list[str]:
    """What the one call answers, computed from the tool itself."""
    text, _ = fixture.tool.model_validate(fixture.arguments(1)[0]).model_tool_handler(None)
    assert isinstance(text, str)
    return [text]


def _awaited(loop: asyncio.AbstractEventLoop, calls: list[Any], answer: Callable[..., Coroutine[Any, Any, Any]]) -> Turn:  # fmt: skip
    """Run `answer(*call)` for every call on `loop`: a lone call awaited, more gathered."""

    async def turn() -> list[Any]:
        if len(calls) == 1:
            return [await answer(*calls[0])]
        return list(await asyncio.gather(*(answer(*call) for call in calls)))

    return lambda: loop.run_until_complete(turn())


def _toolwire_aio(api: Api, fixture: Fixture, hand: HandLoop, loop: asyncio.AbstractEventLoop) -> tuple[Turn, Callable[[Any], str]]:  # fmt: skip
    group = aio.ToolGroup.from_list([fixture.atool])

    async def turn() -> list[Any]:
        results = await group.run_tool_calls(hand.response, None)
        core.tool_result_messages(results, api)
        return results

    return lambda: loop.run_until_complete(turn()), lambda result: result.result_content


def _beta_tool(api: Api, fixture: Fixture, hand: HandLoop, loop: asyncio.AbstractEventLoop) -> tuple[Turn, Callable[[Any], str]]:  # fmt: skip
    from anthropic import beta_tool
    from anthropic.lib.tools._tool_dispatch import tool_result_content

    tools = {fixture.tool_name: beta_tool(fixture.function, name=fixture.tool_name)}
    message = hand.response

    def turn() -> list[Any]:
        results: list[dict[str, Any]] = []
        block: Any
        for block in message.content:
            if block.type == "tool_use":
                content = tool_result_content(tools[block.name].call(block.input))
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": content})  # fmt: skip
        return [{"role": "user", "content": results}]

    return turn, lambda message: message["content"][0]["content"]


class CannotAnswer(Exception):
    """A peer answers this input with an error instead of the call's result: its cell says
    it fails, with no figure."""


def _genai_afc(api: Api, fixture: Fixture, hand: HandLoop, loop: asyncio.AbstractEventLoop) -> tuple[Turn, Callable[[Any], str]]:  # fmt: skip
    from google.genai import types
    from google.genai._extra_utils import get_function_response_parts

    functions: dict[str, Any] = {fixture.tool_name: fixture.function}
    response = hand.response

    def turn() -> list[Any]:
        return [types.Content(role="user", parts=get_function_response_parts(response, functions))]  # fmt: skip

    def text(content: Any) -> str:
        return content.parts[0].function_response.response["result"]

    answered = turn()[0].parts[0].function_response.response
    if "error" in answered:
        raise CannotAnswer(answered["error"])
    return turn, text


def _agents(fixture: Fixture, hand: HandLoop, loop: asyncio.AbstractEventLoop, function: Callable[..., Any]) -> tuple[Turn, Callable[[Any], str]]:  # fmt: skip
    agents: Any = import_module("agents")
    tool_context: Any = import_module("agents.tool_context")
    tool = agents.function_tool(function, name_override=fixture.tool_name)

    async def answer(call: Any) -> Any:
        context = tool_context.ToolContext(
            context=None,
            tool_name=call.name,
            tool_call_id=call.call_id,
            tool_arguments=call.arguments,
            tool_call=call,
        )
        output = await tool.on_invoke_tool(context, call.arguments)
        return agents.ItemHelpers.tool_call_output_item(call, output)

    calls = [(item,) for item in hand.response.output if item.type == "function_call"]
    return _awaited(loop, calls, answer), lambda item: item["output"]


def _agents_async(api: Api, fixture: Fixture, hand: HandLoop, loop: asyncio.AbstractEventLoop) -> tuple[Turn, Callable[[Any], str]]:  # fmt: skip
    return _agents(fixture, hand, loop, fixture.afunction)


def _agents_sync(api: Api, fixture: Fixture, hand: HandLoop, loop: asyncio.AbstractEventLoop) -> tuple[Turn, Callable[[Any], str]]:  # fmt: skip
    return _agents(fixture, hand, loop, fixture.function)


def _pydantic_ai(api: Api, fixture: Fixture, hand: HandLoop, loop: asyncio.AbstractEventLoop) -> tuple[Turn, Callable[[Any], str]]:  # fmt: skip
    pydantic_ai: Any = import_module("pydantic_ai")
    messages: Any = import_module("pydantic_ai.messages")
    test_models: Any = import_module("pydantic_ai.models.test")
    tool_manager: Any = import_module("pydantic_ai.tool_manager")
    toolsets: Any = import_module("pydantic_ai.toolsets")
    usage: Any = import_module("pydantic_ai.usage")

    toolset = toolsets.FunctionToolset([pydantic_ai.Tool(fixture.function, name=fixture.tool_name)])  # fmt: skip
    step = pydantic_ai.RunContext(deps=None, model=test_models.TestModel(), usage=usage.RunUsage())
    manager = loop.run_until_complete(tool_manager.ToolManager(toolset=toolset).for_run_step(step))  # fmt: skip

    async def answer(call_id: str, name: str, arguments: Any) -> Any:
        call = messages.ToolCallPart(tool_name=name, args=arguments, tool_call_id=call_id)
        output = await manager.handle_call(call)
        return messages.ToolReturnPart(tool_name=name, content=output, tool_call_id=call_id)

    calls = list(calls_of(api, hand.response))
    return _awaited(loop, calls, answer), lambda part: part.model_response_str()


def _langchain(api: Api, fixture: Fixture, hand: HandLoop, loop: asyncio.AbstractEventLoop) -> tuple[Turn, Callable[[Any], str]]:  # fmt: skip
    tools_module: Any = import_module("langchain_core.tools")
    tools = {fixture.tool_name: tools_module.StructuredTool.from_function(fixture.function, name=fixture.tool_name)}  # fmt: skip
    response = hand.response

    def turn() -> list[Any]:
        out: list[Any] = []
        for call_id, name, arguments in calls_of(api, response):
            parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
            out.append(tools[name].invoke({"type": "tool_call", "id": call_id, "name": name, "args": parsed}))  # fmt: skip
        return out

    return turn, lambda message: message.content


@dataclass(frozen=True)
class Peer:
    """One column of the dispatch table."""

    name: str
    apis: tuple[Api, ...]
    prepare: Callable[[Api, Fixture, HandLoop, asyncio.AbstractEventLoop], tuple[Turn, Callable[[Any], str]]]  # fmt: skip
    """Its turn over the hand loop's response, and how to read an answer's text."""
    distribution: str | None = None
    """The package it needs beyond toolwire's own venv, and that package's module."""
    module: str = ""

    def installed(self) -> bool:
        return not self.module or find_spec(self.module) is not None


PEERS = (
    Peer("toolwire.aio", APIS, _toolwire_aio),
    Peer("anthropic beta_tool", ("anthropic",), _beta_tool),
    Peer("google-genai automatic function calling", ("gemini",), _genai_afc),
    Peer("openai-agents, async def", ("responses",), _agents_async, "openai-agents", "agents"),
    Peer("openai-agents, def", ("responses",), _agents_sync, "openai-agents", "agents"),
    Peer("pydantic-ai ToolManager", APIS, _pydantic_ai, "pydantic-ai-slim", "pydantic_ai"),
    Peer("LangChain StructuredTool", APIS, _langchain, "langchain-core", "langchain_core"),
)


def _sdk_chat_stream(stream: OpenedStream) -> Callable[[], object]:
    """`client.chat.completions.stream()` with the call's tool strict, reading
    `parsed_arguments` from every arguments delta event."""
    client = openai_client(stream.body)
    tool: Any = {
        "type": "function",
        "function": {
            "name": stream.streamed.tool_name,
            "parameters": {"type": "object"},
            "strict": True,
        },  # fmt: skip
    }
    messages: Any = [{"role": "user", "content": "Go."}]

    def run() -> object:
        latest: object = None
        with client.chat.completions.stream(model="m", messages=messages, tools=[tool]) as events:
            for event in events:
                if event.type == "tool_calls.function.arguments.delta":
                    latest = event.parsed_arguments
        return latest

    return run


def _sdk_anthropic_stream(stream: OpenedStream) -> Callable[[], object]:
    """`client.messages.stream()`, reading the input so far from every `input_json` event."""
    client = anthropic_client(stream.body)
    messages: Any = [{"role": "user", "content": "Go."}]

    def run() -> object:
        latest: object = None
        with client.messages.stream(model="m", max_tokens=1, messages=messages) as events:
            for event in events:
                if event.type == "input_json":
                    latest = event.snapshot
        return latest

    return run


SDK_STREAMS: dict[Api, tuple[str, Callable[[OpenedStream], Callable[[], object]]]] = {
    "chat.completions": ("client.chat.completions.stream()", _sdk_chat_stream),
    "anthropic": ("client.messages.stream()", _sdk_anthropic_stream),
}


@dataclass(frozen=True)
class PeerTables:
    """What `measure` found: the two tables' cells, and what was skipped."""

    dispatch: dict[tuple[str, Api], dict[str, Ratio | str]]
    """(input, API) -> column -> ratio to the hand loop ("toolwire" included), or why the
    peer has none."""
    hand_loops: dict[tuple[str, Api], float]
    """(input, API) -> the hand loop's seconds (from toolwire's pairing)."""
    streams: dict[tuple[str, Api], dict[str, Ratio]]
    """(payload, API) -> column -> ratio to the SDK's raw stream."""
    stream_names: dict[Api, str]
    skipped: list[str]
    versions: list[str]

    def markdown(self) -> str:
        """Both tables, each cell a ratio: median (lowest-highest) of paired runs."""
        columns = ["toolwire", *(peer.name for peer in PEERS)]
        lines = [
            "One call per response, run and answered, against the hand loop that builds the "
            "API's result messages:",
            "",
            f"| input | API | hand loop | {' | '.join(columns)} |",
            "|---|---|---:|" + "---|" * len(columns),
        ]
        for (fixture, api), cells in self.dispatch.items():
            shown = [_cell(cells, column, api) for column in columns]
            hand = self.hand_loops[(fixture, api)] * 1e6
            lines.append(f"| {fixture} | {api} | {hand:,.1f} us | {' | '.join(shown)} |")
        lines += [
            "",
            "A stream of one call from SSE bytes, reading the arguments parsed so far on every "
            "event, against the SDK's raw stream alone:",
            "",
            "| payload | API | the SDK's raw stream | toolwire feed in it | the SDK's accumulating stream |",  # fmt: skip
            "|---|---|---:|---|---|",
        ]
        for (payload, api), cells in self.streams.items():
            name = self.stream_names[api]
            raw = cells["toolwire"].baseline * 1e3
            lines.append(
                f"| {payload} | {api} | {raw:,.2f} ms | {_ratio(cells['toolwire'])} | "
                f"`{name}` {_ratio(cells[name])} |"
            )
        return "\n".join(lines)


def _ratio(ratio: Ratio) -> str:
    return f"{ratio.median:.2f}x ({ratio.low:.2f}-{ratio.high:.2f})"


def _cell(cells: dict[str, Ratio | str], column: str, api: Api) -> str:
    if column in cells:
        found = cells[column]
        return found if isinstance(found, str) else _ratio(found)
    peer = next((peer for peer in PEERS if peer.name == column), None)
    if peer is not None and api in peer.apis:
        return "not installed"
    return ""


def _dispatch(suite: dict[tuple[str, ...], Row], effort: Effort, peers: list[Peer]) -> tuple[dict[tuple[str, Api], dict[str, Ratio | str]], dict[tuple[str, Api], float]]:  # fmt: skip
    cells: dict[tuple[str, Api], dict[str, Ratio | str]] = {}
    hand_loops: dict[tuple[str, Api], float] = {}
    loop = asyncio.new_event_loop()
    try:
        for fixture in FIXTURES:
            expected = _texts_by_hand(fixture)
            for api in APIS:
                hand = build(api, fixture, 1)
                ours = suite[("dispatch", api, fixture.name)].ratio
                row: dict[str, Ratio | str] = {"toolwire": ours}
                cells[(fixture.name, api)] = row
                hand_loops[(fixture.name, api)] = ours.baseline
                for peer in peers:
                    if api not in peer.apis:
                        continue
                    try:
                        turn, text = peer.prepare(api, fixture, hand, loop)
                    except CannotAnswer:
                        row[peer.name] = "fails (answers an error)"
                        continue
                    answers = turn()
                    assert [text(answer) for answer in answers] == expected, (peer.name, answers)
                    row[peer.name] = effort.compare(hand.run_and_render, turn)
    finally:
        loop.close()
    return cells, hand_loops


def _streams(suite: dict[tuple[str, ...], Row], effort: Effort) -> dict[tuple[str, Api], dict[str, Ratio]]:  # fmt: skip
    cells: dict[tuple[str, Api], dict[str, Ratio]] = {}
    # (payload, least repetitions, most, budget): one run of the SDK's accumulating loop
    # takes a second or more on the large payload, so only a full run measures it
    streams: list[tuple[Streamed, int, int | None, float]] = [(REALISTIC, 5, None, 0.2)]
    if effort == FULL:
        streams.append((LARGE, 3, 3, 0.0))
    for streamed, least, most, budget in streams:
        for api, (name, accumulating) in SDK_STREAMS.items():
            stream = open_stream(api, streamed)
            sdk = accumulating(stream)
            assert sdk() == stream.collect(), name
            ours = suite[("stream", api, streamed.label)].ratio
            theirs = effort.compare(stream.sdk_alone, sdk, least=least, share=2, most=most, budget=budget)  # fmt: skip
            cells[(streamed.label, api)] = {"toolwire": ours, name: theirs}
    return cells


def measure(suite_rows: list[Row], effort: Effort) -> PeerTables:
    """Every peer's figures beside toolwire's (taken from `suite_rows`, the same run)."""
    suite = {row.key: row for row in suite_rows if row.key}
    installed = [peer for peer in PEERS if peer.installed()]
    skipped = [
        f"{peer.name} skipped: {peer.distribution} is not installed ({INSTALL})."
        for peer in PEERS
        if not peer.installed()
    ]
    dispatch, hand_loops = _dispatch(suite, effort, installed)
    streams = _streams(suite, effort)
    names: dict[Api, str] = {api: name for api, (name, _) in SDK_STREAMS.items()}
    versions = sorted({f"{p.distribution} {metadata.version(p.distribution)}" for p in installed if p.distribution})  # fmt: skip
    return PeerTables(dispatch, hand_loops, streams, names, skipped, versions)
