"""Anthropic tool choice: `{"type": "auto" | "any" | "tool" | "none"}`, with the parallel
switch inside it (`disable_parallel_tool_use`), refusing what the API answers 400 to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ...exceptions import ToolChoiceError, UnsupportedToolError

if TYPE_CHECKING:
    from ..._tool_choice import CheckedChoice

__all__ = ["choice_params"]


def choice_params(
    choice: CheckedChoice, *, parallel: bool | None, thinking: object
) -> dict[str, Any]:
    """The create call's arguments for `choice`."""
    return {"tool_choice": _tool_choice(choice, parallel, thinking)}


def _tool_choice(choice: CheckedChoice, parallel: bool | None, thinking: object) -> Any:
    if choice.tool is not None and choice.kind == "custom":
        raise UnsupportedToolError(
            f"{choice.tool} is a custom (free-text) tool; Anthropic has no custom tools. "
            "Force a function tool, or use an OpenAI API."
        )
    if choice.mode == "none":
        return {"type": "none"}  # takes no parallel switch: no call will be made
    if choice.mode == "required" and _extended_thinking(thinking):
        raise ToolChoiceError(
            "Anthropic rejects a forced tool choice ('required' or one named tool) while "
            "extended thinking is on (HTTP 400). Use 'auto' and say in the prompt which "
            "tool to call, or turn thinking off for this request (adaptive thinking "
            "accepts a forced choice)."
        )
    block: dict[str, Any] = (
        {"type": "tool", "name": choice.tool}
        if choice.tool is not None
        else {"type": "any"}
        if choice.mode == "required"
        else {"type": "auto"}
    )
    if parallel is not None:
        block["disable_parallel_tool_use"] = not parallel
    return block


def _extended_thinking(thinking: object) -> bool:
    """Whether `thinking` (a bool, or the request's `thinking` param) is extended
    thinking with a token budget: the mode that refuses forced tool choice."""
    if isinstance(thinking, bool):
        return thinking
    if isinstance(thinking, Mapping):
        settings = cast("Mapping[str, object]", thinking)
        return settings.get("type") == "enabled"
    return False
