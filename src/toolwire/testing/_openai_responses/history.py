"""History rules of the OpenAI Responses API, on the request's `input` list.

What the live API rejects, and how each rule reads:

- a `function_call` (by `call_id`) with no `function_call_output` carrying
  that `call_id` later in the input, and likewise a `custom_tool_call`
  without a `custom_tool_call_output` (live: "No tool output found for
  function call ...");
- an output whose `call_id` matches no earlier call (live: "No tool call
  found for function call output with call_id ..."), including an output
  placed before its call;
- the same for a `tool_search_call` the client runs (`execution: "client"`) and its
  `tool_search_output` (a search the server ran has no `call_id` and pairs nothing);
- the same for the client-executed built-in calls: a `shell_call` (one the client runs, not in a
  hosted container), `local_shell_call`, `apply_patch_call` or `computer_call` needs its
  `*_output` (a `local_shell_call_output`
  names its call in `id`); an `mcp_approval_response` must answer an earlier
  `mcp_approval_request` (by `approval_request_id`) once, but a request may stay
  unanswered (the server then does not run that MCP call);
- a second output for one call, an output of the wrong kind (a
  `custom_tool_call_output` for a `function_call`), and a call or output
  without a `call_id`;
- programmatic tool calling (`programs.py`): a `program` item without its
  `fingerprint`, and a call in the input whose `caller` names a program no earlier
  `program` item is (unless an `item_reference` may stand for it).

Accepted: items replayed as `item.model_dump()` (None-valued keys,
`"async_"`), messages without `type`, reasoning and any other items, and
outputs anywhere after their call. With `previous_response_id` the stored
items come first: `check_history` passes the previous response's output as `earlier`
(`chained_history_problems`: problems about those items are placed at index -1), while
the fake prepends all it stored for the chain to the input and numbers positions across
both. When the input holds an `item_reference`, an output whose call is not in the
input may answer the referenced item, so it is not reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from ...exceptions import UnexpectedObjectError
from .._rules import HistoryProblem, sorted_problems, text_field
from .._wire import wire_json
from .programs import program_problem

__all__ = [
    "chained_history_problems",
    "responses_history_problems",
    "unchained_history_problems",
]

_OUTPUT_OF = {
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
    "tool_search_call": "tool_search_output",
    "shell_call": "shell_call_output",
    "local_shell_call": "local_shell_call_output",
    "apply_patch_call": "apply_patch_call_output",
    "computer_call": "computer_call_output",
    "mcp_approval_request": "mcp_approval_response",
}
_CALL_OF = {output: call for call, output in _OUTPUT_OF.items()}
_ID_KEY = {
    "local_shell_call_output": "id",
    "mcp_approval_request": "id",
    "mcp_approval_response": "approval_request_id",
}
"""The key holding the id that pairs a call and its answer, where it is not `call_id`."""
_MAY_STAY_UNANSWERED = frozenset({"mcp_approval_request"})
_PROGRAM_ITEMS = frozenset({"program", "function_call", "custom_tool_call"})
"""A `program` item, and the calls a program may make."""


def _hosted(item: Mapping[str, Any]) -> bool:
    """A `shell_call` the server ran in a hosted container: its output is the server's."""
    environment = item.get("environment")
    return isinstance(environment, Mapping) and (
        cast("Mapping[str, Any]", environment).get("type") == "container_reference"
    )


_SEARCH_ITEMS = ("tool_search_call", "tool_search_output")


def _calls_answered_by(kind: str) -> str:
    """The calls an output of `kind` may answer, as its error names them."""
    if kind in ("function_call_output", "custom_tool_call_output"):
        return "function_call or custom_tool_call"
    return _CALL_OF[kind]


def _right_kind(call_kind: str) -> str:
    """What to answer a call of `call_kind` with, as a wrong-kind answer's error says."""
    if call_kind in ("function_call", "custom_tool_call"):
        return (
            "answer a function_call with a function_call_output and a custom_tool_call "
            "with a custom_tool_call_output"
        )
    return f"answer a {call_kind} with a {_OUTPUT_OF[call_kind]}"


def _id_of(item: Mapping[str, Any], kind: str) -> str:
    """The id pairing a call or answer of `kind` (its `call_id`, or see `_ID_KEY`)."""
    return text_field(item, _ID_KEY.get(kind, "call_id"))


def _kind(item: Mapping[str, Any]) -> str | None:
    """The item's type; None for a tool search the server ran (nothing to pair)."""
    kind = text_field(item, "type")
    if kind in _SEARCH_ITEMS and text_field(item, "execution") != "client":
        return None
    return kind


class _Call:
    def __init__(self, index: int, kind: str, name: str) -> None:
        self.index = index
        self.kind = kind
        self.name = name
        self.answered_at: int | None = None
        self.optional = False  # may stay unanswered


