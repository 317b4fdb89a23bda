"""Small builders of SDK objects for the tests (the SDKs' own types, built with their models)."""

from __future__ import annotations

import json
from typing import Any

from openai.types.chat import ChatCompletion


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
