"""Programmatic tool calling on Anthropic: who made a `tool_use` (its `caller`), and the
code execution container the next request must name again.

A tool with `allowed_callers` naming a code execution version may be called by the
program the model runs there; that `tool_use` carries `caller: {"type":
"code_execution_20250825", "tool_id": ...}`, and the response's `container` holds the
program's state until the results come back, in a request that names it.

The portable caller "programmatic" is sent as `code_execution_20250825`, the version
Anthropic's programmatic tool calling guide offers; a tool that names another version
gets that one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._callers import ProgrammaticCaller, ToolCallerKind
from .._base import field

__all__ = ["CALLER_NAMES", "caller_of", "next_request_container"]

CALLER_NAMES: Mapping[ToolCallerKind, str] = {
    "direct": "direct",
    "programmatic": "code_execution_20250825",
    "code_execution_20250825": "code_execution_20250825",
    "code_execution_20260120": "code_execution_20260120",
    "code_execution_20260521": "code_execution_20260521",
}
"""`model_tool_allowed_callers` as Anthropic's `allowed_callers` names them."""


def caller_of(caller: object) -> ProgrammaticCaller | None:
    """A `tool_use` block's `caller` (SDK model or dict) read: None for the model itself
    ("direct", or no caller), else who called it."""
    kind: Any = field(caller, "type")
    if not isinstance(kind, str) or kind == "direct":
        return None
    tool_id: Any = field(caller, "tool_id")
    return ProgrammaticCaller(kind, tool_id if isinstance(tool_id, str) else "")


def next_request_container(response: object) -> str | None:
    """The `container` id the next `messages.create` must pass (`container=...`) to
    continue `response` (a Message or its dict form): its code execution container, where
    a program waits for the results of the tools it called. None when the response used
    no container."""
    container: Any = field(response, "container")
    if container is None:
        return None
    container_id: Any = field(container, "id")
    return container_id if isinstance(container_id, str) and container_id else None
