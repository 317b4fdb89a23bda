"""`FakeAnthropic` through the real `Anthropic` / `AsyncAnthropic` clients: replies like the
live API (JSON and SSE), and HTTP 400 where the live API rejects the history."""

from __future__ import annotations

import asyncio
from typing import Any

import anthropic
import pytest
from anthropic.types import Message, MessageParam, ThinkingConfigParam
from inline_snapshot import snapshot

from toolwire.core import (
    BaseFunctionToolModel,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeAnthropic, FakeCall, FakeReply


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"sunny in {self.city}", None


class Forecast(BaseFunctionToolModel[None, None]):
    """A forecast."""

    city: str
    days: int


group = ToolGroup[None, None].from_list([get_weather])
PROMPT: MessageParam = {"role": "user", "content": "Weather in Oslo?"}


def create(
    client: anthropic.Anthropic,
    messages: list[Any],
    thinking: ThinkingConfigParam | anthropic.Omit = anthropic.omit,
) -> Message:
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        messages=messages,
        tools=group.tool_definitions("anthropic"),
        thinking=thinking,
    )


def stream_events(client: anthropic.Anthropic, messages: list[Any]) -> list[Any]:
    return list(
        client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=messages,
            tools=group.tool_definitions("anthropic"),
            stream=True,
        )
    )


def run_loop(
    client: anthropic.Anthropic, thinking: ThinkingConfigParam | anthropic.Omit = anthropic.omit
) -> list[MessageParam]:
    """The one loop shape: returns the whole history."""
    history: list[MessageParam] = [PROMPT]
    while True:
        message = create(client, history, thinking)
        history += assistant_messages(message, "anthropic")
        results = group.run_tool_calls(message, None)
        if not results:
            return history
        history += tool_result_messages(results, "anthropic")


def test_default_policy_calls_each_tool_then_answers() -> None:
    """tool_use with minimal valid input first, then text quoting the results; ids are
    deterministic."""
    fake = FakeAnthropic()
    history = run_loop(fake.client())
    assert history[1:] == snapshot(
        [
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_fake2",
                        "name": "get_weather",
                        "input": {"city": "city"},
                        "caller": {"type": "direct"},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_fake2",
                        "content": "sunny in city",
                    }
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "(offline fake) The tools answered: sunny in city"}
                ],
            },
        ]
    )
    assert len(fake.requests) == 2


def test_the_stream_carries_the_same_message() -> None:
    """With stream=True the fake sends the live event sequence; folded, it is the same
    Message the JSON reply gives."""
    script = [
        FakeReply(
            text="Checking.", calls=(FakeCall("get_weather", {"city": "Oslo"}),), thinking="Hmm."
        )
    ]
    as_json = create(FakeAnthropic(script=script).client(), [PROMPT])
    stream = ToolCallStream("anthropic")
    for event in stream_events(FakeAnthropic(script=script).client(), [PROMPT]):
        stream.feed(event)
    assert stream.final_response() == as_json
    assert [b.type for b in as_json.content] == ["thinking", "text", "tool_use"]


def _rejection(messages: list[Any]) -> dict[str, Any]:
    fake = FakeAnthropic(script=[FakeReply(text="ok")])
    with pytest.raises(anthropic.BadRequestError) as caught:
        create(fake.client(), messages)
    assert caught.value.status_code == 400
    body: Any = caught.value.body
    assert body["type"] == "error"
    assert body["error"]["type"] == "invalid_request_error"
    return body


TURN = {
    "role": "assistant",
    "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "A"}},
        {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "B"}},
    ],
}


def result(call_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": "ok"}


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        (
            [{"role": "user", "content": [result("toolu_1")]}],
            "'toolu_2' (get_weather) with no tool_result",
        ),
        (
            [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Done?"},
                        result("toolu_1"),
                        result("toolu_2"),
                    ],
                }
            ],
            "has a text block before the tool_result",
        ),
        (
            [
                {
                    "role": "user",
                    "content": [result("toolu_1"), result("toolu_2"), result("toolu_9")],
                }
            ],
            "tool_result for 'toolu_9', but messages[1] (assistant) has no tool_use with that id",
        ),
        (
            [
                {"role": "user", "content": [result("toolu_1")]},
                {"role": "user", "content": [result("toolu_2")]},
            ],
            "put every tool_result of one assistant turn in a single user message",
        ),
        ([{"role": "user", "content": "Thanks"}], "with no tool_result in the next message"),
    ],
    ids=["missing", "not-first", "unknown-id", "split", "text-instead"],
)
def test_histories_the_api_rejects_get_400(after: list[Any], expected: str) -> None:
    """Missing results, results not first, unknown ids and split results are HTTP 400 in
    Anthropic's error shape, naming the problem."""
    body = _rejection([PROMPT, TURN, *after])
    assert expected in body["error"]["message"]


