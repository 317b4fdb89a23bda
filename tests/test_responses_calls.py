"""Reading Responses calls in every form: SDK items, Parsed items, param dicts, dumps,
whole responses, lists of items; truncation; other client-side calls."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from openai import OpenAI
from openai.types.responses import (
    ParsedResponse,
    ParsedResponseFunctionToolCall,
    ResponseCustomToolCall,
    ResponseCustomToolCallParam,
    ResponseFunctionToolCall,
    ResponseFunctionToolCallParam,
)

from tests.test_responses_support import (
    custom_call,
    function_call,
    message,
    reasoning,
    response_json,
    sdk_response,
)
from toolwire._call import synthesized_id
from toolwire._read import read_calls
from toolwire.core import BaseCustomToolModel, BaseFunctionToolModel, StandardToolCall, ToolGroup
from toolwire.exceptions import UnexpectedObjectError, UnhandledCallsError
from toolwire.testing import FakeOpenAI

WEATHER = StandardToolCall("function", "call_1", "get_weather", '{"city": "Paris"}')
SQL = StandardToolCall("custom", "call_c", "run_sql", "SELECT 1")


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    model_tool_strict = True

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


class run_sql(BaseCustomToolModel[None, None]):
    """Run SQL."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"ran {self.input}", None


GROUP = ToolGroup[None, None].from_list([get_weather, run_sql])


def test_function_call_uses_call_id_not_item_id() -> None:
    """The id to answer is `call_id`; the item id (`fc_...`) is ignored."""
    item = ResponseFunctionToolCall.model_validate(function_call(item_id="fc_other"))
    assert read_calls(item) == [WEATHER]
    assert StandardToolCall.from_any_call(item) == WEATHER


def test_custom_call() -> None:
    """A custom tool call reads as a "custom" call with its free text as input."""
    item = ResponseCustomToolCall.model_validate(custom_call())
    assert read_calls(item) == [SQL]


def test_parsed_function_call() -> None:
    """`ParsedResponseFunctionToolCall` (from `responses.parse`) reads like the plain one."""
    item = ParsedResponseFunctionToolCall.model_validate(
        {**function_call(), "parsed_arguments": {"city": "Paris"}}
    )
    assert read_calls(item) == [WEATHER]


def test_param_dicts() -> None:
    """The SDK's param TypedDict forms read the same as the models."""
    function: ResponseFunctionToolCallParam = {
        "type": "function_call",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
    }
    custom: ResponseCustomToolCallParam = {
        "type": "custom_tool_call",
        "call_id": "call_c",
        "name": "run_sql",
        "input": "SELECT 1",
    }
    assert read_calls([function, custom]) == [WEATHER, SQL]


def test_model_dump_dicts() -> None:
    """`item.model_dump()` dicts (None values, "async_") read the same."""
    response = sdk_response(response_json(function_call(), custom_call()))
    dumps = [item.model_dump() for item in response.output]
    if "async_" in type(response.output[0]).model_fields:  # openai >= 3.38 has the field
        assert "async_" in dumps[0]
    assert read_calls(dumps) == [WEATHER, SQL]


def test_whole_response_skips_non_calls() -> None:
    """A Response's calls come back in order; reasoning, messages and server tools are
    skipped."""
    web_search = {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search", "query": "weather"},
    }
    data = response_json(
        reasoning(), message(phase="commentary"), web_search, function_call(), custom_call()
    )
    response = sdk_response(data)
    assert read_calls(response) == [WEATHER, SQL]
    assert read_calls(data) == [WEATHER, SQL]
    assert read_calls(response.model_dump()) == [WEATHER, SQL]
    assert read_calls(list(response.output)) == [WEATHER, SQL]


def test_parsed_response_from_the_client() -> None:
    """A `ParsedResponse` from `client.responses.parse` dispatches like a Response."""
    fake = FakeOpenAI()
    client = fake.client()
    parsed = client.responses.parse(
        model="gpt-test",
        input="Weather in Paris?",
        tools=[get_weather.model_tool_definition("responses")],
    )
    assert isinstance(parsed, ParsedResponse)
    assert isinstance(parsed.output[0], ParsedResponseFunctionToolCall)
    [call] = read_calls(parsed)
    assert (call.type, call.name, call.id) == ("function", "get_weather", "call_2")
    [result] = GROUP.run_tool_calls(parsed, None)
    assert result.output_item == {
        "type": "function_call_output",
        "call_id": "call_2",
        "output": "Sunny in city.",
    }


