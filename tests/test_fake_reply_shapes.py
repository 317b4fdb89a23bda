"""`FakeReply(calls=...)` takes the `(name, arguments)` pairs `FakeReply.tool_calls`
takes, and refuses any other shape when the reply is made: a wrong shape used to fail
later inside the fake transport (OpenAI: a raw AttributeError; Anthropic: "Connection
error" after the SDK's retries)."""

from __future__ import annotations

from typing import Any

import pytest
from inline_snapshot import snapshot

from toolwire.core import BaseFunctionToolModel, ToolGroup
from toolwire.testing import FakeAnthropic, FakeCall, FakeOpenAI, FakeReply


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


GROUP = ToolGroup.from_list([get_weather])
PAIRS: Any = (("get_weather", {"city": "Paris"}), ["get_weather", '{"city": "Oslo"}'])


def test_pairs_become_fake_calls() -> None:
    """Pairs (tuples or lists) are read as `FakeCall`s, as `tool_calls` reads them."""
    reply = FakeReply(calls=PAIRS)
    assert reply.calls == (
        FakeCall("get_weather", {"city": "Paris"}),
        FakeCall("get_weather", '{"city": "Oslo"}'),
    )
    assert reply == FakeReply.tool_calls(*PAIRS)


def test_pairs_reach_the_real_clients() -> None:
    """The calls given as pairs come back through the real OpenAI and Anthropic clients
    as the tool calls they describe."""
    chat = (
        FakeOpenAI(script=[FakeReply(calls=PAIRS)])
        .client()
        .chat.completions.create(
            model="gpt-4.1",
            messages=[{"role": "user", "content": "Weather?"}],
            tools=GROUP.tool_definitions("chat.completions"),
        )
    )
    message = (
        FakeAnthropic(script=[FakeReply(calls=PAIRS)])
        .client()
        .messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=[{"role": "user", "content": "Weather?"}],
            tools=GROUP.tool_definitions("anthropic"),
        )
    )
    for results in (GROUP.run_tool_calls(chat, None), GROUP.run_tool_calls(message, None)):
        assert [r.result_content for r in results] == ["Sunny in Paris.", "Sunny in Oslo."]


@pytest.mark.parametrize(
    "calls",
    [
        FakeCall("get_weather"),
        "get_weather",
        (("get_weather",),),
        ((1, dict[str, Any]()),),
        (("get_weather", 3),),
    ],
    ids=["a lone FakeCall", "a string", "a 1-tuple", "a number name", "number arguments"],
)
def test_other_shapes_are_refused_when_the_reply_is_made(calls: Any) -> None:
    with pytest.raises(TypeError) as raised:
        FakeReply(calls=calls)
    assert str(raised.value).startswith("FakeReply(calls=...)")


def test_the_messages_say_what_to_write() -> None:
    with pytest.raises(TypeError) as lone:
        FakeReply(calls=FakeCall("get_weather"))  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError) as bad_pair:
        FakeReply(calls=(("get_weather", 3),))  # pyright: ignore[reportArgumentType]
    with pytest.raises(ValueError) as stop:
        FakeReply(stop="max_tokens")  # pyright: ignore[reportArgumentType]
    assert [str(lone.value), str(bad_pair.value), str(stop.value)] == snapshot(
        [
            'FakeReply(calls=...) takes a tuple of calls, got FakeCall: write `calls=(FakeCall("name", {...}),)` or `FakeReply.tool_calls(("name", {...}))`.',
            "FakeReply(calls=...) got ('get_weather', 3): each call is a FakeCall or a (name, arguments) pair, arguments a dict or raw text.",
            'FakeReply(stop=\'max_tokens\'): use "end", "length" or "refusal".',
        ]
    )
