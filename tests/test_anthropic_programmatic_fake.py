"""FakeAnthropic makes programmatic calls (issue 26 item 4): the program the code execution
tool runs opens with its `server_tool_use` block, each `tool_use` it makes names it in
`caller`, the response names its `container`, the results must come back with that
container, and once the program makes no more calls its `code_execution_tool_result`
opens the next response. The real `Anthropic` client drives the loop, JSON and streamed;
the fake refuses what the live API refuses.

No recorded traffic holds a programmatic call (the corpus's callers are all "direct"):
the shapes are the SDK's own models (`ServerToolUseBlock`, `ServerToolCaller`,
`CodeExecutionToolResultBlock`, `Container`) and Anthropic's programmatic tool calling
guide."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
from anthropic.types import Message, MessageParam
from inline_snapshot import snapshot

from tests.test_responses_programmatic import get_stock
from toolwire._read import read_calls
from toolwire.core import (
    BaseFunctionToolModel,
    ProgrammaticCaller,
    StandardToolCall,
    ToolCallCompleted,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    next_request_container,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic, FakeCall, FakeReply, check_history


class count_orders(BaseFunctionToolModel[None, None]):
    """Orders of a product this month; only code may call it."""

    model_tool_allowed_callers = ["programmatic"]

    sku: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.sku}: 3 orders", None


GROUP = ToolGroup.from_list([get_stock, count_orders])
CODE_EXECUTION: Any = {"type": "code_execution_20250825", "name": "code_execution"}
TOOLS: Any = [CODE_EXECUTION, *GROUP.tool_definitions("anthropic")]
MODEL = "claude-sonnet-4-6"
SCRIPT = [
    FakeReply(
        calls=(
            FakeCall("get_stock", {"sku": "A1"}, programmatic=True),
            FakeCall("get_stock", {"sku": "B2"}, programmatic=True),
        )
    ),
    FakeReply(calls=(FakeCall("get_stock", {"sku": "C3"}, programmatic=True),)),
    FakeReply(text="A1 and B2 have 12 each; so has C3."),
]
"""A program calling get_stock twice, then once more, then ending."""


def create(
    client: anthropic.Anthropic,
    stream: bool,
    messages: list[MessageParam],
    container: str | None,
) -> tuple[Message, list[StandardToolCall]]:
    """One turn (naming the container when there is one): the response, and its calls
    read (from the stream's events when streamed, as a streaming loop reads them)."""
    named = anthropic.omit if container is None else container
    if not stream:
        message = client.messages.create(
            model=MODEL, max_tokens=1024, tools=TOOLS, messages=messages, container=named
        )
        return message, read_calls(message, api="anthropic")
    reader = ToolCallStream("anthropic")
    events = client.messages.create(
        model=MODEL, max_tokens=1024, tools=TOOLS, messages=messages, container=named, stream=True
    )
    calls = [
        event.call
        for sse in events
        for event in reader.feed(sse)
        if isinstance(event, ToolCallCompleted)
    ]
    final: Any = reader.final_response()
    return final, calls


def run_loop(stream: bool) -> tuple[FakeAnthropic, list[Message], list[MessageParam]]:
    """The caller's loop on the fake: answer each turn's calls, passing the container on."""
    fake = FakeAnthropic(script=SCRIPT)
    client = fake.client()
    history: list[MessageParam] = [{"role": "user", "content": "Stock of A1, B2 and C3?"}]
    responses: list[Message] = []
    container: str | None = None
    while True:
        message, calls = create(client, stream, history, container)
        responses.append(message)
        history += assistant_messages(message, "anthropic")
        if not calls:
            return fake, responses, history
        history += tool_result_messages(GROUP.run_tool_calls(calls, None), "anthropic")
        container = next_request_container(message)


def answered_first_turn(fake: FakeAnthropic, tools: Any) -> tuple[Message, list[MessageParam]]:
    """The first turn on `fake`, and the history answering its calls."""
    history: list[MessageParam] = [{"role": "user", "content": "Stock of A1 and B2?"}]
    first = fake.client().messages.create(
        model=MODEL, max_tokens=1024, tools=tools, messages=history
    )
    history += assistant_messages(first, "anthropic")
    history += tool_result_messages(GROUP.run_tool_calls(first, None), "anthropic")
    return first, history


def callers_of(calls: list[StandardToolCall]) -> list[ProgrammaticCaller | None]:
    return [call.caller for call in calls]


class TestTheLoop:
    @pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
    def test_a_program_calls_tools_and_ends_in_its_output(self, stream: bool) -> None:
        fake, responses, history = run_loop(stream)
        assert [r.to_dict(mode="json") for r in responses] == snapshot(
            [
                {
                    "id": "msg_fake1",
                    "container": {"id": "container_fake5", "expires_at": "2030-01-01T00:00:00Z"},
                    "content": [
                        {
                            "id": "srvtoolu_fake2",
                            "caller": {"type": "direct"},
                            "input": {
                                "code": """\
print(await get_stock(**{"sku": "A1"}))
print(await get_stock(**{"sku": "B2"}))\
"""
                            },
                            "name": "code_execution",
                            "type": "server_tool_use",
                        },
                        {
                            "id": "toolu_fake3",
                            "caller": {
                                "tool_id": "srvtoolu_fake2",
                                "type": "code_execution_20250825",
                            },
                            "input": {"sku": "A1"},
                            "name": "get_stock",
                            "type": "tool_use",
                        },
                        {
                            "id": "toolu_fake4",
                            "caller": {
                                "tool_id": "srvtoolu_fake2",
                                "type": "code_execution_20250825",
                            },
                            "input": {"sku": "B2"},
                            "name": "get_stock",
                            "type": "tool_use",
                        },
                    ],
                    "model": "claude-sonnet-4-6",
                    "role": "assistant",
                    "stop_reason": "tool_use",
                    "stop_sequence": None,
                    "type": "message",
                    "usage": {
                        "cache_creation_input_tokens": 0,
                        "cache_read_input_tokens": 0,
                        "input_tokens": 10,
                        "output_tokens": 10,
                    },
                },
                {
                    "id": "msg_fake6",
                    "container": {"id": "container_fake5", "expires_at": "2030-01-01T00:00:00Z"},
                    "content": [
                        {
                            "id": "toolu_fake7",
                            "caller": {
                                "tool_id": "srvtoolu_fake2",
                                "type": "code_execution_20250825",
                            },
                            "input": {"sku": "C3"},
                            "name": "get_stock",
                            "type": "tool_use",
                        }
                    ],
                    "model": "claude-sonnet-4-6",
                    "role": "assistant",
                    "stop_reason": "tool_use",
                    "stop_sequence": None,
                    "type": "message",
                    "usage": {
                        "cache_creation_input_tokens": 0,
                        "cache_read_input_tokens": 0,
                        "input_tokens": 10,
                        "output_tokens": 10,
                    },
                },
                {
                    "id": "msg_fake8",
                    "container": {"id": "container_fake5", "expires_at": "2030-01-01T00:00:00Z"},
                    "content": [
                        {
                            "content": {
                                "content": [],
                                "return_code": 0,
                                "stderr": "",
                                "stdout": "C3: 12\n",
                                "type": "code_execution_result",
                            },
                            "tool_use_id": "srvtoolu_fake2",
                            "type": "code_execution_tool_result",
                        },
                        {"text": "A1 and B2 have 12 each; so has C3.", "type": "text"},
                    ],
                    "model": "claude-sonnet-4-6",
                    "role": "assistant",
                    "stop_reason": "end_turn",
                    "stop_sequence": None,
                    "type": "message",
                    "usage": {
                        "cache_creation_input_tokens": 0,
                        "cache_read_input_tokens": 0,
                        "input_tokens": 10,
                        "output_tokens": 10,
                    },
                },
            ]
        )
        assert [callers_of(read_calls(r, api="anthropic")) for r in responses] == snapshot(
            [
                [
                    ProgrammaticCaller(kind="code_execution_20250825", tool_id="srvtoolu_fake2"),
                    ProgrammaticCaller(kind="code_execution_20250825", tool_id="srvtoolu_fake2"),
                ],
                [ProgrammaticCaller(kind="code_execution_20250825", tool_id="srvtoolu_fake2")],
                [],
            ]
        )
        assert [request.get("container") for request in fake.requests] == snapshot(
            [None, "container_fake5", "container_fake5"]
        )
        assert check_history(history, "anthropic") == []

    def test_the_stream_opens_each_call_with_its_caller(self) -> None:
        fake = FakeAnthropic(script=SCRIPT[:1])
        events = fake.client().messages.create(
            model=MODEL,
            max_tokens=1024,
            tools=TOOLS,
            stream=True,
            messages=[{"role": "user", "content": "Stock of A1 and B2?"}],
        )
        opened = [
            (event.type, event.to_dict(mode="json"))
            for event in events
            if event.type in ("content_block_start", "message_delta")
        ]
        assert opened == snapshot(
            [
                (
                    "content_block_start",
                    {
                        "content_block": {
                            "id": "srvtoolu_fake2",
                            "caller": {"type": "direct"},
                            "input": {},
                            "name": "code_execution",
                            "type": "server_tool_use",
                        },
                        "index": 0,
                        "type": "content_block_start",
                    },
                ),
                (
                    "content_block_start",
                    {
                        "content_block": {
                            "id": "toolu_fake3",
                            "caller": {
                                "tool_id": "srvtoolu_fake2",
                                "type": "code_execution_20250825",
                            },
                            "input": {},
                            "name": "get_stock",
                            "type": "tool_use",
                        },
                        "index": 1,
                        "type": "content_block_start",
                    },
                ),
                (
                    "content_block_start",
                    {
                        "content_block": {
                            "id": "toolu_fake4",
                            "caller": {
                                "tool_id": "srvtoolu_fake2",
                                "type": "code_execution_20250825",
                            },
                            "input": {},
                            "name": "get_stock",
                            "type": "tool_use",
                        },
                        "index": 2,
                        "type": "content_block_start",
                    },
                ),
                (
                    "message_delta",
                    {
                        "delta": {
                            "container": {
                                "id": "container_fake5",
                                "expires_at": "2030-01-01T00:00:00Z",
                            },
                            "stop_reason": "tool_use",
                            "stop_sequence": None,
                        },
                        "type": "message_delta",
                        "usage": {"output_tokens": 10},
                    },
                ),
            ]
        )

    def test_a_tool_only_code_may_call_is_called_by_a_program_unscripted(self) -> None:
        fake = FakeAnthropic()
        tools: Any = [CODE_EXECUTION, count_orders.model_tool_definition("anthropic")]
        first, history = answered_first_turn(fake, tools)
        last = fake.client().messages.create(
            model=MODEL,
            max_tokens=1024,
            tools=tools,
            messages=history,
            container=next_request_container(first),
        )
        assert callers_of(read_calls(first, api="anthropic")) == snapshot(
            [ProgrammaticCaller(kind="code_execution_20250825", tool_id="srvtoolu_fake2")]
        )
        assert last.to_dict(mode="json")["content"] == snapshot(
            [
                {
                    "content": {
                        "content": [],
                        "return_code": 0,
                        "stderr": "",
                        "stdout": "sku: 3 orders\n",
                        "type": "code_execution_result",
                    },
                    "tool_use_id": "srvtoolu_fake2",
                    "type": "code_execution_tool_result",
                },
                {"text": "(offline fake) The tools answered: sku: 3 orders", "type": "text"},
            ]
        )


class TestRefusals:
    def test_results_without_the_container_are_refused_as_the_live_api_does(self) -> None:
        fake = FakeAnthropic(script=SCRIPT)
        _, history = answered_first_turn(fake, TOOLS)
        with pytest.raises(anthropic.BadRequestError) as refused:
            fake.client().messages.create(
                model=MODEL, max_tokens=1024, tools=TOOLS, messages=history
            )
        assert refused.value.response.json() == snapshot(
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "container_id is required when there are pending tool uses generated by code execution with tools (toolwire fake: pass `container=next_request_container(response)`, the container of the response whose program made the calls)",
                },
                "request_id": "req_fake",
            }
        )

    def test_results_with_another_container_are_refused(self) -> None:
        fake = FakeAnthropic(script=SCRIPT)
        _, history = answered_first_turn(fake, TOOLS)
        with pytest.raises(anthropic.BadRequestError) as refused:
            fake.client().messages.create(
                model=MODEL,
                max_tokens=1024,
                tools=TOOLS,
                messages=history,
                container="container_other",
            )
        assert refused.value.response.json()["error"]["message"] == snapshot(
            "toolwire fake: container 'container_other' is not the container 'container_fake5' in which the program 'srvtoolu_fake2' waits for its results; pass `container=next_request_container(response)` of the response that made the calls"
        )

    def test_a_programmatic_call_no_program_could_make_is_refused(self) -> None:
        plain = {
            key: value
            for key, value in get_stock.model_tool_definition("anthropic").items()
            if key != "allowed_callers"
        }
        offers: dict[str, Any] = {
            "no code execution tool": [plain],
            "allowed_callers without its version": [
                CODE_EXECUTION,
                {**plain, "allowed_callers": ["direct"]},
            ],
        }
        refusals: dict[str, str] = {}
        for offer, tools in offers.items():
            fake = FakeAnthropic(script=SCRIPT)
            with pytest.raises(anthropic.BadRequestError) as refused:
                fake.client().messages.create(
                    model=MODEL,
                    max_tokens=1024,
                    tools=tools,
                    messages=[{"role": "user", "content": "Stock of A1?"}],
                )
            refusals[offer] = refused.value.response.json()["error"]["message"]
        assert refusals == snapshot(
            {
                "no code execution tool": 'toolwire fake: the reply calls \'get_stock\' from a program (FakeCall(programmatic=True), or the tool\'s allowed_callers leave out \'direct\'), but the request offers no code execution tool whose programs call tools (code_execution_20250825, code_execution_20260120, code_execution_20260521), so the model runs no program; add one to `tools`, e.g. {"type": "code_execution_20250825", "name": "code_execution"}.',
                "allowed_callers without its version": "toolwire fake: the reply calls 'get_stock' from a program run by the code execution tool 'code_execution_20250825', but that tool's allowed_callers ['direct'] do not hold 'code_execution_20250825'; set model_tool_allowed_callers = [\"programmatic\"] on its class, or name that version.",
            }
        )

    def test_text_beside_a_programs_results_is_refused(self) -> None:
        fake = FakeAnthropic(script=SCRIPT)
        first, history = answered_first_turn(fake, TOOLS)
        results: Any = history[-1]["content"]
        history[-1] = {"role": "user", "content": [*results, {"type": "text", "text": "Go on."}]}
        assert [p.message for p in check_history(history, "anthropic")] == snapshot(
            [
                "messages[2] (user) answers calls a program made ('toolu_fake3', 'toolu_fake4') and also holds a text block at content[2]; while a program waits for its results, the message must hold only tool_result blocks: send other content once the program has ended"
            ]
        )
        with pytest.raises(anthropic.BadRequestError) as refused:
            fake.client().messages.create(
                model=MODEL,
                max_tokens=1024,
                tools=TOOLS,
                messages=history,
                container=next_request_container(first),
            )
        assert refused.value.response.json()["error"]["message"] == snapshot("""\
The history breaks the anthropic rules:
- messages[2] (user) answers calls a program made ('toolu_fake3', 'toolu_fake4') and also holds a text block at content[2]; while a program waits for its results, the message must hold only tool_result blocks: send other content once the program has ended\
""")
