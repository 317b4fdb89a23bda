"""Fixes from the first-hour review: another API's response in dict form is refused by
every adapter (never read as an empty turn), Anthropic's structured-output format keeps
the model's docstring, the results' native forms are the renderers themselves, and
`tool_result_messages` given a response or one result says what to pass."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, cast

import anthropic
import pytest
from anthropic.types import Message
from google.genai import types
from inline_snapshot import snapshot
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from tests.helpers import chat_completion
from tests.test_wrong_objects import AIO_GROUP, GROUP
from toolwire._adapters.anthropic.results import tool_result_block
from toolwire._adapters.gemini.results import function_response_part
from toolwire._adapters.openai_chat.results import tool_message
from toolwire._adapters.openai_responses.results import output_item
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    BaseFunctionToolModel,
    StandardToolCall,
    ToolCallFailure,
    ToolCallSuccess,
    assistant_messages,
    media_report,
    tool_result_messages,
    turn_status,
)
from toolwire.exceptions import UnexpectedObjectError
from toolwire.testing import FakeAnthropic

# -- each API's response, built with its SDK's models ------------------------------------


def _chat() -> ChatCompletion:
    return chat_completion(("get_weather", {"city": "Paris"}, "call_1"))


def _responses() -> Response:
    return Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1,
            "model": "gpt-test",
            "status": "completed",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "get_weather",
                    "arguments": '{"city": "Paris"}',
                    "status": "completed",
                }
            ],
        }
    )


def _anthropic() -> Message:
    return Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": [
                {"type": "text", "text": "Let me check."},
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
            ],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 5, "output_tokens": 7},
        }
    )


def _gemini() -> types.GenerateContentResponse:
    call = types.FunctionCall(name="get_weather", args={"city": "Paris"})
    return types.GenerateContentResponse(
        response_id="resp-1",
        candidates=[
            types.Candidate(
                content=types.Content(role="model", parts=[types.Part(function_call=call)]),
                finish_reason=types.FinishReason.STOP,
            )
        ],
    )


def _forms(api: Api) -> dict[str, object]:
    """The SDK response and its dict forms (and, for the message-shaped APIs, the turn's
    message or content in both forms): every shape the adapters accept as a turn."""
    if api == "chat.completions":
        completion = _chat()
        message = completion.choices[0].message
        return {
            **_dumps(completion),
            "message": message,
            "message.model_dump()": message.model_dump(),
            "message exclude_none": message.model_dump(exclude_none=True),
        }
    if api == "responses":
        return _dumps(_responses())
    if api == "anthropic":
        return _dumps(_anthropic())
    response = _gemini()
    candidates = response.candidates or []
    candidate = candidates[0]
    content = cast(types.Content, candidate.content)
    return {
        **_dumps(response),
        "camelCase wire JSON": response.model_dump(mode="json", by_alias=True, exclude_none=True),
        "candidate": candidate,
        "candidate.model_dump()": candidate.model_dump(),
        "content": content,
        "content.model_dump()": content.model_dump(mode="json", exclude_none=True),
    }


def _dumps(response: Any) -> dict[str, object]:
    forms: dict[str, object] = {
        "sdk": response,
        "model_dump()": response.model_dump(),
        "model_dump(mode=json)": response.model_dump(mode="json"),
        "exclude_none": response.model_dump(mode="json", exclude_none=True),
    }
    to_dict = getattr(response, "to_dict", None)
    if to_dict is not None:  # openai and anthropic: by alias, unset fields left out
        forms["to_dict()"] = to_dict()
    return forms


def _entry_points(api: Api) -> dict[str, Callable[[Any], object]]:
    return {
        "assistant_messages": lambda obj: assistant_messages(obj, api),
        "turn_status": lambda obj: turn_status(obj, api),
        "run_tool_calls": lambda obj: GROUP.run_tool_calls(obj, None, api=api),
        "aio run_tool_calls": lambda obj: asyncio.run(AIO_GROUP.run_tool_calls(obj, None, api=api)),
    }


# -- 1. another API's response, SDK object or dict, is refused by every adapter ----------


@pytest.mark.parametrize("other", API_NAMES)
def test_every_form_of_a_response_is_refused_by_every_other_api(other: Api) -> None:
    """Each form of `other`'s response, given with another `api=`, raises
    UnexpectedObjectError naming `other` at every entry point; with its own `api=` it
    still gives its one call and the "tool_calls" status."""
    for form, obj in _forms(other).items():
        for api in API_NAMES:
            for entry_name, entry in _entry_points(api).items():
                where = f"{other} {form} -> {api} {entry_name}"
                if api == other:
                    if entry_name == "turn_status":
                        assert entry(obj) == "tool_calls", where
                    elif entry_name != "assistant_messages":
                        results = cast("list[ToolCallSuccess[None]]", entry(obj))
                        assert [r.result_content for r in results] == ["Sunny in Paris."], where
                    else:
                        assert entry(obj), where
                    continue
                with pytest.raises(UnexpectedObjectError) as raised:
                    entry(obj)
                assert f"pass api={other!r}." in str(raised.value), where


def test_the_reported_cases_word_for_word() -> None:
    """A Responses and a Gemini response dict given to the Anthropic adapter: the error
    says what it got and which `api=` to pass (they were read as an empty finished turn),
    while the message params Anthropic takes back are still read."""
    responses_dict = _responses().to_dict()  # the keys given: the same on every SDK version
    with pytest.raises(UnexpectedObjectError) as raised:
        assistant_messages(responses_dict, "anthropic")
    assert str(raised.value) == snapshot(
        "Expected an Anthropic Message (or its content blocks, or their dict forms), got a dict with keys ['created_at', 'id', 'model', 'object', 'output', 'parallel_tool_calls', 'status', 'tool_choice']: it belongs to the OpenAI Responses API: pass api='responses'."
    )
    gemini_dict = _gemini().model_dump(mode="json", exclude_unset=True)
    with pytest.raises(UnexpectedObjectError) as raised:
        turn_status(gemini_dict, "anthropic")
    assert str(raised.value) == snapshot(
        "Expected an Anthropic Message (or its content blocks, or their dict forms), got a dict with keys ['candidates', 'response_id']: it belongs to the Gemini API: pass api='gemini'."
    )
    # What Anthropic takes back stays readable: text as a string, blocks as dicts, a
    # Message dict without its stop reason.
    assert turn_status({"role": "assistant", "content": "Hi"}, "anthropic") == "done"
    assert assistant_messages({"role": "assistant", "content": "Hi"}, "anthropic") == snapshot(
        [{"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}]
    )
    param = {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Oslo"}}
        ],
    }
    assert [r.result_content for r in GROUP.run_tool_calls(param, None, api="anthropic")] == [
        "Sunny in Oslo."
    ]
    no_stop_reason = _anthropic().model_dump(mode="json", exclude_none=True)
    del no_stop_reason["stop_reason"]
    assert len(GROUP.run_tool_calls(no_stop_reason, None, api="anthropic")) == 1


def test_an_anthropic_message_dict_is_not_a_responses_message_item() -> None:
    """An Anthropic Message dict has `type: "message"` like a Responses message item; in
    run_tool_calls(api="responses") it was skipped as one (no calls, no error)."""
    message = _anthropic().to_dict()
    with pytest.raises(UnexpectedObjectError) as raised:
        GROUP.run_tool_calls(message, None, api="responses")
    assert str(raised.value) == snapshot(
        "Expected a Responses output item (from response.output, or its dict form), got a dict with keys ['content', 'id', 'model', 'role', 'stop_reason', 'stop_sequence', 'type', 'usage']: it belongs to the Anthropic Messages API: pass api='anthropic'."
    )
    item = {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed"}
    assert GROUP.run_tool_calls([item], None, api="responses") == []  # a real message item


def test_a_chat_message_dict_is_not_a_gemini_candidate() -> None:
    """A chat message's model_dump() (content None, tool_calls set) was read by the Gemini
    adapter as a candidate without content: an empty finished turn."""
    message = _chat().choices[0].message.model_dump()
    for entry in _entry_points("gemini").values():
        with pytest.raises(UnexpectedObjectError, match="pass api='chat.completions'"):
            entry(message)


def test_a_gemini_content_dict_names_its_api() -> None:
    """A Gemini Content dict (role "model") given to chat or Anthropic names Gemini, where
    it said only "got a 'model' message" (chat) or raised a plain ToolwireError
    (Anthropic); a candidate dict no longer fails with TypeError in the Anthropic
    adapter."""
    candidate = (_gemini().candidates or [])[0]
    content = cast(types.Content, candidate.content).model_dump(mode="json", exclude_none=True)
    for api in ("chat.completions", "anthropic"):
        with pytest.raises(UnexpectedObjectError) as raised:
            assistant_messages(content, api)
        assert str(raised.value).endswith("it belongs to the Gemini API: pass api='gemini'.")
    with pytest.raises(UnexpectedObjectError, match="pass api='gemini'"):
        assistant_messages(candidate.model_dump(mode="json", exclude_none=True), "anthropic")


# -- 2. Anthropic's structured-output format keeps the docstring -------------------------


class MovieReview(BaseFunctionToolModel[None, None]):
    """A review of the movie in the user's message. Write the summary in French."""

    summary: str
    stars: int

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "", None


