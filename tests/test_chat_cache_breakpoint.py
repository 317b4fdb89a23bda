"""`tool_result_messages(results, "chat.completions", cache_breakpoint=...)`: OpenAI's
explicit prompt-cache breakpoint (`prompt_cache_breakpoint`) on the answer's last content
part, in the shape of the openai SDK's param TypedDicts; nothing for a server that takes
none (`ChatServer.cache_breakpoints`); and the marked answer accepted by the fake, sent
through the real SDK client."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

from tests.helpers import get_weather
from tests.images import PNG
from tests.test_anthropic_param_keys import undefined_keys
from toolwire._adapters.openai_chat.servers import KNOWN_SERVERS
from toolwire.core import (
    BaseFunctionToolModel,
    ChatServer,
    ImagePart,
    ToolCallResult,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeOpenAI, FakeReply, check_history

USER: ChatCompletionMessageParam = {"role": "user", "content": "Weather in Paris and Rome?"}


class radar(BaseFunctionToolModel[None, None]):
    """The rain radar over a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[Any, None]:
        return ["Radar:", ImagePart(data=PNG, media_type="image/png")], None


GROUP = ToolGroup.from_list([get_weather, radar])
IMAGE_URL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIk"
    "AYFvkeRkAAAAAElFTkSuQmCC"
)


def _results(*calls: tuple[str, str]) -> list[ToolCallResult[None]]:
    """The results of one assistant turn making `calls` (name, arguments JSON), its ids
    call_1, call_2..., read from the SDK's own `ChatCompletion`."""
    tool_calls = [
        {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": args}}
        for n, (name, args) in enumerate(calls, 1)
    ]
    message = {"role": "assistant", "content": None, "tool_calls": tool_calls}
    response = ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-5.6",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        }
    )
    return GROUP.run_tool_calls(response, None)


def _sdk_shaped(answer: list[ChatCompletionMessageParam]) -> list[ChatCompletionMessageParam]:
    """`answer`, checked to hold only keys the SDK's param TypedDicts define."""
    assert undefined_keys(answer, list[ChatCompletionMessageParam]) == []
    return answer


def test_the_last_tool_message_of_several_gets_the_breakpoint() -> None:
    """Only the answer's last tool message changes: its text becomes one text part."""
    results = _results(("get_weather", '{"city": "Paris"}'), ("get_weather", '{"city": "Rome"}'))
    answer = tool_result_messages(results, "chat.completions", cache_breakpoint=True)
    expected: list[ChatCompletionMessageParam] = [
        {"role": "tool", "tool_call_id": "call_1", "content": "Sunny in Paris."},
        {
            "role": "tool",
            "tool_call_id": "call_2",
            "content": [
                {
                    "type": "text",
                    "text": "Sunny in Rome.",
                    "prompt_cache_breakpoint": {"mode": "explicit"},
                }
            ],
        },
    ]
    assert _sdk_shaped(answer) == expected
    assert tool_result_messages(results, "chat.completions") == [
        {"role": "tool", "tool_call_id": "call_1", "content": "Sunny in Paris."},
        {"role": "tool", "tool_call_id": "call_2", "content": "Sunny in Rome."},
    ]  # without a breakpoint: the text as it was, each call rendered afresh


def test_a_failure_result_carries_it_too() -> None:
    [result] = _results(("get_weather", "{}"))
    assert result.fail_reason == "invalid_arguments"
    answer = tool_result_messages([result], "chat.completions", cache_breakpoint=True)
    expected: list[ChatCompletionMessageParam] = [
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": [
                {
                    "type": "text",
                    "text": result.result_content,
                    "prompt_cache_breakpoint": {"mode": "explicit"},
                }
            ],
        }
    ]
    assert _sdk_shaped(answer) == expected


def test_with_images_the_attachments_last_part_gets_it() -> None:
    """Chat Completions puts images in a user message after the tool messages: the
    answer ends there, on the image."""
    results = _results(("get_weather", '{"city": "Paris"}'), ("radar", '{"city": "Paris"}'))
    answer = tool_result_messages(results, "chat.completions", cache_breakpoint="12h")
    expected: list[ChatCompletionMessageParam] = [
        {"role": "tool", "tool_call_id": "call_1", "content": "Sunny in Paris."},
        {
            "role": "tool",
            "tool_call_id": "call_2",
            "content": "Radar:\n[The image or file this tool returned follows in the next message.]",
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "From radar (call call_2):"},
                {
                    "type": "image_url",
                    "image_url": {"url": IMAGE_URL},
                    "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "12h"},
                },
            ],
        },
    ]
    assert _sdk_shaped(answer) == expected


