"""The fakes answer a tool definition of another API's shape with HTTP 400, as the live
APIs do (they used to accept it and call a tool named '')."""

from __future__ import annotations

from typing import Any

import anthropic
import openai
import pytest
from google.genai import errors as genai_errors
from google.genai import types

from toolwire._api import API_NAMES, Api
from toolwire.core import BaseFunctionToolModel
from toolwire.testing import FakeAnthropic, FakeGemini, FakeOpenAI


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


def definition(api: Api) -> Any:
    """The tool as `api` wants it, as the JSON that API's request carries."""
    made: Any = get_weather.model_tool_definition(api)
    if api == "gemini":
        return made.model_dump(mode="json", by_alias=True, exclude_none=True)
    return made


def send(api: Api, tool: Any) -> None:
    """One request to `api`'s fake with `tool` as its only definition (raw JSON, past the
    SDKs' own client-side checks, as a proxy or a hand-built request would send it)."""
    prompt: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    if api == "chat.completions":
        FakeOpenAI().client().chat.completions.create(model="m", messages=prompt, extra_body={"tools": [tool]})  # fmt: skip
    elif api == "responses":
        FakeOpenAI().client().responses.create(model="m", input="Weather in Paris?", extra_body={"tools": [tool]})  # fmt: skip
    elif api == "anthropic":
        FakeAnthropic().client().messages.create(
            model="m",
            max_tokens=100,
            messages=prompt,
            extra_body={"tools": [tool]},
        )
    else:
        config = types.GenerateContentConfig(
            http_options=types.HttpOptions(extra_body={"tools": [tool]})
        )
        FakeGemini().client().models.generate_content(model="m", contents="Weather in Paris?", config=config)  # fmt: skip


REJECTED = (openai.BadRequestError, anthropic.BadRequestError, genai_errors.ClientError)

EXPECTED: dict[tuple[Api, Api], str] = {
    ("chat.completions", "responses"): "Missing required parameter: 'tools[0].function'.",
    (
        "chat.completions",
        "anthropic",
    ): "Invalid value: None. Supported values are: 'function' and 'custom'",
    (
        "chat.completions",
        "gemini",
    ): "Invalid value: None. Supported values are: 'function' and 'custom'",
    ("responses", "chat.completions"): "Missing required parameter: 'tools[0].name'.",
    ("responses", "anthropic"): "Missing required parameter: 'tools[0].type'.",
    ("responses", "gemini"): "Missing required parameter: 'tools[0].type'.",
    ("anthropic", "chat.completions"): "tools.0: Input tag 'function' found using 'type'",
    ("anthropic", "responses"): "tools.0: Input tag 'function' found using 'type'",
    ("anthropic", "gemini"): "tools.0.custom.name: Field required",
    ("gemini", "chat.completions"): "Unknown name 'type' at 'tools[0]'",
    ("gemini", "responses"): "Unknown name 'type' at 'tools[0]'",
    ("gemini", "anthropic"): "Unknown name 'name' at 'tools[0]'",
}


@pytest.mark.parametrize("api", API_NAMES)
@pytest.mark.parametrize("shape", API_NAMES)
def test_another_apis_definition_is_refused(api: Api, shape: Api) -> None:
    if shape == api:
        send(api, definition(api))  # its own shape is taken
        return
    with pytest.raises(REJECTED) as raised:
        send(api, definition(shape))
    assert EXPECTED[(api, shape)] in str(raised.value)
