"""OpenAI Responses adapter: tool definitions, tool choice, calls in, results and
history out.

Calls are the `function_call` and `custom_tool_call` output items; the id to answer
is the item's `call_id` (its `id` is the item id, `fc_...`). A call inside a namespace
is read under its flat name (`crm__get_customer`, see `ToolNamespace`). A
`tool_search_call` the client runs is a "tool_search" call to the group's tool search.
Other client-side calls (computer, shell, apply_patch, MCP approval...) raise
`UnhandledCallsError` unless the caller passes `other_calls="ignore"`; server-side
tool items (a tool search the server ran among them), messages and reasoning are
skipped.

A call the model's program made (programmatic tool calling) carries `caller: {"type":
"program", "caller_id": ...}`: its `StandardToolCall.caller` is a `ProgrammaticCaller`
(see `programs.py`); a direct call's is None.

Truncation (`turn.is_cut`): a call item with status `incomplete` was cut by the length
limit. In a response that stopped early (`incomplete`, `failed`, `cancelled`), a call
item still `in_progress` never finished either, nor did the last output item when it
came without a status (custom tool calls have no status field). These become
"truncated" failures; every other call of the turn runs normally.

Turn status: `incomplete` with reason `content_filter` is "refused", any other
`incomplete` reason ("max_output_tokens", "max_messages", "steered") is "truncated";
`failed` and `cancelled` responses are "truncated" too (the turn stopped before the
model finished; `response.error` says why), a refusal content part is "refused",
function, custom or other client-side calls are "tool_calls", and anything else is
"done". A response still `queued` or `in_progress` (background mode) raises: poll
it until it finishes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, cast

from ..._api import RESPONSES_ITEM_TYPES, api_of, is_sdk_type, mro_names, wrong_object
from ..._call import StandardToolCall, synthesized_id
from ..._class_reading import (
    ITEM,
    OTHER,
    RESPONSE,
    ClassReading,
    read_by_default,
    sdk_class,
)
from ..._definition import TOOL_SEARCH_NAME
from ..._json import copy_json
from ..._mcp_approval import approval_call
from ..._media import any_parts
from ...exceptions import ToolwireError, UnexpectedObjectError, UnhandledCallsError
from .._base import (
    call_text,
    field,
    media_native_for_every_model,
    no_argument_fragments,
)
from .._openai import NO_ARGUMENTS, check_openai_name, mark_breakpoint
from .choice import choice_params
from .definitions import loaded_tool_names, nested, tool_search_definition
from .items import (
    CALL_KINDS,
    NOT_CALLS,
    ClientCall,
    client_call,
    flat_name,
    is_search_call,
    unhandled_message,
)
from .programs import CALLER_NAMES, caller_of
from .replay import as_input_item
from .results import attachments, output_item, place
from .turn import STOPPED_EARLY, is_cut, status_of

if TYPE_CHECKING:
    from openai.types.responses import (
        CustomToolParam,
        FunctionToolParam,
        ResponseFormatTextJSONSchemaConfigParam,
        ResponseInputItemParam,
    )

    from ..._definition import CustomToolSpec, FunctionToolSpec, ToolNamespace
    from ..._media import MediaPlacement, Rule
    from ..._result import ToolCallResult
    from ..._turn import TurnStatus
    from .stream import ResponsesStreamAccumulator

__all__ = ["ADAPTER", "ResponsesAdapter", "read_any_response", "read_sdk_response"]


class ResponsesAdapter:
    """`api="responses"`."""

    api: Literal["responses"] = "responses"
    output_always_strict = False
    defers_natively = True
    native_input_examples = False
    native_search_results = False
    caller_names = CALLER_NAMES

    # -- definitions ---------------------------------------------------------------

    def function_definition(self, spec: FunctionToolSpec) -> FunctionToolParam:
        check_openai_name(spec.local_name, self.api)
        definition: FunctionToolParam = {
            "type": "function",
            "name": spec.local_name,
            "description": spec.description,
            "parameters": spec.fresh_parameters(),
            "strict": spec.strict,
        }
        if spec.defer_loading:
            definition["defer_loading"] = True
        if spec.allowed_callers:
            definition["allowed_callers"] = cast(Any, list(spec.allowed_callers))
        return definition

    def custom_definition(self, spec: CustomToolSpec) -> CustomToolParam:
        check_openai_name(spec.local_name, self.api)
        definition: CustomToolParam = {
            "type": "custom",
            "name": spec.local_name,
            "description": spec.description,
        }
        if spec.defer_loading:
            definition["defer_loading"] = True
        if spec.allowed_callers:
            definition["allowed_callers"] = cast(Any, list(spec.allowed_callers))
        fmt = spec.format
        if fmt is not None:
            if fmt["type"] == "grammar":
                definition["format"] = {
                    "type": "grammar",
                    "syntax": fmt["syntax"],
                    "definition": fmt["definition"],
                }
            else:
                definition["format"] = {"type": "text"}
        return definition

    def tool_definitions(
        self, definitions: list[Any], namespaces: Sequence[ToolNamespace | None]
    ) -> list[Any]:
        return nested(definitions, namespaces)

    tool_search_definition = staticmethod(tool_search_definition)
    loaded_tool_names = staticmethod(loaded_tool_names)

    def mark_cache_breakpoint(
        self, rendered: list[Any], ttl: str | Literal[True], *, where: Literal["tools", "results"]
    ) -> None:
        """A `prompt_cache_breakpoint` on the last content part of the turn's answer (an
        output's text becomes its one `input_text` part), before any item holding none
        (`additional_tools`); tool definitions take none."""
        mark_breakpoint(
            rendered, ttl, tools=where == "tools", text_type="input_text", api_title="Responses"
        )

    def output_format(self, spec: FunctionToolSpec) -> ResponseFormatTextJSONSchemaConfigParam:
        check_openai_name(spec.name, self.api)
        return {
            "type": "json_schema",
            "name": spec.name,
            "description": spec.description,
            "schema": spec.fresh_parameters(),
            "strict": spec.strict,
        }

    tool_choice_params = staticmethod(choice_params)

    # -- calls in ------------------------------------------------------------------

    def is_call_item(self, obj: object) -> bool:
        return field(obj, "type") in RESPONSES_ITEM_TYPES

    def read_items(
        self, items: Sequence[object], *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        return _read_items(items, None, False, other_calls)

    def read_response(
        self, response: object, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        return read_any_response(response, other_calls)

    def class_reading(self, sample: object) -> ClassReading:
        if self.is_call_item(sample):
            return read_by_default(self, sample, ITEM)
        if _is_sdk_response(type(sample)):
            return ClassReading("responses", RESPONSE, self.read_response, read_sdk_response)
        return read_by_default(self, sample, OTHER)

    # -- history out ---------------------------------------------------------------

    def assistant_messages(self, response: object) -> list[ResponseInputItemParam]:
        items, response_id, _ = _parts_of(response)
        replayed: list[ResponseInputItemParam] = []
        ordinal = 0
        for item in items:
            data = _plain(item)
            param = as_input_item(data)
            kind = data.get("type")
            if kind in CALL_KINDS or is_search_call(kind, data):
                if not param.get("call_id"):
                    param["call_id"] = synthesized_id(response_id, ordinal)
                if kind == "function_call" and param.get("arguments") is None:
                    param["arguments"] = NO_ARGUMENTS  # required: a server's "no arguments"
                ordinal += 1
            replayed.append(cast("ResponseInputItemParam", param))
        return replayed

    def tool_result_messages(
        self, results: Sequence[ToolCallResult[Any]], media: MediaPlacement
    ) -> list[ResponseInputItemParam]:
        items: list[ResponseInputItemParam] = [output_item(r, media) for r in results]
        return items + attachments(results, media) if any_parts(results) else items

    native_result = staticmethod(output_item)
    """One result's answer, as every result's `output_item` property holds it."""

    enclose_answers = None
    """Each output item answers its call as it is."""

    def media_rule(self, results: Sequence[ToolCallResult[Any]]) -> Rule:
        return place

    auto_media = staticmethod(media_native_for_every_model)

    def stream_accumulator(self, *, fold_partial_args: bool = False) -> ResponsesStreamAccumulator:
        if fold_partial_args:
            raise no_argument_fragments(self.api)
        from .stream import ResponsesStreamAccumulator

        return ResponsesStreamAccumulator()

    def turn_status(self, response: object) -> TurnStatus:
        items, _, status = _parts_of(response)
        return status_of(items, status, field(response, "incomplete_details"))


def _parts_of(response: object) -> tuple[Sequence[object], str | None, str | None]:
    """(output items, response id, status) of a Response, its dict form, or a list of
    output items (no id, no status). Anything else raises `UnexpectedObjectError`."""
    kind = type(response)
    reading = sdk_class(ADAPTER, response)
    if reading is not None:
        is_response = reading.shape == RESPONSE
    elif isinstance(response, list):
        return cast(list[object], response), None, None
    elif isinstance(response, Mapping):
        data = cast(Mapping[str, Any], response)
        if "output" not in data:
            raise wrong_object(data, "responses", _EXPECTED)
        return data["output"] or (), data.get("id"), data.get("status")
    elif is_sdk_type(kind):
        is_response = _is_sdk_response(kind)
    else:  # a Responses-compatible object of another library, read by attribute
        is_response = hasattr(response, "output") and hasattr(response, "status")
    if not is_response:
        raise wrong_object(response, "responses", _EXPECTED)
    response_any: Any = response
    return response_any.output or (), response_any.id, response_any.status


_EXPECTED = "a Responses response (a Response, its output items, or their dict forms)"


def _is_sdk_response(kind: type) -> bool:
    """Whether the SDK class `kind` is a `Response` (or `ParsedResponse`)."""
    return "Response" in mro_names(kind, "openai.types.responses")


def read_any_response(
    response: object, other_calls: Literal["raise", "ignore"]
) -> list[StandardToolCall]:
    """The calls of a Response or a list of output items, whatever their class or state."""
    items, response_id, status = _parts_of(response)
    return _read_items(items, response_id, status in STOPPED_EARLY, other_calls)


def read_sdk_response(response: Any) -> list[StandardToolCall] | None:
    """The calls of an SDK Response that stopped normally and holds only complete
    function calls and items with nothing for the client to run (messages, reasoning,
    the server's own tool calls such as a web search: `NOT_CALLS`), read in one pass
    (None otherwise: `read_any_response` reads it).

    Each object's fields are read from its `__dict__` (where pydantic keeps them): a
    subscript of that dict costs less than an attribute read, which searches the class
    first. What it cannot read that way (a missing field, an item built by hand) it
    declines."""
    item: Any
    try:
        fields: dict[str, Any] = response.__dict__
        if fields["status"] in STOPPED_EARLY:
            return None
        calls: list[StandardToolCall] = []
        for item in fields["output"] or ():
            fields = item.__dict__
            kind = fields["type"]
            if kind == "function_call":
                call_id, status, name = fields["call_id"], fields["status"], fields["name"]
                if not call_id or not name or not (status == "completed" or status is None):
                    return None
                namespace = fields["namespace"]
                if namespace is not None:
                    name = flat_name(name, namespace)
                call = StandardToolCall("function", call_id, name, fields["arguments"])
                caller = fields["caller"]
                if caller is not None:
                    call.caller = caller_of(caller)
                calls.append(call)
            elif kind not in NOT_CALLS:
                return None  # a call of another kind (a custom or client call...)
        return calls
    except (AttributeError, KeyError):
        return None


def _read_items(
    items: Sequence[object],
    response_id: str | None,
    stopped_early: bool,
    other_calls: Literal["raise", "ignore"],
) -> list[StandardToolCall]:
    calls: list[StandardToolCall] = []
    unhandled: list[ClientCall] = []
    last = len(items) - 1
    item: Any
    for position, item in enumerate(items):
        kind = getattr(item, "type", None)
        if kind is not None:  # an SDK model
            if kind == "function_call":
                # Inline fast path for the common case: a complete function call with an id
                # and a name (a server may leave the name out: the general path answers it).
                call_id, status, name = item.call_id, item.status, item.name
                if (
                    call_id
                    and name
                    and (status == "completed" or (status is None and not stopped_early))
                ):
                    if item.namespace is not None:
                        name = flat_name(name, item.namespace)
                    call = StandardToolCall("function", call_id, name, item.arguments)
                    if item.caller is not None:
                        call.caller = caller_of(item.caller)
                    calls.append(call)
                    continue
            get = partial(getattr, item)
        elif isinstance(item, Mapping):
            item = cast(Mapping[str, Any], item)
            kind = item.get("type")
            if kind is None:
                continue  # a message without `type` (EasyInputMessageParam)
            get = item.get
        else:
            raise _not_an_item(item)
        call_kind = CALL_KINDS.get(kind)
        if call_kind is None:
            if is_search_call(kind, item):
                call_id = call_text(get("call_id", None), "call_id", "responses")
                cut = is_cut(get("status", None), stopped_early, position == last)
                calls.append(
                    StandardToolCall(
                        "tool_search",
                        call_id or synthesized_id(response_id, len(calls)),
                        TOOL_SEARCH_NAME,
                        get("arguments", None),
                        not call_id,
                        cut,
                    )
                )
                continue
            if kind == "mcp_approval_request" and other_calls == "raise":
                calls.append(
                    approval_call(
                        call_text(get("id", None), "id", "responses") or "",
                        call_text(get("server_label", None), "server_label", "responses") or "",
                        call_text(get("name", None), "name", "responses") or "",
                        get("arguments", None),
                    )
                )
                continue
            if _is_foreign(item, kind):
                raise _not_an_item(item)
            other = client_call(kind, item)
            if other is not None:
                unhandled.append(other)
            continue
        call_id = call_text(get("call_id", None), "call_id", "responses")
        cut = is_cut(get("status", None), stopped_early, position == last)
        name = call_text(get("name", None), "name", "responses") or ""
        calls.append(
            StandardToolCall(
                "custom" if call_kind == "custom" else "function",
                call_id or synthesized_id(response_id, len(calls)),
                flat_name(name, call_text(get("namespace", None), "namespace", "responses")),
                get("input" if call_kind == "custom" else "arguments", None),
                not call_id,
                cut,
                caller_of(get("caller", None)),
            )
        )
    if unhandled and other_calls == "raise":
        raise UnhandledCallsError(unhandled_message(unhandled))
    return calls


_EXPECTED_ITEM = "a Responses output item (from response.output, or its dict form)"
_ANTHROPIC_KEYS = frozenset({"stop_reason", "stop_sequence", "model", "usage"})
"""Keys of an Anthropic `Message` dict that no Responses message item has."""
_FOREIGN_TYPES: dict[type, bool] = {}


def _is_foreign(item: object, kind: object) -> bool:
    """Whether an item that is not a call belongs to another API (and must not be skipped
    as if it were a Responses item toolwire has nothing to do with): an object of another
    SDK (an Anthropic `Message` has `type="message"` too), or a dict whose unknown `type`
    another API uses."""
    if isinstance(item, Mapping):
        if kind in RESPONSES_ITEM_TYPES and not (
            kind == "message" and _ANTHROPIC_KEYS & item.keys()
        ):
            return False  # (an Anthropic Message dict has `type="message"` too)
        try:
            return api_of(cast(object, item)) != "responses"
        except ToolwireError:
            return False  # an item type newer than toolwire: skipped like other non-calls
    kind = type(item)
    foreign = _FOREIGN_TYPES.get(kind)
    if foreign is None:
        foreign = _FOREIGN_TYPES[kind] = not kind.__module__.startswith("openai.types.responses")
    return foreign


def _not_an_item(item: object) -> ToolwireError:
    kind = type(item)
    if is_sdk_type(kind) and "Response" in mro_names(kind, "openai.types.responses"):
        return UnexpectedObjectError(
            f"Expected {_EXPECTED_ITEM}, got a whole Response in a list of items. Pass the "
            "Response itself (not in a list), or response.output."
        )
    return wrong_object(item, "responses", _EXPECTED_ITEM)


def _plain(item: object) -> dict[str, Any]:
    """An output item as plain JSON data with the API's key names."""
    to_dict = getattr(item, "to_dict", None)
    if callable(to_dict):  # an SDK model: by_alias, exclude_unset, like the SDK's own runner
        return cast(dict[str, Any], to_dict(mode="json"))
    if isinstance(item, Mapping):
        return copy_json(dict(cast(Mapping[str, Any], item)))
    raise ToolwireError(
        f"Not a Responses output item: a {type(item).__name__}. Pass the Response, its "
        "dict form, or response.output."
    )


ADAPTER = ResponsesAdapter()
