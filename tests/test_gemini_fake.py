"""FakeGemini: the real genai.Client (sync, .aio, streaming) against the offline fake,
answering like the API and rejecting what the API rejects."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import httpx2
import pytest
from google.genai import errors, types

from toolwire.core import (
    BaseFunctionToolModel,
    ToolCallCompleted,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeCall, FakeGemini, FakeReply
from toolwire.testing._gemini.fake import fake_signature


class GetWeather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    model_tool_custom_name = "get_weather"

    city: str
    days: int

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city} for {self.days} days.", None


class GetTime(BaseFunctionToolModel[None, None]):
    """Get the time."""

    model_tool_custom_name = "get_time"

    tz: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Noon in {self.tz}.", None


GROUP = ToolGroup.from_list([GetWeather, GetTime])
CONFIG = types.GenerateContentConfig(tools=GROUP.tool_definitions("gemini"))
PROMPT = types.Content(role="user", parts=[types.Part(text="Weather and time, please.")])


def model_parts(response: types.GenerateContentResponse) -> list[types.Part]:
    """The parts of the response's first candidate."""
    assert response.candidates and response.candidates[0].content
    return list(response.candidates[0].content.parts or [])


def test_a_whole_loop_calls_each_tool_then_answers() -> None:
    """Calls (no ids, a signature on the first call part), then text quoting the results."""
    fake = FakeGemini()
    client = fake.client()
    history: list[types.Content] = [PROMPT]
    first = client.models.generate_content(model="gemini-x", contents=history, config=CONFIG)
    wire = first.model_dump(
        mode="json", by_alias=True, exclude_none=True, exclude={"sdk_http_response"}
    )
    assert wire == {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {
                            "functionCall": {
                                "name": "get_weather",
                                "args": {"city": "city", "days": 1},
                            },
                            "thoughtSignature": base64.urlsafe_b64encode(
                                fake_signature(
                                    {"name": "get_weather", "args": {"city": "city", "days": 1}}
                                )
                            ).decode(),
                        },
                        {"functionCall": {"name": "get_time", "args": {"tz": "tz"}}},
                    ],
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "modelVersion": "gemini-x",
        "responseId": "toolwire-fake-1",
        "usageMetadata": {
            "promptTokenCount": 10,
            "candidatesTokenCount": 10,
            "totalTokenCount": 20,
        },
    }
    assert turn_status(first, "gemini") == "tool_calls"
    history += assistant_messages(first, "gemini")
    history += tool_result_messages(GROUP.run_tool_calls(first, None), "gemini")
    second = client.models.generate_content(model="gemini-x", contents=history, config=CONFIG)
    assert turn_status(second, "gemini") == "done"
    assert second.text == (
        "(offline fake) The tools answered: Sunny in city for 1 days.; Noon in tz."
    )
    assert len(fake.requests) == 2


def test_the_client_never_leaves_the_process() -> None:
    """The client talks to the in-process transport only, with a placeholder key."""
    client = FakeGemini().client()
    api_client: Any = client._api_client
    assert api_client.api_key == "offline-fake"
    assert not api_client.vertexai
    assert isinstance(api_client._httpx_client._transport, httpx2.MockTransport)
    assert isinstance(api_client._async_httpx_client._transport, httpx2.MockTransport)
    assert not api_client._use_aiohttp()


