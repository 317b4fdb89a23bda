"""Decisions beyond "run it" and "refuse it": run a call with arguments a person edited,
or answer it with a result produced elsewhere (a front end, another service, a person).

Both keep the rules of pending calls: the model's own call stays in the history as it
sent it, its id gets exactly one answer, and the decision survives `dump_pending`. An
edit is validated again with the tool class that validated the call, so what runs is
what that tool accepts; an answer is a success result for the call's id, as if a
handler had returned it. `PendingCall.edit` and `PendingCall.answer` are the front
door; this module holds what they share with `run_pending` and the dumps.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, cast

from ._call import StandardToolCall
from ._json import copy_json
from ._limits import ArgumentLimits
from ._parts import FilePart, ImagePart, ToolContent
from ._pipeline import Crashed, prepare_all, success
from ._result import ToolCallFailure, ToolCallResult, ToolCallSuccess
from ._tool import ToolModel
from .exceptions import PendingCallError

__all__ = [
    "ArgumentEdit",
    "answer_result",
    "edit_note",
    "edited_arguments",
    "mark_edit",
    "restored_content",
    "stored_content",
    "validate_edit",
]

_NOTE_CHARS = 400
"""How much of the edited arguments the default note shows the model."""


@dataclass(frozen=True, slots=True)
class ArgumentEdit:
    """How a person changed a call's arguments before it ran: `PendingCall.edited`, and
    `result.edit` on the call's result.

    Attributes:
        original: the arguments the model sent (`call.input`, as it sent them).
        arguments: what ran instead: JSON data (a dict) for a function tool, the text for
            a custom tool.
        note: the text the model read before the result, or None (`note=False`).
    """

    original: str | Mapping[str, Any] | None
    arguments: Mapping[str, Any] | str
    note: str | None


def edited_arguments(
    pending_id: str, tool: type[ToolModel], arguments: object
) -> Mapping[str, Any] | str:
    """The edit as the arguments to validate: a dict for a function tool (copied, so
    later changes to yours do not reach it), text for a custom tool (or a function
    tool's JSON text), or the fields of a tool instance of the same class. An instance
    of another class raises `PendingCallError`: an edit may not change the tool."""
    if isinstance(arguments, ToolModel):
        if type(arguments) is not tool:
            raise PendingCallError(
                f"The edit for call {pending_id!r} is a {type(arguments).__name__}, but the "
                f"call is to {tool.__name__}: an edit changes the arguments, never the tool. "
                f"Pass a {tool.__name__} (or its arguments as a dict), or refuse the call "
                "(`pending.refuse(reason)`) and let the model call the other tool."
            )
        if tool.model_tool_type == "custom":
            return cast(str, arguments.model_dump()["input"])
        return arguments.model_dump(mode="json", by_alias=True)
    if isinstance(arguments, str):
        return arguments
    if isinstance(arguments, Mapping) and tool.model_tool_type == "function":
        return cast("dict[str, Any]", copy_json(dict(cast("Mapping[str, Any]", arguments))))
    wanted = "its new text" if tool.model_tool_type == "custom" else "a dict of its arguments"
    raise TypeError(
        f"pending.edit(...) for call {pending_id!r} to {tool.__name__} takes {wanted} (or a "
        f"{tool.__name__} instance); got a {type(cast(object, arguments)).__name__}."
    )


def validate_edit(
    call: StandardToolCall,
    tool: type[ToolModel],
    arguments: Mapping[str, Any] | str,
    limits: ArgumentLimits,
) -> ToolModel | ToolCallFailure | Crashed:
    """The edited arguments validated with the call's own tool class, as the model's
    arguments were: the instance to run, the failure saying why they are not valid, or
    the validator's crash (which the batch's error policy handles)."""
    edited = StandardToolCall(call.type, call.id, call.name, arguments, call.synthesized_id)
    return prepare_all({call.name: tool}, [edited], limits, pending=True)[0]


def refused_edit(call: StandardToolCall, invalid: ToolCallFailure, edit: ArgumentEdit) -> ToolCallFailure:  # fmt: skip
    """The answer for a call whose edited arguments failed validation: a "refused"
    failure the model can act on (what was wrong with them), never run."""
    refusal = ToolCallFailure.for_call(
        call,
        "The user edited the arguments of this call, but the edited arguments were not "
        f"valid, so it was not run. {invalid.result_content}",
        fail_reason="refused",
        exception=invalid.exception,
    )
    refusal._edit = edit
    return refusal


def edit_note(arguments: Mapping[str, Any] | str, note: bool | str) -> str | None:
    """The note the model reads before an edited call's result: yours, the default
    ("the arguments were edited to ..."), or None for `note=False`."""
    if note is False:
        return None
    if isinstance(note, str):
        return note or None
    shown = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    if len(shown) > _NOTE_CHARS:
        shown = shown[:_NOTE_CHARS] + "..."
    return f"Before this call ran, the user edited its arguments to: {shown}"


def mark_edit(result: ToolCallResult[Any], edit: ArgumentEdit) -> None:
    """Record `edit` on the result of the edited call, and put its note first in what
    the model reads (in front of the text, and of the parts when there are any)."""
    if getattr(result, "_edit", None) is not None:  # marked when the edit was refused
        return
    result._edit = edit
    note = edit.note
    if note is None:
        return
    result.result_content = f"{note}\n{result.result_content}" if result.result_content else note
    if result.result_parts:
        cast("ToolCallSuccess[Any]", result).result_parts = (note, *result.result_parts)


def answer_result(call: StandardToolCall, content: object, context: object) -> ToolCallSuccess[Any]:  # fmt: skip
    """The success result for a call answered elsewhere: `content` (text, or a sequence
    of text, `ImagePart`, `FilePart` and `ToolReference`) is what the model reads."""
    try:
        return success(call, cast(ToolModel, _ANSWER), (content, context))
    except TypeError:
        raise TypeError(
            f"pending.answer(...) for call {call.id!r} takes the content the model reads: "
            "text, or a list of str, ImagePart, FilePart and ToolReference; got "
            f"{_described(content)}."
        ) from None


class _Answer:
    """Names an answer in `success`'s error (never shown: `answer_result` words its own)."""


