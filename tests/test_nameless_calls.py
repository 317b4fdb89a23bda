"""A malformed call that came without a name gets an answer the API (and toolwire's own
checker and fakes) accept, so one bad call does not break every later request."""

from __future__ import annotations

from typing import Any

import pytest
from anthropic.types import Message
from google.genai import types as genai
from openai.types.responses import Response

from tests.helpers import chat_completion
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    BaseFunctionToolModel,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeCall, FakeGemini, FakeReply, check_history


class get_time(BaseFunctionToolModel[None, None]):
    """Get the time."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "12:00", None


group = ToolGroup.from_list([get_time])

NAMELESS: dict[Api, Any] = {
    "chat.completions": chat_completion(("", "{}", "c1")),
    "responses": Response.model_validate(
        {
            "id": "r",
            "object": "response",
            "created_at": 1,
            "model": "m",
            "status": "completed",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "function_call",
                    "id": "fc",
                    "call_id": "c1",
                    "name": "",
                    "arguments": "{}",
                    "status": "completed",
                }  # fmt: skip
            ],
        }
    ),
    "anthropic": Message.model_validate(
        {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "c",
            "content": [{"type": "tool_use", "id": "t1", "name": "", "input": {}}],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    ),
    "gemini": genai.GenerateContentResponse(
        response_id="r",
        candidates=[
            genai.Candidate(
                content=genai.Content(
                    role="model",
                    parts=[genai.Part(function_call=genai.FunctionCall(args={}))],
                ),
                finish_reason=genai.FinishReason.STOP,
            )
        ],
    ),
}
FIRST: dict[Api, Any] = {
    "chat.completions": {"role": "user", "content": "Time?"},
    "responses": {"role": "user", "content": "Time?"},
    "anthropic": {"role": "user", "content": "Time?"},
    "gemini": genai.Content(role="user", parts=[genai.Part(text="Time?")]),
}


@pytest.mark.parametrize("api", API_NAMES)
def test_a_nameless_call_is_answered_in_a_valid_history(api: Api) -> None:
    response = NAMELESS[api]
    results = group.run_tool_calls(response, None)
    assert [r.fail_reason for r in results] == ["invalid_name"]
    history = [FIRST[api], *assistant_messages(response, api), *tool_result_messages(results, api)]
    assert check_history(history, api) == []


def test_gemini_answers_a_nameless_call_under_a_placeholder_name() -> None:
    part = group.run_tool_calls(NAMELESS["gemini"], None)[0].function_response_part
    assert part.function_response is not None
    assert part.function_response.name == "unnamed_function"
    assert part.function_response.id is None  # the call had none


def test_the_gemini_fake_accepts_the_next_request() -> None:
    """The whole loop: the fake sends a nameless call, the next request is accepted."""
    fake = FakeGemini(script=[FakeReply.tool_calls(FakeCall("")), FakeReply(text="Noon.")])
    client = fake.client()
    config = genai.GenerateContentConfig(tools=group.tool_definitions("gemini"))
    contents: list[genai.Content] = [FIRST["gemini"]]
    response = client.models.generate_content(model="m", contents=contents, config=config)
    contents += assistant_messages(response, "gemini")
    contents += tool_result_messages(group.run_tool_calls(response, None), "gemini")
    answer = client.models.generate_content(model="m", contents=contents, config=config)
    assert answer.text == "Noon."
