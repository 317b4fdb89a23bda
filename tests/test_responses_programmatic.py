"""Programmatic tool calling on OpenAI Responses (issue 26 item 4), and the portable
caller "programmatic": `allowed_callers` in the definitions (top-level and in a
namespace), each call's `caller` read by every reader and the stream and seen by hooks,
the `program` and `program_output` items replayed byte for byte, `check_history`'s
program rules, and the fake that makes programmatic calls.

No recorded traffic holds a programmatic call (the corpus has no `program` item): the
shapes are the openai SDK's own models (`Program`, `ProgramOutput`, `CallerProgram`)."""

from __future__ import annotations

from typing import Any

import anthropic
import openai
import pytest
from inline_snapshot import snapshot
from openai.types.responses import Response, ResponseInputItemParam, ResponseStreamEvent
from pydantic import TypeAdapter

from toolwire._adapters.openai_responses.adapter import read_any_response, read_sdk_response
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
    ToolNamespace,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic, FakeCall, FakeOpenAI, FakeReply, check_history


class get_stock(BaseFunctionToolModel[None, None]):
    """Stock level of a product."""

    model_tool_allowed_callers = ["direct", "programmatic"]

    sku: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.sku}: 12", None


WAREHOUSE = ToolNamespace("warehouse", "Warehouse tools.")


class find_bin(BaseFunctionToolModel[None, None]):
    """Where a product is stored."""

    model_tool_namespace = WAREHOUSE
    model_tool_allowed_callers = ["code_execution_20260120"]

    sku: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.sku}: bin 4", None


GROUP = ToolGroup.from_list([get_stock, find_bin])
PROGRAM_TOOL: Any = {"type": "programmatic_tool_calling"}
FINGERPRINT = "fp_0pAqUe+/=\u00e9\n"
"""An opaque fingerprint, with bytes a careless copy would change."""
PROGRAM: dict[str, Any] = {
    "id": "prog_01",
    "type": "program",
    "call_id": "call_prog_01",
    "code": "const [a, b] = await Promise.all([tools.get_stock({sku: 'A1'}), "
    "tools.warehouse.find_bin({sku: 'A1'})]);\ntext(a + b);",
    "fingerprint": FINGERPRINT,
}
CALLER = {"type": "program", "caller_id": "call_prog_01"}
CALLS: list[dict[str, Any]] = [
    {
        "id": "fc_01",
        "type": "function_call",
        "call_id": "call_01",
        "name": "get_stock",
        "arguments": '{"sku": "A1"}',
        "status": "completed",
        "caller": CALLER,
    },
    {
        "id": "fc_02",
        "type": "function_call",
        "call_id": "call_02",
        "name": "find_bin",
        "namespace": "warehouse",
        "arguments": '{"sku": "A1"}',
        "status": "completed",
        "caller": CALLER,
    },
    {
        "id": "fc_03",
        "type": "function_call",
        "call_id": "call_03",
        "name": "get_stock",
        "arguments": '{"sku": "B2"}',
        "status": "completed",
        "caller": {"type": "direct"},
    },
]


