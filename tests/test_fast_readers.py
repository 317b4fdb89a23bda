"""Each API's one-pass reader of its SDK response class (the reader its adapter's
`class_reading` gives that class) reads exactly what the general reader reads, or
declines (None) so that the general reader runs.

Checked on every recorded non-streamed response (parsed by the SDK's own models) and on
the shapes the fast readers must decline: cut turns, calls without ids, other kinds of
client calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from anthropic.types import Message
from google.genai import types as genai
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from tests.shared_data import all_cases, require_shared
from toolwire._adapters.anthropic import adapter as anthropic
from toolwire._adapters.gemini import adapter as gemini
from toolwire._adapters.openai_chat import adapter as chat
from toolwire._adapters.openai_responses import adapter as responses
from toolwire._api import Api, adapter
from toolwire._class_reading import RESPONSE, SDK_CLASSES
from toolwire._read import read_calls
from toolwire.core import StandardToolCall

SDK_CLASS: dict[str, tuple[Api, Any]] = {
    "openai-chat": ("chat.completions", ChatCompletion),
    "openai-responses": ("responses", Response),
    "anthropic": ("anthropic", Message),
    "gemini": ("gemini", genai.GenerateContentResponse),
}

FAST: dict[Api, Callable[[Any], list[StandardToolCall] | None]] = {
    "chat.completions": chat.read_sdk_completion,
    "responses": responses.read_sdk_response,
    "anthropic": anthropic.read_sdk_message,
    "gemini": gemini.read_sdk_response,
}
"""Each API's one-pass reader of its SDK response class."""

GENERAL: dict[Api, Callable[[Any], list[StandardToolCall]]] = {
    "chat.completions": chat.read_any_response,
    "responses": lambda response: responses.read_any_response(response, "raise"),
    "anthropic": anthropic.read_any_response,
    "gemini": gemini.read_any_response,
}
"""Each API's reader of any response it takes, whatever its class or state."""


def _general(api: Api, response: object) -> list[StandardToolCall] | str:
    return _calls_or_error(GENERAL[api], response)


def _entry(api: Api, response: object) -> list[StandardToolCall] | str:
    """What the readings of the response's class read (`class_reading`, remembered per
    class): its one-pass reader, which is the API's fast reader, or the general reader
    when that declines."""
    reading = adapter(api).class_reading(response)
    assert reading.shape == RESPONSE
    assert reading.one_pass is FAST[api]

    def read(obj: object) -> list[StandardToolCall]:
        calls = FAST[api](obj)
        return calls if calls is not None else reading.read(obj, other_calls="raise")

    return _calls_or_error(read, response)


def _calls_or_error(
    read: Callable[[Any], list[StandardToolCall]], response: object
) -> list[StandardToolCall] | str:
    try:
        return read(response)
    except Exception as error:  # what the reader raised, by name
        return type(error).__name__


def _fast(api: Api, response: object) -> list[StandardToolCall] | None:
    return FAST[api](response)


def test_recorded_responses_read_the_same() -> None:
    require_shared()
    compared = declined = 0
    for case in all_cases():
        if case["stream"]:
            continue
        api, sdk_class = SDK_CLASS[case["api"]]
        # As each SDK builds responses from the wire: leniently (a newer or older field
        # never fails), and for Gemini from camelCase JSON.
        if api == "gemini":
            response = sdk_class._from_response(response=case["response"], kwargs={})
        else:
            response = sdk_class.construct(**case["response"])
        fast = _fast(api, response)
        general = _general(api, response)
        if fast is None:
            declined += 1
        else:
            assert fast == general, case["id"]
            compared += 1
        assert _entry(api, response) == general, case["id"]  # the adapter's entry point
        if isinstance(general, list):  # the public entry point picks a reader: same calls
            assert read_calls(response) == general, case["id"]
    assert compared > 200  # nearly every recorded response takes the fast path
    assert declined < 20


def _chat(finish_reason: str, *calls: dict[str, Any]) -> ChatCompletion:
    return ChatCompletion.model_validate(
        {"id": "c1", "object": "chat.completion", "created": 1, "model": "m",
         "choices": [{"index": 0, "finish_reason": finish_reason, "message": {
             "role": "assistant", "content": None, "tool_calls": list(calls)}}]}
    )  # fmt: skip


def _chat_call(call_id: str, arguments: str = "{}") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "f", "arguments": arguments}}


CUSTOM = {"id": "c2", "type": "custom", "custom": {"name": "g", "input": "free text"}}
"""A Chat custom tool call: the one-pass reader reads it by the general rules."""
PROGRAM = {"type": "program", "caller_id": "call_prog_01"}
"""A Responses call made by the model's code (programmatic tool calling)."""
SERVER = {"type": "code_execution_20260120", "tool_id": "srvtoolu_1"}
"""An Anthropic call made by the code execution tool (programmatic tool calling)."""


def _anthropic(stop_reason: str, *blocks: dict[str, Any]) -> Message:
    return Message.model_validate(
        {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
         "stop_reason": stop_reason, "stop_sequence": None,
         "usage": {"input_tokens": 1, "output_tokens": 1}, "content": list(blocks)}
    )  # fmt: skip


