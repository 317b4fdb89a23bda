"""Two-phase dispatch: validate a response's calls now, decide, run them later.

Between "the model asked" and "the handler ran" the caller may ask a person, refuse a
call, or wait days for an answer. `PendingCall` is one validated call waiting for that
decision; a list of them serializes to JSON, and restoring re-validates each call with
the group's current tool, refusing (with `PendingCallError`) a tool whose name or schema
changed meanwhile: what was approved is exactly what runs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, cast

from typing_extensions import TypeVar

from ._call import StandardToolCall
from ._limits import ArgumentLimits
from ._pipeline import Crashed, prepare_all
from ._result import ToolCallFailure
from ._tool import FunctionToolModel, ToolModel
from .exceptions import PendingCallError

__all__ = [
    "PendingCall",
    "decide",
    "dump_pending",
    "load_pending",
    "pending_calls",
    "prepared_items",
]

Tool = TypeVar("Tool", bound=ToolModel, default=ToolModel, covariant=True)

_FORMAT = "toolwire.pending/1"

DEFAULT_REFUSAL = (
    "The user did not approve this call, so it was not run. Do not try it again unless "
    "the user asks for it."
)


@dataclass(frozen=True, slots=True, eq=False)
class PendingCall(Generic[Tool]):
    """One call of a response, validated and waiting for your decision.

    Attributes:
        call: the call as the model sent it.
        tool: the validated tool instance (its fields are the arguments), or None when
            the call cannot run (then `failure` says why).
        failure: the failure that will answer the call (unknown tool, invalid
            arguments, truncated), or None when it can run.

    Run it with `group.run_pending([...])`, refuse it with `pending.refuse(reason)`,
    or keep it for later with `group.dump_pending([...])`.
    """

    call: StandardToolCall
    tool: Tool | None
    failure: ToolCallFailure | None
    _prepared: object

    @property
    def needs_approval(self) -> bool:
        """Whether the tool asks for your approval for these arguments
        (`model_tool_needs_approval`). A call that cannot run never does."""
        return self.tool is not None and self.tool.model_tool_needs_approval()

    def refuse(self, reason: str = DEFAULT_REFUSAL) -> ToolCallFailure:
        """The answer for a call you decided not to run: a "refused" failure whose text
        (`reason`) the model reads. Put it in `run_pending` in the call's place."""
        return ToolCallFailure.for_call(self.call, reason, fail_reason="refused")


def decide(pending: PendingCall[Any], verdict: object) -> PendingCall[Any] | ToolCallFailure:
    """An approval function's answer applied: True runs the call, False refuses it with
    the default text, a string refuses it with that text."""
    if verdict is True:
        return pending
    if verdict is False:
        return pending.refuse()
    if isinstance(verdict, str) and verdict.strip():
        return pending.refuse(verdict)
    raise TypeError(
        f"The approval function returned {verdict!r} for call {pending.call.id!r}; return "
        "True to run it, False to refuse it, or the reason (text the model reads) to "
        "refuse it with."
    )


def pending_calls(
    tools: Mapping[str, type[ToolModel]], calls: list[StandardToolCall], limits: ArgumentLimits
) -> list[PendingCall[Any]]:
    """Validate every call without running anything: one `PendingCall` per call."""
    return [
        _pending(call, item)
        for call, item in zip(calls, prepare_all(tools, calls, limits), strict=True)
    ]


def _pending(call: StandardToolCall, item: object) -> PendingCall[Any]:
    if isinstance(item, ToolCallFailure):
        return PendingCall(call, None, item, item)
    if isinstance(item, Crashed):  # its validator raised: the batch policy decides at run
        return PendingCall(call, None, None, item)
    return PendingCall(call, cast(ToolModel, item), None, item)


def prepared_items(
    decided: Sequence[PendingCall[Any] | ToolCallFailure],
) -> tuple[list[StandardToolCall], list[Any]]:
    """The calls and the batch's prepared items for `run_pending`: a refusal (or any
    failure you made) answers its call as is; a pending call runs if it can."""
    calls: list[StandardToolCall] = []
    items: list[Any] = []
    for entry in decided:
        if isinstance(entry, PendingCall):
            calls.append(entry.call)
            items.append(entry._prepared)
        elif isinstance(entry, ToolCallFailure):
            calls.append(
                StandardToolCall(entry.type, entry.call_id, entry.name, None, entry.synthesized_id)
            )
            items.append(entry)
        else:
            raise TypeError(
                f"run_pending takes PendingCall objects (to run) and ToolCallFailure "
                f"objects (e.g. from pending.refuse(reason)); got {type(entry).__name__}."
            )
    return calls, items


def fingerprint(tool: type[ToolModel]) -> str:
    """What must not change between validating a call and running it: the tool's kind
    and argument schema."""
    schema = (
        tool.model_tool_json_schema()
        if issubclass(tool, FunctionToolModel)
        else tool.model_json_schema()
    )
    text = json.dumps([tool.model_tool_type, schema], sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def dump_pending(tools: Mapping[str, type[ToolModel]], pending: Sequence[PendingCall[Any]]) -> str:
    """Pending calls as JSON text, to store until the decision comes."""
    entries: list[dict[str, Any]] = []
    for item in pending:
        call = item.call
        tool = tools.get(call.name)
        entries.append(
            {
                "type": call.type,
                "id": call.id,
                "name": call.name,
                "input": dict(call.input) if isinstance(call.input, Mapping) else call.input,
                "synthesized_id": call.synthesized_id,
                "truncated": call.truncated,
                "schema": fingerprint(tool) if tool is not None else None,
            }
        )
    return json.dumps({"format": _FORMAT, "calls": entries}, ensure_ascii=False)


def load_pending(
    tools: Mapping[str, type[ToolModel]], text: str, limits: ArgumentLimits
) -> list[PendingCall[Any]]:
    """Pending calls from `dump_pending`'s text, validated again with today's tools."""
    try:
        data: Any = json.loads(text)
        if data["format"] != _FORMAT:
            raise ValueError(data["format"])
        entries: list[dict[str, Any]] = list(data["calls"])
    except (ValueError, KeyError, TypeError) as error:
        raise PendingCallError(
            "This is not toolwire pending-call JSON (made by dump_pending): "
            f"{type(error).__name__}: {error}."
        ) from None
    calls: list[StandardToolCall] = []
    for entry in entries:
        call = StandardToolCall(
            entry["type"],
            entry["id"],
            entry["name"],
            entry["input"],
            entry["synthesized_id"],
            entry["truncated"],
        )
        tool = tools.get(call.name)
        stored = entry["schema"]
        if stored is not None and (tool is None or fingerprint(tool) != stored):
            change = "is no longer in the group" if tool is None else "changed its arguments"
            raise PendingCallError(
                f"The pending call {call.id!r} to {call.name!r} was validated against a "
                f"tool that {change} since. Its decision was made for what it was then: "
                "answer it with a failure (e.g. `ToolCallFailure.for_call(call, ...)`) "
                "and let the model call the current tool again."
            )
        calls.append(call)
    return pending_calls(tools, calls, limits)