def test_anthropic_format_keeps_the_docstring_at_the_root() -> None:
    """The format has no name or description field, so the docstring goes at the schema's
    root, where `anthropic.transform_schema` (the SDK's own path) puts it too."""
    fmt = MovieReview.model_tool_format("anthropic")
    assert fmt == snapshot(
        {
            "type": "json_schema",
            "schema": {
                "description": "A review of the movie in the user's message. Write the summary in French.",
                "properties": {
                    "summary": {"type": "string"},
                    "stars": {"type": "integer"},
                },
                "required": ["summary", "stars"],
                "type": "object",
                "additionalProperties": False,
            },
        }
    )
    sdk = anthropic.transform_schema(MovieReview.model_json_schema())
    assert fmt["schema"]["description"] == sdk["description"]


def test_every_apis_format_carries_the_same_description() -> None:
    """Chat and Responses in the format's description field, Anthropic and Gemini at the
    schema root: the same text on all four APIs."""
    doc = "A review of the movie in the user's message. Write the summary in French."
    assert (
        MovieReview.model_tool_format("chat.completions")["json_schema"].get("description") == doc
    )
    assert MovieReview.model_tool_format("responses").get("description") == doc
    assert MovieReview.model_tool_format("anthropic")["schema"]["description"] == doc
    assert MovieReview.model_tool_format("gemini")["response_json_schema"]["description"] == doc


