"""toolwire for `async def` handlers: dispatch methods are awaitable and run a batch's
handlers concurrently.

`toolwire.core` has the same names for plain handlers. Results, calls,
errors, history helpers and streams are the same objects in both.
"""

from __future__ import annotations

from ._adapters._base import TurnStatus
from ._aio import BaseCustomToolModel, BaseFunctionToolModel, FunctionToolGroup, ToolGroup
from ._api import Api
from ._batch import UnexpectedErrors
from ._call import AnyToolCall, StandardToolCall
from ._definition import CustomToolFormat, GeminiResponseFormat
from ._history import AnyResponse, assistant_messages, tool_result_messages, turn_status
from ._limits import DEFAULT_LIMITS, ArgumentLimits
from ._result import (
    HandlerResult,
    ToolCallFailReason,
    ToolCallFailure,
    ToolCallResult,
    ToolCallSuccess,
)
from .exceptions import ErrorForLLMToSee, ToolBatchError

__all__ = [
    "DEFAULT_LIMITS",
    "AnyResponse",
    "AnyToolCall",
    "Api",
    "ArgumentLimits",
    "BaseCustomToolModel",
    "BaseFunctionToolModel",
    "CustomToolFormat",
    "ErrorForLLMToSee",
    "FunctionToolGroup",
    "GeminiResponseFormat",
    "HandlerResult",
    "StandardToolCall",
    "ToolBatchError",
    "ToolCallFailReason",
    "ToolCallFailure",
    "ToolCallResult",
    "ToolCallSuccess",
    "ToolGroup",
    "TurnStatus",
    "UnexpectedErrors",
    "assistant_messages",
    "tool_result_messages",
    "turn_status",
]
