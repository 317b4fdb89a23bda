"""toolwire for plain (synchronous) handlers.

`toolwire.aio` has the same names for `async def` handlers. Results, calls,
errors, history helpers and streams are the same objects in both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._api import Api
from ._batch import UnexpectedErrors
from ._call import AnyCustomToolCall, AnyFunctionToolCall, AnyToolCall, StandardToolCall
from ._core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    FunctionToolGroup,
    ToolGroup,
    ToolModelType,
)
from ._definition import CustomToolFormat, GeminiResponseFormat, ToolNamespace
from ._history import (
    AnyResponse,
    assistant_messages,
    media_report,
    tool_result_messages,
    turn_status,
)
from ._limits import DEFAULT_LIMITS, ArgumentLimits
from ._media import MediaDelivery, MediaPlacement, MediaReport
from ._observe import ToolCallEnd, ToolHooks
from ._parts import FilePart, ImagePart, MediaPart, ResultPart, ToolContent
from ._pending import PendingCall
from ._result import (
    HandlerResult,
    ToolCallFailReason,
    ToolCallFailure,
    ToolCallResult,
    ToolCallSuccess,
)
from ._tool_choice import (
    AnthropicToolChoiceParams,
    ChatToolChoiceParams,
    GeminiToolChoiceParams,
    ResponsesToolChoiceParams,
    ToolChoiceMode,
)
from ._turn import TurnStatus
from .exceptions import ErrorForLLMToSee, ToolBatchError

__all__ = [
    "AnthropicToolChoiceParams",
    "AnyCustomToolCall",
    "AnyFunctionToolCall",
    "AnyResponse",
    "AnyToolCall",
    "Api",
    "ArgumentLimits",
    "assistant_messages",
    "BaseCustomToolModel",
    "BaseFunctionToolModel",
    "ChatToolChoiceParams",
    "CustomToolFormat",
    "DEFAULT_LIMITS",
    "ErrorForLLMToSee",
    "FilePart",
    "FunctionToolGroup",
    "GeminiResponseFormat",
    "GeminiToolChoiceParams",
    "HandlerResult",
    "ImagePart",
    "media_report",
    "MediaDelivery",
    "MediaPart",
    "MediaPlacement",
    "MediaReport",
    "PendingCall",
    "ReasoningDelta",
    "ResponsesToolChoiceParams",
    "ResultPart",
    "SchemaChange",
    "SchemaReport",
    "StandardCustomToolDefinition",
    "StandardCustomToolFormat",
    "StandardCustomToolGrammarFormat",
    "StandardCustomToolTextFormat",
    "StandardFunctionToolDefinition",
    "StandardToolCall",
    "StreamEvent",
    "StringDelta",
    "TextDelta",
    "tool_result_messages",
    "ToolBatchError",
    "ToolCallArgumentsDelta",
    "ToolCallCompleted",
    "ToolCallEnd",
    "ToolCallFailReason",
    "ToolCallFailure",
    "ToolCallResult",
    "ToolCallStarted",
    "ToolCallStream",
    "ToolCallSuccess",
    "ToolCallTruncated",
    "ToolChoiceMode",
    "ToolContent",
    "ToolGroup",
    "ToolHooks",
    "ToolModelType",
    "ToolNamespace",
    "turn_status",
    "TurnEnded",
    "TurnStatus",
    "UnexpectedErrors",
]

if TYPE_CHECKING:
    from ._schema import SchemaChange, SchemaReport
    from ._standard import (
        StandardCustomToolDefinition,
        StandardCustomToolFormat,
        StandardCustomToolGrammarFormat,
        StandardCustomToolTextFormat,
        StandardFunctionToolDefinition,
    )
    from ._stream import ToolCallStream
    from ._streaming._events import (
        ReasoningDelta,
        StreamEvent,
        TextDelta,
        ToolCallArgumentsDelta,
        ToolCallCompleted,
        ToolCallStarted,
        ToolCallTruncated,
        TurnEnded,
    )
    from ._streaming._preview import StringDelta
else:
    from ._lazy import lazy_getattr

    __getattr__ = lazy_getattr(__name__)  # the schema compiler, streaming, toolcall's models