@pytest.mark.parametrize("ttl", ["30m", "12h"])
def test_a_lifetime_openai_takes(ttl: Any) -> None:
    results = _results(("get_weather", '{"city": "Paris"}'))
    answer = tool_result_messages(results, "chat.completions", cache_breakpoint=ttl)
    expected: list[ChatCompletionMessageParam] = [
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": [
                {
                    "type": "text",
                    "text": "Sunny in Paris.",
                    "prompt_cache_breakpoint": {"mode": "explicit", "ttl": ttl},
                }
            ],
        }
    ]
    assert _sdk_shaped(answer) == expected


@pytest.mark.parametrize("ttl", ["5m", "1h"])
def test_a_lifetime_openai_does_not_take_says_which_it_does(ttl: Any) -> None:
    results = _results(("get_weather", '{"city": "Paris"}'))
    says = f"cache_breakpoint='{ttl}': a Chat Completions breakpoint lives '30m' \\(the default"
    with pytest.raises(ValueError, match=says):
        tool_result_messages(results, "chat.completions", cache_breakpoint=ttl)
    with pytest.raises(ValueError, match=says):  # definitions take none, but check it too
        GROUP.tool_definitions("chat.completions", cache_breakpoint=ttl)


def test_a_server_that_takes_none_gets_the_plain_answer() -> None:
    """Every known server but OpenAI's takes none (the lifetime goes unchecked, as on
    Gemini); a profile that says it takes them gets the breakpoint."""
    takes = [server.name for server in KNOWN_SERVERS if server.cache_breakpoints]
    assert takes == ["OpenAI"]
    results = _results(("get_weather", '{"city": "Paris"}'), ("radar", '{"city": "Paris"}'))
    for server in KNOWN_SERVERS[1:]:
        plain = tool_result_messages(results, server)
        assert tool_result_messages(results, server, cache_breakpoint=True) == plain
        assert tool_result_messages(results, server, cache_breakpoint="1h") == plain
    gateway = dataclasses.replace(ChatServer.OPENROUTER, cache_breakpoints=True)
    marked = tool_result_messages(results, gateway, cache_breakpoint=True)
    assert marked == tool_result_messages(results, "chat.completions", cache_breakpoint=True)
    assert marked != tool_result_messages(results, gateway)


def test_the_marked_answer_goes_through_the_sdk_client_to_the_fake() -> None:
    """The real openai client sends the marked tool message; the fake (and
    `check_history`) accept it, turn after turn, and read its text as the result."""
    fake = FakeOpenAI(
        script=[
            FakeReply.tool_calls(("get_weather", {"city": "Paris"})),
            FakeReply.tool_calls(("radar", {"city": "Rome"})),
            FakeReply("Sunny in Paris; the radar shows Rome."),
        ]
    )
    client = fake.client()
    tools = GROUP.tool_definitions("chat.completions", cache_breakpoint=True)
    assert tools == GROUP.tool_definitions("chat.completions")  # definitions take none
    messages: list[ChatCompletionMessageParam] = [USER]
    for _ in range(2):
        response = client.chat.completions.create(model="gpt-5.6", messages=messages, tools=tools)
        results = GROUP.run_tool_calls(response, None)
        answer = tool_result_messages(results, "chat.completions", cache_breakpoint=True)
        messages += [*assistant_messages(response, "chat.completions"), *answer]
    final = client.chat.completions.create(model="gpt-5.6", messages=messages, tools=tools)
    assert final.choices[0].message.content == "Sunny in Paris; the radar shows Rome."
    assert check_history(messages, "chat.completions") == []
    assert fake.requests[-1]["messages"] == messages  # sent as rendered, breakpoints kept
    assert [request["messages"][-1] for request in fake.requests[1:]] == [
        {
            "role": "tool",
            "tool_call_id": "call_2",
            "content": [
                {
                    "type": "text",
                    "text": "Sunny in Paris.",
                    "prompt_cache_breakpoint": {"mode": "explicit"},
                }
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "From radar (call call_4):"},
                {
                    "type": "image_url",
                    "image_url": {"url": IMAGE_URL},
                    "prompt_cache_breakpoint": {"mode": "explicit"},
                },
            ],
        },
    ]
