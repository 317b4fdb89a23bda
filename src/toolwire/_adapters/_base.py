"""The interface every API adapter implements, and helpers they share."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from .._api import API_ENTRIES, Api
from ..exceptions import ToolDefinitionError, ToolwireError

if TYPE_CHECKING:
    from .._call import StandardToolCall
    from .._callers import ToolCallerKind
    from .._class_reading import ClassReading
    from .._definition import (
        CustomToolSpec,
        FunctionToolSpec,
        ServerSearch,
        ToolNamespace,
        ToolSearchExecution,
    )
    from .._media import ChosenPlacement, MediaPlacement, Rule
    from .._result import ToolCallResult
    from .._streaming._events import StreamEvent
    from .._tool_choice import CheckedChoice
    from .._turn import TurnStatus

__all__ = [
    "NO_CALLERS",
    "Adapter",
    "StreamAccumulator",
    "call_text",
    "check_tool_name",
    "field",
    "media_native_for_every_model",
    "no_argument_fragments",
]


NO_CALLERS: Mapping[ToolCallerKind, str] = MappingProxyType({})
"""`Adapter.caller_names` of an API without programmatic tool calling."""


class Adapter(Protocol):
    """Everything toolwire knows about one API. One implementation per adapter folder,
    found through the registry (`toolwire._api.adapter`)."""

    api: Api
    output_always_strict: bool
    """Whether the API constrains structured output to its schema subset whatever is
    asked (so formats compile strict there)."""

    native_input_examples: bool
    """Whether a tool definition has a field for example arguments (else they go in the
    description)."""

    native_search_results: bool
    """Whether a tool result takes search result blocks (else a `SearchResultPart` goes
    as its text)."""

    caller_names: Mapping[ToolCallerKind, str]
    """Each caller of `model_tool_allowed_callers` as the definitions' `allowed_callers`
    name it (programmatic tool calling); empty where the API has none (the definitions
    leave callers out)."""

    def function_definition(self, spec: FunctionToolSpec) -> Any: ...
    def custom_definition(self, spec: CustomToolSpec) -> Any: ...
    def tool_definitions(
        self, definitions: list[Any], namespaces: Sequence[ToolNamespace | None]
    ) -> list[Any]:
        """The API's `tools` value from one definition per tool, in group order, and
        the namespace of each (Responses nests a namespace's tools in one item)."""
        ...

    defers_natively: bool
    """Whether the API's definitions carry `defer_loading` (else `tool_definitions`
    leaves deferred tools out until a search loads them)."""

    def tool_search_definition(
        self, definition: Any, execution: ToolSearchExecution, server: ServerSearch
    ) -> Any:
        """The definition of the group's tool search, from its plain function
        `definition`: the API's own search tool where the server runs it."""
        ...

    def loaded_tool_names(self, history: Sequence[object]) -> list[str]:
        """The names of the tools the searches and references in `history` (this API's
        messages or items) loaded, in order."""
        ...

    def mark_cache_breakpoint(
        self, rendered: list[Any], ttl: str | Literal[True], *, where: Literal["tools", "results"]
    ) -> None:
        """Mark the end of `rendered` (fresh tool definitions, or the messages answering a
        turn) as a prompt-cache breakpoint with lifetime `ttl` (True: the API's default),
        where the API takes explicit breakpoints; nothing where it caches on its own.
        `ValueError` for a lifetime the API does not take."""
        ...

    def output_format(self, spec: FunctionToolSpec) -> Any: ...
    def tool_choice_params(
        self, choice: CheckedChoice, *, parallel: bool | None, thinking: object
    ) -> dict[str, Any]:
        """The create call's keyword arguments for `choice`, or the error the live API
        would answer with."""
        ...

    def is_call_item(self, obj: object) -> bool:
        """Whether `obj` is one call item (as opposed to a whole response or message)."""
        ...

    def read_items(
        self, items: Sequence[object], *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]: ...
    def read_response(
        self, response: object, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        """Every call of a whole response or message, whatever its class or state (the
        general reader)."""
        ...

    def class_reading(self, sample: object) -> ClassReading:
        """How to read `sample` and every other object of its class, an SDK class of this
        API: asked once per class (`_class_reading.sdk_class` remembers it). The API's
        response class reads through its fast reader, which falls back to
        `read_response` for what it does not read in one pass."""
        ...

    def assistant_messages(self, response: object) -> list[Any]: ...
    def tool_result_messages(
        self, results: Sequence[ToolCallResult[Any]], media: MediaPlacement
    ) -> list[Any]: ...
    def native_result(self, result: ToolCallResult[Any]) -> Any:
        """The result's native answer, as its registry entry's `result_property`."""
        ...

    @property
    def enclose_answers(self) -> Callable[[list[Any]], list[Any]] | None:
        """What puts a turn's answers (each result's `native_result`, in call order) into
        the history: one user message (Anthropic), one user `Content` (Gemini), a
        server's shortened call ids (a Chat Completions dialect); None where the answers
        are the messages themselves. `tool_result_messages` renders an answer of text
        results (the common case) as `enclose_answers(list(map(native_result, results)))`,
        the adapter's `tool_result_messages` the rest."""
        ...

    def media_rule(self, results: Sequence[ToolCallResult[Any]]) -> Rule:
        """Where each image and file of `results`, answered together, goes (the rule
        `tool_result_messages` and `media_report` both follow)."""
        ...

    def auto_media(self, model: str | None) -> ChosenPlacement:
        """What `media="auto"` means on this API for the model that made the calls (None
        when unknown)."""
        ...

    def turn_status(self, response: object) -> TurnStatus: ...
    def stream_accumulator(self, *, fold_partial_args: bool = False) -> StreamAccumulator:
        """A new accumulator for one streamed turn. `fold_partial_args`: fold a call's
        arguments streamed as JSON-path fragments (Vertex AI's `partial_args`) instead of
        refusing them; an API whose streams never carry them raises
        `no_argument_fragments`."""
        ...


def media_native_for_every_model(model: str | None) -> ChosenPlacement:
    """`Adapter.auto_media` of an API whose every model takes media where its results
    take them: `media="auto"` is "native" there, whatever the model."""
    del model
    return "native"


def no_argument_fragments(api: Api) -> ValueError:
    """The error for `ToolCallStream(api, partial_args="fold")` on an API whose streams
    never carry argument fragments."""
    title = API_ENTRIES[api].title
    return ValueError(
        f"partial_args='fold' folds Vertex AI's argument fragments (FunctionCall.partial_args), "
        f"which {title} streams never carry: {title} streams a call's arguments as JSON text, "
        f"which ToolCallStream({api!r}) always reads. Leave partial_args out."
    )


class StreamAccumulator(Protocol):
    """One API's stream folding, implemented in its adapter folder (`stream.py`) and
    driven by `ToolCallStream`."""

    def feed(self, item: object) -> list[StreamEvent]: ...
    def final_response(self) -> Any: ...
    def completed_calls(self) -> list[StandardToolCall]: ...


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
