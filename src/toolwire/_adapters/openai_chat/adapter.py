"""OpenAI Chat Completions adapter: tool definitions, tool choice, calls in, results
and history out."""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

from ..._api import api_or_none, is_sdk_type, mro_names, wrong_object
from ..._call import StandardToolCall, synthesized_id
from ..._class_reading import (
    ITEM,
    MESSAGE,
    OTHER,
    RESPONSE,
    ClassReading,
    Shape,
    read_by_default,
    sdk_class,
)
from ..._media import any_parts
from ..._references import loaded_names
from ...exceptions import ToolwireError, UnexpectedObjectError
from .._base import (
    NO_CALLERS,
    call_text,
    field,
    media_native_for_every_model,
    no_argument_fragments,
)
from .._openai import NO_ARGUMENTS, check_openai_name, mark_breakpoint
from .choice import choice_params
from .fragments import arguments_text
from .results import attachments, place, tool_message
from .servers import ChatServer
from .turn import CUT_FINISH_REASONS, is_complete_json, status_of

if TYPE_CHECKING:
    from openai.types.chat import (
        ChatCompletionAssistantMessageParam,
        ChatCompletionCustomToolParam,
        ChatCompletionFunctionToolParam,
        ChatCompletionMessageParam,
        ChatCompletionMessageToolCallUnionParam,
    )
    from openai.types.chat.chat_completion_custom_tool_param import Custom
    from openai.types.shared_params import FunctionDefinition, ResponseFormatJSONSchema
    from openai.types.shared_params.response_format_json_schema import JSONSchema

    from ..._definition import CustomToolSpec, FunctionToolSpec, ToolNamespace
    from ..._media import MediaPlacement, Rule
    from ..._result import ToolCallResult
    from ..._tool_choice import CheckedChoice
    from ..._turn import TurnStatus
    from .stream import ChatStreamAccumulator

__all__ = ["ADAPTER", "ChatCompletionsAdapter", "read_any_response", "read_sdk_completion"]

_API: Literal["chat.completions"] = "chat.completions"


