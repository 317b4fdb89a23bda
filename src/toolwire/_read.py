"""The front door for calls: `read_calls` reads any object (one call, a list of them, a
whole response or message of any API) into `StandardToolCall`s.

It finds the object's API (from `api=`, or by looking at it) and hands the object to
that API's adapter. An SDK class is looked at once: its adapter says how to read it
(`Adapter.class_reading`), remembered in the one per-class cache, `SDK_CLASSES`, so the
common case, a response of a class seen before, goes straight to its fast reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, TypeGuard

from ._api import Api, adapter, api_of, check_api
from ._call import StandardToolCall
from ._class_reading import ITEM, OTHER, SDK_CLASSES, ClassReading, read_by_default, sdk_class
from .exceptions import ToolwireError

if TYPE_CHECKING:
    from ._adapters.openai_chat.servers import ChatServer

__all__ = ["read_call", "read_calls"]

OtherCalls = Literal["raise", "ignore"]


def read_calls(
    calls: object, *, api: Api | ChatServer | None = None, other_calls: OtherCalls = "raise"
) -> list[StandardToolCall]:
    """Every tool call in `calls`: one call object, a sequence of them, or a whole
    response/message object of any API, in call order. A dialect given as `api` (a
    `ChatServer`) reads as its API: reading needs no profile."""
    if api is not None and not isinstance(api, str):
        api = check_api(api)
    if other_calls != "raise" and other_calls != "ignore":
        raise (ValueError if isinstance(other_calls, str) else TypeError)(
            f'other_calls must be "raise" (the default: a client-side call toolwire cannot '
            f'run raises UnhandledCallsError) or "ignore" (such calls are left for you to '
            f"answer); got {other_calls!r}."
        )
    reading = SDK_CLASSES.get(type(calls))
    if reading is None or (api is not None and api != reading.api):
        if isinstance(calls, StandardToolCall):
            return [calls]
        if _is_sequence(calls):
            first = next((i for i in calls if not isinstance(i, StandardToolCall)), None)
            if first is None:
                return list(calls)  # pyright: ignore[reportReturnType]
            return adapter(api or _api_of(first)).read_items(calls, other_calls=other_calls)
        if calls is None:
            return []
        reading = _reading(calls, api or api_of(calls))
    one_pass = reading.one_pass  # a response's class: the common response in one pass
    if one_pass is not None:
        read = one_pass(calls)
        if read is not None:
            return read
    return reading.read(calls, other_calls=other_calls)


def read_call(call: object, *, api: Api | ChatServer | None = None) -> StandardToolCall:
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


def _api_of(item: object) -> Api:
    """The API of an item of a list (remembering its class's reading, as for one item)."""
    reading = SDK_CLASSES.get(type(item))
    return reading.api if reading is not None else _reading(item, api_of(item)).api


def _reading(obj: object, api: Api) -> ClassReading:
    """How `api`'s adapter reads `obj`: the reading of its class when it is an SDK class of
    `api` (decided once, see `sdk_class`), else as one call item or a whole response."""
    api_adapter = adapter(api)
    reading = sdk_class(api_adapter, obj)
    if reading is not None:
        return reading
    return read_by_default(api_adapter, obj, ITEM if api_adapter.is_call_item(obj) else OTHER)
