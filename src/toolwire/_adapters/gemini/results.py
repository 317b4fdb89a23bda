"""Gemini result rendering: one `function_response` Part per call.

`google.genai` is imported only when a Gemini result is rendered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from google.genai.types import Part

    from ..._result import ToolCallResult

__all__ = ["function_response_part"]


def function_response_part(result: ToolCallResult[Any]) -> Part:
    """The Part answering `result`'s call.

    `response` is always an object: the text under "output", or under "error" for
    a failure. `id` is set exactly when the call carried one: an id toolwire
    synthesized for bookkeeping never goes on the wire.
    """
    from google.genai import types

    key = "output" if result.fail_reason is None else "error"
    return types.Part(
        function_response=types.FunctionResponse(
            id=None if result.synthesized_id else result.call_id,
            name=result.name,
            response={key: result.result_content},
        )
    )
