"""Chat Completions result rendering: one `role="tool"` message per call. No SDK import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionToolMessageParam

    from ..._result import ToolCallResult

__all__ = ["tool_message"]


def tool_message(result: ToolCallResult[Any]) -> ChatCompletionToolMessageParam:
    """The tool message answering `result`'s call (the API has no error flag)."""
    return {"role": "tool", "tool_call_id": result.call_id, "content": result.result_content}
