"""Programmatic tool calling on Responses: the callers a definition names, and who made
a call. No SDK import.

A tool whose `allowed_callers` holds "programmatic" may be called by the JavaScript
program the model runs (offered by a `{"type": "programmatic_tool_calling"}` tool). The
response then holds a `program` item (its `code` and an opaque `fingerprint` that must
be replayed unchanged) and the program's `function_call`s, each with `caller: {"type":
"program", "caller_id": <the program's call_id>}`; a later response holds its
`program_output`. Both items replay as the API sent them (`replay.py` keeps every key
their param types define), so nothing else is needed to continue: replay the turn, or
chain with `previous_response_id`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._callers import ProgrammaticCaller, ToolCallerKind
from .._base import field

__all__ = ["CALLER_NAMES", "PROGRAMMATIC", "caller_of"]

PROGRAMMATIC = "programmatic"
"""The one programmatic caller Responses names (`ProgrammaticCaller.kind` here)."""

CALLER_NAMES: Mapping[ToolCallerKind, str] = {
    "direct": "direct",
    "programmatic": PROGRAMMATIC,
    "code_execution_20250825": PROGRAMMATIC,
    "code_execution_20260120": PROGRAMMATIC,
    "code_execution_20260521": PROGRAMMATIC,
}
"""`model_tool_allowed_callers` as Responses' `allowed_callers` names them: Anthropic's
code execution versions are its one program runtime."""


def caller_of(caller: object) -> ProgrammaticCaller | None:
    """A call item's `caller` (SDK model or dict) read: None for the model itself
    ("direct", or no caller), else the program that made the call."""
    if caller is None or field(caller, "type") != "program":
        return None
    caller_id: Any = field(caller, "caller_id")
    return ProgrammaticCaller(PROGRAMMATIC, caller_id if isinstance(caller_id, str) else "")