def test_a_changed_thinking_signature_is_rejected() -> None:
    """A replayed thinking block must keep its signature (and text) byte for byte."""
    fake = FakeAnthropic(
        script=[
            FakeReply(thinking="Let me look.", calls=(FakeCall("get_weather", {"city": "A"}),)),
            FakeReply(text="Sunny."),
        ]
    )
    client = fake.client()
    message = create(client, [PROMPT])
    turn: Any = assistant_messages(message, "anthropic")[0]
    answers = tool_result_messages(group.run_tool_calls(message, None), "anthropic")
    edited = {
        **turn,
        "content": [{**turn["content"][0], "signature": "Zm9yZ2Vk"}, *turn["content"][1:]],
    }
    body = _rejection([PROMPT, edited, *answers])
    assert body["error"]["message"] == snapshot(
        "The history breaks the anthropic rules:\n- messages.1.content.0: Invalid `signature` in `thinking` block; replay thinking blocks exactly as the API returned them (text and signature unchanged)"
    )
    assert create(client, [PROMPT, turn, *answers]).content[0].type == "text"


def test_thinking_on_requires_the_thinking_block_in_the_tool_loop() -> None:
    """With thinking enabled every turn opens with a signed thinking block, and dropping it
    from the replayed tool-calling turn is rejected, like the live API does."""
    thinking: ThinkingConfigParam = {"type": "enabled", "budget_tokens": 1024}
    history = run_loop(FakeAnthropic().client(), thinking=thinking)
    turn: Any = history[1]
    assert [b["type"] for b in turn["content"]] == ["thinking", "tool_use"]
    stripped = {**turn, "content": turn["content"][1:]}
    fake = FakeAnthropic()
    with pytest.raises(
        anthropic.BadRequestError, match="Expected `thinking` or `redacted_thinking`"
    ):
        create(fake.client(), [PROMPT, stripped, history[2]], thinking=thinking)


def test_structured_output_answers_with_valid_json_then_retries() -> None:
    """output_config.format gets a JSON text block; invalid_arguments_first breaks it once."""
    fake = FakeAnthropic(invalid_arguments_first=True)
    client = fake.client()
    fmt = Forecast.model_tool_format("anthropic")
    history: list[MessageParam] = [{"role": "user", "content": "Forecast for Oslo"}]
    first = client.messages.create(
        model="m", max_tokens=100, messages=history, output_config={"format": fmt}
    )
    text = first.content[0]
    assert text.type == "text"
    with pytest.raises(ValueError):
        Forecast.model_validate_json(text.text)
    history += assistant_messages(first, "anthropic")
    history.append({"role": "user", "content": "Fix it."})
    second = client.messages.create(
        model="m", max_tokens=100, messages=history, output_config={"format": fmt}
    )
    second_text = second.content[0]
    assert second_text.type == "text"
    assert Forecast.model_validate_json(second_text.text) == Forecast(city="city", days=1)
    assert fake.requests[0]["output_config"] == {"format": fmt}


@pytest.mark.parametrize(
    ("reply", "stop_reason", "status"),
    [
        (FakeReply(text="I can't help with that.", stop="refusal"), "refusal", "refused"),
        (
            FakeReply(calls=(FakeCall("get_weather", '{"city": "Os'),), stop="length"),
            "max_tokens",
            "truncated",
        ),
        (FakeReply(text="Hi."), "end_turn", "done"),
    ],
)
def test_scripted_stops(reply: FakeReply, stop_reason: str, status: str) -> None:
    """Scripted refusals and length stops come back as the API's stop reasons."""
    message = create(FakeAnthropic(script=[reply]).client(), [PROMPT])
    assert (message.stop_reason, turn_status(message, "anthropic")) == (stop_reason, status)


def test_a_cut_call_streams_its_cut_text() -> None:
    """A length-stopped reply streams the cut JSON and ends with max_tokens; the call is
    reported truncated and its input is what the JSON reply shows."""
    script = [FakeReply(calls=(FakeCall("get_weather", '{"city": "Os'),), stop="length")]
    stream = ToolCallStream("anthropic")
    events: list[Any] = []
    for event in stream_events(FakeAnthropic(script=script).client(), [PROMPT]):
        events += stream.feed(event)
    assert [type(e).__name__ for e in events][-2:] == ["ToolCallTruncated", "TurnEnded"]
    assert stream.final_response() == create(FakeAnthropic(script=script).client(), [PROMPT])


def test_async_client() -> None:
    """The async client talks to the same fake, streamed or not."""

    async def main() -> tuple[Message, Message]:
        client = FakeAnthropic(
            script=[FakeReply(text="Hello."), FakeReply(text="Hello.")]
        ).async_client()
        message = await client.messages.create(model="m", max_tokens=10, messages=[PROMPT])
        stream = ToolCallStream("anthropic")
        async for event in await client.messages.create(
            model="m", max_tokens=10, messages=[PROMPT], stream=True
        ):
            stream.feed(event)
        return message, stream.final_response()

    message, streamed = asyncio.run(main())
    assert (message.content, streamed.content) == (streamed.content, message.content)
    assert message.content[0].model_dump() == {"citations": None, "text": "Hello.", "type": "text"}


def test_an_exhausted_script_says_how_to_fix_it() -> None:
    """A request past the end of the script is a 400 that says to add replies."""
    with pytest.raises(anthropic.BadRequestError, match="Add replies"):
        create(FakeAnthropic(script=[]).client(), [PROMPT])
