"""Small builders of SDK objects for the tests (the SDKs' own types, built with their models)."""

from __future__ import annotations

import functools
import json
import ssl
from typing import TYPE_CHECKING, Any

from anthropic.types import Message
from openai.types.chat import ChatCompletion

from toolwire.core import BaseFunctionToolModel

if TYPE_CHECKING:
    import httpx2
    from google import genai


def chat_completion(
    *calls: tuple[str, str | dict[str, Any]] | tuple[str, str | dict[str, Any], str],
    content: str | None = None,
    finish_reason: str = "tool_calls",
    completion_id: str = "chatcmpl-1",
) -> ChatCompletion:
    """A ChatCompletion whose message calls `(name, arguments[, id])` in order."""
    tool_calls: list[dict[str, Any]] = []
    for index, call in enumerate(calls):
        name, arguments = call[0], call[1]
        call_id = call[2] if len(call) == 3 else f"call_{index}"
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        tool_calls.append(
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}
        )
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return ChatCompletion.model_validate(
        {
            "id": completion_id,
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-test",
            "choices": [{"index": 0, "finish_reason": finish_reason, "message": message}],
        }
    )


def anthropic_message(*calls: tuple[str, dict[str, Any]]) -> Message:
    """An Anthropic message asking for `calls` `(name, input)` in order (ids `toolu_0`...)."""
    return Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-4-6",
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [
                {"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": args}
                for n, (name, args) in enumerate(calls)
            ],
        }
    )


def offline_gemini_client(http: httpx2.Client) -> genai.Client:
    """A real `genai.Client` that sends through `http` (a mock transport). It is handed one
    shared SSL context: left alone, every client loads the CA bundle twice (about 80 ms,
    most of the time a recorded round trip takes)."""
    from google import genai
    from google.genai import types

    trust = _shared_ssl_context()
    options = types.HttpOptions(
        httpx_client=http, client_args={"verify": trust}, async_client_args={"ssl": trust}
    )
    return genai.Client(api_key="offline", vertexai=False, http_options=options)


@functools.cache
def _shared_ssl_context() -> ssl.SSLContext:
    return ssl.create_default_context()


# Two tools the stream tests share: what their calls stream is the point, not the tools.


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


class get_time(BaseFunctionToolModel[None, None]):
    """Get the time."""

    tz: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Noon in {self.tz}.", None
