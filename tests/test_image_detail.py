"""`ImagePart(detail=...)`: OpenAI's image detail level, sent in each OpenAI API's own
shape (Chat Completions `image_url.detail`, Responses `input_image.detail`) through the
real SDK clients to the fakes; None keeps the API's default; a level OpenAI does not take
fails when the part is made."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from inline_snapshot import snapshot

from toolwire.core import BaseFunctionToolModel, ImagePart, ToolGroup, tool_result_messages
from toolwire.exceptions import MediaError
from toolwire.testing import FakeOpenAI, FakeReply

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


class screenshot(BaseFunctionToolModel[None, None]):
    """Take a screenshot."""

    def model_tool_handler(self, context: None) -> tuple[list[Any], None]:
        return ["The screen:", ImagePart(url="https://example.com/s.png", detail="high")], None


GROUP = ToolGroup.from_list([screenshot])


def test_responses_sends_the_level_in_the_output() -> None:
    fake = FakeOpenAI(script=[FakeReply.tool_calls(("screenshot", {})), FakeReply("A desk.")])
    client = fake.client()
    response = client.responses.create(
        model="gpt-5", input="What is on screen?", tools=GROUP.tool_definitions("responses")
    )
    results = GROUP.run_tool_calls(response, None)
    answer: list[Any] = tool_result_messages(results, "responses")
    assert answer[0]["output"][1] == snapshot(
        {"type": "input_image", "detail": "high", "image_url": "https://example.com/s.png"}
    )
    client.responses.create(
        model="gpt-5",
        input=[{"role": "user", "content": "What is on screen?"}, *response.output, *answer],  # pyright: ignore[reportArgumentType]
        tools=GROUP.tool_definitions("responses"),
    )
    assert fake.requests[-1]["input"][-1]["output"][1]["detail"] == "high"


def test_chat_sends_it_in_the_image_url_and_omits_it_when_unset() -> None:
    fake = FakeOpenAI(script=[FakeReply.tool_calls(("screenshot", {})), FakeReply("A desk.")])
    client = fake.client()
    completion = client.chat.completions.create(
        model="gpt-5",
        messages=[{"role": "user", "content": "What is on screen?"}],
        tools=GROUP.tool_definitions("chat.completions"),
    )
    results = GROUP.run_tool_calls(completion, None)
    answer: list[Any] = tool_result_messages(results, "chat.completions")
    assert answer[-1]["content"][-1] == snapshot(
        {"type": "image_url", "image_url": {"url": "https://example.com/s.png", "detail": "high"}}
    )
    plain = ImagePart(data=PNG, media_type="image/png")
    assert plain.detail is None
    client.chat.completions.create(
        model="gpt-5",
        messages=[
            {"role": "user", "content": "What is on screen?"},
            completion.choices[0].message,  # pyright: ignore[reportArgumentType]
            *answer,
        ],
    )
    assert fake.requests[-1]["messages"][-1] == answer[-1]


def test_a_data_url_keeps_its_level_when_read_into_bytes() -> None:
    url = "data:image/png;base64," + base64.b64encode(PNG).decode()

    class shot(BaseFunctionToolModel[None, None]):
        def model_tool_handler(self, context: None) -> tuple[list[Any], None]:
            return [ImagePart(url=url, detail="low")], None

    results = ToolGroup.from_list([shot]).run_tool_calls(
        [{"type": "function_call", "call_id": "c1", "name": "shot", "arguments": "{}"}], None
    )
    answer: list[Any] = tool_result_messages(results, "responses")
    assert answer[0]["output"][0]["detail"] == "low"


def test_a_level_openai_does_not_take_fails_when_made() -> None:
    with pytest.raises(MediaError, match=r"detail='max': OpenAI takes 'auto', 'low', 'high'"):
        ImagePart(url="https://example.com/s.png", detail="max")  # pyright: ignore[reportArgumentType]
