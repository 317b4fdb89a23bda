"""Every entry point refuses what is not its API's: another API's response, a stream where a
finished response belongs, one chunk of a stream, a coroutine. Reading such an object as
"a turn without calls" would end the caller's loop in silence (the bug this guards)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from openai.lib.streaming.chat import ChunkEvent, ContentDeltaEvent

from toolwire import aio
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    BaseFunctionToolModel,
    StandardToolCall,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    turn_status,
)
from toolwire.exceptions import UnexpectedObjectError
from toolwire.testing import FakeAnthropic, FakeCall, FakeGemini, FakeOpenAI, FakeReply

PROMPT = "What's the weather in Paris?"


class GetWeather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    model_tool_custom_name = "get_weather"

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


class AsyncGetWeather(aio.BaseFunctionToolModel[None, None]):
    """Get the weather."""

    model_tool_custom_name = "get_weather"

    city: str

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


GROUP = ToolGroup.from_list([GetWeather])
AIO_GROUP = aio.ToolGroup.from_list([AsyncGetWeather])
CALL = FakeReply.tool_calls(FakeCall("get_weather", {"city": "Paris"}))


def _chat(stream: bool = False) -> Any:
    client = FakeOpenAI(script=[CALL]).client()
    return client.chat.completions.create(
        model="m",
        messages=[{"role": "user", "content": PROMPT}],
        tools=GROUP.tool_definitions("chat.completions"),
        stream=stream,
    )


def _responses(stream: bool = False) -> Any:
    client = FakeOpenAI(script=[CALL]).client()
    return client.responses.create(
        model="m", input=PROMPT, tools=GROUP.tool_definitions("responses"), stream=stream
    )


def _anthropic(stream: bool = False) -> Any:
    client = FakeAnthropic(script=[CALL]).client()
    return client.messages.create(
        model="m",
        max_tokens=100,
        messages=[{"role": "user", "content": PROMPT}],
        tools=GROUP.tool_definitions("anthropic"),
        stream=stream,
    )


def _gemini(stream: bool = False) -> Any:
    from google.genai import types

    client = FakeGemini(script=[CALL]).client()
    config = types.GenerateContentConfig(tools=GROUP.tool_definitions("gemini"))
    if stream:
        return client.models.generate_content_stream(model="m", contents=PROMPT, config=config)
    return client.models.generate_content(model="m", contents=PROMPT, config=config)


MAKERS: dict[Api, Callable[..., Any]] = {
    "chat.completions": _chat,
    "responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
}


def _first_chunk(api: Api) -> Any:
    stream: Iterator[Any] = iter(MAKERS[api](stream=True))
    return next(stream)


def _entry_points(api: Api) -> dict[str, Callable[[Any], object]]:
    return {
        "run_tool_calls": lambda obj: GROUP.run_tool_calls(obj, None, api=api),
        "run_tool_call": lambda obj: GROUP.run_tool_call(obj, None, api=api),
        "aio run_tool_calls": lambda obj: asyncio.run(AIO_GROUP.run_tool_calls(obj, None, api=api)),
        "assistant_messages": lambda obj: assistant_messages(obj, api),
        "turn_status": lambda obj: turn_status(obj, api),
    }


@pytest.mark.parametrize("api", API_NAMES)
@pytest.mark.parametrize("other", API_NAMES)
def test_another_apis_response_is_refused_everywhere(api: Api, other: Api) -> None:
    """Every entry point of `api` refuses a finished response of every other API, and says
    which API it belongs to; its own API's response works."""
    response = MAKERS[other]()
    for name, entry in _entry_points(api).items():
        if other == api:
            entry(response)  # accepted: this is the API's own response
            continue
        with pytest.raises(UnexpectedObjectError) as raised:
            entry(response)
        assert f"pass api={other!r}" in str(raised.value), name


@pytest.mark.parametrize("api", API_NAMES)
def test_a_stream_is_refused_where_a_response_belongs(api: Api) -> None:
    """The stream object itself (not yet consumed) is named as a stream, with the way out."""
    stream = MAKERS[api](stream=True)
    for name, entry in _entry_points(api).items():
        with pytest.raises(UnexpectedObjectError) as raised:
            entry(stream)
        message = str(raised.value)
        assert "this is a stream, not a finished response" in message, name
        assert f"ToolCallStream({api!r})" in message, name
    with pytest.raises(UnexpectedObjectError, match="this is a stream"):
        GROUP.run_tool_calls(stream, None)  # no api=: it cannot be guessed either


@pytest.mark.parametrize("api", API_NAMES)
def test_a_chunk_is_refused_where_a_response_belongs(api: Api) -> None:
    """One chunk of a stream is not a turn (Gemini chunks are responses, so they pass)."""
    if api == "gemini":
        return
    chunk = _first_chunk(api)
    for name, entry in _entry_points(api).items():
        with pytest.raises(UnexpectedObjectError, match="one piece of a stream") as raised:
            entry(chunk)
        assert f"ToolCallStream({api!r})" in str(raised.value), name


def test_the_chat_silent_end_is_gone_word_for_word() -> None:
    """The reported case: a Responses `Response` read as a chat turn gave [] and "done"."""
    response = _responses()
    with pytest.raises(UnexpectedObjectError) as raised:
        GROUP.run_tool_calls(response, None, api="chat.completions")
    assert str(raised.value) == (
        "Expected a Chat Completions response (a ChatCompletion, its message, or their dict "
        "forms), got an openai Response: it belongs to the OpenAI Responses API: pass "
        "api='responses'."
    )
    stream = _chat(stream=True)
    with pytest.raises(UnexpectedObjectError) as raised:
        turn_status(stream, "chat.completions")
    assert str(raised.value) == (
        "Expected a Chat Completions response (a ChatCompletion, its message, or their dict "
        "forms), got an openai Stream: this is a stream, not a finished response: feed each "
        "of its chunks to ToolCallStream('chat.completions') and pass its final_response() "
        "here."
    )


