"""Gemini result rendering: one `function_response` Part per call.

`google.genai` is imported only when a Gemini result is rendered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from google.genai.types import Part

    from ..._result import ToolCallResult

__all__ = ["NAMELESS_CALL_NAME", "function_response_part"]

NAMELESS_CALL_NAME = "unnamed_function"
"""The name a function response carries when its call came without one.

The API requires a name on every function response, and pairs responses with calls
by position when they have no ids; a malformed call with no name would otherwise get
an unnamed response that breaks every later request of the conversation. The call is
answered "invalid_name" (no tool has the empty name), under this placeholder."""


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
            name=result.name or NAMELESS_CALL_NAME,
            response={key: result.result_content},
        )
    )