def test_dispatch_answers_with_output_items() -> None:
    """Results carry the call id and render as function/custom call output items."""
    response = sdk_response(response_json(function_call(), custom_call()))
    results = GROUP.run_tool_calls(response, None)
    assert [r.output_item for r in results] == [
        {"type": "function_call_output", "call_id": "call_1", "output": "Sunny in Paris."},
        {"type": "custom_tool_call_output", "call_id": "call_c", "output": "ran SELECT 1"},
    ]


def test_missing_call_id_is_synthesized() -> None:
    """A call without a call_id gets the stable id made from the response id and its
    position among the calls."""
    data = response_json(function_call(), function_call(call_id="", item_id="fc_2"))
    calls = read_calls(sdk_response(data))
    assert [(c.id, c.synthesized_id) for c in calls] == [
        ("call_1", False),
        (synthesized_id("resp_1", 1), True),
    ]
    assert calls[1].id == "toolwire_resp_1_1"


# -- truncation -------------------------------------------------------------------------


def test_incomplete_item_is_truncated_and_complete_ones_run() -> None:
    """In an incomplete turn, the item with status incomplete fails as truncated; the
    complete call before it runs."""
    data = response_json(
        function_call(),
        function_call("call_2", arguments='{"ci', item_id="fc_2", status="incomplete"),
        status="incomplete",
        reason="max_output_tokens",
    )
    results = GROUP.run_tool_calls(sdk_response(data), None)
    assert [(r.call_id, r.fail_reason) for r in results] == [
        ("call_1", None),
        ("call_2", "truncated"),
    ]


def test_incomplete_status_alone_truncates_a_listed_item() -> None:
    """Status incomplete truncates an item even outside a response."""
    cut = function_call(arguments='{"city": "Pa', status="incomplete")
    assert read_calls([cut]) == [
        StandardToolCall("function", "call_1", "get_weather", '{"city": "Pa', False, True)
    ]


def test_in_progress_items_of_a_failed_response_are_truncated() -> None:
    """A call still in_progress when the response failed never finished."""
    data = response_json(function_call(status="in_progress"), status="failed")
    [call] = read_calls(sdk_response(data))
    assert call.truncated
    [done] = read_calls(sdk_response(response_json(function_call(status="in_progress"))))
    assert not done.truncated


def test_status_less_last_custom_call_of_a_cut_turn_is_truncated() -> None:
    """Custom calls have no status: the last output item of an incomplete turn was cut,
    an earlier one was whole."""
    data = response_json(
        custom_call(),
        custom_call("call_d", item_id="ctc_2", text="SELECT"),
        status="incomplete",
        reason="max_output_tokens",
    )
    calls = read_calls(sdk_response(data))
    assert [(c.id, c.truncated) for c in calls] == [("call_c", False), ("call_d", True)]
    whole = read_calls(sdk_response(response_json(custom_call())))
    assert [c.truncated for c in whole] == [False]


# -- other client-side calls ---------------------------------------------------------------

CLIENT_CALLS: list[tuple[dict[str, Any], str]] = [
    (
        {
            "type": "computer_call",
            "id": "cu_1",
            "call_id": "call_x",
            "action": {"type": "screenshot"},
            "pending_safety_checks": [],
            "status": "completed",
        },
        "computer_call 'call_x'",
    ),
    (
        {
            "type": "local_shell_call",
            "id": "lsh_1",
            "call_id": "call_x",
            "action": {"type": "exec", "command": ["ls"], "env": {}},
            "status": "completed",
        },
        "local_shell_call 'call_x'",
    ),
    (
        {
            "type": "shell_call",
            "id": "sh_1",
            "call_id": "call_x",
            "action": {"commands": ["ls"]},
            "environment": {"type": "local"},
            "status": "completed",
        },
        "shell_call 'call_x'",
    ),
    (
        {
            "type": "apply_patch_call",
            "id": "ap_1",
            "call_id": "call_x",
            "operation": {"type": "delete_file", "path": "a.txt"},
            "status": "completed",
        },
        "apply_patch_call 'call_x'",
    ),
    (
        {
            "type": "mcp_approval_request",
            "id": "mcpr_1",
            "arguments": "{}",
            "name": "deploy",
            "server_label": "ops",
        },
        "mcp_approval_request 'mcpr_1'",
    ),
    (
        {"type": "hologram_call", "id": "hc_1", "call_id": "call_x", "status": "completed"},
        "hologram_call 'call_x'",
    ),
]


