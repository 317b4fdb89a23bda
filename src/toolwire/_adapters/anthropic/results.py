"""Anthropic result rendering: one `tool_result` block per call. No SDK import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anthropic.types import ToolResultBlockParam

    from ..._result import ToolCallResult

__all__ = ["tool_result_block"]


def tool_result_block(result: ToolCallResult[Any]) -> ToolResultBlockParam:
    """The `tool_result` block answering `result`, with `is_error: true` on any failure."""
    block: ToolResultBlockParam = {
        "type": "tool_result",
        "tool_use_id": result.call_id,
        "content": result.result_content,
    }
    if result.fail_reason is not None:
        block["is_error"] = True
    return block
