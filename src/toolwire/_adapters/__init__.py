"""Adapter registry: which API an object belongs to, and the adapter that reads it.

Adapters are imported on first use, so `import toolwire.core` imports no SDK.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeGuard, cast

from .._api import Api, check_api
from .._call import StandardToolCall
from ..exceptions import ToolwireError
from ._base import field
from ._mismatch import unplaceable
from .openai_responses.items import ITEM_TYPES as _RESPONSES_ITEM_TYPES

if TYPE_CHECKING:
    from ._base import Adapter, FastReader

__all__ = ["ANTHROPIC_BLOCK_TYPES", "FAST_READERS", "adapter", "api_of", "read_call", "read_calls"]

_MODULES: dict[Api, str] = {
    "chat.completions": "toolwire._adapters.openai_chat.adapter",
    "responses": "toolwire._adapters.openai_responses.adapter",
    "anthropic": "toolwire._adapters.anthropic.adapter",
    "gemini": "toolwire._adapters.gemini.adapter",
}
_LOADED: dict[Api, Adapter] = {}

_SDK_MODULES: tuple[tuple[str, Api], ...] = (
    ("openai.types.chat", "chat.completions"),
    ("openai.types.responses", "responses"),
    ("anthropic.types", "anthropic"),
    ("google.genai.types", "gemini"),
)
_API_BY_TYPE: dict[type, Api] = {}

_GEMINI_KEYS = frozenset(
    {
        "candidates",
        "parts",
        "function_call",
        "functionCall",
        "thought_signature",
        "thoughtSignature",
        "partial_args",
        "partialArgs",
        "response_id",
        "responseId",
        "prompt_feedback",
        "promptFeedback",
        "usage_metadata",
        "usageMetadata",
        "finishReason",
    }
)
"""Dict keys only Gemini shapes have (snake_case SDK dicts and camelCase wire JSON)."""
_GEMINI_TURN_KEYS = frozenset(
    {
        "candidates",
        "parts",
        "content",
        "response_id",
        "responseId",
        "prompt_feedback",
        "promptFeedback",
        "usage_metadata",
        "usageMetadata",
    }
)
"""Keys of a Gemini response, candidate or Content dict (not a single part or call)."""
_GEMINI_PART_KEYS = frozenset(
    {
        "text",
        "thought",
        "inline_data",
        "inlineData",
        "file_data",
        "fileData",
        "executable_code",
        "executableCode",
        "code_execution_result",
        "codeExecutionResult",
        "function_response",
        "functionResponse",
        "tool_call",
        "toolCall",
        "tool_response",
        "toolResponse",
        "video_metadata",
        "videoMetadata",
        "part_metadata",
        "partMetadata",
        "media_resolution",
        "mediaResolution",
    }
)

ANTHROPIC_BLOCK_TYPES = frozenset(
    {
        "tool_use",
        "text",
        "thinking",
        "redacted_thinking",
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "container_upload",
        "mcp_tool_use",
        "mcp_tool_result",
        # beta-only blocks (client.beta.messages)
        "advisor_tool_result",
        "compaction",
        "fallback",
        "mcp_tool_listing",
        "tool_addition",
        "tool_removal",
    }
)


def adapter(api: Api) -> Adapter:
    """The adapter for `api`, imported on first use."""
    loaded = _LOADED.get(api)
    if loaded is None:
        module = importlib.import_module(_MODULES[check_api(api)])
        loaded = _LOADED[api] = module.ADAPTER
    return loaded


def api_of(obj: object) -> Api:
    """Which API `obj` (an SDK model or its dict form) belongs to.

    Raises a `ToolwireError` that says to pass `api=` when the object is ambiguous.
    """
    kind = type(obj)
    known = _API_BY_TYPE.get(kind)
    if known is not None:
        return known
    if isinstance(obj, Mapping):
        found = _api_of_dict(cast("Mapping[str, Any]", obj))
        if found is not None:
            return found
    else:
        module = kind.__module__
        for prefix, api in _SDK_MODULES:
            if module.startswith(prefix):
                _API_BY_TYPE[kind] = api
                return api
    raise unplaceable(cast(object, obj))


def read_calls(
    calls: object, *, api: Api | None = None, other_calls: Literal["raise", "ignore"] = "raise"
) -> list[StandardToolCall]:
    """Every tool call in `calls`: one call object, a sequence of them, or a whole
    response/message object of any API, in call order."""
    if other_calls != "raise" and other_calls != "ignore":
        raise (ValueError if isinstance(other_calls, str) else TypeError)(
            f'other_calls must be "raise" (the default: a client-side call toolwire cannot '
            f'run raises UnhandledCallsError) or "ignore" (such calls are left for you to '
            f"answer); got {other_calls!r}."
        )
    kind = type(calls)
    fast = FAST_READERS.get(kind)
    if fast is not None and (api is None or api == _API_BY_TYPE[kind]):
        read = fast(calls)
        if read is not None:
            return read
    if kind is StandardToolCall:
        return [calls]  # pyright: ignore[reportReturnType]
    # The common case, an SDK object of a class seen before: no isinstance checks
    # against abstract classes, no failing attribute reads on pydantic models.
    known = api or _API_BY_TYPE.get(kind)
    single = _SINGLE_CALL_BY_TYPE.get((kind, known)) if known is not None else None
    if single is not None and known is not None:
        if single:
            return adapter(known).read_items([calls], other_calls=other_calls)
        return adapter(known).read_response(calls, other_calls=other_calls)
    if isinstance(calls, StandardToolCall):
        return [calls]
    if _is_sequence(calls):
        items = calls
        if not items:
            return []
        first = next((i for i in items if not isinstance(i, StandardToolCall)), None)
        if first is None:
            return list(items)  # pyright: ignore[reportReturnType]
        return adapter(api or api_of(first)).read_items(items, other_calls=other_calls)
    if calls is None:
        return []
    which = api or api_of(calls)
    if _is_single_call(calls, which):
        return adapter(which).read_items([calls], other_calls=other_calls)
    return adapter(which).read_response(calls, other_calls=other_calls)


def read_call(call: object, *, api: Api | None = None) -> StandardToolCall:
    """Exactly one call: raises if `call` is not a single tool call."""
    calls = read_calls(call, api=api)
    if len(calls) != 1 or _is_sequence(call):
        raise ToolwireError(
            f"Expected one tool call, got {type(call).__name__} holding {len(calls)}. Use "
            "run_tool_calls() for a list or a whole response."
        )
    return calls[0]


def _is_sequence(obj: object) -> TypeGuard[Sequence[object]]:
    return isinstance(obj, Sequence) and not isinstance(obj, str | bytes)


FAST_READERS: dict[type, FastReader] = {}
"""SDK response class -> its adapter's one-pass reader of the common case (a response
with a handful of calls pays more for finding its reader than for reading them)."""

_SINGLE_CALL_BY_TYPE: dict[tuple[type, Api], bool] = {}
"""(SDK class, API) -> whether its objects are one call (True) or a response or
message (False). Only SDK classes are cached: their `type` is fixed by the class,
while a dict is looked at one by one."""


def _is_single_call(obj: object, api: Api) -> bool:
    """Whether `obj` is one call item (as opposed to a whole response or message)."""
    single = _looks_like_single_call(obj, api)
    kind = type(obj)
    if kind in _API_BY_TYPE:  # an SDK class (api_of cached it)
        _SINGLE_CALL_BY_TYPE[kind, api] = single
        fast = None if single else adapter(api).fast_reader(kind)
        if fast is not None and _API_BY_TYPE[kind] == api:
            FAST_READERS[kind] = fast
    return single


def _looks_like_single_call(obj: object, api: Api) -> bool:
    if api == "gemini":  # first: Gemini models have no `type`, and a missing attribute is slow
        if type(obj).__name__ in ("FunctionCall", "Part"):
            return True
        return isinstance(obj, Mapping) and not (
            _GEMINI_TURN_KEYS & set(cast("Mapping[str, Any]", obj))
        )
    kind = field(obj, "type")
    if api == "chat.completions":
        return kind in ("function", "custom") or (
            isinstance(obj, Mapping) and "function" in obj and "choices" not in obj
        )
    if api == "responses":
        return kind in _RESPONSES_ITEM_TYPES
    return kind in ANTHROPIC_BLOCK_TYPES


def _api_of_dict(data: Mapping[str, Any]) -> Api | None:
    kind = data.get("type")
    if "choices" in data or "tool_calls" in data:
        return "chat.completions"
    if _GEMINI_KEYS & data.keys():
        return "gemini"
    if "stop_reason" in data:
        return "anthropic"
    if data.get("object") == "response" or (kind is None and "output" in data):
        return "responses"
    if isinstance(kind, str):
        if kind in ("function", "custom") and ("function" in data or "custom" in data):
            return "chat.completions"
        if kind in ANTHROPIC_BLOCK_TYPES and kind != "message":
            return "anthropic"
        if kind in _RESPONSES_ITEM_TYPES:
            return "responses"
    if "function" in data and "id" in data:
        return "chat.completions"
    role, content = data.get("role"), data.get("content")
    if role == "assistant":
        if isinstance(content, list) and content and isinstance(content[0], Mapping):
            return "anthropic"
        return "chat.completions"
    if "name" in data and ("args" in data or set(data) <= {"name", "id", "args"}):
        return "gemini"
    if "content" in data and ("finishReason" in data or "finish_reason" in data):
        return "gemini"  # a candidate (a chat choice holds a "message" instead)
    if kind is None and data and data.keys() <= _GEMINI_PART_KEYS:
        return "gemini"  # a text, thought or other non-call part
    return None