_ANSWER = _Answer()


def _described(content: object) -> str:
    if isinstance(content, list | tuple):
        parts = cast("Sequence[object]", content)
        kinds = sorted({type(p).__name__ for p in parts})
        return f"a {type(parts).__name__} holding {', '.join(kinds) or 'nothing'}"
    return f"a {type(content).__name__}"


def stored_content(call: StandardToolCall, answer: ToolCallSuccess[Any]) -> str | list[dict[str, Any]]:  # fmt: skip
    """An answer's content as JSON data for `dump_pending`: its text, or its parts
    (bytes base64-encoded). A part JSON cannot keep raises `PendingCallError`."""
    if not answer.result_parts:
        return answer.result_content
    stored: list[dict[str, Any]] = []
    for part in answer.result_parts:
        if isinstance(part, str):
            stored.append({"type": "text", "text": part})
        elif isinstance(part, ImagePart | FilePart):
            entry: dict[str, Any] = {"type": "image" if isinstance(part, ImagePart) else "file"}
            for field in fields(part):
                value = getattr(part, field.name)
                if value is not None:
                    entry[field.name] = base64.b64encode(value).decode() if field.name == "data" else value  # fmt: skip
            stored.append(entry)
        else:
            raise PendingCallError(
                f"The answer of call {call.id!r} to {call.name!r} holds a "
                f"{type(part).__name__}, which a dump cannot keep: store answers of text, "
                "ImagePart and FilePart, or run this batch before storing it.",
                calls=(call,),
            )
    return stored


def restored_content(stored: object) -> ToolContent:
    """`stored_content`'s JSON back as content; `ValueError`/`TypeError` for anything
    it did not write."""
    if isinstance(stored, str):
        return stored
    if not isinstance(stored, list):
        raise TypeError(f"an answer's content is a {type(stored).__name__}")
    parts: list[str | ImagePart | FilePart] = []
    for entry in cast("list[object]", stored):
        if not isinstance(entry, dict):
            raise TypeError(f"an answer's part is a {type(entry).__name__}")
        fields_of = dict(cast("dict[str, Any]", entry))
        kind = fields_of.pop("type", None)
        if kind == "text" and isinstance(fields_of.get("text"), str):
            parts.append(fields_of["text"])
            continue
        if kind not in ("image", "file"):
            raise ValueError(f"an answer's part has type {kind!r}")
        if "data" in fields_of:
            fields_of["data"] = base64.b64decode(fields_of["data"], validate=True)
        parts.append((ImagePart if kind == "image" else FilePart)(**fields_of))
    return parts
