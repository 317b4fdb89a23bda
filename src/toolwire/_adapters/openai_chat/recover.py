"""`recover_text_calls`: a Chat Completions turn whose text holds tool calls in a known
format (`text_calls.py`), as the server would have sent it with its tool parser on."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, cast

from ...exceptions import ToolwireError
from .._base import field
from .text_calls import text_calls

__all__ = ["recover_text_calls"]

T = TypeVar("T")


def recover_text_calls(response: T) -> T:
    """A copy of `response` (a `ChatCompletion`, its message, or their dict forms) whose
    calls written in the text (Hermes/Qwen `<tool_call>{...}</tool_call>`, GLM
    `<tool_call>name<arg_key>...`) are tool calls, the text around them its content, and
    its finish reason "tool_calls": what the server would have answered with its tool
    parser on. `turn_status` says "calls_in_text" when a turn holds such calls.

    The recovered calls have no id (the server gave none): toolwire gives each a
    synthesized id, flagged `synthesized_id` on the call, the same in the results and in
    `assistant_messages`. A turn with native tool calls, or without text calls, comes
    back unchanged (a copy). Use it on servers you know write calls in text; check the
    results as you would any call (they are validated like any other).
    """
    if isinstance(response, Mapping):
        data = copy.deepcopy(dict(cast("Mapping[str, Any]", response)))
        if "choices" in data:
            choices = cast("list[dict[str, Any]]", data.get("choices") or [])
            if choices:
                _recover_dict(choices[0], choices[0].get("message"))
        else:
            _recover_dict(None, data)
        return cast(T, data)
    copy_method = getattr(response, "model_copy", None)
    if copy_method is None:
        raise ToolwireError(
            f"recover_text_calls takes a ChatCompletion, its message, or their dict forms, "
            f"not {type(response).__name__}."
        )
    recovered: Any = copy_method(deep=True)
    choices: object = getattr(recovered, "choices", None)
    if isinstance(choices, Sequence):
        if choices:
            choice: Any = cast("Sequence[Any]", choices)[0]
            _recover_model(choice, choice.message)
    else:
        _recover_model(None, recovered)
    return cast(T, recovered)


def _recovered(message: object) -> tuple[list[dict[str, Any]], str | None] | None:
    """The message's text calls as tool-call dicts and its text without them; None when
    it has native calls or no text calls."""
    content = field(message, "content")
    if field(message, "tool_calls") or not isinstance(content, str):
        return None
    calls, rest = text_calls(content)
    if not calls:
        return None
    tool_calls = [
        {
            "id": "",
            "type": "function",
            "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
        }
        for call in calls
    ]
    return tool_calls, rest or None


def _recover_dict(choice: dict[str, Any] | None, message: object) -> None:
    if not isinstance(message, dict):
        return
    entry = cast("dict[str, Any]", message)
    found = _recovered(entry)
    if found is None:
        return
    entry["tool_calls"], entry["content"] = found
    if choice is not None:
        choice["finish_reason"] = "tool_calls"


def _recover_model(choice: Any, message: Any) -> None:
    found = _recovered(message)
    if found is None:
        return
    from openai.types.chat import ChatCompletionMessageFunctionToolCall

    tool_calls, content = found
    message.tool_calls = [ChatCompletionMessageFunctionToolCall.construct(**c) for c in tool_calls]
    message.content = content
    if choice is not None:
        choice.finish_reason = "tool_calls"