def test_a_custom_description_is_the_anthropic_formats_description() -> None:
    """`model_tool_custom_description` wins over the docstring there too, and a nested
    model's `$defs` stay beside it."""

    class Cast(BaseFunctionToolModel[None, None]):
        """Ignored: the custom description wins."""

        model_tool_custom_description = "The cast of the movie."

        lead: MovieReview

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    schema = Cast.model_tool_format("anthropic")["schema"]
    assert schema["description"] == "The cast of the movie."
    assert list(schema) == snapshot(
        ["description", "$defs", "properties", "required", "type", "additionalProperties"]
    )


def test_the_described_format_reaches_the_anthropic_api_as_is() -> None:
    """Sent through the real client (to the fake), the request's schema root holds the
    description, and the schema report still calls the format lossless."""
    fake = FakeAnthropic()
    fake.client().messages.create(
        model="m",
        max_tokens=100,
        messages=[{"role": "user", "content": "Review Amélie."}],
        output_config={"format": MovieReview.model_tool_format("anthropic")},
    )
    sent = fake.requests[0]["output_config"]["format"]["schema"]
    assert sent["description"] == snapshot(
        "A review of the movie in the user's message. Write the summary in French."
    )
    assert str(MovieReview.model_tool_schema_report("anthropic", output=True)) == snapshot("""\
Schema report for anthropic (strict): 1 change, lossless.
- (root): additionalProperties closed: keys not listed are refused (strict mode closes every object); pydantic ignored them anyway\
""")


