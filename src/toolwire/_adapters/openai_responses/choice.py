"""Responses tool choice: the mode as it is, `{"type": "function", "name": ...}`
(`"custom"` for a custom tool), or `{"type": "allowed_tools", ...}` over a subset, with the
top-level parallel switch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._openai import openai_choice_params

if TYPE_CHECKING:
    from ..._tool_choice import CheckedChoice

__all__ = ["choice_params"]


def choice_params(
    choice: CheckedChoice, *, parallel: bool | None, thinking: object
) -> dict[str, Any]:
    """The create call's arguments for `choice` (`thinking` changes nothing here)."""
    if choice.among:
        tools = [{"type": kind, "name": name} for name, kind in choice.among]
        allowed = {"type": "allowed_tools", "mode": choice.mode, "tools": tools}
        return openai_choice_params(allowed, parallel)
    if choice.tool is None:
        return openai_choice_params(choice.mode, parallel)
    return openai_choice_params({"type": choice.kind, "name": choice.tool}, parallel)