def _responses(status: str, *items: dict[str, Any]) -> Response:
    return Response.model_validate(
        {"id": "r1", "object": "response", "created_at": 1, "model": "m", "status": status,
         "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "output": list(items)}
    )  # fmt: skip


def _function_call(call_id: str, status: str = "completed") -> dict[str, Any]:
    return {"type": "function_call", "id": "fc", "call_id": call_id, "name": "f",
            "arguments": "{}", "status": status}  # fmt: skip


def _gemini(*parts: genai.Part) -> genai.GenerateContentResponse:
    content = genai.Content(role="model", parts=list(parts))
    return genai.GenerateContentResponse(
        response_id="resp-1.x", candidates=[genai.Candidate(content=content)]
    )


@pytest.mark.parametrize(
    ("api", "response", "declines"),
    [
        ("chat.completions", _chat("tool_calls", _chat_call("a"), _chat_call("b")), False),
        ("chat.completions", _chat("length", _chat_call("a", '{"x": ')), True),
        ("chat.completions", _chat("tool_calls", _chat_call("")), False),
        ("chat.completions", _chat("tool_calls", _chat_call("a"), CUSTOM, _chat_call("")), False),
        ("chat.completions", _chat("length", _chat_call("a"), CUSTOM), True),
        ("responses", _responses("completed", _function_call("a"), _function_call("b")), False),
        ("responses", _responses("incomplete", _function_call("a", "incomplete")), True),
        ("responses", _responses("completed", _function_call("")), True),
        (
            "responses",
            _responses(
                "completed",
                {**_function_call("a"), "namespace": "crm", "caller": PROGRAM},
                {**_function_call("b"), "status": None},
            ),
            False,
        ),
        (
            "responses",
            _responses(
                "completed",
                {
                    "type": "custom_tool_call",
                    "id": "ct",
                    "call_id": "c",
                    "name": "g",
                    "input": "free text",
                },
            ),  # fmt: skip
            True,
        ),
        (
            "responses",
            _responses(
                "completed",
                {
                    "type": "computer_call",
                    "id": "cu",
                    "call_id": "c",
                    "action": {"type": "screenshot"},
                    "pending_safety_checks": [],
                    "status": "completed",
                },
            ),  # fmt: skip
            True,
        ),
        (  # what the server ran (a web search, an MCP call) leaves nothing to run: one pass
            "responses",
            _responses(
                "completed",
                {
                    "type": "web_search_call",
                    "id": "ws",
                    "status": "completed",
                    "action": {"type": "search", "query": "q"},
                },
                _function_call("a"),
                {
                    "type": "mcp_call",
                    "id": "mc",
                    "server_label": "s",
                    "name": "t",
                    "arguments": "{}",
                    "output": "done",
                },
                {"type": "reasoning", "id": "rs", "summary": []},
            ),  # fmt: skip
            False,
        ),
        (  # an MCP approval request is a call the general reader reads
            "responses",
            _responses(
                "completed",
                _function_call("a"),
                {
                    "type": "mcp_approval_request",
                    "id": "ap",
                    "server_label": "s",
                    "name": "t",
                    "arguments": "{}",
                },
            ),  # fmt: skip
            True,
        ),
        (
            "anthropic",
            _anthropic(
                "tool_use",
                {"type": "text", "text": "hi"},
                {"type": "tool_use", "id": "t1", "name": "f", "input": {"a": 1}},
                {"type": "tool_use", "id": "t2", "name": "f", "input": {"INVALID_JSON": '{"a": '}},
            ),  # fmt: skip
            False,
        ),
        (
            "anthropic",
            _anthropic(
                "tool_use",
                {"type": "tool_use", "id": "t1", "name": "f", "input": {}, "caller": SERVER},
            ),
            False,
        ),
        (
            "anthropic",
            _anthropic("max_tokens", {"type": "tool_use", "id": "t1", "name": "f", "input": {}}),
            True,
        ),  # fmt: skip
        (
            "anthropic",
            _anthropic("tool_use", {"type": "tool_use", "id": "", "name": "f", "input": {}}),
            True,
        ),  # fmt: skip
        (
            "gemini",
            _gemini(
                genai.Part(text="calling"),
                genai.Part(function_call=genai.FunctionCall(name="f", args={"a": 1})),
                genai.Part(function_call=genai.FunctionCall(name="f", id="given")),
                genai.Part(function_call=genai.FunctionCall(name="f")),
            ),
            False,
        ),
        ("gemini", genai.GenerateContentResponse(candidates=[]), True),
        (
            "gemini",
            _gemini(genai.Part(function_call=genai.FunctionCall(name="f", will_continue=True))),
            True,
        ),
    ],
)
def test_edge_cases_read_the_same_or_decline(api: Api, response: object, declines: bool) -> None:
    fast = _fast(api, response)
    assert (fast is None) is declines
    general = _general(api, response)
    if fast is not None:
        assert fast == general
    assert _entry(api, response) == general


@pytest.mark.parametrize(
    "response",
    [
        _chat("tool_calls", _chat_call("a")),
        _responses("completed", _function_call("a")),
        _anthropic("tool_use", {"type": "tool_use", "id": "t1", "name": "f", "input": {}}),
        genai.GenerateContentResponse(candidates=[]),
    ],
)
def test_one_reading_per_class_is_remembered(response: object) -> None:
    """`read_calls` asks the adapter once how to read a response class; the remembered
    reading is the class's fast reader, and the adapters' history paths use the same."""
    SDK_CLASSES.pop(type(response), None)
    read_calls(response)
    reading = SDK_CLASSES[type(response)]
    api = reading.api
    assert reading == adapter(api).class_reading(response)
    assert reading.shape == RESPONSE
    adapter(api).turn_status(response)  # reads the same entry, adds none
    assert SDK_CLASSES[type(response)] is reading
