"""Programmatic tool calling (issue 26 item 4), on Anthropic: `model_tool_allowed_callers`
in the definitions (checked when the class is made, refused by the fake without a code
execution tool, left out on Chat Completions and Gemini with the schema report saying
so; Responses in test_responses_programmatic.py), each call's
`caller` read by every reader and the stream and seen by hooks, replayed as sent, and
the container the next request must name again."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx2
import pytest
from anthropic.types import Message, MessageParam
from inline_snapshot import snapshot

from tests.conformance.test_anthropic_round_trips import synthesized_sse
from tests.shared_data import all_cases, require_shared
from toolwire._read import read_calls
from toolwire.core import (
    Api,
    BaseFunctionToolModel,
    ProgrammaticCaller,
    StandardToolCall,
    ToolCallCompleted,
    ToolCallStream,
    ToolGroup,
    ToolHooks,
    assistant_messages,
    next_request_container,
    tool_result_messages,
)
from toolwire.exceptions import ToolDefinitionError
from toolwire.testing import FakeAnthropic, check_history


class get_stock(BaseFunctionToolModel[None, None]):
    """Stock level of a product."""

    model_tool_allowed_callers = ["code_execution_20250825"]

    sku: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.sku}: 12", None


GROUP = ToolGroup.from_list([get_stock])
CODE_EXECUTION = {"type": "code_execution_20250825", "name": "code_execution"}
SERVER_ID = "srvtoolu_01Prog"
PROGRAMMATIC: dict[str, Any] = {
    "id": "msg_prog",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-6",
    "content": [
        {
            "type": "server_tool_use",
            "id": SERVER_ID,
            "name": "code_execution",
            "input": {"code": "print(get_stock(sku='A1'))"},
        },
        {
            "type": "tool_use",
            "id": "toolu_01Prog",
            "name": "get_stock",
            "input": {"sku": "A1"},
            "caller": {"type": "code_execution_20250825", "tool_id": SERVER_ID},
        },
        {
            "type": "tool_use",
            "id": "toolu_02Direct",
            "name": "get_stock",
            "input": {"sku": "B2"},
            "caller": {"type": "direct"},
        },
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 20},
    "container": {"id": "container_011Prog", "expires_at": "2026-11-28T10:00:00Z"},
}
EXPECTED = [
    ProgrammaticCaller("code_execution_20250825", SERVER_ID),
    None,
]


class TestDefinitions:
    def test_anthropic_sends_allowed_callers_and_the_fake_takes_them_with_code_execution(
        self,
    ) -> None:
        fake = FakeAnthropic()
        tools: Any = [CODE_EXECUTION, *GROUP.tool_definitions("anthropic")]
        fake.client().messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=[{"role": "user", "content": "Stock of A1?"}],
            tools=tools,
        )
        assert fake.requests[-1]["tools"][1] == snapshot(
            {
                "name": "get_stock",
                "input_schema": {
                    "properties": {"sku": {"type": "string"}},
                    "required": ["sku"],
                    "type": "object",
                },
                "description": "Stock level of a product.",
                "allowed_callers": ["code_execution_20250825"],
            }
        )

    def test_the_fake_refuses_them_without_a_code_execution_tool(self) -> None:
        fake = FakeAnthropic()
        with pytest.raises(anthropic.BadRequestError, match="needs the code execution tool"):
            fake.client().messages.create(
                model="claude-sonnet-4-6",
                max_tokens=1024,
                messages=[{"role": "user", "content": "Stock of A1?"}],
                tools=GROUP.tool_definitions("anthropic"),
            )

    @pytest.mark.parametrize("api", ["chat.completions", "gemini"])
    def test_elsewhere_they_are_left_out_and_the_report_says_so(self, api: Api) -> None:
        assert "allowed_callers" not in str(get_stock.model_tool_definition(api))
        report = get_stock.model_tool_schema_report(api)
        assert [(c.keyword, c.action, c.lossy) for c in report.changes] == [
            ("allowed_callers", "removed", True)
        ]

    @pytest.mark.parametrize(
        ("given", "says"),
        [
            (["code_execution"], r"names 'code_execution', which is no caller: use 'code_exe"),
            ([], r"is empty, so nobody could call the tool"),
            ("direct", r"set it to a list of callers"),
            (["direct", "direct"], r"names a caller twice"),
        ],
    )
    def test_a_wrong_value_fails_when_the_class_is_made(self, given: Any, says: str) -> None:
        with pytest.raises(ToolDefinitionError, match=says):

            class bad(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
                """Bad."""

                model_tool_allowed_callers = given

                sku: str


class TestCalls:
    @pytest.mark.parametrize("form", ["sdk", "dict", "blocks"])
    def test_every_reader_reads_the_caller(self, form: str) -> None:
        """The SDK Message takes the fast reader, its dict and block list the general one."""
        source: Any = {
            "sdk": Message.model_validate(PROGRAMMATIC),
            "dict": PROGRAMMATIC,
            "blocks": PROGRAMMATIC["content"],
        }[form]
        assert [call.caller for call in read_calls(source, api="anthropic")] == EXPECTED

    def test_the_stream_reads_it_from_content_block_start(self) -> None:
        events = [
            anthropic.Anthropic(
                api_key="x",
                http_client=httpx2.Client(
                    transport=httpx2.MockTransport(
                        lambda _: httpx2.Response(
                            200,
                            content=synthesized_sse(PROGRAMMATIC),
                            headers={"content-type": "text/event-stream"},
                        )
                    )
                ),
            ).messages.create(model="claude-sonnet-4-6", max_tokens=1024, messages=[], stream=True)
        ]
        stream = ToolCallStream("anthropic")
        completed = [
            event.call
            for sse in events[0]
            for event in stream.feed(sse)
            if isinstance(event, ToolCallCompleted)
        ]
        assert [call.caller for call in completed] == EXPECTED
        final: Any = stream.final_response()
        assert final.content[1].caller.tool_id == SERVER_ID
        assert next_request_container(final) == "container_011Prog"

    def test_hooks_see_who_called(self) -> None:
        seen: list[ProgrammaticCaller | None] = []

        def before(call: StandardToolCall) -> None:
            seen.append(call.caller)

        GROUP.run_tool_calls(
            Message.model_validate(PROGRAMMATIC), None, hooks=ToolHooks(before=before)
        )
        assert seen == EXPECTED


class TestNextRequest:
    def test_the_container_id_for_the_next_request(self) -> None:
        assert next_request_container(Message.model_validate(PROGRAMMATIC)) == "container_011Prog"
        assert next_request_container(PROGRAMMATIC) == "container_011Prog"
        assert next_request_container({**PROGRAMMATIC, "container": None}) is None

    def test_the_replayed_turn_keeps_the_caller_and_the_history_passes(self) -> None:
        message = Message.model_validate(PROGRAMMATIC)
        history: list[MessageParam] = [{"role": "user", "content": "Stock of A1 and B2?"}]
        history += assistant_messages(message, "anthropic")
        history += tool_result_messages(GROUP.run_tool_calls(message, None), "anthropic")
        replayed: Any = history[1]["content"]
        assert [block.get("caller") for block in replayed] == [
            None,
            {"type": "code_execution_20250825", "tool_id": SERVER_ID},
            {"type": "direct"},
        ]
        assert check_history(history, "anthropic") == []


def recorded_with_caller() -> list[Any]:
    return [
        pytest.param(case, id=case["id"])
        for case in all_cases()
        if case["api"] == "anthropic" and not case["stream"] and '"caller"' in json.dumps(case)
    ]


@pytest.mark.parametrize("case", recorded_with_caller())
def test_recorded_callers_round_trip(case: dict[str, Any]) -> None:
    """Every recorded tool_use with a `caller` (all "direct": the model called it) reads
    as a direct call, and the replayed turn carries the caller as the API sent it."""
    require_shared()
    response = case["response"]
    blocks = [b for b in response["content"] if b["type"] == "tool_use"]
    calls = read_calls(Message.model_validate(response), api="anthropic")
    assert [call.caller for call in calls] == [None] * len(blocks)
    replayed: Any = assistant_messages(Message.model_validate(response), "anthropic")
    sent = [b for b in replayed[0]["content"] if b["type"] == "tool_use"]
    assert [b.get("caller") for b in sent] == [b.get("caller") for b in blocks]
