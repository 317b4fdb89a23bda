"""OpenAI Responses adapter: tool definitions, calls in, history out.

Calls are the `function_call` and `custom_tool_call` output items; the id to answer
is the item's `call_id` (its `id` is the item id, `fc_...`). Other client-side calls
(computer, shell, apply_patch, MCP approval, client tool search...) raise
`UnhandledCallsError` unless the caller passes `other_calls="ignore"`; server-side
tool items, messages and reasoning are skipped.

Truncation (`is_cut`): a call item with status `incomplete` was cut by the length
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

from ..._call import StandardToolCall
from ..._json import copy_json
from ...exceptions import ToolwireError, UnhandledCallsError
from .._base import TurnStatus, call_text, check_tool_name, field, synthesized_id
from ..openai_chat.adapter import OPENAI_NAME, OPENAI_NAME_RULE
from .items import CALL_KINDS, ClientCall, client_call, unhandled_message
from .replay import as_input_item
from .results import output_item

if TYPE_CHECKING:
    from openai.types.responses import (
        CustomToolParam,
        FunctionToolParam,
        ResponseFormatTextJSONSchemaConfigParam,
        ResponseInputItemParam,
    )

    from ..._definition import CustomToolSpec, FunctionToolSpec
    from ..._result import ToolCallResult
    from .stream import ResponsesStreamAccumulator

__all__ = ["ADAPTER", "STOPPED_EARLY", "ResponsesAdapter", "is_cut"]

STOPPED_EARLY = frozenset({"incomplete", "failed", "cancelled"})
_UNFINISHED = frozenset({"queued", "in_progress"})


class ResponsesAdapter:
    """`api="responses"`."""

    api: Literal["responses"] = "responses"

    # -- definitions ---------------------------------------------------------------

    def function_definition(self, spec: FunctionToolSpec) -> FunctionToolParam:
        check_tool_name(spec.name, self.api, OPENAI_NAME, OPENAI_NAME_RULE)
        return {
            "type": "function",
            "name": spec.name,
            "description": spec.description,
            "parameters": copy_json(spec.parameters),
            "strict": spec.strict,
        }

    def custom_definition(self, spec: CustomToolSpec) -> CustomToolParam:
        check_tool_name(spec.name, self.api, OPENAI_NAME, OPENAI_NAME_RULE)
        definition: CustomToolParam = {
            "type": "custom",
            "name": spec.name,
            "description": spec.description,
        }
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

    def tool_definitions(self, definitions: list[Any]) -> list[Any]:
        return definitions

    def output_format(self, spec: FunctionToolSpec) -> ResponseFormatTextJSONSchemaConfigParam:
        check_tool_name(spec.name, self.api, OPENAI_NAME, OPENAI_NAME_RULE)
        return {
            "type": "json_schema",
            "name": spec.name,
            "description": spec.description,
            "schema": copy_json(spec.parameters),
            "strict": spec.strict,
        }

    # -- calls in ------------------------------------------------------------------

    def read_items(
        self, items: Sequence[object], *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        return _read_items(items, None, False, other_calls)

    def read_response(
        self, response: object, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        items, response_id, status = _parts_of(response)
        return _read_items(items, response_id, status in STOPPED_EARLY, other_calls)

    # -- history out ---------------------------------------------------------------

    def assistant_messages(self, response: object) -> list[ResponseInputItemParam]:
        items, response_id, _ = _parts_of(response)
        replayed: list[ResponseInputItemParam] = []
        ordinal = 0
        for item in items:
            data = _plain(item)
            param = as_input_item(data)
            if data.get("type") in CALL_KINDS:
                if not param.get("call_id"):
                    param["call_id"] = synthesized_id(response_id, ordinal)
                ordinal += 1
            replayed.append(cast("ResponseInputItemParam", param))
        return replayed

    def tool_result_messages(
        self, results: Sequence[ToolCallResult[Any]]
    ) -> list[ResponseInputItemParam]:
        return [output_item(result) for result in results]

    def stream_accumulator(self) -> ResponsesStreamAccumulator:
        from .stream import ResponsesStreamAccumulator

        return ResponsesStreamAccumulator()

    def turn_status(self, response: object) -> TurnStatus:
        items, _, status = _parts_of(response)
        if status in _UNFINISHED:
            raise ToolwireError(
                f"This response is still {status!r} (background mode), so its turn has not "
                "ended. Retrieve it again (client.responses.retrieve(response.id)) until its "
                "status is final."
            )
        if status == "incomplete":
            reason = field(field(response, "incomplete_details"), "reason")
            return "refused" if reason == "content_filter" else "truncated"
        if status in STOPPED_EARLY:
            return "truncated"
        called = False
        for item in items:
            kind = field(item, "type")
            if kind == "message":
                parts: Sequence[object] = field(item, "content") or ()
                if isinstance(parts, list) and any(
                    field(part, "type") == "refusal" for part in parts
                ):
                    return "refused"
            elif isinstance(kind, str) and (kind in CALL_KINDS or client_call(kind, item)):
                called = True
        return "tool_calls" if called else "done"


def _parts_of(response: object) -> tuple[Sequence[object], str | None, str | None]:
    """(output items, response id, status) of a Response, its dict form, or a list of
    output items (no id, no status)."""
    output: Any = getattr(response, "output", _MISSING)
    if output is not _MISSING:  # the SDK object, checked first: the common case
        response_any: Any = response
        return output or (), response_any.id, response_any.status
    if isinstance(response, list):
        return cast(list[object], response), None, None
    if isinstance(response, Mapping):
        data = cast(Mapping[str, Any], response)
        if "output" not in data:
            raise ToolwireError(_NOT_A_RESPONSE.format(kind="dict without an 'output' key"))
        return data["output"] or (), data.get("id"), data.get("status")
    raise ToolwireError(_NOT_A_RESPONSE.format(kind=type(response).__name__))


_MISSING = object()
_NOT_A_RESPONSE = (
    "Expected a Responses `Response` (or its dict form, or a list of output items), got a "
    "{kind}. Pass the object client.responses.create() returned."
)


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
                # Inline fast path for the common case: a complete function call with an id.
                call_id = item.call_id
                status = item.status
                if call_id and (status == "completed" or (status is None and not stopped_early)):
                    calls.append(StandardToolCall("function", call_id, item.name, item.arguments))
                    continue
            get = partial(getattr, item)
        elif isinstance(item, Mapping):
            item = cast(Mapping[str, Any], item)
            kind = item.get("type")
            if kind is None:
                continue  # a message without `type` (EasyInputMessageParam)
            get = item.get
        else:
            raise ToolwireError(
                f"Not a Responses output item: a {type(item).__name__}. Pass "
                "response.output, its items, or the Response."
            )
        call_kind = CALL_KINDS.get(kind)
        if call_kind is None:
            other = client_call(kind, item)
            if other is not None:
                unhandled.append(other)
            continue
        call_id = call_text(get("call_id", None), "call_id", "responses")
        cut = is_cut(get("status", None), stopped_early, position == last)
        calls.append(
            StandardToolCall(
                "custom" if call_kind == "custom" else "function",
                call_id or synthesized_id(response_id, len(calls)),
                call_text(get("name", None), "name", "responses") or "",
                get("input" if call_kind == "custom" else "arguments", None),
                not call_id,
                cut,
            )
        )
    if unhandled and other_calls == "raise":
        raise UnhandledCallsError(unhandled_message(unhandled))
    return calls


def is_cut(status: object, stopped_early: bool, last: bool) -> bool:
    """Whether a call item with `status` was cut off (see the module docstring).

    `stopped_early`: the response's status is incomplete, failed or cancelled;
    `last`: the item is the response's last output item.
    """
    if status == "incomplete":
        return True
    return stopped_early and (status == "in_progress" or (status is None and last))


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
