"""The names `toolwire.core` and `toolwire.aio` share, listed once.

Results, calls, errors, limits, hooks, history helpers and streams are the same objects
in both namespaces; each adds its own tool bases and group (`_core`, `_aio`). The names a
plain dispatch does not need (the schema compiler, streaming, toolcall's definition
models) are `_lazy`'s: they load on first use.
"""

from __future__ import annotations

from ._api import Api
from ._approval import ApprovalRequired
from ._batch import UnexpectedErrors
from ._budget import ResultBudget, ResultCut
from ._call import AnyCustomToolCall, AnyFunctionToolCall, AnyToolCall, StandardToolCall
from ._callers import ProgrammaticCaller, ToolCallerKind
from ._decisions import ArgumentEdit
from ._definition import CustomToolFormat, GeminiResponseFormat, ToolNamespace
from ._guardrails import GuardrailRecord, RefuseCall, ReplaceContent
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
from ._parts import FilePart, ImagePart, MediaPart, ResultPart, SearchResultPart, ToolContent
from ._pending import PendingCall
from ._references import ToolReference
from ._result import (
    HandlerResult,
    ToolCallFailReason,
    ToolCallFailure,
    ToolCallResult,
    ToolCallSuccess,
)
from ._tool_choice import (
    AnthropicSubsetChoiceParams,
    AnthropicToolChoiceParams,
    ChatToolChoiceParams,
    GeminiToolChoiceParams,
    ResponsesToolChoiceParams,
    ToolChoiceMode,
)
from ._turn import TurnStatus
from .exceptions import ErrorForLLMToSee, ToolBatchError

__all__ = [
    "AnthropicSubsetChoiceParams",
    "AnthropicToolChoiceParams",
    "AnyCustomToolCall",
    "AnyFunctionToolCall",
    "AnyResponse",
    "AnyToolCall",
    "Api",
    "ApprovalRequired",
    "ArgumentEdit",
    "ArgumentLimits",
    "assistant_messages",
    "ChatToolChoiceParams",
    "CustomToolFormat",
    "DEFAULT_LIMITS",
    "ErrorForLLMToSee",
    "FilePart",
    "GeminiResponseFormat",
    "GeminiToolChoiceParams",
    "GuardrailRecord",
    "HandlerResult",
    "ImagePart",
    "media_report",
    "MediaDelivery",
    "MediaPart",
    "MediaPlacement",
    "MediaReport",
    "PendingCall",
    "ProgrammaticCaller",
    "RefuseCall",
    "ReplaceContent",
    "ResponsesToolChoiceParams",
    "ResultBudget",
    "ResultCut",
    "ResultPart",
    "SearchResultPart",
    "StandardToolCall",
    "ToolCallerKind",
    "tool_result_messages",
    "ToolBatchError",
    "ToolCallEnd",
    "ToolCallFailReason",
    "ToolCallFailure",
    "ToolCallResult",
    "ToolCallSuccess",
    "ToolChoiceMode",
    "ToolContent",
    "ToolHooks",
    "ToolNamespace",
    "ToolReference",
    "turn_status",
    "TurnStatus",
    "UnexpectedErrors",
]
