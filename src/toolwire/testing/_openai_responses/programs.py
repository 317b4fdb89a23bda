"""Programmatic tool calling on Responses, in the fake and the history rules.

A turn whose calls a program makes holds a `program` item (its JavaScript `code` and an
opaque `fingerprint`, which "must be round-tripped", as the SDK's `Program` types say)
and then the calls, each with `caller: {"type": "program", "caller_id": <the program's
call_id>}` ("The call ID of the program item that produced this tool call"). Once every
call is answered, the program ends in a `program_output` item.

The rules read from those SDK docstrings: a replayed `program` item keeps its
`fingerprint`, and a call made by a program comes after that `program` item (in the
input, or in the response `previous_response_id` names). The live API's exact errors
are not recorded; the messages here are toolwire's own.

The fake answers `FakeCall(programmatic=True)`, and any call to a tool only programs
may call, with such a turn when the request lets a program make the call (a
`programmatic_tool_calling` tool, and "programmatic" in the tool's `allowed_callers`),
and refuses a reply asking for one it could not make.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..._adapters.openai_responses.items import flat_name
from .._fake import FakeCall, FakeReply, RejectedRequest
from .._fake_wire import joined_text, json_list
from .._rules import HistoryProblem, field, text_field

__all__ = [
    "PROGRAM_TOOL",
    "with_programs",
    "finished_programs",
    "program_item",
    "program_problem",
]

PROGRAM_TOOL = "programmatic_tool_calling"
"""The tool type that lets the model run programs calling the request's tools."""


def program_caller_id(item: Mapping[str, Any]) -> str:
    """The `caller_id` of a call a program made ("" for a direct call)."""
    caller = field(item, "caller")
    return text_field(caller, "caller_id") if text_field(caller, "type") == "program" else ""


def program_problem(
    index: int, item: Mapping[str, Any], kind: str, programs: set[str], where: str
) -> HistoryProblem | None:
    """The problem with `item` (of type `kind`, named `where`) under the program rules;
    `programs`: the call ids of the program items before it, grown by this one. An item
    of the response `previous_response_id` names (`index` -1) is the API's own, kept as
    it sent it: nothing to check (a running program's later turn holds its calls
    without the program item, which an earlier response of the chain holds)."""
    if kind == "program":
        call_id = text_field(item, "call_id")
        programs.add(call_id)
        if index >= 0 and not text_field(item, "fingerprint"):
            return HistoryProblem(
                index,
                f"{where} (program {call_id!r}) has no fingerprint; replay the program item "
                "as the API returned it: its fingerprint must round-trip unchanged",
            )
        return None
    caller_id = program_caller_id(item)
    if index < 0 or not caller_id or caller_id in programs:
        return None
    return HistoryProblem(
        index,
        f"{where} ({kind} {text_field(item, 'call_id')!r}, {text_field(item, 'name')}) was "
        f"made by the program {caller_id!r}, but no program item with that call_id comes "
        "before it; replay the response's program item (with its fingerprint) before its "
        "calls, as assistant_messages does, or chain with previous_response_id",
    )


def with_programs(reply: FakeReply, tools: Sequence[Any]) -> FakeReply:
    """`reply` with its calls to a tool only programs may call (`allowed_callers`
    without "direct") made by a program, as the live model could only make them; a
    reply whose programmatic call the request does not let a program make is refused."""
    callers = _allowed_callers(tools)
    calls = tuple(
        replace(call, programmatic=True)
        if not call.programmatic and _program_only(callers.get(call.name))
        else call
        for call in reply.calls
    )
    _check_programmatic(calls, tools, callers)
    return reply if calls == reply.calls else replace(reply, calls=calls)


def _program_only(callers: list[Any] | None) -> bool:
    """Whether a tool's `allowed_callers` let only programs call it."""
    return bool(callers) and "direct" not in callers


def _check_programmatic(
    calls: Sequence[FakeCall], tools: Sequence[Any], callers: Mapping[str, list[Any]]
) -> None:
    """Refuse a reply whose programmatic call the request does not let a program make:
    the live model could not have made it."""
    programmatic = [call for call in calls if call.programmatic]
    if not programmatic:
        return
    if not any(text_field(tool, "type") == PROGRAM_TOOL for tool in tools):
        raise RejectedRequest(
            f"toolwire fake: the reply calls {programmatic[0].name!r} from a program "
            "(FakeCall(programmatic=True), or the tool's allowed_callers leave out 'direct'), "
            f"but the request offers no {{'type': '{PROGRAM_TOOL}'}} tool, so the model runs "
            "no program; add that tool to `tools`."
        )
    for call in programmatic:
        if "programmatic" not in callers.get(call.name, ()):
            raise RejectedRequest(
                f"toolwire fake: the reply calls {call.name!r} from a program, but that "
                "tool's allowed_callers do not hold 'programmatic' (set "
                'model_tool_allowed_callers = ["programmatic"] on its class).'
            )


def _allowed_callers(tools: Sequence[Any], namespace: str = "") -> dict[str, list[Any]]:
    """Each function tool's `allowed_callers`, by the name a call uses (a namespace's
    tools by their flat name, `crm__find`, and by their own)."""
    found: dict[str, list[Any]] = {}
    for tool in tools:
        name = text_field(tool, "name")
        if text_field(tool, "type") == "namespace":
            found.update(_allowed_callers(json_list(field(tool, "tools")), name))
            continue
        callers = json_list(field(tool, "allowed_callers"))
        found[name] = found[flat_name(name, namespace)] = callers
    return found


def program_item(calls: Sequence[FakeCall], response_id: str, number: int) -> dict[str, Any]:
    """The `program` item that makes `calls`: a JavaScript program awaiting them all, with
    a deterministic fingerprint."""
    awaited = ", ".join(f"tools.{call.name}({_argument_text(call)})" for call in calls)
    code = f"const results = await Promise.all([{awaited}]);\ntext(JSON.stringify(results));"
    digest = hashlib.sha256(f"{response_id}:{number}:{code}".encode()).hexdigest()
    return {
        "id": f"prog_fake{number}",
        "type": "program",
        "call_id": f"program_{number}",
        "code": code,
        "fingerprint": f"fake_fingerprint_{digest}",
    }


def _argument_text(call: FakeCall) -> str:
    return call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)


def finished_programs(items: Sequence[Any], next_id: Callable[[], int]) -> list[dict[str, Any]]:
    """The `program_output` items of the programs in `items` whose calls are all answered
    and that have no output yet: the result is the JSON list of their calls' outputs."""
    outputs = {
        text_field(item, "call_id"): field(item, "output")
        for item in items
        if text_field(item, "type") in ("function_call_output", "custom_tool_call_output")
    }
    ended = {text_field(i, "call_id") for i in items if text_field(i, "type") == "program_output"}
    finished: list[dict[str, Any]] = []
    for item in items:
        program = text_field(item, "call_id")
        if text_field(item, "type") != "program" or program in ended:
            continue
        made = [text_field(i, "call_id") for i in items if program_caller_id(i) == program]
        if made and all(call_id in outputs for call_id in made):
            finished.append(
                {
                    "id": f"prout_fake{next_id()}",
                    "type": "program_output",
                    "call_id": program,
                    "result": json.dumps([joined_text(outputs[call_id]) for call_id in made]),
                    "status": "completed",
                }
            )
    return finished
