"""`ToolCallStream.feed` given an SDK stream *helper* itself (the manager
`client....stream()` returns, or the stream it gives once entered) instead of its
events says what to feed: Chat used to return `[]` silently, Anthropic raised a raw
AttributeError. The helpers come from the real SDK clients talking to the fakes."""

from __future__ import annotations

from typing import Any

import pytest
from inline_snapshot import snapshot

from toolwire.core import ToolCallStream
from toolwire.exceptions import UnexpectedObjectError
from toolwire.testing import FakeAnthropic, FakeOpenAI

PROMPT = "Hello"


def refusal(tool_stream: ToolCallStream[Any], item: object) -> str:
    with pytest.raises(UnexpectedObjectError) as raised:
        tool_stream.feed(item)
    return str(raised.value)


def test_chat_completions_helper() -> None:
    client = FakeOpenAI().client()
    manager = client.chat.completions.stream(
        model="gpt-4.1", messages=[{"role": "user", "content": PROMPT}]
    )
    texts = [refusal(ToolCallStream("chat.completions"), manager)]
    with manager as stream:
        texts.append(refusal(ToolCallStream("chat.completions"), stream))
        fed = ToolCallStream("chat.completions")
        for event in stream:  # its events are still taken
            fed.feed(event)
    assert fed.final_response().choices[0].message.content
    assert texts == snapshot(
        [
            "ToolCallStream('chat.completions').feed() cannot take an openai ChatCompletionStreamManager: this is the SDK's stream helper before it is entered: enter it (`with client....stream(...) as stream:`, or `async with`) and feed each event of `stream` (`for event in stream: events = tool_stream.feed(event)`).",
            "ToolCallStream('chat.completions').feed() cannot take an openai ChatCompletionStream: this is the whole stream: feed its items one by one (`for chunk in stream: events = tool_stream.feed(chunk)`, or `async for` with the async client).",
        ]
    )


def test_responses_helper() -> None:
    manager = FakeOpenAI().client().responses.stream(model="gpt-4.1", input=PROMPT)
    texts = [refusal(ToolCallStream("responses"), manager)]
    with manager as stream:
        texts.append(refusal(ToolCallStream("responses"), stream))
    assert texts == snapshot(
        [
            "ToolCallStream('responses').feed() cannot take an openai ResponseStreamManager: this is the SDK's stream helper before it is entered: enter it (`with client....stream(...) as stream:`, or `async with`) and feed each event of `stream` (`for event in stream: events = tool_stream.feed(event)`).",
            "ToolCallStream('responses').feed() cannot take an openai ResponseStream: this is the whole stream: feed its items one by one (`for chunk in stream: events = tool_stream.feed(chunk)`, or `async for` with the async client).",
        ]
    )


def test_anthropic_helper() -> None:
    client = FakeAnthropic().client()
    manager = client.messages.stream(
        model="claude-sonnet-4-6", max_tokens=100, messages=[{"role": "user", "content": PROMPT}]
    )
    texts = [refusal(ToolCallStream("anthropic"), manager)]
    with manager as stream:
        texts.append(refusal(ToolCallStream("anthropic"), stream))
        fed = ToolCallStream("anthropic")
        for event in stream:  # its events (raw ones and the helper's own) are still taken
            fed.feed(event)
    assert fed.final_response().content
    assert texts == snapshot(
        [
            "ToolCallStream('anthropic').feed() cannot take an anthropic MessageStreamManager: this is the SDK's stream helper before it is entered: enter it (`with client....stream(...) as stream:`, or `async with`) and feed each event of `stream` (`for event in stream: events = tool_stream.feed(event)`).",
            "ToolCallStream('anthropic').feed() cannot take an anthropic MessageStream: this is the whole stream: feed its items one by one (`for chunk in stream: events = tool_stream.feed(chunk)`, or `async for` with the async client).",
        ]
    )