# -- 3. the native forms are the adapters' renderers (typed in tests/typing_checks.py) -----


def test_native_forms_are_the_renderers_with_their_docs() -> None:
    """Each native form is what the adapter's renderer makes of the result (found through
    the registry), documented, on successes and failures alike."""
    success = GROUP.run_tool_call(
        StandardToolCall("function", "c1", "get_weather", '{"city": "Paris"}'), None
    )
    failure = ToolCallFailure("c2", "get_weather", "No such city.", "explicit_handler_error")
    renderers = {
        "tool_message": tool_message,
        "output_item": output_item,
        "tool_result_block": tool_result_block,
        "function_response_part": function_response_part,
    }
    for cls in (ToolCallSuccess, ToolCallFailure):
        for name in renderers:
            assert getattr(cls, name).__doc__, name
    for result in (success, failure):
        for name, render in renderers.items():
            assert getattr(result, name) == render(result), name
    assert success.tool_message == snapshot(
        {"role": "tool", "tool_call_id": "c1", "content": "Sunny in Paris."}
    )
    assert failure.tool_result_block == snapshot(
        {"type": "tool_result", "tool_use_id": "c2", "content": "No such city.", "is_error": True}
    )
    assert json.loads(failure.function_response_part.model_dump_json(exclude_none=True)) == (
        snapshot(
            {
                "function_response": {
                    "id": "c2",
                    "name": "get_weather",
                    "response": {"error": "No such city."},
                }
            }
        )
    )


# -- 4. tool_result_messages given what is not the results says what to pass -------------


@pytest.mark.parametrize("api", API_NAMES)
def test_a_response_or_one_result_is_refused_with_what_to_pass(api: Api) -> None:
    """The response (as for assistant_messages), its dict form, one result, or a list of
    calls: UnexpectedObjectError saying to pass run_tool_calls' list, on every API and
    in media_report too (a raw AttributeError or TypeError before)."""
    response: Any = _forms(api)["sdk"]
    results = GROUP.run_tool_calls(response, None)
    wrong: dict[str, object] = {
        "response": response,
        "dict": response.model_dump(),
        "one result": results[0],
        "calls": [StandardToolCall("function", "c1", "get_weather", "{}")],
    }
    for name, obj in wrong.items():
        for function in (tool_result_messages, media_report):
            with pytest.raises(UnexpectedObjectError) as raised:
                function(cast(Any, obj), api)
            message = str(raised.value)
            assert message.startswith(f"{function.__name__}() takes the results of a turn"), name
            assert "group.run_tool_calls(response, context) returned" in message, name
    assert tool_result_messages(results, api)  # the list itself still works


def test_the_messages_word_for_word() -> None:
    """What each mistake reads like; a failure rendering real results (here a result
    whose parts are not iterable) is raised as it is, not blamed on the argument."""
    completion = _chat()
    results = GROUP.run_tool_calls(completion, None)
    messages: list[str] = []
    for obj in (completion, results[0], [completion]):
        with pytest.raises(UnexpectedObjectError) as raised:
            tool_result_messages(cast(Any, obj), "chat.completions")
        messages.append(str(raised.value))
    assert messages == snapshot(
        [
            "tool_result_messages() takes the results of a turn, not an openai ChatCompletion: pass the list that group.run_tool_calls(response, context) returned (the response itself goes to assistant_messages(response, 'chat.completions')).",
            "tool_result_messages() takes the results of a turn, not one ToolCallSuccess: pass the list that group.run_tool_calls(response, context) returned, whole (every call of a turn is answered at once).",
            "tool_result_messages() takes the results of a turn, but item [0] of this list is an openai ChatCompletion: pass the list that group.run_tool_calls(response, context) returned.",
        ]
    )
    broken = ToolCallSuccess("c1", "get_weather", "", None)
    broken.result_parts = cast(Any, 5)  # not iterable: the renderer's own TypeError
    with pytest.raises(TypeError) as crashed:
        tool_result_messages([broken], "responses")
    assert not isinstance(crashed.value, UnexpectedObjectError)
