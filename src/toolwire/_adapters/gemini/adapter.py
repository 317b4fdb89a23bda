"""Google Gemini (google-genai) adapter: tool definitions, tool choice, calls in,
results and history out.

Definitions: `T.model_tool_definition("gemini")` is a `types.Tool` holding one
`FunctionDeclaration` whose `parameters_json_schema` is the schema compiled for
Gemini; `group.tool_definitions("gemini")` is a list with ONE `types.Tool`
holding every declaration, in group order. Put either in
`GenerateContentConfig(tools=...)`. `T.model_tool_format("gemini")` is
`{"response_mime_type": "application/json", "response_json_schema": ...}`, to
splat into `GenerateContentConfig(**fmt)`.

Calls in: a `GenerateContentResponse` (its first candidate), a `Candidate`, a
`Content`, or a list of `Part`s / `FunctionCall`s, as SDK objects or as their
dict forms (snake_case `PartDict` / `FunctionCallDict`, or the camelCase wire
JSON: `functionCall`, `thoughtSignature`...). Parts that are not function calls
(text, thoughts, server-side `tool_call` parts...) are skipped. `args` that is
None means no arguments; whole numbers may arrive as floats (`3.0`) and validate
as ints, since dict arguments are validated with `strict=False`.

Call ids. The Gemini API usually sends function calls without an `id`, so:

- A call that carries an `id` is answered with that id: its result's `call_id`
  is the id, and its `FunctionResponse` carries `id=` the same value.
- A call without an id gets a synthesized `call_id` for your bookkeeping, and
  its result is marked `synthesized_id=True`. The id is derived from the
  response's `response_id` and the call's position among the turn's calls
  (`toolwire_<response_id>_<position>`; `toolwire_<position>` when there is no
  response id, e.g. for a bare `Content`), so the same response always gives
  the same ids: on every dispatch, in `ToolCallStream`'s events, and in the
  final streamed response's dispatch. The API sends a `response_id` with every
  response, so ids do not collide across turns, even for repeated calls.
- Synthesized ids never go on the wire: `assistant_messages` replays the
  model's `Content` unchanged (no ids added), and the `FunctionResponse` of a
  call that came without an id carries no `id`. The API then pairs responses
  with calls by position, which is why `tool_result_messages` always sends one
  `function_response` part per call, in call order, in one user `Content`.
  Sending only the ids the model sent keeps the history valid on Vertex AI
  too, which rejects ids it did not issue.

Results out: each `FunctionResponse.response` is an object, the text under
`"output"`, or under `"error"` for a failure. A malformed call that came without a
name is answered "invalid_name" under the placeholder name `unnamed_function` (the API
requires a name on every function response; the model's turn is replayed unchanged).

Streaming arguments: the Gemini API streams whole calls (one chunk holds a
call's complete `args`). Vertex AI's argument streaming (`partial_args` /
`will_continue` on a `FunctionCall`, enabled by
`FunctionCallingConfig(stream_function_call_arguments=True)`) is refused by
`ToolCallStream("gemini")` with a `ToolwireError` naming both ways out (turn it off, or
`partial_args="fold"`); with `partial_args="fold"` the stream folds the fragments into
one merged call (see `partial_args.py`).

Read directly, a `FunctionCall` with `partial_args` has them folded into its arguments,
and one with `will_continue=True` was cut before its last fragment: it is a truncated
call, answered "truncated" and never run. The readers fold rather than refuse: the
place to choose is the stream, where the setting shows first; a response holding
fragments was built past it (by a folding stream, whose cut or unreadable calls keep
their marks, or by merging chunks by hand), and every call in it still gets exactly one
result, never an exception that loses the turn.

Turn status (`turn_status(response, "gemini")`), first match wins:

- "refused": no candidate and a `prompt_feedback.block_reason`; or a finish
  reason of SAFETY, RECITATION, LANGUAGE, BLOCKLIST, PROHIBITED_CONTENT, SPII,
  IMAGE_SAFETY, IMAGE_PROHIBITED_CONTENT, IMAGE_RECITATION, ESCALATION,
  PUP_LIMITED_DISABLED or MODEL_ARMOR; and MISSING_THOUGHT_SIGNATURE (the API
  refused the request because its history lost a thought signature: a bug in
  how the history was built, which retrying cannot fix; replaying
  `assistant_messages(response)` avoids it).
- "truncated": MAX_TOKENS; CONTINUATION (the per-request token limit, when the
  SDK's automatic continuation is off); TOO_MANY_TOOL_CALLS (the server-side
  tool loop hit its limit before a final answer). Calls arrive whole, so any
  calls such a turn holds are complete and run normally.
- "malformed": MALFORMED_FUNCTION_CALL; UNEXPECTED_TOOL_CALL (a call to a
  function that was not declared or not enabled); MALFORMED_RESPONSE. There is
  nothing to run: retry the request.
- "tool_calls": the candidate holds function call parts (the finish reason is
  STOP for calls).
- "done": anything else (STOP, OTHER, no finish reason...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from ..._api import GEMINI_PART_KEYS, first_problem, gemini_keys, is_sdk_type, wrong_object
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
from ..._references import loaded_names
from ...exceptions import ToolwireError, UnsupportedToolError
from .._base import NO_CALLERS, call_text, check_tool_name
from .choice import choice_params
from .partial_args import fold_arguments
from .results import (
    answer_content,
    attachments,
    function_response_part,
    media_for_model,
    place,
)
from .turn import enum_text, status_of

if TYPE_CHECKING:
    from google.genai.types import Content, Tool

    from ..._definition import (
        CustomToolSpec,
        FunctionToolSpec,
        GeminiResponseFormat,
        ToolNamespace,
    )
    from ..._media import MediaPlacement, Rule
    from ..._result import ToolCallResult
    from ..._turn import TurnStatus
    from .stream import GeminiStreamAccumulator

__all__ = ["ADAPTER", "GeminiAdapter", "read_any_response", "read_sdk_response"]

GEMINI_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}")
GEMINI_NAME_RULE = (
    "names must start with a letter or '_', use only a-z, A-Z, 0-9, '_', '.', ':' or '-', "
    "and be at most 128 characters long"
)

_MISSING: Any = object()


class GeminiAdapter:
    """`api="gemini"`."""

    api: Literal["gemini"] = "gemini"
    output_always_strict = False
    native_input_examples = False
    native_search_results = False
    caller_names = NO_CALLERS

    # -- definitions ---------------------------------------------------------------

    def function_definition(self, spec: FunctionToolSpec) -> Tool:
        from google.genai import types

        check_tool_name(spec.name, self.api, GEMINI_NAME, GEMINI_NAME_RULE)
        declaration = types.FunctionDeclaration(
            name=spec.name,
            description=spec.description or None,
            parameters_json_schema=spec.fresh_parameters(),
        )
        return types.Tool(function_declarations=[declaration])

    def custom_definition(self, spec: CustomToolSpec) -> Any:
        raise UnsupportedToolError(
            f"Gemini has no custom (free-text or grammar) tools, so {spec.name!r} cannot be "
            "offered there. Make it a function tool (BaseFunctionToolModel) with a str field, "
            "or offer it only on the OpenAI APIs."
        )

    defers_natively = False

    def tool_search_definition(self, definition: Any, execution: Any, server: Any) -> Any:
        """Gemini has no search tool of its own: toolwire's runs as a function."""
        return definition

    def loaded_tool_names(self, history: Sequence[object]) -> list[str]:
        """The tools named as loaded in the history's function responses (see
        `_references`): `Content` objects, or their dict forms."""
        names: list[str] = []
        for content in history:
            for part in _get(content, "parts") or ():
                response = _get(_get(part, "function_response", "functionResponse"), "response")
                names += loaded_names(_get(response, "output"))
        return names

    def mark_cache_breakpoint(
        self, rendered: list[Any], ttl: str | Literal[True], *, where: Literal["tools", "results"]
    ) -> None:
        """Nothing: Gemini caches prompt prefixes on its own (explicit caching is a
        separate `CachedContent`), with no breakpoint to set."""

    def tool_definitions(
        self, definitions: list[Any], namespaces: Sequence[ToolNamespace | None]
    ) -> list[Tool]:
        """One `types.Tool` holding every declaration (namespaced tools by their flat
        names)."""
        from google.genai import types

        declarations = [
            declaration
            for tool in definitions
            for declaration in cast("Tool", tool).function_declarations or ()
        ]
        if not declarations:
            return []
        return [types.Tool(function_declarations=declarations)]

    def output_format(self, spec: FunctionToolSpec) -> GeminiResponseFormat:
        schema: dict[str, Any] = spec.fresh_parameters()
        if spec.description and "description" not in schema:
            schema = {"description": spec.description, **schema}
        return {"response_mime_type": "application/json", "response_json_schema": schema}

    tool_choice_params = staticmethod(choice_params)

    # -- calls in ------------------------------------------------------------------

    def is_call_item(self, obj: object) -> bool:
        # First the SDK's classes: Gemini models have no `type`, and a missing attribute
        # is slow to read.
        if type(obj).__name__ in ("FunctionCall", "Part"):
            return True
        return isinstance(obj, Mapping) and not (_TURN_KEYS & set(cast("Mapping[str, Any]", obj)))

    def read_items(
        self, items: Sequence[object], *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        ids = _SynthesizedIds(None)
        calls: list[StandardToolCall] = []
        for item in items:
            call = _function_call_of(item)
            if call is not None:
                calls.append(_standard_call(call, len(calls), ids))
        return calls

    def read_response(
        self, response: object, *, other_calls: Literal["raise", "ignore"]
    ) -> list[StandardToolCall]:
        return read_any_response(response)

    def class_reading(self, sample: object) -> ClassReading:
        if self.is_call_item(sample):
            return read_by_default(self, sample, ITEM)
        if type(sample).__name__ == "GenerateContentResponse":
            return ClassReading("gemini", RESPONSE, self.read_response, read_sdk_response)
        return read_by_default(self, sample, OTHER)

    # -- history out ---------------------------------------------------------------

    def assistant_messages(self, response: object) -> list[Content]:
        content = _turn_of(response).content
        if content is None:
            return []
        if isinstance(content, Mapping):
            content = _content_of_dict(cast("Mapping[str, Any]", content))
        model_content = cast("Content", content)
        if not model_content.parts:
            return []  # nothing to replay: the API rejects a Content without parts
        if model_content.role == "model":
            return [model_content]
        return [model_content.model_copy(update={"role": "model"})]

    def tool_result_messages(
        self, results: Sequence[ToolCallResult[Any]], media: MediaPlacement
    ) -> list[Content]:
        answer = answer_content([function_response_part(result, media) for result in results])
        return answer + attachments(results, media) if any_parts(results) else answer

    native_result = staticmethod(function_response_part)
    """One result's answer, as every result's `function_response_part` property holds it."""

    enclose_answers = staticmethod(answer_content)

    def media_rule(self, results: Sequence[ToolCallResult[Any]]) -> Rule:
        return place

    auto_media = staticmethod(media_for_model)

    def turn_status(self, response: object) -> TurnStatus:
        turn = _turn_of(response)
        has_calls = any(_function_call_of(part) is not None for part in _parts_of(turn.content))
        return status_of(turn.finish_reason, has_calls, turn.block_reason, turn.has_candidate)

    def stream_accumulator(self, *, fold_partial_args: bool = False) -> GeminiStreamAccumulator:
        from .stream import GeminiStreamAccumulator

        return GeminiStreamAccumulator(fold_partial_args=fold_partial_args)


class _Turn(NamedTuple):
    content: object | None
    response_id: str | None
    finish_reason: str | None
    block_reason: str | None
    has_candidate: bool


def _turn_of(response: object) -> _Turn:
    """The model turn of a response, candidate or Content (SDK object or dict form)."""
    if isinstance(response, dict):
        return _turn_of_dict(cast("dict[str, Any]", response))
    kind = type(response)
    if (
        sdk_class(ADAPTER, response) is None  # not a class of google-genai's types
        and is_sdk_type(kind)
        and not kind.__module__.startswith("google.genai.")
    ):
        raise wrong_object(response, "gemini", _EXPECTED)
    candidates = getattr(response, "candidates", _MISSING)
    if candidates is not _MISSING:
        feedback = getattr(response, "prompt_feedback", None)
        block = enum_text(getattr(feedback, "block_reason", None)) if feedback is not None else None
        response_id = getattr(response, "response_id", None)
        if not candidates:
            return _Turn(None, response_id, None, block, False)
        candidate = candidates[0]
        finish = enum_text(candidate.finish_reason)
        return _Turn(candidate.content, response_id, finish, block, True)
    if hasattr(response, "parts"):
        return _Turn(response, None, None, None, True)
    content = getattr(response, "content", _MISSING)
    if content is not _MISSING and hasattr(response, "finish_reason"):
        finish = enum_text(getattr(response, "finish_reason", None))
        return _Turn(content, None, finish, None, True)
    if isinstance(response, Mapping):
        return _turn_of_dict(cast("Mapping[str, Any]", response))
    raise wrong_object(response, "gemini", _EXPECTED)


def read_any_response(response: object) -> list[StandardToolCall]:
    """The calls of a response, a candidate or a Content, whatever their class or state."""
    turn = _turn_of(response)
    ids = _SynthesizedIds(turn.response_id)
    calls: list[StandardToolCall] = []
    for part in _parts_of(turn.content):
        call = getattr(part, "function_call", _MISSING)  # inline fast path: an SDK Part
        if call is _MISSING:
            call = _function_call_of(part)
        if call is not None:
            calls.append(_standard_call(call, len(calls), ids))
    return calls


def read_sdk_response(response: Any) -> list[StandardToolCall] | None:
    """The calls of an SDK GenerateContentResponse with a candidate, read in one pass
    (None otherwise: `read_any_response` reads it).

    Each object's fields are read from its `__dict__` (where pydantic keeps them): a
    subscript of that dict costs less than an attribute read, which searches the class
    first. What it cannot read that way (a missing field, a part built by hand) it
    declines."""
    try:
        response_fields: dict[str, Any] = response.__dict__
        candidates: list[Any] | None = response_fields["candidates"]
        if not candidates:
            return None
        content = candidates[0].__dict__["content"]
        parts: list[Any] | None = content.__dict__["parts"] if content is not None else None
        if not parts:
            return []
        calls: list[StandardToolCall] = []
        prefix: str | None = None  # of the synthesized ids (see `_SynthesizedIds`)
        for part in parts:
            call = part.__dict__["function_call"]
            if call is None:
                continue
            fields: dict[str, Any] = call.__dict__
            if fields["partial_args"] or fields["will_continue"]:
                return None  # a streamed call (`_standard_call` says why)
            args = fields["args"]
            arguments: Mapping[str, Any] = {} if args is None else args
            call_id, name = fields["id"], fields["name"] or ""
            if call_id:
                calls.append(StandardToolCall("function", call_id, name, arguments))
                continue
            if prefix is None:
                prefix = synthesized_id(response_fields["response_id"], 0)[:-1]
            calls.append(
                StandardToolCall("function", prefix + str(len(calls)), name, arguments, True)
            )
        return calls
    except (AttributeError, KeyError):
        return None


def _turn_of_dict(data: Mapping[str, Any]) -> _Turn:
    if "candidates" in data or _get(data, "response_id", "responseId") is not None:
        candidates: Sequence[Any] = data.get("candidates") or ()
        feedback = _get(data, "prompt_feedback", "promptFeedback")
        block = enum_text(_get(feedback, "block_reason", "blockReason")) if feedback else None
        response_id = _get(data, "response_id", "responseId")
        if not candidates:
            return _Turn(None, response_id, None, block, False)
        candidate = candidates[0]
        finish = enum_text(_get(candidate, "finish_reason", "finishReason"))
        return _Turn(_get(candidate, "content"), response_id, finish, block, True)
    if "parts" in data:
        return _Turn(data, None, None, None, True)
    if (
        "content" in data
        and "role" not in data  # a candidate has none: a chat message, content None, has one
        and (data["content"] is None or isinstance(data["content"], Mapping))
    ):
        finish = enum_text(_get(data, "finish_reason", "finishReason"))
        return _Turn(data["content"], None, finish, None, True)
    if _get(data, "prompt_feedback", "promptFeedback") is not None:
        return _turn_of_dict({**data, "candidates": []})
    raise wrong_object(data, "gemini", _EXPECTED)


_EXPECTED = (
    "a Gemini response (a GenerateContentResponse, its candidate, its Content or a list of "
    "its parts, or their dict forms)"
)


def _content_of_dict(data: Mapping[str, Any]) -> Content:
    """A Content dict (snake_case or camelCase) as the SDK's `Content`; a dict the SDK
    would refuse raises a `ToolwireError` that says where."""
    import pydantic
    from google.genai import types

    try:
        return types.Content.model_validate(data)
    except pydantic.ValidationError as error:
        raise ToolwireError(
            f"This Gemini content is not in the SDK's shape: {first_problem(error)}. Pass "
            "the response (or its candidate or Content) as the SDK returned it, or its dict "
            "form."
        ) from error


def _parts_of(content: object | None) -> Sequence[object]:
    if content is None:
        return ()
    if isinstance(content, Mapping):
        parts = cast("Mapping[str, Any]", content).get("parts")
    else:
        parts = getattr(content, "parts", None)
    return parts or ()


def _function_call_of(item: object) -> Any:
    """The FunctionCall of a Part, the FunctionCall itself, or None for another part."""
    kind = type(item).__name__  # by name: pydantic makes a missing attribute slow to probe
    if kind == "Part":
        return getattr(item, "function_call")  # noqa: B009 - None when text, a thought...
    if kind == "FunctionCall":
        return item
    if isinstance(item, dict):
        return _function_call_of_dict(cast("dict[str, Any]", item))
    if is_sdk_type(type(item)) and not type(item).__module__.startswith("google.genai."):
        raise wrong_object(item, "gemini", _EXPECTED_PART)
    call = getattr(item, "function_call", _MISSING)
    if call is not _MISSING:
        return call  # a Part-like object
    if hasattr(item, "args") and hasattr(item, "name"):
        return item  # a FunctionCall-like object
    if isinstance(item, Mapping):
        return _function_call_of_dict(cast("Mapping[str, Any]", item))
    raise wrong_object(item, "gemini", _EXPECTED_PART)


_EXPECTED_PART = "a Gemini part or function call (or its dict form)"


def _function_call_of_dict(data: Mapping[str, Any]) -> Any:
    call = data.get("function_call") or data.get("functionCall")
    if call is not None:
        return call
    if "name" in data and data.keys() <= _FUNCTION_CALL_KEYS:
        return data  # a FunctionCall dict
    if data.keys() <= GEMINI_PART_KEYS:
        return None  # a Part dict that is not a call (text, a thought...)
    raise wrong_object(data, "gemini", _EXPECTED_PART)


class _SynthesizedIds:
    """`synthesized_id(response_id, ordinal)` for one turn, with the prefix computed once."""

    __slots__ = ("_prefix", "_response_id")

    def __init__(self, response_id: str | None) -> None:
        self._response_id = response_id
        self._prefix: str | None = None

    def __call__(self, ordinal: int) -> str:
        prefix = self._prefix
        if prefix is None:
            # synthesized_id ends with the ordinal: strip the "0" once, append each ordinal.
            prefix = self._prefix = synthesized_id(self._response_id, 0)[:-1]
        return prefix + str(ordinal)


def _standard_call(call: Any, ordinal: int, ids: _SynthesizedIds) -> StandardToolCall:
    partial = getattr(call, "partial_args", _MISSING)
    if partial is not _MISSING:  # an SDK FunctionCall
        call_id, name, args, will_continue = call.id, call.name, call.args, call.will_continue
    else:
        data = cast("Mapping[str, Any]", call)
        call_id = call_text(data.get("id"), "id", "gemini")
        name, args = call_text(data.get("name"), "name", "gemini"), data.get("args")
        partial = data.get("partial_args") or data.get("partialArgs")
        will_continue = data.get("will_continue") or data.get("willContinue")
    arguments: Mapping[str, Any] | str = {} if args is None else args
    truncated = bool(will_continue)
    if partial:
        arguments = fold_arguments(args, _partial_args(partial))
    if call_id:
        return StandardToolCall("function", call_id, name or "", arguments, False, truncated)
    return StandardToolCall("function", ids(ordinal), name or "", arguments, True, truncated)


def _partial_args(partials: Sequence[Any]) -> list[Any]:
    """`PartialArg`s, from the SDK's objects or their dict forms (snake or camel case)."""
    from google.genai import types

    return [
        types.PartialArg.model_validate(item) if isinstance(item, Mapping) else item
        for item in partials
    ]


def _get(data: object, snake: str, camel: str | None = None) -> Any:
    if not isinstance(data, Mapping):
        return getattr(data, snake, None)
    mapping = cast("Mapping[str, Any]", data)
    value = mapping.get(snake)
    if value is None and camel is not None:
        value = mapping.get(camel)
    return value


_FUNCTION_CALL_KEYS = gemini_keys("id", "args", "name", "partial_args", "will_continue")
_TURN_KEYS = gemini_keys(
    "candidates", "parts", "content", "response_id", "prompt_feedback", "usage_metadata"
)
"""Keys of a Gemini response, candidate or Content dict (not a single part or call)."""


ADAPTER = GeminiAdapter()