class ChatCompletionsAdapter:
    """`api="chat.completions"`, written for one server (`ChatServer.OPENAI` unless a
    `ChatServer` was given as `api`)."""

    api: Literal["chat.completions"] = "chat.completions"
    output_always_strict = False
    native_input_examples = False
    native_search_results = False
    caller_names = NO_CALLERS

    def __init__(self, server: ChatServer) -> None:
        self.server = server
        self.enclose_answers = None if server.call_id_length is None else self._server_call_ids
        """None: each tool message answers its call as it is, unless the server shortens
        call ids (then they are rewritten its way)."""

    def for_dialect(self, server: object) -> ChatCompletionsAdapter:
        """This adapter, writing for `server` (a `ChatServer`; the registry checked it)."""
        assert isinstance(server, ChatServer)
        return ChatCompletionsAdapter(server)

    # -- definitions ---------------------------------------------------------------

    def _named_schema(self, spec: FunctionToolSpec, schema_key: str) -> dict[str, Any]:
        """What a function definition and a JSON-schema output format share: the name,
        the description, the schema (under `schema_key`) and the strict flag (left out
        for a server that refuses it)."""
        check_openai_name(spec.name, self.api)
        fields = {
            "name": spec.name,
            "description": spec.description,
            schema_key: spec.fresh_parameters(),
            "strict": spec.strict,
        }
        if not self.server.strict:
            del fields["strict"]
        return fields

    def function_definition(self, spec: FunctionToolSpec) -> ChatCompletionFunctionToolParam:
        function = cast("FunctionDefinition", self._named_schema(spec, "parameters"))
        return {"type": "function", "function": function}

    def custom_definition(self, spec: CustomToolSpec) -> ChatCompletionCustomToolParam:
        check_openai_name(spec.name, self.api)
        custom: Custom = {"name": spec.name, "description": spec.description}
        fmt = spec.format
        if fmt is not None:
            if fmt["type"] == "grammar":
                custom["format"] = {
                    "type": "grammar",
                    "grammar": {"syntax": fmt["syntax"], "definition": fmt["definition"]},
                }
            else:
                custom["format"] = {"type": "text"}
        return {"type": "custom", "custom": custom}

    defers_natively = False

    def tool_search_definition(self, definition: Any, execution: Any, server: Any) -> Any:
        """Chat Completions has no search tool of its own: toolwire's runs as a function."""
        return definition

    def loaded_tool_names(self, history: Sequence[object]) -> list[str]:
        """The tools named as loaded in the history's tool messages (see `_references`)."""
        names: list[str] = []
        for message in history:
            if field(message, "role") == "tool":
                names += loaded_names(field(message, "content"))
        return names

    def mark_cache_breakpoint(
        self, rendered: list[Any], ttl: str | Literal[True], *, where: Literal["tools", "results"]
    ) -> None:
        """A `prompt_cache_breakpoint` on the last content part of the turn's answer: the
        last tool message's text becomes its one text part, or the attachments message's
        last part; tool definitions take none. Nothing for a server that takes no
        explicit breakpoints (`ChatServer.cache_breakpoints`)."""
        if self.server.cache_breakpoints:
            mark_breakpoint(
                rendered,
                ttl,
                tools=where == "tools",
                text_type="text",
                api_title="Chat Completions",
            )

    def tool_definitions(
        self, definitions: list[Any], namespaces: Sequence[ToolNamespace | None]
    ) -> list[Any]:
        return definitions  # namespaced tools go by their flat names

    def output_format(self, spec: FunctionToolSpec) -> ResponseFormatJSONSchema:
        json_schema = cast("JSONSchema", self._named_schema(spec, "schema"))
        return {"type": "json_schema", "json_schema": json_schema}

    def tool_choice_params(
        self, choice: CheckedChoice, *, parallel: bool | None, thinking: object
    ) -> dict[str, Any]:
        return choice_params(choice, parallel=parallel, thinking=thinking, server=self.server)

    # -- calls in ------------------------------------------------------------------

    def is_call_item(self, obj: object) -> bool:
        return field(obj, "type") in ("function", "custom") or (
            isinstance(obj, Mapping) and "function" in obj and "choices" not in obj
        )

    def read_items(
        self, items: Sequence[object], *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        return _read_tool_calls(items, None, False)

    def read_response(
        self, response: object, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        return read_any_response(response)

    def class_reading(self, sample: object) -> ClassReading:
        shape = ITEM if self.is_call_item(sample) else _sdk_shape(type(sample))
        if shape == RESPONSE:
            return ClassReading(_API, shape, self.read_response, read_sdk_completion)
        return read_by_default(self, sample, shape)

    # -- history out ---------------------------------------------------------------

    def assistant_messages(self, response: object) -> list[ChatCompletionAssistantMessageParam]:
        message, response_id, _ = _message_of(response)
        server = self.server
        param: ChatCompletionAssistantMessageParam = {"role": "assistant"}
        content = field(message, "content")
        if content is not None or server.empty_content == "null":
            param["content"] = content
        elif server.empty_content == "empty":
            param["content"] = ""
        refusal = field(message, "refusal")
        if refusal is not None:
            param["refusal"] = refusal
        name = field(message, "name")
        if isinstance(name, str):
            param["name"] = name
        audio = field(message, "audio")
        if audio is not None:
            param["audio"] = {"id": field(audio, "id")}
        function_call = field(message, "function_call")
        if function_call is not None:
            param["function_call"] = {
                "name": field(function_call, "name"),
                "arguments": field(function_call, "arguments"),
            }
        tool_calls: Sequence[object] = field(message, "tool_calls") or ()
        if tool_calls:
            param["tool_calls"] = [
                _call_param(item, index, response_id, server)
                for index, item in enumerate(tool_calls)
            ]
        _replay_reasoning(message, param, server)
        return [param]

    def tool_result_messages(
        self, results: Sequence[ToolCallResult[Any]], media: MediaPlacement
    ) -> list[ChatCompletionMessageParam]:
        messages: list[ChatCompletionMessageParam] = [tool_message(result) for result in results]
        if self.enclose_answers is not None:
            messages = self.enclose_answers(messages)
        if any_parts(results):  # tool messages take text only, whatever `media`
            messages += attachments(results)
        return messages

    def _server_call_ids(self, answers: list[Any]) -> list[Any]:
        """`answers` (tool messages) with the call ids this server's calls were sent under
        (see `ChatServer.call_id`)."""
        for answer in answers:
            answer["tool_call_id"] = self.server.call_id(answer["tool_call_id"])
        return answers

    native_result = staticmethod(tool_message)
    """One result's answer, as every result's `tool_message` property holds it."""

    def media_rule(self, results: Sequence[ToolCallResult[Any]]) -> Rule:
        return place

    auto_media = staticmethod(media_native_for_every_model)

    def stream_accumulator(self, *, fold_partial_args: bool = False) -> ChatStreamAccumulator:
        if fold_partial_args:
            raise no_argument_fragments(self.api)
        from .stream import ChatStreamAccumulator

        return ChatStreamAccumulator()

    def turn_status(self, response: object) -> TurnStatus:
        message, _, finish_reason = _message_of(response)
        refused = bool(field(message, "refusal"))
        called = bool(field(message, "tool_calls") or field(message, "function_call"))
        return status_of(finish_reason, refused, called, field(message, "content"))


_EXPECTED = "a Chat Completions response (a ChatCompletion, its message, or their dict forms)"


def _message_of(response: object) -> tuple[object, str | None, str | None]:
    """(message, response id, finish reason) of a ChatCompletion or a message.

    Anything else raises `UnexpectedObjectError`: reading another API's response as a
    message without calls would end the caller's loop in silence.
    """
    reading = sdk_class(ADAPTER, response)
    shape = reading.shape if reading is not None else _shape_of(response)
    if shape == RESPONSE and reading is not None:  # an SDK ChatCompletion
        sdk: Any = response  # plain attribute reads: the common case, once per response
        if sdk.choices:
            choice = sdk.choices[0]
            return choice.message, sdk.id, choice.finish_reason
    if shape == MESSAGE:
        return response, None, None
    if shape != RESPONSE:
        raise wrong_object(response, _API, _EXPECTED)
    choices = field(response, "choices")
    if not choices:
        raise ToolwireError("This ChatCompletion has no choices, so it holds no assistant turn.")
    choice = choices[0]
    return field(choice, "message"), field(response, "id"), field(choice, "finish_reason")


def read_any_response(response: object) -> list[StandardToolCall]:
    """The calls of a ChatCompletion or a message, whatever their class or state."""
    message, response_id, finish_reason = _message_of(response)
    tool_calls: Sequence[object] = field(message, "tool_calls") or ()
    return _read_tool_calls(tool_calls, response_id, finish_reason in CUT_FINISH_REASONS)


def _read_tool_calls(
    tool_calls: Sequence[object], response_id: str | None, cut: bool
) -> list[StandardToolCall]:
    last = len(tool_calls) - 1
    return [
        _read_call(item, index, response_id, cut, index == last)
        for index, item in enumerate(tool_calls)
    ]


def read_sdk_completion(response: Any) -> list[StandardToolCall] | None:
    """The calls of an SDK ChatCompletion whose turn was not cut, read in one pass (None
    otherwise: `read_any_response` reads it).

    The common call, an SDK function call with an id and a name, is read here; any other
    call of the turn is read by `_read_call`, the general reader's own rules. Each
    object's fields are read from its `__dict__` (where pydantic keeps them): a subscript
    of that dict costs less than an attribute read, which searches the class first. What
    it cannot read that way (a missing field, an object built by hand) it declines.
    """
    try:
        fields: dict[str, Any] = response.__dict__
        choices: list[Any] = fields["choices"]
        if not choices:
            return None
        response_id: str | None = fields["id"]
        fields = choices[0].__dict__
        message = fields["message"]
        if fields["finish_reason"] in CUT_FINISH_REASONS or message is None:
            return None  # a null message too: read as the general path reads it, the same way
        tool_calls: list[Any] | None = message.__dict__["tool_calls"]
        calls: list[StandardToolCall] = []
        for item in tool_calls or ():
            fields = item.__dict__
            if fields["type"] == "function" and (call_id := fields["id"]):
                function = fields["function"]
                if function is not None and (name := (parts := function.__dict__)["name"]):
                    calls.append(StandardToolCall("function", call_id, name, parts["arguments"]))
                    continue
            calls.append(_read_call(item, len(calls), response_id, False, False))
        return calls
    except (AttributeError, KeyError):
        return None


def _shape_of(response: object) -> Shape:
    """What `response` is, when it is not an SDK class of this API (see `sdk_class`)."""
    kind = type(response)
    if isinstance(response, Mapping):
        return _shape_of_dict(cast("Mapping[str, Any]", response))
    if is_sdk_type(kind):
        return _sdk_shape(kind)
    # An OpenAI-compatible object of another library (read by attribute, like the SDK's).
    if isinstance(getattr(response, "choices", None), Sequence):
        return RESPONSE
    if getattr(response, "role", None) == "assistant" and hasattr(response, "tool_calls"):
        return MESSAGE
    return OTHER


def _sdk_shape(kind: type) -> Shape:
    names = mro_names(kind, "openai.types.chat")
    return (
        RESPONSE
        if "ChatCompletion" in names
        else MESSAGE
        if "ChatCompletionMessage" in names
        else OTHER
    )


def _shape_of_dict(data: Mapping[str, Any]) -> Shape:
    if "choices" in data:
        return RESPONSE
    role = data.get("role")
    if role == "assistant":
        content = data.get("content")
        if not isinstance(content, list) or all(
            isinstance(part, Mapping) and field(cast(object, part), "type") in ("text", "refusal")
            for part in cast("list[object]", content)
        ):
            return MESSAGE
        return OTHER  # content blocks of another API (Anthropic tool_use, thinking...)
    if isinstance(role, str):
        if api_or_none(data) not in (None, _API):
            return OTHER  # a Gemini Content (role "model"): the error names its API
        raise UnexpectedObjectError(
            f"Expected {_EXPECTED}, got a {role!r} message. Pass the assistant turn: the "
            "ChatCompletion the client returned, or its choices[0].message."
        )
    return OTHER


def _read_call(
    item: object, index: int, response_id: str | None, cut: bool, last: bool
) -> StandardToolCall:
    """One call of a turn. In a `cut` turn (see `CUT_FINISH_REASONS`), a function call
    whose arguments are not complete JSON was cut; a custom call has free text, which
    cannot show where it stopped, so the `last` call of the turn, the one being written
    when the limit hit, is taken as cut."""
    kind = getattr(item, "type", None)  # None for dicts
    # An SDK call a server sent without its `function` (or `custom`) part, or without a
    # name, is still a call with an id to answer: read with `field`, it gets one result.
    if kind == "function":
        function: object = getattr(item, "function")  # noqa: B009 - SDK model attribute
        call_id: str = getattr(item, "id")  # noqa: B009
        arguments = field(function, "arguments")
        name: str = field(function, "name") or ""
        if call_id and not cut:
            return StandardToolCall("function", call_id, name, arguments)
        return StandardToolCall(
            "function",
            call_id or synthesized_id(response_id, index),
            name,
            arguments,
            not call_id,
            cut and not is_complete_json(arguments),
        )
    if kind == "custom":
        custom: object = getattr(item, "custom")  # noqa: B009
        call_id = getattr(item, "id")  # noqa: B009
        return StandardToolCall(
            type="custom",
            id=call_id or synthesized_id(response_id, index),
            name=field(custom, "name") or "",
            input=field(custom, "input"),
            synthesized_id=not call_id,
            truncated=cut and last,
        )
    return _read_call_dict(_as_dict(item), index, response_id, cut, last)


def _read_call_dict(
    item: Mapping[str, Any], index: int, response_id: str | None, cut: bool, last: bool
) -> StandardToolCall:
    call_id = call_text(item.get("id"), "id", _API)
    synthesized = not call_id
    if not call_id:
        call_id = synthesized_id(response_id, index)
    custom = item.get("custom")
    if item.get("type") == "custom" or (item.get("type") is None and custom is not None):
        return StandardToolCall(
            type="custom",
            id=call_id,
            name=call_text(field(custom, "name"), "name", _API) or "",
            input=field(custom, "input"),
            synthesized_id=synthesized,
            truncated=cut and last,
        )
    function = item.get("function")
    if function is None:
        raise ToolwireError(
            f"Not a Chat Completions tool call: {_shown(item)} has no 'function' or 'custom' "
            "part. Pass message.tool_calls, the message, or the ChatCompletion."
        )
    arguments = field(function, "arguments")
    return StandardToolCall(
        type="function",
        id=call_id,
        name=call_text(field(function, "name"), "name", _API) or "",
        input=arguments,
        synthesized_id=synthesized,
        truncated=cut and not is_complete_json(arguments),
    )


_EXPECTED_CALL = "a Chat Completions tool call (an item of message.tool_calls, or its dict form)"


def _as_dict(item: object) -> Mapping[str, Any]:
    if isinstance(item, Mapping):
        return cast("Mapping[str, Any]", item)
    if _shape_of(item) != OTHER:
        raise UnexpectedObjectError(
            f"Expected {_EXPECTED_CALL}, got a whole {type(item).__name__} in a list of "
            "calls. Pass the response itself (not in a list), or its message.tool_calls."
        )
    if not type(item).__module__.startswith("openai.types.chat"):
        raise wrong_object(item, _API, _EXPECTED_CALL)
    return cast("Mapping[str, Any]", cast(Any, item).model_dump())


def _shown(item: Mapping[str, Any]) -> str:
    """A short repr that stays bounded (and does not recurse) on huge or deep input."""
    text = reprlib.repr(dict(item))
    return text if len(text) <= 100 else text[:97] + "..."


def _call_param(
    item: object, index: int, response_id: str | None, server: ChatServer
) -> ChatCompletionMessageToolCallUnionParam:
    call_id = server.call_id(field(item, "id") or synthesized_id(response_id, index))
    custom = field(item, "custom")
    if field(item, "type") == "custom" or custom is not None and field(item, "function") is None:
        return {
            "id": call_id,
            "type": "custom",
            "custom": {"name": field(custom, "name"), "input": field(custom, "input")},
        }
    function = field(item, "function")
    arguments = field(function, "arguments")
    if arguments is None:  # a server's "no arguments": the param (and servers) want a string
        arguments = NO_ARGUMENTS
    elif isinstance(arguments, Mapping):  # a server's object arguments: text, as the API's
        arguments = arguments_text(cast("Mapping[str, Any]", arguments))
    param: ChatCompletionMessageToolCallUnionParam = {
        "id": call_id,
        "type": "function",
        "function": {"name": field(function, "name"), "arguments": arguments},
    }
    extra_content = field(item, "extra_content")
    if extra_content is not None:  # Gemini's thought signature: its next turn needs it
        cast("dict[str, Any]", param)["extra_content"] = extra_content
    return param


def _replay_reasoning(
    message: object, param: ChatCompletionAssistantMessageParam, server: ChatServer
) -> None:
    """Add the reasoning fields the server sent that it takes back (`server.replays`),
    in the same field and form. They are outside the SDK's param types, which the SDK
    sends as they are."""
    extra: Any = getattr(message, "__pydantic_extra__", None)
    if extra is None:  # a dict, or an object of another library: read as they are read
        if hasattr(type(message), "model_fields"):
            return  # an SDK message without extra fields: nothing to add
        extra = {name: field(message, name) for name in server.replays}
    kept = cast("dict[str, Any]", param)
    for name in server.replays:
        value = extra.get(name)
        if value is not None:
            kept[name] = value


ADAPTER = ChatCompletionsAdapter(ChatServer.OPENAI)
