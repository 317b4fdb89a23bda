"""Responses history helpers: the replayed turn (only param-defined keys, reasoning and
phase kept), the result items, and why a turn ended."""

from __future__ import annotations

import json
import typing
from typing import Any, cast

import pydantic
import pytest
from inline_snapshot import snapshot
from openai.types.responses import (
    ResponseCustomToolCallParam,
    ResponseFunctionToolCallParam,
    ResponseOutputMessageParam,
    ResponseReasoningItemParam,
)

from tests.test_responses_param_keys import undefined_keys
from tests.test_responses_support import (
    custom_call,
    function_call,
    message,
    reasoning,
    refusal,
    response_json,
    sdk_response,
)
from toolwire.core import (
    BaseFunctionToolModel,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.exceptions import ToolwireError, UnexpectedObjectError
from toolwire.testing import FakeOpenAI, FakeReply


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    model_tool_strict = True

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


GROUP = ToolGroup[None, None].from_list([get_weather])


def _keys(typed_dict: Any) -> set[str]:
    return set(typing.get_type_hints(typed_dict, include_extras=True))


def test_replayed_turn_keeps_every_item_with_defined_keys_only() -> None:
    """Reasoning (encrypted_content), message (phase) and calls come back in order, with
    "async" not "async_", and without created_by or nulls the params do not allow."""
    call = {
        **function_call(),
        "async": False,
        "namespace": None,
        "caller": None,
        "created_by": "user_1",
    }
    response = sdk_response(
        response_json(reasoning(), message(phase="commentary"), call, custom_call())
    )
    replayed = assistant_messages(response, "responses")
    assert replayed == snapshot(
        [
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "Thinking."}],
                "encrypted_content": "enc-1",
            },
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [
                    {"type": "output_text", "text": "Hello.", "annotations": [], "logprobs": []}
                ],
                "phase": "commentary",
            },
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": '{"city": "Paris"}',
                "status": "completed",
                "async": False,
                "caller": None,
            },
            {
                "type": "custom_tool_call",
                "id": "ctc_1",
                "call_id": "call_c",
                "name": "run_sql",
                "input": "SELECT 1",
            },
        ]
    )
    assert [undefined_keys(item) for item in replayed] == [[], [], [], []]
    kinds = [ResponseReasoningItemParam, ResponseOutputMessageParam]
    kinds += [ResponseFunctionToolCallParam, ResponseCustomToolCallParam]
    assert all(set(item) <= _keys(kind) for item, kind in zip(replayed, kinds, strict=True))
    json.dumps(replayed)


def test_model_dump_form_replays_with_defined_keys_only() -> None:
    """A response's `model_dump()` (None everywhere, "async_") replays cleanly too:
    `"async_": False` goes back as `"async": False`."""
    call = {**function_call(), "async": False}
    response = sdk_response(response_json(reasoning(), message(), call))
    dumped = response.model_dump()
    assert dumped["output"][2]["async_"] is False
    replayed = assistant_messages(dumped, "responses")
    assert [undefined_keys(item) for item in replayed] == [[], [], []]
    assert replayed[2] == {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
        "status": "completed",
        "async": False,
        "caller": None,
    }
    assert dict(replayed[0])["encrypted_content"] == "enc-1"


def test_function_call_without_item_id_drops_the_null() -> None:
    """`id: null` is optional but not nullable in the param type, so it is dropped."""
    response = sdk_response(response_json({**function_call(), "id": None}))
    [item] = assistant_messages(response, "responses")
    assert "id" not in item
    assert undefined_keys(item) == []


class Answer(pydantic.BaseModel):
    city: str


def test_parsed_response_drops_parsed_fields() -> None:
    """`ParsedResponse` items lose `parsed` and `parsed_arguments` when replayed."""
    client = FakeOpenAI(
        script=[
            FakeReply(text='{"city": "Paris"}'),
        ]
    ).client()
    parsed = client.responses.parse(model="m", input="Where?", text_format=Answer)
    assert parsed.output_parsed == Answer(city="Paris")
    [item] = assistant_messages(parsed, "responses")
    assert undefined_keys(item) == []
    assert "parsed" not in json.dumps(item)

    calls = FakeOpenAI(script=[FakeReply.tool_calls(("get_weather", {"city": "Rome"}))]).client()
    with_tools = calls.responses.parse(
        model="m", input="Rome?", tools=[get_weather.model_tool_definition("responses")]
    )
    assert type(with_tools.output[0]).__name__ == "ParsedResponseFunctionToolCall"
    [call] = assistant_messages(with_tools, "responses")
    assert "parsed_arguments" not in call
    assert undefined_keys(call) == []


def test_synthesized_ids_are_written() -> None:
    """A call without call_id is replayed with the id its result answers."""
    response = sdk_response(response_json(function_call(call_id="", item_id="fc_9")))
    [item] = assistant_messages(response, "responses")
    [result] = GROUP.run_tool_calls(response, None)
    assert dict(item)["call_id"] == result.call_id == "toolwire_resp_1_0"


def test_replayed_items_are_fresh() -> None:
    """Mutating the replayed items leaves the response and its dict form untouched."""
    data = response_json(function_call())
    [item] = assistant_messages(data, "responses")
    cast(dict[str, Any], item)["name"] = "changed"
    assert data["output"][0]["name"] == "get_weather"


