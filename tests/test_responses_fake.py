"""The offline fake's Responses endpoint through the real `OpenAI` clients: replies as
JSON and SSE, `previous_response_id`, and the 400s the live API would answer."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import openai
import pydantic
import pytest
from inline_snapshot import snapshot

from toolwire.core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    model_tool_strict = True

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


class Loose(BaseFunctionToolModel[None, None]):
    """A non-strict tool."""

    count: int

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"count={self.count}", None


class run_sql(BaseCustomToolModel[None, None]):
    """Run SQL."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"ran {self.input}", None


GROUP = ToolGroup[None, None].from_list([get_weather])
TOOLS = GROUP.tool_definitions("responses")


def test_default_policy_calls_each_tool_then_answers() -> None:
    """Offered tools, it calls each once with minimal arguments; given the results, it
    answers with text quoting them. A string input is one user message."""
    fake = FakeOpenAI()
    client = fake.client()
    first = client.responses.create(model="m", input="Weather?", tools=TOOLS)
    assert first.model_dump(exclude_none=True)["output"] == [
        {
            "type": "function_call",
            "id": "fc_fake2",
            "call_id": "call_2",
            "name": "get_weather",
            "arguments": '{"city": "city"}',
            "status": "completed",
        }
    ]
    assert (first.id, first.status, turn_status(first, "responses")) == (
        "resp_fake1",
        "completed",
        "tool_calls",
    )
    history: list[Any] = [{"role": "user", "content": "Weather?"}]
    history += assistant_messages(first, "responses")
    history += tool_result_messages(GROUP.run_tool_calls(first, None), "responses")
    second = client.responses.create(model="m", input=history, tools=TOOLS)
    assert second.output_text == "(offline fake) The tools answered: Sunny in city."
    assert turn_status(second, "responses") == "done"


def test_previous_response_id_chains_turns() -> None:
    """With previous_response_id, sending only the outputs is a valid history."""
    client = FakeOpenAI().client()
    first = client.responses.create(model="m", input="Weather?", tools=TOOLS)
    outputs = tool_result_messages(GROUP.run_tool_calls(first, None), "responses")
    second = client.responses.create(
        model="m", previous_response_id=first.id, input=outputs, tools=TOOLS
    )
    assert second.previous_response_id == first.id
    assert second.output_text.startswith("(offline fake) The tools answered")
    third = client.responses.create(
        model="m", previous_response_id=second.id, input="And tomorrow?", tools=TOOLS
    )
    assert turn_status(third, "responses") == "tool_calls"


def test_previous_response_id_still_needs_every_output() -> None:
    """Chaining without answering the stored turn's call is rejected, positions counted
    from the stored items."""
    client = FakeOpenAI().client()
    first = client.responses.create(model="m", input="Weather?", tools=TOOLS)
    with pytest.raises(openai.BadRequestError) as raised:
        client.responses.create(
            model="m", previous_response_id=first.id, input="Never mind.", tools=TOOLS
        )
    body: Any = raised.value.body  # the API's error object (the SDK's `message` wording varies)
    assert body["message"] == snapshot(
        "The history breaks the responses rules:\n- (positions count the 2 items of "
        "previous_response_id first) input[1] (function_call 'call_2', get_weather) has no "
        "function_call_output with call_id 'call_2' after it; append one function_call_output "
        "item per call, carrying its call_id"
    )


def test_unknown_previous_response_id_is_rejected() -> None:
    """An id the fake never sent (or sent with store=false) is a 400."""
    client = FakeOpenAI().client()
    with pytest.raises(openai.BadRequestError, match="Previous response with id 'resp_nope'"):
        client.responses.create(model="m", previous_response_id="resp_nope", input="Hi")
    unstored = client.responses.create(model="m", input="Hi", store=False)
    with pytest.raises(openai.BadRequestError, match="not found"):
        client.responses.create(model="m", previous_response_id=unstored.id, input="Hi")


def test_broken_histories_are_rejected_with_openai_error_shape() -> None:
    """A call without its output, or an output without its call, is a 400 with the
    OpenAI error body."""
    client = FakeOpenAI().client()
    first = client.responses.create(model="m", input="Weather?", tools=TOOLS)
    history: list[Any] = [{"role": "user", "content": "Weather?"}]
    history += assistant_messages(first, "responses")
    with pytest.raises(openai.BadRequestError) as missing:
        client.responses.create(model="m", input=history, tools=TOOLS)
    assert missing.value.status_code == 400
    body: dict[str, Any] = cast(dict[str, Any], missing.value.body)
    assert body["type"] == "invalid_request_error"
    assert "input[1] (function_call 'call_2', get_weather) has no" in body["message"]
    orphan: Any = {"type": "function_call_output", "call_id": "call_nope", "output": "x"}
    with pytest.raises(openai.BadRequestError, match="call_nope"):
        client.responses.create(model="m", input=[orphan], tools=TOOLS)


def test_tampered_reasoning_is_rejected() -> None:
    """A reasoning item whose encrypted_content changed cannot be verified: 400."""
    script = [FakeReply(thinking="Plan.", calls=(FakeCall("get_weather", {"city": "Rome"}),))]
    client = FakeOpenAI(script=[*script, FakeReply(text="ok"), FakeReply(text="ok")]).client()
    first = client.responses.create(model="m", input="Rome?", tools=TOOLS)
    turn = assistant_messages(first, "responses")
    outputs = tool_result_messages(GROUP.run_tool_calls(first, None), "responses")
    tampered: list[Any] = [{**turn[0], "encrypted_content": "forged"}, *turn[1:]]
    with pytest.raises(openai.BadRequestError, match="encrypted_content that differs"):
        client.responses.create(model="m", input=[*tampered, *outputs], tools=TOOLS)
    ok = client.responses.create(model="m", input=[*turn, *outputs], tools=TOOLS)
    assert ok.output_text == "ok"


