"""Responses result rendering: one output item per call. No SDK import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openai.types.responses import ResponseCustomToolCallOutputParam
    from openai.types.responses.response_input_param import FunctionCallOutput

    from ..._result import ToolCallResult

__all__ = ["output_item"]


def output_item(
    result: ToolCallResult[Any],
) -> FunctionCallOutput | ResponseCustomToolCallOutputParam:
    """The `function_call_output` (or `custom_tool_call_output`) item answering `result`."""
    if result.type == "custom":
        return {
            "type": "custom_tool_call_output",
            "call_id": result.call_id,
            "output": result.result_content,
        }
    return {
        "type": "function_call_output",
        "call_id": result.call_id,
        "output": result.result_content,
    }
