"""OpenAI loops as users write them: what the real clients parse from a server's reply
goes through toolwire without a crash, and every call gets its one result.

The replies come through the real `openai.OpenAI` client (an `httpx2.MockTransport`), so
the objects toolwire reads are the ones the SDK builds, lenient parsing included: a
reply missing a field the SDK types require still becomes an SDK object, with None there.
"""

from __future__ import annotations

from typing import Any

import httpx2
from inline_snapshot import snapshot
from openai import OpenAI
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from toolwire.core import BaseFunctionToolModel, ToolGroup, assistant_messages, tool_result_messages


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str = "Paris"

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


GROUP = ToolGroup[None, None].from_list([get_weather])


def _client(reply: dict[str, Any]) -> OpenAI:
    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, json=reply)

    transport = httpx2.MockTransport(answer)
    return OpenAI(api_key="test", http_client=httpx2.Client(transport=transport))


def _chat(tool_calls: list[dict[str, Any]], finish_reason: str = "tool_calls") -> ChatCompletion:
    message = {"role": "assistant", "content": None, "tool_calls": tool_calls}
    reply = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-test",
        "choices": [{"index": 0, "finish_reason": finish_reason, "message": message}],
    }
    client = _client(reply)
    return client.chat.completions.create(
        model="gpt-test", messages=[{"role": "user", "content": "?"}]
    )


def _responses(output: list[dict[str, Any]], status: str = "completed") -> Response:
    reply = {
        "id": "resp_1",
        "object": "response",
        "created_at": 0,
        "model": "gpt-test",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "status": status,
    }
    return _client(reply).responses.create(model="gpt-test", input="?")


def _answers(calls: Any) -> list[tuple[str, str, str | None]]:
    """(call id, name, fail reason) of each result, read twice: the first dispatch of a
    response class and the later ones take different readers."""
    first = [(r.call_id, r.name, r.fail_reason) for r in GROUP.run_tool_calls(calls, None)]
    again = [(r.call_id, r.name, r.fail_reason) for r in GROUP.run_tool_calls(calls, None)]
    assert again == first
    return first


def test_chat_call_without_a_name_is_answered_not_crashed() -> None:
    """A server that leaves out a call's name (a proxy, an OpenAI-compatible server):
    the SDK builds the call with name None; the call is answered as an unknown tool."""
    completion = _chat(
        [
            {"id": "call_1", "type": "function", "function": {"arguments": "{}"}},
            {
                "id": "call_2",
                "type": "function",
                "function": {"name": "get_weather", "arguments": "{}"},
            },
        ]
    )
    assert completion.choices[0].message.tool_calls is not None
    assert _answers(completion) == snapshot(
        [("call_1", "", "invalid_name"), ("call_2", "get_weather", None)]
    )
    assert _answers(completion.choices[0].message.tool_calls) == snapshot(
        [("call_1", "", "invalid_name"), ("call_2", "get_weather", None)]
    )


def test_chat_call_without_its_function_part_is_answered_not_crashed() -> None:
    """A call with no `function` (or `custom`) part at all still gets its one result,
    so the history the API wants (one tool message per call id) can be completed."""
    completion = _chat(
        [
            {"id": "call_1", "type": "function"},
            {"id": "call_2", "type": "custom"},
            {
                "id": "call_3",
                "type": "function",
                "function": {"name": "get_weather", "arguments": "{}"},
            },
        ]
    )
    assert _answers(completion) == snapshot(
        [
            ("call_1", "", "invalid_name"),
            ("call_2", "", "invalid_name"),
            ("call_3", "get_weather", None),
        ]
    )
    results = GROUP.run_tool_calls(completion, None)
    assert tool_result_messages(results, "chat.completions") == snapshot(
        [
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": "Unknown tool ''. Available tools: get_weather. Call one of them by its exact name.",
            },
            {
                "role": "tool",
                "tool_call_id": "call_2",
                "content": "Unknown tool ''. Available tools: get_weather. Call one of them by its exact name.",
            },
            {"role": "tool", "tool_call_id": "call_3", "content": "Sunny in Paris."},
        ]
    )


def test_responses_call_without_a_name_is_answered_not_crashed() -> None:
    items = [
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "arguments": "{}",
            "status": "completed",
        },
        {
            "type": "function_call",
            "id": "fc_2",
            "call_id": "call_2",
            "name": "get_weather",
            "arguments": "{}",
            "status": "completed",
        },
    ]
    for status in ("completed", "incomplete"):
        response = _responses(items, status)
        assert _answers(response) == snapshot(
            [("call_1", "", "invalid_name"), ("call_2", "get_weather", None)]
        )
        assert _answers(response.output) == snapshot(
            [("call_1", "", "invalid_name"), ("call_2", "get_weather", None)]
        )


def test_chat_call_sent_without_arguments_replays_them_as_an_empty_object() -> None:
    """OpenAI-compatible servers send `arguments: null` for a tool without parameters;
    the call runs as `{}`, and the replayed turn says `"{}"`: the param type requires a
    string there, and servers answer 400 to a null."""
    completion = _chat(
        [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": None},
            }
        ]
    )
    assert _answers(completion) == snapshot([("call_1", "get_weather", None)])
    assert assistant_messages(completion, "chat.completions") == snapshot(
        [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": "{}"},
                    }
                ],
            }
        ]
    )


def test_responses_call_sent_without_arguments_replays_them_as_an_empty_object() -> None:
    response = _responses(
        [
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "get_weather",
                "status": "completed",
            }
        ]
    )
    assert _answers(response) == snapshot([("call_1", "get_weather", None)])
    replayed = assistant_messages(response, "responses")
    assert replayed == snapshot(
        [
            {
                "arguments": "{}",
                "call_id": "call_1",
                "name": "get_weather",
                "type": "function_call",
                "id": "fc_1",
                "status": "completed",
            }
        ]
    )
    assert assistant_messages(response.model_dump(exclude_none=True), "responses") == replayed