def test_vertex_environment_does_not_leak_into_the_fake(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Vertex AI and key variables set, the fake client still stays offline."""
    monkeypatch.setenv("GOOGLE_GENAI_USE_VERTEXAI", "true")
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "some-project")
    monkeypatch.setenv("GOOGLE_API_KEY", "a-real-looking-key")
    fake = FakeGemini()
    reply = fake.client().models.generate_content(model="m", contents=[PROMPT], config=CONFIG)
    assert [c.name for c in reply.function_calls or []] == ["get_weather", "get_time"]
    assert len(fake.requests) == 1


def test_async_client_and_streaming() -> None:
    """client.aio works, streaming included; the stream folds to the same calls."""
    fake = FakeGemini()

    async def run() -> tuple[list[str], str]:
        client = fake.client()
        stream = ToolCallStream("gemini")
        completed: list[str] = []
        async for chunk in await client.aio.models.generate_content_stream(
            model="gemini-x", contents=[PROMPT], config=CONFIG
        ):
            completed += [
                e.call.name for e in stream.feed(chunk) if isinstance(e, ToolCallCompleted)
            ]
        final = stream.final_response()
        history = [PROMPT, *assistant_messages(final, "gemini")]
        history += tool_result_messages(await _run(final), "gemini")
        answer = await fake.async_client().models.generate_content(
            model="gemini-x", contents=history, config=CONFIG
        )
        return completed, answer.text or ""

    async def _run(final: types.GenerateContentResponse) -> Any:
        return GROUP.run_tool_calls(final, None)

    completed, answer = asyncio.run(run())
    assert completed == ["get_weather", "get_time"]
    assert answer.startswith("(offline fake) The tools answered:")


def test_streamed_text_arrives_in_pieces_and_folds_back() -> None:
    """A long text streams in several chunks; the fold is the one text part."""
    text = "A fairly long answer that the fake splits into several pieces."
    fake = FakeGemini(script=[FakeReply(text=text)])
    chunks = list(
        fake.client().models.generate_content_stream(model="m", contents=[PROMPT], config=CONFIG)
    )
    assert len(chunks) > 3
    stream = ToolCallStream("gemini")
    for chunk in chunks:
        stream.feed(chunk)
    content = (stream.final_response().candidates or [])[0].content
    assert content == types.Content(role="model", parts=[types.Part(text=text)])


def _reject(fake: FakeGemini, contents: list[Any]) -> errors.ClientError:
    with pytest.raises(errors.ClientError) as caught:
        fake.client().models.generate_content(model="m", contents=contents, config=CONFIG)
    error = caught.value
    assert error.code == 400
    assert error.status == "INVALID_ARGUMENT"
    return error


def _first_turn(fake: FakeGemini) -> types.GenerateContentResponse:
    return fake.client().models.generate_content(model="m", contents=[PROMPT], config=CONFIG)


def test_missing_function_responses_are_rejected() -> None:
    """A call turn not answered by one response per call gets HTTP 400 in Gemini's shape."""
    fake = FakeGemini()
    first = _first_turn(fake)
    results = GROUP.run_tool_calls(first, None)
    turn = assistant_messages(first, "gemini")
    error = _reject(fake, [PROMPT, *turn, *tool_result_messages(results[:1], "gemini")])
    assert "answers with 1 functionResponse part(s)" in (error.message or "")
    _reject(fake, [PROMPT, *turn])


def test_responses_split_across_user_contents_are_rejected() -> None:
    """Function responses must all sit in the one user content after the calls."""
    fake = FakeGemini()
    first = _first_turn(fake)
    results = GROUP.run_tool_calls(first, None)
    split = [
        *tool_result_messages(results[:1], "gemini"),
        *tool_result_messages(results[1:], "gemini"),
    ]
    error = _reject(fake, [PROMPT, *assistant_messages(first, "gemini"), *split])
    assert "continues the function responses" in (error.message or "")


def test_a_lost_thought_signature_is_rejected() -> None:
    """Rebuilding the turn without its signature (a common bug) gets HTTP 400."""
    fake = FakeGemini()
    first = _first_turn(fake)
    rebuilt = types.Content(
        role="model",
        parts=[types.Part(function_call=c) for c in first.function_calls or []],
    )
    results = GROUP.run_tool_calls(first, None)
    error = _reject(fake, [PROMPT, rebuilt, *tool_result_messages(results, "gemini")])
    assert "lost its thoughtSignature" in (error.message or "")


def test_the_error_body_is_googles_shape() -> None:
    """The 400 body is {"error": {"code", "message", "status"}}."""
    fake = FakeGemini()
    response = fake.server.handle(
        httpx2.Request(
            "POST",
            "https://fake.gemini.invalid/v1beta/models/m:generateContent",
            json={"contents": [{"role": "model", "parts": [{"functionCall": {"name": "f"}}]}]},
        )
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == 400 and body["error"]["status"] == "INVALID_ARGUMENT"


def test_structured_output() -> None:
    """response_mime_type + response_json_schema get a minimal valid JSON answer."""
    fake = FakeGemini()
    config = types.GenerateContentConfig(**GetWeather.model_tool_format("gemini"))
    answer = fake.client().models.generate_content(model="m", contents=[PROMPT], config=config)
    assert answer.text == '{"city": "city", "days": 1}'
    assert GetWeather.model_validate_json(answer.text or "") == GetWeather(city="city", days=1)


def test_invalid_arguments_first_shows_the_retry_path() -> None:
    """The first call breaks the schema; after the failure result, a valid call follows."""
    fake = FakeGemini(invalid_arguments_first=True)
    client = fake.client()
    config = types.GenerateContentConfig(tools=[GetWeather.model_tool_definition("gemini")])
    group = ToolGroup.from_list([GetWeather])
    history: list[types.Content] = [PROMPT]
    reasons: list[str | None] = []
    for _ in range(3):
        response = client.models.generate_content(model="m", contents=history, config=config)
        history += assistant_messages(response, "gemini")
        results = group.run_tool_calls(response, None)
        if not results:
            break
        reasons += [r.fail_reason for r in results]
        history += tool_result_messages(results, "gemini")
    assert reasons == ["invalid_arguments", None]


def test_script_ids_stops_and_tool_config() -> None:
    """Scripted calls may carry ids; MAX_TOKENS drops a cut call; mode NONE offers no tools."""
    fake = FakeGemini(
        script=[
            FakeReply(calls=(FakeCall("get_time", {"tz": "UTC"}, id="c-1"),)),
            FakeReply(
                text="Partial",
                calls=(FakeCall("get_time", {"tz": "UTC"}), FakeCall("get_time", '{"tz": "U')),
                stop="length",
            ),
            FakeReply(text="No.", stop="refusal"),
        ]
    )
    client = fake.client()
    first = client.models.generate_content(model="m", contents=[PROMPT], config=CONFIG)
    assert [c.id for c in first.function_calls or []] == ["c-1"]
    second = client.models.generate_content(model="m", contents=[PROMPT], config=CONFIG)
    assert turn_status(second, "gemini") == "truncated"
    assert [c.args for c in second.function_calls or []] == [{"tz": "UTC"}]
    third = client.models.generate_content(model="m", contents=[PROMPT], config=CONFIG)
    assert turn_status(third, "gemini") == "refused"
    assert assistant_messages(third, "gemini") == []

    none = FakeGemini()
    config = CONFIG.model_copy(
        update={
            "tool_config": types.ToolConfig(
                function_calling_config=types.FunctionCallingConfig(
                    mode=types.FunctionCallingConfigMode.NONE
                )
            )
        }
    )
    reply = none.client().models.generate_content(model="m", contents=[PROMPT], config=config)
    assert turn_status(reply, "gemini") == "done"


def test_allowed_function_names_limit_the_calls() -> None:
    """Mode ANY with allowed_function_names calls only those tools."""
    config = CONFIG.model_copy(
        update={
            "tool_config": types.ToolConfig(
                function_calling_config=types.FunctionCallingConfig(
                    mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=["get_time"]
                )
            )
        }
    )
    reply = (
        FakeGemini().client().models.generate_content(model="m", contents=[PROMPT], config=config)
    )
    assert [c.name for c in reply.function_calls or []] == ["get_time"]


def test_thinking_adds_a_thought_part() -> None:
    """`thinking` sends a thought part before the calls; a text-only thinking turn is signed."""
    fake = FakeGemini(
        script=[
            FakeReply(thinking="Plan it.", calls=(FakeCall("get_time", {"tz": "UTC"}),)),
            FakeReply(thinking="Sum up.", text="Done."),
        ]
    )
    client = fake.client()
    first = client.models.generate_content(model="m", contents=[PROMPT], config=CONFIG)
    parts = model_parts(first)
    assert [(p.thought, p.text, p.thought_signature is not None) for p in parts] == [
        (True, "Plan it.", False),
        (None, None, True),
    ]
    second = client.models.generate_content(model="m", contents=[PROMPT], config=CONFIG)
    parts = model_parts(second)
    assert [(p.thought, p.text, p.thought_signature is not None) for p in parts] == [
        (True, "Sum up.", False),
        (None, "Done.", True),
    ]