def response(*output: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "resp_prog",
        "object": "response",
        "created_at": 1,
        "model": "gpt-5.5",
        "status": "completed",
        "output": list(output),
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


PROGRAMMATIC = response(PROGRAM, *CALLS)
EXPECTED = [
    ProgrammaticCaller("programmatic", "call_prog_01"),
    ProgrammaticCaller("programmatic", "call_prog_01"),
    None,
]


class TestDefinitions:
    def test_responses_sends_allowed_callers_top_level_and_in_a_namespace(self) -> None:
        assert GROUP.tool_definitions("responses") == snapshot(
            [
                {
                    "type": "function",
                    "name": "get_stock",
                    "description": "Stock level of a product.",
                    "parameters": {
                        "properties": {"sku": {"type": "string"}},
                        "required": ["sku"],
                        "type": "object",
                    },
                    "strict": False,
                    "allowed_callers": ["direct", "programmatic"],
                },
                {
                    "type": "namespace",
                    "name": "warehouse",
                    "description": "Warehouse tools.",
                    "tools": [
                        {
                            "type": "function",
                            "name": "find_bin",
                            "description": "Where a product is stored.",
                            "parameters": {
                                "properties": {"sku": {"type": "string"}},
                                "required": ["sku"],
                                "type": "object",
                            },
                            "strict": False,
                            "allowed_callers": ["programmatic"],
                        }
                    ],
                },
            ]
        )

    def test_anthropic_sends_programmatic_as_its_default_code_execution_version(self) -> None:
        assert GROUP.tool_definitions("anthropic") == snapshot(
            [
                {
                    "name": "get_stock",
                    "input_schema": {
                        "properties": {"sku": {"type": "string"}},
                        "required": ["sku"],
                        "type": "object",
                    },
                    "description": "Stock level of a product.",
                    "allowed_callers": ["direct", "code_execution_20250825"],
                },
                {
                    "name": "warehouse__find_bin",
                    "input_schema": {
                        "properties": {"sku": {"type": "string"}},
                        "required": ["sku"],
                        "type": "object",
                    },
                    "description": "Where a product is stored.",
                    "allowed_callers": ["code_execution_20260120"],
                },
            ]
        )

    @pytest.mark.parametrize(
        ("tool", "api", "says"),
        [
            (get_stock, "responses", []),
            (
                get_stock,
                "anthropic",
                [
                    "allowed_callers 'programmatic' is sent as 'code_execution_20250825', the "
                    "name anthropic gives that caller"
                ],
            ),
            (
                find_bin,
                "responses",
                [
                    "allowed_callers 'code_execution_20260120' is sent as 'programmatic', the "
                    "name responses gives that caller"
                ],
            ),
            (find_bin, "anthropic", []),
        ],
    )
    def test_the_report_says_where_a_caller_is_sent_under_another_name(
        self, tool: type[BaseFunctionToolModel[None, None]], api: Api, says: list[str]
    ) -> None:
        report = tool.model_tool_schema_report(api)
        assert [c.detail for c in report.changes if c.keyword == "allowed_callers"] == says
        assert report.lossless

    def test_both_callers_mapping_to_one_are_sent_once(self) -> None:
        class both(BaseFunctionToolModel[None, None]):
            """Both."""

            model_tool_allowed_callers = ["programmatic", "code_execution_20250825"]

            sku: str

        assert both.model_tool_definition("responses").get("allowed_callers") == ["programmatic"]
        anthropic_definition: Any = both.model_tool_definition("anthropic")
        assert anthropic_definition["allowed_callers"] == ["code_execution_20250825"]

    def test_the_fake_takes_them_beside_the_programmatic_tool(self) -> None:
        fake = FakeOpenAI(script=[FakeReply(text="ok")])
        fake.client().responses.create(
            model="gpt-5.5",
            input="Stock of A1?",
            tools=[PROGRAM_TOOL, *GROUP.tool_definitions("responses")],
            tool_choice={"type": "programmatic_tool_calling"},
        )
        assert [t["type"] for t in fake.requests[-1]["tools"]] == [
            "programmatic_tool_calling",
            "function",
            "namespace",
        ]


class TestCalls:
    @pytest.mark.parametrize("form", ["sdk", "dict", "items"])
    def test_every_reader_reads_the_caller(self, form: str) -> None:
        source: Any = {
            "sdk": Response.model_validate(PROGRAMMATIC),
            "dict": PROGRAMMATIC,
            "items": PROGRAMMATIC["output"],
        }[form]
        calls = read_calls(source, api="responses")
        assert [(c.id, c.name, c.caller) for c in calls] == [
            ("call_01", "get_stock", EXPECTED[0]),
            ("call_02", "warehouse__find_bin", EXPECTED[1]),
            ("call_03", "get_stock", None),
        ]

    def test_the_one_pass_reader_reads_it_too(self) -> None:
        """A later turn of a running program holds its calls alone: the SDK reader's one
        pass reads them, as the general reader does."""
        later = Response.model_validate(response(*CALLS))
        fast = read_sdk_response(later)
        assert fast is not None
        assert [c.caller for c in fast] == EXPECTED
        assert fast == read_any_response(later, "raise")

    def test_hooks_see_who_called_and_results_answer_as_usual(self) -> None:
        seen: list[ProgrammaticCaller | None] = []

        def before(call: StandardToolCall) -> None:
            seen.append(call.caller)

        results = GROUP.run_tool_calls(
            Response.model_validate(PROGRAMMATIC), None, hooks=ToolHooks(before=before)
        )
        assert seen == EXPECTED
        assert tool_result_messages(results, "responses") == snapshot(
            [
                {"type": "function_call_output", "call_id": "call_01", "output": "A1: 12"},
                {"type": "function_call_output", "call_id": "call_02", "output": "A1: bin 4"},
                {"type": "function_call_output", "call_id": "call_03", "output": "B2: 12"},
            ]
        )

    @pytest.mark.parametrize("stream", [False, True])
    def test_the_fake_makes_programmatic_calls_and_the_stream_reads_them(
        self, stream: bool
    ) -> None:
        fake = FakeOpenAI(
            script=[
                FakeReply(
                    calls=(
                        FakeCall("get_stock", {"sku": "A1"}, programmatic=True),
                        FakeCall("get_stock", {"sku": "B2"}),
                    )
                )
            ]
        )
        client = fake.client()
        tools: Any = [PROGRAM_TOOL, *GROUP.tool_definitions("responses")]
        if stream:
            accumulator = ToolCallStream("responses")
            events = client.responses.create(
                model="gpt-5.5", input="Stock?", tools=tools, stream=True
            )
            callers = [
                e.call.caller
                for event in events
                for e in accumulator.feed(event)
                if isinstance(e, ToolCallCompleted)
            ]
            final = accumulator.final_response()
        else:
            final = client.responses.create(model="gpt-5.5", input="Stock?", tools=tools)
            callers = [c.caller for c in read_calls(final, api="responses")]
        program: Any = final.output[0]
        assert [item.type for item in final.output] == ["program", "function_call", "function_call"]
        assert callers == [ProgrammaticCaller("programmatic", program.call_id), None]
        assert program.model_dump() == snapshot(
            {
                "id": "prog_fake2",
                "call_id": "program_2",
                "code": """\
const results = await Promise.all([tools.get_stock({"sku": "A1"})]);
text(JSON.stringify(results));\
""",
                "fingerprint": "fake_fingerprint_8d1cb51796d1fa0943dd8e344a1a445bdae571b36b6954a235ca0808a26b18ba",
                "type": "program",
            }
        )

    def test_the_stream_takes_a_caller_only_the_final_item_names(self) -> None:
        started = {**CALLS[0], "arguments": "", "status": "in_progress"}
        del started["caller"]
        raw: list[dict[str, Any]] = [
            {"type": "response.created", "response": {**response(), "status": "in_progress"}},
            {"type": "response.output_item.added", "output_index": 0, "item": PROGRAM},
            {"type": "response.output_item.done", "output_index": 0, "item": PROGRAM},
            {"type": "response.output_item.added", "output_index": 1, "item": started},
            {"type": "response.output_item.done", "output_index": 1, "item": CALLS[0]},
            {"type": "response.completed", "response": response(PROGRAM, CALLS[0])},
        ]
        events = TypeAdapter(list[ResponseStreamEvent]).validate_python(
            [{**event, "sequence_number": n} for n, event in enumerate(raw)]
        )
        stream = ToolCallStream("responses")
        completed = [
            e.call
            for event in events
            for e in stream.feed(event)
            if isinstance(e, ToolCallCompleted)
        ]
        assert [call.caller for call in completed] == EXPECTED[:1]


class TestReplay:
    def test_the_turn_replays_program_items_and_callers_byte_for_byte(self) -> None:
        replayed = assistant_messages(Response.model_validate(PROGRAMMATIC), "responses")
        assert replayed == [PROGRAM, *CALLS]
        program: Any = replayed[0]
        assert program["fingerprint"].encode() == FINGERPRINT.encode()

    def test_a_program_output_replays_as_sent(self) -> None:
        output = {
            "id": "prout_01",
            "type": "program_output",
            "call_id": "call_prog_01",
            "result": "A1: 12 A1: bin 4",
            "status": "completed",
        }
        assert assistant_messages(Response.model_validate(response(output)), "responses") == [
            output
        ]

    def test_check_history_takes_the_round_trip(self) -> None:
        turn = Response.model_validate(PROGRAMMATIC)
        history: list[ResponseInputItemParam] = [{"role": "user", "content": "Stock?"}]
        history += assistant_messages(turn, "responses")
        history += tool_result_messages(GROUP.run_tool_calls(turn, None), "responses")
        assert check_history(history, "responses") == []
        assert (
            check_history(
                tool_result_messages(GROUP.run_tool_calls(turn, None), "responses"),
                "responses",
                previous_response=turn,
            )
            == []
        )

    def test_a_running_programs_later_turn_chains_without_its_program_item(self) -> None:
        """A later turn of a running program holds its calls alone; chained with
        previous_response_id, the program item is in an earlier response of the chain."""
        later = Response.model_validate(response(*CALLS))
        results = tool_result_messages(GROUP.run_tool_calls(later, None), "responses")
        assert check_history(results, "responses", previous_response=later) == []

    def test_check_history_refuses_calls_whose_program_was_dropped(self) -> None:
        turn = Response.model_validate(PROGRAMMATIC)
        replayed = [
            item for item in assistant_messages(turn, "responses") if item.get("type") != "program"
        ]
        history: list[Any] = [{"role": "user", "content": "Stock?"}, *replayed]
        history += tool_result_messages(GROUP.run_tool_calls(turn, None), "responses")
        assert [(p.index, p.message) for p in check_history(history, "responses")] == snapshot(
            [
                (
                    1,
                    "input[1] (function_call 'call_01', get_stock) was made by the program 'call_prog_01', but no program item with that call_id comes before it; replay the response's program item (with its fingerprint) before its calls, as assistant_messages does, or chain with previous_response_id",
                ),
                (
                    2,
                    "input[2] (function_call 'call_02', find_bin) was made by the program 'call_prog_01', but no program item with that call_id comes before it; replay the response's program item (with its fingerprint) before its calls, as assistant_messages does, or chain with previous_response_id",
                ),
            ]
        )

    def test_check_history_refuses_a_program_without_its_fingerprint(self) -> None:
        turn = Response.model_validate(PROGRAMMATIC)
        replayed: list[Any] = assistant_messages(turn, "responses")
        del replayed[0]["fingerprint"]
        history: list[Any] = [{"role": "user", "content": "Stock?"}, *replayed]
        history += tool_result_messages(GROUP.run_tool_calls(turn, None), "responses")
        assert [(p.index, p.message) for p in check_history(history, "responses")] == snapshot(
            [
                (
                    1,
                    "input[1] (program 'call_prog_01') has no fingerprint; replay the program item as the API returned it: its fingerprint must round-trip unchanged",
                )
            ]
        )


class TestFakeLoop:
    def loop(self, *, store: bool) -> list[Any]:
        """Two turns through the fake: the program's calls, then (with their results
        replayed, or chained with previous_response_id) the program's end."""
        fake = FakeOpenAI(
            script=[
                FakeReply(
                    calls=(
                        FakeCall("get_stock", {"sku": "A1"}, programmatic=True),
                        FakeCall("warehouse__find_bin", {"sku": "A1"}, programmatic=True),
                    )
                ),
                FakeReply(text="A1: 12 in bin 4."),
            ]
        )
        client = fake.client()
        tools: Any = [PROGRAM_TOOL, *GROUP.tool_definitions("responses")]
        history: list[Any] = [{"role": "user", "content": "Where is A1, and how many?"}]
        first = client.responses.create(model="gpt-5.5", input=history, tools=tools, store=store)
        results = tool_result_messages(GROUP.run_tool_calls(first, None), "responses")
        if store:
            second = client.responses.create(
                model="gpt-5.5", input=results, tools=tools, previous_response_id=first.id
            )
        else:
            history += assistant_messages(first, "responses") + results
            second = client.responses.create(
                model="gpt-5.5", input=history, tools=tools, store=False
            )
        history += assistant_messages(second, "responses")
        return history

    @pytest.mark.parametrize("store", [False, True])
    def test_the_program_ends_in_its_output_once_its_calls_are_answered(self, store: bool) -> None:
        history = self.loop(store=store)
        assert history[-2:] == snapshot(
            [
                {
                    "id": "prout_fake6",
                    "call_id": "program_2",
                    "result": '["A1: 12", "A1: bin 4"]',
                    "status": "completed",
                    "type": "program_output",
                },
                {
                    "id": "msg_fake7",
                    "content": [
                        {
                            "annotations": [],
                            "text": "A1: 12 in bin 4.",
                            "type": "output_text",
                            "logprobs": [],
                        }
                    ],
                    "role": "assistant",
                    "status": "completed",
                    "type": "message",
                },
            ]
        )
        assert check_history(history, "responses") == []

    def test_unscripted_a_tool_only_programs_may_call_is_called_from_a_program(self) -> None:
        class count_orders(BaseFunctionToolModel[None, None]):
            """Orders of a product."""

            model_tool_allowed_callers = ["programmatic"]

            sku: str

            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "3", None

        group = ToolGroup.from_list([get_stock, count_orders])
        tools: Any = [PROGRAM_TOOL, *group.tool_definitions("responses")]
        first = FakeOpenAI().client().responses.create(model="gpt-5.5", input="?", tools=tools)
        program: Any = first.output[0]
        assert [(c.name, c.caller) for c in read_calls(first, api="responses")] == [
            ("get_stock", None),
            ("count_orders", ProgrammaticCaller("programmatic", program.call_id)),
        ]
        with pytest.raises(openai.BadRequestError, match="offers no"):
            FakeOpenAI().client().responses.create(
                model="gpt-5.5", input="?", tools=group.tool_definitions("responses")
            )

    def test_the_fake_refuses_a_changed_fingerprint(self) -> None:
        fake = FakeOpenAI(
            script=[
                FakeReply(calls=(FakeCall("get_stock", {"sku": "A1"}, programmatic=True),)),
                FakeReply(text="ok"),
            ]
        )
        client = fake.client()
        tools: Any = [PROGRAM_TOOL, *GROUP.tool_definitions("responses")]
        first = client.responses.create(model="gpt-5.5", input="Stock?", tools=tools)
        replayed: list[Any] = assistant_messages(first, "responses")
        replayed[0]["fingerprint"] += "x"
        results = tool_result_messages(GROUP.run_tool_calls(first, None), "responses")
        with pytest.raises(openai.BadRequestError, match="carries a fingerprint that differs"):
            client.responses.create(
                model="gpt-5.5", input=[*replayed, *results], tools=tools, store=False
            )

    @pytest.mark.parametrize(
        ("tools", "says"),
        [
            ("definitions", r"offers no \{'type': 'programmatic_tool_calling'\} tool"),
            ("direct only", r"allowed_callers do not hold 'programmatic'"),
        ],
    )
    def test_the_fake_refuses_a_programmatic_call_the_request_does_not_allow(
        self, tools: str, says: str
    ) -> None:
        fake = FakeOpenAI(
            script=[FakeReply(calls=(FakeCall("get_stock", {"sku": "A1"}, programmatic=True),))]
        )
        offered: Any = GROUP.tool_definitions("responses")
        if tools == "direct only":
            offered = [PROGRAM_TOOL, {**offered[0], "allowed_callers": ["direct"]}]
        with pytest.raises(openai.BadRequestError, match=says):
            fake.client().responses.create(model="gpt-5.5", input="Stock?", tools=offered)

    def test_a_fake_without_programmatic_calls_refuses_one(self) -> None:
        fake = FakeAnthropic(
            script=[FakeReply(calls=(FakeCall("get_stock", {"sku": "A1"}, programmatic=True),))]
        )
        with pytest.raises(
            anthropic.BadRequestError, match="which the anthropic fake does not make"
        ):
            fake.client().messages.create(
                model="claude-sonnet-4-6",
                max_tokens=1024,
                messages=[{"role": "user", "content": "Stock?"}],
                tools=[
                    {"type": "code_execution_20250825", "name": "code_execution"},
                    get_stock.model_tool_definition("anthropic"),
                ],
            )