@pytest.mark.parametrize(("item", "named"), CLIENT_CALLS, ids=[c[0]["type"] for c in CLIENT_CALLS])
def test_other_client_calls_raise_unless_ignored(item: dict[str, Any], named: str) -> None:
    """Client-side calls toolwire cannot run raise, naming them and what to do; with
    other_calls="ignore" the function calls run alone."""
    response = sdk_response(response_json(item, function_call()))
    with pytest.raises(UnhandledCallsError) as raised:
        GROUP.run_tool_calls(response, None)
    text = str(raised.value)
    assert named in text
    assert 'other_calls="ignore"' in text
    results = GROUP.run_tool_calls(response, None, other_calls="ignore")
    assert [r.call_id for r in results] == ["call_1"]


def test_client_tool_search_without_a_search_tool_raises() -> None:
    """A client-run tool_search_call is a call the group's tool search answers; a group
    without one raises, saying how to add it or answer the call yourself (even with
    other_calls="ignore": the call is toolwire's to run once a search is added)."""
    search = {
        "type": "tool_search_call",
        "id": "tsc_1",
        "call_id": "call_x",
        "arguments": {"queries": ["rates"]},
        "execution": "client",
        "status": "completed",
    }
    response = sdk_response(response_json(search, function_call()))
    with pytest.raises(UnhandledCallsError) as raised:
        GROUP.run_tool_calls(response, None)
    assert str(raised.value).startswith(
        "This response holds a tool_search_call 'call_x' the client runs, but this group "
        "has no tool search to answer it. Add one with "
        'group.add_tool_search(execution="client")'
    )
    with pytest.raises(UnhandledCallsError):
        GROUP.run_tool_calls(response, None, other_calls="ignore")


def test_unhandled_message_lists_every_call() -> None:
    """The error names every unhandled call and the output item each one needs."""
    computer, shell = CLIENT_CALLS[0][0], {**CLIENT_CALLS[2][0], "call_id": "call_y"}
    with pytest.raises(UnhandledCallsError) as raised:
        read_calls(sdk_response(response_json(computer, shell)))
    assert str(raised.value) == (
        "This response holds client-side calls toolwire does not run: computer_call "
        "'call_x', shell_call 'call_y'. Handle them first (the next request needs a "
        "computer_call_output for each computer_call and a shell_call_output for each "
        'shell_call), then pass other_calls="ignore" to run the function and custom tool '
        "calls with toolwire. `builtin_calls(response)` lists them typed; "
        "computer_call_output(), shell_call_output() build the answers."
    )


SERVER_ITEMS: list[dict[str, Any]] = [
    {"type": "file_search_call", "id": "fs_1", "queries": ["q"], "status": "completed"},
    {"type": "code_interpreter_call", "id": "ci_1", "code": "1", "container_id": "c", "outputs": [], "status": "completed"},
    {"type": "image_generation_call", "id": "ig_1", "result": None, "status": "completed"},
    {"type": "mcp_call", "id": "mcp_1", "arguments": "{}", "name": "n", "server_label": "s"},
    {"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "s", "tools": []},
    {"type": "tool_search_call", "id": "tsc_1", "call_id": None, "arguments": {}, "execution": "server", "status": "completed"},
    {"type": "shell_call", "id": "sh_1", "call_id": "call_s", "action": {"commands": ["ls"]}, "environment": {"type": "container_reference", "container_id": "cntr_1"}, "status": "completed"},
    {"type": "compaction", "id": "cmp_1", "encrypted_content": "x"},
]  # fmt: skip


@pytest.mark.parametrize("item", SERVER_ITEMS, ids=[i["type"] for i in SERVER_ITEMS])
def test_server_side_items_are_skipped(item: dict[str, Any]) -> None:
    """Items the server ran (or that need no answer) are skipped silently."""
    assert read_calls(sdk_response(response_json(item, function_call()))) == [WEATHER]


def test_not_an_item_raises() -> None:
    """Something that is not an output item raises with what to pass instead."""
    with pytest.raises(UnexpectedObjectError) as raised:
        read_calls([function_call(), 42], api="responses")
    assert str(raised.value) == (
        "Expected a Responses output item (from response.output, or its dict form), got an "
        "int (42): pass what the OpenAI Responses client returned, or its dict form."
    )


def test_recorded_response_replays_through_client() -> None:
    """A dict response and the SDK model give identical calls (JSON round trip)."""
    data = response_json(reasoning(), function_call())
    client = OpenAI(
        api_key="x",
        http_client=httpx2.Client(
            transport=httpx2.MockTransport(lambda _: httpx2.Response(200, json=data))
        ),
    )
    response = client.responses.create(model="m", input="x")
    assert read_calls(json.loads(response.model_dump_json())) == read_calls(response) == [WEATHER]
