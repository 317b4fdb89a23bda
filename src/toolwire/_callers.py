"""Programmatic tool calling: which callers may call a tool, and who called it.

A model with code execution may call tools from inside the program it runs, instead of
one turn per call. A tool opts in with `model_tool_allowed_callers` (checked here when
the class is made); each API's adapter names its callers (`Adapter.caller_names`), and
the definition carries them as that API names them. Each call then says who made it in
`StandardToolCall.caller`: None for the model itself, a `ProgrammaticCaller` for its
code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from .exceptions import ToolDefinitionError, UnsupportedToolError

if TYPE_CHECKING:
    from ._schema import SchemaReport

__all__ = [
    "ToolCallerKind",
    "ProgrammaticCaller",
    "allowed_callers_of",
    "custom_tool_callers",
    "with_callers_reported",
]

ToolCallerKind = Literal[
    "direct",
    "programmatic",
    "code_execution_20250825",
    "code_execution_20260120",
    "code_execution_20260521",
]
"""Who may call a tool: "direct" (the model, as usual), "programmatic" (the program the
model runs, on every API that has programmatic tool calling: OpenAI Responses'
"programmatic", Anthropic's code execution `code_execution_20250825`), or a version of
Anthropic's code execution tool (sent as "programmatic" on Responses)."""

_KINDS: frozenset[str] = frozenset(get_args(ToolCallerKind))


@dataclass(frozen=True, slots=True)
class ProgrammaticCaller:
    """Who made a call that the model did not make directly: the code it runs.

    Attributes:
        kind: the caller as the API's `allowed_callers` names it: the code execution
            version on Anthropic (e.g. "code_execution_20250825"), "programmatic" on
            OpenAI Responses.
        tool_id: the id of what ran the program that made the call: the code execution's
            `server_tool_use` id on Anthropic, the `program` item's `call_id` on
            Responses (the call's `caller.caller_id`).
    """

    kind: str
    tool_id: str


def allowed_callers_of(cls: type) -> tuple[ToolCallerKind, ...]:
    """`cls.model_tool_allowed_callers` checked (called when the class is made): a
    non-empty list of known callers, each once. () when unset."""
    given: object = getattr(cls, "model_tool_allowed_callers", None)
    if given is None:
        return ()
    where = f"{cls.__name__}.model_tool_allowed_callers"
    allowed = ", ".join(repr(kind) for kind in sorted(_KINDS))
    if isinstance(given, str) or not isinstance(given, Sequence):
        raise ToolDefinitionError(
            f'{where} is {given!r}: set it to a list of callers, e.g. ["programmatic"] '
            f"(allowed: {allowed}), or None for the default."
        )
    kinds: list[Any] = list(given)  # pyright: ignore[reportUnknownArgumentType]
    if not kinds:
        raise ToolDefinitionError(
            f"{where} is empty, so nobody could call the tool: name at least one caller "
            f"({allowed}), or set None for the default (the model calls it directly)."
        )
    for kind in kinds:
        if kind not in _KINDS:
            raise ToolDefinitionError(f"{where} names {kind!r}, which is no caller: use {allowed}.")
    if len(set(kinds)) != len(kinds):
        raise ToolDefinitionError(f"{where} names a caller twice: name each once.")
    return tuple(kinds)


def with_callers_reported(
    callers: tuple[ToolCallerKind, ...],
    report: SchemaReport,
    api: str,
    names: Mapping[ToolCallerKind, str],
) -> tuple[tuple[str, ...], SchemaReport]:
    """(callers as `api` names them, each once, report) for its definition: `names` is
    its `Adapter.caller_names`. A caller sent under another name is said in the report
    ("rewritten", lossless); where the API has no callers (`names` empty) they are left
    out and the report says so (the model then calls the tool directly, the only way
    that API calls tools)."""
    if not callers:
        return (), report
    from ._schema import SchemaChange, SchemaReport

    if not names:
        change = SchemaChange(
            "",
            "allowed_callers",
            "removed",
            f"{api} has no programmatic tool calling: allowed_callers "
            f"{list(callers)} is left out and the model calls the tool directly",
            lossy=True,
        )
        return (), SchemaReport(report.api, report.strict, (*report.changes, change))
    sent = _sent(callers, names)
    changes = tuple(
        SchemaChange(
            "",
            "allowed_callers",
            "rewritten",
            f"allowed_callers {kind!r} is sent as {names[kind]!r}, the name {api} gives that caller",
            lossy=False,
        )
        for kind in callers
        if names[kind] != kind
    )
    if not changes:
        return sent, report
    return sent, SchemaReport(report.api, report.strict, (*report.changes, *changes))


def custom_tool_callers(
    cls: type, api: str, names: Mapping[ToolCallerKind, str]
) -> tuple[str, ...]:
    """A custom tool's `model_tool_allowed_callers` as `api` names them (`names`: its
    `Adapter.caller_names`), for its definition. A custom tool has no schema report to
    say a caller was left out, so an API without programmatic tool calling refuses
    them: the model would call the tool directly, against the class's word."""
    callers = allowed_callers_of(cls)
    if not callers:
        return ()
    if not names:
        raise UnsupportedToolError(
            f"{cls.__name__}.model_tool_allowed_callers is {list(callers)}, but {api} has no "
            "programmatic tool calling: its custom tool definitions take no allowed_callers. "
            "Offer the tool on OpenAI Responses, or set model_tool_allowed_callers = None "
            "(the model calls it directly) to offer it here."
        )
    return _sent(callers, names)


def _sent(
    callers: tuple[ToolCallerKind, ...], names: Mapping[ToolCallerKind, str]
) -> tuple[str, ...]:
    """`callers` as an API names them (`names`), each once, in order."""
    return tuple(dict.fromkeys(names[kind] for kind in callers))
