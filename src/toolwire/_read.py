"""The front door for calls: `read_calls` reads any object (one call, a list of them, a
whole response or message of any API) into `StandardToolCall`s.

It finds the object's API (from `api=`, or by looking at it) and hands the object to
that API's adapter. An SDK class is looked at once: the class is remembered with how to
read it, so the common case, a response of a class seen before, goes straight to its
adapter's `read_response`, whose first branch reads it in one pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol, TypeGuard

from ._api import Api, adapter, api_of, check_api, sdk_api
from ._call import StandardToolCall
from .exceptions import ToolwireError

if TYPE_CHECKING:
    from ._adapters._base import Adapter
    from ._adapters.openai_chat.servers import ChatServer

__all__ = ["read_call", "read_calls"]

OtherCalls = Literal["raise", "ignore"]


class _Reader(Protocol):
    def __call__(self, obj: object, /, *, other_calls: OtherCalls) -> list[StandardToolCall]: ...


class _Reading(NamedTuple):
    """How to read objects of one SDK class: its API, and the adapter's reader for it."""

    api: Api
    read: _Reader


_READING: dict[type, _Reading] = {}
"""SDK class -> how to read it. Only SDK classes: what they are (a response, a
message, one call) is fixed by the class, while a dict is looked at one by one."""


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
    reading = _READING.get(type(calls))
    if reading is not None and (api is None or api == reading.api):
        return reading.read(calls, other_calls=other_calls)
    if isinstance(calls, StandardToolCall):
        return [calls]
    if _is_sequence(calls):
        first = next((i for i in calls if not isinstance(i, StandardToolCall)), None)
        if first is None:
            return list(calls)  # pyright: ignore[reportReturnType]
        return adapter(api or _api_of(first)).read_items(calls, other_calls=other_calls)
    if calls is None:
        return []
    return _reading(calls, api or api_of(calls)).read(calls, other_calls=other_calls)


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
    reading = _READING.get(type(item))
    return reading.api if reading is not None else _reading(item, api_of(item)).api


def _reading(obj: object, api: Api) -> _Reading:
    """How `api`'s adapter reads `obj`: as one call item or as a whole response,
    remembered for `obj`'s class when it is an SDK class of `api`."""
    api_adapter = adapter(api)
    if api_adapter.is_call_item(obj):
        reading = _Reading(api, _item_reader(api_adapter))
    else:
        reading = _Reading(api, api_adapter.read_response)
    kind = type(obj)
    if sdk_api(kind) == api:
        _READING[kind] = reading
    return reading


def _item_reader(api_adapter: Adapter) -> _Reader:
    def read_one(item: object, /, *, other_calls: OtherCalls) -> list[StandardToolCall]:
        return api_adapter.read_items((item,), other_calls=other_calls)

    return read_one
