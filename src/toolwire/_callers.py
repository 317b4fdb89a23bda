"""Programmatic tool calling: which callers may call a tool, and who called it.

A model with code execution may call tools from inside the program it runs, instead of
one turn per call. A tool opts in with `model_tool_allowed_callers` (checked here when
the class is made); each call then says who made it in `StandardToolCall.caller`: None
for the model itself, a `ProgrammaticCaller` for its code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from .exceptions import ToolDefinitionError

if TYPE_CHECKING:
    from ._schema import SchemaReport

__all__ = ["ToolCallerKind", "ProgrammaticCaller", "allowed_callers_of", "with_callers_reported"]

ToolCallerKind = Literal[
    "direct", "code_execution_20250825", "code_execution_20260120", "code_execution_20260521"
]
"""Who may call a tool: "direct" (the model, as usual) or a version of the code
execution tool, whose program calls it (Anthropic's `allowed_callers` values)."""

_KINDS: frozenset[str] = frozenset(get_args(ToolCallerKind))


@dataclass(frozen=True, slots=True)
class ProgrammaticCaller:
    """Who made a call that the model did not make directly: the code it runs.

    Attributes:
        kind: the caller as the API names it, e.g. "code_execution_20250825".
        tool_id: the id of the server tool call (the code execution) whose program made
            the call.
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
            f"{where} is {given!r}: set it to a list of callers, e.g. "
            f'["code_execution_20250825"] (allowed: {allowed}), or None for the default.'
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
    callers: tuple[ToolCallerKind, ...], report: SchemaReport, api: str, *, native: bool
) -> tuple[tuple[ToolCallerKind, ...], SchemaReport]:
    """(callers sent in the definition, report) for `api`: sent where the API takes them,
    else left out and said in the report (the model then calls the tool directly, the
    only way that API calls tools)."""
    if not callers or native:
        return callers, report
    from ._schema import SchemaChange, SchemaReport

    change = SchemaChange(
        "",
        "allowed_callers",
        "removed",
        f"{api} has no programmatic tool calling: allowed_callers "
        f"{list(callers)} is left out and the model calls the tool directly",
        lossy=True,
    )
    return (), SchemaReport(report.api, report.strict, (*report.changes, change))
