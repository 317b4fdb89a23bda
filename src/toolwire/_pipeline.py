"""The neutral dispatch pipeline, written once for sync and async.

find the tool -> check limits -> validate the arguments -> (the caller runs the
handler) -> wrap the outcome. Everything here is synchronous; `toolwire.core`
calls the handler directly and `toolwire.aio` awaits it. That handler call is
the only difference between the two.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pydantic

from . import _feedback
from ._batch import CallTimedOut, timeout_failure
from ._call import StandardToolCall
from ._definition import is_tool_search
from ._json import copy_json
from ._limits import ArgumentLimits, check_dict, check_text
from ._mcp_approval import MCP_APPROVAL, is_approval_tool
from ._parts import FilePart, ImagePart, ResultPart, SearchResultPart, parts_text
from ._plan import PLAN, UNPLANNED, make_plan, shares_input
from ._references import ToolReference
from ._result import ToolCallFailReason, ToolCallFailure, ToolCallSuccess
from ._tool import ToolModel, refuse_extra_fields
from .exceptions import (
    CallKindMismatchError,
    ErrorForLLMToSee,
    ToolwireError,
    UnhandledCallsError,
)

__all__ = [
    "Crashed",
    "explicit_failure",
    "invalid",
    "over_limit",
    "prepare",
    "prepare_all",
    "prepare_one",
    "success",
]

_NO_ARGUMENTS = "{}"


def prepare(
    tool: type[ToolModel] | None,
    call: StandardToolCall,
    limits: ArgumentLimits,
    available: Mapping[str, object],
    pending: bool = False,
) -> ToolModel | ToolCallFailure:
    """Validate `call` for `tool`: the tool instance to run, or the failure to answer with.

    `tool` is None when no tool has the call's name; `available` lists the names
    the model may use (for the error text). A call whose kind (function/custom)
    does not match its tool is a developer mistake and raises, as does a call of an
    external tool (`model_tool_external`) unless it is validated to wait (`pending`).

    This is the general path, for every call: `prepare_all` takes the common case
    (a planned function tool's JSON or dict arguments) before it, in its own loop.
    """
    raw: Any = call.input
    if call.truncated:
        return _failure(call, "truncated", _feedback.truncated(call.name))
    if tool is None:
        if call.type == "tool_search":
            raise UnhandledCallsError(_no_tool_search(call.id))
        if call.type == MCP_APPROVAL:
            raise UnhandledCallsError(_approve_first(call))
        return _failure(call, "invalid_name", _feedback.unknown_tool(call.name, available))
    if tool.model_tool_type != call.type and not (
        (call.type == "tool_search" and is_tool_search(tool))
        or (call.type == MCP_APPROVAL and is_approval_tool(tool))
    ):
        raise CallKindMismatchError(
            f"The model sent a {call.type} call to {_feedback.shown(call.name)}, but {tool.__name__} is a "
            f"{tool.model_tool_type} tool. Offer each tool in the kind it is defined as: use "
            "BaseCustomToolModel for custom (free-text) tools and BaseFunctionToolModel for "
            "function tools."
        )
    if tool.model_tool_external and not pending:
        raise UnhandledCallsError(_external_call(call.id, tool.__name__))
    if call.type == "custom":
        return _validate_custom(tool, call, raw, limits)
    if isinstance(raw, str):
        if raw[:1] != "{":
            stripped = raw.strip()
            if stripped in ("", "null"):
                raw = _NO_ARGUMENTS
            elif stripped[:1] != "{":
                return _failure(call, "invalid_arguments", _not_object(call.name, stripped))
        problem = check_text(raw, limits)
        if problem is not None:
            return over_limit(call, problem)
        try:
            return tool.__pydantic_validator__.validate_json(raw)
        except pydantic.ValidationError as error:
            return invalid(call, error)
    if raw is None:
        raw = {}
    if isinstance(raw, Mapping):
        problem = check_dict(raw, limits)
        if problem is not None:
            return over_limit(call, problem)
        if shares_input(tool):
            raw = copy_json(dict(cast("Mapping[str, Any]", raw)))
        try:
            return tool.model_validate(raw, strict=False)
        except pydantic.ValidationError as error:
            return invalid(call, error)
    return _failure(call, "invalid_arguments", _feedback.not_an_object(call.name, _json_kind(raw)))


def _external_call(call_id: str, tool: str) -> str:
    return (
        f"This response holds a call {call_id!r} to {tool}, an external tool "
        "(model_tool_external): its calls are answered elsewhere, never run here. Validate "
        "the response with group.prepare_tool_calls(...), answer that call with "
        "pending.answer(content) once its result comes, and give the batch to "
        "group.run_pending(...)."
    )


def _approve_first(call: StandardToolCall) -> str:
    return (
        f"This response holds an mcp_approval_request {call.id!r} (the MCP server wants to "
        f"run {call.name!r}), which waits for your decision: prepare the calls with "
        "group.prepare_tool_calls(response) (the request is a PendingCall that always "
        "needs approval: run it to approve, `pending.refuse(reason)` to refuse), or "
        "answer it with mcp_approval_response(request, approve) and pass "
        'other_calls="ignore".'
    )


def _no_tool_search(call_id: str) -> str:
    return (
        f"This response holds a tool_search_call {call_id!r} the client runs, but this "
        "group has no tool search to answer it. Add one with "
        'group.add_tool_search(execution="client") (it searches the group\'s deferred '
        "tools), or answer it yourself: leave the tool_search_call out of what you pass "
        "here, and append your own tool_search_output for it."
    )


class Crashed:
    """A call whose validation raised something other than a validation error (a
    validator calling `Path.resolve(strict=True)` raises `FileNotFoundError`): the call's
    unexpected error, which a batch handles like a handler's."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


def prepare_all(
    tools: Mapping[str, type[ToolModel]],
    calls: Sequence[StandardToolCall],
    limits: ArgumentLimits,
    pending: bool = False,
) -> list[ToolModel | ToolCallFailure | Crashed]:
    """`prepare` for every call of a batch, before any handler runs (`pending`: to wait
    for a decision, so external tools' calls are validated too).

    A developer mistake (`ToolwireError`) raises at once; any other exception out of
    validation becomes the call's `Crashed` entry, so the rest of the batch keeps its
    results.
    """
    prepared: list[ToolModel | ToolCallFailure | Crashed] = []
    find = tools.get
    for call in calls:
        tool = find(call.name)
        try:
            # The common case first, in this loop (one frame less per call): a function
            # call whose tool has a plan (see `_plan`), with JSON object text within the
            # limits (short text cannot break them: no scan), or dict arguments
            # (Anthropic, Gemini). Everything else, and text over a limit, takes
            # `prepare`, which says what is wrong in the order it always has.
            owner, validator, copies = getattr(tool, PLAN, UNPLANNED)
            if owner is not tool:  # not planned yet, or a parent class's plan
                owner, validator, copies = make_plan(tool) or UNPLANNED
            if validator is not None and call.type == "function" and not call.truncated:
                raw: Any = call.input
                if type(raw) is str and (
                    len(raw) <= limits.always_within or check_text(raw, limits) is None
                ):
                    try:
                        prepared.append(validator.validate_json(raw))
                        continue
                    except pydantic.ValidationError as error:
                        if raw[:1] == "{":  # an object: its errors; else `prepare` says
                            prepared.append(invalid(call, error))
                            continue
                elif type(raw) is dict:
                    problem = check_dict(raw, limits)
                    if problem is not None:
                        prepared.append(over_limit(call, problem))
                        continue
                    try:
                        prepared.append(
                            validator.validate_python(
                                copy_json(raw) if copies else raw, strict=False
                            )
                        )
                    except pydantic.ValidationError as error:
                        prepared.append(invalid(call, error))
                    continue
            prepared.append(prepare(tool, call, limits, tools, pending))
        except ToolwireError:
            raise
        except Exception as error:
            prepared.append(Crashed(error))
    return prepared


def prepare_one(
    call: StandardToolCall, available: Mapping[str, type[ToolModel]], limits: ArgumentLimits
) -> ToolModel | ToolCallFailure:
    """`prepare_all` for a lone call (`run_tool_call`): its tool instance or failure, with
    the tool of its name among `available`. An exception out of validation propagates
    as it is (a batch makes it the call's `Crashed` entry instead)."""
    item = prepare_all(available, (call,), limits)[0]
    if type(item) is Crashed:
        raise item.error
    return cast("ToolModel | ToolCallFailure", item)


def success(call: StandardToolCall, tool: ToolModel, returned: Any) -> ToolCallSuccess[Any]:
    """Wrap what a handler returned: `(content, context)` or a `HandlerResult`, where
    content is text or a sequence of text, `ImagePart` and `FilePart`.

    Anything else is a bug in the handler and raises `TypeError`.
    """
    if isinstance(returned, tuple) and len(returned) == 2:  # pyright: ignore[reportUnknownArgumentType]
        content, context = returned  # pyright: ignore[reportUnknownVariableType]
        if isinstance(content, str):  # the common return, `(text, context)`
            return ToolCallSuccess(call.id, call.name, content, context, call.type, call.synthesized_id)  # pyright: ignore[reportUnknownArgumentType]  # fmt: skip
        if isinstance(content, list | tuple):
            parts = tuple(cast("Sequence[object]", content))
            wrong = next((p for p in parts if not isinstance(p, _PART_TYPES)), _OK)
            if wrong is _OK:
                return ToolCallSuccess(
                    call.id,
                    call.name,
                    parts_text(parts),  # pyright: ignore[reportArgumentType]
                    context,  # pyright: ignore[reportUnknownArgumentType]
                    call.type,
                    call.synthesized_id,
                    result_parts=cast("tuple[ResultPart, ...]", parts),
                )
            got = (
                f"a sequence of parts holding a {type(wrong).__name__} (parts are str, "
                "ImagePart, FilePart, ToolReference and SearchResultPart)"
            )
        else:
            got = f"a pair whose first item is of type {type(content).__name__}"  # pyright: ignore[reportUnknownArgumentType]
    elif isinstance(returned, tuple):
        got = f"a tuple of {len(returned)} items"  # pyright: ignore[reportUnknownArgumentType]
    else:
        got = f"a value of type {type(returned).__name__}"
    raise TypeError(
        f"{type(tool).__name__}.model_tool_handler returned {got}; it must return "
        "(content, context) or HandlerResult(result_content=..., context=...), where content "
        "is a str or a list of str, ImagePart and FilePart."
    )


_OK = object()
_PART_TYPES = (str, ImagePart, FilePart, ToolReference, SearchResultPart)


def explicit_failure(call: StandardToolCall, error: ErrorForLLMToSee) -> ToolCallFailure:
    """The failure answering a call whose handler raised `ErrorForLLMToSee` (a "timeout"
    failure when it is `CallTimedOut`)."""
    if isinstance(error, CallTimedOut):
        return timeout_failure(call, error.seconds, error)
    return _failure(call, "explicit_handler_error", _feedback.explicit_error(error), error)


def _validate_custom(
    tool: type[ToolModel], call: StandardToolCall, raw: object, limits: ArgumentLimits
) -> ToolModel | ToolCallFailure:
    refuse_extra_fields(tool)
    text = "" if raw is None else raw
    if not isinstance(text, str):
        return _failure(
            call,
            "invalid_arguments",
            f"The input for {_feedback.shown(call.name)} must be text. Call it again with text.",
        )
    if len(text) > limits.max_chars:
        problem = f"the input is {len(text):,} characters long; the limit is {limits.max_chars:,}"
        return over_limit(call, problem)
    try:
        return tool.model_validate({"input": text})
    except pydantic.ValidationError as error:
        return invalid(call, error)


def over_limit(call: StandardToolCall, problem: str) -> ToolCallFailure:
    """The failure answering arguments that break a limit (`problem` says which)."""
    return _failure(call, "invalid_arguments", _feedback.limit_exceeded(call.name, problem))


def invalid(call: StandardToolCall, error: pydantic.ValidationError) -> ToolCallFailure:
    """The failure answering arguments the tool's validation refused. Invalid JSON is
    the arguments' own only when it is at their root: a `Json[...]` field holding bad
    JSON is that field's error, listed like any other."""
    errors = error.errors(include_url=False) if error.error_count() == 1 else ()
    if errors and errors[0]["type"] == "json_invalid" and not errors[0]["loc"]:
        return _failure(call, "invalid_arguments", _feedback.invalid_json(call.name, error), error)
    return _failure(call, "invalid_arguments", _feedback.validation_errors(call.name, error), error)


def _not_object(name: str, stripped: str) -> str:
    """The failure text for arguments that are not a JSON object, naming what they are as
    JSON reads them (`tomorrow` is not JSON, not `true`). Text past `_NAMED_UP_TO`
    characters is not parsed to name it."""
    if len(stripped) > _NAMED_UP_TO:
        return _feedback.not_an_object(name, f"{len(stripped):,} characters of other text")
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return _feedback.not_an_object(name, "not JSON")
    return _feedback.not_an_object(name, _json_kind(value))


_NAMED_UP_TO = 4096
"""Longer arguments that are not an object are not parsed only to say what they are."""


def _json_kind(value: object) -> str:
    """What a JSON value (or the Python value a dict-argument API sent) is, in JSON's words."""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a JSON string"
    if isinstance(value, list | tuple):
        return "a JSON array"
    return f"a {type(value).__name__} (not a JSON value)"


def _failure(
    call: StandardToolCall,
    reason: ToolCallFailReason,
    content: str,
    exception: BaseException | None = None,
) -> ToolCallFailure:
    error = exception if exception is not None else ErrorForLLMToSee(content)
    return ToolCallFailure(
        call.id, call.name, content, reason, error, call.type, call.synthesized_id
    )