def test_a_chat_message_is_not_an_anthropic_message() -> None:
    """A ChatCompletionMessage has role "assistant" and text content, like an Anthropic
    message; its tool calls must not be dropped by reading it as one."""
    message = _chat().choices[0].message
    with pytest.raises(UnexpectedObjectError, match="pass api='chat.completions'"):
        GROUP.run_tool_calls(message, None, api="anthropic")
    chat_dict = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1"}]}
    with pytest.raises(UnexpectedObjectError):
        assistant_messages(chat_dict, "anthropic")
    anthropic_dict = {"role": "assistant", "content": [{"type": "tool_use", "id": "t"}]}
    with pytest.raises(UnexpectedObjectError):
        turn_status(anthropic_dict, "chat.completions")


def test_an_unawaited_coroutine_is_named() -> None:
    """Forgetting `await` with an async client gives a coroutine: say so."""
    coroutine = (
        FakeOpenAI(script=[CALL])
        .async_client()
        .chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
    )
    try:
        for entry in _entry_points("chat.completions").values():
            with pytest.raises(UnexpectedObjectError, match="await it first"):
                entry(coroutine)
        with pytest.raises(UnexpectedObjectError, match="await it first"):
            GROUP.run_tool_calls(cast(Any, coroutine), None)
    finally:
        cast(Any, coroutine).close()


@pytest.mark.parametrize("api", API_NAMES)
def test_items_of_another_api_are_refused_not_skipped(api: Api) -> None:
    """A list of another API's call objects, with api= given, is refused (it used to be
    skipped as "not a call" by the Responses and Anthropic adapters)."""
    calls: dict[Api, Any] = {
        "chat.completions": (_chat().choices[0].message.tool_calls or [])[0],
        "responses": _responses().output[-1],
        "anthropic": _anthropic().content[-1],
        "gemini": (_gemini().candidates[0].content.parts or [])[0],
    }
    for other, call in calls.items():
        if other == api:
            assert len(GROUP.run_tool_calls([call], None, api=api)) == 1
            assert StandardToolCall.from_any_call(call).name == "get_weather"
            continue
        with pytest.raises(UnexpectedObjectError, match=f"pass api={other!r}"):
            GROUP.run_tool_calls([call], None, api=api)


def test_a_whole_response_in_a_list_is_named() -> None:
    """`run_tool_calls([response])` is a common slip: say to pass the response itself."""
    with pytest.raises(UnexpectedObjectError, match="whole ChatCompletion in a list"):
        GROUP.run_tool_calls([_chat()], None)
    with pytest.raises(UnexpectedObjectError, match="whole Response in a list"):
        GROUP.run_tool_calls([_responses()], None)


@pytest.mark.parametrize("api", API_NAMES)
def test_feed_refuses_the_stream_itself_and_other_apis_chunks(api: Api) -> None:
    """`feed` names what it got instead of raising a bare AttributeError."""
    stream = MAKERS[api](stream=True)
    with pytest.raises(UnexpectedObjectError, match="this is the whole stream"):
        ToolCallStream(api).feed(stream)
    for other in API_NAMES:
        if other == api:
            continue
        chunk = _first_chunk(other)
        with pytest.raises(UnexpectedObjectError) as raised:
            ToolCallStream(api).feed(chunk)
        message = str(raised.value)
        assert message.startswith(f"ToolCallStream({api!r}).feed() cannot take "), message
        assert repr(other) in message, message
    with pytest.raises(UnexpectedObjectError, match="cannot take an object"):
        ToolCallStream(api).feed(object())


def test_feed_takes_the_openai_chat_stream_helpers_events() -> None:
    """`client.chat.completions.stream()` yields ChunkEvents (folded through their chunk)
    and events restating them (ignored): the same events and final response as the raw
    stream."""
    raw = ToolCallStream("chat.completions")
    raw_events = [event for chunk in _chat(stream=True) for event in raw.feed(chunk)]
    helper = ToolCallStream("chat.completions")
    client = FakeOpenAI(script=[CALL]).client()
    helper_events: list[object] = []
    seen: set[type] = set()
    with client.chat.completions.stream(
        model="m", messages=[{"role": "user", "content": PROMPT}]
    ) as events:
        for event in events:
            seen.add(type(event))
            helper_events.extend(helper.feed(event))
    assert ChunkEvent in seen and len(seen) > 1
    assert helper_events == raw_events
    assert helper.final_response() == raw.final_response()
    assert GROUP.run_tool_calls(helper.final_response(), None)[0].result_content == (
        "Sunny in Paris."
    )
    unused = ContentDeltaEvent(type="content.delta", delta="x", snapshot="x")
    assert helper.feed(unused) == []


def test_each_apis_own_objects_still_work() -> None:
    """Sanity: each API's own response still dispatches and replays."""
    for api, make in MAKERS.items():
        response = make()
        results = GROUP.run_tool_calls(response, None)
        assert [r.result_content for r in results] == ["Sunny in Paris."], api
        assert assistant_messages(response, api)
        assert turn_status(response, api) == "tool_calls"
