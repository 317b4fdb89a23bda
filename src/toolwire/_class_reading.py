"""How to read each SDK class, decided once per class: the one per-class cache of
reading.

An SDK class's shape (a whole response, a message, one call item) is fixed by the
class, so its API's adapter is asked once (`Adapter.class_reading`) and the answer is
kept in `SDK_CLASSES`. `read_calls` looks a response's class up there and calls its
reader; the adapters' history paths (`assistant_messages`, `turn_status`) read its
shape. It sits below both (the adapters are loaded on first use, and `read_calls` must
not load them to look a class up).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

from ._api import Api, sdk_api

if TYPE_CHECKING:
    from ._call import StandardToolCall

__all__ = [
    "ITEM",
    "MESSAGE",
    "OTHER",
    "RESPONSE",
    "SDK_CLASSES",
    "CallReader",
    "ClassReading",
    "OnePassReader",
    "Shape",
    "read_by_default",
    "sdk_class",
]


class CallReader(Protocol):
    """Reads every call of one object (a response, a message or one call item)."""

    def __call__(
        self, obj: object, /, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]: ...


OnePassReader = Callable[[Any], "list[StandardToolCall] | None"]
"""Reads every call of a common object of one SDK class in one pass, or declines (None)
what it does not read (a cut turn, a call without an id...): `ClassReading.read` reads
that."""


Shape = Literal["response", "message", "item", "other"]
RESPONSE: Shape = "response"
"""The API's whole response (a `ChatCompletion`, `Response`, `Message`,
`GenerateContentResponse`), which its adapter's fast reader reads in one pass."""
MESSAGE: Shape = "message"
"""An assistant message without the response around it (Chat Completions)."""
ITEM: Shape = "item"
"""One call item (a tool call, an output item, a content block, a part)."""
OTHER: Shape = "other"
"""Anything else of the API's SDK, read by the adapter's general `read_response`."""


class ClassReading(NamedTuple):
    """How to read objects of one SDK class, decided once per class by its API's adapter
    (`Adapter.class_reading`): its API, what it is, the reader of its calls, and (a
    whole response's class) the one-pass reader `read_calls` tries first, so that the
    common response is read by one function."""

    api: Api
    shape: Shape
    read: CallReader
    one_pass: OnePassReader | None = None


class _ReadsCalls(Protocol):
    """What `sdk_class` and `read_by_default` use of an adapter (`api` read-only, so each
    adapter's `Literal` API fits)."""

    @property
    def api(self) -> Api: ...
    def read_items(
        self, items: Sequence[object], *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]: ...
    def read_response(
        self, response: object, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]: ...
    def class_reading(self, sample: object) -> ClassReading: ...


SDK_CLASSES: dict[type, ClassReading] = {}
"""SDK class -> how to read it: the one per-class cache of reading. `read_calls` looks a
response's class up here first and calls its reader; the adapters' history paths
(`assistant_messages`, `turn_status`) read its shape. Only SDK classes: what they are is
fixed by the class, while a dict is looked at one by one."""


def sdk_class(adapter: _ReadsCalls, obj: object) -> ClassReading | None:
    """How `adapter` reads `obj`'s class when it is an SDK class of the adapter's API
    (asked of the adapter once per class, then remembered), else None."""
    kind = type(obj)
    reading = SDK_CLASSES.get(kind)
    if reading is None:
        if sdk_api(kind) != adapter.api:
            return None
        reading = SDK_CLASSES[kind] = adapter.class_reading(obj)
    return reading if reading.api == adapter.api else None


def read_by_default(adapter: _ReadsCalls, sample: object, shape: Shape) -> ClassReading:
    """The reading of a class without a fast reader of its own: one call item through
    `read_items`, anything else through `read_response`."""
    if shape == ITEM:

        def read_one(item: object, /, *, other_calls: Literal["raise", "ignore"]) -> list[Any]:
            return adapter.read_items((item,), other_calls=other_calls)

        return ClassReading(adapter.api, shape, read_one)
    return ClassReading(adapter.api, shape, adapter.read_response)
