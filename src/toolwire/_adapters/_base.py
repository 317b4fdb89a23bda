"""The interface every API adapter implements, and helpers they share."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from .._api import Api
from ..exceptions import ToolDefinitionError, ToolwireError

if TYPE_CHECKING:
    from .._call import StandardToolCall
    from .._definition import CustomToolSpec, FunctionToolSpec
    from .._media import MediaPlacement, Placement
    from .._parts import MediaPart
    from .._result import ToolCallResult
    from .._streaming._stream import StreamAccumulator

__all__ = [
    "Adapter",
    "FastReader",
    "TurnStatus",
    "call_text",
    "check_tool_name",
    "field",
    "synthesized_id",
]

FastReader = Callable[[Any], "list[StandardToolCall] | None"]
"""Reads the common case of one SDK response class in one pass: every call, or None
when the response needs the general reader (a cut turn, a call without an id...)."""

TurnStatus = Literal["tool_calls", "done", "truncated", "paused", "refused", "malformed"]
"""Why a turn ended.

- "tool_calls": the model called tools; run them and send the results.
- "done": the model answered without calling tools.
- "truncated": the turn stopped early: a length limit (chat `length`, Responses
  `incomplete`, Anthropic `max_tokens` / `model_context_window_exceeded`, Gemini
  `MAX_TOKENS`), or a Responses turn that `failed` or was `cancelled`. Calls it holds
  still need results: a cut call is answered with a "truncated" failure.
- "paused": Anthropic `pause_turn`, or beta `compaction` (`pause_after_compaction`):
  send the turn back as it is to let the model continue.
- "refused": a refusal or a content filter stopped the turn; a call it cut off is
  answered with a "truncated" failure too.
- "malformed": Gemini `MALFORMED_FUNCTION_CALL`: the model produced a call it could not
  encode; there is nothing to run, retry the request.
"""


class Adapter(Protocol):
    """Everything toolwire knows about one API. One implementation per API module."""

    api: Api

    def function_definition(self, spec: FunctionToolSpec) -> Any: ...
    def custom_definition(self, spec: CustomToolSpec) -> Any: ...
    def tool_definitions(self, definitions: list[Any]) -> list[Any]: ...
    def output_format(self, spec: FunctionToolSpec) -> Any: ...
    def read_items(
        self, items: Sequence[object], *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]: ...
    def read_response(
        self, response: object, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]: ...
    def fast_reader(self, kind: type) -> FastReader | None: ...
    def assistant_messages(self, response: object) -> list[Any]: ...
    def tool_result_messages(
        self, results: Sequence[ToolCallResult[Any]], media: MediaPlacement
    ) -> list[Any]: ...
    def place_media(self, part: MediaPart, media: MediaPlacement) -> tuple[Placement, str]: ...
    def turn_status(self, response: object) -> TurnStatus: ...
    def stream_accumulator(self) -> StreamAccumulator: ...


_IS_MAPPING: dict[type, bool] = {}
"""Class -> whether it is a Mapping: `isinstance` against an abstract class costs more
than the read itself, and `field` runs several times per call."""


def field(obj: object, name: str, default: Any = None) -> Any:
    """Read `name` from an SDK model (attribute) or its dict form (key)."""
    kind = type(obj)
    mapping = _IS_MAPPING.get(kind)
    if mapping is None:
        mapping = _IS_MAPPING[kind] = isinstance(obj, Mapping)
    if mapping:
        return cast("Mapping[str, Any]", obj).get(name, default)
    return getattr(obj, name, default)


def call_text(value: object, key: str, api: Api) -> str | None:
    """A call's name or id as read from a dict form: the string, or None when absent.

    Every API sends strings there. Any other value means the dict was not built from
    the API's data, a developer mistake that raises (a model cannot cause it).
    """
    if value is None or isinstance(value, str):
        return value
    raise ToolwireError(
        f"This {api} tool call's {key!r} is a {type(value).__name__}, but the API always "
        "sends a string there. Pass the SDK's own objects, or dicts shaped like its param "
        "types."
    )


_UNSAFE_ID_CHARS = re.compile(r"[^A-Za-z0-9_-]")


def synthesized_id(response_id: str | None, index: int) -> str:
    """The id toolwire gives a call that came without one.

    Stable: the same response and position always give the same id, so the
    results and the replayed assistant turn agree. Only `[A-Za-z0-9_-]` is used,
    which every API accepts in ids.
    """
    if response_id:
        # Most ids are letters and digits already: no regex pass for them.
        safe = response_id if response_id.isalnum() and response_id.isascii() else None
        if safe is None:
            safe = _UNSAFE_ID_CHARS.sub("_", response_id)
        return f"toolwire_{safe[:64]}_{index}"
    return f"toolwire_{index}"


_ACCEPTED_NAMES: set[tuple[str, str]] = set()
"""(name, API) pairs already checked: definitions are rendered on every request."""


def check_tool_name(name: str, api: Api, pattern: re.Pattern[str], rule: str) -> None:
    """Raise `ToolDefinitionError` if `api` would reject the tool name."""
    if (name, api) in _ACCEPTED_NAMES:
        return
    if pattern.fullmatch(name):
        _ACCEPTED_NAMES.add((name, api))
    else:
        raise ToolDefinitionError(
            f"The tool name {name!r} is not valid for {api!r}: {rule}. Set "
            "`model_tool_custom_name` (or `model_tool_name_generator`) to a valid name."
        )