def responses_history_problems(
    items: Sequence[Mapping[str, Any]],
    earlier: Sequence[Mapping[str, Any]] = (),
    *,
    unanswerable_hint: str = "",
) -> list[HistoryProblem]:
    """Every reason the Responses API would reject `input`, in order. `earlier`: the
    output items of the response `previous_response_id` names, which come before it.
    `unanswerable_hint` ends the text of an output that answers no call."""
    if isinstance(items, str):
        return []
    offset = len(earlier)
    items = [*earlier, *items]
    where = _Where(offset)
    problems: list[HistoryProblem] = []
    calls: dict[str, list[_Call]] = {}
    later_calls = _first_call_positions(items)
    references = any(text_field(item, "type") == "item_reference" for item in items)
    programs: set[str] = set()
    for index, item in enumerate(items):
        kind = _kind(item)
        if kind is None:
            continue
        if kind in _PROGRAM_ITEMS:
            problem = program_problem(where.index(index), item, kind, programs, where(index))
            if problem is not None and (kind == "program" or not references):
                problems.append(problem)
        call_id = _id_of(item, kind)
        if kind in _OUTPUT_OF:
            name = text_field(item, "name") or "unnamed"
            if not call_id:
                problems.append(
                    HistoryProblem(
                        where.index(index),
                        f"{where(index)} ({kind}, {name}) has no {_ID_KEY.get(kind, 'call_id')}; "
                        "replay the item as the API returned it, "
                        f"{_ID_KEY.get(kind, 'call_id')} included",
                    )
                )
                continue
            call = _Call(index, kind, name)
            call.optional = kind in _MAY_STAY_UNANSWERED or _hosted(item)
            calls.setdefault(call_id, []).append(call)
        elif kind in _CALL_OF:
            problems += _output(
                index, kind, call_id, calls, later_calls, references, where, unanswerable_hint
            )
    for call_id, same_id in calls.items():
        for call in same_id:
            if call.answered_at is None and not call.optional:
                output = _OUTPUT_OF[call.kind]
                problems.append(
                    HistoryProblem(
                        where.index(call.index),
                        f"{where(call.index)} ({call.kind} {call_id!r}, {call.name}) has no "
                        f"{output} with {_ID_KEY.get(output, 'call_id')} {call_id!r} after it; "
                        f"append one {output} item per call, carrying its "
                        f"{_ID_KEY.get(output, 'call_id')}",
                    )
                )
    return sorted_problems(problems)


class _Where:
    """Names an item of `earlier + input` as the user knows it."""

    def __init__(self, offset: int) -> None:
        self.offset = offset

    def __call__(self, index: int) -> str:
        if index < self.offset:
            return f"the previous response's output[{index}]"
        return f"input[{index - self.offset}]"

    def index(self, index: int) -> int:
        """The problem's position in the input; -1 for the previous response's items."""
        return index - self.offset if index >= self.offset else -1


def _first_call_positions(items: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    positions: dict[str, int] = {}
    for index, item in enumerate(items):
        kind = _kind(item)
        call_id = _id_of(item, kind) if kind is not None else ""
        if kind in _OUTPUT_OF and call_id:
            positions.setdefault(call_id, index)
    return positions


def _output(
    index: int,
    kind: str,
    call_id: str,
    calls: dict[str, list[_Call]],
    later_calls: dict[str, int],
    references: bool,
    where: _Where,
    unanswerable_hint: str,
) -> list[HistoryProblem]:
    if not call_id:
        return [
            HistoryProblem(
                where.index(index),
                f"{where(index)} ({kind}) has no {_ID_KEY.get(kind, 'call_id')}; set it to "
                "the call_id of the call it answers",
            )
        ]
    same_id = calls.get(call_id, [])
    waiting = [call for call in same_id if call.answered_at is None]
    if waiting:
        call = waiting[0]
        call.answered_at = index
        if _OUTPUT_OF[call.kind] != kind:
            return [
                HistoryProblem(
                    where.index(index),
                    f"{where(index)} ({kind}) answers {call_id!r}, which is a {call.kind} "
                    f"({where(call.index)}); {_right_kind(call.kind)}",
                )
            ]
        return []
    if same_id:
        first = same_id[0].answered_at
        assert first is not None  # no call of this id waits: the first one was answered
        return [
            HistoryProblem(
                where.index(index),
                f"{where(index)} ({kind}) answers call_id {call_id!r} a second time "
                f"({where(first)} already did); send exactly one output per call",
            )
        ]
    if call_id in later_calls:
        return [
            HistoryProblem(
                where.index(index),
                f"{where(index)} ({kind}) answers call_id {call_id!r}, whose call only comes "
                f"later, at {where(later_calls[call_id])}; put each output after its call",
            )
        ]
    if references:
        return []
    return [
        HistoryProblem(
            where.index(index),
            f"{where(index)} ({kind}) has {_ID_KEY.get(kind, 'call_id')} {call_id!r}, but no "
            f"{_calls_answered_by(kind)} "
            "before it has that call_id; give each output the call_id of a "
            f"call that comes before it in the input{unanswerable_hint}",
        )
    ]


_CHAINED_HINT = (
    " (chained with previous_response_id? pass that response as previous_response= so "
    "its calls count)"
)


def unchained_history_problems(items: Sequence[Mapping[str, Any]]) -> list[HistoryProblem]:
    """The rules on a history `check_history` got without `previous_response`: an output
    that answers no call may answer one of a chained response, and its problem says so."""
    return responses_history_problems(items, unanswerable_hint=_CHAINED_HINT)


def chained_history_problems(
    items: Sequence[Mapping[str, Any]], previous_response: object
) -> list[HistoryProblem]:
    """The rules on a history that continues `previous_response` (the `Response` that
    `previous_response_id` names, or its dict form): its output items come first."""
    return responses_history_problems(items, _output_items(previous_response))


def _output_items(response: object) -> list[Mapping[str, Any]]:
    """The output items of a Responses response (SDK object or dict), as wire JSON."""
    data = wire_json(response)
    output: Any = data.get("output")
    if data.get("object") != "response" or not isinstance(output, list):
        raise UnexpectedObjectError(
            f"previous_response must be the Response that previous_response_id names (or "
            f"its dict form), with its output; got a {type(response).__name__}."
        )
    return [wire_json(item) for item in cast("list[object]", output)]