def test_thinking_becomes_a_deterministic_reasoning_item() -> None:
    """FakeReply.thinking gives a reasoning item; the same script gives the same bytes."""

    def run() -> dict[str, Any]:
        client = FakeOpenAI(script=[FakeReply(text="Hi.", thinking="Greet them.")]).client()
        return client.responses.create(model="m", input="Hello").model_dump(exclude_none=True)

    first = run()
    assert first == run()
    reasoning, answer = first["output"]
    assert reasoning["type"] == "reasoning"
    assert reasoning["summary"] == [{"type": "summary_text", "text": "Greet them."}]
    assert reasoning["encrypted_content"].startswith("fake_encrypted_")
    assert answer["content"][0]["text"] == "Hi."


def test_model_dump_replay_is_accepted() -> None:
    """Items replayed as `item.model_dump()` (None values, "async_") are accepted, as the
    live API does."""
    fake = FakeOpenAI()
    client = fake.client()
    first = client.responses.create(model="m", input="Weather?", tools=TOOLS)
    results = GROUP.run_tool_calls(first, None)
    dumped = [item.model_dump() for item in first.output]
    history: list[Any] = [{"role": "user", "content": "Weather?"}, *dumped]
    history += [r.output_item for r in results]
    second = client.responses.create(model="m", input=history, tools=TOOLS)
    assert second.status == "completed"


def test_structured_output_and_invalid_first() -> None:
    """text.format json_schema gets a minimal valid value; with invalid_arguments_first a
    non-strict format gets an invalid one first."""
    strict = FakeOpenAI().client()
    fmt = get_weather.model_tool_format("responses")
    answer = strict.responses.create(model="m", input="Where?", text={"format": fmt})
    assert get_weather.model_validate_json(answer.output_text) == get_weather(city="city")

    loose = FakeOpenAI(invalid_arguments_first=True).client()
    loose_fmt = Loose.model_tool_format("responses")
    bad = loose.responses.create(model="m", input="Count?", text={"format": loose_fmt})
    with pytest.raises(pydantic.ValidationError):
        Loose.model_validate_json(bad.output_text)
    history: list[Any] = [
        {"role": "user", "content": "Count?"},
        *assistant_messages(bad, "responses"),
    ]
    history.append({"role": "user", "content": "Fix it."})
    good = loose.responses.create(model="m", input=history, text={"format": loose_fmt})
    assert isinstance(Loose.model_validate_json(good.output_text).count, int)


def test_custom_tools_get_custom_calls() -> None:
    """A custom tool is called with a custom_tool_call carrying fixed input."""
    client = FakeOpenAI().client()
    response = client.responses.create(
        model="m", input="SQL?", tools=[run_sql.model_tool_definition("responses")]
    )
    assert response.output[0].model_dump(exclude_none=True) == {
        "type": "custom_tool_call",
        "id": "ctc_fake2",
        "call_id": "call_2",
        "name": "run_sql",
        "input": "example input",
    }
    [result] = ToolGroup[None, None].from_list([run_sql]).run_tool_calls(response, None)
    assert result.output_item == {
        "type": "custom_tool_call_output",
        "call_id": "call_2",
        "output": "ran example input",
    }


def test_tool_choice_none_answers_with_text() -> None:
    """tool_choice="none" means no calls, even with tools offered."""
    client = FakeOpenAI().client()
    response = client.responses.create(model="m", input="Hi", tools=TOOLS, tool_choice="none")
    assert turn_status(response, "responses") == "done"


def test_refusal_and_length_stops() -> None:
    """stop="refusal" sends a refusal part; stop="length" an incomplete response."""
    client = FakeOpenAI(
        script=[FakeReply(text="No.", stop="refusal"), FakeReply(text="Long", stop="length")]
    ).client()
    refused = client.responses.create(model="m", input="x")
    assert refused.output[0].model_dump(exclude_none=True)["content"] == [
        {"type": "refusal", "refusal": "No."}
    ]
    assert turn_status(refused, "responses") == "refused"
    cut = client.responses.create(model="m", input="x")
    assert cut.status == "incomplete"
    assert cut.incomplete_details is not None
    assert cut.incomplete_details.reason == "max_output_tokens"
    assert turn_status(cut, "responses") == "truncated"


def test_stream_event_sequence() -> None:
    """Streaming sends the live API's event sequence, with ordered sequence numbers."""
    reply = FakeReply(text="On it.", calls=(FakeCall("get_weather", {"city": "Oslo"}),))
    client = FakeOpenAI(script=[reply]).client()
    events = list(client.responses.create(model="m", input="x", tools=TOOLS, stream=True))
    assert [e.sequence_number for e in events] == list(range(len(events)))
    assert [e.type for e in events] == snapshot(
        [
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.content_part.added",
            "response.output_text.delta",
            "response.output_text.done",
            "response.content_part.done",
            "response.output_item.done",
            "response.output_item.added",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.done",
            "response.output_item.done",
            "response.completed",
        ]
    )


def test_async_client() -> None:
    """The async client talks to the same fake."""

    async def run() -> str:
        client = FakeOpenAI(script=[FakeReply(text="Async hi.")]).async_client()
        response = await client.responses.create(model="m", input="Hi")
        return response.output_text

    assert asyncio.run(run()) == "Async hi."