def test_tool_result_messages_one_item_per_call_in_order() -> None:
    """One output item per result, in call order; nothing for no results."""
    response = sdk_response(response_json(function_call(), function_call("call_2", item_id="fc_2")))
    results = GROUP.run_tool_calls(response, None)
    assert tool_result_messages(results, "responses") == [
        {"type": "function_call_output", "call_id": "call_1", "output": "Sunny in Paris."},
        {"type": "function_call_output", "call_id": "call_2", "output": "Sunny in Paris."},
    ]
    assert tool_result_messages([], "responses") == []


def test_replayed_history_is_accepted_by_the_fake() -> None:
    """Input + replayed turn + results is a history the (rule-checking) fake accepts."""
    fake = FakeOpenAI(script=[FakeReply(thinking="Hmm.", calls=FakeReply.tool_calls(("get_weather", {"city": "Oslo"})).calls), FakeReply(text="Done.")])  # fmt: skip
    client = fake.client()
    history: list[Any] = [{"role": "user", "content": "Oslo?"}]
    tools = GROUP.tool_definitions("responses")
    first = client.responses.create(model="m", input=history, tools=tools)
    history += assistant_messages(first, "responses")
    history += tool_result_messages(GROUP.run_tool_calls(first, None), "responses")
    second = client.responses.create(model="m", input=history, tools=tools)
    assert second.output_text == "Done."
    assert [item["type"] for item in fake.requests[1]["input"][1:]] == [
        "reasoning",
        "function_call",
        "function_call_output",
    ]


# -- turn status -------------------------------------------------------------------------

STATUSES: list[tuple[dict[str, Any], str]] = [
    (response_json(reasoning(), function_call()), "tool_calls"),
    (response_json(custom_call()), "tool_calls"),
    (response_json(message()), "done"),
    (response_json(), "done"),
    (response_json(refusal()), "refused"),
    (response_json(message(), status="incomplete", reason="max_output_tokens"), "truncated"),
    (response_json(function_call(status="incomplete"), status="incomplete", reason="max_output_tokens"), "truncated"),
    (response_json(status="incomplete", reason="content_filter"), "refused"),
    (response_json(status="incomplete", reason="max_messages"), "truncated"),
    (response_json(function_call(), status="failed"), "truncated"),
    (response_json(status="cancelled"), "truncated"),
    (response_json({"type": "computer_call", "id": "cu_1", "call_id": "call_x", "action": {"type": "screenshot"}, "pending_safety_checks": [], "status": "completed"}), "tool_calls"),
    (response_json({"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}, message()), "done"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "expected"), STATUSES)
def test_turn_status(data: dict[str, Any], expected: str) -> None:
    """Each response shape maps to its documented status, as model and as dict."""
    assert turn_status(sdk_response(data), "responses") == expected
    assert turn_status(data, "responses") == expected


def test_turn_status_of_a_list_of_items() -> None:
    """A list of output items has no response status: calls decide it."""
    assert turn_status([function_call()], "responses") == "tool_calls"
    assert turn_status([message()], "responses") == "done"


@pytest.mark.parametrize("status", ["queued", "in_progress"])
def test_unfinished_response_raises(status: str) -> None:
    """A background response that is not finished has no turn status yet."""
    with pytest.raises(ToolwireError, match="retrieve"):
        turn_status(sdk_response(response_json(status=status)), "responses")


def test_not_a_response_raises() -> None:
    """A dict without `output` is not a response."""
    with pytest.raises(UnexpectedObjectError) as raised:
        assistant_messages({"id": "x"}, "responses")
    assert str(raised.value) == (
        "Expected a Responses response (a Response, its output items, or their dict forms), "
        "got a dict with keys ['id']: pass what the OpenAI Responses client returned, or its "
        "dict form."
    )


def test_nested_tool_definitions_are_cleaned_but_schemas_kept() -> None:
    """A tool_search_output's tools lose "async_" and nulls; their JSON schemas (free-form
    objects) are kept whole."""
    schema = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}
    found = {
        "type": "tool_search_output",
        "id": "tso_1",
        "call_id": None,
        "execution": "server",
        "status": "completed",
        "tools": [{"type": "function", "name": "f", "parameters": schema, "strict": True}],
    }
    response = sdk_response(response_json(found, function_call()))
    [replayed, _] = assistant_messages(response, "responses")
    assert dict(replayed)["tools"] == [
        {"type": "function", "name": "f", "parameters": schema, "strict": True}
    ]
    [dumped, _] = assistant_messages(response.model_dump(), "responses")
    assert undefined_keys(dumped) == []
    [tool] = cast(list[dict[str, Any]], dict(dumped)["tools"])
    assert "async_" not in tool
    assert tool["parameters"] == schema


def test_unknown_item_types_are_replayed_as_sent() -> None:
    """An item type this SDK has no param for goes back as the API sent it, minus nulls."""
    future = {"type": "hologram", "id": "h_1", "payload": {"a": [1, 2]}, "note": None}
    [item] = assistant_messages(response_json(future), "responses")
    assert dict(item) == {"type": "hologram", "id": "h_1", "payload": {"a": [1, 2]}}
